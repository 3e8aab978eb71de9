// cost_config.h: the YAML description of a cost comparison (`hxsim cost CONFIG`), loaded and
// validated into topology descriptions for the cost model (topology_cost.h).
//
// A cost config names a cluster size, the switch radix, the accelerator's network ports and the
// equipment prices, and lists named topologies with their parameters (docs/cost.md has every
// key). It is read by the project's validating reader (systemc/config/config_reader.h), so every
// bad input is a ConfigError with file:line:column, key path, expected and found; unknown keys
// are errors, in the topology list too. A CostConfig returned by a load function evaluates
// without error: the loader runs the model once on every topology.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "config_reader.h"
#include "topology_cost.h"

namespace hx::cost {

/// What the source paper reports for a design point (Table II), for comparison only: the model
/// never reads it.
struct PaperReference {
  bool has_cost = false;
  double cost_musd = 0;
  bool has_diameter = false;
  unsigned diameter = 0;
  // Wang et al., Table 2: switches (#SW), transceivers (#TR) and the cost reduction against the
  // topology's baseline, as printed (whole percent).
  bool has_switches = false;
  uint64_t switches = 0;
  bool has_transceivers = false;
  uint64_t transceivers = 0;
  bool has_cost_reduction = false;
  unsigned cost_reduction_percent = 0;

  bool any() const { return has_cost || has_diameter || has_switches || has_transceivers || has_cost_reduction; }
};

struct CostConfig {
  std::string source;  // the file path, or the source name given to load_cost_config_text
  std::string name;    // defaults to the file name without directory and extension
  std::string description;

  uint64_t endpoints = 0;        // cluster.endpoints: the size asked for
  unsigned radix = 64;           // cluster.radix: switch ports, the default of every topology
  unsigned endpoint_ports = 16;  // cluster.endpoint_ports: network ports of one accelerator
  Prices prices;

  struct Entry {
    TopologySpec spec;
    PaperReference paper;
    std::string kind_text;  // as written: "hyperx" for a HammingMesh with 1x1 boards
    int baseline = -1;      // `baseline`: the earlier topology this one's cost reduction is against
  };
  std::vector<Entry> topologies;
};

/// Loads `path`, applies the overrides ("key.path=value", as for `hxsim run --set`) and
/// validates. Throws ConfigError.
CostConfig load_cost_config(const std::string& path, const std::vector<std::string>& overrides = {});

/// The same for YAML text; `source_name` stands for the file name in errors and the default name.
CostConfig load_cost_config_text(const std::string& yaml_text, const std::string& source_name,
                                 const std::vector<std::string>& overrides = {});

/// The key paths a cost config may hold, for documentation checks: "cluster.endpoints",
/// "topologies[].leaf_down", ...
std::vector<std::string> cost_config_keys();

}  // namespace hx::cost
