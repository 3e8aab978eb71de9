// flow_vs_cycle_test.cpp: the flow-level model (hxsim model) against the cycle model (hxsim run)
// on reduced systems of 64-128 endpoints, saturating all-to-all, the same configs for both.
//
// The flow model is a fluid bound: every flow spread perfectly over its routes, no buffers, no
// arbitration. A packet network at saturation can only lose to it, so the cycle model's accepted
// rate must not exceed the flow model's (beyond 2% of measurement noise over an 8,000-cycle
// window) -- a flow model that underestimates a network's capacity (a missing route, a wrong
// capacity, a wrong share) fails here. How far below it the cycle model lands is the packet
// level's loss; docs/table2.md lists it per design (0.57-0.87 of the flow figure on these
// systems) and explains it. The lower check, half the flow figure, only catches a flow model
// that has lost touch with the network (routes the cycle model cannot take).
#include <gtest/gtest.h>

#include <fstream>
#include <ostream>
#include <string>
#include <vector>

#include "cli_support.h"
#include "nlohmann/json.hpp"

namespace {

using nlohmann::json;

using Case = hx::test::ConfigCase;

json results(const std::string& verb, const Case& c, const std::string& extra) {
  std::ifstream in(hx::test::hxsim_results("hx_flow_vs_cycle", c.name, verb, c.config, c.sets + " " + extra));
  return json::parse(in);
}

// The cycle model's run of `c` (with `run_sets`) at most 2% above the flow bound, and at least
// `floor` of it.
void expect_under_the_bound(const Case& c, const std::string& run_sets, double floor) {
  const json flow = results("model", c, "");
  const json cycle = results("run", c, run_sets);
  const double f = flow["traffic"]["global_bandwidth"]["share_of_plane_links"].get<double>();
  const double k = cycle["traffic"]["global_bandwidth"]["share_of_plane_links"].get<double>();
  EXPECT_LE(k, f * 1.02) << c.name << ": cycle " << k << " above the flow bound " << f;
  EXPECT_GE(k, f * floor) << c.name << ": cycle " << k << " under " << floor << " of the flow figure " << f;
}

class FlowVsCycle : public ::testing::TestWithParam<Case> {};

TEST_P(FlowVsCycle, CycleModelStaysBelowTheFlowBound) {
  expect_under_the_bound(GetParam(), "--set run.warmup=2000cycles --set run.measure=8000cycles --seed 1", 0.5);
}

INSTANTIATE_TEST_SUITE_P(
    Reduced, FlowVsCycle,
    ::testing::Values(
        Case{"hx2mesh_4x4", "hx2mesh_4x4_alltoall.yaml", ""}, Case{"hx4mesh_2x2", "hx4mesh_2x2_alltoall.yaml", ""},
        Case{"hyperx_8x8", "hyperx_32x32_alltoall.yaml", "--set topology.global=8x8"},
        Case{"torus_8x8", "torus_32x32_alltoall.yaml", "--set topology.global=4x4"},
        Case{"fat_tree_128", "fat_tree_1024_alltoall.yaml", "--set topology.endpoints=128"},
        Case{"fat_tree_128_75", "fat_tree_1024_alltoall.yaml",
             "--set topology.endpoints=128 --set topology.tree.taper=0.2549"},
        // three levels: 16 leaves, 4 pods of 4 middles, 8 tops; tapered 5 : 3 with a short pod
        Case{"fat_tree_64_3level", "fat_tree_1024_alltoall.yaml",
             "--set topology.endpoints=64 --set topology.tree.radix=8"},
        Case{"fat_tree_60_3level_tapered", "fat_tree_1024_alltoall.yaml",
             "--set topology.endpoints=60 --set topology.tree.radix=8 --set topology.tree.taper=0.6"},
        Case{"dragonfly_72_ugal", "dragonfly_1024_alltoall.yaml",
             "--set topology.dragonfly.a=4 --set topology.dragonfly.p=2 --set topology.dragonfly.h=2 "
             "--set topology.dragonfly.groups=9"},
        Case{"dragonfly_72_minimal", "dragonfly_1024_alltoall.yaml",
             "--set routing.algorithm=dragonfly_minimal --set topology.dragonfly.a=4 --set topology.dragonfly.p=2 "
             "--set topology.dragonfly.h=2 --set topology.dragonfly.groups=9"}),
    [](const ::testing::TestParamInfo<Case>& i) { return std::string(i.param.name); });

// With Table III's buffers (32 MB per port in the paper: here 256-flit input and output queues
// per VC, which the reduced systems cannot tell from 512) and sources that always have data (64
// queued packets), over a window long enough for deep queues to settle (10,000 warm-up, 40,000
// measured cycles), the switch-model fat trees come within 5% of the flow bound: what they lost
// at the default buffers was head-of-line blocking at the switch inputs and a 4-packet source
// queue that runs dry (docs/table2.md). The bound still holds. So do the HammingMesh family's
// boards with C++ switches as their routers (router.model switch: the paper's input- and
// output-buffered router with a 2x crossbar), where the RTL routers reach 0.79-0.82 (table2.md,
// "The HammingMesh family's routers"), with one lane (the port binds) and with four (the
// network binds: the HyperX's trees deliver by both cables into a board). Not the 2x2 Hx4Mesh: there adaptive routing
// spreads the board exits better than the flow model's even split over the paths, and the switch routers beat it (0.946
// against 0.887).
class FlowVsCycleTableIII : public ::testing::TestWithParam<Case> {};

TEST_P(FlowVsCycleTableIII, CycleModelWithinFivePercentOfTheFlowBound) {
  expect_under_the_bound(GetParam(),
                         "--set switch.buffer_depth=256 --set switch.output_buffer_depth=256 "
                         "--set traffic.source_queue=64 --set run.warmup=10000cycles --set run.measure=40000cycles "
                         "--seed 1",
                         0.95);
}

INSTANTIATE_TEST_SUITE_P(
    Reduced, FlowVsCycleTableIII,
    ::testing::Values(Case{"fat_tree_128", "fat_tree_1024_alltoall.yaml", "--set topology.endpoints=128"},
                      Case{"fat_tree_128_75", "fat_tree_1024_alltoall.yaml",
                           "--set topology.endpoints=128 --set topology.tree.taper=0.2549"},
                      Case{"hx2mesh_4x4_switch_routers", "hx2mesh_4x4_alltoall.yaml", "--set router.model=switch"},
                      Case{"hyperx_8x8_switch_routers", "hyperx_32x32_alltoall.yaml",
                           "--set topology.global=8x8 --set router.model=switch"},
                      // four lanes, the paper's injection: the network, not the port, binds
                      Case{"hx2mesh_4x4_switch_routers_4lanes", "hx2mesh_4x4_alltoall.yaml",
                           "--set router.model=switch --set router.local_ports=4 --set traffic.injection_rate=4"},
                      Case{"hyperx_8x8_switch_routers_4lanes", "hyperx_32x32_alltoall.yaml",
                           "--set topology.global=8x8 --set router.model=switch --set router.local_ports=4 "
                           "--set traffic.injection_rate=4"}),
    [](const ::testing::TestParamInfo<Case>& i) { return std::string(i.param.name); });

// A 50% tapered tree of 256 endpoints: 7 leaves of 22 up cables over 3 spines, 7 or 8 to each
// leaf. The leaves spread by their own ports' room, so the cycle model reaches the flow model's
// per-hop split (traffic.routing.per_hop, 0.590), not the even split over the paths (0.617); wired
// one spine per up port, both are 0.624 and the cycle model comes within 5% of it
// (docs/table2.md, "The tapered trees").
TEST(FlowVsCycleTaperedWiring, CycleModelSitsAtTheSplitItsRoutingMakes) {
  const std::string table3 =
      "--set switch.buffer_depth=256 --set switch.output_buffer_depth=256 --set traffic.source_queue=64 "
      "--set run.warmup=10000cycles --set run.measure=40000cycles --seed 1";
  const Case uneven{"fat_tree_256_50", "fat_tree_1024_alltoall.yaml",
                    "--set topology.endpoints=256 --set topology.tree.taper=0.5238"};
  const json flow = results("model", uneven, "");
  const double paths = flow["traffic"]["global_bandwidth"]["share_of_plane_links"].get<double>();
  const double per_hop = flow["traffic"]["routing"]["per_hop"]["share_of_plane_links"].get<double>();
  EXPECT_LT(per_hop, paths * 0.97);  // the wiring costs the per-hop split over 3%
  const double k = results("run", uneven, table3)["traffic"]["global_bandwidth"]["share_of_plane_links"].get<double>();
  EXPECT_GE(k, per_hop * 0.95);
  EXPECT_LE(k, per_hop * 1.05);
  const Case even{"fat_tree_256_50_even", "fat_tree_1024_alltoall.yaml",
                  uneven.sets + " --set topology.tree.spines=per_up_port"};
  const json even_flow = results("model", even, "");
  EXPECT_NEAR(even_flow["traffic"]["routing"]["per_hop"]["share_of_plane_links"].get<double>(),
              even_flow["traffic"]["global_bandwidth"]["share_of_plane_links"].get<double>(), 1e-9);
  expect_under_the_bound(even, table3, 0.95);
}

// One phase of the all-to-all's shift on the HyperX (8x8, four lanes): with messages of 64 packets
// every accelerator sends to the same offset for a while, so every packet a tree delivers into a
// 1x1 board comes from the same side of it. The board has two cables from each tree, and the
// flow model's phase-by-phase bound (traffic.phased) counts both; a tree that fixed the cable by
// the side the packet comes from used one and delivered 0.52 of that bound (docs/table2.md, "The
// HyperX"). A few seconds: in the system label.
TEST(HyperXShift, APhaseUsesBothCablesIntoEveryBoard) {
  const Case c{"hyperx_8x8_shift", "hyperx_32x32_alltoall.yaml",
               "--set topology.global=8x8 --set topology.tree.radix=16 --set router.local_ports=4"};
  const double phase_bound = results("model", c, "")["traffic"]["phased"]["share_of_plane_links"].get<double>();
  const json cycle = results("run", c,
                             "--set traffic.injection_rate=4 --set traffic.message_packets=64 "
                             "--set run.warmup=1000cycles --set run.measure=3000cycles --seed 1");
  const double k = cycle["traffic"]["global_bandwidth"]["share_of_plane_links"].get<double>();
  EXPECT_GE(k, 0.8 * phase_bound) << "cycle " << k << ", phase-by-phase flow bound " << phase_bound;
  EXPECT_LE(k, 1.02 * phase_bound);
}

}  // namespace
