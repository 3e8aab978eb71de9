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
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include <systemc>

#include "hx_flit.h"

namespace hx {

class FlitLink : public sc_core::sc_object {
 public:
  enum class Fault : uint8_t { None, Drop, Corrupt };

  FlitLink(const char* name, unsigned latency_cycles)
      : sc_core::sc_object(name), latency_(latency_cycles) {
    std::size_t size = 1;
    while (size < latency_cycles + 2u) size <<= 1;  // power of two: index by mask
    slots_.resize(size);
    mask_ = size - 1;
  }

  const char* kind() const override { return "hx::FlitLink"; }
  unsigned latency() const { return latency_; }

  // ---- forward direction: flits ----------------------------------------------------------

  /// While handling cycle t, drive flit f for cycle t+1; it arrives in cycle t+1+latency.
  void send(uint64_t t, const Flit& f) {
    Slot& s = slots_[(t + 1 + latency_) & mask_];
    if (s.has_flit) throw std::logic_error(std::string(name()) + ": two flits in one cycle");
    s.has_flit = true;
    s.flit = f;
    ++sent_;
  }

  /// The flit arriving in cycle t, or nullptr. Consumes it: call once per cycle.
  const Flit* receive(uint64_t t) {
    Slot& s = slots_[t & mask_];
    if (!s.has_flit) return nullptr;
    s.has_flit = false;
    ++delivered_;
    rx_cycle_ = t;
    wire_flit_ = s.flit;
    if (fault_ != Fault::None && delivered_ == fault_at_) return apply_fault();
    return &wire_flit_;
  }

  // ---- backward direction: credits -------------------------------------------------------

  /// While handling cycle t, return one credit for `vc`; the sender gets it in t+1+latency.
  void return_credit(uint64_t t, unsigned vc) {
    Slot& s = slots_[(t + 1 + latency_) & mask_];
    if (s.credit_vc >= 0) throw std::logic_error(std::string(name()) + ": two credits in one cycle");
    s.credit_vc = static_cast<int8_t>(vc);
    ++credits_sent_;
  }

  /// The VC of the credit arriving in cycle t, or -1. Consumes it: call once per cycle.
  int credit(uint64_t t) {
    Slot& s = slots_[t & mask_];
    const int vc = s.credit_vc;
    if (vc >= 0) {
      ++credits_taken_;
      s.credit_vc = -1;
      credit_cycle_ = t;
      wire_credit_vc_ = vc;
    }
    return vc;
  }

  // ---- accounting --------------------------------------------------------------------------

  uint64_t flits_sent() const { return sent_; }
  uint64_t flits_delivered() const { return delivered_ - dropped_; }
  uint64_t flits_dropped() const { return dropped_; }
  /// Flits sent and not yet delivered (on the wires).
  uint64_t flits_on_wire() const { return sent_ - delivered_; }
  /// Credits returned and not yet taken by the sender.
  uint64_t credits_on_wire() const { return credits_sent_ - credits_taken_; }

  /// Arm a fault on the n-th flit (1-based) this link delivers from now on.
  void arm_fault(Fault f, uint64_t nth) {
    fault_ = f;
    fault_at_ = delivered_ + nth;
  }

  // ---- waveform view: the wires at the receiving end in cycle t, whether or not the
  // receiver has consumed them yet in this cycle (so the view does not depend on the order
  // in which components are handled).
  const Flit* wire_flit(uint64_t t) const {
    const Slot& s = slots_[t & mask_];
    if (s.has_flit) return &s.flit;
    return rx_cycle_ == t ? &wire_flit_ : nullptr;
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

  const Flit* apply_fault() {
    const Fault f = fault_;
    fault_ = Fault::None;
    if (f == Fault::Drop) {
      ++dropped_;
      rx_cycle_ = UINT64_MAX;  // nothing reached the receiver
      return nullptr;
    }
    // Corrupt: flip the top payload bit, above the header and the endpoint tag, so the flit
    // can still be attributed to its packet and the payload comparison must catch it.
    wire_flit_.payload[1] ^= uint64_t{1} << 63;
    return &wire_flit_;
  }

  unsigned latency_;
  std::vector<Slot> slots_;
  std::size_t mask_ = 0;
  uint64_t sent_ = 0, delivered_ = 0, dropped_ = 0;
  uint64_t credits_sent_ = 0, credits_taken_ = 0;
  Fault fault_ = Fault::None;
  uint64_t fault_at_ = 0;
  uint64_t rx_cycle_ = UINT64_MAX, credit_cycle_ = UINT64_MAX;
  Flit wire_flit_;
  int wire_credit_vc_ = -1;
};

}  // namespace hx
