// board_mesh.cpp: the board routers' routing rules (board_mesh.h).
#include "board_mesh.h"
#include "named_registry.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace hx {

namespace {

constexpr PortMask bit(unsigned p) { return static_cast<PortMask>(1u << p); }

unsigned opposite(unsigned dir) { return (dir + 2) % 4; }

}  // namespace

PortMask edge_ports(const RouterPlace& r) {
  PortMask m = 0;
  if (r.node_y == r.last_y) m |= bit(kPortN);
  if (r.node_x == r.last_x) m |= bit(kPortE);
  if (r.node_y == 0) m |= bit(kPortS);
  if (r.node_x == 0) m |= bit(kPortW);
  return m;
}

const std::vector<BoardRouting>& board_routings() {
  static const std::vector<BoardRouting> table = {
      {"xy", RouteMode::Xy, "board routers: dimension order, x first (deterministic)"},
      {"north_last", RouteMode::NorthLast, "board routers: minimal adaptive under the north-last turn rule"},
      {"min_adaptive", RouteMode::MinAdaptive, "board routers: minimal adaptive, no turn rule (deadlock-prone)"},
  };
  return table;
}

RouteMode board_routing(const std::string& name) {
  return find_named(board_routings(), name, "board routing function", [](const BoardRouting& r) { return r.name; })
      .mode;
}

const BoardRouting& board_routing_info(RouteMode mode) {
  for (const BoardRouting& r : board_routings())
    if (r.mode == mode) return r;
  throw std::invalid_argument("no board routing function for route mode " + std::to_string(static_cast<int>(mode)));
}

PortMask board_route_set(const RouterPlace& r, unsigned in_port, RouteMode mode, const Destination& d,
                         unsigned local_ports, TreeSpan span) {
  if (local_ports < 1 || local_ports > kMaxLocalPorts) {
    throw std::invalid_argument("board_route_set: local_ports must be 1..4");
  }
  // Ejection: the packet has arrived and the router may hand it to any lane.
  const PortMask eject = local_lanes(local_ports);
  const bool same_board = d.board_x == r.board_x && d.board_y == r.board_y;
  const bool board_row = !same_board && d.board_y == r.board_y;  // only x differs
  const bool board_col = !same_board && d.board_x == r.board_x;  // only y differs

  // Distances to the four board edges, and which edge of each dimension is nearer.
  const unsigned dist_e = r.last_x - r.node_x;
  const unsigned dist_w = r.node_x;
  const unsigned dist_n = r.last_y - r.node_y;
  const unsigned dist_s = r.node_y;
  const PortMask near_ew = (dist_e <= dist_w ? bit(kPortE) : 0) | (dist_w <= dist_e ? bit(kPortW) : 0);
  const PortMask near_ns = (dist_n <= dist_s ? bit(kPortN) : 0) | (dist_s <= dist_n ? bit(kPortS) : 0);

  // Moves toward the destination node's column and row (meaningful on any board: the node
  // coordinates are board-local).
  PortMask toward_col = 0;
  if (d.node_x > r.node_x) toward_col |= bit(kPortE);
  if (d.node_x < r.node_x) toward_col |= bit(kPortW);
  PortMask toward_row = 0;
  if (d.node_y > r.node_y) toward_row |= bit(kPortN);
  if (d.node_y < r.node_y) toward_row |= bit(kPortS);
  // On the way to another board, a move toward the destination's line (row for the same board
  // row, column for the same board column) is optional where the tree delivers on the line the
  // packet left from (span line). A tree of span board delivers on the destination's line
  // anyway, so there such a move would be a wasted hop: not offered.
  const bool line_moves = span == TreeSpan::Line;

  PortMask minimal = 0;
  bool ew_still_required = false;  // an E/W move on this board must come first (north-last)
  if (same_board) {
    minimal = toward_col | toward_row;
    if (minimal == 0) minimal = eject;
    ew_still_required = toward_col != 0;
  } else if (board_row) {
    minimal = near_ew | (line_moves ? toward_row : 0);
    // At the column of a nearer edge the E/W move is the edge port itself: nothing left to do
    // on this board in x.
    const bool at_near_edge_col =
        ((near_ew & bit(kPortE)) && r.node_x == r.last_x) || ((near_ew & bit(kPortW)) && r.node_x == 0);
    ew_still_required = !at_near_edge_col;
  } else if (board_col) {
    minimal = near_ns | (line_moves ? toward_col : 0);
  } else {
    // Either tree may come first, through the nearer edge of its dimension; but a router
    // already on the nearer edge of one dimension leaves by it: a move toward the other edge
    // would be a hop more, along the board's edge toward a corner, whose cables carry every
    // transit (docs/table2.md, "The HammingMesh family's routers").
    const bool at_ew = std::min(dist_e, dist_w) == 0, at_ns = std::min(dist_n, dist_s) == 0;
    minimal = (at_ew || !at_ns ? near_ew : 0) | (at_ns || !at_ew ? near_ns : 0);
  }

  switch (mode) {
    case RouteMode::Xy: {
      if (minimal & bit(kPortE)) return bit(kPortE);
      if (minimal & bit(kPortW)) return bit(kPortW);
      if (minimal & bit(kPortN)) return bit(kPortN);
      if (minimal & bit(kPortS)) return bit(kPortS);
      return minimal & eject;
    }
    case RouteMode::NorthLast: {
      PortMask m = minimal;
      if (ew_still_required) m &= static_cast<PortMask>(~bit(kPortN));
      const bool travelling_north = in_port == kPortS && r.node_y != 0;
      if (travelling_north) m &= static_cast<PortMask>(bit(kPortN) | eject | edge_ports(r));
      return m;
    }
    case RouteMode::MinAdaptive: return minimal;
  }
  return 0;
}

BoardRoutes board_routes(const BoardGeometry& g, unsigned board_x, unsigned board_y, RouteMode mode, unsigned entry,
                         const Destination& dst, TreeSpan span) {
  // Memoised walk over the states (router, input port). Every allowed hop is minimal, so the
  // walk has no cycles; a depth limit guards against a routing function that is not.
  struct State {
    bool done = false;
    bool active = false;
    std::vector<unsigned> exits;
    unsigned min_r = 0, max_r = 0;
    bool dead_end = false;
  };
  const unsigned ports_per_router = num_router_ports(g.local_ports);
  std::vector<State> memo(g.num_nodes() * ports_per_router);

  auto walk = [&](auto&& self, unsigned x, unsigned y, unsigned in_port) -> const State& {
    State& s = memo[(y * g.size_x + x) * ports_per_router + in_port];
    if (s.done) return s;
    if (s.active) throw std::logic_error("board_routes: the routing function has a cycle");
    s.active = true;
    const RouterPlace place = g.place(x, y, board_x, board_y);
    const PortMask ports = board_route_set(place, in_port, mode, dst, g.local_ports, span);
    const PortMask edges = edge_ports(place);
    bool first = true;
    std::vector<unsigned> exits;
    unsigned min_r = 0, max_r = 0;
    bool dead = ports == 0;
    for (unsigned p = 0; p < ports_per_router; ++p) {
      if (!(ports & bit(p))) continue;
      unsigned sub_min = 1, sub_max = 1;
      if (p >= kPortL) {
        exits.push_back(g.local_port(x, y, p - kPortL));
      } else if (edges & bit(p)) {
        exits.push_back(g.edge_port(p, x, y));
      } else {
        const unsigned nx = p == kPortE ? x + 1 : p == kPortW ? x - 1 : x;
        const unsigned ny = p == kPortN ? y + 1 : p == kPortS ? y - 1 : y;
        const State& sub = self(self, nx, ny, opposite(p));
        exits.insert(exits.end(), sub.exits.begin(), sub.exits.end());
        sub_min = 1 + sub.min_r;
        sub_max = 1 + sub.max_r;
        dead = dead || sub.dead_end;
      }
      min_r = first ? sub_min : std::min(min_r, sub_min);
      max_r = first ? sub_max : std::max(max_r, sub_max);
      first = false;
    }
    std::sort(exits.begin(), exits.end());
    exits.erase(std::unique(exits.begin(), exits.end()), exits.end());
    s.exits = std::move(exits);
    s.min_r = min_r;
    s.max_r = max_r;
    s.dead_end = dead;
    s.active = false;
    s.done = true;
    return s;
  };

  unsigned x = 0, y = 0, port = 0;
  g.router_of(entry, x, y, port);
  const State& s = walk(walk, x, y, port);
  BoardRoutes r;
  r.exits = s.exits;
  r.min_routers = s.min_r;
  r.max_routers = s.max_r;
  r.dead_end = s.dead_end;
  return r;
}

}  // namespace hx
