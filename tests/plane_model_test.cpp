// plane_model_test.cpp: the board-plane registry and VerilatedPlane without a SystemC run: the
// built variants know their lanes, and a four-lane plane moves flits between FlitLinks on every
// lane (the adapter drives and samples all NumNodes * LocalPorts local ports, lane-major).
#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

// <systemc.h> before Verilator's headers (they need ::sc_time_stamp).
#include <systemc.h>

#include "board_geometry.h"
#include "flit_link.h"
#include "plane_registry.h"
#include "verilated.h"

int sc_main(int, char*[]) { return 0; }  // libsystemc needs one; gtest_main runs the tests

namespace hx {
namespace {

TEST(PlaneRegistry, VariantsCarryTheirLanes) {
  const PlaneVariant* one = find_plane_variant(4, 4, 3, 8, 128);
  ASSERT_NE(one, nullptr);
  EXPECT_EQ(one->name, "4x4");
  EXPECT_EQ(one->local_ports, 1u);
  EXPECT_EQ(find_plane_variant(4, 4, 3, 8, 128, 1), one);
  const PlaneVariant* four = find_plane_variant(4, 4, 3, 8, 128, 4);
  ASSERT_NE(four, nullptr);
  EXPECT_EQ(four->name, "4x4l4");
  EXPECT_EQ(four->local_ports, 4u);
  EXPECT_EQ(four->num_vcs, 3u);
  EXPECT_EQ(find_plane_variant(4, 4, 3, 8, 128, 2), nullptr) << "not built";
  EXPECT_EQ(find_plane_variant(8, 8, 4, 8, 128, 4), nullptr) << "not built";
  const std::string d = describe_built_plane_variants();
  EXPECT_NE(d.find("4x4 (3 VCs x 8 flits, 128-bit payload, 4 lanes)"), std::string::npos) << d;
  EXPECT_NE(d.find("8x8 (4 VCs x 8 flits, 128-bit payload, 1 lane)"), std::string::npos) << d;
}

// Node 0 = (0,0) of a 2x2 plane with four lanes sends one single-flit packet on each lane, all in
// the same cycle, to node 3 = (1,1). The receiving accelerator never returns a credit, so after
// each ejection the lane just used has one credit fewer than the others: the four packets, which
// cross the E link in lane order (round robin from the lowest input), leave on four different
// lanes, packet k on lane k. Each injecting lane gets its own credit back.
TEST(VerilatedPlane, FourLanePlaneUsesEveryLane) {
  VerilatedContext ctx;
  const PlaneVariant* v = find_plane_variant(2, 2, 3, 8, 128, 4);
  ASSERT_NE(v, nullptr);
  std::unique_ptr<PlaneModel> plane = make_plane(*v, &ctx, "plane");
  EXPECT_EQ(plane->num_local_ports(), 4u);
  EXPECT_EQ(plane->num_ports(), 4u * 4 + 8);
  EXPECT_EQ(plane->local_port(3, 2), 11u);
  EXPECT_EQ(plane->local_port(3), 3u);
  EXPECT_EQ(plane->geometry().edge_port(kPortN, 0, 1), 16u) << "edges follow all lanes";
  EXPECT_EQ(plane->geometry().local_port(1, 1, 2), plane->local_port(3, 2));

  std::vector<std::unique_ptr<FlitLink>> in, out;
  for (unsigned p = 0; p < 16; ++p) {
    in.push_back(std::make_unique<FlitLink>(("in" + std::to_string(p)).c_str(), 0));
    out.push_back(std::make_unique<FlitLink>(("out" + std::to_string(p)).c_str(), 0));
    plane->connect(p, in.back().get(), out.back().get());
  }
  PlaneStraps straps;
  straps.route_mode = RouteMode::Xy;
  plane->reset(straps, 4);

  const FlitFormat fmt;
  for (unsigned k = 0; k < 4; ++k) {
    Header h;
    h.dst_node_x = 1;
    h.dst_node_y = 1;
    Flit f;
    f.type = FlitType::Single;
    h.encode(fmt, f.payload);
    f.payload[1] = 0xa0 + k;  // above the header: which lane sent it
    in[plane->local_port(0, k)]->send(0, f);
  }
  std::vector<int> lane_of(4, -1);
  std::vector<unsigned> credits(4, 0);
  unsigned arrivals = 0;
  for (uint64_t t = 0; t < 40; ++t) {
    plane->drive(t);
    plane->edge(t);
    for (unsigned p = 0; p < 16; ++p) {
      if (const Flit* f = out[p]->receive(t)) {
        ++arrivals;
        ASSERT_EQ(p % 4, 3u) << "a flit for node 3 left at port " << p;
        const uint64_t k = f->payload[1] - 0xa0;
        ASSERT_LT(k, 4u);
        EXPECT_EQ(lane_of[k], -1) << "packet from lane " << k << " twice";
        lane_of[k] = static_cast<int>(p / 4);
      }
      if (in[p]->credit(t) >= 0) {
        ASSERT_EQ(p % 4, 0u) << "credit to a port that sent nothing";
        ++credits[p / 4];
      }
    }
  }
  EXPECT_EQ(arrivals, 4u);
  for (unsigned k = 0; k < 4; ++k) {
    EXPECT_EQ(lane_of[k], static_cast<int>(k)) << "packet from lane " << k;
    EXPECT_EQ(credits[k], 1u) << "credits to lane " << k;
  }
  EXPECT_EQ(plane->error_bits(), 0u);
  EXPECT_EQ(plane->stray_flits(), 0u);
}

// The RTL's ports take one flit per cycle: a plane refuses a link of any other rate, by name.
TEST(VerilatedPlane, RefusesLinksThatAreNotOneFlitPerCycle) {
  VerilatedContext ctx;
  const PlaneVariant* v = find_plane_variant(2, 2, 3, 8, 128, 1);
  ASSERT_NE(v, nullptr);
  std::unique_ptr<PlaneModel> plane = make_plane(*v, &ctx, "plane");
  FlitLink full("full", 0), fast("fast", 0, LinkRate::per_cycle(2)), slow("slow", 0, LinkRate::per_cycle(0.5));
  EXPECT_NO_THROW(plane->connect(0, &full, &full));
  EXPECT_THROW(plane->connect(1, &fast, &full), std::invalid_argument);
  try {
    plane->connect(2, &full, &slow);
    ADD_FAILURE() << "a rate-1/2 link was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("slow"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace hx
