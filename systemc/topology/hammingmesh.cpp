// hammingmesh.cpp: a HammingMesh (Hoefler et al., SC22): x x y boards of a x b accelerators, each
// row and each column of boards joined by fat trees (one per accelerator line, or one per board
// row or column: topology.tree.span), in one or more independent planes. HyperX is the HxMesh of
// 1x1 boards.
//
// The boards' routers are the Verilated RTL planes (router.model rtl): the netlist then has their
// edge ports only. With router.model switch they are C++ switches in the netlist, routed by the
// same board routing functions (routing/board_router.cpp) with the switch model's buffers,
// output queues and crossbar speedup (switch.*): the router of the paper's SST runs, input and
// output buffered with a 2x crossbar (Table III), to compare against the RTL router's.
#include "analytic_spec.h"
#include "board_geometry.h"
#include "fabric_topology.h"
#include "tree_builder.h"

namespace hx {

namespace {

class HammingMeshTopology : public FabricTopology {
 public:
  const char* kind() const override { return "hammingmesh"; }
  const char* description() const override {
    return "x x y boards joined by row and column fat trees (HyperX: 1x1 boards)";
  }
  bool has_boards() const override { return true; }
  bool rtl_boards(const SimConfig& c) const override { return !c.router.switch_model; }
  // Per plane, the row trees (E/W edge ports of a line of accelerators across a board row, or
  // of all lines of the board row with span board), then the column trees (N/S edge ports). The
  // boards' edge cables are DAC along x and AoC along y, the cables between switches AoC (the
  // cost model's media, section III-A).
  NetworkDescription network(const SimConfig& cfg) const override {
    NetworkDescription net;
    net.grid = *board_grid(cfg);
    for (unsigned p = 0; p < cfg.topology.planes; ++p) {
      const std::string prefix = cfg.topology.planes > 1 ? "plane" + std::to_string(p) + "_" : "";
      const std::vector<unsigned> routers =
          cfg.router.switch_model ? add_board_routers(net, cfg, p, prefix) : std::vector<unsigned>{};
      const unsigned row_lines = tree_lines(cfg, true), col_lines = tree_lines(cfg, false);
      for (unsigned by = 0; by < cfg.topology.global_y; ++by) {
        for (unsigned l = 0; l < cfg.topology.board_y; l += row_lines)
          add_tree(net, cfg, p, prefix, routers, true, by, l);
      }
      for (unsigned bx = 0; bx < cfg.topology.global_x; ++bx) {
        for (unsigned l = 0; l < cfg.topology.board_x; l += col_lines)
          add_tree(net, cfg, p, prefix, routers, false, bx, l);
      }
    }
    return net;
  }
  // Terminal t of a tree is port t mod down of leaf t div down (add_fat_tree), and position p's
  // terminals are [p ports, (p + 1) ports): the layout the allocator's locality works with.
  std::optional<BoardGrid> board_grid(const SimConfig& cfg) const override {
    const auto& t = cfg.topology;
    BoardGrid g{t.global_x, t.global_y, t.board_x, t.board_y, {}, {}};
    for (const bool rows : {true, false}) {
      TreeLayout& l = rows ? g.rows : g.cols;
      l.positions = rows ? t.global_x : t.global_y;
      l.ports = 2 * tree_lines(cfg, rows);
      l.shape = tree_shape(tree_ports(cfg, rows), t.tree_radix, t.tree_taper);
    }
    return g;
  }
  std::string describe(const SimConfig& cfg) const override {
    const auto& t = cfg.topology;
    return std::to_string(t.global_x) + "x" + std::to_string(t.global_y) + " Hx" + std::to_string(t.board_x) + "x" +
           std::to_string(t.board_y) + "Mesh" +
           (t.planes > 1 ? ", " + std::to_string(t.planes) + " planes (rates per port)" : std::string()) +
           (cfg.router.switch_model ? ", C++ switch routers" : "");
  }
  std::string routing_summary(const SimConfig& cfg) const override {
    return route_mode_name(cfg.router.routing) + " on the boards, up/down adaptive in the fat trees";
  }
  // Its diameter: section III-B's 2 (floor((a-1)/2) + floor((b-1)/2)) plus 2 (levels + 1)
  // cables per tree.
  std::optional<cost::TopologySpec> analytic_spec(const SimConfig& cfg) const override {
    cost::HxMeshParams p;
    p.a = cfg.topology.board_x;
    p.b = cfg.topology.board_y;
    p.x = cfg.topology.global_x;
    p.y = cfg.topology.global_y;
    p.span = cfg.topology.tree_span == TreeSpan::Line ? cost::TreeSpan::Line : cost::TreeSpan::Board;
    std::tie(p.tree_down, p.tree_up) = leaf_ports(cfg, std::max(tree_ports(cfg, true), tree_ports(cfg, false)));
    return analytic_spec_of(cfg, p, cfg.topology.tree_radix);
  }
  unsigned links_per_plane() const override { return 4; }
  void add_config(nlohmann::ordered_json& j, const SimConfig& cfg) const override {
    j["boards"] = cfg.board_count();
    j["planes"] = cfg.topology.planes;
    j["tree_span"] = tree_span_name(cfg.topology.tree_span);
  }

  Size size(const SimConfig& c) const override {
    const auto& t = c.topology;
    return {t.board_x * t.global_x, t.board_y * t.global_y, t.global_x * t.global_y};
  }
  unsigned max_planes() const override { return 4; }
  std::vector<std::string> routing_names() const override { return board_routing_names(); }
  std::string default_routing() const override { return "north_last"; }
  void check(const ConfigReader& reader, SimConfig& c) const override {
    c.router.routing = route_mode_of(c.routing.algorithm);
    require(reader, "topology.board", kBoardExpected);
    forbid(reader, {"topology.endpoints", "topology.dragonfly", "topology.clex", "topology.sides", "topology.pitch",
                    "topology.tree.spines"});
    require(reader, "topology.global", kGlobalExpected);
    if (c.router.vc_policy != VcPolicy::Keep)
      reader.field("router.vc_policy")
          .fail("keep in a hammingmesh",
                "deadlock freedom across boards needs the VC increment at each board exit (the paper's rule)");
    // A packet leaves at most two boards (source and intermediate), so it uses VCs 0..2.
    if (c.router.vcs < 3)
      reader.field("router.vcs")
          .fail("at least 3 in a hammingmesh",
                "a packet takes VC 0, 1 and 2 on its source, intermediate and destination boards");
    for (const bool rows : {true, false}) check_tree(reader, c, tree_ports(c, rows));
  }
  void topology_values(const SimConfig& c, std::vector<std::pair<std::string, std::string>>& v) const override {
    v.emplace_back("topology.board", size_text(c.topology.board_x, c.topology.board_y));
    v.emplace_back("topology.global", size_text(c.topology.global_x, c.topology.global_y));
    v.emplace_back("topology.planes", std::to_string(c.topology.planes));
    tree_values(c, v);
  }
  void derivations(const SimConfig& c, std::vector<std::string>& d) const override {
    for (const bool rows : {true, false})
      d.push_back(tree_derivation(rows ? "row" : "column", tree_count(c, rows), tree_ports(c, rows), c));
  }

 private:
  // router.model switch: plane `plane`'s board routers, each a C++ switch with the RTL router's
  // ports (N, E, S, W, then the accelerator's lanes) and its accelerator, and the board's links
  // between them (PCB traces, links.local). Returns the routers' nodes, board by board, node
  // y * a + x within a board.
  static std::vector<unsigned> add_board_routers(NetworkDescription& net, const SimConfig& cfg, unsigned plane,
                                                 const std::string& prefix) {
    const unsigned a = cfg.topology.board_x, b = cfg.topology.board_y, X = cfg.system_x();
    const unsigned lanes = cfg.router.local_ports;
    TreeAddressing addr;  // the header's board and node fields, as the trees read them
    addr.fmt.payload_width = cfg.router.flit_width_bits;
    std::vector<unsigned> router(cfg.board_count() * a * b);
    for (unsigned board = 0; board < cfg.board_count(); ++board) {
      const unsigned bx = board % cfg.topology.global_x, by = board / cfg.topology.global_x;
      for (unsigned n = 0; n < a * b; ++n) {
        const unsigned x = n % a, y = n / a;
        NodeDescription r;
        r.name = prefix + "board" + std::to_string(board) + "_r" + std::to_string(x) + "_" + std::to_string(y);
        r.ports = num_router_ports(lanes);
        r.latency = 1;  // a router's pipeline: one cycle, like the RTL router's crossbar stage
        r.speedup = cfg.fabric_switch.speedup;
        r.plane = plane;
        r.place.place = RouterPlace{x, y, a - 1, b - 1, bx, by};
        r.place.local_ports = lanes;
        r.place.span = cfg.topology.tree_span;
        // Accelerator (X, Y) is endpoint Y * system_x + X of its plane (sim/build.cpp).
        const unsigned endpoint = plane * cfg.node_count() + (by * b + y) * X + bx * a + x;
        const unsigned node = add_accelerator_router(net, cfg, endpoint, std::move(r), lanes, kPortL);
        net.nodes[node].place.addressing = addr;  // not an endpoint number: board and node
        router[board * a * b + n] = node;
      }
      for (unsigned n = 0; n < a * b; ++n) {
        const unsigned x = n % a, y = n / a, r = router[board * a * b + n];
        if (x + 1 < a)
          net.add_link({r, kPortE}, {router[board * a * b + n + 1], kPortW}, cfg.local_link.latency_cycles, LinkRate{},
                       "local", Medium::Pcb);
        if (y + 1 < b)
          net.add_link({r, kPortN}, {router[board * a * b + n + a], kPortS}, cfg.local_link.latency_cycles, LinkRate{},
                       "local", Medium::Pcb);
      }
    }
    return router;
  }

  // One tree of board row (column) `board_rc` from line `first_line` on, and per terminal the
  // board edge port it serves: terminal t = (position * lines + line) * 2 + side
  // (TreeAddressing). The edge port is the RTL plane's (a BoardEdge node), or with C++ switch
  // routers (`routers` not empty, add_board_routers) the router's own port.
  static void add_tree(NetworkDescription& net, const SimConfig& cfg, unsigned plane, const std::string& prefix,
                       const std::vector<unsigned>& routers, bool rows, unsigned board_rc, unsigned first_line) {
    const unsigned a = cfg.topology.board_x, b = cfg.topology.board_y;
    const unsigned lines = tree_lines(cfg, rows);
    const unsigned positions = rows ? cfg.topology.global_x : cfg.topology.global_y;
    TreeAddressing addr;
    addr.rows = rows;
    addr.lines = lines;
    addr.board_x = a;
    addr.board_y = b;
    addr.positions = positions;
    addr.fmt.payload_width = cfg.router.flit_width_bits;
    const std::vector<PortRef> terminal = add_fat_tree(
        net, cfg, prefix + (rows ? "row" : "col") + std::to_string(board_rc) + "_line" + std::to_string(first_line),
        tree_ports(cfg, rows), addr, plane);
    const BoardGeometry geom{a, b, cfg.router.local_ports};
    for (unsigned pos = 0; pos < positions; ++pos) {
      for (unsigned li = 0; li < lines; ++li) {
        for (unsigned side = 0; side < 2; ++side) {
          const unsigned t = (pos * lines + li) * 2 + side;
          const unsigned line = first_line + li;
          const unsigned bx = rows ? pos : board_rc, by = rows ? board_rc : pos;
          NodeDescription edge;
          edge.kind = NodeDescription::Kind::BoardEdge;
          edge.board = by * cfg.topology.global_x + bx;
          edge.plane = plane;
          unsigned dir = 0;
          if (rows) {
            edge.x = side == 0 ? 0 : a - 1;
            edge.y = line;
            dir = side == 0 ? kPortW : kPortE;
          } else {
            edge.x = line;
            edge.y = side == 0 ? 0 : b - 1;
            dir = side == 0 ? kPortS : kPortN;
          }
          edge.edge = geom.edge_port(dir, edge.x, edge.y);
          static const char* const kDir = "NESW";
          edge.name = prefix + "board" + std::to_string(edge.board) + "_" + kDir[dir] + std::to_string(edge.x) + "_" +
                      std::to_string(edge.y);
          const PortRef end = routers.empty() ? PortRef{net.add_node(std::move(edge)), 0}
                                              : PortRef{routers[edge.board * a * b + edge.y * a + edge.x], dir};
          net.add_link(end, terminal[t], cable_latency(cfg), cable_rate(cfg), "global",
                       rows ? Medium::Dac : Medium::Aoc);
        }
      }
    }
  }
};

}  // namespace

const FabricTopology& hammingmesh_topology() {
  static const HammingMeshTopology t;
  return t;
}

}  // namespace hx
