// board_random_test.cpp: random stress on whole board planes (hx_board_plane, a x b routers).
//
// Every test runs seeded uniform random traffic (the seed is printed; HX_SEED overrides it)
// into the plane's local ports, with sinks that drain at a random per-port rate, then drains
// the network and requires a clean scoreboard: every packet delivered exactly once, intact, at
// an external port the reference routing function allows (route_ref.h, followed across the
// board), on the VC the policy prescribes (VcKeep: injection VC on the board, VC+1 at an edge).
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <vector>

// Built three times (tests/CMakeLists.txt): HX_BOARD_TESTS_SMALL for the 1x1, 2x2 and 4x4
// planes, HX_BOARD_TESTS_8X8 for the 8x8 plane, whose model takes far longer to compile, and
// HX_BOARD_TESTS_LANES for the planes with four local lanes per router.
#if HX_BOARD_TESTS_SMALL
#include "Vhx_board_plane_1x1.h"
#include "Vhx_board_plane_2x2.h"
#include "Vhx_board_plane_4x4.h"
#endif
#if HX_BOARD_TESTS_8X8
#include "Vhx_board_plane_8x8v4.h"
#endif
#if HX_BOARD_TESTS_LANES
#include "Vhx_board_plane_1x1l4.h"
#include "Vhx_board_plane_2x2l4.h"
#include "Vhx_board_plane_4x4l4.h"
#endif
#include "link_bench.h"
#include "rng.h"
#include "test_support.h"
#include "traffic.h"

namespace hx::test {
namespace {

constexpr unsigned kBoardX = 1;  // the plane's place in a 4x4 grid of boards
constexpr unsigned kBoardY = 2;

struct RandomCase {
  unsigned size_x = 4, size_y = 4;
  RouteMode mode = RouteMode::Xy;
  VcPolicy policy = VcPolicy::Keep;
  UniformTrafficConfig traffic;
  unsigned num_vcs = 3;  // the model's NumVcs
  unsigned lanes = 1;    // the model's LocalPorts
  uint64_t cycles = 40000;
  double drain_lo = 0.5, drain_hi = 1.0;  // per-sink drain probability range
};

template <class M>
BenchConfig board_config(const RandomCase& rc, uint64_t seed) {
  BenchConfig c;
  c.board = BoardGeometry{rc.size_x, rc.size_y, rc.lanes};
  c.straps.board_x = kBoardX;
  c.straps.board_y = kBoardY;
  c.straps.route_mode = rc.mode;
  c.straps.vc_policy = rc.policy;
  c.num_vcs = rc.num_vcs;
  c.seed = seed;
  c.watchdog_cycles = 3000;
  c.expected_packets = 1u << 16;
  c.trace_file = trace_path();
  return c;
}

template <class B>
void expect_all_clean(const B& b) {
  const ScoreboardSummary s = b.scoreboard().summary();
  EXPECT_FALSE(b.deadlocked()) << b.deadlock_report();
  EXPECT_TRUE(b.ok()) << b.report();
  EXPECT_TRUE(s.all_delivered()) << b.report();
  EXPECT_EQ(s.lost, 0u);
  EXPECT_EQ(s.duplicated, 0u);
  EXPECT_EQ(s.corrupted, 0u);
  EXPECT_EQ(s.misrouted, 0u);
  EXPECT_EQ(s.bad_vc, 0u);
  for (unsigned p = 0; p < b.num_ports(); ++p) {
    for (unsigned v = 0; v < b.config().num_vcs; ++v) {
      EXPECT_EQ(b.source(p).credits(v), b.config().buf_depth) << b.port_name(p) << " vc " << v;
    }
    EXPECT_EQ(b.sink(p).credits_returned(), b.sink(p).flits_received()) << b.port_name(p);
  }
}

/// Run a random case on model M; returns the bench's summary for extra checks.
template <class M>
ScoreboardSummary run_random(RandomCase rc, uint64_t seed,
                             std::vector<PacketRecord>* packets = nullptr) {
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
  const double wall =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  expect_all_clean(b);

  const ScoreboardSummary s = b.scoreboard().summary();
  double lat = 0;
  for (const PacketRecord& r : b.scoreboard().packets()) {
    lat += static_cast<double>(r.tail_delivered_cycle - r.created_cycle);
  }
  std::printf("[ board    ] %ux%u, %u lane(s), %s %s: %llu packets, %llu flits in %llu cycles "
              "(%.3f flits/node/cycle), avg latency %.1f cycles, %.0f cycles/s\n",
              rc.size_x, rc.size_y, rc.lanes, to_string(rc.mode), to_string(rc.policy),
              static_cast<unsigned long long>(s.delivered),
              static_cast<unsigned long long>(s.flits_delivered),
              static_cast<unsigned long long>(b.cycle()),
              static_cast<double>(s.flits_delivered) / (rc.cycles * cfg.board.num_nodes()),
              s.delivered ? lat / s.delivered : 0.0, b.cycle() / wall);
  if (packets) *packets = b.scoreboard().packets();
  return s;
}

#if HX_BOARD_TESTS_SMALL
RandomCase uniform_4x4(RouteMode mode, VcPolicy policy) {
  RandomCase rc;
  rc.mode = mode;
  rc.policy = policy;
  rc.traffic.offered_load = 0.35;
  rc.traffic.min_length = 1;
  rc.traffic.max_length = 8;
  rc.traffic.random_vc = policy == VcPolicy::Any;
  return rc;
}

TEST(Board4x4, XyVcKeepUniformRandom) {
  const auto s = run_random<Vhx_board_plane_4x4>(uniform_4x4(RouteMode::Xy, VcPolicy::Keep),
                                                 test_seed(101));
  EXPECT_GT(s.delivered, 20000u);
}

TEST(Board4x4, XyVcAnyUniformRandom) {
  const auto s = run_random<Vhx_board_plane_4x4>(uniform_4x4(RouteMode::Xy, VcPolicy::Any),
                                                 test_seed(102));
  EXPECT_GT(s.delivered, 20000u);
}

TEST(Board4x4, NorthLastVcKeepUniformRandom) {
  const auto s = run_random<Vhx_board_plane_4x4>(
      uniform_4x4(RouteMode::NorthLast, VcPolicy::Keep), test_seed(103));
  EXPECT_GT(s.delivered, 20000u);
}

// Half the packets go to other boards of a 4x4 HammingMesh and the edge ports inject traffic
// that arrives from the trees on VC 1: packets for other boards must leave through an edge the
// reference allows (nearer E/W edge for the same board row, nearer N/S edge for the same
// column, either for neither) on their VC + 1; packets from the edges keep VC 1 to their node.
void offboard_case(RouteMode mode, uint64_t seed) {
  RandomCase rc = uniform_4x4(mode, VcPolicy::Keep);
  rc.traffic.offered_load = 0.3;
  rc.traffic.offboard_fraction = 0.5;
  rc.traffic.edge_load = 0.03;
  rc.traffic.edge_vc = 1;
  std::vector<PacketRecord> packets;
  run_random<Vhx_board_plane_4x4>(rc, seed, &packets);
  const BoardGeometry g{4, 4};
  unsigned left = 0, arrived = 0, several = 0;
  for (const PacketRecord& r : packets) {
    const bool offboard =
        r.spec.header.dst_board_x != kBoardX || r.spec.header.dst_board_y != kBoardY;
    ASSERT_GE(r.delivered_port, 0);
    const bool at_edge = static_cast<unsigned>(r.delivered_port) >= g.num_nodes();
    EXPECT_EQ(offboard, at_edge) << "packet " << r.id;
    EXPECT_EQ(r.delivered_vc, static_cast<int>(r.spec.vc + (at_edge ? 1 : 0)))
        << "packet " << r.id;
    left += at_edge;
    arrived += r.spec.src_port >= g.num_nodes();
    several += r.spec.allowed_ports.count() > 1;
  }
  std::printf("[ offboard ] %u packets left through an edge, %u came in from an edge, %u had "
              "several allowed exits\n",
              left, arrived, several);
  EXPECT_GT(left, 6000u);
  EXPECT_GT(arrived, 2000u);
}

TEST(Board4x4, OffBoardPacketsLeaveThroughReferenceEdgesXy) {
  offboard_case(RouteMode::Xy, test_seed(104));
}

TEST(Board4x4, OffBoardPacketsLeaveThroughReferenceEdgesNorthLast) {
  offboard_case(RouteMode::NorthLast, test_seed(105));
}

// At zero load a head crosses the board in 2 cycles per router, so its latency shows how many
// routers it crossed: it must be a minimal path of the reference (for on-board destinations all
// allowed paths have the same length). XY: every external port to every node, and every local
// port to nodes of four other boards; north-last: every local port to every node and to the
// four other boards.
TEST(Board4x4, ZeroLoadLatencyMatchesMinimalPaths) {
  using M = Vhx_board_plane_4x4;
  for (RouteMode mode : {RouteMode::Xy, RouteMode::NorthLast}) {
    RandomCase rc;
    rc.mode = mode;
    LinkBench<M> b(board_config<M>(rc, 1));
    const BoardGeometry& g = b.config().board;
    const std::pair<unsigned, unsigned> others[] = {{3, kBoardY}, {kBoardX, 0}, {3, 3}, {0, 0}};
    unsigned checked = 0;
    const unsigned sources = mode == RouteMode::Xy ? g.num_external() : g.num_nodes();
    for (unsigned src = 0; src < sources; ++src) {
      const bool from_edge = src >= g.num_nodes();
      for (unsigned n = 0; n < g.num_nodes(); ++n) {
        for (int k = -1; k < (from_edge ? 0 : 4); ++k) {
          Destination d;
          d.board_x = k < 0 ? kBoardX : others[k].first;
          d.board_y = k < 0 ? kBoardY : others[k].second;
          d.node_x = n % g.size_x;
          d.node_y = n / g.size_x;
          const BoardRoutes ref = board_routes(g, kBoardX, kBoardY, mode, src, d);
          ASSERT_FALSE(ref.exits.empty());
          const uint32_t id = b.send(b.make_packet(src, d, 1, from_edge ? 1 : 0));
          ASSERT_TRUE(b.run_until_delivered(id, 100)) << b.report();
          const PacketRecord& r = b.scoreboard().packet(id);
          const uint64_t lat = r.head_delivered_cycle - r.head_injected_cycle;
          EXPECT_GE(lat, 2u * ref.min_routers) << b.port_name(src) << " " << to_string(mode);
          EXPECT_LE(lat, 2u * ref.max_routers) << b.port_name(src) << " " << to_string(mode);
          if (k < 0) EXPECT_EQ(ref.min_routers, ref.max_routers);
          ++checked;
        }
      }
    }
    ASSERT_TRUE(b.drain(1000)) << b.report();
    expect_all_clean(b);
    std::printf("[ zeroload ] %s: %u single-flit packets, latency = 2 x routers on a minimal "
                "path\n",
                to_string(mode), checked);
  }
}

#endif  // HX_BOARD_TESTS_SMALL

#if HX_BOARD_TESTS_8X8
TEST(Board8x8v4, XySingleFlitUniformModerateLoad) {
  RandomCase rc;
  rc.size_x = 8;
  rc.size_y = 8;
  rc.mode = RouteMode::Xy;
  rc.policy = VcPolicy::Keep;
  rc.num_vcs = 4;
  rc.traffic.offered_load = 0.2;
  rc.traffic.min_length = 1;
  rc.traffic.max_length = 1;
  rc.cycles = 10000;
  rc.drain_lo = 0.9;
  const auto s = run_random<Vhx_board_plane_8x8v4>(rc, test_seed(108));
  EXPECT_GT(s.delivered, 100000u);
}

#endif  // HX_BOARD_TESTS_8X8

#if HX_BOARD_TESTS_SMALL || HX_BOARD_TESTS_LANES
template <class M>
void smoke(unsigned sx, unsigned sy, uint64_t seed, unsigned lanes = 1) {
  for (RouteMode mode : {RouteMode::Xy, RouteMode::NorthLast}) {
    RandomCase rc;
    rc.size_x = sx;
    rc.size_y = sy;
    rc.lanes = lanes;
    rc.mode = mode;
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

#endif  // HX_BOARD_TESTS_SMALL || HX_BOARD_TESTS_LANES

#if HX_BOARD_TESTS_SMALL
TEST(Board1x1, SmokeEveryPacketArrives) { smoke<Vhx_board_plane_1x1>(1, 1, test_seed(111)); }
TEST(Board2x2, SmokeEveryPacketArrives) { smoke<Vhx_board_plane_2x2>(2, 2, test_seed(122)); }
#endif  // HX_BOARD_TESTS_SMALL

#if HX_BOARD_TESTS_LANES
// Planes whose routers have four local lanes (the paper's four network interfaces per plane).
// Every lane of every node injects; a packet for a node of this board may arrive on any of its
// lanes (the reference allows all four), so the scoreboard's "allowed port" check is "right
// node"; the tests also check the node explicitly and that every lane carried ejections.

TEST(Board1x1l4, SmokeEveryPacketArrives) { smoke<Vhx_board_plane_1x1l4>(1, 1, test_seed(141), 4); }
TEST(Board2x2l4, SmokeEveryPacketArrives) { smoke<Vhx_board_plane_2x2l4>(2, 2, test_seed(142), 4); }

/// Per packet: arrived at a lane of its destination node if that is on this board, else at an
/// edge; on the policy's VC. Returns the ejections per lane.
std::vector<unsigned> check_lane_deliveries(const std::vector<PacketRecord>& packets,
                                            const BoardGeometry& g) {
  std::vector<unsigned> per_lane(g.local_ports, 0);
  for (const PacketRecord& r : packets) {
    const Header& h = r.spec.header;
    const bool offboard = h.dst_board_x != kBoardX || h.dst_board_y != kBoardY;
    EXPECT_GE(r.delivered_port, 0) << "packet " << r.id;
    if (r.delivered_port < 0) continue;
    const unsigned port = static_cast<unsigned>(r.delivered_port);
    EXPECT_EQ(offboard, port >= g.num_local()) << "packet " << r.id;
    if (port < g.num_local()) {
      EXPECT_EQ(port % g.num_nodes(), h.dst_node_y * g.size_x + h.dst_node_x)
          << "packet " << r.id << " at the wrong node";
      ++per_lane[port / g.num_nodes()];
    }
  }
  return per_lane;
}

RandomCase uniform_4x4l4(RouteMode mode, VcPolicy policy) {
  RandomCase rc;
  rc.lanes = 4;
  rc.mode = mode;
  rc.policy = policy;
  rc.traffic.offered_load = 0.12;  // per lane: 0.48 flits per node and cycle in all
  rc.traffic.min_length = 1;
  rc.traffic.max_length = 8;
  rc.traffic.random_vc = policy == VcPolicy::Any;
  rc.cycles = 20000;
  return rc;
}

void lanes_case(RandomCase rc, uint64_t seed) {
  std::vector<PacketRecord> packets;
  const ScoreboardSummary s = run_random<Vhx_board_plane_4x4l4>(rc, seed, &packets);
  EXPECT_GT(s.delivered, 20000u);
  const std::vector<unsigned> per_lane =
      check_lane_deliveries(packets, BoardGeometry{4, 4, 4});
  std::printf("[ lanes    ] ejections per lane: %u %u %u %u\n", per_lane[0], per_lane[1],
              per_lane[2], per_lane[3]);
  // Ties go to the lowest lane, so at this load lane 0 takes most packets and the others take
  // the packets that arrive while it is held or short of credits (with VcKeep about 40%, with
  // VcAny, where lane 0 offers every VC, about 12%). A router that ejected on lane 0 only would
  // fail here.
  const unsigned total = per_lane[0] + per_lane[1] + per_lane[2] + per_lane[3];
  EXPECT_GT(total - per_lane[0], total / 20) << "ejection hardly used the lanes beyond lane 0";
  EXPECT_GT(per_lane[1], 0u);
}

TEST(Board4x4l4, XyVcKeepUniformRandom) {
  lanes_case(uniform_4x4l4(RouteMode::Xy, VcPolicy::Keep), test_seed(143));
}

TEST(Board4x4l4, NorthLastVcKeepUniformRandom) {
  lanes_case(uniform_4x4l4(RouteMode::NorthLast, VcPolicy::Keep), test_seed(144));
}

TEST(Board4x4l4, XyVcAnyUniformRandom) {
  lanes_case(uniform_4x4l4(RouteMode::Xy, VcPolicy::Any), test_seed(145));
}

// Off-board traffic from every lane and traffic from the trees into the edge ports: it leaves
// through the edges the reference allows, on VC + 1, and what comes in reaches a lane of its node.
TEST(Board4x4l4, NorthLastOffBoardAndEdgeTraffic) {
  RandomCase rc = uniform_4x4l4(RouteMode::NorthLast, VcPolicy::Keep);
  rc.traffic.offboard_fraction = 0.5;
  rc.traffic.edge_load = 0.03;
  rc.traffic.edge_vc = 1;
  std::vector<PacketRecord> packets;
  run_random<Vhx_board_plane_4x4l4>(rc, test_seed(146), &packets);
  const BoardGeometry g{4, 4, 4};
  unsigned left = 0, arrived = 0;
  for (const PacketRecord& r : packets) {
    ASSERT_GE(r.delivered_port, 0);
    const bool at_edge = static_cast<unsigned>(r.delivered_port) >= g.num_local();
    EXPECT_EQ(r.delivered_vc, static_cast<int>(r.spec.vc + (at_edge ? 1 : 0))) << "packet " << r.id;
    left += at_edge;
    arrived += r.spec.src_port >= g.num_local();
  }
  check_lane_deliveries(packets, g);
  std::printf("[ offboard ] %u packets left through an edge, %u came in from an edge\n", left,
              arrived);
  EXPECT_GT(left, 10000u);
  EXPECT_GT(arrived, 1000u);
}

// At zero load a head from any lane crosses the board in 2 cycles per router: from every lane of
// every node to every node (and, under XY, from every edge port), the latency is that of a
// minimal path of the reference, and the packet ejects on lane 0 (all lanes have equal credits,
// ties go to the lowest port).
TEST(Board4x4l4, ZeroLoadLatencyFromEveryLane) {
  using M = Vhx_board_plane_4x4l4;
  for (RouteMode mode : {RouteMode::Xy, RouteMode::NorthLast}) {
    RandomCase rc;
    rc.lanes = 4;
    rc.mode = mode;
    LinkBench<M> b(board_config<M>(rc, 1));
    const BoardGeometry& g = b.config().board;
    ASSERT_EQ(b.num_ports(), 64u + 16u);
    unsigned checked = 0;
    const unsigned sources = mode == RouteMode::Xy ? g.num_external() : g.num_local();
    for (unsigned src = 0; src < sources; ++src) {
      const bool from_edge = src >= g.num_local();
      for (unsigned n = 0; n < g.num_nodes(); ++n) {
        Destination d;
        d.board_x = kBoardX;
        d.board_y = kBoardY;
        d.node_x = n % g.size_x;
        d.node_y = n / g.size_x;
        const BoardRoutes ref = board_routes(g, kBoardX, kBoardY, mode, src, d);
        ASSERT_EQ(ref.exits.size(), 4u) << "every lane of the node";
        EXPECT_EQ(ref.min_routers, ref.max_routers);
        ASSERT_TRUE(b.drain(100)) << b.report();  // every credit home: the lanes tie
        const uint32_t id = b.send(b.make_packet(src, d, 1, from_edge ? 1 : 0));
        ASSERT_TRUE(b.run_until_delivered(id, 100)) << b.report();
        const PacketRecord& r = b.scoreboard().packet(id);
        EXPECT_EQ(r.head_delivered_cycle - r.head_injected_cycle, 2u * ref.min_routers)
            << b.port_name(src) << " " << to_string(mode);
        EXPECT_EQ(r.delivered_port, static_cast<int>(g.local_port(d.node_x, d.node_y, 0)));
        ++checked;
      }
    }
    ASSERT_TRUE(b.drain(1000)) << b.report();
    expect_all_clean(b);
    std::printf("[ zeroload ] %s: %u single-flit packets from every lane\n", to_string(mode),
                checked);
  }
}
#endif  // HX_BOARD_TESTS_LANES

}  // namespace
}  // namespace hx::test
