// switch_place.h: a switch's place in its topology, as its builder describes it
// (network_description.h) and as its routing function (routing/routing_function.h) reads it:
// how a head names its destination (TreeAddressing) and where the switch sits (RoutingContext).
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "board_geometry.h"
#include "hx_flit.h"
#include "router_straps.h"

namespace hx {

struct DragonflyPlan;
struct ClexPlan;
struct DimLayout;
struct TreeRoutes;

/// Where a packet leaves a tree: its terminal, from the destination in the head's header.
/// Terminal t = ((position * lines) + line) * 2 + side, where position is the destination
/// board's place along the tree (its x in a row tree, its y in a column tree), line the row
/// (column) of the board the packet enters on, and side 0 for the W (S) edge, 1 for the E (N)
/// edge: the edge nearer the destination node, so the packet enters as close to it as it can.
/// A tree of one line per tree takes every packet in on its own line; a tree spanning a whole
/// board row (column) takes it in on the destination node's row (column).
///
/// A board one accelerator wide along the tree (a HyperX's 1x1 boards) has no nearer edge: both
/// cables lead to the one accelerator (one_wide()). Its terminal names a side, the one the packet
/// comes from along the tree's ring of `positions` boards: a source at most half way round behind
/// the destination (at a lower position, or wrapping round) is addressed to the W (S) cable, any
/// other to the E (N) cable. The tree's last switch takes whichever of the two cables has more
/// room, the addressed one on a tie (routing/tree.cpp): so the two directions of a ring of boards,
/// as the bidirectional ring and the Hamiltonian cycles send, each have a cable into every board
/// while the tree is idle (always side 1, as before 2026-11-27, put both into one cable and halved
/// an allreduce on the HyperX), and a shift of the all-to-all, whose packets all come from the
/// same side, still uses both (a fixed side halved it: docs/table2.md). With two boards, both
/// neighbours are the same board and every packet is addressed to the W (S) cable.
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
  unsigned positions = 1;  ///< boards along the tree (a row tree's global_x, a column tree's global_y)
  FlitFormat fmt;

  /// Boards one accelerator wide along the tree: two terminals (t and t ^ 1) lead to one router.
  bool one_wide() const { return !endpoints && (rows ? board_x : board_y) == 1; }

  unsigned terminal(const Flit& head) const {
    const Header h = Header::decode(fmt, head.payload);
    if (endpoints) return h.dst_board_y * kEndpointsPerBoardRow + h.dst_board_x;
    const unsigned pos = rows ? h.dst_board_x : h.dst_board_y;
    const unsigned line = lines > 1 ? (rows ? h.dst_node_y : h.dst_node_x) : 0;
    const unsigned along = rows ? h.dst_node_x : h.dst_node_y, width = rows ? board_x : board_y;
    unsigned side = 2 * along < width - 1 ? 0 : 1;
    if (width == 1) {
      const unsigned behind = (pos + positions - (rows ? h.src_board_x : h.src_board_y)) % positions;
      side = 2 * behind <= positions ? 0 : 1;
    }
    return (pos * lines + line) * 2 + side;
  }
};

/// A switch's place in its topology: what its routing function is built from. Each function
/// reads the fields of its own topology.
struct RoutingContext {
  std::string switch_name;    ///< for error messages
  TreeAddressing addressing;  ///< how a head names its destination
  // updown: the switch's place in its tree (TreeShape names in sim_config.h); a spine is the top
  // level, a middle switch the level between leaves and tops of a three-level tree
  enum class TreePlace : uint8_t { Single, Leaf, Middle, Spine } tree_place = TreePlace::Single;
  unsigned index = 0;     ///< leaf, pod (of a middle switch), spine or Dragonfly router number
  unsigned down = 0;      ///< updown: terminals per leaf (terminal t is on leaf t / down)
  unsigned up_first = 0;  ///< updown: this switch's up ports are up_first .. up_first + up - 1
  unsigned up = 0;
  unsigned tree_leaves = 0;  ///< updown: leaves of the tree
  /// updown: per destination leaf, the down ports towards it and the up ports that reach it, over
  /// the working links (topology/tree_routes.h). Set for every switch of a tree of several.
  std::shared_ptr<const TreeRoutes> tree_routes;
  // dragonfly
  DragonflyPlan* plan = nullptr;
  unsigned group = 0;
  uint64_t seed = 1;  ///< UGAL-L's draws
  // clex_minimal, clex_balanced: the graph and the drawn routes (clex_plan.h); this router is
  // node `index`
  ClexPlan* clex = nullptr;
  // dor_dateline: this router and the torus size (z and size_z on a 3D torus)
  unsigned x = 0, y = 0, size_x = 0, size_y = 0;
  unsigned z = 0, size_z = 1;
  // dim_order: the platform's port numbering (dim_layout.h); an NPU router's NPU is `index`, a
  // switch's dimension `dim_switch` (-1: an NPU router)
  std::shared_ptr<const DimLayout> dims;
  int dim_switch = -1;
  // board routers: the router's place on its board, its local lanes and where the trees beyond
  // its edge ports deliver (the span_board_i strap)
  RouterPlace place;
  unsigned local_ports = 1;
  TreeSpan span = TreeSpan::Line;
};

}  // namespace hx
