// router_straps.h: the router's mode straps as C++ enums, shared by the benches (tb/), the
// config loader and the simulator (systemc/). The codes equal the RTL's (rtl/hx_pkg.sv; the
// one bit of span_board_i), so a value drives route_mode_i / span_board_i / vc_policy_i directly.
#pragma once

#include <cstdint>

namespace hx {

/// The route_mode_i strap: the routing function of the board routers.
enum class RouteMode : uint8_t {
  Xy = 0,           ///< dimension order, x first: deterministic, for validation
  NorthLast = 1,    ///< minimal adaptive under the north-last turn rule: deadlock-free
  MinAdaptive = 2,  ///< minimal adaptive without a turn rule: deadlock-prone, for experiments
};

/// How many row/column lines of accelerators one fat tree of a HammingMesh serves: one tree per
/// line (the paper's large cluster) or one per row/column of boards (its small cluster). It is
/// the routers' span_board_i strap (rtl/hx_route.sv): a tree of span line delivers a packet on
/// the line it left from, one of span board on the destination's line, so with Board the routers
/// do not move a packet toward the destination's line before it enters the tree. A system
/// without trees (a plain board or mesh) drives Line.
enum class TreeSpan : uint8_t { Line = 0, Board = 1 };

/// The vc_policy_i strap.
enum class VcPolicy : uint8_t {
  Keep = 0,  ///< a packet keeps its VC on a board, VC+1 when it leaves the board
  Any = 1,   ///< a head may take any free output VC (plain mesh)
};

}  // namespace hx
