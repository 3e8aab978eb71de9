// registry.cpp: the fabric model's topology builders, by kind (fabric_topology.h).
#include <stdexcept>

#include "fabric_topology.h"
#include "named_registry.h"

namespace hx {

// One accessor per builder file.
const FabricTopology& board_topology();
const FabricTopology& hammingmesh_topology();
const FabricTopology& fat_tree_topology();
const FabricTopology& torus_topology();
const FabricTopology& dragonfly_topology();

const std::vector<const FabricTopology*>& fabric_topologies() {
  static const std::vector<const FabricTopology*> table = {
      &board_topology(), &hammingmesh_topology(), &fat_tree_topology(), &torus_topology(), &dragonfly_topology(),
  };
  return table;
}

int FabricTopology::diameter(const SimConfig& cfg) const {
  const std::optional<cost::TopologySpec> spec = analytic_spec(cfg);
  return spec ? static_cast<int>(cost::evaluate(*spec, cost::Prices{}).diameter) : -1;
}

const FabricTopology& fabric_topology(const std::string& kind) {
  return *find_named(fabric_topologies(), kind, "fabric topology", [](const FabricTopology* t) { return t->kind(); });
}

}  // namespace hx
