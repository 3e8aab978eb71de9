// clex_plan.h: what the routers of a cycle-level CLEX share (clex.cpp builds it, routing/clex.cpp
// reads it): the graph, the router port of every link, and clex_balanced's drawn routes, kept per
// packet from its source router to its destination (the recursion's draws are made once, at the
// source, as clex_paths.h's balanced_path).
//
// Router ports: 0 the node's own accelerator; 1 .. k-1 the clique links, in the order of the
// neighbour's d_0 (its own skipped); k + l - 2 the level-l link (l = 2..L), unconnected when the
// node has none (d_{l-1} = d_0).
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "clex_graph.h"

namespace hx {

struct ClexPlan {
  explicit ClexPlan(clex::ClexGraph g) : graph(std::move(g)) {}
  clex::ClexGraph graph;
  struct Route {
    std::vector<clex::Node> path;
    std::size_t at = 0;  // index of the router the head is at
  };
  std::unordered_map<uint32_t, Route> balanced;  // by packet id

  unsigned ports() const { return graph.k() + graph.levels() - 1; }
  /// The port of node n towards neighbour m (a link of graph.link_level(n, m) >= 1).
  unsigned port_to(clex::Node n, clex::Node m) const {
    const unsigned l = graph.link_level(n, m);
    if (l >= 2) return graph.k() + l - 2;
    const unsigned own = graph.digit(n, 0), v = graph.digit(m, 0);
    return 1 + (v < own ? v : v - 1);
  }
};

}  // namespace hx
