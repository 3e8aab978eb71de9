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
};

}  // namespace

const FabricTopology& board_topology() {
  static const BoardTopology t;
  return t;
}

}  // namespace hx
