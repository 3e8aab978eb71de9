// board_random_test.cpp: random stress on the 1x1, 2x2 and 4x4 board planes against the
// scoreboard and the reference routing function (board_random_support.h says how).
#include "Vhx_board_plane_1x1.h"
#include "Vhx_board_plane_2x2.h"
#include "Vhx_board_plane_4x4.h"
#include "board_random_support.h"

namespace hx::test {
namespace {
using namespace board_random;

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
  const auto s = run_random<Vhx_board_plane_4x4>(uniform_4x4(RouteMode::Xy, VcPolicy::Keep), test_seed(101));
  EXPECT_GT(s.delivered, 20000u);
}

TEST(Board4x4, XyVcAnyUniformRandom) {
  const auto s = run_random<Vhx_board_plane_4x4>(uniform_4x4(RouteMode::Xy, VcPolicy::Any), test_seed(102));
  EXPECT_GT(s.delivered, 20000u);
}

TEST(Board4x4, NorthLastVcKeepUniformRandom) {
  const auto s = run_random<Vhx_board_plane_4x4>(uniform_4x4(RouteMode::NorthLast, VcPolicy::Keep), test_seed(103));
  EXPECT_GT(s.delivered, 20000u);
}

// Half the packets go to other boards of a 4x4 HammingMesh and the edge ports inject traffic
// that arrives from the trees on VC 1: packets for other boards must leave through an edge the
// reference allows (nearer E/W edge for the same board row, nearer N/S edge for the same
// column, either for neither; with trees of span line on any row or column the optional moves
// toward the destination's line reach, with span board on the packet's own) on their VC + 1;
// packets from the edges keep VC 1 to their node.
void offboard_case(RouteMode mode, TreeSpan span, uint64_t seed) {
  RandomCase rc = uniform_4x4(mode, VcPolicy::Keep);
  rc.span = span;
  rc.traffic.offered_load = 0.3;
  rc.traffic.offboard_fraction = 0.5;
  rc.traffic.edge_load = 0.03;
  rc.traffic.edge_vc = 1;
  std::vector<PacketRecord> packets;
  run_random<Vhx_board_plane_4x4>(rc, seed, &packets);
  const BoardGeometry g{4, 4};
  unsigned left = 0, arrived = 0, several = 0;
  for (const PacketRecord& r : packets) {
    const bool offboard = r.spec.header.dst_board_x != kBoardX || r.spec.header.dst_board_y != kBoardY;
    ASSERT_GE(r.delivered_port, 0);
    const bool at_edge = static_cast<unsigned>(r.delivered_port) >= g.num_nodes();
    EXPECT_EQ(offboard, at_edge) << "packet " << r.id;
    EXPECT_EQ(r.delivered_vc, static_cast<int>(r.spec.vc + (at_edge ? 1 : 0))) << "packet " << r.id;
    left += at_edge;
    arrived += r.spec.src_port >= g.num_nodes();
    several += r.spec.allowed_ports.count() > 1;
  }
  std::printf(
      "[ offboard ] %u packets left through an edge, %u came in from an edge, %u had "
      "several allowed exits\n",
      left, arrived, several);
  EXPECT_GT(left, 6000u);
  EXPECT_GT(arrived, 2000u);
}

TEST(Board4x4, OffBoardPacketsLeaveThroughReferenceEdgesXy) {
  offboard_case(RouteMode::Xy, TreeSpan::Line, test_seed(104));
}

TEST(Board4x4, OffBoardPacketsLeaveThroughReferenceEdgesNorthLast) {
  offboard_case(RouteMode::NorthLast, TreeSpan::Line, test_seed(105));
}

TEST(Board4x4, OffBoardPacketsLeaveThroughReferenceEdgesXySpanBoard) {
  offboard_case(RouteMode::Xy, TreeSpan::Board, test_seed(106));
}

TEST(Board4x4, OffBoardPacketsLeaveThroughReferenceEdgesNorthLastSpanBoard) {
  offboard_case(RouteMode::NorthLast, TreeSpan::Board, test_seed(107));
}

// At zero load a head crosses the board in 2 cycles per router, so its latency shows how many
// routers it crossed: it must be a minimal path of the reference (for on-board destinations all
// allowed paths have the same length). XY: every external port to every node, and every local
// port to nodes of four other boards; north-last: every local port to every node and to the
// four other boards. Each with trees of span line and of span board; with span board a packet
// for the same board row or column has one path, straight to the nearer edge.
TEST(Board4x4, ZeroLoadLatencyMatchesMinimalPaths) {
  using M = Vhx_board_plane_4x4;
  for (const auto& [mode, span] :
       {std::pair{RouteMode::Xy, TreeSpan::Line}, std::pair{RouteMode::Xy, TreeSpan::Board},
        std::pair{RouteMode::NorthLast, TreeSpan::Line}, std::pair{RouteMode::NorthLast, TreeSpan::Board}}) {
    RandomCase rc;
    rc.mode = mode;
    rc.span = span;
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
          const BoardRoutes ref = board_routes(g, kBoardX, kBoardY, mode, src, d, span);
          ASSERT_FALSE(ref.exits.empty());
          const uint32_t id = b.send(b.make_packet(src, d, 1, from_edge ? 1 : 0));
          ASSERT_TRUE(b.run_until_delivered(id, 100)) << b.report();
          const PacketRecord& r = b.scoreboard().packet(id);
          const uint64_t lat = r.head_delivered_cycle - r.head_injected_cycle;
          EXPECT_GE(lat, 2u * ref.min_routers) << b.port_name(src) << " " << to_string(mode) << " " << to_string(span);
          EXPECT_LE(lat, 2u * ref.max_routers) << b.port_name(src) << " " << to_string(mode) << " " << to_string(span);
          if (k < 0 || (span == TreeSpan::Board && k < 2)) {
            EXPECT_EQ(ref.min_routers, ref.max_routers) << b.port_name(src) << " " << to_string(mode);
          }
          ++checked;
        }
      }
    }
    ASSERT_TRUE(b.drain(1000)) << b.report();
    expect_all_clean(b);
    std::printf(
        "[ zeroload ] %s %s: %u single-flit packets, latency = 2 x routers on a minimal "
        "path\n",
        to_string(mode), to_string(span), checked);
  }
}

// Skipping the clock edges that idle_o says change nothing (hxsim does, verilated_plane.h) must
// change no result: the same light random traffic, with off-board packets and packets arriving
// at the edges, clocked at every edge and with idle edges skipped, delivers every packet in the
// same cycle on the same port and VC. The light load leaves the plane idle between packets, so
// edges are skipped; with the RTL's idle_o too optimistic, some packet would arrive later or not
// at all.
TEST(Board4x4, SkippingIdleEdgesChangesNoResult) {
  for (RouteMode mode : {RouteMode::Xy, RouteMode::NorthLast}) {
    RandomCase rc;
    rc.mode = mode;
    rc.traffic.offered_load = 0.01;
    rc.traffic.min_length = 1;
    rc.traffic.max_length = 5;
    rc.traffic.offboard_fraction = 0.3;
    rc.traffic.edge_load = 0.002;
    rc.cycles = 20000;
    rc.drain_lo = 0.3;
    std::vector<PacketRecord> every, skipping;
    uint64_t skipped_every = 0, skipped = 0;
    const uint64_t seed = test_seed(131);
    run_random<Vhx_board_plane_4x4>(rc, seed, &every, &skipped_every);
    rc.skip_idle = true;
    run_random<Vhx_board_plane_4x4>(rc, seed, &skipping, &skipped);
    EXPECT_EQ(skipped_every, 0u);
    EXPECT_GT(skipped, rc.cycles / 4) << "the light load should leave the plane idle for long stretches";
    ASSERT_EQ(every.size(), skipping.size());
    ASSERT_GT(every.size(), 500u);
    for (std::size_t i = 0; i < every.size(); ++i) {
      EXPECT_EQ(every[i].head_delivered_cycle, skipping[i].head_delivered_cycle) << "packet " << i;
      EXPECT_EQ(every[i].tail_delivered_cycle, skipping[i].tail_delivered_cycle) << "packet " << i;
      EXPECT_EQ(every[i].delivered_port, skipping[i].delivered_port) << "packet " << i;
      EXPECT_EQ(every[i].delivered_vc, skipping[i].delivered_vc) << "packet " << i;
    }
    std::printf("[ idleskip ] %s: %zu packets, %llu of %llu+ edges skipped, same delivery cycles\n", to_string(mode),
                every.size(), static_cast<unsigned long long>(skipped), static_cast<unsigned long long>(rc.cycles));
  }
}

TEST(Board1x1, SmokeEveryPacketArrives) { smoke<Vhx_board_plane_1x1>(1, 1, test_seed(111)); }
TEST(Board2x2, SmokeEveryPacketArrives) { smoke<Vhx_board_plane_2x2>(2, 2, test_seed(122)); }

}  // namespace
}  // namespace hx::test
