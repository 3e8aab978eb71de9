// flit_link.h: a link of the fabric model, between two components, as whole flits.
//
// FlitLink is core's CreditLink (credit_link.h: latency, rate, credits, fault hook, waveform
// view) carrying hx::Flit, and a named sc_object, so that waveforms and error messages name the
// link by its place in the netlist. A fabric link has rate 1 unless its builder gives it another
// (see NetworkSwitch and EdgePort for the ends that honour a link's budget); the RTL board planes
// take and give one flit per cycle per port, so the links at a plane's ports stay at rate 1.
#pragma once

#include <systemc>

#include "credit_link.h"
#include "hx_flit.h"

namespace hx {

class FlitLink : public sc_core::sc_object, public CreditLink<Flit> {
 public:
  FlitLink(const char* name, unsigned latency_cycles, LinkRate rate = LinkRate{}, LinkErrors errors = {})
      : sc_core::sc_object(name), CreditLink<Flit>(sc_core::sc_object::name(), latency_cycles, rate, errors) {}

  const char* kind() const override { return "hx::FlitLink"; }

  // The counts in flits (one flit per unit).
  uint64_t flits_delivered() const { return units_delivered(); }
  uint64_t flits_dropped() const { return units_dropped(); }
  uint64_t flits_on_wire() const { return units_on_wire(); }
  const Flit* wire_flit(uint64_t t) const { return wire_unit(t); }
};

}  // namespace hx
