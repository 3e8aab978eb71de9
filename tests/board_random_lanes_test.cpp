// board_random_lanes_test.cpp: random stress on board planes whose routers have four local lanes
// (board_random_support.h says how).
#include "Vhx_board_plane_1x1l4.h"
#include "Vhx_board_plane_2x2l4.h"
#include "Vhx_board_plane_4x4l4.h"
#include "board_random_support.h"

namespace hx::test {
namespace {
using namespace board_random;

// Planes whose routers have four local lanes (the paper's four network interfaces per plane).
// Every lane of every node injects; a packet for a node of this board may arrive on any of its
// lanes (the reference allows all four), so the scoreboard's "allowed port" check is "right
// node"; the tests also check the node explicitly and that every lane carried ejections.

TEST(Board1x1l4, SmokeEveryPacketArrives) { smoke<Vhx_board_plane_1x1l4>(1, 1, test_seed(141), 4); }
TEST(Board2x2l4, SmokeEveryPacketArrives) { smoke<Vhx_board_plane_2x2l4>(2, 2, test_seed(142), 4); }

/// Per packet: arrived at a lane of its destination node if that is on this board, else at an
/// edge; on the policy's VC. Returns the ejections per lane.
std::vector<unsigned> check_lane_deliveries(const std::vector<PacketRecord>& packets, const BoardGeometry& g) {
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
  const std::vector<unsigned> per_lane = check_lane_deliveries(packets, BoardGeometry{4, 4, 4});
  std::printf("[ lanes    ] ejections per lane: %u %u %u %u\n", per_lane[0], per_lane[1], per_lane[2], per_lane[3]);
  // Ties go to the lowest lane, so at this load lane 0 takes most packets and the others take
  // the packets that arrive while it is held or short of credits (with VcKeep about 40%, with
  // VcAny, where lane 0 offers every VC, about 12%). A router that ejected on lane 0 only would
  // fail here.
  const unsigned total = per_lane[0] + per_lane[1] + per_lane[2] + per_lane[3];
  EXPECT_GT(total - per_lane[0], total / 20) << "ejection hardly used the lanes beyond lane 0";
  EXPECT_GT(per_lane[1], 0u);
}

TEST(Board4x4l4, XyVcKeepUniformRandom) { lanes_case(uniform_4x4l4(RouteMode::Xy, VcPolicy::Keep), test_seed(143)); }

TEST(Board4x4l4, NorthLastVcKeepUniformRandom) {
  lanes_case(uniform_4x4l4(RouteMode::NorthLast, VcPolicy::Keep), test_seed(144));
}

TEST(Board4x4l4, XyVcAnyUniformRandom) { lanes_case(uniform_4x4l4(RouteMode::Xy, VcPolicy::Any), test_seed(145)); }

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
  std::printf("[ offboard ] %u packets left through an edge, %u came in from an edge\n", left, arrived);
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
    std::printf("[ zeroload ] %s: %u single-flit packets from every lane\n", to_string(mode), checked);
  }
}

}  // namespace
}  // namespace hx::test
