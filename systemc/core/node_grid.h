// node_grid.h: where a system's endpoints sit on a grid of coordinates, for the coordinate-based
// traffic patterns (transpose, bit_reversal, tornado, neighbor, bit_complement:
// endpoint/traffic_pattern.h).
//
// A grid has two or three axes with extents (X, Y) or (X, Y, Z). Every grid point holds exactly
// one endpoint: point (x, y, z) has the grid number x + X (y + Y z), and the grid is the
// bijection between endpoint numbers and grid numbers. A topology builder says where its
// endpoints are (FabricTopology::node_grid): a board or HammingMesh numbers its accelerators
// row by row over the (a x) by (b y) grid, so endpoint n has grid number n (the patterns then
// mean what they meant before grids existed); a 3D torus places endpoint x + X (y + Y z) at its
// coordinates (x, y, z), again the identity; a CLEX places each node where its cube-in-cube layout
// puts it (clex_graph.h), so the numbers differ and a coordinate pattern means the same on a CLEX
// as on the torus of the same extents.
#pragma once

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace hx {

class NodeGrid {
 public:
  using Coords = std::array<unsigned, 3>;

  /// The row-by-row 2D grid of x by y endpoints: endpoint n at (n mod x, n div x).
  NodeGrid(unsigned x, unsigned y) : extents_{x, y} {
    index_.resize(std::size_t{x} * y);
    for (unsigned n = 0; n < index_.size(); ++n) index_[n] = n;
    node_ = index_;
  }
  /// A grid of 2 or 3 `extents` on which endpoint n has grid number `index[n]`; throws
  /// std::invalid_argument unless that is a bijection onto 0 .. product of the extents - 1.
  NodeGrid(std::vector<unsigned> extents, std::vector<unsigned> index)
      : extents_(std::move(extents)), index_(std::move(index)) {
    if (extents_.size() < 2 || extents_.size() > 3) throw std::invalid_argument("a node grid has 2 or 3 axes");
    std::size_t points = 1;
    for (unsigned e : extents_) points *= e;
    if (points != index_.size())
      throw std::invalid_argument("a node grid of " + text() + " points holds " + std::to_string(index_.size()) +
                                  " endpoints");
    node_.assign(points, UINT32_MAX);
    for (unsigned n = 0; n < index_.size(); ++n) {
      if (index_[n] >= points || node_[index_[n]] != UINT32_MAX)
        throw std::invalid_argument("a node grid must hold one endpoint per point");
      node_[index_[n]] = n;
    }
  }

  /// The axes' extents: (X, Y) or (X, Y, Z).
  const std::vector<unsigned>& extents() const { return extents_; }
  unsigned axes() const { return static_cast<unsigned>(extents_.size()); }
  unsigned nodes() const { return static_cast<unsigned>(index_.size()); }
  /// Endpoint n's grid number x + X (y + Y z).
  unsigned index(unsigned n) const { return index_[n]; }
  /// The endpoint at grid number i.
  unsigned node(unsigned i) const { return node_[i]; }
  /// The coordinates of grid number i (z = 0 on a 2D grid).
  Coords coords_of_index(unsigned i) const {
    Coords c{0, 0, 0};
    for (unsigned a = 0; a < axes(); ++a) {
      c[a] = i % extents_[a];
      i /= extents_[a];
    }
    return c;
  }
  /// The grid number of coordinates c.
  unsigned index_of(const Coords& c) const {
    unsigned i = 0;
    for (unsigned a = axes(); a-- > 0;) i = i * extents_[a] + c[a];
    return i;
  }
  Coords coords(unsigned n) const { return coords_of_index(index_[n]); }
  /// "4x4x4"
  std::string text() const { return text(extents_); }
  static std::string text(const std::vector<unsigned>& extents) {
    std::string s;
    for (unsigned e : extents) s += (s.empty() ? "" : "x") + std::to_string(e);
    return s;
  }

 private:
  std::vector<unsigned> extents_;
  std::vector<unsigned> index_;  // endpoint -> grid number
  std::vector<unsigned> node_;   // grid number -> endpoint
};

/// The coordinate maps of the traffic patterns (endpoint/traffic_pattern.h), on grid numbers.
enum class GridMap : uint8_t {
  Transpose,      ///< the coordinates reversed: (x, y) -> (y, x), (x, y, z) -> (z, y, x)
  BitComplement,  ///< g -> N - 1 - g, the complement of g's log2(N) bits
  BitReversal,    ///< g -> g's log2(N) bits in reverse order
  Tornado,        ///< each coordinate + ceil(k/2) - 1 mod its axis's extent k (Dally and Towles)
  Neighbor,       ///< x -> x + 1 mod X, the other coordinates kept
};

/// ceil(k/2) - 1: how far tornado moves a coordinate on an axis of extent k (0 for k <= 2).
inline unsigned tornado_offset(unsigned k) { return k == 0 ? 0 : (k + 1) / 2 - 1; }

inline bool is_power_of_two(uint64_t n) { return n > 0 && (n & (n - 1)) == 0; }

/// Why map m does not fit a grid of these extents, or "" if it does: transpose needs equal
/// extents on the axes it swaps, bit_complement and bit_reversal a power-of-two node count.
inline std::string grid_misfit(GridMap m, const std::vector<unsigned>& extents) {
  uint64_t n = 1;
  for (unsigned e : extents) n *= e;
  const std::string grid = NodeGrid::text(extents);
  switch (m) {
    case GridMap::Transpose:
      for (std::size_t a = 0; a < extents.size() / 2; ++a)
        if (extents[a] != extents[extents.size() - 1 - a])
          return extents.size() == 2 ? "transpose maps (x, y) to (y, x), so it needs equal extents along x and y; the "
                                       "node grid is " +
                                           grid
                                     : "transpose maps (x, y, z) to (z, y, x), so it needs equal extents along x and "
                                       "z; the node grid is " +
                                           grid;
      return "";
    case GridMap::BitComplement:
    case GridMap::BitReversal:
      if (!is_power_of_two(n))
        return std::string(m == GridMap::BitComplement ? "bit_complement" : "bit_reversal") +
               " needs a power-of-two node count; the node grid " + grid + " has " + std::to_string(n) + " nodes";
      return "";
    case GridMap::Tornado:
    case GridMap::Neighbor: return "";
  }
  return "";
}

/// The grid number map m sends grid number g to (the grid must fit: grid_misfit).
inline unsigned grid_destination(GridMap m, const NodeGrid& grid, unsigned g) {
  const unsigned n = grid.nodes();
  NodeGrid::Coords c = grid.coords_of_index(g);
  const auto& e = grid.extents();
  switch (m) {
    case GridMap::Transpose: {
      NodeGrid::Coords t{0, 0, 0};
      for (unsigned a = 0; a < grid.axes(); ++a) t[a] = c[grid.axes() - 1 - a];
      return grid.index_of(t);
    }
    case GridMap::BitComplement: return n - 1 - g;
    case GridMap::BitReversal: {
      unsigned r = 0;
      for (unsigned bit = 1; bit < n; bit <<= 1) r = (r << 1) | ((g & bit) ? 1u : 0u);
      return r;
    }
    case GridMap::Tornado:
      for (unsigned a = 0; a < grid.axes(); ++a) c[a] = (c[a] + tornado_offset(e[a])) % e[a];
      return grid.index_of(c);
    case GridMap::Neighbor: c[0] = (c[0] + 1) % e[0]; return grid.index_of(c);
  }
  return g;
}

}  // namespace hx
