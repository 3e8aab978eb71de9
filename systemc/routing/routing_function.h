// routing_function.h: the routing functions of the C++ VC switch (switch/network_switch.h), one
// signature, registered by name.
//
// A switch knows nothing of the topology it sits in: when the head of a packet reaches the front
// of an input VC, the switch asks its routing function for an output port and VC, and the
// function answers from the head's destination, the switch's place in its topology (the
// RoutingContext it was built with) and what the switch tells it about its outputs (free, room,
// load). "No port now" (port -1) makes the head wait and ask again in a later crossbar round.
//
// Registered functions (routing/registry.cpp; `hxsim list` prints them):
//   updown         fat-tree switches: down to the destination's terminal, or up, adaptively, to
//                  the up port with the most room (tree.cpp)
//   dor_dateline   torus routers: dimension order, the short way round, VC 1 after the dateline
//                  (torus.cpp)
//   dragonfly_minimal, ugal_l
//                  Dragonfly routers: minimal, or UGAL-L's choice of an intermediate group at the
//                  source router; VC + 1 on every global link (dragonfly.cpp)
//   xy, north_last, min_adaptive
//                  board routers (ports N, E, S, W, then the local lanes): the rules of
//                  board_mesh.h, the route modes the RTL router implements in hardware
//                  (rtl/hx_route.sv); the benches check the RTL's routes against the same rules
//                  (board_router.cpp)
//
// Adding a routing function: one file with a class derived from RoutingFunction and a factory,
// and one line in registry.cpp.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "board_geometry.h"
#include "hx_flit.h"

namespace hx {

class NetworkSwitch;
struct DragonflyPlan;

/// Where a packet leaves a tree: its terminal, from the destination in the head's header.
/// Terminal t = ((position * lines) + line) * 2 + side, where position is the destination
/// board's place along the tree (its x in a row tree, its y in a column tree), line the row
/// (column) of the board the packet enters on, and side 0 for the W (S) edge, 1 for the E (N)
/// edge: the edge nearer the destination node, so the packet enters as close to it as it can.
/// A tree of one line per tree takes every packet in on its own line; a tree spanning a whole
/// board row (column) takes it in on the destination node's row (column).
///
/// A fat-tree system's tree (`endpoints`) has one terminal per endpoint: endpoint n is addressed
/// as board (n mod 256, n div 256) in the header's 8-bit board fields. Tori and Dragonflies
/// address endpoints the same way.
struct TreeAddressing {
  static constexpr unsigned kEndpointsPerBoardRow = 256;
  bool endpoints = false;  ///< the terminals are endpoints (a fat-tree system)
  bool rows = true;        ///< a row tree (E/W edges) or a column tree (N/S edges)
  unsigned lines = 1;      ///< lines of accelerators the tree serves
  unsigned board_x = 1, board_y = 1;
  FlitFormat fmt;

  unsigned terminal(const Flit& head) const {
    const Header h = Header::decode(fmt, head.payload);
    if (endpoints) return h.dst_board_y * kEndpointsPerBoardRow + h.dst_board_x;
    const unsigned pos = rows ? h.dst_board_x : h.dst_board_y;
    const unsigned line = lines > 1 ? (rows ? h.dst_node_y : h.dst_node_x) : 0;
    const unsigned along = rows ? h.dst_node_x : h.dst_node_y;
    const unsigned side = 2 * along < (rows ? board_x : board_y) - 1 ? 0 : 1;
    return (pos * lines + line) * 2 + side;
  }
};

/// A switch's place in its topology: what its routing function is built from. Each function
/// reads the fields of its own topology.
struct RoutingContext {
  std::string switch_name;    ///< for error messages
  TreeAddressing addressing;  ///< how a head names its destination
  // updown: the switch's place in its tree (TreeShape names in sim_config.h)
  enum class TreePlace : uint8_t { Single, Leaf, Spine } tree_place = TreePlace::Single;
  unsigned index = 0;  ///< leaf, spine or Dragonfly router number
  unsigned down = 0, up = 0, spines = 0;
  // dragonfly
  DragonflyPlan* plan = nullptr;
  unsigned group = 0;
  uint64_t seed = 1;  ///< UGAL-L's draws
  // dor_dateline: this router and the torus size
  unsigned x = 0, y = 0, size_x = 0, size_y = 0;
  // board routers: the router's place on its board and its local lanes
  RouterPlace place;
  unsigned local_ports = 1;
};

/// An output port and VC; port -1: no output can take the packet now.
struct RouteChoice {
  int port = -1;
  unsigned vc = 0;
};

class RoutingFunction {
 public:
  virtual ~RoutingFunction() = default;
  /// The output for the head at the front of input `in`, VC `vc`, of switch `sw`.
  virtual RouteChoice route(const Flit& head, unsigned in, unsigned vc, const NetworkSwitch& sw) = 0;
  /// Where a waiting head is headed, for deadlock reports ("head for terminal 5"), or "".
  virtual std::string describe_head(const Flit&) const { return ""; }
};

using RoutingFactory = std::unique_ptr<RoutingFunction> (*)(const RoutingContext&);

struct RegisteredRouting {
  std::string name, description;
  RoutingFactory make;
};

/// Every registered routing function, in registration order.
const std::vector<RegisteredRouting>& routing_functions();

/// The routing function `name`, built for the switch described by `ctx`. Throws
/// std::invalid_argument naming the registered functions if there is none of that name.
std::unique_ptr<RoutingFunction> make_routing(const std::string& name, const RoutingContext& ctx);

}  // namespace hx
