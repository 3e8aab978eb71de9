// traffic_pattern.h: where the synthetic traffic of the accelerators goes.
//
// The classic network-simulator patterns over the a x b nodes of a board, node n at
// (x, y) = (n mod a, n div a):
//   uniform         any other node, uniformly (with include_self: any node, itself too, as
//                   BookSim's uniform)
//   permutation     a fixed random permutation without fixed points, drawn once from the seed
//   transpose       (x, y) -> (y, x)                       (square boards)
//   bit_complement  n -> ~n over log2(a*b) bits            (a*b a power of two)
//   neighbor        (x, y) -> ((x+1) mod a, y)             (the node to the east, wrapping)
//   hotspot         with probability `fraction` a hotspot node (not the source), else uniform
//   alltoall        the balanced shift of the HammingMesh paper: in round i = 1..p-1 node j
//                   sends `message_packets` packets to (j + i) mod p; then the rounds repeat
// Nodes are numbered over the whole system: a HammingMesh of a x b boards, x x y of them, is a
// (a x) by (b y) grid here.
// A node whose pattern destination is itself (transpose diagonal, 1x1 boards) sends nothing;
// sends_traffic() says which nodes send, so offered load is reported over sending nodes.
#pragma once

#include <cstdint>
#include <vector>

#include "rng.h"
#include "sim_config.h"

namespace hx {

class TrafficPattern {
 public:
  TrafficPattern(Pattern kind, unsigned size_x, unsigned size_y, std::vector<unsigned> hotspot_nodes,
                 double hotspot_fraction, uint64_t seed, unsigned message_packets = 1, bool include_self = false);

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
  unsigned size_x_, size_y_, nodes_;
  std::vector<unsigned> fixed_;  // deterministic patterns: destination per source
  std::vector<unsigned> hot_;
  double hot_fraction_;
  unsigned message_packets_;
  bool include_self_;
};

}  // namespace hx
