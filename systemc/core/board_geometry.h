// board_geometry.h: how the RTL numbers a router's ports and a board plane's external ports, and
// where a router sits. The hardware's numbering, shared by the simulator (board planes, the
// fabric's edge wiring), the waveforms and the test benches; the reference routing function
// that checks the RTL is in systemc/routing/board_mesh.h.
#pragma once

#include <cstdint>
#include <string>

#include "router_straps.h"

namespace hx {

/// Router port numbering (hx_pkg::Port*): N, E, S, W, then the local lanes, kPortL the first.
enum RouterPort : unsigned { kPortN = 0, kPortE = 1, kPortS = 2, kPortW = 3, kPortL = 4 };
constexpr unsigned kNumNetPorts = 4;
constexpr unsigned kMaxLocalPorts = 4;  ///< hx_pkg::MaxLocalPorts
/// Ports of a router with `local_ports` lanes (hx_pkg::num_ports).
constexpr unsigned num_router_ports(unsigned local_ports) { return kNumNetPorts + local_ports; }
constexpr unsigned kMaxRouterPorts = num_router_ports(kMaxLocalPorts);
/// Ports of the default router, which has one lane.
constexpr unsigned kNumRouterPorts = num_router_ports(1);
/// "N", "E", "S", "W", "L" (the first lane), "L1", "L2", "L3".
const char* port_name(unsigned port);

const char* to_string(RouteMode m);
const char* to_string(VcPolicy p);
const char* to_string(TreeSpan s);

/// A set of router output ports, bit i = port i (kMaxRouterPorts bits).
using PortMask = uint8_t;
static_assert(kMaxRouterPorts <= 8 * sizeof(PortMask), "PortMask holds every router port");
/// The local lanes of a router with `local_ports` lanes.
constexpr PortMask local_lanes(unsigned local_ports) {
  return static_cast<PortMask>(((1u << local_ports) - 1u) << kPortL);
}
std::string port_mask_string(PortMask m);

/// Where a router sits: its node on the board, the board's last column/row, the board's place.
struct RouterPlace {
  unsigned node_x = 0, node_y = 0;
  unsigned last_x = 0, last_y = 0;
  unsigned board_x = 0, board_y = 0;
};

struct Destination {
  unsigned board_x = 0, board_y = 0;
  unsigned node_x = 0, node_y = 0;
};

/// A board plane of size_x * size_y routers with local_ports lanes each, and the numbering of its
/// external ports, as rtl/hx_board_plane.sv brings them out: first the local ports, lane k of
/// node n = y*size_x + x at k*num_nodes() + n (so lane 0 is numbered as with one lane), then,
/// from num_local() on, the edge ports N (x), E (y), S (x), W (y) in that order.
struct BoardGeometry {
  unsigned size_x = 1, size_y = 1;
  unsigned local_ports = 1;  ///< lanes per router (hx_board_plane's LocalPorts)

  unsigned num_nodes() const { return size_x * size_y; }
  unsigned num_local() const { return num_nodes() * local_ports; }
  unsigned num_edges() const { return 2 * (size_x + size_y); }
  unsigned num_external() const { return num_local() + num_edges(); }
  /// External index of lane `lane` of node (x, y).
  unsigned local_port(unsigned x, unsigned y, unsigned lane = 0) const { return lane * num_nodes() + y * size_x + x; }
  /// External index of the edge port leaving router (x, y) through `dir` (N/E/S/W).
  unsigned edge_port(unsigned dir, unsigned x, unsigned y) const;
  /// For an external port: the router it belongs to and the router port (kPortL + lane, or
  /// N/E/S/W).
  void router_of(unsigned external, unsigned& x, unsigned& y, unsigned& port) const;
  RouterPlace place(unsigned x, unsigned y, unsigned board_x, unsigned board_y) const;
  std::string external_name(unsigned external) const;
};

}  // namespace hx
