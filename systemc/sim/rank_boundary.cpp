#include "rank_boundary.h"

#include <algorithm>
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
// arrival cycle, credit word}, and a model error's text.
struct SwapHeader {
  uint64_t first_cycle;  // of the window
  uint32_t cycles;       // in the window: idle counts that follow
  uint32_t units, credits, error_bytes;
  uint8_t stop;
};
constexpr std::size_t kUnitRecord = 4 + 8 + sizeof(Flit);
constexpr std::size_t kCreditRecord = 4 + 8 + 4;

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

RankBoundary::RankBoundary(sc_core::sc_module_name name, const MpiWorld& world, const std::vector<Crossing>& links,
                           unsigned window, ErrorHandler on_peer_error, std::function<bool()> ended,
                           const BoardArray& boards)
    : sc_core::sc_module(name),
      clk("clk"),
      world_(world),
      window_(window),
      on_peer_error_(std::move(on_peer_error)),
      ended_(std::move(ended)),
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
    p->links.push_back(Link{c.link, c.link->latency() + 1u, c.sends});
  }
  std::sort(peers_.begin(), peers_.end(), [](const Peer& a, const Peer& b) { return a.rank < b.rank; });
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
    for (uint32_t i = 0; i < p.links.size(); ++i) {
      const Link& l = p.links[i];
      const uint64_t at = t + l.lead;
      if (l.sends) {
        if (const Flit* f = l.link->unit_arriving(at)) {
          put(p.units, i);
          put(p.units, at);
          put(p.units, *f);
          ++p.unit_count;
        }
        l.link->receive_all(t, [](Flit&) {});  // the receiver, which the peer steps
      } else {
        if (const uint32_t w = l.link->credits_arriving(at)) {
          put(p.credits, i);
          put(p.credits, at);
          put(p.credits, w);
          ++p.credit_count;
        }
        l.link->take_credits(t, [](unsigned, unsigned) {});  // the sender, which the peer steps
      }
    }
  }
}

std::vector<uint8_t> RankBoundary::message(const Peer& p, bool stop) const {
  const bool zero = world_.rank() == 0;
  const std::string& error = error_;
  SwapHeader h{window_start_,  zero ? 0u : static_cast<uint32_t>(idle_.size()), p.unit_count,
               p.credit_count, zero ? 0u : static_cast<uint32_t>(error.size()), static_cast<uint8_t>(stop)};
  std::vector<uint8_t> m;
  m.reserve(sizeof h + h.cycles * 8 + p.units.size() + p.credits.size() + h.error_bytes);
  put(m, h);
  if (!zero)
    for (uint64_t v : idle_) put(m, v);
  m.insert(m.end(), p.units.begin(), p.units.end());
  m.insert(m.end(), p.credits.begin(), p.credits.end());
  if (!zero) m.insert(m.end(), error.begin(), error.end());
  return m;
}

bool RankBoundary::install(Peer& p, const std::vector<uint8_t>& m, uint64_t last) {
  Reader r(m);
  const auto h = r.get<SwapHeader>();
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
    const auto w = r.get<uint32_t>();
    if (at - l.lead > last) continue;
    // A rate-1 link carries one credit a cycle: the word has one VC's bit.
    const unsigned vc = static_cast<unsigned>(__builtin_ctz(w)) / FlitLink::kCreditBits;
    l.link->return_credit(at - l.lead, vc);
  }
  const std::string error = r.text(h.error_bytes);
  if (!error.empty() && on_peer_error_) on_peer_error_(error);
  return h.stop != 0;
}

void RankBoundary::swap() {
  if (world_.rank() == 0) {
    for (Peer& p : peers_) {
      world_.receive(p.rank, inbox_);
      install(p, inbox_, UINT64_MAX);
    }
    const bool stop = ended_();  // a peer's model error may have ended it just now
    for (Peer& p : peers_) world_.send(p.rank, message(p, stop));
    stopped_ = stop;
  } else {
    Peer& zero = peers_.front();
    world_.send(zero.rank, message(zero, false));
    error_sent_ = error_sent_ || !error_.empty();
    error_.clear();
    world_.receive(zero.rank, inbox_);
    stopped_ = install(zero, inbox_, UINT64_MAX);
  }
  for (Peer& p : peers_) {
    p.units.clear();
    p.credits.clear();
    p.unit_count = p.credit_count = 0;
  }
  idle_.clear();
  window_start_ = cycle_;
  if (stopped_) sc_core::sc_stop();
}

void RankBoundary::finish() {
  if (world_.rank() != 0 || stopped_) return;
  // Rank 0 stopped in the rising edge of cycle `last` (its run control ended the run): the others
  // stepped their planes through the end of the window holding it and wait in its swap. Their
  // writes of cycles up to `last` happened in the run; later ones did not.
  const uint64_t last = cycle_;
  close(last);  // what the peers' ends took in that cycle, on this rank's copies
  for (Peer& p : peers_) {
    world_.receive(p.rank, inbox_);
    install(p, inbox_, last);
  }
  for (Peer& p : peers_) {
    p.unit_count = p.credit_count = 0;
    p.units.clear();
    p.credits.clear();
    world_.send(p.rank, message(p, true));
  }
  stopped_ = true;
}

uint64_t RankBoundary::peer_idle_plane_cycles() const {
  uint64_t n = 0;
  for (const Peer& p : peers_) n += p.idle;
  return n;
}

}  // namespace hx
