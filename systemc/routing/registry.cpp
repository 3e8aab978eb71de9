// registry.cpp: the routing functions of the C++ VC switch, by name (routing_function.h).
#include <stdexcept>

#include "board_mesh.h"
#include "named_registry.h"
#include "routing_function.h"

namespace hx {

// Factories, one per routing function file.
std::unique_ptr<RoutingFunction> make_updown(const RoutingContext& ctx);
std::unique_ptr<RoutingFunction> make_dor_dateline(const RoutingContext& ctx);
std::unique_ptr<RoutingFunction> make_torus_adaptive(const RoutingContext& ctx);
std::unique_ptr<RoutingFunction> make_dragonfly_minimal(const RoutingContext& ctx);
std::unique_ptr<RoutingFunction> make_ugal_l(const RoutingContext& ctx);
std::unique_ptr<RoutingFunction> make_dim_order(const RoutingContext& ctx);
std::unique_ptr<RoutingFunction> make_rail_clos(const RoutingContext& ctx);
std::unique_ptr<RoutingFunction> make_board_xy(const RoutingContext& ctx);
std::unique_ptr<RoutingFunction> make_clex_minimal(const RoutingContext& ctx);
std::unique_ptr<RoutingFunction> make_clex_balanced(const RoutingContext& ctx);
std::unique_ptr<RoutingFunction> make_board_north_last(const RoutingContext& ctx);
std::unique_ptr<RoutingFunction> make_board_min_adaptive(const RoutingContext& ctx);

const std::vector<RegisteredRouting>& routing_functions() {
  static const std::vector<RegisteredRouting> table = {
      {"updown", "fat trees: down to the terminal, or up to the up port with the most room", &make_updown},
      {"dor_dateline", "torus: dimension order, the short way round, VC 1 after the dateline", &make_dor_dateline},
      {"torus_adaptive",
       "torus: minimal adaptive on VCs 2 and up (the roomiest minimal direction), dor_dateline on VCs 0-1 as escape",
       &make_torus_adaptive},
      {"dragonfly_minimal", "Dragonfly: minimal, VC + 1 on every global link", &make_dragonfly_minimal},
      {"ugal_l", "Dragonfly: UGAL-L at the source router, VC + 1 on every global link", &make_ugal_l},
      {"dim_order", "multi-dimensional platforms: dimension order, the roomiest parallel link, ring datelines",
       &make_dim_order},
      {"rail_clos",
       "rail-optimized clusters: NVLink within the HB domain, else the GPU's own NIC into the Clos (leaf, spine, leaf)",
       &make_rail_clos},
      {"clex_minimal",
       "CLEX: hierarchical, one clique hop to the long-range link's owner per level, VC + 1 per long-range link",
       &make_clex_minimal},
      {"clex_balanced",
       "CLEX: section II-D's recursion, a random owner of the long-range link per level, VC + 1 per long-range link",
       &make_clex_balanced},
      // The board routers' rules, under the names of board_mesh.h's table (and of the RTL's modes).
      {board_routing_info(RouteMode::Xy).name, board_routing_info(RouteMode::Xy).description, &make_board_xy},
      {board_routing_info(RouteMode::NorthLast).name, board_routing_info(RouteMode::NorthLast).description,
       &make_board_north_last},
      {board_routing_info(RouteMode::MinAdaptive).name, board_routing_info(RouteMode::MinAdaptive).description,
       &make_board_min_adaptive},
  };
  return table;
}

std::unique_ptr<RoutingFunction> make_routing(const std::string& name, const RoutingContext& ctx) {
  return find_named(routing_functions(), name, "routing function", [](const RegisteredRouting& r) { return r.name; })
      .make(ctx);
}

}  // namespace hx
