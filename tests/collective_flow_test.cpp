// collective_flow_test.cpp: the collective flow model (systemc/model/collective_flow.h) on
// systems whose ring rates and stage times can be counted by hand. Every expected figure is
// derived in the comment beside it. Segments of 1 KiB are 64 body flits and one head flit.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "collective_flow.h"
#include "sim_config.h"

namespace hx {
namespace {

const std::string kConfigDir = HX_CONFIG_DIR;

nlohmann::ordered_json model(const std::string& config, const std::vector<std::string>& overrides) {
  const SimConfig cfg = load_config(kConfigDir + "/" + config, overrides);
  EXPECT_TRUE(collective_flow_applies(cfg));
  return collective_flow_results(cfg);
}

const nlohmann::ordered_json& job(const nlohmann::ordered_json& j) { return j["collective"]["jobs"][0]; }

TEST(CollectiveFlow, RingOnOneSwitchRunsAtTheLink) {
  // 8 endpoints on one 64-port switch: the ring's hop i -> i + 1 takes i's injection link and
  // i + 1's ejection link, each used by this hop alone: the ring runs at 1 flit per cycle. A
  // 64 KiB allreduce: chunks of 8 KiB = 8 segments = 520 flits; each stage (reduce-scatter,
  // all-gather) sends 7 of them: 3,640 cycles, 7,280 in all. algbw = 65,536 / 7,280 B/cycle
  // over half the 16 B/cycle port: (64 / 65) x (8 / 7).
  const auto j = model("table2/fat_tree_1024_allreduce.yaml", {"topology.endpoints=8", "collective.message=64 KiB"});
  EXPECT_NEAR(job(j)["time_cycles"].get<double>(), 7280, 1e-6);
  EXPECT_NEAR(job(j)["fraction_of_peak"].get<double>(), 64.0 / 65 * 8 / 7, 1e-12);
  ASSERT_EQ(job(j)["stages"].size(), 2u);
  EXPECT_NEAR(job(j)["stages"][0]["min_ring_rate_flits_per_cycle"].get<double>(), 1.0, 1e-12);
}

TEST(CollectiveFlow, LatencyBoundStageIsItsStepsAndNoMore) {
  // The same ring with 8 KiB: chunks of 1 KiB, one packet of 65 flits per step. Step k + 1 at
  // a position starts when step k's packet has arrived there, 65 + L cycles after step k
  // started (L: the hop's latency, which the model reports). The last step, 6, starts at
  // 6 (65 + L) and its packet arrives 65 + L later: a stage is 7 (65 + L), with no extra hop
  // (the model once added one, 8% too slow on latency-bound torus2d stages).
  const auto j = model("table2/fat_tree_1024_allreduce.yaml", {"topology.endpoints=8", "collective.message=8 KiB"});
  const auto& st = job(j)["stages"];
  ASSERT_EQ(st.size(), 2u);
  for (const auto& s : st) {
    const double L = s["mean_hop_latency_cycles"].get<double>();
    ASSERT_GT(L, 65.0);  // latency bound: the packet is shorter than the hop's latency
    EXPECT_NEAR(s["time_with_latency_cycles"].get<double>(), 7 * (65 + L), 1e-6);
  }
  // Bandwidth bound (64 KiB: 520 flits per step, more than 65 + L): the steps follow each
  // other at the link's rate, and the last one's data has one hop to go: 7 x 520 + L.
  const auto b = model("table2/fat_tree_1024_allreduce.yaml", {"topology.endpoints=8", "collective.message=64 KiB"});
  for (const auto& s : job(b)["stages"]) {
    const double L = s["mean_hop_latency_cycles"].get<double>();
    ASSERT_LT(65 + L, 520.0);
    EXPECT_NEAR(s["time_with_latency_cycles"].get<double>(), 7 * 520 + L, 1e-6);
  }
}

TEST(CollectiveFlow, BidirectionalRingsShareTheOnePort) {
  // The same with the ring both ways: two rings on every injection (and ejection) link, each
  // at 1/2 flit per cycle with half the data: chunks of 4 KiB (260 flits), 7 x 260 / (1/2) =
  // 3,640 cycles per stage: the same 7,280 cycles.
  const auto j = model("table2/fat_tree_1024_allreduce.yaml", {"topology.endpoints=8", "collective.message=64 KiB",
                                                               "collective.algorithm=bidirectional_ring"});
  EXPECT_NEAR(job(j)["stages"][0]["min_ring_rate_flits_per_cycle"].get<double>(), 0.5, 1e-12);
  EXPECT_NEAR(job(j)["stages"][0]["max_ring_rate_flits_per_cycle"].get<double>(), 0.5, 1e-12);
  EXPECT_NEAR(job(j)["time_cycles"].get<double>(), 7280, 1e-6);
}

TEST(CollectiveFlow, HamiltonianCyclesUseAllFourLinksOfAnHx2Mesh) {
  // 4x4 boards of 2x2 (8x8 accelerators), four local ports (capacity 4). The two cycles, both
  // ways, are four rings that use every directed torus link once: a hop within a board is one
  // mesh link, one between boards (or round the wrap) the two cables through its line's tree,
  // used by no other hop. Each ring runs at 1 flit per cycle. 4 MiB: a ring's quarter in 64
  // chunks of 16 KiB (16 x 65 = 1,040 flits), 63 per stage: 65,520 cycles per stage,
  // 131,040 in all; algbw 4 MiB / 131,040 over half the 64 B/cycle: (64 / 65) x (64 / 63).
  const auto j = model("hx2mesh_4x4_allreduce.yaml", {});
  EXPECT_NEAR(job(j)["time_cycles"].get<double>(), 131040, 1e-6);
  EXPECT_NEAR(job(j)["fraction_of_peak"].get<double>(), 64.0 / 65 * 64 / 63, 1e-12);
  for (const auto& st : job(j)["stages"]) {
    EXPECT_EQ(st["rings"], 4u);
    EXPECT_NEAR(st["min_ring_rate_flits_per_cycle"].get<double>(), 1.0, 1e-12);
  }
}

TEST(CollectiveFlow, Torus2DStagesTakeTheirChunks) {
  // The same system by torus2d: four stages; the row reduce-scatter and all-gather move 7
  // chunks of 128 KiB (a quarter of 4 MiB over 8 ranks; 128 x 65 = 8,320 flits each): 58,240
  // cycles; the column allreduce's two stages 7 chunks of 16 KiB (1,040 flits): 7,280 cycles.
  // 32 rings per stage (8 rows or columns x 4 flows), each at 1 flit per cycle: the four flows
  // of a stage take the +x, -x, +y and -y links. 131,040 cycles, as the Hamiltonian cycles.
  const auto j = model("hx2mesh_4x4_allreduce.yaml", {"collective.algorithm=torus2d"});
  const auto& st = job(j)["stages"];
  ASSERT_EQ(st.size(), 4u);
  const double want[4] = {58240, 7280, 7280, 58240};
  for (unsigned s = 0; s < 4; ++s) {
    EXPECT_EQ(st[s]["rings"], 32u);
    EXPECT_NEAR(st[s]["time_cycles"].get<double>(), want[s], 1e-6) << "stage " << s;
    EXPECT_NEAR(st[s]["min_ring_rate_flits_per_cycle"].get<double>(), 1.0, 1e-12);
  }
  EXPECT_NEAR(job(j)["time_cycles"].get<double>(), 131040, 1e-6);
}

TEST(CollectiveFlow, TorusRingsQueueInItsOneLocalPort) {
  // An 8x8 torus: its routers have one local port of one link. The four rings of the
  // Hamiltonian cycles share it: 1/4 flit per cycle each, with a quarter of the data each: the
  // time of one ring at the full link. 1 MiB: chunks of 4 KiB (260 flits), 63 per stage, at 1/4:
  // 65,520 cycles per stage; algbw over half the 16 B/cycle port: (64 / 65) x (64 / 63).
  const auto j = model("table2/torus_32x32_allreduce.yaml", {"topology.global=4x4", "collective.message=1 MiB"});
  EXPECT_NEAR(job(j)["stages"][0]["min_ring_rate_flits_per_cycle"].get<double>(), 0.25, 1e-12);
  EXPECT_EQ(job(j)["stages"][0]["bottleneck"], "injection");
  EXPECT_NEAR(job(j)["time_cycles"].get<double>(), 131040, 1e-6);
  EXPECT_NEAR(job(j)["fraction_of_peak"].get<double>(), 64.0 / 65 * 64 / 63, 1e-12);
}

TEST(CollectiveFlow, TaperedTreeRingCrossesEachLeafOnce) {
  // 64 endpoints on 16-port switches tapered 1 : 0.2549 (13 down, 3 up): the ring leaves each
  // leaf once (its last endpoint to the next leaf's first), so one up link of the three is
  // enough: the ring still runs at 1 flit per cycle, bound by the endpoints' links.
  const auto j = model(
      "table2/fat_tree_1024_allreduce.yaml",
      {"topology.endpoints=64", "topology.tree.radix=16", "topology.tree.taper=0.2549", "collective.message=1 MiB"});
  EXPECT_NEAR(job(j)["stages"][0]["min_ring_rate_flits_per_cycle"].get<double>(), 1.0, 1e-12);
  EXPECT_NE(job(j)["stages"][0]["bottleneck"], "network");
}

TEST(CollectiveFlow, UgalTakesTheFasterOfMinimalAndValiant) {
  // A 72-endpoint Dragonfly (a = 4, p = 2, h = 2, 9 groups): the ring crosses between groups 9
  // times. Whichever routing the model reports, its time is the faster of all-minimal and
  // all-Valiant, and the best split of the two is no slower than either.
  const auto j = model("table2/dragonfly_1024_allreduce.yaml",
                       {"topology.dragonfly.a=4", "topology.dragonfly.p=2", "topology.dragonfly.h=2",
                        "topology.dragonfly.groups=9", "collective.message=1 MiB"});
  const auto& u = job(j)["ugal"];
  const double t_min = u["minimal_time_cycles"].get<double>(), t_val = u["valiant_time_cycles"].get<double>();
  EXPECT_NEAR(job(j)["time_cycles"].get<double>(), std::min(t_min, t_val), 1e-6);
  EXPECT_EQ(u["choice"], t_val < t_min ? "valiant" : "minimal");
  EXPECT_LE(u["best_mix_time_cycles"].get<double>(), std::min(t_min, t_val) * (1 + 1e-12));
  // No routing beats the endpoints' links: 1 MiB by one ring of 72 at 1 flit per cycle.
  EXPECT_LE(job(j)["fraction_of_peak"].get<double>(), 64.0 / 65 * 72 / 71 + 1e-12);
}

TEST(CollectiveFlow, OnlyRingBasedCollectives) {
  // all_to_all (direct) and broadcast (a chain) are not rings; hierarchical goes to the
  // platform model of dimensions.
  const SimConfig a2a = load_config(kConfigDir + "/hx2mesh_4x4_allreduce.yaml",
                                    {"collective.operation=all_to_all", "collective.algorithm=direct"});
  EXPECT_FALSE(collective_flow_applies(a2a));
  EXPECT_THROW(collective_flow_results(a2a), std::invalid_argument);
  const SimConfig bc = load_config(kConfigDir + "/hx2mesh_4x4_allreduce.yaml", {"collective.operation=broadcast"});
  EXPECT_THROW(collective_flow_results(bc), std::invalid_argument);
}

}  // namespace
}  // namespace hx
