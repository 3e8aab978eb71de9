// board_mesh.h: the routing rules of a HammingMesh board's routers, the route modes xy,
// north_last and min_adaptive, by name.
//
// Two users: the C++ switch, which can be a board router with these as its routing functions
// (registered in registry.cpp under the same names), and the benches that check the RTL router
// (rtl/hx_route.sv routes in hardware; tests/ compare every route it takes with the set these
// rules allow). Written from the routing rules, not from rtl/hx_route.sv, so that the two can
// disagree.
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
// The optional moves are minimal only where the tree beyond the edge delivers on the line the
// packet left from (TreeSpan::Line). A tree of span board delivers on the destination's line
// whatever line the packet entered on, so with TreeSpan::Board (the span_board_i strap) they
// would waste a hop each and are not offered.
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
#include <stdexcept>
#include <string>
#include <vector>

#include "board_geometry.h"
#include "router_straps.h"

namespace hx {

/// The board routing functions by name, as the config and `hxsim list` name them.
struct BoardRouting {
  const char* name;
  RouteMode mode;
  const char* description;
};
const std::vector<BoardRouting>& board_routings();
/// The mode registered as `name`; throws std::invalid_argument naming the registered ones.
RouteMode board_routing(const std::string& name);
/// The entry of `mode`: its name ("xy", "north_last", "min_adaptive") and description.
const BoardRouting& board_routing_info(RouteMode mode);

/// Output ports of `place` that leave the board.
PortMask edge_ports(const RouterPlace& place);

/// The allowed output ports for a head that arrived on `in_port` (0 .. 3 + local_ports) of a
/// router with `local_ports` lanes, whose trees have span `span`.
PortMask board_route_set(const RouterPlace& place, unsigned in_port, RouteMode mode, const Destination& dst,
                         unsigned local_ports = 1, TreeSpan span = TreeSpan::Line);

/// Every way the routing function can carry a packet across one board plane.
struct BoardRoutes {
  std::vector<unsigned> exits;  ///< external ports the packet may leave through (sorted)
  unsigned min_routers = 0;     ///< routers on the shortest allowed path (entry and exit included)
  unsigned max_routers = 0;     ///< routers on the longest allowed path
  bool dead_end = false;        ///< some reachable router offered no output at all
};

/// Follow board_route_set from the router behind external port `entry` (a packet injected at a local
/// port, or arriving from outside at an edge port) through the board until it leaves.
BoardRoutes board_routes(const BoardGeometry& geom, unsigned board_x, unsigned board_y, RouteMode mode, unsigned entry,
                         const Destination& dst, TreeSpan span = TreeSpan::Line);

}  // namespace hx
