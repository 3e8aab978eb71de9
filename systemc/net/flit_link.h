// flit_link.h: a point-to-point network link between two components, as whole flits.
//
// A FlitLink models one direction of a physical link plus its credit return wires: in every
// cycle it carries at most one flit from the sender to the receiver, and at most one credit
// (tagged with its VC) back. Both directions take `latency` cycles of wire delay on top of the
// sender's output register, so a component that, while handling cycle t, drives a flit for
// cycle t+1 sees it arrive at the other end in cycle t+1+latency:
//
//      sender: send(t, f)  ──►  [ t+1 ... t+1+latency ]  ──►  receiver: receive(t+1+latency)
//    receiver: return_credit(t, vc)  ──►  sender: credit(t+1+latency)
//
// Because every write lands in a later cycle than any read of the same cycle, the sender and
// the receiver may be handled in any order within a cycle: the link needs no delta cycles and
// no update phase, and it is deterministic. Bit-level signals exist only at the ports of the
// Verilated models; here a flit is a C++ value.
//
// The link is a delay line of latency+2 slots indexed by cycle, so the per-cycle path is an
// index computation and a copy: no allocation, no virtual call. It also counts what it carried
// (for utilisation and for the conservation check of the watchdog) and can be armed with one
// fault (drop or corrupt the n-th flit it delivers), the hook the scoreboard tests use.
//
// Speed: a thousand-accelerator system has ten thousand links, and every cycle touches most of
// them, so a link keeps what a cycle touches together: the counters and the slot pointer in
// one cache line right after the sc_object, and the slots themselves inline for the short
// links (latency 0..2, four slots) that make up most of a system. A received flit is handed
// out in place: its slot is not written again before cycle t + 1 (the sender writes slot
// t+1+latency, the ring has at least latency+2 slots), so no copy is needed.
//
// Threads: the planes of a system may be stepped on worker threads (board.h) while the
// accelerators and the fabric run on the main thread, so the two ends of a link may be handled
// at the same time. They never touch the same data: in cycle t the sender writes the flit of
// slot t+1+latency and takes the credit of slot t, the receiver takes the flit of slot t and
// writes the credit of slot t+1+latency; each counter has one writer (SharedCount). A reader
// of the other end's counter (flits_on_wire(), credits_on_wire()) may see it before or after
// that end's writes of cycle t, which land in cycle t+1 or later: see EdgePort::step.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <systemc>

#include "hx_flit.h"

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

class FlitLink : public sc_core::sc_object {
 public:
  enum class Fault : uint8_t { None, Drop, Corrupt };

  FlitLink(const char* name, unsigned latency_cycles) : sc_core::sc_object(name), lead_(latency_cycles + 1) {
    std::size_t size = 1;
    while (size < latency_cycles + 2u) size <<= 1;  // power of two: index by mask
    if (size > kInlineSlots) {
      far_slots_ = std::make_unique<Slot[]>(size);
      slots_ = far_slots_.get();
    } else {
      slots_ = near_slots_;
    }
    mask_ = static_cast<uint32_t>(size - 1);
  }
  FlitLink(const FlitLink&) = delete;
  FlitLink& operator=(const FlitLink&) = delete;

  const char* kind() const override { return "hx::FlitLink"; }

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
  unsigned latency() const { return lead_ - 1; }

  // ---- forward direction: flits ----------------------------------------------------------

  /// While handling cycle t, drive flit f for cycle t+1; it arrives in cycle t+1+latency.
  void send(uint64_t t, const Flit& f) {
    Slot& s = slots_[(t + lead_) & mask_];
    if (s.has_flit) throw std::logic_error(std::string(name()) + ": two flits in one cycle");
    s.has_flit = true;
    s.flit = f;
    sent_.add();
  }

  /// The flit arriving in cycle t, or nullptr. Consumes it: call once per cycle. The pointer
  /// is valid until the end of cycle t.
  const Flit* receive(uint64_t t) {
    Slot& s = slots_[t & mask_];
    if (!s.has_flit) return nullptr;
    s.has_flit = false;
    delivered_.add();
    rx_cycle_ = t;
    if (delivered_.get() == fault_at_) return apply_fault(s.flit);
    return &s.flit;
  }

  // ---- backward direction: credits -------------------------------------------------------

  /// While handling cycle t, return one credit for `vc`; the sender gets it in t+1+latency.
  void return_credit(uint64_t t, unsigned vc) {
    Slot& s = slots_[(t + lead_) & mask_];
    if (s.credit_vc >= 0) throw std::logic_error(std::string(name()) + ": two credits in one cycle");
    s.credit_vc = static_cast<int8_t>(vc);
    credits_sent_.add();
  }

  /// The VC of the credit arriving in cycle t, or -1. Consumes it: call once per cycle.
  int credit(uint64_t t) {
    Slot& s = slots_[t & mask_];
    const int vc = s.credit_vc;
    if (vc >= 0) {
      credits_taken_.add();
      s.credit_vc = -1;
      credit_cycle_ = t;
      wire_credit_vc_ = vc;
    }
    return vc;
  }

  // ---- accounting --------------------------------------------------------------------------

  uint64_t flits_sent() const { return sent_.get(); }
  uint64_t flits_delivered() const { return delivered_.get() - dropped_.get(); }
  uint64_t flits_dropped() const { return dropped_.get(); }
  /// Flits sent and not yet delivered (on the wires).
  uint64_t flits_on_wire() const { return sent_.get() - delivered_.get(); }
  /// Credits returned and not yet taken by the sender.
  uint64_t credits_on_wire() const { return credits_sent_.get() - credits_taken_.get(); }

  /// Arm a fault on the n-th flit (1-based) this link delivers from now on.
  void arm_fault(Fault f, uint64_t nth) {
    fault_ = f;
    fault_at_ = f == Fault::None ? UINT64_MAX : delivered_.get() + nth;
  }

  // ---- waveform view: the wires at the receiving end in cycle t, whether or not the
  // receiver has consumed them yet in this cycle (so the view does not depend on the order
  // in which components are handled).
  const Flit* wire_flit(uint64_t t) const {
    const Slot& s = slots_[t & mask_];
    return s.has_flit || rx_cycle_ == t ? &s.flit : nullptr;
  }
  int wire_credit_vc(uint64_t t) const {
    const Slot& s = slots_[t & mask_];
    if (s.credit_vc >= 0) return s.credit_vc;
    return credit_cycle_ == t ? wire_credit_vc_ : -1;
  }

 private:
  struct Slot {
    bool has_flit = false;
    int8_t credit_vc = -1;
    Flit flit;
  };
  static constexpr std::size_t kInlineSlots = 4;  // latency 0..2

  const Flit* apply_fault(Flit& f) {
    const Fault kind = fault_;
    fault_ = Fault::None;
    fault_at_ = UINT64_MAX;
    if (kind == Fault::Drop) {
      dropped_.add();
      rx_cycle_ = UINT64_MAX;  // nothing reached the receiver
      return nullptr;
    }
    // Corrupt: flip the top payload bit, above the header and the endpoint tag, so the flit
    // can still be attributed to its packet and the payload comparison must catch it.
    f.payload[1] ^= uint64_t{1} << 63;
    return &f;
  }

  // What every cycle touches, together (see the file comment).
  alignas(64) Slot* slots_ = nullptr;  // one cache line from here to rx_cycle_
  uint32_t mask_ = 0;
  uint32_t lead_;  // latency + 1: a write in cycle t is for cycle t + lead_
  SharedCount sent_, delivered_, credits_sent_, credits_taken_;
  uint64_t fault_at_ = UINT64_MAX;  // delivered_ count of the armed fault; UINT64_MAX: none
  uint64_t rx_cycle_ = UINT64_MAX;
  // The credit's view for waveforms, then what is rarely touched.
  uint64_t credit_cycle_ = UINT64_MAX;
  int wire_credit_vc_ = -1;
  Fault fault_ = Fault::None;
  SharedCount dropped_;
  std::unique_ptr<Slot[]> far_slots_;          // rings longer than kInlineSlots
  alignas(64) Slot near_slots_[kInlineSlots];  // a slot never straddles two cache lines
};

}  // namespace hx
