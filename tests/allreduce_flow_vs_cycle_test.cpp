// allreduce_flow_vs_cycle_test.cpp: one reduced allreduce per design family of Table II, run by
// the cycle model (hxsim run) with the paper's algorithm, and timed by the collective flow
// model (hxsim model) on the same config: the run must be clean (every packet delivered intact
// once, every output element right) and its fraction of peak within 5% of the flow model's.
//
// The flow model is a fluid bound without latency (collective_flow.h); the cycle model adds the
// pipeline's fill and drain (docs/collectives.md's alpha terms), which the messages here keep
// to about 1% (chunks of 8 KiB: 8 segments per pipeline step), and can only lose to it, so the
// check is also that it does not beat the bound by more than 0.5% (rounding of the time).
//
// And with small messages, where the hops' latency sets the pace (64 KiB: chunks of 256 B per
// pipeline step on the HammingMesh family, 1 KiB on the fat tree): the cycle model's fraction of
// peak within 5% of the flow model's figure with the latency term
// (fraction_of_peak_with_latency, collective_flow.h), on designs whose hops range from 38 to 150
// cycles on average.
#include <gtest/gtest.h>

#include <fstream>
#include <ostream>
#include <string>

#include "cli_support.h"
#include "nlohmann/json.hpp"

namespace {

using nlohmann::json;

using Case = hx::test::ConfigCase;

json results(const std::string& verb, const Case& c) {
  std::ifstream in(hx::test::hxsim_results("hx_allreduce_flow_vs_cycle", c.name, verb, c.config, c.sets));
  return json::parse(in);
}

// The cycle model's run of `c`: clean (every packet once and intact, every output element
// written once and right); its collective job.
json clean_run(const Case& c) {
  json cycle = results("run", c);
  const json& job = cycle["collective"]["jobs"][0];
  EXPECT_TRUE(cycle["checks"]["passed"].get<bool>()) << c.name;
  EXPECT_TRUE(job["complete"].get<bool>()) << c.name;
  EXPECT_EQ(job["wrong_elements"].get<uint64_t>(), 0u) << c.name;
  EXPECT_EQ(job["coverage_errors"].get<uint64_t>(), 0u) << c.name;
  EXPECT_GT(job["output_elements"].get<uint64_t>(), 0u) << c.name;
  return job;
}

class AllreduceFlowVsCycle : public ::testing::TestWithParam<Case> {};

TEST_P(AllreduceFlowVsCycle, CleanAndWithinFivePercentOfTheFlowModel) {
  const Case& c = GetParam();
  const json job = clean_run(c);
  const json flow = results("model", c);
  const double k = job["fraction_of_peak"].get<double>();
  const double f = flow["collective"]["jobs"][0]["fraction_of_peak"].get<double>();
  EXPECT_NEAR(k, f, 0.05 * f) << c.name << ": cycle " << k << ", flow " << f;
  EXPECT_LE(k, f * 1.005) << c.name << ": cycle " << k << " above the flow bound " << f;
}

INSTANTIATE_TEST_SUITE_P(
    Families, AllreduceFlowVsCycle,
    ::testing::Values(
        Case{"fat_tree_64_ring", "table2/fat_tree_1024_allreduce.yaml",
             "--set topology.endpoints=64 --set topology.tree.radix=16 --set 'collective.message=512 KiB'"},
        Case{"dragonfly_72_ring", "table2/dragonfly_1024_allreduce.yaml",
             "--set topology.dragonfly.a=4 --set topology.dragonfly.p=2 --set topology.dragonfly.h=2 "
             "--set topology.dragonfly.groups=9 --set 'collective.message=576 KiB'"},
        Case{"hx2mesh_4x4_hamiltonian", "hx2mesh_4x4_allreduce.yaml", "--set 'collective.message=2 MiB'"},
        // 1x1 boards: each ring direction enters a board by a cable of its own (TreeAddressing).
        Case{"hyperx_8x8_hamiltonian", "table2/hyperx_32x32_allreduce.yaml",
             "--set topology.global=8x8 --set 'collective.message=1 MiB'"},
        Case{"torus_8x8_torus2d", "table2/torus_32x32_allreduce.yaml",
             "--set topology.global=4x4 --set collective.algorithm=torus2d --set 'collective.message=512 KiB'"}),
    [](const ::testing::TestParamInfo<Case>& i) { return std::string(i.param.name); });

class AllreduceLatencyFlowVsCycle : public ::testing::TestWithParam<Case> {};

TEST_P(AllreduceLatencyFlowVsCycle, CleanAndWithinFivePercentOfTheFlowModelsLatencyFigure) {
  const Case& c = GetParam();
  const json job = clean_run(c);
  const json flow = results("model", c);
  const json& model = flow["collective"]["jobs"][0];
  const double k = job["fraction_of_peak"].get<double>();
  const double f = model["fraction_of_peak_with_latency"].get<double>();
  // The latency matters here: without it the flow model would be far off.
  EXPECT_LT(k, 0.8 * model["fraction_of_peak"].get<double>()) << c.name;
  EXPECT_NEAR(k, f, 0.05 * f) << c.name << ": cycle " << k << ", flow with latency " << f;
}

INSTANTIATE_TEST_SUITE_P(
    SmallMessages, AllreduceLatencyFlowVsCycle,
    ::testing::Values(
        Case{"fat_tree_64_ring_64KiB", "table2/fat_tree_1024_allreduce.yaml",
             "--set topology.endpoints=64 --set topology.tree.radix=16 --set 'collective.message=64 KiB'"},
        Case{"hx2mesh_4x4_hamiltonian_64KiB", "hx2mesh_4x4_allreduce.yaml", "--set 'collective.message=64 KiB'"},
        Case{"hx4mesh_2x2_hamiltonian_256KiB", "hx4mesh_8x8_allreduce.yaml",
             "--set topology.global=2x2 --set 'collective.message=256 KiB'"},
        Case{"hyperx_8x8_hamiltonian_64KiB", "table2/hyperx_32x32_allreduce.yaml",
             "--set topology.global=8x8 --set 'collective.message=64 KiB'"},
        // Latency-bound stages of two sizes (rows: 2 segments per step, columns: 1).
        Case{"hyperx_8x8_torus2d_64KiB", "table2/hyperx_32x32_allreduce.yaml",
             "--set topology.global=8x8 --set collective.algorithm=torus2d --set 'collective.message=64 KiB'"}),
    [](const ::testing::TestParamInfo<Case>& i) { return std::string(i.param.name); });

}  // namespace
