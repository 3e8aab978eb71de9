// clex_rounds.cpp: A_L in synchronous rounds (clex_rounds.h). Messages are two parallel arrays,
// position and target, permuted in place into each call's sub-copies, so the peak memory is the
// messages plus one interim target each (round_model_bytes()).
#include "clex_rounds.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <stdexcept>

#include "clex_graph.h"
#include "rng.h"

namespace hx::clex {

const char* relay_mode_name(RelayMode m) { return m == RelayMode::Request ? "request" : "direct"; }

namespace {

struct Sums {
  double rounds = 0, rounds_handshake = 0, hops = 0;
};

class RoundModel {
 public:
  explicit RoundModel(const RoundParams& p)
      : p_(p), g_(p.k, p.levels), rng_(p.seed), sums_(p.levels + 1), stats_(p.levels + 1) {
    pend_.assign(static_cast<std::size_t>(p.k) * p.k, 0);
    in_used_.assign(static_cast<std::size_t>(p.k) * p.k, 0);
    out_used_.assign(static_cast<std::size_t>(p.k) * p.k, 0);
  }

  RoundResults run() {
    const auto t0 = std::chrono::steady_clock::now();
    const uint64_t n = static_cast<uint64_t>(g_.nodes()) * p_.messages_per_node;
    if (n > UINT32_MAX) throw std::invalid_argument("CLEX round model: at most 2^32 - 1 messages");
    std::vector<Node> cur(n), tgt(n);
    for (uint64_t i = 0; i < n; ++i) {
      cur[i] = static_cast<Node>(i / p_.messages_per_node);
      tgt[i] = static_cast<Node>(i / p_.messages_per_node);
    }
    rng_.shuffle(tgt.begin(), tgt.end());  // a uniformly random permutation of the multiset
    route(p_.levels, cur.data(), tgt.data(), static_cast<uint32_t>(n));

    RoundResults r;
    r.messages = n;
    r.delivered = true;
    std::vector<uint32_t> arrived(g_.nodes(), 0);
    for (uint64_t i = 0; i < n; ++i) {
      if (cur[i] != tgt[i]) r.delivered = false;
      ++arrived[cur[i]];
    }
    for (uint32_t a : arrived) r.delivered &= a == p_.messages_per_node;
    r.levels = stats_;
    for (unsigned l = 1; l <= p_.levels; ++l) {
      r.levels[l].avg_rounds = sums_[l].rounds / n;
      r.levels[l].avg_rounds_with_handshake = sums_[l].rounds_handshake / n;
      r.levels[l].avg_hops = sums_[l].hops / n;
    }
    r.clique_phases = phases_;
    r.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return r;
  }

 private:
  // Permutes [0, n) of both arrays so that key(cur[i]) ascends (American flag sort, in place);
  // returns the k + 1 bucket offsets.
  template <class Key>
  std::vector<uint32_t> bucket(Node* cur, Node* tgt, uint32_t n, Key key) {
    const unsigned k = p_.k;
    std::vector<uint32_t> start(k + 1, 0);
    for (uint32_t i = 0; i < n; ++i) ++start[key(cur[i]) + 1];
    for (unsigned b = 0; b < k; ++b) start[b + 1] += start[b];
    std::vector<uint32_t> next(start.begin(), start.end() - 1);
    for (unsigned b = 0; b < k; ++b) {
      while (next[b] < start[b + 1]) {
        const uint32_t i = next[b];
        const unsigned kb = key(cur[i]);
        if (kb == b) {
          ++next[b];
        } else {
          const uint32_t j = next[kb]++;
          std::swap(cur[i], cur[j]);
          std::swap(tgt[i], tgt[j]);
        }
      }
    }
    return start;
  }

  void route(unsigned l, Node* cur, Node* tgt, uint32_t n) {
    if (n == 0) return;
    RoundLevelStats& st = stats_[l];
    ++st.instances;
    st.max_avg_load = std::max(st.max_avg_load, static_cast<double>(n) / static_cast<double>(g_.power(l)));
    if (l == 1) {
      clique(cur, tgt, n);
      return;
    }
    const unsigned hi = l - 1;
    const auto sub = [&](Node v) { return g_.digit(v, hi); };
    // Step 1: within each level-(l-1) copy, the messages bound elsewhere first, each to a
    // random owner of a link into its target copy.
    std::vector<uint32_t> start = bucket(cur, tgt, n, sub);
    // A call delivers every message to its target, so after step 1 each message sits on its
    // interim node whatever the call did; the call works on copies, which it may reorder.
    std::vector<uint32_t> crossing(p_.k, 0);
    std::vector<Node> interim, call_cur, call_tgt;
    for (unsigned b = 0; b < p_.k; ++b) {
      uint32_t front = start[b];
      for (uint32_t i = start[b]; i < start[b + 1]; ++i)
        if (sub(tgt[i]) != b) {
          std::swap(cur[i], cur[front]);
          std::swap(tgt[i], tgt[front]);
          ++front;
        }
      crossing[b] = front - start[b];
      interim.resize(crossing[b]);
      for (uint32_t i = start[b]; i < front; ++i) {
        Node w = g_.with_digit(cur[i], 0, sub(tgt[i]));
        for (unsigned d = 1; d + 1 < l; ++d) w = g_.with_digit(w, d, rng_.below(p_.k));
        interim[i - start[b]] = w;
      }
      call_cur.assign(cur + start[b], cur + front);
      call_tgt = interim;
      route(l - 1, call_cur.data(), call_tgt.data(), crossing[b]);
      std::copy(interim.begin(), interim.end(), cur + start[b]);
    }
    // Step 2: every owner sends its queue over its link, capacity messages per round.
    const double cap = p_.capacity[l];
    const uint64_t span = g_.power(l);
    std::vector<uint32_t> queue(span, 0);
    unsigned max_rounds = 0;
    for (unsigned b = 0; b < p_.k; ++b)
      for (uint32_t i = start[b]; i < start[b] + crossing[b]; ++i) {
        const uint32_t pos = ++queue[cur[i] % span];
        const unsigned round = static_cast<unsigned>(std::ceil(pos / cap - 1e-9));
        max_rounds = std::max(max_rounds, round);
        sums_[l].rounds += round;
        sums_[l].rounds_handshake += round;
        sums_[l].hops += 1;
        cur[i] = g_.partner(cur[i], l);
      }
    st.max_rounds = std::max(st.max_rounds, max_rounds);
    // Step 3: every message is in its target's level-(l-1) copy; deliver there.
    start = bucket(cur, tgt, n, sub);
    for (unsigned b = 0; b < p_.k; ++b) route(l - 1, cur + start[b], tgt + start[b], start[b + 1] - start[b]);
  }

  // A_1 on one clique: messages with the same ends are interchangeable, so the clique works on
  // the k x k matrix of their counts.
  void clique(Node* cur, Node* tgt, uint32_t n) {
    const unsigned k = p_.k;
    Sums& s = sums_[1];
    std::fill(pend_.begin(), pend_.end(), 0);
    for (uint32_t i = 0; i < n; ++i) ++pend_[g_.digit(cur[i], 0) * k + g_.digit(tgt[i], 0)];
    // Phase 1: one message along every link that has one.
    pending_.clear();
    for (unsigned a = 0; a < k; ++a)
      for (unsigned b = 0; b < k; ++b) {
        const uint32_t c = pend_[a * k + b];
        if (c == 0) continue;
        s.rounds += 1;
        s.rounds_handshake += 1;
        s.hops += 1;
        for (uint32_t j = 1; j < c; ++j) pending_.push_back({static_cast<uint16_t>(a), static_cast<uint16_t>(b)});
      }
    unsigned phase = 1;
    const bool request = p_.relay == RelayMode::Request;
    while (!pending_.empty()) {
      ++phase;
      // The first offer of a phase always finds its two links free, so every phase delivers.
      if (phase > n + 2) throw std::logic_error("CLEX round model: a clique phase delivered nothing");
      const unsigned copies = std::min<uint64_t>(uint64_t{p_.first_copies} << std::min(phase - 2, 16u), k);
      // The offers, spread evenly: shuffled, then dealt round-robin from a random relay.
      offers_.clear();
      for (uint32_t m = 0; m < pending_.size(); ++m)
        for (unsigned c = 0; c < copies; ++c) offers_.push_back(m);
      rng_.shuffle(offers_.begin(), offers_.end());
      const unsigned base = rng_.below(k);
      std::fill(in_used_.begin(), in_used_.end(), 0);
      std::fill(out_used_.begin(), out_used_.end(), 0);
      taken_.assign(pending_.size(), 0);
      const double data_round = 2.0 * phase - 1;
      for (std::size_t o = 0; o < offers_.size(); ++o) {
        const uint32_t m = offers_[o];
        const unsigned w = (base + o) % k;
        const Msg16 msg = pending_[m];
        uint8_t& in = in_used_[msg.s * k + w];    // link s -> w, this phase
        uint8_t& out = out_used_[w * k + msg.t];  // link w -> t, this phase
        if (request) {
          // The relay acknowledges if both links are free; the sender sends to its first taker.
          if (in || out) continue;
          in = out = 1;
          if (!taken_[m]) {
            taken_[m] = 1;
            s.hops += 2;
            s.rounds += data_round;
            s.rounds_handshake += data_round + 2;
          }
        } else {
          // The copy goes out if the sender's link to the relay is free; the relay forwards the
          // first copy for each destination.
          if (in) continue;
          in = 1;
          s.hops += 1;
          if (out) continue;
          out = 1;
          s.hops += 1;
          if (!taken_[m]) {
            taken_[m] = 1;
            s.rounds += data_round;
            s.rounds_handshake += data_round;
          }
        }
      }
      std::size_t keep = 0;
      for (std::size_t m = 0; m < pending_.size(); ++m)
        if (!taken_[m]) pending_[keep++] = pending_[m];
      pending_.resize(keep);
    }
    const unsigned rounds = phase == 1 ? 1 : (request ? 2 * phase + 1 : 2 * phase - 1);
    stats_[1].max_rounds = std::max(stats_[1].max_rounds, rounds);
    if (phases_.size() <= phase) phases_.resize(phase + 1, 0);
    ++phases_[phase];
    for (uint32_t i = 0; i < n; ++i) cur[i] = tgt[i];
  }

  struct Msg16 {
    uint16_t s, t;
  };
  RoundParams p_;
  ClexGraph g_;
  Rng rng_;
  std::vector<Sums> sums_;
  std::vector<RoundLevelStats> stats_;
  std::vector<uint64_t> phases_;
  std::vector<uint32_t> pend_;
  std::vector<uint8_t> in_used_, out_used_, taken_;
  std::vector<uint32_t> offers_;
  std::vector<Msg16> pending_;
};

}  // namespace

RoundResults run_rounds(const RoundParams& p) {
  if (p.capacity.size() != p.levels + 1) throw std::invalid_argument("CLEX round model: one capacity per level");
  if (p.capacity[1] != 1) throw std::invalid_argument("CLEX round model: a clique link carries one message per round");
  for (unsigned l = 2; l <= p.levels; ++l)
    if (!(p.capacity[l] > 0)) throw std::invalid_argument("CLEX round model: capacities must be positive");
  if (p.messages_per_node < 1) throw std::invalid_argument("CLEX round model: at least one message per node");
  return RoundModel(p).run();
}

}  // namespace hx::clex
