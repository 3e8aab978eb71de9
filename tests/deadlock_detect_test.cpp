// deadlock_detect_test.cpp: the watchdog must catch a real routing deadlock, and north-last
// must avoid it.
//
// The deadlock-prone setting: a 4x4 board plane with route_mode_i = 2 (minimal adaptive without
// a turn rule) and VcKeep with every packet injected on VC 0, so all traffic shares one VC.
// Long wormhole packets (8-16 flits, longer than a router's 8-flit buffer) under saturating
// uniform random traffic hold channels across several routers, and without a turn rule their
// channel dependencies can close a cycle: four packets turning around a ring of routers, each
// waiting for the next. The bench's watchdog must then report a deadlock that names the stuck
// packets. The same traffic (same seed and generator) under north-last (route_mode_i = 1) has
// no cycle in its channel dependency graph and must drain completely. Both outcomes are
// asserted, so the pair of tests fails if either the RTL or the watchdog stops telling them
// apart.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "Vhx_board_plane_4x4.h"
#include "link_bench.h"
#include "test_support.h"
#include "traffic.h"

namespace hx::test {
namespace {

using Model = Vhx_board_plane_4x4;

constexpr uint64_t kWatchdog = 1000;
constexpr uint64_t kMaxCycles = 20000;

struct Outcome {
  bool deadlocked = false;
  uint64_t cycle = 0;
  uint64_t delivered = 0;
  uint64_t outstanding = 0;
  std::string report;
  bool clean = false;
};

Outcome run_saturated(RouteMode mode, uint64_t seed, uint64_t cycles) {
  BenchConfig c;
  c.board = BoardGeometry{4, 4};
  c.straps.board_x = 0;
  c.straps.board_y = 0;
  c.straps.route_mode = mode;
  c.straps.vc_policy = VcPolicy::Keep;
  c.watchdog_cycles = kWatchdog;
  c.seed = seed;
  c.expected_packets = 1u << 15;
  c.trace_file = trace_path();
  LinkBench<Model> b(c);

  UniformTrafficConfig t;
  t.saturate = true;
  t.min_length = 8;
  t.max_length = 16;
  t.random_vc = false;  // VC 0 only: effectively one VC
  t.seed = seed;
  UniformTraffic traffic(t, c.board, 0, 0);

  Outcome o;
  const bool ran = b.run(cycles, [&](auto& bench) { traffic.tick(bench); });
  if (ran) b.drain(20000);  // stop offering, let everything in flight arrive
  o.deadlocked = b.deadlocked();
  o.cycle = b.cycle();
  o.delivered = b.scoreboard().delivered();
  o.outstanding = b.scoreboard().outstanding();
  o.report = b.deadlocked() ? b.deadlock_report() : b.report();
  o.clean = b.scoreboard().summary().clean() && b.errors().empty();
  return o;
}

TEST(Deadlock, MinAdaptiveOneVcDeadlocksAndWatchdogNamesStuckPackets) {
  const uint64_t seed = test_seed(1);
  const Outcome o = run_saturated(RouteMode::MinAdaptive, seed, kMaxCycles);
  ASSERT_TRUE(o.deadlocked) << "expected a deadlock within " << kMaxCycles << " cycles; delivered " << o.delivered
                            << "\n"
                            << o.report;
  std::printf(
      "[ deadlock ] min-adaptive, one VC: deadlock detected at cycle %llu after %llu "
      "packets delivered, %llu outstanding\n",
      static_cast<unsigned long long>(o.cycle), static_cast<unsigned long long>(o.delivered),
      static_cast<unsigned long long>(o.outstanding));
  EXPECT_NE(o.report.find("DEADLOCK"), std::string::npos);
  EXPECT_NE(o.report.find("undelivered packets:"), std::string::npos);
  EXPECT_NE(o.report.find("  packet "), std::string::npos) << "the report must name packets";
  EXPECT_NE(o.report.find("injected "), std::string::npos);
  EXPECT_NE(o.report.find("sources with work"), std::string::npos);
  EXPECT_TRUE(o.clean) << "a deadlock must not corrupt anything\n" << o.report;
  ::testing::Test::RecordProperty("deadlock_cycle", std::to_string(o.cycle));
}

TEST(Deadlock, NorthLastSameTrafficDoesNotDeadlock) {
  const uint64_t seed = test_seed(1);
  const Outcome o = run_saturated(RouteMode::NorthLast, seed, kMaxCycles);
  EXPECT_FALSE(o.deadlocked) << o.report;
  EXPECT_EQ(o.outstanding, 0u) << o.report;
  EXPECT_TRUE(o.clean) << o.report;
  EXPECT_GT(o.delivered, 1000u);
  std::printf(
      "[ deadlock ] north-last, same traffic: %llu packets delivered in %llu cycles, "
      "none stuck\n",
      static_cast<unsigned long long>(o.delivered), static_cast<unsigned long long>(o.cycle));
}

}  // namespace
}  // namespace hx::test
