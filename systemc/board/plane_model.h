// plane_model.h: one plane of a HammingMesh board, as the SystemC side sees it.
//
// A board plane is an a x b mesh of RTL routers (rtl/hx_board_plane.sv) with L local ports
// ("lanes") per accelerator, a*b*L in all, and 2(a+b) edge ports. The paper's accelerator has
// four network interfaces per plane; a plane with L = 4 lets it inject and receive on all four
// links at once, L = 1 caps it at one link. The simulator drives a plane through this interface;
// VerilatedPlane<M> implements it for each Verilated build of the plane (one class per size, VC
// count and lane count), and the registry (plane_registry.h) creates the one a config asks for.
//
// External ports are numbered as in rtl/hx_board_plane.sv and systemc/core/board_geometry.h BoardGeometry:
// local ports first, lane k of node n = y*a + x at k*a*b + n (local_port(n, k); lane 0 has the
// numbers of a one-lane plane), then, from a*b*L on, the edge ports N (x), E (y), S (x), W (y).
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

#include "arrival_horizon.h"
#include "board_geometry.h"
#include "flit_link.h"
#include "hx_flit.h"

class VerilatedFstC;

namespace hx {

/// What a built plane model is: its parameters are fixed when it is Verilated.
struct PlaneVariant {
  unsigned size_x = 0, size_y = 0;
  unsigned num_vcs = 0;
  unsigned buf_depth = 0;
  unsigned payload_width = 0;
  unsigned local_ports = 1;  ///< lanes per router (hx_board_plane's LocalPorts)
  std::string name;          ///< e.g. "8x8v4", "4x4l4"
};

/// The straps of every router of the plane.
struct PlaneStraps {
  unsigned board_x = 0, board_y = 0;
  RouteMode route_mode = RouteMode::NorthLast;
  TreeSpan tree_span = TreeSpan::Line;  ///< span_board_i: the trees beyond the edges
  VcPolicy vc_policy = VcPolicy::Keep;
};

class PlaneModel {
 public:
  virtual ~PlaneModel() = default;

  virtual const PlaneVariant& variant() const = 0;
  unsigned num_nodes() const { return variant().size_x * variant().size_y; }
  /// Lanes per node (accelerator): its local ports in this plane.
  unsigned num_local_ports() const { return variant().local_ports; }
  unsigned num_edges() const { return 2 * (variant().size_x + variant().size_y); }
  /// All external ports: num_nodes() * num_local_ports() local ports, then the edges.
  unsigned num_ports() const { return num_nodes() * num_local_ports() + num_edges(); }
  /// External port of lane `lane` of node `node` (y*a + x).
  unsigned local_port(unsigned node, unsigned lane = 0) const { return lane * num_nodes() + node; }
  /// The port numbering as a BoardGeometry (edge_port(), router_of(), ...).
  BoardGeometry geometry() const { return BoardGeometry{variant().size_x, variant().size_y, variant().local_ports}; }

  /// Attach the links of external port `port` (nullptr leaves an edge port tied off).
  virtual void connect(unsigned port, FlitLink* in, FlitLink* out) = 0;
  /// The links of external port `port` as connected (nullptr: tied off): `in` into the plane,
  /// `out` out of it. A partitioned run finds the links it splits here (sim/rank_boundary.h).
  virtual FlitLink* in_link(unsigned port) const = 0;
  virtual FlitLink* out_link(unsigned port) const = 0;

  /// Apply the straps and hold reset for `cycles` clock edges (before cycle 0).
  virtual void reset(const PlaneStraps& straps, unsigned cycles) = 0;

  /// One clock cycle, in two halves (see the file comment).
  virtual void drive(uint64_t t) = 0;
  virtual void settle() = 0;
  virtual void edge(uint64_t t) = 0;
  /// A cache hint before stepping this plane (no effect on its state): a loop over many planes
  /// calls it for the next plane while it steps the current one.
  virtual void prefetch() const {}

  /// Sticky error_o of the routers (OR over the plane); 0 in a correct system.
  virtual unsigned error_bits() const = 0;
  /// Flits that left through a tied-off edge port (a routing error).
  virtual uint64_t stray_flits() const = 0;
  /// Cycles in which the plane was idle and nothing arrived, so its clock edge was skipped
  /// (verilated_plane.h): a measure of how much of the run the plane had no work.
  virtual uint64_t skipped_edges() const = 0;

  /// Add the plane's RTL signals to an open FST trace (hierarchy under the model's name).
  virtual void trace(VerilatedFstC* tfp, int levels) = 0;

  /// Nothing arrives at the local ports in cycle t: no flit on their in-links, no credit on their
  /// out-links (arrival_horizon.h; the links raise it, whoever sends). A plane whose local links
  /// all take the horizon skips the local ports' polls then (verilated_plane.h).
  bool local_quiet(uint64_t t) const { return local_horizon_ && local_arrivals_.quiet(t); }

 protected:
  ArrivalHorizon local_arrivals_;
  bool local_horizon_ = true;  // false once a local link refuses the horizon (a link with bit errors)
};

}  // namespace hx
