// clex_graph.cpp: labels, links and the cube-in-cube layout of a CLEX graph (clex_graph.h).
#include "clex_graph.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

namespace hx::clex {

uint64_t node_count(unsigned k, unsigned levels) {
  if (k < 2 || levels < 1) return 0;
  uint64_t n = 1;
  for (unsigned i = 0; i < levels; ++i) {
    n *= k;
    if (n > std::numeric_limits<Node>::max()) return 0;
  }
  return n;
}

uint64_t graph_bytes(unsigned k, unsigned levels) {
  // The graph itself is implicit (links follow from labels); what a run holds per node is its
  // coordinates and, in the round model, its messages (counted there).
  const uint64_t n = node_count(k, levels);
  return n * 3 * sizeof(uint32_t);
}

uint64_t round_model_bytes(unsigned k, unsigned levels, unsigned messages_per_node) {
  if (node_count(k, levels) == 0) return UINT64_MAX;
  const uint64_t n = node_count(k, levels) * messages_per_node;
  uint64_t copies = 0;  // the step-1 copies of the calls in progress, one per level
  for (unsigned l = levels; l >= 2; --l) copies += n / node_count(k, levels - l + 1) * 12;
  return n * 8 + copies;
}

std::array<uint32_t, 3> cubic_factors(unsigned k) {
  std::array<uint32_t, 3> best{1, 1, k};
  for (uint32_t a = 1; a * a * a <= k; ++a) {
    if (k % a) continue;
    const uint32_t rest = k / a;
    for (uint32_t b = a; b * b <= rest; ++b) {
      if (rest % b) continue;
      const uint32_t c = rest / b;
      // The largest smallest side, then the largest middle one: the most cube-like box.
      if (a > best[0] || (a == best[0] && b > best[1])) best = {a, b, c};
    }
  }
  return best;
}

ClexGraph::ClexGraph(unsigned k, unsigned levels, double pitch_m) : k_(k), levels_(levels), pitch_m_(pitch_m) {
  if (k < 2) throw std::invalid_argument("CLEX: k (clique size) must be at least 2, found " + std::to_string(k));
  if (levels < 1) throw std::invalid_argument("CLEX: L (levels) must be at least 1, found " + std::to_string(levels));
  const uint64_t n = node_count(k, levels);
  if (n == 0)
    throw std::invalid_argument("CLEX: k^L must fit in 32 bits; " + std::to_string(k) + "^" + std::to_string(levels) +
                                " does not");
  nodes_ = static_cast<Node>(n);
  pow_.resize(levels + 1);
  pow_[0] = 1;
  for (unsigned i = 1; i <= levels; ++i) pow_[i] = pow_[i - 1] * k;
  // Cube in cube: digit i's k values fill a box of the factors, rotated by i so that the
  // factors' long axes take turns and the whole layout stays near-cubic.
  const std::array<uint32_t, 3> f = cubic_factors(k);
  shape_.resize(levels);
  stride_.resize(levels);
  for (unsigned i = 0; i < levels; ++i) {
    for (unsigned a = 0; a < 3; ++a) {
      shape_[i][a] = f[(a + i) % 3];
      stride_[i][a] = extent_[a];
    }
    for (unsigned a = 0; a < 3; ++a) extent_[a] *= shape_[i][a];
  }
}

std::string ClexGraph::label(Node n) const {
  std::string s;
  for (unsigned i = levels_; i-- > 0;) s += std::to_string(digit(n, i)) + (i ? "." : "");
  return s;
}

unsigned ClexGraph::split_level(Node a, Node b) const {
  for (unsigned i = levels_; i-- > 0;)
    if (digit(a, i) != digit(b, i)) return i + 1;
  return 0;
}

Node ClexGraph::partner(Node n, unsigned level) const {
  const unsigned hi = digit(n, level - 1), lo = digit(n, 0);
  return with_digit(with_digit(n, level - 1, lo), 0, hi);
}

unsigned ClexGraph::link_level(Node a, Node b) const {
  const unsigned l = split_level(a, b);
  if (l == 0) return 0;
  if (l == 1) return 1;
  return (has_partner(a, l) && partner(a, l) == b) ? l : 0;
}

unsigned ClexGraph::degree(Node n) const {
  unsigned d = k_ - 1;
  for (unsigned l = 2; l <= levels_; ++l) d += has_partner(n, l);
  return d;
}

uint64_t ClexGraph::link_count(unsigned level) const {
  const uint64_t cliques = nodes_ / k_;
  if (level == 1) return cliques * k_ * (k_ - 1) / 2;
  return cliques * (k_ - 1) / 2;  // k^{L-1} (k-1) / 2: even, since k is even or k - 1 is
}

uint64_t ClexGraph::link_count() const {
  uint64_t sum = 0;
  for (unsigned l = 1; l <= levels_; ++l) sum += link_count(l);
  return sum;
}

std::vector<Node> ClexGraph::neighbours(Node n) const {
  std::vector<Node> v;
  v.reserve(k_ - 1 + levels_);
  for (unsigned d = 0; d < k_; ++d)
    if (d != digit(n, 0)) v.push_back(with_digit(n, 0, d));
  for (unsigned l = 2; l <= levels_; ++l)
    if (has_partner(n, l)) v.push_back(partner(n, l));
  return v;
}

std::array<uint32_t, 3> ClexGraph::grid(Node n) const {
  std::array<uint32_t, 3> g{0, 0, 0};
  for (unsigned i = 0; i < levels_; ++i) {
    const uint32_t v = digit(n, i);
    const uint32_t sub[3] = {v % shape_[i][0], (v / shape_[i][0]) % shape_[i][1], v / (shape_[i][0] * shape_[i][1])};
    for (unsigned a = 0; a < 3; ++a) g[a] += sub[a] * stride_[i][a];
  }
  return g;
}

Point ClexGraph::position(Node n) const {
  const auto g = grid(n);
  return {g[0] * pitch_m_, g[1] * pitch_m_, g[2] * pitch_m_};
}

double ClexGraph::length_m(Node a, Node b) const {
  const Point p = position(a), q = position(b);
  return std::sqrt((p.x - q.x) * (p.x - q.x) + (p.y - q.y) * (p.y - q.y) + (p.z - q.z) * (p.z - q.z));
}

// A level's links all look alike up to translation: a clique's layout is the same in every
// clique, and a level-l link's length depends only on the two digits it swaps (positions add
// per digit). So the k x k digit pairs give every length of the level exactly.
double ClexGraph::max_length_m(unsigned level) const {
  double m = 0;
  const unsigned hi = level == 1 ? 0 : level - 1;
  for (unsigned a = 0; a < k_; ++a)
    for (unsigned b = 0; b < k_; ++b) {
      if (a == b) continue;
      const Node n = level == 1 ? with_digit(0, 0, a) : with_digit(with_digit(0, hi, a), 0, b);
      const Node p = level == 1 ? with_digit(0, 0, b) : partner(n, level);
      m = std::max(m, length_m(n, p));
    }
  return m;
}

double ClexGraph::mean_length_m(unsigned level) const {
  double sum = 0;
  unsigned count = 0;
  const unsigned hi = level == 1 ? 0 : level - 1;
  for (unsigned a = 0; a < k_; ++a)
    for (unsigned b = 0; b < k_; ++b) {
      if (a == b) continue;
      const Node n = level == 1 ? with_digit(0, 0, a) : with_digit(with_digit(0, hi, a), 0, b);
      const Node p = level == 1 ? with_digit(0, 0, b) : partner(n, level);
      sum += length_m(n, p);
      ++count;
    }
  return count ? sum / count : 0;
}

LevelCapacities plain_capacities(unsigned k, unsigned levels, double clique_link) {
  LevelCapacities c(levels + 1, 0.0);
  c[1] = clique_link;
  for (unsigned l = 2; l <= levels; ++l) c[l] = k * clique_link;
  return c;
}

LevelCapacities hop_weighted_capacities(unsigned k, unsigned levels, double node_total,
                                        const std::vector<double>& hops) {
  if (hops.size() != levels + 1) throw std::invalid_argument("hop_weighted_capacities: one hop count per level");
  double sum = 0;
  for (unsigned l = 1; l <= levels; ++l) sum += hops[l];
  if (!(sum > 0)) throw std::invalid_argument("hop_weighted_capacities: the hops must not all be zero");
  LevelCapacities c(levels + 1, 0.0);
  for (unsigned l = 1; l <= levels; ++l) {
    const double share = node_total * hops[l] / sum;
    c[l] = l == 1 ? share / (k - 1) : share;
  }
  return c;
}

std::vector<double> balanced_hops(unsigned k, unsigned levels) {
  const double p = static_cast<double>(k - 1) / k;
  std::vector<double> h(levels + 1, 0.0);
  double calls = 1;
  for (unsigned l = levels; l >= 1; --l) {
    h[l] = calls * p;
    calls *= 1 + p;
  }
  return h;
}

}  // namespace hx::clex
