// llm_workload_config.h: the YAML description of an LLM training workload on a cluster of HB
// domains, for `hxsim model CONFIG` (a config with a top-level `workload:` section; docs/rail.md
// lists every key). It is read by the project's validating reader (config_reader.h): every bad
// input is a ConfigError with file:line:column, key path, expected and found. A parallelization
// given by hand that breaks one of Eq. 11-19 is such an error, naming the equation.
#pragma once

#include <string>
#include <vector>

#include "config_reader.h"
#include "llm_iteration.h"

namespace hx::llm {

/// What the paper reports for the workload (Table 4), for comparison only: the model never
/// reads it.
struct PaperIteration {
  bool has_computed = false;
  double computed_s = 0;  // "Computed Iteration Time from Section 5"
  bool has_measured = false;
  double measured_s = 0;  // "Measured Iteration Time in Korthikanti et al."
};

struct WorkloadConfig {
  std::string source;  // the file path, or the source name given to load_workload_config_text
  std::string name;    // defaults to the file name without directory and extension
  std::string description;
  Workload workload;
  bool has_strategy = false;  // workload.parallelization given: evaluate it; else search
  Strategy strategy;
  unsigned top = 5;  // workload.search.top: strategies reported
  PaperIteration paper;
};

/// True when the file is a YAML map with a top-level `workload` key (an unreadable file is
/// left to the loaders to report).
bool is_workload_config(const std::string& path);

/// Loads `path`, applies the overrides ("key.path=value") and validates. Throws ConfigError.
WorkloadConfig load_workload_config(const std::string& path, const std::vector<std::string>& overrides = {});

/// The same for YAML text; `source_name` stands for the file name in errors and the default name.
WorkloadConfig load_workload_config_text(const std::string& yaml_text, const std::string& source_name,
                                         const std::vector<std::string>& overrides = {});

/// Every key of the workload config, for docs/config-reference.md.
std::vector<KeyInfo> workload_config_keys();

}  // namespace hx::llm
