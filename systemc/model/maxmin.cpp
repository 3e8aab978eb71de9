// maxmin.cpp: progressive filling (maxmin.h).
#include "maxmin.h"

#include <algorithm>
#include <limits>

namespace hx {

MaxMinResult maxmin_rates(const std::vector<double>& capacity, const std::vector<FlowUse>& flows) {
  const std::size_t C = capacity.size(), F = flows.size();
  MaxMinResult r;
  r.rates.assign(F, 0.0);
  std::vector<double> used(C, 0.0), weight(C, 0.0);
  std::vector<char> active(F, 1), full(C, 0);
  std::size_t left = 0;
  for (std::size_t f = 0; f < F; ++f) {
    if (flows[f].channels.empty()) {
      r.rates[f] = std::numeric_limits<double>::infinity();
      active[f] = 0;
      continue;
    }
    ++left;
    for (const auto& [c, w] : flows[f].channels) weight[c] += w;
  }
  // A channel is full when what is left of it is this small a part of its capacity: the
  // rounding of the repeated additions, not a real residue.
  constexpr double kFull = 1e-12;
  while (left > 0) {
    double step = std::numeric_limits<double>::infinity();
    for (std::size_t c = 0; c < C; ++c) {
      if (full[c] || weight[c] <= 0) continue;
      step = std::min(step, (capacity[c] - used[c]) / weight[c]);
    }
    step = std::max(step, 0.0);
    for (std::size_t c = 0; c < C; ++c) {
      if (full[c] || weight[c] <= 0) continue;
      used[c] += step * weight[c];
      if (capacity[c] - used[c] <= kFull * capacity[c]) full[c] = 1;
    }
    ++r.levels;
    for (std::size_t f = 0; f < F; ++f) {
      if (!active[f]) continue;
      r.rates[f] += step;
      bool frozen = false;
      for (const auto& uc : flows[f].channels) frozen = frozen || full[uc.first];
      if (!frozen) continue;
      active[f] = 0;
      --left;
      for (const auto& [c, w] : flows[f].channels) weight[c] -= w;
    }
  }
  return r;
}

}  // namespace hx
