// topology_test.cpp: the topology builders' netlists (topology/network_description.h): well
// formed (every link joins existing ports, no switch port used twice, every endpoint or board
// edge attached once) and, priced by their media, equal to the analytical cost model's
// equipment for the same parameters (analytic/topology_cost.h), over every builder with a fabric
// and the shapes that change the counts: one switch or two levels, tapering, tree spans, planes,
// a board row of one board, Dragonfly pairings that leave global ports free. And the one registry
// of every model's builders (topology/topology_builder.h): every kind found, once, naming a model.
// And the one walk by which every model instantiates a netlist (topology/netlist_instance.h).
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <systemc>
#include <utility>

#include "config_reader.h"
#include "fabric_topology.h"
#include "netlist_instance.h"
#include "network_description.h"
#include "network_models.h"
#include "nv_system_builder.h"
#include "sim_config.h"
#include "topology_builder.h"
#include "topology_cost.h"

int sc_main(int, char*[]) { return 0; }  // libsystemc needs one (network_models.h); gtest_main runs the tests

namespace hx {
namespace {

struct Case {
  std::string name, yaml;
};

std::string with_run(const std::string& topology) {
  return "topology:\n" + topology + "traffic:\n  injection_rate: 0.1\n";
}

std::vector<Case> cases() {
  return {
      {"fat_tree_one_switch", with_run("  kind: fat_tree\n  endpoints: 48\n  tree: {radix: 64}\n")},
      {"fat_tree_two_levels", with_run("  kind: fat_tree\n  endpoints: 1024\n  tree: {radix: 64}\n")},
      {"fat_tree_odd_endpoints", with_run("  kind: fat_tree\n  endpoints: 100\n  tree: {radix: 16}\n")},
      {"fat_tree_tapered", with_run("  kind: fat_tree\n  endpoints: 512\n  tree: {radix: 32, taper: 0.5}\n")},
      {"fat_tree_spine_per_up_port",
       with_run("  kind: fat_tree\n  endpoints: 1024\n  tree: {radix: 64, taper: 0.5238, spines: per_up_port}\n")},
      {"hx2mesh_line", with_run("  kind: hammingmesh\n  board: 2x2\n  global: 8x8\n  tree: {radix: 16}\n")},
      {"hx2mesh_board_span",
       with_run("  kind: hammingmesh\n  board: 2x2\n  global: 16x16\n  tree: {span: board, radix: 64}\n")},
      {"hx4mesh_two_levels", with_run("  kind: hammingmesh\n  board: 4x4\n  global: 16x4\n  tree: {radix: 8}\n")},
      {"hx2mesh_rectangular", with_run("  kind: hammingmesh\n  board: 2x4\n  global: 4x2\n")},
      {"hx2mesh_tapered_trees",
       with_run("  kind: hammingmesh\n  board: 2x2\n  global: 4x4\n  tree: {radix: 6, taper: 0.5}\n")},
      {"hx2mesh_four_planes", with_run("  kind: hammingmesh\n  board: 2x2\n  global: 4x4\n  planes: 4\n")},
      // C++ switches as the board routers (router.model switch): the routers and their
      // accelerators are netlist nodes, the boards' links PCB traces.
      {"hx2mesh_switch_routers_four_planes",
       with_run("  kind: hammingmesh\n  board: 2x2\n  global: 4x4\n  planes: 4\n") + "router: {model: switch}\n"},
      {"hx4mesh_switch_routers_lanes",
       with_run("  kind: hammingmesh\n  board: 4x4\n  global: 4x2\n") + "router: {model: switch, local_ports: 4}\n"},
      {"hyperx", with_run("  kind: hammingmesh\n  board: 1x1\n  global: 32x32\n  tree: {radix: 64}\n")},
      {"torus", with_run("  kind: torus\n  board: 2x2\n  global: 8x4\n")},
      {"torus_one_board_row", with_run("  kind: torus\n  board: 4x4\n  global: 1x3\n")},
      {"dragonfly_balanced", with_run("  kind: dragonfly\n  dragonfly: {a: 4, p: 2, h: 2, groups: 9}\n")},
      {"dragonfly_spare_ports", with_run("  kind: dragonfly\n  dragonfly: {a: 4, p: 2, h: 3, groups: 5}\n")},
      {"clex_4x3", with_run("  kind: clex\n  clex: {k: 4, levels: 3}\n")},
      {"clex_5x2_given", with_run("  kind: clex\n  clex: {k: 5, levels: 2, capacity: [128 Gb/s, 256 Gb/s]}\n")},
      {"torus3d", with_run("  kind: torus3d\n  sides: 4x3x2\n")},
      {"multidim", with_run("  kind: multidim\n  dims:\n"
                            "    - {size: 4, kind: ring, bandwidth: 128 Gb/s, links: 2, latency: 10 ns}\n"
                            "    - {size: 3, kind: fully_connected, bandwidth: 128 Gb/s, links: 2, latency: 10 ns}\n"
                            "    - {size: 2, kind: switch, bandwidth: 128 Gb/s, links: 2, latency: 100 ns}\n")},
  };
}

class Netlist : public ::testing::TestWithParam<Case> {};

TEST_P(Netlist, IsWellFormed) {
  const SimConfig cfg = load_config_text(GetParam().yaml, GetParam().name + ".yaml", {"router.vcs=3"});
  const FabricTopology& topo = fabric_topology(cfg.topology.kind);
  const NetworkDescription net = topo.network(cfg);
  ASSERT_FALSE(net.empty());
  using Kind = NodeDescription::Kind;
  std::set<std::pair<unsigned, unsigned>> used;  // switch ports
  std::map<unsigned, unsigned> attached;         // endpoint or board edge node -> links
  std::set<std::string> names;
  for (const NodeDescription& n : net.nodes) EXPECT_TRUE(names.insert(n.name).second) << "two nodes " << n.name;
  for (const LinkDescription& l : net.links) {
    ASSERT_LT(l.a.node, net.nodes.size());
    ASSERT_LT(l.b.node, net.nodes.size());
    const NodeDescription& a = net.nodes[l.a.node];
    const NodeDescription& b = net.nodes[l.b.node];
    ASSERT_EQ(b.kind, Kind::Switch) << "a link ends at " << b.name;
    EXPECT_LT(l.b.port, b.ports) << b.name;
    EXPECT_TRUE(used.insert({l.b.node, l.b.port}).second) << b.name << " port " << l.b.port << " used twice";
    if (a.kind == Kind::Switch) {
      EXPECT_LT(l.a.port, a.ports) << a.name;
      EXPECT_TRUE(used.insert({l.a.node, l.a.port}).second) << a.name << " port " << l.a.port << " used twice";
      EXPECT_NE(l.medium, Medium::Internal) << a.name;
    } else {
      ++attached[l.a.node];
    }
  }
  unsigned endpoints = 0, edges = 0;
  for (unsigned i = 0; i < net.nodes.size(); ++i) {
    const NodeDescription& n = net.nodes[i];
    if (n.kind == Kind::Switch) {
      EXPECT_FALSE(n.routing.empty()) << n.name;
      continue;
    }
    EXPECT_EQ(attached[i], std::max(1u, n.ports)) << n.name << " attached " << attached[i] << " times";
    (n.kind == Kind::Endpoint ? endpoints : edges) += 1;
  }
  if (topo.rtl_boards(cfg)) {
    // Every board's edge ports, two per line and board in each dimension, in every plane.
    EXPECT_EQ(endpoints, 0u);
    EXPECT_EQ(edges, cfg.topology.planes * cfg.board_count() * 2 * (cfg.topology.board_x + cfg.topology.board_y));
  } else {
    EXPECT_EQ(endpoints, cfg.node_count() * cfg.topology.planes);
    EXPECT_EQ(edges, 0u);
  }
}

// The one walk every model instantiates a netlist by (topology/netlist_instance.h): switches
// numbered 0, 1, ... in node order, every working link once in link order with its ends resolved
// to those numbers, a failed link never.
struct Walk {
  std::vector<std::string> switches;
  std::vector<unsigned> links;
  const NetworkDescription* net = nullptr;
  void make_switch(unsigned s, const NodeDescription& n) {
    EXPECT_EQ(s, switches.size());
    switches.push_back(n.name);
  }
  void connect(unsigned l, const LinkDescription& link, const NetlistEnd& a, const NetlistEnd& b) {
    EXPECT_EQ(&link, &net->links[l]);
    EXPECT_FALSE(link.failed);
    EXPECT_TRUE(links.empty() || links.back() < l);
    links.push_back(l);
    for (const auto& [end, ref] : {std::pair{a, link.a}, std::pair{b, link.b}}) {
      EXPECT_EQ(end.node, &net->nodes[ref.node]);
      EXPECT_EQ(end.port, ref.port);
      if (end.kind == NodeDescription::Kind::Switch) {
        EXPECT_EQ(switches.at(end.index), end.node->name);
      } else if (end.kind == NodeDescription::Kind::Endpoint) {
        EXPECT_EQ(end.index, end.node->endpoint);
      }
    }
  }
};

void expect_one_walk(NetworkDescription net) {
  ASSERT_GE(net.links.size(), 3u);
  net.links[1].failed = true;
  Walk walk{{}, {}, &net};
  instantiate(net, walk);
  unsigned switches = 0;
  for (const NodeDescription& n : net.nodes) switches += n.kind == NodeDescription::Kind::Switch;
  EXPECT_EQ(walk.switches.size(), switches);
  EXPECT_EQ(NetlistNumbering(net).switches(), switches);
  EXPECT_EQ(walk.links.size(), net.links.size() - 1);
  EXPECT_EQ(std::count(walk.links.begin(), walk.links.end(), 1u), 0);
}

TEST_P(Netlist, IsInstantiatedByTheOneWalk) {
  const SimConfig cfg = load_config_text(GetParam().yaml, GetParam().name + ".yaml", {"router.vcs=3"});
  expect_one_walk(fabric_topology(cfg.topology.kind).network(cfg));
}

TEST(NetlistInstance, TheNvSwitchSystemsToo) {
  for (const nv::NvSystemBuilder* b : nv::nv_system_builders()) {
    SCOPED_TRACE(b->kind());
    expect_one_walk(b->network({b->default_groups(), 6, "", 1, LinkRate{}, LinkRate{}}));
  }
}

// The cost model and the cycle model describe one network: the netlist priced by its media has
// the analytical model's switches and cables, per plane and in total. One difference is by
// design: a fat tree's analytical design fills its last leaf (it attaches L x down endpoints and
// prices a DAC cable for each), where the netlist attaches the endpoints the config has.
TEST_P(Netlist, HasTheAnalyticalModelsEquipment) {
  const SimConfig cfg = load_config_text(GetParam().yaml, GetParam().name + ".yaml", {"router.vcs=3"});
  const FabricTopology& topo = fabric_topology(cfg.topology.kind);
  const std::optional<cost::TopologySpec> spec = topo.analytic_spec(cfg);
  if (!spec) GTEST_SKIP() << "the cost model has no closed form of a " << cfg.topology.kind;
  const cost::TopologyCost c = cost::evaluate(*spec, cost::Prices{});
  ASSERT_GE(c.endpoints, cfg.node_count());
  const uint64_t spare = c.endpoints - cfg.node_count();  // the analytical last leaf's free ports
  if (cfg.topology.kind != "fat_tree") {
    EXPECT_EQ(spare, 0u);
  }
  const NetworkDescription net = topo.network(cfg);
  for (unsigned p = 0; p < cfg.topology.planes; ++p) {
    const NetworkEquipment e = net.equipment(static_cast<int>(p));
    EXPECT_EQ(e.switches, c.per_plane.switches) << "plane " << p;
    EXPECT_EQ(e.dac + spare, c.per_plane.dac) << "plane " << p;
    EXPECT_EQ(e.aoc, c.per_plane.aoc) << "plane " << p;
  }
  const NetworkEquipment all = net.equipment();
  EXPECT_EQ(all.switches, c.total.switches);
  EXPECT_EQ(all.cables() + spare * cfg.topology.planes, c.total.dac + c.total.aoc);
}

// The allocator's view of the trees (board_grid(), alloc::TreeLeaves: position p's terminals
// [p ports, (p + 1) ports), terminal t on leaf t div down) is how the netlist wires them.
TEST_P(Netlist, BoardGridIsTheWiring) {
  const SimConfig cfg = load_config_text(GetParam().yaml, GetParam().name + ".yaml", {"router.vcs=3"});
  const FabricTopology& topo = fabric_topology(cfg.topology.kind);
  const NetworkDescription net = topo.network(cfg);
  const std::optional<BoardGrid> grid = topo.board_grid(cfg);
  if (!grid) {
    EXPECT_FALSE(topo.has_boards());
    EXPECT_EQ(net.grid.boards_x, 0u);
    return;
  }
  EXPECT_EQ(net.grid.boards_x * net.grid.boards_y, cfg.topology.global_x * cfg.topology.global_y);
  EXPECT_EQ(net.grid.board_x * net.grid.board_y * net.grid.boards_x * net.grid.boards_y, cfg.node_count());
  if (!topo.has_boards()) return;  // a torus: boards, no trees
  unsigned checked = 0;
  for (const LinkDescription& l : net.links) {
    // A board's edge: the RTL plane's edge port, or a C++ board router's cable to a tree switch
    // (router.model switch; its place names its board).
    const NodeDescription& edge = net.nodes[l.a.node];
    const NodeDescription& sw = net.nodes[l.b.node];
    unsigned board = 0;
    if (edge.kind == NodeDescription::Kind::BoardEdge) {
      board = edge.board;
    } else if (edge.kind == NodeDescription::Kind::Switch && edge.own_endpoint_ports > 0 &&
               sw.own_endpoint_ports == 0) {
      board = edge.place.place.board_y * grid->boards_x + edge.place.place.board_x;
    } else {
      continue;
    }
    const bool rows = sw.place.addressing.rows;
    const TreeLayout& layout = rows ? grid->rows : grid->cols;
    const unsigned position = rows ? board % grid->boards_x : board / grid->boards_x;
    ASSERT_EQ(sw.place.tree_place == RoutingContext::TreePlace::Single, layout.leaf_down() == 0) << sw.name;
    const unsigned terminal = sw.place.index * layout.leaf_down() + l.b.port;
    EXPECT_EQ(terminal / layout.ports, position) << edge.name << " on " << sw.name;
    ++checked;
  }
  EXPECT_GT(checked, 0u);
}

INSTANTIATE_TEST_SUITE_P(Builders, Netlist, ::testing::ValuesIn(cases()),
                         [](const ::testing::TestParamInfo<Case>& i) { return i.param.name; });

// ---- the one registry of topology builders (topology/registry.cpp) ---------------------------------

// Every registered kind is found by lookup, is registered once, has a description and names a
// network model that exists; the typed view of its model finds the same builder, the other
// model's view refuses it, and the views together hold every builder.
TEST(TopologyRegistry, EveryKindIsFoundOnceAndNamesAModel) {
  ASSERT_FALSE(topology_builders().empty());
  std::set<std::string> kinds;
  for (const TopologyBuilder* b : topology_builders()) {
    const std::string kind = b->kind();
    SCOPED_TRACE(kind);
    EXPECT_TRUE(kinds.insert(kind).second) << "registered twice";
    EXPECT_EQ(&topology_builder(kind), b);
    EXPECT_STRNE(b->description(), "");
    EXPECT_NO_THROW(EXPECT_EQ(network_model(b->model()).name, b->model())) << "no model '" << b->model() << "'";
    const bool fabric = std::string(b->model()) == "fabric";
    if (fabric) {
      EXPECT_EQ(static_cast<const TopologyBuilder*>(&fabric_topology(kind)), b);
      EXPECT_THROW(nv::nv_system_builder(kind), std::invalid_argument);
    } else {
      EXPECT_EQ(b->model(), std::string("nvswitch"));
      EXPECT_EQ(static_cast<const TopologyBuilder*>(&nv::nv_system_builder(kind)), b);
      EXPECT_THROW(fabric_topology(kind), std::invalid_argument);
    }
  }
  EXPECT_EQ(fabric_topologies().size() + nv::nv_system_builders().size(), topology_builders().size());
  // The kinds of issue 18's list: board mesh, HammingMesh (and HyperX, a HammingMesh of 1x1
  // boards), fat tree, torus, Dragonfly, DGX-2, the two-level NVSwitch tree; and multidim.
  for (const char* kind :
       {"board", "hammingmesh", "fat_tree", "torus", "dragonfly", "multidim", "dgx2", "nvswitch_tree"})
    EXPECT_EQ(kinds.count(kind), 1u) << kind;
}

// An unknown kind's error names every registered kind, in registration order (model_for's
// ConfigError, which `hxsim run` reports, is tested in sim_unit_test: NetworkModels).
TEST(TopologyRegistry, AnUnknownKindNamesEveryKind) {
  std::string all;
  for (const TopologyBuilder* b : topology_builders()) all += (all.empty() ? "" : ", ") + std::string(b->kind());
  try {
    topology_builder("dgx3");
    FAIL() << "an unknown kind must be refused";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()), "no topology kind 'dgx3'; registered: " + all);
  }
}

}  // namespace
}  // namespace hx
