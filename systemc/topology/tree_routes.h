// tree_routes.h: the up/down routes of the fat trees' switches as tables, computed from a netlist.
//
// A tree's switch sends a packet down when the destination's leaf lies below it, else up. Which
// down ports lead to a leaf and which up ports can still reach it depend on the wiring (a top of a
// three-level tree need not reach a short last pod; TreeShape) and on failed links
// (topology/faults.h). route_trees() works both out once, from the links of the netlist that
// work, and gives every switch of a tree its table (RoutingContext::tree_routes), which the
// up/down routing function (routing/tree.cpp) reads per head.
#pragma once

#include <cstdint>
#include <vector>

#include "network_description.h"

namespace hx {

/// One switch's table, per destination leaf d of its tree (its index, terminal / down).
struct TreeRoutes {
  unsigned words = 1;                ///< 64-bit words of up-port bits per leaf
  std::vector<uint64_t> up_bits;     ///< [d * words + j / 64] bit j % 64: up port up_first + j reaches d
  std::vector<uint32_t> down_first;  ///< d's down ports: down_ports[down_first[d] .. down_first[d + 1])
  std::vector<uint16_t> down_ports;  ///< ascending per leaf

  bool up_reaches(unsigned d, unsigned j) const {
    const std::size_t w = std::size_t{d} * words + j / 64;
    return w < up_bits.size() && (up_bits[w] >> (j % 64) & 1) != 0;
  }
  unsigned down_count(unsigned d) const { return d + 1 < down_first.size() ? down_first[d + 1] - down_first[d] : 0; }
  unsigned down_port(unsigned d, unsigned k) const { return down_ports[down_first[d] + k]; }
};

/// A switch of a fat tree of several switches (routing "updown", not a single-switch tree).
bool is_tree_switch(const NodeDescription& n);

/// Gives every switch of a tree of several switches (routing "updown", not a single switch) its
/// table, over the links not marked failed. Throws FaultError ("faults") when two leaves of a tree
/// have no path left between them, naming them.
void route_trees(NetworkDescription& net);

}  // namespace hx
