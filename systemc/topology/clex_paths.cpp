// clex_paths.cpp: clex_minimal and clex_balanced as node paths, BFS (clex_paths.h).
#include "clex_paths.h"

#include <algorithm>
#include <limits>

namespace hx::clex {

Node minimal_next(const ClexGraph& g, Node at, Node d) {
  const unsigned l = g.split_level(at, d);
  if (l <= 1) return d;
  const unsigned want = g.digit(d, l - 1);
  if (g.digit(at, 0) != want) return g.with_digit(at, 0, want);
  return g.partner(at, l);  // digit l-1 differs from d's = want = d_0, so the link exists
}

std::vector<Node> minimal_path(const ClexGraph& g, Node s, Node d) {
  std::vector<Node> path{s};
  while (path.back() != d) path.push_back(minimal_next(g, path.back(), d));
  return path;
}

namespace {

void balanced_rec(const ClexGraph& g, Node at, Node d, Rng& rng, std::vector<Node>& path) {
  const unsigned l = g.split_level(at, d);
  if (l == 0) return;
  if (l == 1) {
    path.push_back(d);
    return;
  }
  // Among the k^{l-2} owners of a link into the target copy: d_0 is the target digit, digits
  // 1..l-2 are drawn, the digits from l-1 up stay the current copy's.
  Node w = g.with_digit(at, 0, g.digit(d, l - 1));
  for (unsigned i = 1; i + 1 < l; ++i) w = g.with_digit(w, i, rng.below(g.k()));
  balanced_rec(g, at, w, rng, path);
  const Node over = g.partner(w, l);
  path.push_back(over);
  balanced_rec(g, over, d, rng, path);
}

}  // namespace

std::vector<Node> balanced_path(const ClexGraph& g, Node s, Node d, Rng& rng) {
  std::vector<Node> path{s};
  balanced_rec(g, s, d, rng, path);
  return path;
}

unsigned long_range_hops(const ClexGraph& g, const std::vector<Node>& path) {
  unsigned n = 0;
  for (std::size_t i = 1; i < path.size(); ++i) n += g.link_level(path[i - 1], path[i]) >= 2;
  return n;
}

unsigned vcs_needed(Scheme s, unsigned levels) {
  // Most long-range hops on a path, plus the starting VC: minimal crosses each level once;
  // balanced's N(l) = 2 N(l-1) + 1, N(1) = 0, is 2^{l-1} - 1.
  return s == Scheme::Minimal ? levels : (1u << (levels - 1));
}

std::vector<uint32_t> bfs_distances(const ClexGraph& g, Node s) {
  std::vector<uint32_t> dist(g.nodes(), std::numeric_limits<uint32_t>::max());
  std::vector<Node> frontier{s}, next;
  dist[s] = 0;
  for (uint32_t d = 1; !frontier.empty(); ++d) {
    next.clear();
    for (Node u : frontier)
      for (Node v : g.neighbours(u))
        if (dist[v] == std::numeric_limits<uint32_t>::max()) {
          dist[v] = d;
          next.push_back(v);
        }
    frontier.swap(next);
  }
  return dist;
}

MinimalVsShortest compare_minimal(const ClexGraph& g, const std::vector<Node>& sources) {
  MinimalVsShortest r;
  double sum_min = 0, sum_bfs = 0;
  for (Node s : sources) {
    const std::vector<uint32_t> dist = bfs_distances(g, s);
    for (Node d = 0; d < g.nodes(); ++d) {
      if (d == s) continue;
      const uint32_t hops = static_cast<uint32_t>(minimal_path(g, s, d).size() - 1);
      ++r.pairs;
      r.shortest += hops == dist[d];
      sum_min += hops;
      sum_bfs += dist[d];
      r.max_extra_hops = std::max(r.max_extra_hops, hops - dist[d]);
      r.diameter = std::max(r.diameter, dist[d]);
    }
  }
  if (r.pairs) {
    r.mean_minimal_hops = sum_min / r.pairs;
    r.mean_shortest_hops = sum_bfs / r.pairs;
    r.mean_extra_hops = (sum_min - sum_bfs) / r.pairs;
  }
  return r;
}

}  // namespace hx::clex
