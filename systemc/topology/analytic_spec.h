// analytic_spec.h: a config's topology as the analytical model (analytic/topology_cost.h, the
// one `hxsim cost` evaluates) describes it, for the builders' analytic_spec(): the cycle model
// checks its longest path against that model's diameter, and its netlist's equipment against
// that model's counts.
#pragma once

#include <utility>

#include "sim_config.h"
#include "topology_cost.h"

namespace hx {

template <class Params>
cost::TopologySpec analytic_spec_of(const SimConfig& cfg, const Params& params, unsigned radix) {
  cost::TopologySpec spec;
  spec.name = cfg.name;
  spec.radix = radix;
  spec.target_endpoints = cfg.node_count();
  spec.planes = cfg.topology.planes;
  spec.params = params;
  return spec;
}

/// The leaf ports of a two-level tree of `ports` ports, or {0, 0} for one switch (the analytical
/// model's "nonblocking / single switch").
inline std::pair<unsigned, unsigned> leaf_ports(const SimConfig& cfg, unsigned ports) {
  const TreeShape shape = tree_shape(ports, cfg.topology.tree_radix, cfg.topology.tree_taper);
  return shape.leaves > 0 ? std::pair{shape.down, shape.up} : std::pair{0u, 0u};
}

}  // namespace hx
