// cost_report.h: `hxsim cost` output -- the evaluated topologies of a cost config as a text
// table and as results JSON (docs/cost.md describes both).
#pragma once

#include <string>
#include <vector>

#include "cost_config.h"
#include "nlohmann/json.hpp"
#include "topology_cost.h"

namespace hx::cost {

/// Every topology of the config, evaluated in config order.
std::vector<TopologyCost> evaluate_all(const CostConfig& config);

/// Relative deviation of a computed value from the paper's: computed / paper - 1.
double deviation(double computed, double paper);

/// 1 - cost / the baseline's cost: the saving a design makes over its baseline (Table 2's
/// "Cost Reduction").
double cost_reduction(const TopologyCost& r, const TopologyCost& baseline);

/// A fraction as Table 2 prints it: whole percent, truncated (37.5% is printed 37%).
unsigned printed_percent(double fraction);

/// The results JSON: {"hxsim": {command, config, name}, "cluster", "prices", "topologies": [...]}.
nlohmann::ordered_json cost_json(const CostConfig& config, const std::vector<TopologyCost>& results);

/// The table printed by `hxsim cost`: one row per topology with all planes' switches and cables,
/// M$, diameter and relative bisection, and the paper's cost and diameter where the config
/// gives them.
std::string cost_table(const CostConfig& config, const std::vector<TopologyCost>& results);

}  // namespace hx::cost
