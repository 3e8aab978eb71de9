// llm_report.h: `hxsim model` on a workload config -- the iteration time of the given
// parallelization, or the best strategies of the search, as results JSON and as the stdout
// summary (docs/rail.md; every field in docs/results-reference.md).
#pragma once

#include <string>

#include "llm_workload_config.h"
#include "nlohmann/json.hpp"

namespace hx::llm {

/// Raised when the search finds no strategy that satisfies Eq. 11-19 (hxsim exits 1).
class NoValidStrategy : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// The results of a workload config: {"hxsim", "backend", "workload", "iteration", "paper"?}.
/// Throws NoValidStrategy when a search finds nothing.
nlohmann::ordered_json workload_results(const WorkloadConfig& config);

/// The stdout summary of workload_results' document.
std::string workload_summary(const nlohmann::ordered_json& j);

}  // namespace hx::llm
