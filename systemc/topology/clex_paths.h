// clex_paths.h: routes on a CLEX graph (clex_graph.h) as node paths, the two routing schemes of
// issue 21, and their virtual-channel needs. The cycle model's routing functions
// (routing/clex.cpp) follow the same rules hop by hop; the tests compare them with BFS.
//
// clex_minimal (hierarchical): at the highest level l where the current node and the
// destination differ (digit l-1), make one clique hop to the node of the current clique whose
// d_0 names the destination's level-(l-1) copy (unless it is already there), cross its level-l
// link, and go on one level down; at level 1, one clique hop. At most 2(L-1) + 1 hops. It is not
// shortest-path routing: crossing lands on the node whose d_0 is the source copy's digit, which
// the next level may have to change again, where BFS may find a route through another copy.
//
// clex_balanced (section II-D's recursion A_l, as section III runs it): at a level l whose digit
// differs, the long-range link is drawn uniformly among all k^{l-2} nodes of the current
// level-(l-1) copy that own a link into the target copy (d_0 = target digit, digits 1..l-2
// random); the route reaches that node recursively (A_{l-1}), crosses, and continues recursively.
// The destination of every call is thus spread over the copy, which spreads adversarial
// patterns like Valiant's trick, at the price of 2^{L-1} - 1 long-range hops at most.
//
// Deadlock freedom (docs/clex.md): a packet starts on VC 0 and takes its i-th long-range link on
// VC i; clique hops keep the VC. Within one VC a packet makes at most one clique hop before its
// next long-range link (both schemes make one direct clique hop per level-1 call), so the channel
// dependency graph only goes clique(v) -> long(v+1) -> clique(v+1) and is acyclic. VCs needed:
// 1 + the most long-range links on a path: L for clex_minimal, 2^{L-1} for clex_balanced. A
// clique relay (two clique hops, the round model's A_1 indirection) would add clique -> clique
// dependencies inside a VC; it needs its own class, doubling the count (relay_vcs()).
#pragma once

#include <cstdint>
#include <vector>

#include "clex_graph.h"
#include "rng.h"

namespace hx::clex {

enum class Scheme { Minimal, Balanced };

/// The node path from s to d (s first, d last; just {s} when s == d).
std::vector<Node> minimal_path(const ClexGraph& g, Node s, Node d);
/// One draw of the balanced recursion's path; the same generator state gives the same path.
std::vector<Node> balanced_path(const ClexGraph& g, Node s, Node d, Rng& rng);

/// The next hop of clex_minimal from `at` towards `d` (at != d): a stateless rule, what a switch
/// applies to each head.
Node minimal_next(const ClexGraph& g, Node at, Node d);

/// Long-range links on a path (its hops of level >= 2).
unsigned long_range_hops(const ClexGraph& g, const std::vector<Node>& path);
/// VCs the scheme needs for deadlock freedom by the increment-per-long-range-link rule.
unsigned vcs_needed(Scheme s, unsigned levels);
/// The same with a separate relay class for two-hop clique indirection.
inline unsigned relay_vcs(Scheme s, unsigned levels) { return 2 * vcs_needed(s, levels); }

/// Hop distances from s to every node (BFS).
std::vector<uint32_t> bfs_distances(const ClexGraph& g, Node s);

/// How clex_minimal compares with shortest paths over the given sources (all destinations each).
struct MinimalVsShortest {
  uint64_t pairs = 0, shortest = 0;  // pairs with s != d; of them, where minimal is a shortest path
  double mean_minimal_hops = 0, mean_shortest_hops = 0, mean_extra_hops = 0;
  uint32_t max_extra_hops = 0, diameter = 0;  // diameter: the largest BFS distance seen
  double shortest_fraction() const { return pairs ? static_cast<double>(shortest) / pairs : 0; }
};
MinimalVsShortest compare_minimal(const ClexGraph& g, const std::vector<Node>& sources);

}  // namespace hx::clex
