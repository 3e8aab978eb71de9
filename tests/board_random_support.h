// board_random_support.h: the random stress bench of whole board planes, shared by
// board_random_test.cpp (1x1, 2x2, 4x4 planes), board_random_8x8_test.cpp (the 8x8 plane, whose
// model takes far longer to compile, so its test is separate) and board_random_lanes_test.cpp
// (planes with four local lanes per router).
//
// Every test runs seeded uniform random traffic (the seed is printed; HX_SEED overrides it)
// into the plane's local ports, with sinks that drain at a random per-port rate, then drains
// the network and requires a clean scoreboard: every packet delivered exactly once, intact, at
// an external port the reference routing function allows (routing/board_mesh.h, followed across the
// board), on the VC the policy prescribes (VcKeep: injection VC on the board, VC+1 at an edge).
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <vector>

#include "link_bench.h"
#include "rng.h"
#include "test_support.h"
#include "traffic.h"

namespace hx::test {
namespace board_random {

constexpr unsigned kBoardX = 1;  // the plane's place in a 4x4 grid of boards
constexpr unsigned kBoardY = 2;

struct RandomCase {
  unsigned size_x = 4, size_y = 4;
  RouteMode mode = RouteMode::Xy;
  TreeSpan span = TreeSpan::Line;  // the span_board_i strap
  VcPolicy policy = VcPolicy::Keep;
  UniformTrafficConfig traffic;
  unsigned num_vcs = 3;  // the model's NumVcs
  unsigned lanes = 1;    // the model's LocalPorts
  uint64_t cycles = 40000;
  double drain_lo = 0.5, drain_hi = 1.0;  // per-sink drain probability range
  bool skip_idle = false;                 // BenchConfig::skip_idle_edges
};

template <class M>
BenchConfig board_config(const RandomCase& rc, uint64_t seed) {
  BenchConfig c;
  c.board = BoardGeometry{rc.size_x, rc.size_y, rc.lanes};
  c.straps.board_x = kBoardX;
  c.straps.board_y = kBoardY;
  c.straps.route_mode = rc.mode;
  c.straps.tree_span = rc.span;
  c.straps.vc_policy = rc.policy;
  c.num_vcs = rc.num_vcs;
  c.seed = seed;
  c.watchdog_cycles = 3000;
  c.expected_packets = 1u << 16;
  c.trace_file = trace_path();
  c.skip_idle_edges = rc.skip_idle;
  return c;
}

template <class B>
void expect_all_clean(const B& b) {
  EXPECT_FALSE(b.deadlocked()) << b.deadlock_report();
  expect_scoreboard_clean(b);
  for (unsigned p = 0; p < b.num_ports(); ++p) {
    for (unsigned v = 0; v < b.config().num_vcs; ++v) {
      EXPECT_EQ(b.source(p).credits(v), b.config().buf_depth) << b.port_name(p) << " vc " << v;
    }
    EXPECT_EQ(b.sink(p).credits_returned(), b.sink(p).flits_received()) << b.port_name(p);
  }
}

/// Run a random case on model M; returns the bench's summary for extra checks.
template <class M>
ScoreboardSummary run_random(RandomCase rc, uint64_t seed, std::vector<PacketRecord>* packets = nullptr,
                             uint64_t* skipped_edges = nullptr) {
  const BenchConfig cfg = board_config<M>(rc, seed);
  LinkBench<M> b(cfg);
  Rng rng(seed ^ 0xb0a4d);
  for (unsigned p = 0; p < b.num_ports(); ++p) {
    b.sink(p).set_drain_probability(rc.drain_lo + (rc.drain_hi - rc.drain_lo) * rng.uniform());
  }
  rc.traffic.seed = seed;
  rc.traffic.num_vcs = cfg.num_vcs;
  UniformTraffic traffic(rc.traffic, cfg.board, kBoardX, kBoardY);
  const auto t0 = std::chrono::steady_clock::now();
  const bool ran = b.run(rc.cycles, [&](auto& bench) { traffic.tick(bench); });
  EXPECT_TRUE(ran) << b.report();
  for (unsigned p = 0; p < b.num_ports(); ++p) b.sink(p).set_drain_probability(1.0);
  const bool drained = ran && b.drain(50000);
  EXPECT_TRUE(drained) << b.report();
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  expect_all_clean(b);

  const ScoreboardSummary s = b.scoreboard().summary();
  double lat = 0;
  for (const PacketRecord& r : b.scoreboard().packets()) {
    lat += static_cast<double>(r.tail_delivered_cycle - r.created_cycle);
  }
  std::printf(
      "[ board    ] %ux%u, %u lane(s), %s %s %s: %llu packets, %llu flits in %llu cycles "
      "(%.3f flits/node/cycle), avg latency %.1f cycles, %.0f cycles/s\n",
      rc.size_x, rc.size_y, rc.lanes, to_string(rc.mode), to_string(rc.policy), to_string(rc.span),
      static_cast<unsigned long long>(s.delivered), static_cast<unsigned long long>(s.flits_delivered),
      static_cast<unsigned long long>(b.cycle()),
      static_cast<double>(s.flits_delivered) / (rc.cycles * cfg.board.num_nodes()),
      s.delivered ? lat / s.delivered : 0.0, b.cycle() / wall);
  if (packets) *packets = b.scoreboard().packets();
  if (skipped_edges) *skipped_edges = b.skipped_edges();
  return s;
}

// Both route modes, the first with trees of span line and the second of span board, so that
// every plane size drives the span_board_i strap both ways.
template <class M>
void smoke(unsigned sx, unsigned sy, uint64_t seed, unsigned lanes = 1) {
  for (RouteMode mode : {RouteMode::Xy, RouteMode::NorthLast}) {
    RandomCase rc;
    rc.size_x = sx;
    rc.size_y = sy;
    rc.lanes = lanes;
    rc.mode = mode;
    rc.span = mode == RouteMode::Xy ? TreeSpan::Line : TreeSpan::Board;
    rc.traffic.offered_load = 0.3;
    rc.traffic.min_length = 1;
    rc.traffic.max_length = 6;
    rc.traffic.offboard_fraction = 0.3;
    rc.traffic.edge_load = 0.02;
    rc.cycles = 5000;
    const auto s = run_random<M>(rc, seed);
    EXPECT_GT(s.delivered, 500u);
  }
}

}  // namespace board_random
}  // namespace hx::test
