#include "dragonfly_plan.h"

#include <stdexcept>

namespace hx {

DragonflyPlan::DragonflyPlan(unsigned a_, unsigned p_, unsigned h_, unsigned groups_, bool ugal_)
    : a(a_), p(p_), h(h_), groups(groups_), ugal(ugal_) {
  if (groups < 2 || groups > a * h + 1) throw std::invalid_argument("DragonflyPlan: groups out of range");
  exits.assign(groups, std::vector<std::vector<std::pair<unsigned, unsigned>>>(groups));
  link.assign(static_cast<std::size_t>(groups) * a * h, End{});
  auto connect = [this](unsigned g1, unsigned r1, unsigned j1, unsigned g2, unsigned r2, unsigned j2) {
    link[(g1 * a + r1) * h + j1] = {g2, r2, global_port(j2)};
    link[(g2 * a + r2) * h + j2] = {g1, r1, global_port(j1)};
    exits[g1][g2].push_back({r1, global_port(j1)});
    exits[g2][g1].push_back({r2, global_port(j2)});
  };
  std::vector<std::vector<unsigned>> free(groups);  // per group: free ports r * h + j, in order
  if (h >= groups - 1) {
    // Every router gets one link to every other group: its port j < groups - 1 goes to group
    // g + 1 + j, arriving at the same router's port groups - 2 - j (a symmetric pairing).
    for (unsigned g = 0; g < groups; ++g) {
      for (unsigned r = 0; r < a; ++r) {
        for (unsigned j = 0; j < groups - 1; ++j) {
          const unsigned g2 = (g + 1 + j) % groups;
          if (g < g2) connect(g, r, j, g2, r, groups - 2 - j);
        }
        for (unsigned j = groups - 1; j < h; ++j) free[g].push_back(r * h + j);
      }
    }
  } else {
    for (unsigned g = 0; g < groups; ++g) {
      for (unsigned k = 0; k < a * h; ++k) free[g].push_back(k);
    }
  }
  // The remaining ports: one link per group pair and round, while both have a free port.
  std::vector<std::size_t> next(groups, 0);
  bool linked = true;
  while (linked) {
    linked = false;
    for (unsigned g1 = 0; g1 < groups; ++g1) {
      for (unsigned g2 = g1 + 1; g2 < groups; ++g2) {
        if (next[g1] == free[g1].size() || next[g2] == free[g2].size()) continue;
        const unsigned k1 = free[g1][next[g1]++], k2 = free[g2][next[g2]++];
        connect(g1, k1 / h, k1 % h, g2, k2 / h, k2 % h);
        linked = true;
      }
    }
  }
  for (unsigned g1 = 0; g1 < groups; ++g1) {
    for (unsigned g2 = 0; g2 < groups; ++g2) {
      if (g1 != g2 && exits[g1][g2].empty()) throw std::invalid_argument("DragonflyPlan: groups not all linked");
    }
  }
}

}  // namespace hx
