// systems_test.cpp: whole systems end to end, through the hxsim command line: HammingMeshes and
// the comparison fat trees and Dragonflies.
//
// The two 64-accelerator systems of configs/ (a 4x4 Hx2Mesh and a 2x2 Hx4Mesh), boards of RTL
// routers joined by the fat-tree switch models:
//   - saturating all-to-all for 100,000 cycles: no deadlock, nothing lost, duplicated,
//     corrupted or misrouted, every credit home;
//   - the longest path observed (in cables, as the paper counts them) equals the diameter
//     formula of section III-B;
//   - the rule "at most two trees, VCs 0..2" holds for every delivered packet (the tracker
//     checks each one; a violation fails the run);
//   - directed routes, one source and one destination each, for the four cases of the paper's
//     routing: same board, same board row, same board column, neither (via an intermediate
//     board): trees crossed, the VC the packet arrives on, and the path length in cables.
// Every HammingMesh design of configs/ (Hx2Mesh, Hx4Mesh, HyperX; trees of span line and of span
// board), saturating all-to-all for a few thousand cycles: the longest path equals the diameter
// formula, so the routing takes no hop the formula does not count.
// Each test runs the real hxsim executable, so each has its own SystemC elaboration.
#include <gtest/gtest.h>
#include <filesystem>
#include <fstream>
#include <string>

#include "cli_support.h"
#include "nlohmann/json.hpp"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

using hx::test::hxsim;

fs::path scratch() { return hx::test::scratch_dir("systems_test"); }

std::string config(const std::string& name) { return std::string(HX_CONFIG_DIR) + "/" + name; }

json run(const std::string& args) {
  const fs::path out = scratch() / "r.json";
  const hx::test::CliResult r = hxsim("run " + args + " --quiet --out " + out.string());
  EXPECT_EQ(r.exit_code, 0) << r.output;
  std::ifstream in(out);
  if (!in) return json::object();
  return json::parse(in);
}

void expect_clean(const json& j) {
  const json& c = j["checks"];
  const json& d = j["check_details"];
  EXPECT_TRUE(c["passed"].get<bool>()) << d["report"].get<std::string>();
  EXPECT_EQ(d["end"], "drained");
  EXPECT_FALSE(c["deadlock"].get<bool>());
  EXPECT_EQ(c["lost"], 0);
  EXPECT_EQ(c["duplicated"], 0);
  EXPECT_EQ(c["corrupted"], 0);
  EXPECT_EQ(c["misdelivered"], 0);
  EXPECT_EQ(d["path_violations"], 0);
  EXPECT_TRUE(d["credits_returned"].get<bool>());
  EXPECT_EQ(c["injected"], c["delivered"]);
}

// ---- saturating all-to-all: 100,000 cycles ---------------------------------------------------

class SaturatedAllToAll : public ::testing::TestWithParam<const char*> {};

TEST_P(SaturatedAllToAll, NoDeadlockNothingLostPathsWithinTheRules) {
  const json j = run(config(GetParam()) + " --set run.warmup=1000cycles --set run.measure=99000cycles");
  ASSERT_TRUE(j.contains("checks"));
  expect_clean(j);
  EXPECT_GE(j["sim"]["cycles"].get<uint64_t>(), 100000u);
  // Saturated: the sources always had a packet ready, so the accepted rate is the network's.
  EXPECT_GT(j["checks"]["delivered"].get<uint64_t>(), 100000u);
  // Every packet crossed at most two trees and arrived on VC 0..2; different rows and columns
  // do occur in all-to-all, so both limits are reached.
  EXPECT_EQ(j["check_details"]["max_trees"], 2);
  EXPECT_EQ(j["check_details"]["max_vc"], 2);
  // The longest path equals the diameter of section III-B.
  EXPECT_EQ(j["check_details"]["max_path_cables"], j["check_details"]["diameter_formula"]);
}

INSTANTIATE_TEST_SUITE_P(Configs, SaturatedAllToAll,
                         ::testing::Values("hx2mesh_4x4_alltoall.yaml", "hx4mesh_2x2_alltoall.yaml"),
                         [](const auto& info) {
                           std::string n = info.param;
                           return n.substr(0, n.find('.'));
                         });

// ---- the diameter of every HammingMesh design ----------------------------------------------------

struct Design {
  const char* name;
  const char* config;
  const char* sets;  // settings on top of the config and the run length
  unsigned diameter;
};

class Diameter : public ::testing::TestWithParam<Design> {};

// Section III-B's diameter counts the links of the longest minimal path: 2 (floor((a-1)/2) +
// floor((b-1)/2)) on the boards and 2 (levels + 1) per tree (hammingmesh.cpp). With trees of
// span board the board routers must not move a packet toward the destination's line before the
// tree (the span_board_i strap, rtl/hx_route.sv): such a move costs one link more than the
// formula, which 6,000 cycles of the 8x8 Hx4Mesh showed before the strap. Span board also spares
// the intermediate board's move to the destination's column: floor((a-1)/2) + floor((b-1)/2) +
// max of the two on the boards, 7 for the Hx4Mesh (topology_cost.cpp), which the routers reach
// since a source on a board edge leaves by it (until 2026-11-28 a move along the edge made it 8). The HyperX (boards of
// one router, where the strap changes nothing) runs 2,500 cycles to stay fast.
TEST_P(Diameter, LongestPathEqualsTheFormula) {
  const Design& d = GetParam();
  const json j = run(config(d.config) + " --set run.warmup=1000cycles --set run.measure=5000cycles " + d.sets);
  ASSERT_TRUE(j.contains("checks"));
  expect_clean(j);
  EXPECT_EQ(j["check_details"]["max_trees"], 2);
  EXPECT_EQ(j["check_details"]["diameter_formula"], d.diameter);
  EXPECT_EQ(j["check_details"]["max_path_cables"], j["check_details"]["diameter_formula"]);
}

INSTANTIATE_TEST_SUITE_P(
    Configs, Diameter,
    ::testing::Values(
        Design{"hx4mesh_8x8_span_board", "hx4mesh_8x8_alltoall.yaml", "", 7},
        Design{"hx4mesh_8x8_span_line", "hx4mesh_8x8_alltoall.yaml", "--set topology.tree.span=line", 8},
        Design{"hx4mesh_2x2_span_board", "hx4mesh_2x2_alltoall.yaml", "--set topology.tree.span=board", 7},
        Design{"hx2mesh_16x16_span_board", "hx2mesh_16x16_alltoall.yaml", "", 4},
        Design{"hx2mesh_4x4_span_board", "hx2mesh_4x4_alltoall.yaml", "--set topology.tree.span=board", 4},
        Design{"hyperx_32x32", "hyperx_32x32_alltoall.yaml", "--set run.warmup=500cycles --set run.measure=2000cycles",
               4},
        // C++ switches as the board routers (router.model switch)
        // take the same paths as the RTL's.
        Design{"hx4mesh_2x2_span_line_switch_routers", "hx4mesh_2x2_alltoall.yaml", "--set router.model=switch", 8},
        Design{"hx4mesh_2x2_span_board_switch_routers", "hx4mesh_2x2_alltoall.yaml",
               "--set topology.tree.span=board --set router.model=switch", 7},
        Design{"hx2mesh_4x4_switch_routers_4_lanes", "hx2mesh_4x4_alltoall.yaml",
               "--set router.model=switch --set router.local_ports=4 "
               "--set traffic.injection_rate=4",
               4},
        Design{"hyperx_8x8_switch_routers", "hyperx_32x32_alltoall.yaml",
               "--set topology.global=8x8 --set router.model=switch", 4}),
    [](const auto& info) { return std::string(info.param.name); });

// ---- directed routes on the 2x2 Hx4Mesh (boards of 4x4; node = Y * 8 + X) ---------------------

struct Route {
  const char* name;
  unsigned src, dst;
  unsigned trees, vc, cables;
  const char* sets = "";  // settings on top of the config
};

class DirectedRoute : public ::testing::TestWithParam<Route> {};

TEST_P(DirectedRoute, CrossesTheExpectedTreesOnTheExpectedVc) {
  const Route& r = GetParam();
  const json j = run(config("hx4mesh_2x2_alltoall.yaml") + " " + r.sets + " --only-source " + std::to_string(r.src) +
                     " --set traffic.pattern=hotspot --set traffic.hotspot.nodes=[" + std::to_string(r.dst) +
                     "] --set traffic.hotspot.fraction=1 --set traffic.injection_rate=0.05"
                     " --set run.warmup=0cycles --set run.measure=4000cycles");
  ASSERT_TRUE(j.contains("checks"));
  expect_clean(j);
  EXPECT_GT(j["checks"]["delivered"].get<uint64_t>(), 10u);
  EXPECT_EQ(j["check_details"]["max_trees"], r.trees);
  EXPECT_EQ(j["check_details"]["max_vc"], r.vc);
  EXPECT_EQ(j["check_details"]["max_path_cables"], r.cables);
}

// Path lengths, with the routing rules of docs/hammingmesh.md: minimal on every board, a tree
// delivers to the board edge nearer the destination node.
//   same board:  (0,0) -> (3,3): 6 on-board links.
//   same row:    (1,1) on board (0,0) -> (6,2) = board (1,0) node (2,2): to the W edge (1 hop,
//                perhaps with the row change), 2 cables through the row switch to the E edge of
//                board (1,0), then to (2,2): 5 routers + 1 switch - 1 = 5 cables.
//   same column: (1,1) -> (2,6), the transpose of the above: 5.
//   neither:     (1,1) -> (6,6) = board (1,1) node (2,2): 8, the diameter.
// With trees of span board the tree delivers on the destination's row (column), and the source
// board does not change rows (columns): same row is (1,1), (0,1), the switch, (3,2), (2,2): 4
// cables; same column likewise 4; neither is the span-board diameter, 7: (1,1), (0,1) or (1,0),
// a tree, the intermediate board's entry on row (column) 2 and its edge, the other tree, (2,3) or
// (3,2), (2,2) (the intermediate board needs no move to the destination's column).
INSTANTIATE_TEST_SUITE_P(
    Hx4Mesh2x2, DirectedRoute,
    ::testing::Values(Route{"same_board", 0, 27, 0, 0, 6}, Route{"same_board_row", 9, 22, 1, 1, 5},
                      Route{"same_board_column", 9, 50, 1, 1, 5}, Route{"neither", 9, 54, 2, 2, 8},
                      Route{"span_board_same_board_row", 9, 22, 1, 1, 4, "--set topology.tree.span=board"},
                      Route{"span_board_same_board_column", 9, 50, 1, 1, 4, "--set topology.tree.span=board"},
                      Route{"span_board_neither", 9, 54, 2, 2, 7, "--set topology.tree.span=board"},
                      // The same routes through C++ switch routers (router.model switch).
                      Route{"switch_routers_same_board", 0, 27, 0, 0, 6, "--set router.model=switch"},
                      Route{"switch_routers_same_board_row", 9, 22, 1, 1, 5, "--set router.model=switch"},
                      Route{"switch_routers_neither", 9, 54, 2, 2, 8, "--set router.model=switch"},
                      Route{"switch_routers_span_board_same_board_column", 9, 50, 1, 1, 4,
                            "--set router.model=switch --set topology.tree.span=board"}),
    [](const auto& info) { return std::string(info.param.name); });

// ---- two-level trees: leaves and spines ---------------------------------------------------------

struct TwoLevel {
  const char* name;
  const char* sets;
  unsigned switches;
};

class TwoLevelTrees : public ::testing::TestWithParam<TwoLevel> {};

TEST_P(TwoLevelTrees, UpDownRoutingIsCleanAndPathsMatchTheFormula) {
  // The 4x4 Hx2Mesh's trees have 8 ports; with switches of radix 4 (or 6) each is a two-level
  // fat tree, so packets climb to a spine whenever their terminal is on another leaf.
  const TwoLevel& p = GetParam();
  const json j = run(config("hx2mesh_4x4_alltoall.yaml") + " " + p.sets +
                     " --set run.warmup=1000cycles --set run.measure=20000cycles");
  ASSERT_TRUE(j.contains("checks"));
  expect_clean(j);
  EXPECT_EQ(j["config"]["switches"], p.switches);
  // The netlist the run was built from, priced: the analytical cost model's equipment.
  EXPECT_EQ(j["config"]["network"]["switches"], p.switches);
  EXPECT_EQ(j["config"]["network"]["matches_analytic"], true) << j["config"]["network"];
  EXPECT_EQ(j["check_details"]["max_trees"], 2);
  // Section III-B: each tree now costs 2 (levels + 1) = 4 cables.
  EXPECT_EQ(j["check_details"]["diameter_formula"], 8);
  EXPECT_EQ(j["check_details"]["max_path_cables"], j["check_details"]["diameter_formula"]);
}

// radix 4: leaves of 2 down + 2 up, 4 leaves and 2 spines per tree, 16 trees.
// radix 6, taper 0.5: leaves of 4 down + 2 up, 2 leaves and 1 spine per tree.
INSTANTIATE_TEST_SUITE_P(Hx2Mesh4x4, TwoLevelTrees,
                         ::testing::Values(TwoLevel{"radix4", "--set topology.tree.radix=4", 16 * 6},
                                           TwoLevel{"radix6_taper",
                                                    "--set topology.tree.radix=6 "
                                                    "--set topology.tree.taper=0.5",
                                                    16 * 3}),
                         [](const auto& info) { return std::string(info.param.name); });

// ---- the comparison fat tree: endpoints on the leaves of the same switches ----------------------

TEST(FatTree, SaturatedAllToAllOnTwoLevels) {
  // 64 endpoints on radix-16 switches: 8 leaves (8 down, 8 up) and 4 spines.
  const json j = run(config("fat_tree_1024_alltoall.yaml") +
                     " --set topology.endpoints=64 --set topology.tree.radix=16"
                     " --set run.warmup=1000cycles --set run.measure=30000cycles");
  ASSERT_TRUE(j.contains("checks"));
  expect_clean(j);
  EXPECT_EQ(j["config"]["switches"], 12);
  // 64 endpoint cables (DAC) and 8 x 8 leaf-to-spine cables (AoC), as the cost model counts them.
  EXPECT_EQ(j["config"]["network"]["dac_cables"], 64);
  EXPECT_EQ(j["config"]["network"]["aoc_cables"], 64);
  EXPECT_EQ(j["config"]["network"]["matches_analytic"], true) << j["config"]["network"];
  EXPECT_EQ(j["check_details"]["max_trees"], 1);
  // Endpoint, leaf, spine, leaf, endpoint: 4 cables, the analytical model's diameter.
  EXPECT_EQ(j["check_details"]["diameter_formula"], 4);
  EXPECT_EQ(j["check_details"]["max_path_cables"], 4);
}

TEST(FatTree, CablesOfAnotherBandwidthSetTheThroughput) {
  // links.global.bandwidth: every cable of a 64-endpoint fat tree at half the 128 Gb/s of the
  // endpoints' own links. Saturating all-to-all then accepts at most what an endpoint's cable
  // carries, 64 Gb/s per node; with the default cables it accepts far more (about 115 Gb/s), and
  // with cables faster than the endpoint links no more than that, which sets the limit.
  const std::string base = config("fat_tree_1024_alltoall.yaml") +
                           " --set topology.endpoints=64 --set run.warmup=500cycles --set run.measure=4000cycles";
  const json slow = run(base + " --set links.global.bandwidth=64Gb/s");
  const json full = run(base);
  const json fast = run(base + " --set links.global.bandwidth=256Gb/s");
  for (const json* j : {&slow, &full, &fast}) {
    ASSERT_TRUE(j->contains("checks"));
    expect_clean(*j);
  }
  const double s = slow["traffic"]["accepted_gbps_per_node"].get<double>();
  const double f = full["traffic"]["accepted_gbps_per_node"].get<double>();
  const double q = fast["traffic"]["accepted_gbps_per_node"].get<double>();
  EXPECT_LE(s, 64.0 * 1.01) << "a node cannot receive more than its cable carries";
  EXPECT_GT(s, 64.0 * 0.8) << "the slow cables are the bottleneck, and the switches keep them busy";
  EXPECT_GT(f, 100.0);
  EXPECT_LE(q, 128.0 * 1.01) << "the endpoints' own links still carry one flit per cycle";
  EXPECT_GE(q, f * 0.98);
  // The derivation says what the cables carry, and the switch buffers cover a faster cable's
  // round trip: 2 x (1 + 20) + 80 + 2 = 124 flit-cycles, 248 flits at 2 flits per cycle.
  EXPECT_EQ(fast["config"]["switch_buffer_depth_flits"], 248);
  bool said = false;
  for (const json& line : fast["config"]["derivations"])
    said = said ||
           line.get<std::string>().find("links.global.bandwidth 256 Gb/s = 2 flits per cycle") != std::string::npos;
  EXPECT_TRUE(said) << fast["config"]["derivations"];
  // The netlist the run was built from lists its cables at the rate they were built with.
  const auto cable_rates = [](const json& j) {
    std::vector<double> rates;
    for (const json& g : j["config"]["network"]["links"])
      if (g["class"] == "global") rates.push_back(g["flits_per_cycle"].get<double>());
    return rates;
  };
  // 64 endpoints on one radix-64 switch: the endpoints' cables are all the cables there are.
  EXPECT_EQ(cable_rates(slow), std::vector<double>({0.5}));
  EXPECT_EQ(cable_rates(full), std::vector<double>({1.0}));
  EXPECT_EQ(cable_rates(fast), std::vector<double>({2.0}));
}

// traffic.send_bandwidth: what each source put into the network in the window. Saturated
// sources on a symmetric network share it evenly; on a HammingMesh of 4x4 boards they do not
// (docs/table2.md, "What Table II's global column measures"), and the results must show it.
TEST(SendBandwidth, EvenOnASymmetricTreeAndAccountedForOnAHammingMesh) {
  const std::string window = " --set run.warmup=2000cycles --set run.measure=8000cycles";
  const json tree = run(config("fat_tree_1024_alltoall.yaml") +
                        " --set topology.endpoints=64 --set traffic.injection_rate=1" + window);
  const json hx =
      run(config("hx4mesh_2x2_alltoall.yaml") +
          " --set router.local_ports=4 --set traffic.injection_rate=4 --set traffic.source_queue=64" + window);
  for (const json* j : {&tree, &hx}) {
    ASSERT_TRUE(j->contains("checks"));
    expect_clean(*j);
    const json& t = (*j)["traffic"];
    const json& s = t["send_bandwidth"];
    // In the steady state what the sources put in is what the destinations took out.
    const double accepted = t["accepted"].get<double>();
    EXPECT_NEAR(s["mean"].get<double>(), accepted, 0.03 * accepted) << s;
    EXPECT_LE(s["min"].get<double>(), s["median"].get<double>());
    EXPECT_LE(s["median"].get<double>(), s["max"].get<double>());
    unsigned counted = 0;
    for (const json& b : s["histogram"]) counted += b.get<unsigned>();
    EXPECT_EQ(counted, t["sending_nodes"].get<unsigned>());
  }
  // 64 endpoints on one switch: every source alike.
  EXPECT_GT(tree["traffic"]["send_bandwidth"]["fairness"].get<double>(), 0.99) << tree["traffic"]["send_bandwidth"];
  EXPECT_EQ(hx["traffic"]["send_bandwidth"]["histogram_bins"], "10 bins of 0.4 from 0 to 4 flits per cycle");
  // Saturated, the 2x2 Hx4Mesh's sources do not share the network evenly: on the RTL routers with
  // north-last the top row of each board sends a fraction of what the bottom row does.
  const json& s = hx["traffic"]["send_bandwidth"];
  EXPECT_LT(s["min"].get<double>(), 0.6 * s["max"].get<double>()) << s;
  EXPECT_LT(s["fairness"].get<double>(), 0.95) << s;
}

// ---- the comparison Dragonfly: canonical groups of the same switch model -------------------------

struct DragonflyCase {
  const char* routing;
  unsigned max_path;  // cables
  unsigned max_vc;
};

class Dragonfly : public ::testing::TestWithParam<DragonflyCase> {};

TEST_P(Dragonfly, SaturatedAllToAllIsCleanAndPathsAreBounded) {
  // a = 4 routers of p = 2 endpoints and h = 2 global links, the maximum a h + 1 = 9 groups:
  // 72 endpoints, one global link per group pair.
  const DragonflyCase& c = GetParam();
  const json j = run(config("dragonfly_1024_alltoall.yaml") +
                     " --set topology.dragonfly.a=4 --set topology.dragonfly.p=2 --set topology.dragonfly.h=2"
                     " --set topology.dragonfly.groups=9 --set routing.algorithm=" +
                     c.routing + " --set run.warmup=1000cycles --set run.measure=30000cycles");
  ASSERT_TRUE(j.contains("checks"));
  expect_clean(j);
  EXPECT_EQ(j["config"]["switches"], 36);
  // Minimal: endpoint, local, global, local, endpoint = 5 cables, the analytical diameter.
  // UGAL-L's non-minimal (Valiant) paths add a global and a local link: 7. The VC goes up by
  // one per global link.
  EXPECT_EQ(j["check_details"]["diameter_formula"], 5);
  EXPECT_EQ(j["check_details"]["max_path_cables"], c.max_path);
  EXPECT_EQ(j["check_details"]["max_vc"], c.max_vc);
}

INSTANTIATE_TEST_SUITE_P(Groups9, Dragonfly,
                         ::testing::Values(DragonflyCase{"dragonfly_minimal", 5, 1}, DragonflyCase{"ugal_l", 7, 2}),
                         [](const auto& info) { return std::string(info.param.routing); });

// ---- CLEX (docs/clex.md): both routing schemes above saturation, watched by the watchdog --------

struct ClexCase {
  const char* routing;
  unsigned vcs;
  unsigned max_vc;  // the most long-range links a path takes: L - 1 = 2 minimal, 2^{L-1} - 1 = 3 balanced
};

class ClexSaturation : public ::testing::TestWithParam<ClexCase> {};

TEST_P(ClexSaturation, UniformAboveSaturationIsCleanAndVcsBounded) {
  const ClexCase& c = GetParam();
  const json j = run(config("clex/clex_4x3_saturation.yaml") + " --set routing.algorithm=" + c.routing +
                     " --set router.vcs=" + std::to_string(c.vcs));
  ASSERT_TRUE(j.contains("checks"));
  expect_clean(j);
  EXPECT_LE(j["check_details"]["max_vc"].get<unsigned>(), c.max_vc);
  // Above saturation: accepted below offered.
  EXPECT_LT(j["traffic"]["accepted"].get<double>(), j["traffic"]["offered"].get<double>());
}

// The 3D torus CLEX is compared with (4x4x4, the size of k=4, L=3): dimension order with a
// dateline VC per dimension, above saturation: clean, and no packet beyond VC 1.
TEST(Torus3d, UniformAboveSaturationIsClean) {
  const json j = run(config("clex/torus3d_4x4x4_uniform.yaml"));
  ASSERT_TRUE(j.contains("checks"));
  expect_clean(j);
  EXPECT_LE(j["check_details"]["max_vc"].get<unsigned>(), 1u);
  // Dimension order, the short way round: at most 2 + 2 + 2 router-to-router hops.
  EXPECT_LE(j["check_details"]["max_path_cables"].get<unsigned>(), 6u);
  // Minimal adaptive on VCs 2 and 3, the same as escape: clean, still minimal.
  const json a =
      run(config("clex/torus3d_4x4x4_uniform.yaml") + " --set routing.algorithm=torus_adaptive --set router.vcs=4");
  ASSERT_TRUE(a.contains("checks"));
  expect_clean(a);
  EXPECT_LE(a["check_details"]["max_path_cables"].get<unsigned>(), 6u);
}

// The 8x8x8 torus above saturation under torus_adaptive: an escape VC inferred from the arrival
// VC instead of the packet's dateline crossing deadlocked here (routing/torus.cpp says why); the
// watchdog must stay quiet and every packet arrive. About 10 s.
TEST(Torus3d, AdaptiveOn8x8x8AboveSaturationDoesNotDeadlock) {
  const json j = run(config("clex/torus3d_4x4x4_uniform.yaml") +
                     " --set topology.sides=8x8x8 --set routing.algorithm=torus_adaptive --set router.vcs=4"
                     " --set traffic.source_queue=16 --set run.measure=4000cycles");
  ASSERT_TRUE(j.contains("checks"));
  expect_clean(j);
}

// All-to-all with bounded sources on a 6x6x6 torus under torus_adaptive: when an adaptive VC was
// reused as soon as the last tail had left, a packet could queue behind another that waited for
// an escape channel, and the escape channels of one z-ring closed a cycle through it (deadlock
// at cycle 6,345 here; 8x8x8 too). Adaptive VCs are now allocated only when empty
// (routing/torus.cpp). About 2 s.
TEST(Torus3d, AdaptiveAllToAllWithBoundedSourcesDoesNotDeadlock) {
  const json j = run(config("clex/torus3d_4x4x4_uniform.yaml") +
                     " --set topology.sides=6x6x6 --set routing.algorithm=torus_adaptive --set router.vcs=4"
                     " --set traffic.pattern=alltoall --set traffic.injection_rate=0.9 --set traffic.source_queue=16"
                     " --set run.measure=4000cycles");
  ASSERT_TRUE(j.contains("checks"));
  expect_clean(j);
}

INSTANTIATE_TEST_SUITE_P(K4L3, ClexSaturation,
                         ::testing::Values(ClexCase{"clex_minimal", 3, 2}, ClexCase{"clex_balanced", 4, 3}),
                         [](const auto& info) { return std::string(info.param.routing); });

// ---- the coordinate patterns on the 64-node pair (docs/clex.md): CLEX k=4, L=3 and 4x4x4 torus ----

struct PatternCase {
  const char* config;
  const char* routing;
  const char* pattern;
};

class CoordinatePatternSaturation : public ::testing::TestWithParam<PatternCase> {};

// Above saturation (0.9 offered, sources bounded to 16 packets), short: clean (every packet
// delivered exactly once, no deadlock), the senders the pattern's fixed points leave, and the
// cable metres of the layout reported.
TEST_P(CoordinatePatternSaturation, AboveSaturationIsClean) {
  const PatternCase& c = GetParam();
  const json j = run(config(c.config) + " --set routing.algorithm=" + c.routing + " --set router.vcs=4" +
                     " --set traffic.pattern=" + c.pattern +
                     " --set traffic.source_queue=16 --set run.warmup=500cycles --set run.measure=2000cycles");
  ASSERT_TRUE(j.contains("checks"));
  expect_clean(j);
  // Fixed points send nothing: transpose (x, y, z) -> (z, y, x) keeps the 16 nodes with x == z,
  // bit reversal the 8 six-bit palindromes; tornado moves every coordinate by 1.
  const unsigned senders = std::string(c.pattern) == "transpose"      ? 48
                           : std::string(c.pattern) == "bit_reversal" ? 56
                                                                      : 64;
  EXPECT_EQ(j["traffic"]["sending_nodes"], senders);
  EXPECT_GT(j["sim"]["avg_cable_m"].get<double>(), 0.0);
  // Tornado on a 4-ary torus: one hop on each axis, minimal under both routings.
  if (std::string(c.config).find("torus3d") != std::string::npos && std::string(c.pattern) == "tornado") {
    EXPECT_DOUBLE_EQ(j["sim"]["avg_flit_hops"].get<double>(), 4.0);  // 3 cables, 4 routers
  }
}

INSTANTIATE_TEST_SUITE_P(
    Pair64, CoordinatePatternSaturation,
    ::testing::Values(PatternCase{"clex/clex_4x3_saturation.yaml", "clex_minimal", "transpose"},
                      PatternCase{"clex/clex_4x3_saturation.yaml", "clex_minimal", "bit_reversal"},
                      PatternCase{"clex/clex_4x3_saturation.yaml", "clex_minimal", "tornado"},
                      PatternCase{"clex/clex_4x3_saturation.yaml", "clex_balanced", "transpose"},
                      PatternCase{"clex/clex_4x3_saturation.yaml", "clex_balanced", "bit_reversal"},
                      PatternCase{"clex/clex_4x3_saturation.yaml", "clex_balanced", "tornado"},
                      PatternCase{"clex/torus3d_4x4x4_uniform.yaml", "dor_dateline", "transpose"},
                      PatternCase{"clex/torus3d_4x4x4_uniform.yaml", "dor_dateline", "bit_reversal"},
                      PatternCase{"clex/torus3d_4x4x4_uniform.yaml", "dor_dateline", "tornado"},
                      PatternCase{"clex/torus3d_4x4x4_uniform.yaml", "torus_adaptive", "transpose"},
                      PatternCase{"clex/torus3d_4x4x4_uniform.yaml", "torus_adaptive", "bit_reversal"},
                      PatternCase{"clex/torus3d_4x4x4_uniform.yaml", "torus_adaptive", "tornado"}),
    [](const auto& info) { return std::string(info.param.routing) + "_" + info.param.pattern; });

// ---- the comparison torus: 2x2 boards, routers of the switch model ------------------------------

TEST(Torus, SaturatedAllToAllIsCleanAndReachesTheDiameter) {
  // An 8x8 torus of 2x2 boards: dimension order, dateline VCs (0 before the wrap-around, 1
  // after), no trees.
  const json j = run(config("torus_32x32_alltoall.yaml") +
                     " --set topology.global=4x4 --set run.warmup=1000cycles --set run.measure=30000cycles");
  ASSERT_TRUE(j.contains("checks"));
  expect_clean(j);
  EXPECT_EQ(j["config"]["switches"], 64);
  EXPECT_EQ(j["check_details"]["max_trees"], 0);
  EXPECT_EQ(j["check_details"]["max_vc"], 1);
  // 4 + 4 router-to-router hops: the analytical diameter (the routers are the accelerators').
  EXPECT_EQ(j["check_details"]["diameter_formula"], 8);
  EXPECT_EQ(j["check_details"]["max_path_cables"], 8);
}

// The accelerator counts router.buffer_depth credits into its own torus router; that port's input
// buffer had the switch's depth instead, so router.buffer_depth=64 above switch.buffer_depth
// overfilled it ("a flit arrived on a full VC 0", issue 22). Deep local buffers, shallow switch
// buffers, saturating all-to-all: clean.
TEST(Torus, AcceleratorCreditsMatchItsRouterPortDepth) {
  const json j = run(config("torus_32x32_alltoall.yaml") +
                     " --set topology.global=2x2 --set router.buffer_depth=64 --set switch.buffer_depth=8"
                     " --set run.warmup=1000cycles --set run.measure=10000cycles");
  ASSERT_TRUE(j.contains("checks"));
  expect_clean(j);
}

// Bit errors on every cable at 1e-4 (a 132-bit flit is hit 1.3% of the time), saturating
// all-to-all on the 4x4 Hx2Mesh: the board-to-switch and switch cables' CRC catches each error,
// go-back-N replay resends, and the scoreboard sees every packet once, intact, where it belongs.
TEST(HammingMesh, CableBitErrorsAreRecoveredByLinkLevelReplay) {
  const json j =
      run(config("hx2mesh_4x4_alltoall.yaml") +
          " --set links.global.bit_error_rate=1e-4 --set run.warmup=1000cycles --set run.measure=10000cycles");
  ASSERT_TRUE(j.contains("link_errors"));
  expect_clean(j);
  const json& e = j["link_errors"];
  EXPECT_GT(e["links"].get<uint64_t>(), 0u);
  EXPECT_GT(e["corrupted"].get<uint64_t>(), 100u);
  EXPECT_EQ(e["detected"], e["corrupted"]) << "the CRC catches every error";
  EXPECT_GT(e["replayed_flits"].get<uint64_t>(), 0u);
  EXPECT_LT(e["replay_share"].get<double>(), 0.5);
}

// ---- planes: independent networks -----------------------------------------------------------------

TEST(HammingMesh, FourPlanesAreFourIndependentNetworks) {
  // The 4x4 Hx2Mesh with its 4 planes: 4 x 16 boards' planes, 4 x 16 switches. Every packet
  // stays in its plane (a packet that changed plane would arrive at the wrong endpoint and
  // count as misrouted), and each plane carries what the one-plane system carries.
  const json one =
      run(config("hx2mesh_4x4_alltoall.yaml") + " --set run.warmup=1000cycles --set run.measure=5000cycles");
  const json four = run(config("hx2mesh_4x4_alltoall.yaml") +
                        " --set topology.planes=4 --set run.warmup=1000cycles --set run.measure=5000cycles");
  ASSERT_TRUE(four.contains("checks"));
  expect_clean(four);
  EXPECT_EQ(four["config"]["switches"], 4 * 16);
  EXPECT_EQ(four["traffic"]["sending_nodes"], 4 * 64);
  EXPECT_EQ(four["check_details"]["max_trees"], 2);
  const double a1 = one["traffic"]["accepted"].get<double>(), a4 = four["traffic"]["accepted"].get<double>();
  EXPECT_NEAR(a4, a1, 0.05 * a1);  // per port: the planes do not interact
}

// ---- a packet never leaves the plane's trees for a tied-off port: a 1-D HammingMesh ------------

TEST(HammingMesh, OneBoardRowUsesOnlyRowTrees) {
  // 4x1 boards: the column trees join one board each (its N and S edges), so a packet never
  // needs them; all traffic crosses at most one tree.
  const json j = run(config("hx2mesh_4x4_alltoall.yaml") +
                     " --set topology.global=4x1 --set run.warmup=500cycles --set run.measure=5000cycles");
  ASSERT_TRUE(j.contains("checks"));
  expect_clean(j);
  EXPECT_EQ(j["check_details"]["max_trees"], 1);
  EXPECT_EQ(j["check_details"]["max_vc"], 1);
}

}  // namespace
