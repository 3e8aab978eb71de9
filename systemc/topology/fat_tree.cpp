// fat_tree.cpp: a fat tree of C++ switches with one endpoint per leaf port: one switch when the
// endpoints fit its radix, else two levels of leaves and spines, tapered by topology.tree.taper.
#include "analytic_diameter.h"
#include "fabric_topology.h"
#include "switch_fabric.h"

namespace hx {

namespace {

class FatTreeTopology : public FabricTopology {
 public:
  const char* kind() const override { return "fat_tree"; }
  const char* description() const override { return "one- or two-level fat tree of C++ switches, with tapering"; }
  bool has_boards() const override { return false; }
  void wire(SwitchFabric& fabric, const SimConfig&, const FabricPorts& ports) const override {
    fabric.connect_endpoints(ports.inject, ports.eject);
  }
  std::string describe(const SimConfig& cfg) const override {
    const TreeShape t = tree_shape(cfg.topology.endpoints, cfg.topology.tree_radix, cfg.topology.tree_taper);
    return "fat tree of " + std::to_string(cfg.topology.endpoints) + " endpoints" +
           (t.leaves == 0 ? std::string(", one switch")
                          : ", " + std::to_string(t.leaves) + " leaves (" + std::to_string(t.down) + " down, " +
                                std::to_string(t.up) + " up) + " + std::to_string(t.spines) + " spines");
  }
  std::string routing_summary(const SimConfig&) const override { return "up/down adaptive"; }
  // 2 cables per level, endpoint cables included.
  int diameter(const SimConfig& cfg) const override {
    cost::FatTreeParams p;
    std::tie(p.leaf_down, p.leaf_up) = leaf_ports(cfg, cfg.topology.endpoints);
    return static_cast<int>(analytic_diameter(cfg, p, cfg.topology.tree_radix));
  }
};

}  // namespace

const FabricTopology& fat_tree_topology() {
  static const FatTreeTopology t;
  return t;
}

}  // namespace hx
