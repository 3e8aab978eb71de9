// fat_tree.cpp: a fat tree of C++ switches with one endpoint per leaf port: one switch when the
// endpoints fit its radix, else two levels of leaves and spines, or three (leaves, pods of
// middle switches, tops) when two cannot reach them all; tapered at the leaves by
// topology.tree.taper.
#include "analytic_spec.h"
#include "fabric_topology.h"
#include "tree_builder.h"

namespace hx {

namespace {

class FatTreeTopology : public FabricTopology {
 public:
  const char* kind() const override { return "fat_tree"; }
  const char* description() const override {
    return "fat tree of C++ switches, one to three levels, tapered at the leaves";
  }
  bool has_boards() const override { return false; }
  // Endpoint n on terminal n, its NIC's cable DAC, the cables between switches AoC (the cost
  // model's media).
  NetworkDescription network(const SimConfig& cfg) const override {
    NetworkDescription net;
    const std::vector<PortRef> terminal =
        add_fat_tree(net, cfg, "tree", cfg.topology.endpoints, endpoint_addressing(cfg), 0, true);
    for (unsigned n = 0; n < cfg.topology.endpoints; ++n) {
      NodeDescription e;
      e.kind = NodeDescription::Kind::Endpoint;
      e.name = "node" + std::to_string(n);
      e.endpoint = e.board = n;
      net.add_link({net.add_node(std::move(e)), 0}, terminal[n], cable_latency(cfg), cable_rate(cfg), "global",
                   Medium::Dac);
    }
    return net;
  }
  std::string describe(const SimConfig& cfg) const override {
    const TreeShape t = config_tree_shape(cfg, cfg.topology.endpoints, true);
    std::string s = "fat tree of " + std::to_string(cfg.topology.endpoints) + " endpoints";
    if (t.levels() == 1) return s + ", one switch";
    s += ", " + std::to_string(t.leaves) + " leaves (" + std::to_string(t.down) + " down, " + std::to_string(t.up) +
         " up) + ";
    if (t.levels() == 3) s += std::to_string(t.middle_total) + " middle switches + ";
    return s + std::to_string(t.spines) + (t.levels() == 3 ? " tops" : " spines");
  }
  std::string routing_summary(const SimConfig&) const override { return "up/down adaptive"; }
  // Its diameter: 2 cables per level, endpoint cables included.
  std::optional<cost::TopologySpec> analytic_spec(const SimConfig& cfg) const override {
    cost::FatTreeParams p;
    std::tie(p.leaf_down, p.leaf_up) = leaf_ports(cfg, cfg.topology.endpoints);
    p.spine_per_up_port = cfg.topology.tree_spine_per_up_port;
    return analytic_spec_of(cfg, p, cfg.topology.tree_radix);
  }

  Size size(const SimConfig& c) const override { return {c.topology.endpoints, 1, 0}; }
  std::vector<std::string> routing_names() const override { return {"updown"}; }
  void check(const ConfigReader& reader, SimConfig& c) const override {
    forbid(reader, {"topology.board", "topology.global", "topology.dragonfly", "topology.clex", "topology.sides",
                    "topology.pitch"});
    require(reader, "topology.endpoints", "an integer in 2..65536");
    check_tree(reader, c, c.topology.endpoints, true);
  }
  void topology_values(const SimConfig& c, std::vector<std::pair<std::string, std::string>>& v) const override {
    v.emplace_back("topology.planes", std::to_string(c.topology.planes));
    v.emplace_back("topology.endpoints", std::to_string(c.topology.endpoints));
    tree_values(c, v);
  }
  void derivations(const SimConfig& c, std::vector<std::string>& d) const override {
    d.push_back(tree_derivation("the", 1, c.topology.endpoints, c, true));
  }
};

}  // namespace

const FabricTopology& fat_tree_topology() {
  static const FatTreeTopology t;
  return t;
}

}  // namespace hx
