// torus.cpp: a 2D torus of the accelerators' own routers (C++ switches with five ports), boards
// of a x b accelerators tiled x x y: links within a board are PCB traces, the others cables.
#include "analytic_diameter.h"
#include "fabric_topology.h"
#include "switch_fabric.h"

namespace hx {

namespace {

class TorusTopology : public FabricTopology {
 public:
  const char* kind() const override { return "torus"; }
  const char* description() const override { return "2D torus of boards' routers, switchless"; }
  bool has_boards() const override { return false; }
  void wire(SwitchFabric& fabric, const SimConfig&, const FabricPorts& ports) const override {
    fabric.connect_torus(ports.inject, ports.eject);
  }
  std::string describe(const SimConfig& cfg) const override {
    return std::to_string(cfg.system_x()) + "x" + std::to_string(cfg.system_y()) + " torus of " +
           std::to_string(cfg.topology.board_x) + "x" + std::to_string(cfg.topology.board_y) +
           " boards, dimension-order routing with datelines";
  }
  std::string routing_summary(const SimConfig&) const override { return "dimension order with datelines"; }
  // Router hops; the routers are the accelerators'.
  int diameter(const SimConfig& cfg) const override {
    cost::TorusParams p;
    p.a = cfg.topology.board_x;
    p.b = cfg.topology.board_y;
    p.x = cfg.topology.global_x;
    p.y = cfg.topology.global_y;
    return static_cast<int>(analytic_diameter(cfg, p, 64));  // switchless: the radix does not enter
  }
  unsigned links_per_plane() const override { return 4; }
};

}  // namespace

const FabricTopology& torus_topology() {
  static const TorusTopology t;
  return t;
}

}  // namespace hx
