// dragonfly.cpp: a Dragonfly (dragonfly_plan.h): groups of a routers with p endpoints and h
// global links each, every group linked to every other; minimal or UGAL-L routing.
#include "analytic_diameter.h"
#include "fabric_topology.h"
#include "switch_fabric.h"

namespace hx {

namespace {

class DragonflyTopology : public FabricTopology {
 public:
  const char* kind() const override { return "dragonfly"; }
  const char* description() const override { return "groups of a routers with p endpoints and h global links"; }
  bool has_boards() const override { return false; }
  void wire(SwitchFabric& fabric, const SimConfig&, const FabricPorts& ports) const override {
    fabric.connect_dragonfly(ports.inject, ports.eject);
  }
  std::string describe(const SimConfig& cfg) const override {
    const SimConfig::Dragonfly& d = cfg.topology.dragonfly;
    return "Dragonfly a=" + std::to_string(d.a) + " p=" + std::to_string(d.p) + " h=" + std::to_string(d.h) + ", " +
           std::to_string(d.groups) + " groups, " + (d.ugal ? "UGAL-L" : "minimal") + " routing";
  }
  std::string routing_summary(const SimConfig& cfg) const override {
    return cfg.topology.dragonfly.ugal ? "UGAL-L" : "minimal";
  }
  // The minimal routes' diameter (UGAL-L's non-minimal ones are longer).
  int diameter(const SimConfig& cfg) const override {
    const SimConfig::Dragonfly& d = cfg.topology.dragonfly;
    cost::DragonflyParams p;
    p.a = d.a;
    p.p = d.p;
    p.h = d.h;
    p.groups = d.groups;
    // One virtual router per switch, as in the cycle model: the smallest even radix that holds
    // one router (the cost model prices switches of even radix).
    return static_cast<int>(analytic_diameter(cfg, p, (d.p + d.a - 1 + d.h + 1) / 2 * 2));
  }
};

}  // namespace

const FabricTopology& dragonfly_topology() {
  static const DragonflyTopology t;
  return t;
}

}  // namespace hx
