// route_ref.h: a reference model of the HammingMesh router's routing function, for checking.
//
// Written from the routing rules, not from rtl/hx_route.sv, so that the two can disagree.
//
// Coordinates: x grows east, y grows north; node (0,0) is a board's south-west corner, and a
// board of a x b nodes has last_x = a-1, last_y = b-1. An output port of a router on the board
// boundary that faces out of the board is an "edge port" (N at row last_y, E at column last_x,
// S at row 0, W at column 0); leaving through it means leaving the board.
//
// Minimal next hops, by where the destination board is:
//   same board          toward the destination node (E/W/N/S), every local lane when at it
//                       (a router with several lanes may eject on any of them);
//   same board row      toward the nearer E or W edge (both when the router is exactly in the
//                       middle column), plus, optionally, N/S toward the destination node's row;
//                       at the edge column the move toward the edge is the edge port itself;
//   same board column   toward the nearer N or S edge (both in the middle row), plus, optionally,
//                       E/W toward the destination node's column;
//   neither             toward the nearer E/W edge or the nearer N/S edge (the packet picks
//                       its intermediate board adaptively).
// Route modes:
//   Xy            one port: x first (E if allowed, else W), then y (N, else S), then the local
//                 lanes (all of them: the lane is the router's free choice, not a route);
//   NorthLast     the minimal set, minus N while an E/W move on this board is still required
//                 (same board and another column; or same board row and the router is not at
//                 the column of a nearer edge); a packet that came in on S from a router of the
//                 same board (router not in row 0) may only go N, leave the board, or eject;
// A packet injected on any local lane is routed as one injected on the first lane, L.
//   MinAdaptive   the whole minimal set (no turn rule; deadlock-prone with one VC).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

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

/// Output ports of `place` that leave the board.
PortMask edge_ports(const RouterPlace& place);

/// The allowed output ports for a head that arrived on `in_port` (0 .. 3 + local_ports) of a
/// router with `local_ports` lanes.
PortMask route_ref(const RouterPlace& place, unsigned in_port, RouteMode mode,
                   const Destination& dst, unsigned local_ports = 1);

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
  unsigned local_port(unsigned x, unsigned y, unsigned lane = 0) const {
    return lane * num_nodes() + y * size_x + x;
  }
  /// External index of the edge port leaving router (x, y) through `dir` (N/E/S/W).
  unsigned edge_port(unsigned dir, unsigned x, unsigned y) const;
  /// For an external port: the router it belongs to and the router port (kPortL + lane, or
  /// N/E/S/W).
  void router_of(unsigned external, unsigned& x, unsigned& y, unsigned& port) const;
  RouterPlace place(unsigned x, unsigned y, unsigned board_x, unsigned board_y) const;
  std::string external_name(unsigned external) const;
};

/// Every way the routing function can carry a packet across one board plane.
struct BoardRoutes {
  std::vector<unsigned> exits;   ///< external ports the packet may leave through (sorted)
  unsigned min_routers = 0;      ///< routers on the shortest allowed path (entry and exit included)
  unsigned max_routers = 0;      ///< routers on the longest allowed path
  bool dead_end = false;         ///< some reachable router offered no output at all
};

/// Follow route_ref from the router behind external port `entry` (a packet injected at a local
/// port, or arriving from outside at an edge port) through the board until it leaves.
BoardRoutes board_routes(const BoardGeometry& geom, unsigned board_x, unsigned board_y,
                         RouteMode mode, unsigned entry, const Destination& dst);

}  // namespace hx
