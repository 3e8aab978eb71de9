// clex_graph.h: the CLEX (clique-expander) graph of Lenzen and Wattenhofer, section II-B, in its
// single-link form, as a pure C++ value: no SystemC, no config. docs/clex.md gives the
// reconstruction of the construction from the paper's text, which lost its symbols.
//
// k^L nodes, each labelled by L base-k digits d_{L-1} ... d_0 (node number = sum d_i k^i).
//   - Level 1: the k nodes that differ only in d_0 form a clique (k - 1 links each).
//   - Level l >= 2: the single-link variant. The paper's full graph gives node (i, v) of copy i
//     of C_{l-1} k edges into the copy named by v's d_0; the remark after Definition II.3 replaces
//     them by one link of k times the capacity to one of their endpoints, such that every node
//     also gets exactly one incoming link. We take the endpoint whose label has digits l-1 and 0
//     swapped: the map is an involution, so each link is one bidirectional cable. A node with
//     d_{l-1} = d_0 would link to itself (the paper's redundant edge into its own copy): that link
//     is omitted, so such a node has no level-l link.
// Degrees: (k - 1) + #{l in 2..L : d_{l-1} != d_0}, between k - 1 (every digit equal to d_0) and
// k + L - 2. Between two level-(l-1) copies of one level-l copy run exactly k^{l-2} level-l links,
// so every level is balanced (Fig. 2's condition).
//
// Placement (section II-B, "cube in cube"): each level packs its k copies into a box of
// kx x ky x kz sub-boxes (k's most cubic factorisation, its axes rotated from level to level so
// that the whole stays near-cubic); nodes sit on a grid of pitch p, and a link's physical length
// is the Euclidean distance of its ends.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace hx::clex {

/// Node number of a k^L CLEX: at most 2^32 - 1 nodes.
using Node = uint32_t;

/// k^L, or 0 if it does not fit in 32 bits (what a config checks before building anything).
uint64_t node_count(unsigned k, unsigned levels);

/// How many bytes the graph of this size costs to hold (coordinates); a config refuses sizes
/// whose memory is known to be too large before any allocation.
uint64_t graph_bytes(unsigned k, unsigned levels);

/// Bytes the round-based model (model/clex_rounds.h) holds for these parameters (8 per message: position and
/// destination, plus the step-1 copies of one level-(l-1) copy at a time, 12 per message of it), known before it
/// allocates: what a config is checked against.
uint64_t round_model_bytes(unsigned k, unsigned levels, unsigned messages_per_node);

struct Point {
  double x = 0, y = 0, z = 0;
};

class ClexGraph {
 public:
  /// Throws std::invalid_argument for k < 2, L < 1 or k^L beyond 2^32 - 1.
  ClexGraph(unsigned k, unsigned levels, double pitch_m = 1.0);

  unsigned k() const { return k_; }
  unsigned levels() const { return levels_; }
  Node nodes() const { return nodes_; }
  double pitch_m() const { return pitch_m_; }

  /// Digit d_i of the label (i in 0..L-1).
  unsigned digit(Node n, unsigned i) const { return (n / pow_[i]) % k_; }
  /// The node with digit i replaced by v.
  Node with_digit(Node n, unsigned i, unsigned v) const { return n - digit(n, i) * pow_[i] + v * pow_[i]; }
  /// k^i.
  uint64_t power(unsigned i) const { return pow_[i]; }
  /// "3.0.1.2": the digits d_{L-1} ... d_0.
  std::string label(Node n) const;

  /// The level of the copy two nodes share, minimal: 0 for the same node, 1 within a clique, l
  /// when they first differ in digit l-1 (their level-(l-1) copies differ).
  unsigned split_level(Node a, Node b) const;

  /// Node n's level-l link (l >= 2): digits l-1 and 0 swapped; n itself when they are equal (the
  /// omitted self link).
  Node partner(Node n, unsigned level) const;
  bool has_partner(Node n, unsigned level) const { return digit(n, level - 1) != digit(n, 0); }
  /// The level of the link a--b: 1 for a clique link, l for a long-range one, 0 if none.
  unsigned link_level(Node a, Node b) const;

  /// Links of node n: k - 1 clique links plus its long-range ones.
  unsigned degree(Node n) const;
  /// Bidirectional links of a level: k^{L-1} k (k-1) / 2 on level 1, k^{L-1} (k-1) / 2 on each
  /// level >= 2 (the k^L (k-1)/k nodes with a partner, two per link).
  uint64_t link_count(unsigned level) const;
  uint64_t link_count() const;
  /// Every neighbour of n, clique first, then levels 2..L.
  std::vector<Node> neighbours(Node n) const;

  /// The node's place in the cube-in-cube layout, in metres.
  Point position(Node n) const;
  /// Grid coordinates (in pitches) of the layout, and the layout's extent per axis.
  std::array<uint32_t, 3> grid(Node n) const;
  std::array<uint32_t, 3> extent() const { return extent_; }
  /// Physical length of the cable a--b: the Euclidean distance of the ends, in metres.
  double length_m(Node a, Node b) const;
  /// The longest cable of a level, in metres (the two copies' farthest owners of a link).
  double max_length_m(unsigned level) const;
  /// The average cable length of a level, in metres, over all its links (exact, not sampled).
  double mean_length_m(unsigned level) const;

 private:
  unsigned k_, levels_;
  Node nodes_;
  double pitch_m_;
  std::vector<uint64_t> pow_;
  // Per level (digit), the sub-box shape its k copies form, and the stride of one step on each
  // axis (in pitches): the extent of the lower levels' box along that axis.
  std::vector<std::array<uint32_t, 3>> shape_, stride_;
  std::array<uint32_t, 3> extent_{1, 1, 1};
};

/// The most cubic factorisation a <= b <= c of k (a b c = k, largest a, then largest b).
std::array<uint32_t, 3> cubic_factors(unsigned k);

}  // namespace hx::clex

namespace hx::clex {

/// Per-level link capacities, index 1..L (index 0 unused), in whatever unit the caller's clique
/// link has (bits per second, messages per round).
using LevelCapacities = std::vector<double>;

/// The plain form of section II-B: a level-l link (l >= 2) is the k parallel edges of the full
/// graph merged, so it carries k times a clique link.
LevelCapacities plain_capacities(unsigned k, unsigned levels, double clique_link);

/// Section III-A: a node's total bandwidth split over the levels in proportion to the average
/// hops a message makes on each (hops[1..L]), then evenly over the node's links of that level
/// (k - 1 clique links; one long-range link per level). A node without a level-l link (d_{l-1} =
/// d_0) leaves that share unused; the capacity is per link, so its neighbours are not affected.
LevelCapacities hop_weighted_capacities(unsigned k, unsigned levels, double node_total,
                                        const std::vector<double>& hops);

/// Expected hops per level (index 1..L) of clex_balanced on uniform traffic (destination u.i.r.
/// over all nodes, itself included): a level-l call splits when its ends differ in digit l-1
/// (probability (k-1)/k) into two level-(l-1) calls and one level-l hop, else makes one
/// level-(l-1) call; a level-1 call makes one hop unless its ends coincide. So calls c_L = 1,
/// c_{l-1} = c_l (1 + (k-1)/k), and hops h_l = c_l (k-1)/k. This is the paper's weighting
/// (avg. hops of Tables I-II) for the path routing, without the round model's relays.
std::vector<double> balanced_hops(unsigned k, unsigned levels);

}  // namespace hx::clex
