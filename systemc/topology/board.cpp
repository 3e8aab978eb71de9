// board.cpp: one board of a x b RTL routers on its own, its edge ports tied off: a plain mesh
// (the classic setup for cross-checking against other network simulators).
#include "fabric_topology.h"

namespace hx {

namespace {

class BoardTopology : public FabricTopology {
 public:
  const char* kind() const override { return "board"; }
  const char* description() const override { return "one a x b board of RTL routers, edges tied off (a mesh)"; }
  bool has_boards() const override { return true; }
  bool has_fabric() const override { return false; }
  std::string describe(const SimConfig& cfg) const override {
    return std::to_string(cfg.topology.board_x) + "x" + std::to_string(cfg.topology.board_y) + " board";
  }
  std::string routing_summary(const SimConfig& cfg) const override { return route_mode_name(cfg.router.routing); }

  Size size(const SimConfig& c) const override { return {c.topology.board_x, c.topology.board_y, 1}; }
  std::vector<std::string> routing_names() const override { return board_routing_names(); }
  std::string default_routing() const override { return "north_last"; }
  void check(const ConfigReader& reader, SimConfig& c) const override {
    c.router.routing = route_mode_of(c.routing.algorithm);
    require(reader, "topology.board", kBoardExpected);
    forbid(reader, {"topology.endpoints", "topology.dragonfly", "topology.global", "topology.tree", "topology.clex",
                    "topology.sides", "topology.pitch", "links.global", "switch"});
  }
  void topology_values(const SimConfig& c, std::vector<std::pair<std::string, std::string>>& v) const override {
    v.emplace_back("topology.board", size_text(c.topology.board_x, c.topology.board_y));
    v.emplace_back("topology.planes", std::to_string(c.topology.planes));
  }
};

}  // namespace

const FabricTopology& board_topology() {
  static const BoardTopology t;
  return t;
}

}  // namespace hx
