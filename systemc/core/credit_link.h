// credit_link.h: one direction of a point-to-point link with credit-based flow control, as C++
// values: units (flits, or whole packets of a packet-granular model) forward, credits back.
// Both network models use it: the fabric model as FlitLink (CreditLink<Flit>), the NVSwitch
// model for packets (CreditLink<nv::Packet>).
//
// Timing. Both directions take `latency` cycles of wire delay on top of the sender's output
// register: a component that, while handling cycle t, drives a unit for cycle t+1 sees it
// arrive at the other end in cycle t+1+latency; a credit returned in cycle t is back at the
// sender in cycle t+1+latency:
//
//      sender: send(t, u)  ──►  [ t+1 ... t+1+latency ]  ──►  receiver: receive(t+1+latency)
//    receiver: return_credit(t, vc, n)  ──►  sender: credit(t+1+latency)
//
// Because every write lands in a later cycle than any read of the same cycle, the sender and the
// receiver may be handled in any order within a cycle: the link needs no delta cycles and no
// update phase, and it is deterministic. Both ends poll: the receiver takes what arrives in its
// cycle, the sender the credits that arrive in its cycle, every cycle (what is not taken in its
// cycle is overwritten a ring later).
//
// Credits count flits, per VC: a receiver buffer is sized in flits, and a packet-granular
// receiver frees a whole packet's flits at once (9 for a 144-B NVSwitch packet).
//
// Rate. A link carries `rate` flits per cycle (link_rate.h: its bandwidth over the clock's
// reference bandwidth). A unit of n flits holds the wire for n / rate cycles: a link of rate 2
// carries two flits per cycle, a link of rate 1/3 one flit every three cycles. The wire is a
// time line with fractions: a unit may start in cycle t when the wire is free by then
// (can_send), and on a busy wire it starts where the last one ended, even within the last cycle,
// so fractions carry over (rate 2 sends two 9-flit packets in 9 cycles, not 10). Several units
// may start in one cycle on a fast link (budget). On a link slower than a flit per cycle the
// unit arrives late by its extra serialization, ceil(n / rate - n) cycles: as late as a
// full-rate unit whose tail arrives with this one's, so a faster link downstream never forwards
// data that has not arrived yet (units move whole: virtual cut-through at unit granularity).
// Sending when the wire is busy is a logic error: the sender must ask first.
//
// The link is a delay line of slots indexed by arrival cycle, so the per-cycle path is an index
// computation and a copy: no allocation, no virtual call. A slot holds the units arriving in its
// cycle (one at rate <= 1, up to floor(rate) + 1 on a faster link) and the credits, a few bits per
// VC. It also counts what it carried (utilisation, busy time, the conservation check of the
// watchdog) and can be armed with one fault (drop or corrupt the n-th unit it delivers, through
// `corrupt(Unit&)` found by argument-dependent lookup), the hook the scoreboard tests use.
//
// Speed: a thousand-accelerator system has ten thousand flit links and every cycle touches most
// of them, so a link keeps what a cycle touches together: the counters and the slot pointer in
// one cache line, and the slots themselves inline for the short links (latency 0..2, four slots)
// that make up most of a system. At rate 1 with single-flit units (every fabric link today) the
// wire time line is the slot itself: a unit may start when the slot of its arrival cycle is still
// empty, so the fast path does no floating-point work. An end whose links all run at that rate
// says so at compile time (RateHint::One, checked once with unit_rate() when it is connected),
// so that its per-cycle calls do not even ask the link which path to take: the rate support
// costs the common case nothing. A received unit is handed out in place: its slot is not written
// again before cycle t + 1 (the sender writes at most latency + 1 + late cycles ahead, the ring
// has more slots than that), so no copy is needed.
//
// Link-level retry (issue 23; Klenk et al., section IV-E, assume it underneath): a link built
// with a bit error rate (LinkErrors) corrupts units on the wire and recovers them as a link layer
// with go-back-N replay does. Each transmission carries a sequence number and a CRC-32 of the
// unit (crc32.h; `link_crc`, `link_bits`, `flip_link_bit` found by argument-dependent lookup). A
// transmission is corrupted with probability 1 - (1 - BER)^bits, one random bit flipped. The
// receiver recomputes the CRC and discards a unit that fails it, then every unit that does not
// carry the number it expects next (those behind the bad one, and duplicates), and sends a NAK
// back, which reaches the sender a link latency later (as a credit does). The sender then stops
// taking new units from its owner and sends again, from its retry buffer, every unit from the
// one the receiver expects on, in order; the owner's sends resume when the replay is done. The
// replays hold the wire like any unit, so they cost bandwidth (flits_sent counts them), and
// nothing is lost, duplicated or reordered: the receiver's owner sees each unit once, intact, in
// order, only later. Credits are unchanged: a discarded unit takes no buffer slot, so it frees
// none, and its replay uses the credit its first transmission took. The replay is driven from
// the receiving end's per-cycle poll (both ends poll every cycle); in a cycle in which it may
// send, the owner is blocked, so the two never share a cycle of the wire, and what the owner sees
// in cycle t depends only on events of cycle t - 1 - latency and before: handling order within a
// cycle still does not matter. A link with errors takes the time-line path (never the fast
// path), so error-free links do not pay for any of it. Both ends must be on one thread.
//
// Threads: the planes of a fabric system may be stepped on worker threads (board.h) while the
// accelerators and the switches run on the main thread, so the two ends of a link may be handled
// at the same time. They never touch the same data: in cycle t the sender writes the units of a
// slot after t and takes the credits of slot t, the receiver takes the units of slot t and writes
// the credits of slot t+1+latency (distinct fields); each counter has one writer (SharedCount).
// A reader of the other end's counter (units_on_wire(), credits_on_wire()) may see it before or
// after that end's writes of cycle t, which land in cycle t+1 or later: see EdgePort::step.
#pragma once

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "arrival_horizon.h"
#include "link_rate.h"
#include "rng.h"

namespace hx {

/// A counter with one writing thread and any number of readers: relaxed atomic loads and
/// stores, which on x86 are plain moves (no locked instruction).
class SharedCount {
 public:
  void add(uint64_t d = 1) { v_.store(v_.load(std::memory_order_relaxed) + d, std::memory_order_relaxed); }
  uint64_t get() const { return v_.load(std::memory_order_relaxed); }

 private:
  std::atomic<uint64_t> v_{0};
};

/// What the caller of a link's per-cycle calls knows about its rate. Any: the link takes its
/// fast path or its time line as its rate says, per call. One: the caller has checked once, when
/// it was connected, that the link is a rate-1 flit link (unit_rate()), and the call compiles to
/// the fast path alone: no load and test of the link's flag per flit, credit and slot.
enum class RateHint : uint8_t { Any, One };

/// A link's bit errors: the rate per bit on the wire (0: none, and no retry) and the seed of its
/// draws (each link its own stream).
struct LinkErrors {
  double bit_error_rate = 0;
  uint64_t seed = 1;
  bool enabled() const { return bit_error_rate > 0; }
};

/// What link-level retry counted on a link (or summed over links).
struct RetryCounts {
  uint64_t corrupted = 0;        ///< transmissions the wire corrupted (errors injected)
  uint64_t detected = 0;         ///< arrivals that failed the CRC, discarded (errors detected)
  uint64_t out_of_sequence = 0;  ///< good arrivals discarded by number: behind a bad one, or duplicates
  uint64_t naks = 0;             ///< replay requests sent back
  uint64_t replayed = 0;         ///< units sent again from the retry buffer
  uint64_t replayed_flits = 0;   ///< ... and their flits: the bandwidth the errors cost
  RetryCounts& operator+=(const RetryCounts& o) {
    corrupted += o.corrupted;
    detected += o.detected;
    out_of_sequence += o.out_of_sequence;
    naks += o.naks;
    replayed += o.replayed;
    replayed_flits += o.replayed_flits;
    return *this;
  }
};

/// Link-level retry over the links of a run that have bit errors: what every results document
/// reports as its `link_errors` section (write_link_errors).
struct RetryTotals {
  double bit_error_rate = 0;
  uint64_t links = 0;  ///< links with errors
  uint64_t flits = 0;  ///< flits they put on their wires, replays included
  RetryCounts counts;
  template <class Link>
  void add(const Link& l) {
    if (!l.has_errors()) return;
    ++links;
    flits += l.flits_sent();
    counts += l.retry_counts();
  }
};

/// The `link_errors` section into `j` (any JSON type with operator[]), in the schema's order.
template <class Json>
void write_link_errors(Json& j, const RetryTotals& r) {
  j["bit_error_rate"] = r.bit_error_rate;
  j["links"] = r.links;
  j["corrupted"] = r.counts.corrupted;
  j["detected"] = r.counts.detected;
  j["out_of_sequence"] = r.counts.out_of_sequence;
  j["naks"] = r.counts.naks;
  j["replayed"] = r.counts.replayed;
  j["replayed_flits"] = r.counts.replayed_flits;
  j["replay_share"] = r.flits > 0 ? static_cast<double>(r.counts.replayed_flits) / static_cast<double>(r.flits) : 0.0;
}

/// Unit: a value type with `unsigned flits() const` (or static) and `static constexpr unsigned
/// kMaxFlits`, and free functions `corrupt(Unit&)` for the fault hook and `link_crc`,
/// `link_bits` and `flip_link_bit` for link-level retry.
template <class Unit>
class CreditLink {
 public:
  enum class Fault : uint8_t { None, Drop, Corrupt };
  // Credits in a slot: one field per VC in 32 bits. Flit links return a few credits per VC and
  // cycle, so 4 bits each carry 8 VCs (the C++ switches are not limited to the RTL's 2-bit VC
  // field); packet links return a whole packet's flits at once, so 8 bits each carry 4 VCs.
  static constexpr unsigned kCreditBits = Unit::kMaxFlits == 1 ? 4 : 8;
  static constexpr unsigned kMaxVcs = 32 / kCreditBits;
  static constexpr uint32_t kCreditMask = (1u << kCreditBits) - 1;

  CreditLink(std::string name, unsigned latency_cycles, LinkRate rate = LinkRate{}, LinkErrors errors = {})
      : rate_(rate.flits_per_cycle), name_(std::move(name)) {
    if (!(rate_ > 0)) throw std::invalid_argument(name_ + ": a link's rate must be positive");
    if (errors.bit_error_rate < 0 || errors.bit_error_rate >= 1)
      throw std::invalid_argument(name_ + ": a bit error rate must be in [0, 1)");
    fast_ = Unit::kMaxFlits == 1 && rate_ == 1.0 && !errors.enabled();
    const double lanes = rate_ <= 1.0 ? 1.0 : std::floor(rate_) + 1.0;
    if (lanes > 255) throw std::invalid_argument(name_ + ": more than 254 flits per cycle");
    // A flit-granular receiver returns up to ceil(rate) credits of one VC per cycle.
    if (Unit::kMaxFlits == 1 && std::ceil(rate_) > kCreditMask)
      throw std::invalid_argument(name_ + ": a flit link carries at most " + std::to_string(kCreditMask) +
                                  " flits per cycle");
    lanes_ = static_cast<uint8_t>(lanes);
    uint64_t max_late = 0;
    for (unsigned n = 1; n <= Unit::kMaxFlits; ++n) max_late = std::max(max_late, late(n, n / rate_));
    const uint64_t reach = uint64_t{latency_cycles} + 1 + max_late;  // furthest write ahead
    if (reach > 0xFFFE) throw std::invalid_argument(name_ + ": latency plus serialization beyond 65534 cycles");
    lead_ = static_cast<uint16_t>(latency_cycles + 1);
    std::size_t size = 1;
    while (size < reach + 1) size <<= 1;  // power of two: index by mask
    if (size > kInlineSlots) {
      far_slots_ = std::make_unique<Slot[]>(size);
      slots_ = far_slots_.get();
    } else {
      slots_ = near_slots_;
    }
    mask_ = static_cast<uint32_t>(size - 1);
    if (lanes_ > 1) extra_ = std::make_unique<Unit[]>(size * (lanes_ - 1u));
    if (errors.enabled()) retry_ = std::make_unique<Retry>(errors, size * lanes_, lanes_ * (2 * reach + 4));
  }
  CreditLink(const CreditLink&) = delete;
  CreditLink& operator=(const CreditLink&) = delete;

  const std::string& link_name() const { return name_; }
  unsigned latency() const { return lead_ - 1u; }
  double rate() const { return rate_; }
  /// A rate-1 link of single-flit units: one unit and one credit per cycle, and the calls may
  /// be made with RateHint::One.
  bool unit_rate() const { return single<RateHint::Any>(); }

  /// The arrival horizons (arrival_horizon.h) of the two ends, each set by its own end when it is
  /// connected: the receiver's, which every unit sent raises to the cycle it arrives in, and the
  /// sender's, which every credit returned raises. A link with bit errors takes none and returns
  /// false: its replays run from the receiver's poll of every cycle (see the file comment), which
  /// must then not be skipped.
  bool set_receiver_horizon(ArrivalHorizon* h) {
    if (retry_) return false;
    to_receiver_ = h;
    return true;
  }
  bool set_sender_horizon(ArrivalHorizon* h) {
    if (retry_) return false;
    to_sender_ = h;
    return true;
  }

  // Cache hints for loops over many links (no effect on state).
  /// What the next calls will touch: the counters' line and the inline slots (fetched in vain
  /// for the few long links; telling them apart would mean reading the object).
  void prefetch() const {
    __builtin_prefetch(&slots_, 1);
    __builtin_prefetch(&near_slots_[0], 1);
    __builtin_prefetch(&near_slots_[kInlineSlots / 2], 1);
  }
  /// The slots cycle t reads and writes, wherever they are (this reads the counters' line).
  void prefetch_slots(uint64_t t) const {
    __builtin_prefetch(&slots_[t & mask_], 1);
    __builtin_prefetch(&slots_[(t + lead_) & mask_], 1);
  }

  // ---- forward direction: units ------------------------------------------------------------

  /// While handling cycle t: may a unit start? (The wire is free by cycle t.)
  template <RateHint H = RateHint::Any>
  bool can_send(uint64_t t) const {
    if (single<H>()) return slots_[(t + lead_) & mask_].units == 0;
    return free_at_ <= static_cast<double>(t) && !(retry_ && retry_->blocks(t));
  }
  /// While handling cycle t: how many single-flit units may start in this cycle (0 on a slow
  /// link that is still busy, up to floor(rate) + 1 on a fast one).
  template <RateHint H = RateHint::Any>
  unsigned budget(uint64_t t) const {
    if (single<H>()) return can_send<H>(t) ? 1 : 0;
    return budget_on_time_line(t);
  }

  /// While handling cycle t, start unit u (can_send(t) must hold); it arrives in cycle
  /// t+1+latency, later on a slow link (see the file comment).
  template <RateHint H = RateHint::Any, class U>
  void send(uint64_t t, U&& u) {
    if (single<H>()) {
      // Rate 1, one flit: the slot of its arrival cycle is the wire. Kept this short so that
      // callers that send a flit per cycle inline it.
      Slot& s = slots_[(t + lead_) & mask_];
      if (s.units != 0) fail("two flits in one cycle");
      s.unit = std::forward<U>(u);
      s.units = 1;
      sent_.add();
      if (to_receiver_ != nullptr) to_receiver_->raise(t + lead_);
      return;
    }
    if (retry_) {
      if (retry_->blocks(t)) fail("a unit sent while the link replays");
      send_numbered(t, retry_->keep(u, name_), false);
      sent_.add();
      return;
    }
    const unsigned flits = u.flits();
    const uint64_t at = t + lead_ + start(t, flits);
    const uint32_t i = static_cast<uint32_t>(at & mask_);
    Slot& s = slots_[i];
    const unsigned k = s.units;
    if (k == 0) {
      s.unit = std::forward<U>(u);
    } else if (k >= lanes_) {
      fail("two flits in one cycle");
    } else {
      lane(i, k) = std::forward<U>(u);
    }
    s.units = static_cast<uint8_t>(k + 1);
    sent_.add();
    if constexpr (Unit::kMaxFlits > 1) flits_sent_.add(flits);
    if (to_receiver_ != nullptr) to_receiver_->raise(at);
  }

  /// A unit arriving in cycle t, or nullptr; call until nullptr (once on a link of rate <= 1).
  /// Consumes it. The pointer is valid until the end of cycle t: the receiver may move from it.
  template <RateHint H = RateHint::Any>
  Unit* receive(uint64_t t) {
    if (!single<H>() && retry_) replay(t);
    const uint32_t i = static_cast<uint32_t>(t & mask_);
    Slot& s = slots_[i];
    for (;;) {
      const unsigned n = s.units;
      if (n == 0) return nullptr;
      if (single<H>()) {  // one unit per slot, head stays 0
        s.units = 0;
        return deliver(s.unit, t);
      }
      const unsigned k = s.head;
      Unit& u = k == 0 ? s.unit : lane(i, k);
      if (k + 1u == n) {
        s.units = 0;
        s.head = 0;
      } else {
        s.head = static_cast<uint8_t>(k + 1);
      }
      if (!retry_ || retry_->accept(u, t, i * lanes_ + k, lead_)) return deliver(u, t);
      // discarded by the link layer: try the next unit of this cycle
    }
  }
  /// Every unit arriving in cycle t, in order: take(Unit&) for each (it may move from it).
  template <RateHint H = RateHint::Any, class F>
  void receive_all(uint64_t t, F&& take) {
    if (!single<H>() && retry_) {
      while (Unit* u = receive<H>(t)) take(*u);
      return;
    }
    const uint32_t i = static_cast<uint32_t>(t & mask_);
    Slot& s = slots_[i];
    const unsigned n = s.units;
    if (n == 0) return;
    s.units = 0;
    const unsigned first = single<H>() ? 0u : s.head;  // 0 unless receive() took some of them
    if (first != 0) s.head = 0;
    const unsigned last = single<H>() ? 1u : n;  // a rate-1 slot holds one unit: no loop
    // One call site of take(), so that it is inlined.
    for (unsigned k = first; k < last; ++k)
      if (Unit* u = deliver(k == 0 ? s.unit : lane(i, k), t)) take(*u);
  }

  // ---- backward direction: credits -----------------------------------------------------------

  /// Credits a flit-granular receiver returns per cycle at most: as many as the link carries
  /// flits (one on a rate-1 link, where two in one cycle are a logic error; at least one).
  unsigned credit_width() const { return unit_rate() ? 1 : static_cast<unsigned>(std::max(1.0, std::ceil(rate_))); }

  /// While handling cycle t, return `flits` credits of `vc`; the sender gets them in t+1+latency.
  /// On a rate-1 flit link one credit per cycle, as one credit wire carries.
  template <RateHint H = RateHint::Any>
  void return_credit(uint64_t t, unsigned vc, unsigned flits = 1) {
    Slot& s = slots_[(t + lead_) & mask_];
    const unsigned shift = kCreditBits * vc;
    if (to_sender_ != nullptr) to_sender_->raise(t + lead_);
    if (single<H>()) {
      if ((s.credits | (vc & ~(kMaxVcs - 1))) != 0) fail("two credits in one cycle, or no such VC");
      s.credits = 1u << shift;
      credits_sent_.add();
      return;
    }
    if (vc >= kMaxVcs || ((s.credits >> shift) & kCreditMask) + flits > kCreditMask)
      fail("more credits of one VC in one cycle than a slot holds, or no such VC");
    s.credits += flits << shift;
    credits_sent_.add(flits);
  }

  /// Take one credit arriving in cycle t: its VC, or -1 when none is left. Credits not taken in
  /// cycle t are lost: call until -1 (once on a link that carries one credit per cycle).
  template <RateHint H = RateHint::Any>
  int credit(uint64_t t) {
    Slot& s = slots_[t & mask_];
    const uint32_t w = s.credits;
    if (w == 0) return -1;
    const int vc = __builtin_ctz(w) / static_cast<int>(kCreditBits);
    // A rate-1 slot holds one credit, so taking it empties the slot.
    s.credits = single<H>() ? 0u : w - (1u << (kCreditBits * static_cast<unsigned>(vc)));
    credits_taken_.add();
    credit_cycle_ = t;
    wire_credit_vc_ = vc;
    return vc;
  }
  /// Take every credit arriving in cycle t: take(vc, flits) for each VC that has some.
  template <RateHint H = RateHint::Any, class F>
  void take_credits(uint64_t t, F&& take) {
    Slot& s = slots_[t & mask_];
    uint32_t w = s.credits;
    if (w == 0) return;
    s.credits = 0;
    credit_cycle_ = t;
    wire_credit_vc_ = __builtin_ctz(w) / static_cast<int>(kCreditBits);
    uint64_t total = 0;
    do {  // one call site of take(), so that it is inlined
      const unsigned shift = static_cast<unsigned>(__builtin_ctz(w)) / kCreditBits * kCreditBits;
      const unsigned n = single<H>() ? 1u : (w >> shift) & kCreditMask;  // one credit per cycle
      take(shift / kCreditBits, n);
      total += n;
      w = single<H>() ? 0u : w & ~(kCreditMask << shift);
    } while (w != 0);
    credits_taken_.add(total);
  }

  // ---- accounting ----------------------------------------------------------------------------

  uint64_t units_sent() const { return sent_.get(); }
  uint64_t units_delivered() const { return delivered_.get() - dropped_.get(); }
  uint64_t units_dropped() const { return dropped_.get(); }
  /// Units sent and not yet taken by the receiver (on the wires).
  uint64_t units_on_wire() const { return sent_.get() - delivered_.get(); }
  /// Flits put on the wire, replays included.
  uint64_t flits_sent() const {
    const uint64_t replayed = retry_ ? retry_->counts.replayed_flits : 0;
    if constexpr (Unit::kMaxFlits > 1) return flits_sent_.get() + replayed;
    return sent_.get() + replayed;
  }
  /// Cycles the wire was busy: flits sent / rate.
  double busy_cycles() const { return static_cast<double>(flits_sent()) / rate_; }
  /// Credits (flits) returned and not yet taken by the sender.
  uint64_t credits_on_wire() const { return credits_sent_.get() - credits_taken_.get(); }

  /// Link-level retry: whether this link has bit errors, and what its link layer counted.
  bool has_errors() const { return retry_ != nullptr; }
  RetryCounts retry_counts() const { return retry_ ? retry_->counts : RetryCounts{}; }

  /// Arm a fault on the n-th unit (1-based) this link delivers from now on.
  void arm_fault(Fault f, uint64_t nth) {
    fault_ = f;
    fault_at_ = f == Fault::None ? UINT64_MAX : delivered_.get() + nth;
  }

  // ---- waveform view: the wires at the receiving end in cycle t, whether or not the receiver
  // has consumed them yet in this cycle (so the view does not depend on the order in which
  // components are handled). The first unit of the cycle and the first credit's VC.
  const Unit* wire_unit(uint64_t t) const {
    const Slot& s = slots_[t & mask_];
    return s.units != 0 || rx_cycle_ == t ? &s.unit : nullptr;
  }
  int wire_credit_vc(uint64_t t) const {
    const Slot& s = slots_[t & mask_];
    if (s.credits != 0) return __builtin_ctz(s.credits) / static_cast<int>(kCreditBits);
    return credit_cycle_ == t ? wire_credit_vc_ : -1;
  }

 private:
  struct Slot {
    uint8_t units = 0;     // arriving in this slot's cycle (written by the sender)
    uint8_t head = 0;      // of those, taken by the receiver
    uint32_t credits = 0;  // kCreditBits per VC (written by the receiver, taken by the sender)
    Unit unit{};           // the first unit; further ones in extra_
  };
  // Inline slots for small units only: four latency-0..2 slots of a flit fill two cache lines.
  static constexpr std::size_t kInlineSlots = sizeof(Slot) <= 32 ? 4 : 1;

  /// Extra serialization of an n-flit unit holding the wire `hold` cycles: the head's delay.
  static uint64_t late(unsigned n, double hold) { return hold > n ? static_cast<uint64_t>(std::ceil(hold - n)) : 0; }
  // Off the fast path, out of line: the per-cycle code of rate-1 flit links stays small.
  [[noreturn, gnu::cold, gnu::noinline]] void fail(const char* what) const {
    throw std::logic_error(name_ + ": " + what);
  }
  [[gnu::noinline]] unsigned budget_on_time_line(uint64_t t) const {
    return retry_ && retry_->blocks(t) ? 0 : wire_budget(t);
  }
  /// Single-flit units the time line lets start in cycle t (whoever sends them: the owner, or a
  /// replay). The same arithmetic as send(), so that what this promises, send() accepts.
  unsigned wire_budget(uint64_t t) const {
    const double now = static_cast<double>(t), hold = 1u / rate_;
    double free_at = free_at_;
    unsigned n = 0;
    while (free_at <= now && n < lanes_) {
      free_at = (free_at > now - 1.0 ? free_at : now) + hold;
      ++n;
    }
    return n;
  }
  /// Start an n-flit unit on the wire's time line in cycle t; returns its lateness.
  [[gnu::noinline]] uint64_t start(uint64_t t, unsigned flits) {
    const double now = static_cast<double>(t);
    if (free_at_ > now) fail("a unit sent while the wire is busy");
    const double hold = flits / rate_;
    // Back to back: start where the last unit ended, even within the last cycle.
    const double begin = free_at_ > now - 1.0 ? free_at_ : now;
    free_at_ = begin + hold;
    return late(flits, hold);
  }
  /// The fast path: a rate-1 link of single-flit units carries one unit and one credit per cycle.
  /// With RateHint::One the caller has checked unit_rate() once, so it is known at compile time.
  template <RateHint H>
  bool single() const {
    static_assert(H == RateHint::Any || Unit::kMaxFlits == 1, "RateHint::One is for flit links");
    if constexpr (H == RateHint::One) return true;
    return Unit::kMaxFlits == 1 && fast_;
  }
  Unit& lane(uint32_t slot, unsigned k) { return extra_[slot * (lanes_ - 1u) + (k - 1u)]; }
  Unit* deliver(Unit& u, uint64_t t) {
    delivered_.add();
    rx_cycle_ = t;
    if (delivered_.get() == fault_at_) return apply_fault(u);
    return &u;
  }

  Unit* apply_fault(Unit& u) {
    const Fault kind = fault_;
    fault_ = Fault::None;
    fault_at_ = UINT64_MAX;
    if (kind == Fault::Drop) {
      dropped_.add();
      rx_cycle_ = UINT64_MAX;  // nothing reached the receiver
      return nullptr;
    }
    corrupt(u);  // the unit type's own corruption, which its end-to-end check must catch
    return &u;
  }

  /// The link layer of a link with bit errors (see the file comment): both ends' state.
  struct Retry {
    struct Tag {
      uint32_t seq = 0, crc = 0;  // what travels with a transmission
    };
    Retry(LinkErrors e, std::size_t slot_lanes, std::size_t in_flight)
        : log_ok_per_bit(std::log1p(-e.bit_error_rate)), rng(e.seed), tags(slot_lanes) {
      std::size_t size = 1;
      while (size < in_flight) size <<= 1;
      buffer.resize(size);
      buffer_mask = static_cast<uint32_t>(size - 1);
    }
    /// The owner may not send in cycle t: a NAK has reached the sender (or will have by then) and
    /// its replay is not done.
    bool blocks(uint64_t t) const { return (t >= block_from && t < block_until) || t >= nak_at; }
    /// Number a new unit and keep a copy in the retry buffer until the receiver has it.
    uint32_t keep(const Unit& u, const std::string& name) {
      if (next_seq - expected > buffer_mask) throw std::logic_error(name + ": retry buffer overflow");
      buffer[next_seq & buffer_mask] = u;
      return next_seq++;
    }
    /// Receiving end, a unit arriving in cycle t at slot lane `tag`: take it, or discard it (and
    /// send a NAK when it failed its CRC and no replay is on its way).
    bool accept(const Unit& u, uint64_t t, std::size_t tag, uint16_t lead) {
      const Tag& g = tags[tag];
      if (link_crc(u) != g.crc) {
        ++counts.detected;
        if (!recovering || t >= quiet_until) {
          ++counts.naks;
          recovering = true;
          nak_at = t + lead;  // the NAK travels back as a credit does
          nak_seq = expected;
          quiet_until = nak_at + lead;  // until the replay can arrive, bad units ask for nothing
        }
        return false;
      }
      if (g.seq != expected) {
        ++counts.out_of_sequence;
        return false;
      }
      ++expected;
      recovering = false;
      return true;
    }

    double log_ok_per_bit;
    Rng rng;
    std::vector<Tag> tags;  // per slot lane: the tag of the unit in it
    std::vector<Unit> buffer;
    uint32_t buffer_mask = 0;
    uint32_t next_seq = 0;         // sender: the next new unit's number
    uint32_t replay_seq = 0;       // sender: the next unit to send again
    bool replaying = false;        // sender: sending from the retry buffer
    uint64_t nak_at = UINT64_MAX;  // a NAK on its way back arrives in this cycle
    uint32_t nak_seq = 0;          // ... asking for this unit and the ones after it
    // The owner may not send in [block_from, block_until) (a replay: open-ended until it is done)
    // nor from nak_at on (a NAK on its way stops it when it arrives).
    uint64_t block_from = UINT64_MAX, block_until = UINT64_MAX;
    uint32_t expected = 0;     // receiver: the number it takes next
    bool recovering = false;   // receiver: a NAK is out, the expected unit has not come back
    uint64_t quiet_until = 0;  // receiver: no new NAK before this cycle
    RetryCounts counts;
  };

  /// Put a numbered copy of unit `seq` (in the retry buffer) on the time line in cycle t, with its
  /// tag, corrupted by the wire with the probability its bits give.
  [[gnu::noinline]] void send_numbered(uint64_t t, uint32_t seq, bool again) {
    Retry& r = *retry_;
    const Unit& u = r.buffer[seq & r.buffer_mask];
    const unsigned flits = u.flits();
    const uint64_t at = t + lead_ + start(t, flits);
    const uint32_t i = static_cast<uint32_t>(at & mask_);
    Slot& s = slots_[i];
    const unsigned k = s.units;
    if (k >= lanes_) fail("two flits in one cycle");
    Unit& wire = k == 0 ? s.unit : lane(i, k);
    wire = u;
    r.tags[i * lanes_ + k] = {seq, link_crc(u)};
    const unsigned bits = link_bits(u);
    if (r.rng.uniform() < -std::expm1(bits * r.log_ok_per_bit)) {
      flip_link_bit(wire, static_cast<unsigned>(r.rng.below(bits)));
      ++r.counts.corrupted;
    }
    s.units = static_cast<uint8_t>(k + 1);
    if (again) {
      ++r.counts.replayed;
      r.counts.replayed_flits += flits;
    } else if constexpr (Unit::kMaxFlits > 1) {
      flits_sent_.add(flits);
    }
  }
  /// Sending end of a link with errors, from the receiving end's poll of cycle t: a NAK that has
  /// arrived restarts the replay there; a replay sends what the wire takes in cycle t, and when
  /// it is done the owner may send again from cycle t + 1.
  [[gnu::noinline]] void replay(uint64_t t) {
    Retry& r = *retry_;
    if (r.nak_at <= t) {  // the NAK is back: go back to the unit it names
      r.replay_seq = r.nak_seq;
      if (!r.replaying) {
        r.replaying = true;
        r.block_from = r.nak_at;
        r.block_until = UINT64_MAX;
      }
      r.nak_at = UINT64_MAX;
    }
    if (!r.replaying) return;
    // As many as the wire takes in cycle t: the owner's budget for flits; a packet at most one
    // per cycle, as its sender (nv_link.h) starts them.
    for (unsigned n = Unit::kMaxFlits == 1 ? wire_budget(t) : (free_at_ <= static_cast<double>(t) ? 1u : 0u);
         n != 0 && r.replay_seq != r.next_seq; --n)
      send_numbered(t, r.replay_seq++, true);
    if (r.replay_seq == r.next_seq) {
      r.replaying = false;
      r.block_until = t + 1;
    }
  }

  // What every cycle touches, together (see the file comment).
  alignas(64) Slot* slots_ = nullptr;  // one cache line from here to rx_cycle_
  uint32_t mask_ = 0;
  uint16_t lead_ = 1;  // latency + 1: a write in cycle t is for cycle t + lead_ (+ late)
  bool fast_ = true;   // rate 1, single-flit units: the slot is the wire's time line
  uint8_t lanes_ = 1;  // units a slot holds
  SharedCount sent_, delivered_, credits_sent_, credits_taken_;
  uint64_t fault_at_ = UINT64_MAX;  // delivered_ count of the armed fault; UINT64_MAX: none
  uint64_t rx_cycle_ = UINT64_MAX;
  // The ends' arrival horizons (set_receiver_horizon, set_sender_horizon), raised by the sends and
  // the credit returns.
  ArrivalHorizon* to_receiver_ = nullptr;
  ArrivalHorizon* to_sender_ = nullptr;
  // The wire's time line (not on the fast path), the credit's view for waveforms, then what is
  // rarely touched.
  double free_at_ = 0;
  uint64_t credit_cycle_ = UINT64_MAX;
  int wire_credit_vc_ = -1;
  Fault fault_ = Fault::None;
  double rate_;
  SharedCount dropped_, flits_sent_;
  std::unique_ptr<Unit[]> extra_;      // lanes 1.. of every slot, on links faster than 1
  std::unique_ptr<Slot[]> far_slots_;  // rings longer than kInlineSlots
  std::unique_ptr<Retry> retry_;       // link-level retry, on a link with bit errors
  std::string name_;
  alignas(64) Slot near_slots_[kInlineSlots];  // a slot never straddles two cache lines
};

}  // namespace hx
