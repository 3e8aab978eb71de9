// hammingmesh.cpp: a HammingMesh (Hoefler et al., SC22): x x y boards of a x b accelerators, each
// row and each column of boards joined by fat trees (one per accelerator line, or one per board
// row or column: topology.tree.span), in one or more independent planes. HyperX is the HxMesh of
// 1x1 boards.
#include "analytic_diameter.h"
#include "fabric_topology.h"
#include "switch_fabric.h"

namespace hx {

namespace {

class HammingMeshTopology : public FabricTopology {
 public:
  const char* kind() const override { return "hammingmesh"; }
  const char* description() const override {
    return "x x y boards joined by row and column fat trees (HyperX: 1x1 boards)";
  }
  bool has_boards() const override { return true; }
  void wire(SwitchFabric& fabric, const SimConfig&, const FabricPorts& ports) const override {
    const std::size_t planes = ports.planes.size();
    for (std::size_t p = 0; p < planes; ++p) {
      fabric.connect_boards(ports.planes[p], planes > 1 ? "plane" + std::to_string(p) + "_" : "");
    }
  }
  std::string describe(const SimConfig& cfg) const override {
    const auto& t = cfg.topology;
    return std::to_string(t.global_x) + "x" + std::to_string(t.global_y) + " Hx" + std::to_string(t.board_x) + "x" +
           std::to_string(t.board_y) + "Mesh" +
           (t.planes > 1 ? ", " + std::to_string(t.planes) + " planes (rates per port)" : std::string());
  }
  std::string routing_summary(const SimConfig& cfg) const override {
    return route_mode_name(cfg.router.routing) + " on the boards, up/down adaptive in the fat trees";
  }
  // Section III-B's 2 (floor((a-1)/2) + floor((b-1)/2)) plus 2 (levels + 1) cables per tree.
  int diameter(const SimConfig& cfg) const override {
    cost::HxMeshParams p;
    p.a = cfg.topology.board_x;
    p.b = cfg.topology.board_y;
    p.x = cfg.topology.global_x;
    p.y = cfg.topology.global_y;
    p.span = cfg.topology.tree_span == TreeSpan::Line ? cost::TreeSpan::Line : cost::TreeSpan::Board;
    std::tie(p.tree_down, p.tree_up) = leaf_ports(cfg, std::max(tree_ports(cfg, true), tree_ports(cfg, false)));
    return static_cast<int>(analytic_diameter(cfg, p, cfg.topology.tree_radix));
  }
  unsigned links_per_plane() const override { return 4; }
  void add_config(nlohmann::ordered_json& j, const SimConfig& cfg) const override {
    j["boards"] = cfg.board_count();
    j["planes"] = cfg.topology.planes;
    j["tree_span"] = tree_span_name(cfg.topology.tree_span);
  }
};

}  // namespace

const FabricTopology& hammingmesh_topology() {
  static const HammingMeshTopology t;
  return t;
}

}  // namespace hx
