// rail_cost_test.cpp: switches, transceivers and network cost of rail-optimized and rail-only
// GPU clusters (systemc/analytic, kinds rail_optimized and rail_only) against Table 2 of Wang et
// al., "How to Build Low-cost Networks for Large Language Models (without Sacrificing
// Performance)?", section 6.5, and the configs/rail/table2_*.yaml configs that describe it.
//
// The expected cells are Table 2's printed numbers, typed from the paper; the designs are written
// out here in code (N, K = 256, radix), independently of the configs.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "config_test_support.h"
#include "cost_config.h"
#include "cost_report.h"
#include "topology_cost.h"

namespace hx::cost {
namespace {

const std::string kConfigDir = HX_CONFIG_DIR;

// Table 2, one row per line: N, switch radix, SOTA #SW, rail-only #SW, SOTA #TR, rail-only #TR,
// cost reduction (printed, whole percent).
struct Row {
  uint64_t n;
  unsigned radix;
  uint64_t sota_switches, rail_switches, sota_transceivers, rail_transceivers;
  unsigned reduction_percent;
};
const std::vector<Row> kTable2 = {
    {32768, 64, 2560, 1536, 196608, 131072, 37},  {32768, 128, 1280, 256, 196608, 65536, 75},
    {32768, 256, 384, 128, 131072, 65536, 60},    {65536, 64, 5120, 3072, 393216, 262144, 37},
    {65536, 128, 2560, 1536, 393216, 262144, 37}, {65536, 256, 1280, 256, 393216, 131072, 75},
};

// Section 6.5, footnote 1: $374 per transceiver, $748 per 400 Gb/s switch port.
Prices paper_prices() {
  Prices p;
  p.switch_usd = 0;
  p.transceiver_usd = 374;
  p.switch_port_usd = 748;
  return p;
}

TopologySpec rail_spec(uint64_t n, unsigned radix, bool rail_only) {
  TopologySpec s;
  s.name = rail_only ? "rail-only" : "rail-optimized";
  s.target_endpoints = n;
  s.radix = radix;
  s.planes = 1;
  if (rail_only)
    s.params = RailOnlyParams{256};
  else
    s.params = RailOptimizedParams{256};
  return s;
}

TEST(RailCost, ReproducesEveryCellOfTable2) {
  for (const Row& row : kTable2) {
    SCOPED_TRACE("N " + std::to_string(row.n) + ", radix " + std::to_string(row.radix));
    const TopologyCost sota = evaluate(rail_spec(row.n, row.radix, false), paper_prices());
    const TopologyCost rail = evaluate(rail_spec(row.n, row.radix, true), paper_prices());
    EXPECT_EQ(sota.total.switches, row.sota_switches);
    EXPECT_EQ(rail.total.switches, row.rail_switches);
    EXPECT_EQ(sota.total.transceivers, row.sota_transceivers);
    EXPECT_EQ(rail.total.transceivers, row.rail_transceivers);
    EXPECT_EQ(printed_percent(cost_reduction(rail, sota)), row.reduction_percent);
  }
}

TEST(RailCost, CostIsTransceiversAndSwitchPorts) {
  // N = 32768, radix 256: SOTA is two tiers (3N/k = 384 switches, 2 x 2N = 131072
  // transceivers), rail-only one tier (N/k = 128 switches, 2N = 65536 transceivers).
  // SOTA: 374 x 131072 + 748 x 256 x 384 = 49,020,928 + 73,531,392 = 122,552,320 $.
  // Rail-only: 374 x 65536 + 748 x 256 x 128 = 24,510,464 + 24,510,464 = 49,020,928 $.
  // Reduction 1 - 49,020,928 / 122,552,320 = 0.6 exactly.
  const TopologyCost sota = evaluate(rail_spec(32768, 256, false), paper_prices());
  const TopologyCost rail = evaluate(rail_spec(32768, 256, true), paper_prices());
  EXPECT_DOUBLE_EQ(sota.cost_usd, 122552320.0);
  EXPECT_DOUBLE_EQ(rail.cost_usd, 49020928.0);
  EXPECT_NEAR(cost_reduction(rail, sota), 0.6, 1e-12);
  // 37.5% (three tiers against two: 1 - (3 x 748 + 4 x 374) / (5 x 748 + 6 x 374)) prints 37.
  EXPECT_EQ(printed_percent(0.375), 37u);
}

TEST(RailCost, TiersFollowTheRadix) {
  // One tier up to k endpoints, two up to k^2/2, three up to k^3/4.
  EXPECT_EQ(clos_tiers(64, 64), 1u);
  EXPECT_EQ(clos_tiers(65, 64), 2u);
  EXPECT_EQ(clos_tiers(2048, 64), 2u);
  EXPECT_EQ(clos_tiers(2049, 64), 3u);
  EXPECT_EQ(clos_tiers(65536, 64), 3u);
  EXPECT_EQ(clos_tiers(32768, 256), 2u);
}

TEST(RailCost, AnyNKAndRadix) {
  // N = 1024 in DGX-like domains of K = 8, radix 64: 8 rails of 128 NICs, each a two-tier Clos
  // of 128/32 = 4 leaves and 128/64 = 2 spines: 8 x 6 = 48 switches; links 1024 NIC + 8 x 128
  // leaf-spine, 4096 transceivers. Rail-optimized: one Clos of 1024: 32 leaves + 16 spines = 48
  // switches too, and the same 2 x 2N transceivers: a two-tier rail Clos saves nothing here.
  const TopologyCost rail = evaluate(
      [] {
        TopologySpec s = rail_spec(1024, 64, true);
        s.params = RailOnlyParams{8};
        return s;
      }(),
      paper_prices());
  EXPECT_EQ(rail.total.switches, 48u);
  EXPECT_EQ(rail.total.transceivers, 4096u);
  // K = 1: one rail, the rail-only network is the rail-optimized one.
  TopologySpec one = rail_spec(4096, 64, true);
  one.params = RailOnlyParams{1};
  TopologySpec full = rail_spec(4096, 64, false);
  EXPECT_EQ(evaluate(one, paper_prices()).total.switches, evaluate(full, paper_prices()).total.switches);
  EXPECT_THROW(evaluate(rail_spec(1000, 64, true), paper_prices()), std::invalid_argument);  // 256 does not divide
}

TEST(RailCost, ShippedConfigsDescribeTable2) {
  for (const uint64_t n : {32768u, 65536u}) {
    const std::string file = "rail/table2_n" + std::to_string(n) + ".yaml";
    SCOPED_TRACE(file);
    const CostConfig c = load_cost_config(kConfigDir + "/" + file);
    const std::vector<TopologyCost> r = evaluate_all(c);
    ASSERT_EQ(r.size(), 6u);
    const auto j = cost_json(c, r);
    size_t row = 0;
    for (const Row& want : kTable2) {
      if (want.n != n) continue;
      const TopologyCost sota = evaluate(rail_spec(n, want.radix, false), paper_prices());
      const TopologyCost rail = evaluate(rail_spec(n, want.radix, true), paper_prices());
      EXPECT_EQ(r[2 * row].cost_usd, sota.cost_usd);
      EXPECT_EQ(r[2 * row + 1].cost_usd, rail.cost_usd);
      EXPECT_EQ(c.topologies[2 * row + 1].baseline, static_cast<int>(2 * row));
      // The configs record the paper's cells, and the report finds them equal.
      const auto& p = j["topologies"][2 * row + 1]["paper"];
      EXPECT_EQ(p["switches"], want.rail_switches);
      EXPECT_EQ(p["switches_match"], true);
      EXPECT_EQ(p["transceivers_match"], true);
      EXPECT_EQ(p["cost_reduction_percent"], want.reduction_percent);
      EXPECT_EQ(p["cost_reduction_matches"], true);
      EXPECT_EQ(j["topologies"][2 * row]["paper"]["switches"], want.sota_switches);
      EXPECT_EQ(j["topologies"][2 * row]["paper"]["switches_match"], true);
      ++row;
    }
    EXPECT_EQ(row, 3u);
  }
}

TEST(RailCost, BadInputNamesTheKey) {
  const auto load = [](const std::string& yaml) { return load_cost_config_text(yaml, "t.yaml"); };
  const std::string head =
      "cluster:\n"
      "  endpoints: 1000\n"
      "topologies:\n"
      "  - name: r\n"
      "    kind: rail_only\n";
  std::string yaml = head + "    hb_domain: 256\n";
  EXPECT_CONFIG_ERROR(test::config_error_of([&] { load(yaml); }, yaml), 6, 16, "topologies[0].hb_domain",
                      "an HB domain size K in 1..1000 that divides cluster.endpoints N = 1000", "'256'");
  yaml = head + "    hb_domain: 8\n    baseline: nope\n";
  const ConfigError e = test::config_error_of([&] { load(yaml); }, yaml);
  EXPECT_EQ(e.line(), 7);
  EXPECT_EQ(e.key_path(), "topologies[0].baseline");
  yaml = head;  // no hb_domain
  EXPECT_EQ(test::config_error_of([&] { load(yaml); }, yaml).key_path(), "topologies[0].hb_domain");
}

}  // namespace
}  // namespace hx::cost
