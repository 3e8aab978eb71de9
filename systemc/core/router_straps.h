// router_straps.h: the router's mode straps as C++ enums, shared by the benches (tb/), the
// config loader and the simulator (systemc/). The codes equal the RTL's (rtl/hx_pkg.sv), so a
// value drives route_mode_i / vc_policy_i directly.
#pragma once

#include <cstdint>

namespace hx {

/// The route_mode_i strap: the routing function of the board routers.
enum class RouteMode : uint8_t {
  Xy = 0,           ///< dimension order, x first: deterministic, for validation
  NorthLast = 1,    ///< minimal adaptive under the north-last turn rule: deadlock-free
  MinAdaptive = 2,  ///< minimal adaptive without a turn rule: deadlock-prone, for experiments
};

/// The vc_policy_i strap.
enum class VcPolicy : uint8_t {
  Keep = 0,  ///< a packet keeps its VC on a board, VC+1 when it leaves the board
  Any = 1,   ///< a head may take any free output VC (plain mesh)
};

}  // namespace hx
