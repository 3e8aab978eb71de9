// flow_model_test.cpp: the flow-level model (systemc/model/flow_model.h): progressive filling on
// hand-solvable channel sets, all-to-all on small systems whose loads can be counted by hand, and
// the flow graph's zero-load channel latencies (the collective model's latency term).
// Every expected figure below is derived in the comment beside it.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "flow_graph.h"
#include "flow_model.h"
#include "maxmin.h"
#include "sim_config.h"

namespace hx {
namespace {

const std::string kConfigDir = HX_CONFIG_DIR;

FlowUse use(std::vector<std::pair<uint32_t, double>> c) { return FlowUse{std::move(c)}; }

TEST(MaxMin, TwoFlowsOnOneLinkGetHalfEach) {
  // One channel of capacity 1, two flows: both grow to 1/2 and fill it.
  const MaxMinResult r = maxmin_rates({1.0}, {use({{0, 1.0}}), use({{0, 1.0}})});
  EXPECT_DOUBLE_EQ(r.rates[0], 0.5);
  EXPECT_DOUBLE_EQ(r.rates[1], 0.5);
  EXPECT_EQ(r.levels, 1u);
}

TEST(MaxMin, ParkingLotFreezesAtTheFirstFullChannel) {
  // Channel 0 (capacity 1) carries A and B, channel 1 (capacity 2) carries A and C. Level 1: the
  // rates grow together to 1/2, when channel 0 is full (2 x 1/2 = 1) and channel 1 holds 1.
  // A and B freeze at 1/2. Level 2: C alone takes the rest of channel 1, 2 - 1/2 = 3/2.
  const MaxMinResult r = maxmin_rates({1.0, 2.0}, {use({{0, 1.0}, {1, 1.0}}), use({{0, 1.0}}), use({{1, 1.0}})});
  EXPECT_DOUBLE_EQ(r.rates[0], 0.5);
  EXPECT_DOUBLE_EQ(r.rates[1], 0.5);
  EXPECT_DOUBLE_EQ(r.rates[2], 1.5);
  EXPECT_EQ(r.levels, 2u);
}

TEST(MaxMin, SplitFlowCountsItsShareOnEachChannel) {
  // A is split evenly over channels 0 and 1 (capacity 1 each); B uses channel 0 alone. At common
  // rate r channel 0 holds r/2 + r = 3r/2, channel 1 holds r/2: channel 0 fills at r = 2/3,
  // which freezes both (A uses channel 0 too).
  const MaxMinResult r = maxmin_rates({1.0, 1.0}, {use({{0, 0.5}, {1, 0.5}}), use({{0, 1.0}})});
  EXPECT_NEAR(r.rates[0], 2.0 / 3, 1e-12);
  EXPECT_NEAR(r.rates[1], 2.0 / 3, 1e-12);
}

TEST(MaxMin, FlowWithoutChannelsIsUnbounded) {
  const MaxMinResult r = maxmin_rates({1.0}, {use({}), use({{0, 1.0}})});
  EXPECT_TRUE(std::isinf(r.rates[0]));
  EXPECT_DOUBLE_EQ(r.rates[1], 1.0);
}

nlohmann::ordered_json flow(const std::string& config, const std::vector<std::string>& overrides) {
  return flow_results(load_config(kConfigDir + "/" + config, overrides));
}

TEST(FlowModel, SingleSwitchTreeSaturatesEveryPort) {
  // 8 endpoints on one 64-port switch: each endpoint's ejection link carries the 7 flows to it,
  // so the common rate is 1/7 flit per cycle and every endpoint accepts 7 x 1/7 = 1 of its link.
  const auto j = flow("fat_tree_1024_alltoall.yaml", {"topology.endpoints=8"});
  EXPECT_NEAR(j["traffic"]["flow_rate_flits_per_cycle"].get<double>(), 1.0 / 7, 1e-12);
  EXPECT_NEAR(j["traffic"]["global_bandwidth"]["share_of_plane_links"].get<double>(), 1.0, 1e-12);
}

TEST(FlowModel, TaperedTreeIsBoundByItsUpLinks) {
  // 128 endpoints on 64-port switches tapered 1 : 0.2549 -> leaves of 51 down and 13 up ports
  // (cost.md's 75% tree): 3 leaves (51 + 51 + 26 endpoints). Leaf 0 sends to the 77 endpoints
  // outside it: 51 x 77 flows over 13 up links, 302.08 flows per link, more than any ejection
  // link's 127: lambda = 13 / (51 x 77), accepted 127 x 13 / (51 x 77) = 0.4204.
  const auto j = flow("fat_tree_1024_alltoall.yaml", {"topology.endpoints=128", "topology.tree.taper=0.2549"});
  EXPECT_NEAR(j["traffic"]["accepted"].get<double>(), 127.0 * 13 / (51 * 77), 1e-9);
  EXPECT_EQ(j["traffic"]["bottleneck"], "network");
}

TEST(FlowModel, UnevenlyWiredTreeSplitsByPathsOrPerHop) {
  // 20 endpoints on 8-port switches tapered 1 : 0.6 -> leaves of 5 down and 3 up ports, 4 leaves,
  // 12 up cables dealt round-robin over 2 spines: leaves 0 and 2 have 2 cables to spine 0 and 1 to
  // spine 1, leaves 1 and 3 the other way round. Every leaf sends 5 x 5 = 25 flows to each other.
  // Even split over the paths: leaf 0 -> leaf 1 has 2 x 1 paths through spine 0 and 1 x 2 through
  // spine 1, half each; leaf 3 -> leaf 1 has 1 x 1 through spine 0 against 2 x 2: 1/5. The one
  // cable spine 0 -> leaf 1 carries 25 (1/2 + 1/2 + 1/5) = 30 flows: lambda = 1/30, accepted
  // 19/30.
  const std::vector<std::string> sets = {"topology.endpoints=20", "topology.tree.radix=8", "topology.tree.taper=0.6"};
  const auto j = flow("fat_tree_1024_alltoall.yaml", sets);
  EXPECT_NEAR(j["traffic"]["accepted"].get<double>(), 19.0 / 30, 1e-9);
  // Per hop: a leaf spreads over its 3 cables, 1/3 each, blind to the spines' cables down: that
  // cable now carries 25 (2/3 from leaf 0 + 2/3 from leaf 2 + 1/3 from leaf 3) = 125/3 flows:
  // lambda = 3/125, accepted 57/125.
  const auto& h = j["traffic"]["routing"]["per_hop"];
  EXPECT_NEAR(h["accepted"].get<double>(), 57.0 / 125, 1e-9);
  // The four single cables down (spine 0 to leaves 1 and 3, spine 1 to leaves 0 and 2) bind.
  EXPECT_EQ(h["bottleneck"], "network");
  EXPECT_EQ(h["bottleneck_channels"], 4u);
  // Wired evenly (topology.tree.spines: per_up_port): 3 spines, one cable from each leaf to each.
  // A leaf's 5 x 15 = 75 flows out share its 3 cables, 25 each, as the 75 into a leaf share its 3
  // cables down: lambda = 1/25 by either split, accepted 19/25.
  std::vector<std::string> even = sets;
  even.push_back("topology.tree.spines=per_up_port");
  const auto e = flow("fat_tree_1024_alltoall.yaml", even);
  EXPECT_NEAR(e["traffic"]["accepted"].get<double>(), 19.0 / 25, 1e-9);
  EXPECT_NEAR(e["traffic"]["routing"]["per_hop"]["accepted"].get<double>(), 19.0 / 25, 1e-9);
  // A nonblocking tree of one cable per spine: both splits are the same.
  const auto n = flow("fat_tree_1024_alltoall.yaml", {"topology.endpoints=128", "topology.tree.radix=16"});
  EXPECT_NEAR(n["traffic"]["routing"]["per_hop"]["accepted"].get<double>(), n["traffic"]["accepted"].get<double>(),
              1e-9);
}

TEST(FlowModel, TorusTakesTheDimensionOrderPath) {
  // 8x8 torus (4x4 boards of 2x2), dimension order, ties (offset 4) east/north. The east link
  // out of column c in row y carries the flows of row y's sources with x-offset k = 1..4 that
  // pass it (k sources each) to any of the 8 rows: 8 x (1 + 2 + 3 + 4) = 80; the west links only
  // 8 x (1 + 2 + 3) = 48, y alike. lambda = 1/80, below injection's 1/63: accepted 63/80, and
  // 63/80/4 of the plane's four links. (Splitting the ties evenly would give 64 per link.)
  const auto j = flow("torus_32x32_alltoall.yaml", {"topology.global=4x4"});
  EXPECT_NEAR(j["traffic"]["flow_rate_flits_per_cycle"].get<double>(), 1.0 / 80, 1e-12);
  EXPECT_NEAR(j["traffic"]["global_bandwidth"]["share_of_plane_links"].get<double>(), 63.0 / 80 / 4, 1e-12);
}

TEST(FlowModel, HyperXRowIsBoundByTheLocalPort) {
  // A 4x1 HyperX (1x1 boards, one row tree, no column tree needed): every router reaches the 3
  // others through the one switch, so nothing is shared but the local ports: each takes 3 flows
  // at 1 flit per cycle: lambda = 1/3, accepted 1, 1/4 of the plane's links.
  const auto j = flow("hyperx_32x32_alltoall.yaml", {"topology.global=4x1"});
  EXPECT_NEAR(j["traffic"]["flow_rate_flits_per_cycle"].get<double>(), 1.0 / 3, 1e-12);
  EXPECT_NEAR(j["traffic"]["global_bandwidth"]["share_of_plane_links"].get<double>(), 0.25, 1e-12);
}

TEST(FlowGraph, ChannelLatenciesAreTheZeroLoadPathsParts) {
  // 8 endpoints on one switch (fat_tree_1024_alltoall.yaml: 20 ns cables, an 80 ns switch, 1 GHz).
  // Into the switch: the cable's 20 cycles, its output register, the NIC's edge port, and the
  // switch's 80-cycle pipeline: 102. Out to an endpoint: 20 + 1 + 1, and the endpoint takes it: 22.
  // So a hop between two of its endpoints costs 124 cycles at zero load.
  const SimConfig cfg = load_config(kConfigDir + "/fat_tree_1024_alltoall.yaml", {"topology.endpoints=8"});
  const FlowGraph g = flow_graph(cfg, flow_netlist(cfg));
  unsigned in = 0, out = 0;
  for (const FlowChannel& c : g.channels) {
    if (g.is_endpoint[c.from]) {
      EXPECT_DOUBLE_EQ(c.latency, 102.0);
      ++in;
    } else if (g.is_endpoint[c.to]) {
      EXPECT_DOUBLE_EQ(c.latency, 22.0);
      ++out;
    }
  }
  EXPECT_EQ(in, 8u);
  EXPECT_EQ(out, 8u);
  // A 2x2 board (hx2mesh_4x4_allreduce.yaml: 1 ns board links): router to router 1 + 1 + the
  // next router's cycle = 3; accelerator to its router 3, router to its accelerator 2.
  const SimConfig hx = load_config(kConfigDir + "/hx2mesh_4x4_allreduce.yaml", {});
  const FlowGraph h = flow_graph(hx, flow_netlist(hx));
  const uint32_t acc = h.endpoints[0], router = h.channels[h.out[acc].front()].to;
  EXPECT_DOUBLE_EQ(h.channels[h.out[acc].front()].latency, 3.0);
  unsigned to_acc = 0, on_board = 0;
  for (const uint32_t c : h.out[router]) {
    const FlowChannel& ch = h.channels[c];
    if (ch.to == acc) {
      EXPECT_DOUBLE_EQ(ch.latency, 2.0);
      ++to_acc;
    } else if (h.board_x[ch.to] == h.board_x[router] && h.board_y[ch.to] == h.board_y[router]) {
      EXPECT_DOUBLE_EQ(ch.latency, 3.0);  // a neighbour router on the board
      ++on_board;
    }
  }
  EXPECT_EQ(to_acc, 1u);
  EXPECT_EQ(on_board, 2u);  // a corner of a 2x2 board has two neighbours on it
}

// The lowest max-min rate is the first filling level, which is lambda by definition: the
// per-destination sums and the per-flow routes must agree, on every routing.
class FlowModelSystems : public ::testing::TestWithParam<std::pair<const char*, std::vector<std::string>>> {};

TEST_P(FlowModelSystems, MaxMinFloorIsTheCommonRate) {
  const auto j = flow(GetParam().first, GetParam().second);
  const double lambda = j["traffic"]["flow_rate_flits_per_cycle"].get<double>();
  ASSERT_TRUE(j["traffic"].contains("maxmin"));
  EXPECT_NEAR(j["traffic"]["maxmin"]["min_flits_per_cycle"].get<double>(), lambda, 1e-9 * lambda);
  EXPECT_GE(j["traffic"]["maxmin"]["mean_flits_per_cycle"].get<double>(), lambda * (1 - 1e-9));
}

INSTANTIATE_TEST_SUITE_P(
    Small, FlowModelSystems,
    ::testing::Values(std::make_pair("hx2mesh_4x4_alltoall.yaml", std::vector<std::string>{}),
                      std::make_pair("hx4mesh_2x2_alltoall.yaml", std::vector<std::string>{}),
                      std::make_pair("torus_32x32_alltoall.yaml", std::vector<std::string>{"topology.global=4x4"}),
                      std::make_pair("fat_tree_1024_alltoall.yaml",
                                     std::vector<std::string>{"topology.endpoints=96", "topology.tree.taper=0.5238"}),
                      std::make_pair("dragonfly_1024_alltoall.yaml",
                                     std::vector<std::string>{"topology.dragonfly.a=4", "topology.dragonfly.p=2",
                                                              "topology.dragonfly.h=2", "topology.dragonfly.groups=9"}),
                      std::make_pair("dragonfly_1024_alltoall.yaml",
                                     std::vector<std::string>{"routing.algorithm=dragonfly_minimal",
                                                              "topology.dragonfly.a=4", "topology.dragonfly.p=2",
                                                              "topology.dragonfly.h=2",
                                                              "topology.dragonfly.groups=9"})));

TEST(FlowModel, RefusesOtherTraffic) {
  EXPECT_THROW(flow("hx2mesh_4x4_alltoall.yaml", {"traffic.pattern=uniform"}), std::invalid_argument);
}

}  // namespace
}  // namespace hx
