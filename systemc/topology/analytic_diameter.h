// analytic_diameter.h: the diameter the analytical model (analytic/topology_cost.h, the one
// `hxsim cost` uses) gives for a config's parameters, for the builders' diameter().
#pragma once

#include <utility>

#include "sim_config.h"
#include "topology_cost.h"

namespace hx {

template <class Params>
unsigned analytic_diameter(const SimConfig& cfg, const Params& params, unsigned radix) {
  cost::TopologySpec spec;
  spec.radix = radix;
  spec.target_endpoints = cfg.node_count();
  spec.params = params;
  return cost::evaluate(spec, cost::Prices{}).diameter;
}

/// The leaf ports of a two-level tree of `ports` ports, or {0, 0} for one switch (the analytical
/// model's "nonblocking / single switch").
inline std::pair<unsigned, unsigned> leaf_ports(const SimConfig& cfg, unsigned ports) {
  const TreeShape shape = tree_shape(ports, cfg.topology.tree_radix, cfg.topology.tree_taper);
  return shape.leaves > 0 ? std::pair{shape.down, shape.up} : std::pair{0u, 0u};
}

}  // namespace hx
