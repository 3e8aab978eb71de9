// verilated_plane.h: PlaneModel for a Verilated hx_board_plane of class M (--cc).
//
// The adapter between FlitLinks (flits as values) and the model's flattened bit-vector ports.
// Per cycle it touches only what is active: the valid masks are rebuilt from the links, and
// flit words are written or read only for ports that carry a flit in this cycle. The model is
// clocked with one eval() per cycle, at the rising edge; the falling edge changes nothing in it
// and is recorded without an evaluation (lower_clock, verilated_ports.h).
//
// Idle planes are not clocked. When every router of the plane was idle after the last edge (the
// RTL's idle_o: no flit buffered, no flit or credit on the registered outputs) and no flit and no
// credit arrives in this cycle, the clock edge provably changes no register (rtl/hx_router.sv,
// "Idle"), so edge() skips both evaluations and samples nothing: the outputs stay all zero. The
// results are identical cycle for cycle (the golden test runs with it); a lightly loaded or
// waiting system then costs little more than its busy planes.
#pragma once

#include <array>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

// <systemc.h>, not <systemc>, before Verilator's headers: they need ::sc_time_stamp.
#include <systemc.h>

#include "plane_model.h"
#include "verilated.h"
#include "verilated_fst_c.h"
#include "verilated_ports.h"

namespace hx {

template <class M>
class VerilatedPlane final : public PlaneModel {
 public:
  VerilatedPlane(VerilatedContext* ctx, const PlaneVariant& v, const char* instance_name)
      : variant_(v), model_(std::make_unique<M>(ctx, instance_name)) {
    fmt_.payload_width = v.payload_width;
    // The variant's numbers come from the registry, the port widths from Verilation: a registry
    // that disagrees with the model (size, lanes, flit width) would silently misplace flits.
    const unsigned need = num_local() * fmt_.flit_width();
    const unsigned have = port_capacity_bits(model_->loc_in_flit_i);
    if (have < need || have >= need + 32) {
      throw std::invalid_argument("VerilatedPlane: model " + v.name + " has " + std::to_string(have) +
                                  " bits of local flits, the variant " + std::to_string(need));
    }
    in_.assign(num_ports(), nullptr);
    out_.assign(num_ports(), nullptr);
  }

  const PlaneVariant& variant() const override { return variant_; }

  void connect(unsigned port, FlitLink* in, FlitLink* out) override {
    if (port >= in_.size()) throw std::out_of_range("VerilatedPlane::connect: port");
    // The RTL's ports take and give one flit (and one credit) per cycle, so the per-cycle
    // calls take the links' fast path without asking them (RateHint::One).
    for (const FlitLink* l : {in, out})
      if (l != nullptr && !l->unit_rate())
        throw std::invalid_argument(std::string(l->name()) + ": a board plane's port carries one flit per cycle, not " +
                                    LinkRate::per_cycle(l->rate()).describe());
    in_[port] = in;
    out_[port] = out;
    if (port < num_local()) {  // what arrives at the local ports raises their horizon
      if (in != nullptr && !in->set_receiver_horizon(&local_arrivals_)) local_horizon_ = false;
      if (out != nullptr && !out->set_sender_horizon(&local_arrivals_)) local_horizon_ = false;
    }
  }

  void reset(const PlaneStraps& s, unsigned cycles) override {
    M& m = *model_;
    m.board_x_i = s.board_x;
    m.board_y_i = s.board_y;
    m.route_mode_i = static_cast<unsigned>(s.route_mode);
    m.span_board_i = static_cast<unsigned>(s.tree_span);
    m.vc_policy_i = static_cast<unsigned>(s.vc_policy);
    m.rst_ni = 0;
    m.clk_i = 0;
    m.eval();
    for (unsigned i = 0; i < cycles; ++i) clock();
    m.rst_ni = 1;
    m.eval();
    idle_ = false;  // the first edge after reset registers the straps
  }

  void drive(uint64_t t) override {
    M& m = *model_;
    const unsigned local = num_local();
    // Inputs for cycle t: flits arriving on the in-links, credits arriving on the out-links. The
    // local ports' polls are skipped where their horizon says nothing arrives: no valid flit, no
    // credit.
    bool any_local = false;
    if (!local_quiet(t)) {
      any_local =
          drive_group(t, 0, local, m.loc_in_valid_i, m.loc_in_flit_i, m.loc_out_credit_i, m.loc_out_credit_vc_i);
    } else {
      for (unsigned base = 0; base < local; base += 64) {
        const unsigned n = local - base < 64 ? local - base : 64;
        set_bits(m.loc_in_valid_i, base, n, 0);
        set_bits(m.loc_out_credit_i, base, n, 0);
      }
    }
    const bool any_edge = drive_group(t, local, num_edges(), m.edge_in_valid_i, m.edge_in_flit_i, m.edge_out_credit_i,
                                      m.edge_out_credit_vc_i);
    skip_edge_ = idle_ && !any_local && !any_edge;
  }

  void settle() override { model_->eval(); }

  // The model's whole state (one block: the symbol table holds the top and every router) and
  // the links of every port. A plane's step touches most of both, and the next plane's fetch
  // then overlaps with this plane's work instead of stalling it line by line.
  void prefetch() const override {
    const char* p = reinterpret_cast<const char*>(model_->rootp->vlSymsp);
    const std::size_t n = sizeof(*model_->rootp->vlSymsp);
    for (std::size_t off = 0; off < n; off += 64) __builtin_prefetch(p + off, 1);
    for (const FlitLink* l : in_) {
      if (l != nullptr) l->prefetch();
    }
    for (const FlitLink* l : out_) {
      if (l != nullptr) l->prefetch();
    }
  }

  void edge(uint64_t t) override {
    if (skip_edge_) {  // idle and nothing arrived: the edge would change nothing (file comment)
      ++skipped_edges_;
      return;
    }
    M& m = *model_;
    const unsigned local = num_local();
    clock();
    idle_ = m.idle_o != 0;
    // Registered outputs: what the plane drives in cycle t+1.
    sample_group(t, 0, local, m.loc_out_valid_o, m.loc_out_flit_o, m.loc_in_credit_o, m.loc_in_credit_vc_o);
    sample_group(t, local, num_edges(), m.edge_out_valid_o, m.edge_out_flit_o, m.edge_in_credit_o,
                 m.edge_in_credit_vc_o);
  }

  unsigned error_bits() const override { return model_->error_o; }
  uint64_t skipped_edges() const override { return skipped_edges_; }
  FlitLink* in_link(unsigned port) const override { return in_.at(port); }
  FlitLink* out_link(unsigned port) const override { return out_.at(port); }
  uint64_t stray_flits() const override { return stray_; }

  void trace(VerilatedFstC* tfp, int levels) override {
    // A plane the model cache built for a run without waveforms has no trace code (half of a
    // model's C++): the simulation asks for a traced build when it writes a waveform.
    if constexpr (kHasFstTrace<M>)
      model_->trace(tfp, levels);
    else
      throw std::logic_error("board plane " + variant_.name + " was built without waveform support");
  }

 private:
  unsigned num_local() const { return num_nodes() * num_local_ports(); }

  // The rising edge evaluates; the falling edge needs no evaluation (lower_clock,
  // verilated_ports.h): no input changes in between, and reset() holds rst_ni steady around it.
  void clock() {
    model_->clk_i = 1;
    model_->eval();
    lower_clock(*model_);
  }

  // Ports [first, first+count) of one group (local, every lane, or edge): valid mask and flits in,
  // credits for the group's outputs in. Groups larger than 64 ports go in chunks of 64. True if
  // a flit or a credit arrived.
  template <class V, class F, class C, class CV>
  bool drive_group(uint64_t t, unsigned first, unsigned count, V& valid, F& flits, C& credit, CV& credit_vc) {
    bool any = false;
    for (unsigned base = 0; base < count; base += 64) {
      const unsigned n = count - base < 64 ? count - base : 64;
      uint64_t vmask = 0, cmask = 0;
      for (unsigned i = 0; i < n; ++i) {
        const unsigned k = base + i;
        if (FlitLink* l = in_[first + k]) {
          if (const Flit* f = l->receive<RateHint::One>(t)) {
            vmask |= uint64_t{1} << i;
            set_flit(flits, k, fmt_, *f);
          }
        }
        if (FlitLink* l = out_[first + k]) {
          const int vc = l->credit<RateHint::One>(t);
          if (vc >= 0) {
            cmask |= uint64_t{1} << i;
            set_bits(credit_vc, k * FlitFormat::kVcWidth, FlitFormat::kVcWidth, static_cast<uint64_t>(vc));
          }
        }
      }
      set_bits(valid, base, n, vmask);
      set_bits(credit, base, n, cmask);
      any |= (vmask | cmask) != 0;
    }
    return any;
  }

  template <class V, class F, class C, class CV>
  void sample_group(uint64_t t, unsigned first, unsigned count, const V& valid, const F& flits, const C& credit,
                    const CV& credit_vc) {
    for (unsigned base = 0; base < count; base += 64) {
      const unsigned n = count - base < 64 ? count - base : 64;
      uint64_t vmask = get_bits(valid, base, n);
      while (vmask != 0) {
        const unsigned k = base + static_cast<unsigned>(__builtin_ctzll(vmask));
        vmask &= vmask - 1;
        if (FlitLink* l = out_[first + k]) {
          l->send<RateHint::One>(t, get_flit(flits, k, fmt_));
        } else {
          ++stray_;
        }
      }
      uint64_t cmask = get_bits(credit, base, n);
      while (cmask != 0) {
        const unsigned k = base + static_cast<unsigned>(__builtin_ctzll(cmask));
        cmask &= cmask - 1;
        if (FlitLink* l = in_[first + k]) {
          l->return_credit<RateHint::One>(
              t, static_cast<unsigned>(get_bits(credit_vc, k * FlitFormat::kVcWidth, FlitFormat::kVcWidth)));
        }
      }
    }
  }

  PlaneVariant variant_;
  FlitFormat fmt_;
  std::unique_ptr<M> model_;
  std::vector<FlitLink*> in_, out_;
  uint64_t stray_ = 0;
  bool idle_ = false;       // every router idle after the last edge (idle_o)
  bool skip_edge_ = false;  // ... and nothing arrives in this cycle: edge() does nothing
  uint64_t skipped_edges_ = 0;
};

}  // namespace hx
