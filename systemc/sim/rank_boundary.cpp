#include "rank_boundary.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>
#include <stdexcept>
#include <type_traits>

#include "board.h"

namespace hx {

std::vector<unsigned> plane_ranks(unsigned planes, unsigned ranks) {
  if (ranks == 0) throw std::invalid_argument("--partition: no ranks");
  // Rank 0's share of the work, (planes + its components) / ranks, less its components.
  const double p = planes;
  const double zero = std::max(0.0, std::round(p * ((1.0 + kRankZeroLoadPerPlane) / ranks - kRankZeroLoadPerPlane)));
  const unsigned first = ranks == 1 ? planes : std::min(planes, static_cast<unsigned>(zero));
  const unsigned rest = planes - first, others = ranks - 1;
  if (others > 0 && rest < others) {
    throw std::invalid_argument("--partition: " + std::to_string(ranks) + " ranks for " + std::to_string(planes) +
                                " board planes; every rank after rank 0 needs at least one plane");
  }
  std::vector<unsigned> owner(planes, 0);
  for (unsigned i = first; i < planes; ++i) owner[i] = 1 + static_cast<unsigned>(uint64_t{i - first} * others / rest);
  return owner;
}

namespace {

static_assert(std::is_trivially_copyable_v<Flit>, "flits cross ranks as bytes");

// The message of one swap: a header, then (from a rank > 0) its idle plane-cycles after each
// cycle of the window, its unit records {link, arrival cycle, flit}, its credit records {link,
// arrival cycle, VC}, and a model error's text.
struct SwapHeader {
  uint64_t first_cycle;  // of the window
  uint32_t cycles;       // in the window: idle counts that follow
  uint32_t units, credits, error_bytes;
  uint8_t stop;
  double waited;  // seconds the sender has spent waiting for its peers so far
};

template <class T>
void put(std::vector<uint8_t>& b, const T& v) {
  const std::size_t at = b.size();
  b.resize(at + sizeof(T));
  std::memcpy(b.data() + at, &v, sizeof(T));
}

// Reads a message front to back; a short message is a broken peer, not a result.
class Reader {
 public:
  explicit Reader(const std::vector<uint8_t>& b) : b_(b) {}
  template <class T>
  T get() {
    if (at_ + sizeof(T) > b_.size()) throw std::runtime_error("partitioned run: a truncated message from a peer");
    T v;
    std::memcpy(&v, b_.data() + at_, sizeof(T));
    at_ += sizeof(T);
    return v;
  }
  std::string text(std::size_t n) {
    if (at_ + n > b_.size()) throw std::runtime_error("partitioned run: a truncated message from a peer");
    std::string s(reinterpret_cast<const char*>(b_.data() + at_), n);
    at_ += n;
    return s;
  }

 private:
  const std::vector<uint8_t>& b_;
  std::size_t at_ = 0;
};

}  // namespace

RankBoundary::RankBoundary(sc_core::sc_module_name name, MpiWorld& world, const std::vector<Crossing>& links,
                           unsigned window, ErrorHandler on_peer_error, const BoardArray& boards)
    : sc_core::sc_module(name),
      clk("clk"),
      world_(world),
      window_(window),
      on_peer_error_(std::move(on_peer_error)),
      boards_(boards) {
  if (window_ == 0) throw std::invalid_argument("RankBoundary: a window of 0 cycles");
  for (const Crossing& c : links) {
    if (!c.link->unit_rate() || c.link->has_errors())
      throw std::invalid_argument(std::string(c.link->name()) +
                                  ": a link between ranks must carry one flit per cycle, without bit errors");
    if (c.link->latency() + 1u < window_)
      throw std::invalid_argument(std::string(c.link->name()) + ": latency shorter than the window");
    auto p = std::find_if(peers_.begin(), peers_.end(), [&](const Peer& q) { return q.rank == c.peer; });
    if (p == peers_.end()) {
      peers_.emplace_back();
      p = std::prev(peers_.end());
      p->rank = c.peer;
    }
    p->links.push_back(Link{c.link, c.link->latency() + 1u, c.sends, nullptr});
  }
  std::sort(peers_.begin(), peers_.end(), [](const Peer& a, const Peer& b) { return a.rank < b.rank; });
  outbox_.reserve(peers_.size());
  for (Peer& p : peers_) {
    const std::size_t n = p.links.size(), blocks = (n + kBlock - 1) / kBlock;
    p.horizons = std::make_unique<ArrivalHorizon[]>(n + blocks);
    for (std::size_t i = 0; i < n; ++i) {
      Link& l = p.links[i];
      ArrivalHorizon* h = &p.horizons[i];
      h->part_of(&p.horizons[n + i / kBlock]);
      // The end nobody steps here: the receiver of what this rank sends, or the sender of the
      // credits it returns. A link without errors always takes a horizon (checked above).
      if (!(l.sends ? l.link->set_receiver_horizon(h) : l.link->set_sender_horizon(h)))
        throw std::logic_error(std::string(l.link->name()) + ": no arrival horizon");
      l.written = h;
    }
  }
  SC_HAS_PROCESS(RankBoundary);
  SC_METHOD(on_clock_low);
  sensitive << clk.neg();
  dont_initialize();
}

void RankBoundary::report_error(const std::string& e) {
  if (error_.empty() && !error_sent_) error_ = e;
}

// The falling edge of cycle t: every component of this rank has finished cycle t.
void RankBoundary::on_clock_low() {
  close(cycle_++);
  if (world_.rank() != 0) idle_.push_back(boards_.skipped_plane_cycles());
  if (cycle_ - window_start_ == window_) swap();
}

void RankBoundary::close(uint64_t t) {
  for (Peer& p : peers_) {
    const std::size_t n = p.links.size();
    for (std::size_t i = 0; i < n; ++i) {
      // A write in cycle t arrives in t + 1 at the earliest: a block quiet then had none.
      if (i % kBlock == 0 && p.horizons[n + i / kBlock].quiet(t + 1)) {
        i += kBlock - 1;
        continue;
      }
      const Link& l = p.links[i];
      const uint64_t at = t + l.lead;
      if (l.written->quiet(at)) continue;  // no write in cycle t
      const auto index = static_cast<uint32_t>(i);
      // Taken now rather than in its arrival cycle: this copy's end for the peer counts it
      // early, which no reader of this rank sees (the report reads what the senders counted,
      // and the run ends with no unit in flight).
      if (l.sends) {
        l.link->receive_all<RateHint::One>(at, [&](Flit& f) {
          put(p.units, index);
          put(p.units, at);
          put(p.units, f);
          ++p.unit_count;
        });
      } else {
        l.link->take_credits<RateHint::One>(at, [&](unsigned vc, unsigned) {
          put(p.credits, index);
          put(p.credits, at);
          put(p.credits, static_cast<uint32_t>(vc));
          ++p.credit_count;
        });
      }
    }
  }
}

std::vector<uint8_t> RankBoundary::message(const Peer& p, bool stop) const {
  const bool zero = world_.rank() == 0;
  const std::string& error = error_;
  SwapHeader h;
  std::memset(&h, 0, sizeof h);  // its padding too: the header goes out as bytes
  h.first_cycle = window_start_;
  h.cycles = zero ? 0u : static_cast<uint32_t>(idle_.size());
  h.units = stop ? 0u : p.unit_count;  // a run that has ended installs nothing more
  h.credits = stop ? 0u : p.credit_count;
  h.error_bytes = zero ? 0u : static_cast<uint32_t>(error.size());
  h.stop = static_cast<uint8_t>(stop);
  h.waited = waited_;
  std::vector<uint8_t> m;
  m.reserve(sizeof h + h.cycles * 8 + p.units.size() + p.credits.size() + h.error_bytes);
  put(m, h);
  if (!zero)
    for (uint64_t v : idle_) put(m, v);
  if (!stop) {
    m.insert(m.end(), p.units.begin(), p.units.end());
    m.insert(m.end(), p.credits.begin(), p.credits.end());
  }
  if (!zero) m.insert(m.end(), error.begin(), error.end());
  return m;
}

bool RankBoundary::install(Peer& p, const std::vector<uint8_t>& m, uint64_t last) {
  Reader r(m);
  const auto h = r.get<SwapHeader>();
  p.waited = h.waited;
  for (uint32_t k = 0; k < h.cycles; ++k) {
    const auto v = r.get<uint64_t>();
    if (h.first_cycle + k <= last) p.idle = v;
  }
  const auto link = [&](uint32_t i) -> const Link& {
    if (i >= p.links.size()) throw std::runtime_error("partitioned run: a peer named a link it does not share");
    return p.links[i];
  };
  for (uint32_t k = 0; k < h.units; ++k) {
    const Link& l = link(r.get<uint32_t>());
    const auto at = r.get<uint64_t>();
    const auto f = r.get<Flit>();
    if (at - l.lead <= last) l.link->send(at - l.lead, f);  // as the sender did in cycle at - lead
  }
  for (uint32_t k = 0; k < h.credits; ++k) {
    const Link& l = link(r.get<uint32_t>());
    const auto at = r.get<uint64_t>();
    const auto vc = r.get<uint32_t>();
    if (at - l.lead <= last) l.link->return_credit(at - l.lead, vc);
  }
  const std::string error = r.text(h.error_bytes);
  if (!error.empty() && on_peer_error_) on_peer_error_(error);
  return h.stop != 0;
}

void RankBoundary::receive(const Peer& p) {
  const auto t0 = std::chrono::steady_clock::now();
  world_.receive(p.rank, inbox_);
  waited_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// Both directions at once: each rank posts its message, then takes its peers', so no rank waits
// for another's installing. Rank 0 never stops a run here (its run control stops in a rising
// edge, and finish() completes that swap), but a peer's model error installed here may end it.
void RankBoundary::post_messages(bool stop) {
  for (Peer& p : peers_) {
    outbox_.push_back(message(p, stop));
    world_.post(p.rank, outbox_.back());
    p.units.clear();
    p.credits.clear();
    p.unit_count = p.credit_count = 0;
  }
}

void RankBoundary::swap() {
  post_messages(false);
  if (world_.rank() != 0) {
    error_sent_ = error_sent_ || !error_.empty();
    error_.clear();
  }
  for (Peer& p : peers_) {
    receive(p);
    stopped_ = install(p, inbox_, UINT64_MAX) || stopped_;
  }
  world_.wait_posted();
  outbox_.clear();
  idle_.clear();
  window_start_ = cycle_;
  if (stopped_) sc_core::sc_stop();  // a rank > 0 told to stop
}

void RankBoundary::finish() {
  if (world_.rank() != 0 || stopped_) return;
  // The run's last cycle is the last one this rank's boards stepped: either its run control ended
  // the run in that cycle's rising edge, before this rank's swap of it, or a peer's model error,
  // installed in that cycle's swap, did. The peers have stepped their planes through the end of
  // the next window and wait in its swap. Their writes of cycles up to `last` happened in the
  // run; later ones did not.
  const uint64_t last = boards_.cycle() - 1;
  for (Peer& p : peers_) {
    receive(p);
    install(p, inbox_, last);
  }
  post_messages(true);
  world_.wait_posted();
  outbox_.clear();
  stopped_ = true;
}

std::vector<double> RankBoundary::wait_seconds() const {
  std::vector<double> w{waited_};
  for (const Peer& p : peers_) w.push_back(p.waited);
  return w;
}

uint64_t RankBoundary::peer_idle_plane_cycles() const {
  uint64_t n = 0;
  for (const Peer& p : peers_) n += p.idle;
  return n;
}

}  // namespace hx
