// cost_model_test.cpp: the cost / diameter / bisection model (systemc/analytic) against the
// HammingMesh paper (Hoefler et al., SC22): appendix A-C's per-plane counts of switches, DAC
// and AoC cables for the small (1,024) and large (16,384) clusters, Table II's cost column
// (within 2% per entry) and diameters, the bisection formulas, the cost config's error paths
// and the shipped configs/cost_*.yaml.
//
// The topologies are written out here in code, independently of the shipped configs; a test
// checks that the configs describe the same topologies. The paper's numbers appear only as
// expected values.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "config_test_support.h"
#include "cost_config.h"
#include "cost_report.h"
#include "cost_test_support.h"
#include "topology_cost.h"

namespace hx::cost {
namespace {

using cost_test::kBase;
using cost_test::kConfigDir;

// ---- the paper's design points, written out independently of configs/ ----------------------------

TopologySpec spec(const std::string& name, uint64_t n, unsigned planes, decltype(TopologySpec::params) params) {
  TopologySpec s;
  s.name = name;
  s.target_endpoints = n;
  s.radix = 64;
  s.planes = planes;
  s.params = params;
  return s;
}

HxMeshParams hxmesh(unsigned a, uint64_t x, TreeSpan span) {
  HxMeshParams p;
  p.a = p.b = a;
  p.x = p.y = x;
  p.span = span;
  return p;
}

TorusParams torus(uint64_t x) {
  TorusParams p;
  p.x = p.y = x;
  return p;
}

// Table II's order: nonblocking FT, 50% FT, 75% FT, Dragonfly, HyperX, Hx2Mesh, Hx4Mesh, torus.
std::vector<TopologySpec> small_cluster() {
  const uint64_t n = 1024;
  return {
      spec("nonblocking FT", n, 16, FatTreeParams{}),          spec("50% tapered FT", n, 16, FatTreeParams{42, 22}),
      spec("75% tapered FT", n, 16, FatTreeParams{51, 13}),    spec("Dragonfly", n, 16, DragonflyParams{16, 8, 8, 0}),
      spec("2D HyperX", n, 4, hxmesh(1, 32, TreeSpan::Board)), spec("Hx2Mesh", n, 4, hxmesh(2, 16, TreeSpan::Board)),
      spec("Hx4Mesh", n, 4, hxmesh(4, 8, TreeSpan::Board)),    spec("2D torus", n, 4, torus(16))};
}

std::vector<TopologySpec> large_cluster() {
  const uint64_t n = 16384;
  return {spec("nonblocking FT", n, 16, FatTreeParams{}),
          spec("50% tapered FT", n, 16, FatTreeParams{42, 22}),
          spec("75% tapered FT", n, 16, FatTreeParams{51, 13}),
          spec("Dragonfly", n, 16, DragonflyParams{32, 17, 16, 30}),
          spec("2D HyperX", n, 4, hxmesh(1, 128, TreeSpan::Line)),
          spec("Hx2Mesh", n, 4, hxmesh(2, 64, TreeSpan::Line)),
          spec("Hx4Mesh", n, 4, hxmesh(4, 32, TreeSpan::Line)),
          spec("2D torus", n, 4, torus(64))};
}

struct Counts {
  uint64_t switches, dac, aoc;
};

void expect_plane(const TopologyCost& r, Counts c) {
  SCOPED_TRACE(r.name);
  EXPECT_EQ(r.per_plane.switches, c.switches);
  EXPECT_EQ(r.per_plane.dac, c.dac);
  EXPECT_EQ(r.per_plane.aoc, c.aoc);
  EXPECT_EQ(r.total.switches, c.switches * r.planes);
  EXPECT_EQ(r.total.dac, c.dac * r.planes);
  EXPECT_EQ(r.total.aoc, c.aoc * r.planes);
}

std::vector<TopologyCost> eval(const std::vector<TopologySpec>& specs) {
  std::vector<TopologyCost> out;
  for (const auto& s : specs) out.push_back(evaluate(s, Prices{}));
  return out;
}

// Table II, M$ and diameter, in the order above.
const double kSmallCost[] = {25.3, 17.6, 13.2, 27.9, 10.8, 5.4, 2.7, 2.5};
const double kLargeCost[] = {680, 419, 271, 429, 448, 224, 43.3, 39.5};
const unsigned kSmallDiameter[] = {4, 4, 4, 3, 4, 4, 8, 32};
const unsigned kLargeDiameter[] = {6, 6, 6, 5, 8, 8, 8, 128};

// ---- fat trees --------------------------------------------------------------------------------------

TEST(FatTree, SmallClusterTrees) {
  const FatTree nb = build_fat_tree(1024, 64, 32, 32);
  EXPECT_EQ(nb.level_switches, (std::vector<uint64_t>{32, 16}));
  EXPECT_EQ(nb.endpoint_ports, 1024u);
  EXPECT_EQ(nb.inter_switch_cables(), 1024u);
  const FatTree t50 = build_fat_tree(1024, 64, 42, 22);
  EXPECT_EQ(t50.level_switches, (std::vector<uint64_t>{25, 9}));
  EXPECT_EQ(t50.endpoint_ports, 1050u);
  EXPECT_EQ(t50.inter_switch_cables(), 550u);
  const FatTree t75 = build_fat_tree(1024, 64, 51, 13);
  EXPECT_EQ(t75.level_switches, (std::vector<uint64_t>{21, 5}));
  EXPECT_EQ(t75.endpoint_ports, 1071u);
  EXPECT_EQ(t75.inter_switch_cables(), 273u);
}

TEST(FatTree, LargeClusterTreesHaveThreeLevels) {
  const FatTree nb = build_fat_tree(16384, 64, 32, 32);
  EXPECT_EQ(nb.level_switches, (std::vector<uint64_t>{512, 512, 256}));
  EXPECT_EQ(nb.inter_switch_cables(), 2u * 16384);
  const FatTree t75 = build_fat_tree(16384, 64, 51, 13);
  EXPECT_EQ(t75.level_switches, (std::vector<uint64_t>{322, 131, 66}));
  EXPECT_EQ(t75.switches(), 519u);  // the appendix's "8,304 switches" is 519 x 16 planes
  EXPECT_EQ(t75.switches() * 16, 8304u);
  EXPECT_EQ(t75.inter_switch_cables(), 8372u);
  EXPECT_EQ(t75.endpoint_ports, 16422u);
  // The ceil rule: 391 leaves. The appendix's 390 (794 switches, 17,160 AoC, 16,380 DAC) would
  // attach 4 endpoints fewer than the 16,384 asked.
  const FatTree t50 = build_fat_tree(16384, 64, 42, 22);
  EXPECT_EQ(t50.level_switches, (std::vector<uint64_t>{391, 269, 135}));
  EXPECT_EQ(t50.switches(), 795u);
  EXPECT_EQ(t50.inter_switch_cables(), 17204u);
  EXPECT_EQ(t50.endpoint_ports, 16422u);
  const FatTree appendix = build_fat_tree(16380, 64, 42, 22);
  EXPECT_EQ(appendix.switches(), 794u);
  EXPECT_EQ(appendix.inter_switch_cables(), 17160u);
  EXPECT_EQ(appendix.endpoint_ports, 16380u);
}

TEST(FatTree, HammingMeshTrees) {
  EXPECT_EQ(build_fat_tree(64, 64, 32, 32).switches(), 1u);  // fits one switch
  EXPECT_EQ(build_fat_tree(128, 64, 32, 32).level_switches, (std::vector<uint64_t>{4, 2}));
  EXPECT_EQ(build_fat_tree(256, 64, 32, 32).level_switches, (std::vector<uint64_t>{8, 4}));
  EXPECT_EQ(build_fat_tree(256, 64, 32, 32).inter_switch_cables(), 256u);
}

TEST(FatTree, StructuralDiameterEqualsSectionIIIBFormula) {
  for (unsigned k : {4u, 8u, 16u, 36u, 48u, 64u, 128u}) {
    for (uint64_t q = 1; q < 300000; q = q * 3 / 2 + 1) {
      SCOPED_TRACE("k=" + std::to_string(k) + " q=" + std::to_string(q));
      EXPECT_EQ(build_fat_tree(q, k, k / 2, k / 2).diameter(), fat_tree_diameter_formula(q, k));
    }
  }
  // 2 (ceil(log_32(1024 / 64)) + 1) = 4; 2 (ceil(log_32(16384 / 64)) + 1) = 6.
  EXPECT_EQ(fat_tree_diameter_formula(1024, 64), 4u);
  EXPECT_EQ(fat_tree_diameter_formula(16384, 64), 6u);
  EXPECT_EQ(fat_tree_diameter_formula(64, 64), 2u);
  EXPECT_EQ(fat_tree_diameter_formula(65, 64), 4u);
  EXPECT_EQ(fat_tree_diameter_formula(2048, 64), 4u);
  EXPECT_EQ(fat_tree_diameter_formula(2049, 64), 6u);
}

TEST(FatTree, RejectsImpossibleShapes) {
  EXPECT_THROW(build_fat_tree(100, 63, 31, 32), std::invalid_argument);
  EXPECT_THROW(build_fat_tree(100, 64, 40, 30), std::invalid_argument);
  EXPECT_THROW(build_fat_tree(100, 64, 0, 30), std::invalid_argument);
  EXPECT_THROW(build_fat_tree(0, 64, 32, 32), std::invalid_argument);
}

// ---- appendix A-C: counts per plane ------------------------------------------------------------------

TEST(SmallCluster, AppendixCountsPerPlane) {
  const auto r = eval(small_cluster());
  expect_plane(r[0], {48, 1024, 1024});
  expect_plane(r[1], {34, 1050, 550});
  expect_plane(r[2], {26, 1071, 273});
  expect_plane(r[3], {64, 1920, 512});
  expect_plane(r[4], {64, 2048, 2048});
  expect_plane(r[5], {32, 1024, 1024});
  expect_plane(r[6], {16, 512, 512});
  expect_plane(r[7], {0, 0, 1024});  // priced as AoC by default (Table II)
  // Appendix totals: 768, 544 and 416 fat-tree switches; 256, 128, 64 HxMesh switches; 4,096
  // torus cables.
  EXPECT_EQ(r[0].total.switches, 768u);
  EXPECT_EQ(r[1].total.switches, 544u);
  EXPECT_EQ(r[2].total.switches, 416u);
  EXPECT_EQ(r[4].total.switches, 256u);
  EXPECT_EQ(r[5].total.switches, 128u);
  EXPECT_EQ(r[6].total.switches, 64u);
  EXPECT_EQ(r[7].total.aoc, 4096u);
  EXPECT_EQ(r[1].endpoints, 1050u);
  EXPECT_EQ(r[2].endpoints, 1071u);
  for (size_t i : {0u, 3u, 4u, 5u, 6u, 7u}) EXPECT_EQ(r[i].endpoints, 1024u) << r[i].name;
}

TEST(LargeCluster, AppendixCountsPerPlane) {
  const auto r = eval(large_cluster());
  expect_plane(r[0], {1280, 16384, 32768});
  expect_plane(r[1], {795, 16422, 17204});
  expect_plane(r[2], {519, 16422, 8372});
  expect_plane(r[3], {960, 31200, 7680});
  expect_plane(r[4], {3072, 32768, 32768 + 65536});
  expect_plane(r[5], {1536, 16384, 49152});
  expect_plane(r[6], {256, 8192, 8192});
  expect_plane(r[7], {0, 0, 16384});
  EXPECT_EQ(r[3].endpoints, 16320u);       // 30 groups of 32 x 17
  EXPECT_EQ(r[4].total.switches, 12288u);  // not the appendix's 24,576
  EXPECT_EQ(r[5].total.switches, 6144u);
  EXPECT_EQ(r[6].total.switches, 1024u);
  EXPECT_EQ(r[7].total.aoc, 65536u);
}

TEST(LargeCluster, DragonflyGroupsDefaultToTheCeilRule) {
  TopologySpec s = large_cluster()[3];
  std::get<DragonflyParams>(s.params).groups = 0;
  const TopologyCost r = evaluate(s, Prices{});
  EXPECT_EQ(r.structure.front(), (std::pair<std::string, uint64_t>{"groups", 31}));
  EXPECT_EQ(r.endpoints, 31u * 32 * 17);
  EXPECT_EQ(r.per_plane.switches, 992u);
}

// ---- Table II: cost and diameter ----------------------------------------------------------------

TEST(TableII, SmallClusterCostWithinTwoPercent) {
  const auto r = eval(small_cluster());
  for (size_t i = 0; i < r.size(); ++i)
    EXPECT_LT(std::fabs(r[i].cost_usd / 1e6 / kSmallCost[i] - 1), 0.02)
        << r[i].name << ": " << r[i].cost_usd / 1e6 << " M$ vs Table II " << kSmallCost[i];
}

TEST(TableII, LargeClusterCostWithinTwoPercent) {
  const auto r = eval(large_cluster());
  for (size_t i = 0; i < r.size(); ++i)
    EXPECT_LT(std::fabs(r[i].cost_usd / 1e6 / kLargeCost[i] - 1), 0.02)
        << r[i].name << ": " << r[i].cost_usd / 1e6 << " M$ vs Table II " << kLargeCost[i];
}

TEST(TableII, ExactDollars) {
  // The arithmetic behind the table, to the dollar.
  const auto s = eval(small_cluster());
  EXPECT_EQ(s[0].cost_usd, 25303040);
  EXPECT_EQ(s[1].cost_usd, 17644320);  // 16 (34 x 14280 + 550 x 603 + 1050 x 272)
  EXPECT_EQ(s[3].cost_usd, 27918336);
  EXPECT_EQ(s[5].cost_usd, 5411840);
  EXPECT_EQ(s[7].cost_usd, 4096 * 603);
  const auto l = eval(large_cluster());
  EXPECT_EQ(l[1].cost_usd, 16.0 * (795 * 14280 + 17204 * 603 + 16422 * 272));
  EXPECT_EQ(l[4].cost_usd, 448233472);
  EXPECT_EQ(l[6].cost_usd, 43294720);
}

TEST(TableII, TorusPricedAsDacWouldMissTableII) {
  // Appendix A-C says the torus uses DAC; Table II's $2.5M / $39.5M only follow with AoC prices.
  TopologySpec s = small_cluster()[7];
  std::get<TorusParams>(s.params).cable = Cable::Dac;
  const TopologyCost small = evaluate(s, Prices{});
  EXPECT_EQ(small.total.dac, 4096u);
  EXPECT_NEAR(small.cost_usd / 1e6, 1.114, 0.001);
  TopologySpec l = large_cluster()[7];
  std::get<TorusParams>(l.params).cable = Cable::Dac;
  EXPECT_NEAR(evaluate(l, Prices{}).cost_usd / 1e6, 17.83, 0.01);
}

TEST(TableII, Diameters) {
  const auto s = eval(small_cluster());
  const auto l = eval(large_cluster());
  for (size_t i = 0; i < s.size(); ++i) {
    if (i == 3 || i == 6) continue;  // the small Dragonfly and Hx4Mesh, below
    EXPECT_EQ(s[i].diameter, kSmallDiameter[i]) << s[i].name;
  }
  for (size_t i = 0; i < l.size(); ++i) EXPECT_EQ(l[i].diameter, kLargeDiameter[i]) << l[i].name;
  // Table II gives 3 for the small Dragonfly. Counting cables, a switch's 16 global ports reach
  // every one of the 7 other groups but not all 56 of their switches: endpoint, global, local,
  // endpoint = 4. (3 is the router-to-router diameter local-global-local without endpoints.)
  EXPECT_EQ(s[3].diameter, 4u);
  // Table II gives 8 for the small Hx4Mesh, section III-B's formula, which counts a move on the
  // intermediate board to the destination's column. Its trees span the boards (one 64-port
  // switch per board row and column), which deliver on the destination's line anyway: the
  // longest minimal path is 1 + 1 + 1 board hops and 2 + 2 tree cables = 7.
  EXPECT_EQ(s[6].diameter, 7u);
}

TEST(TableII, HammingMeshDiameterFormula) {
  // 2 (floor((a-1)/2) + floor((b-1)/2)) + 2 (ceil(log_32(q_x / 64)) + 1) + the same for y, with
  // span line; with span board the intermediate board's move to the destination's column is
  // not needed: 3 floor((a-1)/2) on square boards.
  for (unsigned a : {1u, 2u, 3u, 4u, 5u, 8u}) {
    for (uint64_t x : {2u, 8u, 32u, 33u, 64u, 128u, 2048u}) {
      for (TreeSpan span : {TreeSpan::Line, TreeSpan::Board}) {
        const TopologyCost r = evaluate(spec("h", a * a * x * x, 4, hxmesh(a, x, span)), Prices{});
        const uint64_t q = span == TreeSpan::Line ? 2 * x : 2 * a * x;
        const unsigned board_hops = (span == TreeSpan::Line ? 4 : 3) * ((a - 1) / 2);
        EXPECT_EQ(r.diameter, board_hops + 2 * fat_tree_diameter_formula(q, 64))
            << "a=" << a << " x=" << x << " span=" << tree_span_name(span);
      }
    }
  }
}

// ---- Dragonfly diameter tiers -----------------------------------------------------------------------

TEST(Dragonfly, DiameterFollowsTheGlobalReach) {
  // 2 groups of 4 routers, 2 per switch, h = 8: a switch's 16 global ports reach both switches
  // of the other group: endpoint, global, endpoint.
  EXPECT_EQ(evaluate(spec("df", 16, 1, DragonflyParams{4, 2, 8, 2}), Prices{}).diameter, 3u);
  // One group of several switches: endpoint, local, endpoint.
  EXPECT_EQ(evaluate(spec("df", 128, 1, DragonflyParams{16, 8, 8, 1}), Prices{}).diameter, 3u);
  // The large cluster: 16 global ports, 29 other groups.
  EXPECT_EQ(evaluate(large_cluster()[3], Prices{}).diameter, 5u);
  // A group on one switch: local hops are internal.
  EXPECT_EQ(evaluate(spec("df", 8, 1, DragonflyParams{2, 4, 2, 1}), Prices{}).diameter, 2u);
}

TEST(Dragonfly, RejectsARouterThatDoesNotFitTheSwitch) {
  EXPECT_THROW(evaluate(spec("df", 1024, 16, DragonflyParams{16, 8, 42, 0}), Prices{}), std::invalid_argument);
  EXPECT_THROW(evaluate(spec("df", 100000, 16, DragonflyParams{4, 4, 2, 0}), Prices{}), std::invalid_argument);
}

// ---- bisection ------------------------------------------------------------------------------------

TEST(Bisection, FatTrees) {
  const auto s = eval(small_cluster());
  EXPECT_DOUBLE_EQ(s[0].relative_bisection, 1.0);
  EXPECT_DOUBLE_EQ(s[1].relative_bisection, 22.0 / 42);
  EXPECT_DOUBLE_EQ(s[2].relative_bisection, 13.0 / 51);
  const auto l = eval(large_cluster());
  EXPECT_DOUBLE_EQ(l[0].relative_bisection, 1.0);
  EXPECT_DOUBLE_EQ(l[2].relative_bisection, 13.0 / 51);
}

TEST(Bisection, HammingMeshIsOneOverTwoA) {
  for (unsigned a : {1u, 2u, 4u, 8u})
    EXPECT_DOUBLE_EQ(evaluate(spec("h", 4096, 4, hxmesh(a, 16, TreeSpan::Line)), Prices{}).relative_bisection,
                     1.0 / (2 * a));
  // Rectangular boards: 1 / (2 max(a, b)); the cut crosses the trees of the shorter board side.
  HxMeshParams p = hxmesh(2, 8, TreeSpan::Line);
  p.b = 4;
  const TopologyCost r = evaluate(spec("h", 512, 4, p), Prices{});
  EXPECT_DOUBLE_EQ(r.relative_bisection, 1.0 / 8);
  EXPECT_DOUBLE_EQ(r.bisection_cut_links, 2.0 * 8 * 8);  // x y a
  // Tapered trees carry up/down of their half.
  HxMeshParams t = hxmesh(1, 128, TreeSpan::Line);
  t.tree_down = 48;
  t.tree_up = 16;
  EXPECT_DOUBLE_EQ(evaluate(spec("h", 16384, 4, t), Prices{}).relative_bisection, 0.5 / 3);
}

TEST(Bisection, TorusAndDragonfly) {
  const auto s = eval(small_cluster());
  const auto l = eval(large_cluster());
  EXPECT_DOUBLE_EQ(s[7].relative_bisection, 1.0 / 32);  // 2 x 32 links over 512 x 4
  EXPECT_DOUBLE_EQ(l[7].relative_bisection, 1.0 / 128);
  // 4 x 4 group pairs x 128 / 7 global links over 512 endpoints; large: 15 x 15 x 512 / 29 over 8,160.
  EXPECT_DOUBLE_EQ(s[3].relative_bisection, 16.0 * 128 / 7 / 512);
  EXPECT_DOUBLE_EQ(l[3].relative_bisection, 225.0 * 512 / 29 / 8160);
}

TEST(Geometry, SquareGlobalSize) {
  EXPECT_EQ(square_global(1024, 2, 2), (std::pair<uint64_t, uint64_t>{16, 16}));
  EXPECT_EQ(square_global(16384, 4, 4), (std::pair<uint64_t, uint64_t>{32, 32}));
  EXPECT_EQ(square_global(16384, 1, 1), (std::pair<uint64_t, uint64_t>{128, 128}));
  EXPECT_EQ(square_global(1000, 2, 2), (std::pair<uint64_t, uint64_t>{16, 16}));
  EXPECT_EQ(square_global(200, 1, 1), (std::pair<uint64_t, uint64_t>{15, 14}));
  EXPECT_EQ(square_global(1, 4, 4), (std::pair<uint64_t, uint64_t>{1, 1}));
  // A HammingMesh without `global` takes the square layout.
  HxMeshParams p = hxmesh(2, 0, TreeSpan::Line);
  const TopologyCost r = evaluate(spec("h", 16384, 4, p), Prices{});
  EXPECT_EQ(r.endpoints, 16384u);
  EXPECT_EQ(r.per_plane.switches, 1536u);
}

TEST(Prices, AreParameters) {
  Prices p;
  p.switch_usd = 1000;
  p.aoc_usd = 10;
  p.dac_usd = 1;
  const TopologyCost r = evaluate(small_cluster()[0], p);
  EXPECT_EQ(r.cost_usd, 16.0 * (48 * 1000 + 1024 * 10 + 1024 * 1));
}

// ---- the cost config ------------------------------------------------------------------------------

CostConfig load_ok(const std::string& yaml) {
  try {
    return load_cost_config_text(yaml, "t.yaml");
  } catch (const ConfigError& e) {
    ADD_FAILURE() << "unexpected error: " << e.what();
    throw;
  }
}

ConfigError error_of(const std::string& yaml, const std::vector<std::string>& overrides = {}) {
  return test::config_error_of([&] { load_cost_config_text(yaml, "t.yaml", overrides); }, yaml);
}

TEST(CostConfig, MinimalConfigTakesTheDefaults) {
  const CostConfig c = load_ok(kBase);
  EXPECT_EQ(c.name, "t");
  EXPECT_EQ(c.radix, 64u);
  EXPECT_EQ(c.endpoint_ports, 16u);
  EXPECT_EQ(c.prices.switch_usd, 14280);
  EXPECT_EQ(c.prices.aoc_usd, 603);
  EXPECT_EQ(c.prices.dac_usd, 272);
  ASSERT_EQ(c.topologies.size(), 1u);
  EXPECT_EQ(c.topologies[0].spec.planes, 16u);
  EXPECT_EQ(c.topologies[0].spec.kind(), Kind::FatTree);
}

TEST(CostConfig, PlanesFollowTheEndpointPorts) {
  const CostConfig c = load_ok(kBase + "  - {name: hx, kind: hammingmesh, board: 2x2}\n  - {name: t, kind: torus}\n");
  EXPECT_EQ(c.topologies[1].spec.planes, 4u);
  EXPECT_EQ(c.topologies[2].spec.planes, 4u);
  EXPECT_EQ(std::get<TorusParams>(c.topologies[2].spec.params).a, 2u);
  const ConfigError e =
      error_of("cluster: {endpoints: 64, endpoint_ports: 6}\ntopologies:\n  - {name: t, kind: torus}\n");
  EXPECT_CONFIG_ERROR(e, 3, 5, "topologies[0].planes",
                      "key 'planes' (a plane count: cluster.endpoint_ports 6 is not a "
                      "multiple of the 4 ports a torus plane takes)",
                      "a map with keys name, kind");
}

TEST(CostConfig, UnknownKeyInATopology) {
  const ConfigError e = error_of(kBase + "    leaf_dwn: 42\n");
  EXPECT_CONFIG_ERROR(e, 6, 5, "topologies[0].leaf_dwn",
                      "one of name, kind, radix, planes, paper, baseline, leaf_down, leaf_up", "'leaf_dwn'");
  EXPECT_EQ(e.problem(), "unknown key");
  EXPECT_EQ(e.hint(), "did you mean 'leaf_down'?");
}

TEST(CostConfig, KeyOfAnotherKind) {
  const ConfigError e = error_of(kBase + "    board: 2x2\n");
  EXPECT_EQ(e.key_path(), "topologies[0].board");
  EXPECT_EQ(e.hint(), "'board' is a key of hammingmesh topologies, not of fat_tree");
}

TEST(CostConfig, UnknownTopLevelKey) {
  const ConfigError e = error_of(kBase + "price:\n  switch: 1\n");
  EXPECT_EQ(e.line(), 6);
  EXPECT_EQ(e.key_path(), "price");
  EXPECT_EQ(e.hint(), "did you mean 'prices'?");
}

TEST(CostConfig, BadTypes) {
  EXPECT_CONFIG_ERROR(error_of(kBase + "    leaf_down: \"42\"\n    leaf_up: 22\n"), 6, 16, "topologies[0].leaf_down",
                      "an integer in 1..63", "'42'");
  EXPECT_CONFIG_ERROR(error_of("cluster:\n  endpoints: many\ntopologies: []\n"), 2, 14, "cluster.endpoints",
                      "an integer in 1..2^40", "'many'");
  EXPECT_CONFIG_ERROR(error_of("cluster:\n  endpoints: 8\ntopologies: {ft: 1}\n"), 3, 13, "topologies",
                      "a non-empty list of topologies (maps with name, kind, ...)", "a map");
  EXPECT_CONFIG_ERROR(error_of("cluster:\n  endpoints: 8\ntopologies: []\n"), 3, 13, "topologies",
                      "a non-empty list of topologies (maps with name, kind, ...)", "an empty list");
  EXPECT_CONFIG_ERROR(error_of(kBase + "  - fat_tree\n"), 6, 5, "topologies[1]",
                      "a map describing one topology, with keys name, kind and its parameters", "'fat_tree'");
  EXPECT_CONFIG_ERROR(error_of(kBase + "prices: {aoc: cheap}\n"), 6, 15, "prices.aoc", "a number in [0, 1000000000]",
                      "'cheap'");
  const ConfigError kind = error_of("cluster: {endpoints: 8}\ntopologies:\n  - {name: x, kind: fattree}\n");
  EXPECT_EQ(kind.key_path(), "topologies[0].kind");
  EXPECT_EQ(kind.hint(), "did you mean 'fat_tree'?");
}

TEST(CostConfig, OutOfRange) {
  // Odd radix.
  EXPECT_CONFIG_ERROR(error_of("cluster:\n  endpoints: 8\n  radix: 63\n" + kBase.substr(kBase.find("topologies"))), 3,
                      10, "cluster.radix", "an even integer in 4..4096", "'63'");
  // Leaf ports that do not fit the switch.
  EXPECT_CONFIG_ERROR(error_of(kBase + "    leaf_down: 42\n    leaf_up: 23\n"), 7, 14, "topologies[0].leaf_up",
                      "an integer in 1..22 (leaf_down + leaf_up <= radix 64)", "'23'");
  // A board side of 0.
  EXPECT_CONFIG_ERROR(error_of(kBase + "  - {name: hx, kind: hammingmesh, board: 0x2}\n"), 6, 42, "topologies[1].board",
                      "a board a by b such as '16x16' or [16, 16], each side 1..1024", "'0x2'");
  // One board is no HammingMesh.
  EXPECT_CONFIG_ERROR(error_of(kBase + "  - {name: hx, kind: hammingmesh, board: 2x2, global: 1x1}\n"), 6, 55,
                      "topologies[1].global", "at least two boards (x y >= 2)", "'1x1'");
  // Paper cost must be positive.
  EXPECT_CONFIG_ERROR(error_of(kBase + "    paper: {cost_musd: 0}\n"), 6, 24, "topologies[0].paper.cost_musd",
                      "a number in (0, 1000000000]", "'0'");
}

TEST(CostConfig, DragonflyRouterMustFitTheRadix) {
  const std::string df = "  - name: df\n    kind: dragonfly\n    a: 16\n    p: 8\n";  // lines 6-9
  EXPECT_CONFIG_ERROR(error_of(kBase + df + "    h: 42\n"), 10, 8, "topologies[1].h",
                      "an integer in 1..41 (a virtual router of p + a - 1 + h = 8 + 15 + h ports must fit the 64-port "
                      "switch)",
                      "'42'");
  const ConfigError big = error_of(kBase + "  - {name: df, kind: dragonfly, a: 40, p: 30, h: 1}\n");
  EXPECT_EQ(big.key_path(), "topologies[1]");
  EXPECT_EQ(big.found(), "p + a - 1 = 69 ports before any global link");
  // A smaller switch radix for this topology only: p + a - 1 = 23 ports already exceed 16.
  EXPECT_EQ(error_of(kBase + df + "    h: 8\n    radix: 16\n").key_path(), "topologies[1]");
  // More groups than a h + 1.
  const ConfigError groups = error_of(kBase + df + "    h: 8\n    groups: 130\n");
  EXPECT_EQ(groups.key_path(), "topologies[1].groups");
  EXPECT_EQ(groups.line(), 11);
  EXPECT_NE(groups.expected().find("1..129"), std::string::npos) << groups.what();
  const ConfigError derived = error_of("cluster: {endpoints: 100000}\ntopologies:\n" + df.substr(0) + "    h: 8\n");
  EXPECT_EQ(derived.key_path(), "topologies[0]");
  EXPECT_EQ(derived.found(), "ceil(100000 / (a p = 128)) = 782 groups for cluster.endpoints");
}

TEST(CostConfig, MissingAndPairedKeys) {
  EXPECT_CONFIG_ERROR(error_of("cluster: {endpoints: 8}\ntopologies:\n  - {name: x}\n"), 3, 5, "topologies[0].kind",
                      "key 'kind' (one of fat_tree, dragonfly, hammingmesh, hyperx, torus, rail_optimized, rail_only)",
                      "a map with keys name");
  const ConfigError half = error_of(kBase + "    leaf_down: 42\n");
  EXPECT_EQ(half.key_path(), "topologies[0].leaf_up");
  EXPECT_EQ(half.problem(), "missing required key");
  EXPECT_EQ(error_of("topologies: []\n").key_path(), "cluster");
  EXPECT_EQ(error_of(kBase + "  - {name: hx, kind: hammingmesh}\n").key_path(), "topologies[1].board");
}

TEST(CostConfig, DuplicateNamesAndKeys) {
  const ConfigError name = error_of(kBase + "  - name: ft\n    kind: torus\n");
  EXPECT_CONFIG_ERROR(name, 6, 11, "topologies[1].name", "a name used by one topology only", "'ft' again");
  EXPECT_EQ(name.hint(), "first at topologies[0]");
  const ConfigError key = error_of(kBase + "    kind: torus\n");
  EXPECT_EQ(key.problem(), "duplicate key");
  EXPECT_EQ(key.line(), 6);
  EXPECT_EQ(key.hint(), "first at line 5, column 5");
}

TEST(CostConfig, OverridesApply) {
  const CostConfig c = load_cost_config_text(kBase, "t.yaml", {"prices.switch=1000", "cluster.radix=32"});
  EXPECT_EQ(c.prices.switch_usd, 1000);
  EXPECT_EQ(c.topologies[0].spec.radix, 32u);
  const ConfigError e = error_of(kBase, {"prices.swich=1"});
  EXPECT_EQ(e.origin().file, "--set prices.swich=1");
  EXPECT_EQ(e.hint(), "did you mean 'switch'?");
}

TEST(CostConfig, HyperXIsHx1Mesh) {
  const CostConfig c = load_ok(kBase + "  - {name: hx, kind: hyperx, global: [32, 32]}\n");
  const auto& p = std::get<HxMeshParams>(c.topologies[1].spec.params);
  EXPECT_EQ(p.a, 1u);
  EXPECT_EQ(p.b, 1u);
  EXPECT_EQ(p.x, 32u);
  EXPECT_EQ(c.topologies[1].kind_text, "hyperx");
  EXPECT_EQ(error_of(kBase + "  - {name: hx, kind: hyperx, board: 2x2}\n").key_path(), "topologies[1].board");
}

// ---- shipped configs -------------------------------------------------------------------------------

void expect_same_as_code(const std::string& file, const std::vector<TopologySpec>& specs, const double* cost,
                         const unsigned* diameter) {
  const CostConfig c = load_cost_config(kConfigDir + "/" + file);
  EXPECT_EQ(c.name, std::filesystem::path(file).stem().string());
  EXPECT_FALSE(c.description.empty());
  ASSERT_EQ(c.topologies.size(), specs.size());
  const auto from_config = evaluate_all(c);
  const auto from_code = eval(specs);
  for (size_t i = 0; i < specs.size(); ++i) {
    SCOPED_TRACE(file + ": " + specs[i].name);
    EXPECT_EQ(c.topologies[i].spec.name, specs[i].name);
    EXPECT_EQ(from_config[i].endpoints, from_code[i].endpoints);
    EXPECT_EQ(from_config[i].planes, from_code[i].planes);
    EXPECT_EQ(from_config[i].per_plane.switches, from_code[i].per_plane.switches);
    EXPECT_EQ(from_config[i].per_plane.dac, from_code[i].per_plane.dac);
    EXPECT_EQ(from_config[i].per_plane.aoc, from_code[i].per_plane.aoc);
    EXPECT_EQ(from_config[i].cost_usd, from_code[i].cost_usd);
    EXPECT_EQ(from_config[i].diameter, from_code[i].diameter);
    // The configs record Table II for the report.
    ASSERT_TRUE(c.topologies[i].paper.has_cost);
    EXPECT_EQ(c.topologies[i].paper.cost_musd, cost[i]);
    EXPECT_EQ(c.topologies[i].paper.diameter, diameter[i]);
  }
}

TEST(ShippedCostConfigs, SmallDescribesTableII) {
  expect_same_as_code("cost_small.yaml", small_cluster(), kSmallCost, kSmallDiameter);
}

TEST(ShippedCostConfigs, LargeDescribesTableII) {
  expect_same_as_code("cost_large.yaml", large_cluster(), kLargeCost, kLargeDiameter);
}

TEST(ShippedCostConfigs, JsonCarriesThePaperDeviation) {
  const CostConfig c = load_cost_config(kConfigDir + "/cost_small.yaml");
  const auto j = cost_json(c, evaluate_all(c));
  EXPECT_EQ(j["hxsim"]["command"], "cost");
  ASSERT_EQ(j["topologies"].size(), 8u);
  for (const auto& t : j["topologies"]) {
    SCOPED_TRACE(t["name"].get<std::string>());
    EXPECT_LT(std::fabs(t["paper"]["cost_deviation"].get<double>()), 0.02);
    EXPECT_NEAR(t["total"]["cost_usd"].get<double>(),
                t["per_plane"]["cost_usd"].get<double>() * t["planes"].get<double>(), 1e-6);
  }
  EXPECT_EQ(j["topologies"][3]["paper"]["diameter_matches"], false);  // the small Dragonfly
  EXPECT_EQ(j["topologies"][0]["structure"]["level2_switches"], 16);
}

TEST(ShippedCostConfigs, DocsDescribeEveryKey) {
  std::ifstream in(HX_DOCS_DIR "/cost.md");
  ASSERT_TRUE(in) << HX_DOCS_DIR "/cost.md";
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string docs = ss.str();
  // Top-level keys by path (`cluster.radix`, or a section as the prefix of one), a topology's
  // keys by name (`leaf_down`).
  const std::string element = "topologies[].";
  for (std::string k : cost_config_keys()) {
    if (k.compare(0, element.size(), element) == 0) k = k.substr(k.find_last_of('.') + 1);
    const bool found = docs.find("`" + k + "`") != std::string::npos || docs.find("`" + k + ".") != std::string::npos;
    EXPECT_TRUE(found) << k << " is not in docs/cost.md";
  }
}

}  // namespace
}  // namespace hx::cost
