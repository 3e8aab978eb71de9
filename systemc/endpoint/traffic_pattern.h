// traffic_pattern.h: where the synthetic traffic of the accelerators goes.
//
// The classic network-simulator patterns. The coordinate-based ones work on the system's node
// grid (core/node_grid.h, given by its topology builder): 2 or 3 axes of extents X, Y (, Z), each
// endpoint at coordinates (x, y (, z)) with grid number g = x + X (y + Y z). On a board, a
// HammingMesh (a x boards by b y: a (a x) by (b y) grid), a 2D torus and every system that is one
// row of endpoints, endpoint n is grid number n at (n mod X, n div X); a 3D torus has its (x, y, z);
// a CLEX its cube-in-cube place (docs/clex.md).
//   uniform         any other node, uniformly (with include_self: any node, itself too, as
//                   BookSim's uniform)
//   permutation     a fixed random permutation without fixed points, drawn once from the seed
//   transpose       the coordinates reversed: (x, y) -> (y, x), (x, y, z) -> (z, y, x)
//                   (equal extents on the swapped axes)
//   bit_complement  g -> ~g over log2(N) bits              (N a power of two)
//   bit_reversal    g -> g's log2(N) bits in reverse order (N a power of two)
//   tornado         every coordinate moved ceil(k/2) - 1 along its axis of extent k, wrapping
//                   (Dally and Towles): (x, y) -> (x + 3, y + 3) on 8 x 8; an axis of extent 1
//                   or 2 stays
//   neighbor        x -> (x + 1) mod X, the other coordinates kept (the node to the east, wrapping)
//   hotspot         with probability `fraction` a hotspot node (not the source), else uniform
//   alltoall        the balanced shift of the HammingMesh paper: in round i = 1..p-1 node j
//                   sends `message_packets` packets to (j + i) mod p; then the rounds repeat
// uniform, permutation, hotspot and alltoall work on endpoint numbers.
// A node whose pattern destination is itself (transpose diagonal, a palindrome's bit reversal,
// 1x1 boards) sends nothing; sends_traffic() says which nodes send, so offered load is reported
// over sending nodes.
#pragma once

#include <cstdint>
#include <vector>

#include "node_grid.h"
#include "rng.h"
#include "sim_config.h"

namespace hx {

class TrafficPattern {
 public:
  /// Throws std::invalid_argument for a pattern the grid cannot take (the config check,
  /// check_pattern_fits, reports it first with the key).
  TrafficPattern(Pattern kind, const NodeGrid& grid, std::vector<unsigned> hotspot_nodes, double hotspot_fraction,
                 uint64_t seed, unsigned message_packets = 1, bool include_self = false);
  /// On the row-by-row 2D grid of size_x by size_y nodes.
  TrafficPattern(Pattern kind, unsigned size_x, unsigned size_y, std::vector<unsigned> hotspot_nodes,
                 double hotspot_fraction, uint64_t seed, unsigned message_packets = 1, bool include_self = false)
      : TrafficPattern(kind, NodeGrid(size_x, size_y), std::move(hotspot_nodes), hotspot_fraction, seed,
                       message_packets, include_self) {}

  /// Destination of packet number `seq` (0, 1, ...) from `src`; the random patterns draw from
  /// the source's rng.
  unsigned destination(unsigned src, Rng& rng, uint64_t seq = 0) const {
    switch (kind_) {
      case Pattern::Uniform: return include_self_ ? rng.below(nodes_) : uniform_other(src, rng);
      case Pattern::Hotspot: return hotspot(src, rng);
      case Pattern::AllToAll: {
        const uint64_t round = (seq / message_packets_) % (nodes_ - 1) + 1;
        return static_cast<unsigned>((src + round) % nodes_);
      }
      default: return fixed_[src];
    }
  }

  bool sends_traffic(unsigned src) const;

  /// The expected value of cost(src, dst) over the destinations `src` draws (for analytical
  /// estimates such as the zero-load latency). src must send traffic.
  template <class F>
  double expected(unsigned src, F cost) const {
    auto uniform_mean = [&] {
      double sum = 0;
      for (unsigned d = 0; d < nodes_; ++d) {
        if (d != src) sum += cost(src, d);
      }
      return sum / (nodes_ - 1);
    };
    switch (kind_) {
      case Pattern::Uniform:
        if (include_self_) {
          double sum = 0;
          for (unsigned d = 0; d < nodes_; ++d) sum += cost(src, d);
          return sum / nodes_;
        }
        return uniform_mean();
      case Pattern::AllToAll:  // every other node, equally often
        return uniform_mean();
      case Pattern::Hotspot: {
        double hot_sum = 0;
        unsigned hot_n = 0;
        for (unsigned h : hot_) {
          if (h != src) {
            hot_sum += cost(src, h);
            ++hot_n;
          }
        }
        if (hot_n == 0) return uniform_mean();
        return hot_fraction_ * hot_sum / hot_n + (1 - hot_fraction_) * uniform_mean();
      }
      default: return cost(src, fixed_[src]);
    }
  }
  unsigned num_nodes() const { return nodes_; }
  Pattern kind() const { return kind_; }

 private:
  unsigned uniform_other(unsigned src, Rng& rng) const {
    if (nodes_ < 2) return src;
    unsigned d = rng.below(nodes_ - 1);
    return d >= src ? d + 1 : d;
  }
  unsigned hotspot(unsigned src, Rng& rng) const;

  Pattern kind_;
  unsigned nodes_;
  std::vector<unsigned> fixed_;  // deterministic patterns: destination per source
  std::vector<unsigned> hot_;
  double hot_fraction_;
  unsigned message_packets_;
  bool include_self_;
};

}  // namespace hx
