#include "traffic_pattern.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>

namespace hx {

TrafficPattern::TrafficPattern(Pattern kind, const NodeGrid& grid, std::vector<unsigned> hotspot_nodes,
                               double hotspot_fraction, uint64_t seed, unsigned message_packets, bool include_self)
    : kind_(kind),
      nodes_(grid.nodes()),
      hot_(std::move(hotspot_nodes)),
      hot_fraction_(hotspot_fraction),
      message_packets_(std::max(message_packets, 1u)),
      include_self_(include_self) {
  fixed_.resize(nodes_);
  std::iota(fixed_.begin(), fixed_.end(), 0u);
  if (kind_ == Pattern::Permutation) {
    // Sattolo's algorithm: a uniformly random cyclic permutation, so no node maps to itself.
    Rng rng(seed ^ 0x7065726d75746174ull);
    for (unsigned i = nodes_; i > 1; --i) {
      const unsigned j = rng.below(i - 1);
      std::swap(fixed_[i - 1], fixed_[j]);
    }
  } else if (const std::optional<GridMap> m = pattern_grid_map(kind_)) {
    // Endpoint -> its grid number -> the pattern's grid number -> the endpoint there.
    const std::string misfit = grid_misfit(*m, grid.extents());
    if (!misfit.empty()) throw std::invalid_argument(misfit);
    for (unsigned n = 0; n < nodes_; ++n) fixed_[n] = grid.node(grid_destination(*m, grid, grid.index(n)));
  }
}

bool TrafficPattern::sends_traffic(unsigned src) const {
  if (nodes_ < 2) return false;
  if (kind_ == Pattern::Uniform || kind_ == Pattern::Hotspot || kind_ == Pattern::AllToAll) return true;
  return fixed_[src] != src;
}

unsigned TrafficPattern::hotspot(unsigned src, Rng& rng) const {
  if (rng.chance(hot_fraction_)) {
    // A hotspot node other than the source (if the source is the only hotspot: uniform).
    const bool src_hot = std::find(hot_.begin(), hot_.end(), src) != hot_.end();
    const unsigned choices = static_cast<unsigned>(hot_.size()) - (src_hot ? 1u : 0u);
    if (choices > 0) {
      unsigned k = rng.below(choices);
      for (unsigned h : hot_) {
        if (h == src) continue;
        if (k-- == 0) return h;
      }
    }
  }
  return uniform_other(src, rng);
}

}  // namespace hx
