// torus.cpp: a 2D torus of the accelerators' own routers (C++ switches with five ports), boards
// of a x b accelerators tiled x x y: links within a board are PCB traces, the others cables.
#include "analytic_spec.h"
#include "fabric_topology.h"
#include "tree_builder.h"

namespace hx {

namespace {

class TorusTopology : public FabricTopology {
 public:
  const char* kind() const override { return "torus"; }
  const char* description() const override { return "2D torus of boards' routers, switchless"; }
  bool has_boards() const override { return false; }
  // Router n serves accelerator n through its port 0; ports N, E, S, W go to the neighbours,
  // the short way round. A link that leaves a board is a cable (links.global, AoC as the cost
  // model prices it), one within a board a PCB trace (links.local).
  NetworkDescription network(const SimConfig& cfg) const override {
    const unsigned a = cfg.topology.board_x, b = cfg.topology.board_y;
    const unsigned X = cfg.system_x(), Y = cfg.system_y();
    NetworkDescription net;
    net.grid = *board_grid(cfg);
    std::vector<unsigned> router(X * Y);
    for (unsigned n = 0; n < X * Y; ++n) {
      NodeDescription r;
      r.name = "r" + std::to_string(n % X) + "_" + std::to_string(n / X);
      r.ports = 5;  // port 0 is its own accelerator's, then N, E, S, W
      r.latency = switch_pipeline(cfg);
      r.place.x = n % X;
      r.place.y = n / X;
      r.place.size_x = X;
      r.place.size_y = Y;
      router[n] = add_accelerator_router(net, cfg, n, std::move(r), 1);
    }
    enum : unsigned { kN = 1, kE = 2, kS = 3, kW = 4 };
    const auto link = [&](unsigned from, unsigned from_port, unsigned to, unsigned to_port, bool leaves_board) {
      if (leaves_board) {
        net.add_link({from, from_port}, {to, to_port}, cable_latency(cfg), cable_rate(cfg), "global", Medium::Aoc);
      } else {
        net.add_link({from, from_port}, {to, to_port}, cfg.local_link.latency_cycles, LinkRate{}, "local", Medium::Pcb);
      }
    };
    for (unsigned n = 0; n < X * Y; ++n) {
      const unsigned x = n % X, y = n / X;
      const unsigned east = y * X + (x + 1) % X, north = ((y + 1) % Y) * X + x;
      if (X > 1) link(router[n], kE, router[east], kW, (x + 1) % a == 0);
      if (Y > 1) link(router[n], kN, router[north], kS, (y + 1) % b == 0);
    }
    return net;
  }
  std::optional<BoardGrid> board_grid(const SimConfig& cfg) const override {
    return BoardGrid{cfg.topology.global_x, cfg.topology.global_y, cfg.topology.board_x, cfg.topology.board_y, {}, {}};
  }
  std::string describe(const SimConfig& cfg) const override {
    return std::to_string(cfg.system_x()) + "x" + std::to_string(cfg.system_y()) + " torus of " +
           std::to_string(cfg.topology.board_x) + "x" + std::to_string(cfg.topology.board_y) +
           " boards, dimension-order routing with datelines";
  }
  std::string routing_summary(const SimConfig&) const override { return "dimension order with datelines"; }
  // Its diameter in router hops; the routers are the accelerators'.
  std::optional<cost::TopologySpec> analytic_spec(const SimConfig& cfg) const override {
    cost::TorusParams p;
    p.a = cfg.topology.board_x;
    p.b = cfg.topology.board_y;
    p.x = cfg.topology.global_x;
    p.y = cfg.topology.global_y;
    return analytic_spec_of(cfg, p, 64);  // switchless: the radix does not enter
  }
  unsigned links_per_plane() const override { return 4; }

  Size size(const SimConfig& c) const override {
    return {c.topology.board_x * c.topology.global_x, c.topology.board_y * c.topology.global_y, 0};
  }
  std::vector<std::string> routing_names() const override { return {"dor_dateline"}; }
  void check(const ConfigReader& reader, SimConfig& c) const override {
    require(reader, "topology.board", kBoardExpected);
    forbid(reader, {"topology.endpoints", "topology.dragonfly", "topology.tree", "topology.clex", "topology.sides",
                    "topology.pitch"});
    require(reader, "topology.global", kGlobalExpected);
    if (c.node_count() > 65536)
      reader.field("topology.global")
          .fail("at most 65536 accelerators", std::to_string(c.node_count()) + " accelerators");
    // Dateline deadlock avoidance: VC 0 before a dimension's wrap-around link, VC 1 after it.
    if (c.router.vcs < 2)
      reader.field("router.vcs")
          .fail("at least 2 in a torus", "the dateline scheme moves a packet to VC 1 at the wrap-around");
  }
  void topology_values(const SimConfig& c, std::vector<std::pair<std::string, std::string>>& v) const override {
    v.emplace_back("topology.board", size_text(c.topology.board_x, c.topology.board_y));
    v.emplace_back("topology.global", size_text(c.topology.global_x, c.topology.global_y));
    v.emplace_back("topology.planes", std::to_string(c.topology.planes));
  }
  // An accelerator's router: one cycle, like the boards' RTL routers.
  unsigned switch_pipeline(const SimConfig&) const override { return 1; }
};

}  // namespace

const FabricTopology& torus_topology() {
  static const TorusTopology t;
  return t;
}

}  // namespace hx
