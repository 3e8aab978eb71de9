// routing_function.h: the routing functions of the C++ VC switch (fabric/network_switch.h), on the
// one signature of every switch's routing function (core/routing.h), registered by name.
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
//   dor_dateline   torus routers (2D and 3D): dimension order, the short way round, VC 1 after
//                  the dateline (torus.cpp)
//   torus_adaptive 3D torus routers: minimal adaptive on VCs 2 and up, dor_dateline as escape
//                  (torus.cpp)
//   dim_order      multi-dimensional platforms' NPU routers and switches: dimension order, the
//                  parallel link with the most room, datelines on rings (dim_order.cpp)
//   rail_clos      rail-optimized GPU clusters: within the HB domain over NVLink, else through the
//                  GPU's own NIC into the Clos, the spine of the destination's domain (rail.cpp)
//   dragonfly_minimal, ugal_l
//                  Dragonfly routers: minimal, or UGAL-L's choice of an intermediate group at the
//                  source router; VC + 1 on every global link (dragonfly.cpp)
//   clex_minimal, clex_balanced
//                  CLEX routers: hierarchical minimal, or section II-D's randomised recursion
//                  drawn at the source; VC + 1 on every long-range link (clex.cpp)
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

#include "hx_flit.h"
#include "routing.h"
#include "switch_place.h"

namespace hx {

class NetworkSwitch;

/// An output port and VC; port -1: no output can take the packet now.
struct RouteChoice {
  int port = -1;
  unsigned vc = 0;
};

/// The VC switch's routing function: route(head flit, input, VC, switch) gives an output port and VC.
class RoutingFunction : public Routing<Flit, NetworkSwitch, RouteChoice> {};

using RoutingFactory = std::unique_ptr<RoutingFunction> (*)(const RoutingContext&);
using RegisteredRouting = RegisteredRoutingOf<RoutingFunction, RoutingContext>;

/// Every registered routing function, in registration order.
const std::vector<RegisteredRouting>& routing_functions();

/// The routing function `name`, built for the switch described by `ctx`. Throws
/// std::invalid_argument naming the registered functions if there is none of that name.
std::unique_ptr<RoutingFunction> make_routing(const std::string& name, const RoutingContext& ctx);

}  // namespace hx
