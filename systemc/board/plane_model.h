// plane_model.h: one plane of a HammingMesh board, as the SystemC side sees it.
//
// A board plane is an a x b mesh of RTL routers (rtl/hx_board_plane.sv) with a*b local ports
// (one per accelerator) and 2(a+b) edge ports. The simulator drives it through this interface;
// VerilatedPlane<M> implements it for each Verilated build of the plane (one class per size and
// VC count), and the registry (plane_registry.h) creates the one a config asks for.
//
// External ports are numbered as in rtl/hx_board_plane.sv and tb/route_ref.h BoardGeometry:
// local ports 0..a*b-1 (node y*a + x), then the edge ports N (x), E (y), S (x), W (y).
// Each port has two FlitLinks: `in` carries flits into the plane (and credits out of it),
// `out` carries flits out of the plane (and credits into it). An edge port without links is
// tied off: nothing enters, and nothing may leave (a flit there is a routing error).
//
// One clock cycle t is drive(t), which sets the model's inputs to what the links deliver in
// cycle t, then edge(t), which clocks it and sends what its registered outputs show for cycle
// t+1. For waveforms, settle() in between evaluates the model with cycle t's inputs so a trace
// dump shows cycle t consistently. These are the only virtual calls on the per-cycle path.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "flit_link.h"
#include "hx_flit.h"
#include "route_ref.h"

class VerilatedFstC;

namespace hx {

/// What a built plane model is: its parameters are fixed when it is Verilated.
struct PlaneVariant {
  unsigned size_x = 0, size_y = 0;
  unsigned num_vcs = 0;
  unsigned buf_depth = 0;
  unsigned payload_width = 0;
  std::string name;  ///< e.g. "8x8v4"
};

/// The straps of every router of the plane.
struct PlaneStraps {
  unsigned board_x = 0, board_y = 0;
  RouteMode route_mode = RouteMode::NorthLast;
  VcPolicy vc_policy = VcPolicy::Keep;
};

class PlaneModel {
 public:
  virtual ~PlaneModel() = default;

  virtual const PlaneVariant& variant() const = 0;
  unsigned num_nodes() const { return variant().size_x * variant().size_y; }
  unsigned num_edges() const { return 2 * (variant().size_x + variant().size_y); }

  /// Attach the links of external port `port` (nullptr leaves an edge port tied off).
  virtual void connect(unsigned port, FlitLink* in, FlitLink* out) = 0;

  /// Apply the straps and hold reset for `cycles` clock edges (before cycle 0).
  virtual void reset(const PlaneStraps& straps, unsigned cycles) = 0;

  /// One clock cycle, in two halves (see the file comment).
  virtual void drive(uint64_t t) = 0;
  virtual void settle() = 0;
  virtual void edge(uint64_t t) = 0;

  /// Sticky error_o of the routers (OR over the plane); 0 in a correct system.
  virtual unsigned error_bits() const = 0;
  /// Flits that left through a tied-off edge port (a routing error).
  virtual uint64_t stray_flits() const = 0;

  /// Add the plane's RTL signals to an open FST trace (hierarchy under the model's name).
  virtual void trace(VerilatedFstC* tfp, int levels) = 0;
};

}  // namespace hx
