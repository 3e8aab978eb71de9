// router_lanes_tests.h: directed tests of an hx_router with four local lanes (LocalPorts = 4),
// templated on the model class like router_directed_tests.h, so that the same bodies run on the
// Verilated RTL (Vhx_router_l4) and, where built, on its yosys netlist:
//
//   #include HX_ROUTER_MODEL_HEADER              // e.g. "Vhx_router_l4.h"
//   #include "router_lanes_tests.h"
//   HX_INSTANTIATE_ROUTER_LANES_TESTS(HX_ROUTER_MODEL)
//
// The router sits at node (1,1) of a 3x3 board at board (2,3) (no board-edge port), with ports
// N=0, E=1, S=2, W=3 and lanes L=4, L1=5, L2=6, L3=7, each with a credit-flow-controlled source
// and sink of BufDepth = 8 flits per VC. What the lanes are for (HammingMesh sec. III): the
// accelerator injects into and receives from all four network links at the same time.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <set>
#include <string>
#include <vector>

#include "rng.h"
#include "router_fixture.h"

namespace hx::test {

template <class M>
class RouterLanesTest : public RouterFixture<M, 4> {
 public:
  using Base = RouterFixture<M, 4>;

  /// The neighbour of the centre router that lies in direction `dir` (N, E, S, W).
  static Destination toward(unsigned dir) {
    static const unsigned kDx[4] = {1, 2, 1, 0}, kDy[4] = {2, 1, 0, 1};
    return Base::node(kDx[dir], kDy[dir]);
  }

  static ExternalPortSet lanes() {
    ExternalPortSet s;
    for (unsigned k = 0; k < Base::kLanes; ++k) s.set(kPortL + k);
    return s;
  }

  /// Everything delivered once, intact, on an allowed port and VC; error_o never rose; every
  /// source holds BufDepth credits per VC again and every sink returned one credit per flit.
  static void expect_clean_and_credits_home(const typename Base::Bench& b) {
    Base::expect_clean(b);
    EXPECT_EQ(b.error_bits_seen(), 0u);
    Base::expect_credits_home(b);
  }
};

TYPED_TEST_SUITE_P(RouterLanesTest);

// The bench and the reference agree with the RTL on the port count, and a packet for this node
// may leave on any of the four lanes, whatever it came in on.
TYPED_TEST_P(RouterLanesTest, EjectionMayUseEveryLane) {
  using T = RouterLanesTest<TypeParam>;
  auto b = T::make_bench(T::at(1, 1));
  ASSERT_EQ(b->num_ports(), 8u);
  for (unsigned in = 0; in < T::kPorts; ++in) {
    for (RouteMode mode : {RouteMode::Xy, RouteMode::NorthLast, RouteMode::MinAdaptive}) {
      b->set_straps(T::at(1, 1, mode));
      EXPECT_EQ(b->make_packet(in, T::node(1, 1), 1, 0).allowed_ports, T::lanes())
          << port_name(in) << " " << to_string(mode);
    }
  }
}

// Every lane routes like the one lane of the default router: from each lane to each neighbour
// on each VC, one packet at a time, the packet leaves on the single port XY allows, on its VC.
TYPED_TEST_P(RouterLanesTest, EachLaneRoutesLikePortL) {
  using T = RouterLanesTest<TypeParam>;
  auto b = T::make_bench(T::at(1, 1));
  unsigned sent = 0;
  for (unsigned lane = 0; lane < T::kLanes; ++lane) {
    for (unsigned dir = 0; dir < kNumNetPorts; ++dir) {
      for (unsigned vc = 0; vc < T::kVcs; ++vc) {
        const PacketSpec spec = b->make_packet(kPortL + lane, T::toward(dir), 4, vc);
        ASSERT_EQ(spec.allowed_ports, T::only(dir)) << "reference model disagrees";
        const uint32_t id = b->send(spec);
        ASSERT_TRUE(b->run_until_delivered(id, 100)) << b->report();
        const PacketRecord& r = b->scoreboard().packet(id);
        EXPECT_EQ(r.delivered_port, static_cast<int>(dir));
        EXPECT_EQ(r.delivered_vc, static_cast<int>(vc));
        EXPECT_EQ(r.head_delivered_cycle - r.head_injected_cycle, 2u) << "per-hop latency";
        ++sent;
      }
    }
  }
  EXPECT_EQ(sent, 48u);
  ASSERT_TRUE(b->drain(1000)) << b->report();
  T::expect_clean_and_credits_home(*b);
}

// The reason for lanes: lane k injects toward direction k (L->N, L1->E, L2->S, L3->W), each
// source always has a packet queued, and the router moves exactly four flits per cycle in steady
// state, one on each network output (a one-lane router moves at most one: its single injection
// port carries one flit per cycle).
TYPED_TEST_P(RouterLanesTest, FourLanesInjectFourFlitsPerCycle) {
  using T = RouterLanesTest<TypeParam>;
  auto b = T::make_bench(T::at(1, 1));
  auto feed = [&](auto& bench) {
    for (unsigned k = 0; k < T::kLanes; ++k) {
      while (bench.source(kPortL + k).queued() < 2) {
        bench.send(bench.make_packet(kPortL + k, T::toward(k), 4, 0));
      }
    }
  };
  ASSERT_TRUE(b->run(100, feed)) << b->report();
  uint64_t out_before[4], in_before[4];
  for (unsigned d = 0; d < 4; ++d) {
    out_before[d] = b->sink(d).flits_received();
    in_before[d] = b->source(kPortL + d).flits_sent();
  }
  constexpr uint64_t kWindow = 2000;
  ASSERT_TRUE(b->run(kWindow, feed)) << b->report();
  uint64_t moved = 0;
  for (unsigned d = 0; d < 4; ++d) {
    const uint64_t out = b->sink(d).flits_received() - out_before[d];
    const uint64_t in = b->source(kPortL + d).flits_sent() - in_before[d];
    EXPECT_EQ(out, kWindow) << "output " << port_name(d);
    EXPECT_EQ(in, kWindow) << "lane " << port_name(kPortL + d);
    moved += out;
  }
  EXPECT_EQ(moved, 4 * kWindow);
  std::printf("[ lanes    ] inject: %llu flits in %llu cycles = %.3f flits/cycle\n",
              static_cast<unsigned long long>(moved), static_cast<unsigned long long>(kWindow),
              static_cast<double>(moved) / kWindow);
  ASSERT_TRUE(b->drain(1000)) << b->report();
  T::expect_clean_and_credits_home(*b);
}

// Four 16-flit packets for this node arrive in the same cycle from N, E, S and W and eject
// concurrently on four different lanes. All four heads first choose lane L (equal credits, lowest
// port); N wins it, and each cycle the next head finds the lane before it held and takes the next
// one, so the heads leave one cycle apart on L, L1, L2, L3 and the packets then stream side by
// side: the last tail leaves 16 + 2 cycles after the first head (one lane would need 4 x 16 - 1).
TYPED_TEST_P(RouterLanesTest, FourArrivalsEjectConcurrentlyOnFourLanes) {
  using T = RouterLanesTest<TypeParam>;
  auto b = T::make_bench(T::at(1, 1));
  constexpr unsigned kLen = 16;
  uint32_t id[4];
  for (unsigned d = 0; d < 4; ++d) id[d] = b->send(b->make_packet(d, T::node(1, 1), kLen, 0));
  ASSERT_TRUE(b->drain(500)) << b->report();
  std::set<int> lanes_used;
  const uint64_t t0 = b->scoreboard().packet(id[0]).head_injected_cycle;
  uint64_t first_head = ~uint64_t{0}, last_tail = 0;
  for (unsigned d = 0; d < 4; ++d) {
    const PacketRecord& r = b->scoreboard().packet(id[d]);
    EXPECT_EQ(r.head_injected_cycle, t0) << "all four heads arrive together";
    EXPECT_EQ(r.delivered_port, static_cast<int>(kPortL + d)) << "from " << port_name(d);
    EXPECT_EQ(r.head_delivered_cycle, t0 + 2 + d) << "from " << port_name(d);
    EXPECT_EQ(r.tail_delivered_cycle - r.head_delivered_cycle, kLen - 1) << "streams unbroken";
    lanes_used.insert(r.delivered_port);
    first_head = std::min(first_head, r.head_delivered_cycle);
    last_tail = std::max(last_tail, r.tail_delivered_cycle);
  }
  EXPECT_EQ(lanes_used.size(), 4u);
  EXPECT_EQ(last_tail - first_head, kLen + 2);
  T::expect_clean_and_credits_home(*b);
}

// Sustained ejection: N, E, S and W each always have a packet for this node queued. The first
// heads leave one cycle apart (see above) and, with equal packet lengths, the packets keep that
// stagger: a lane freed by a tail is the only free lane when its input's next head routes. The
// router therefore ejects exactly four flits per cycle in steady state.
TYPED_TEST_P(RouterLanesTest, FourArrivalStreamsEjectFourFlitsPerCycle) {
  using T = RouterLanesTest<TypeParam>;
  auto b = T::make_bench(T::at(1, 1));
  auto feed = [&](auto& bench) {
    for (unsigned d = 0; d < 4; ++d) {
      while (bench.source(d).queued() < 2) bench.send(bench.make_packet(d, T::node(1, 1), 8, 0));
    }
  };
  ASSERT_TRUE(b->run(100, feed)) << b->report();
  uint64_t before[4];
  for (unsigned k = 0; k < 4; ++k) before[k] = b->sink(kPortL + k).flits_received();
  constexpr uint64_t kWindow = 2000;
  ASSERT_TRUE(b->run(kWindow, feed)) << b->report();
  uint64_t ejected = 0;
  for (unsigned k = 0; k < 4; ++k) {
    const uint64_t n = b->sink(kPortL + k).flits_received() - before[k];
    EXPECT_EQ(n, kWindow) << "lane " << port_name(kPortL + k);
    ejected += n;
  }
  EXPECT_EQ(ejected, 4 * kWindow);
  std::printf("[ lanes    ] eject: %llu flits in %llu cycles = %.3f flits/cycle\n",
              static_cast<unsigned long long>(ejected), static_cast<unsigned long long>(kWindow),
              static_cast<double>(ejected) / kWindow);
  ASSERT_TRUE(b->drain(1000)) << b->report();
  T::expect_clean_and_credits_home(*b);
}

// Each lane has its own credits. With every lane's sink stalled, N, E, S and W offer 10
// single-flit packets each (40 flits) for this node on VC 0: the router fills each lane's
// downstream buffer to exactly BufDepth (32 flits) and holds the other 8; no sink overflows.
// Released, everything arrives and every counter is home. Then the injection side: lane L2's
// source is the only one that sends, and only its own input returns credits to it.
TYPED_TEST_P(RouterLanesTest, EachLaneHasItsOwnCredits) {
  using T = RouterLanesTest<TypeParam>;
  auto b = T::make_bench(T::at(1, 1));
  for (unsigned k = 0; k < T::kLanes; ++k) b->sink(kPortL + k).set_stalled(true);
  for (unsigned d = 0; d < 4; ++d) {
    for (unsigned n = 0; n < 10; ++n) b->send(b->make_packet(d, T::node(1, 1), 1, 0));
  }
  ASSERT_TRUE(b->run(200)) << b->report();
  for (unsigned k = 0; k < T::kLanes; ++k) {
    EXPECT_EQ(b->sink(kPortL + k).occupancy(0), T::kDepth) << "lane " << port_name(kPortL + k);
    EXPECT_EQ(b->sink(kPortL + k).flits_received(), T::kDepth) << port_name(kPortL + k);
  }
  EXPECT_EQ(b->scoreboard().summary().delivered, 4 * T::kDepth);
  ASSERT_TRUE(b->run(200)) << b->report();  // still exactly BufDepth each: no credit leaks
  for (unsigned k = 0; k < T::kLanes; ++k) {
    EXPECT_EQ(b->sink(kPortL + k).flits_received(), T::kDepth) << port_name(kPortL + k);
  }
  for (unsigned k = 0; k < T::kLanes; ++k) b->sink(kPortL + k).set_stalled(false);
  ASSERT_TRUE(b->drain(1000)) << b->report();
  EXPECT_EQ(b->scoreboard().summary().delivered, 40u);
  T::expect_clean_and_credits_home(*b);

  // Injection: stall E, so that lane L2's flits for E back up into L2's input buffer; L2's
  // source then sends exactly BufDepth (E's credits) + BufDepth (its own input buffer) flits and
  // stops, while the other lanes keep all their credits.
  b->sink(kPortE).set_stalled(true);
  for (unsigned n = 0; n < 30; ++n) b->send(b->make_packet(kPortL + 2, T::toward(kPortE), 1, 0));
  const uint64_t sent_before = b->source(kPortL + 2).flits_sent();
  ASSERT_TRUE(b->run(200)) << b->report();
  EXPECT_EQ(b->source(kPortL + 2).flits_sent() - sent_before, 2 * T::kDepth);
  EXPECT_EQ(b->source(kPortL + 2).credits(0), 0u);
  for (unsigned k : {0u, 1u, 3u}) {
    EXPECT_EQ(b->source(kPortL + k).credits(0), T::kDepth) << port_name(kPortL + k);
  }
  b->sink(kPortE).set_stalled(false);
  ASSERT_TRUE(b->drain(1000)) << b->report();
  T::expect_clean_and_credits_home(*b);
}

// Random traffic from all eight ports at several router positions, every route mode and VC
// policy, slow sinks: every packet leaves where the reference allows (any lane when it is for
// this node), and the ejections really spread over the lanes.
TYPED_TEST_P(RouterLanesTest, RandomTrafficRoutesMatchReference) {
  using T = RouterLanesTest<TypeParam>;
  auto b = T::make_bench(T::at(1, 1));
  Rng rng(test_seed(41));
  const unsigned positions[][2] = {{0, 0}, {2, 2}, {1, 1}, {1, 0}};
  std::vector<uint64_t> per_lane(T::kLanes, 0);
  for (VcPolicy policy : {VcPolicy::Keep, VcPolicy::Any}) {
    for (RouteMode mode : {RouteMode::Xy, RouteMode::NorthLast, RouteMode::MinAdaptive}) {
      for (const auto& pos : positions) {
        b->set_straps(T::at(pos[0], pos[1], mode, policy));
        for (unsigned p = 0; p < T::kPorts; ++p) {
          b->sink(p).set_drain_probability(0.3 + 0.7 * rng.uniform());
        }
        ASSERT_TRUE(b->run(1000, [&](auto& bench) {
          for (unsigned p = 0; p < T::kPorts; ++p) {
            if (bench.source(p).queued() != 0 || !rng.chance(0.5)) continue;
            // Half the packets for this router's node, so that ejection is exercised hard; a
            // quarter for other boards, so that lanes also feed the edge ports (under VcKeep on
            // a VC that leaves room for the VC+1 of a board exit).
            Destination d = T::node(pos[0], pos[1]);
            unsigned vc = rng.below(T::kVcs);
            if (rng.chance(0.5)) {
              d = T::node(rng.below(3), rng.below(3));
              if (rng.chance(0.5)) {
                d.board_x = rng.below(6);
                d.board_y = rng.below(7);
                if (policy == VcPolicy::Keep) vc = rng.below(T::kVcs - 1);
              }
            }
            const PacketSpec spec = bench.make_packet(p, d, rng.range(1, 6), vc);
            if (spec.allowed_ports.none()) continue;  // a state no packet can be in
            bench.send(spec);
          }
        })) << b->report();
        for (unsigned p = 0; p < T::kPorts; ++p) b->sink(p).set_drain_probability(1.0);
        ASSERT_TRUE(b->drain(5000)) << b->report();
      }
    }
  }
  for (const PacketRecord& r : b->scoreboard().packets()) {
    if (r.delivered_port >= static_cast<int>(kPortL)) ++per_lane[r.delivered_port - kPortL];
  }
  std::printf("[ lanes    ] %llu packets; ejected per lane: %llu %llu %llu %llu\n",
              static_cast<unsigned long long>(b->scoreboard().summary().delivered),
              static_cast<unsigned long long>(per_lane[0]), static_cast<unsigned long long>(per_lane[1]),
              static_cast<unsigned long long>(per_lane[2]), static_cast<unsigned long long>(per_lane[3]));
  for (unsigned k = 0; k < T::kLanes; ++k) EXPECT_GT(per_lane[k], 200u) << "lane " << k;
  T::expect_clean_and_credits_home(*b);
}

REGISTER_TYPED_TEST_SUITE_P(RouterLanesTest, EjectionMayUseEveryLane, EachLaneRoutesLikePortL,
                            FourLanesInjectFourFlitsPerCycle, FourArrivalsEjectConcurrentlyOnFourLanes,
                            FourArrivalStreamsEjectFourFlitsPerCycle, EachLaneHasItsOwnCredits,
                            RandomTrafficRoutesMatchReference);

}  // namespace hx::test

/// Instantiate the lane tests for `Model` (a Verilated hx_router with LocalPorts = 4); the tests
/// are named Lanes/RouterLanesTest/<Model>.<Test>.
#define HX_INSTANTIATE_ROUTER_LANES_TESTS(Model) HX_INSTANTIATE_ROUTER_SUITE(Lanes, RouterLanesTest, Model)
