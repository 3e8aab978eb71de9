// router_fixture.h: what the directed router tests (router_directed_tests.h) and the four-lane
// router tests (router_lanes_tests.h) share: a LinkBench around one hx_router model with `Lanes`
// local ports, its straps and destinations, the end-of-test checks, and the instantiation of a
// suite for a model.
//
// The router sits at node (1,1) of a 3x3 board (last_x = last_y = 2) at board (2,3), unless a
// test moves it; its ports are the bench's external ports N=0, E=1, S=2, W=3, then the lanes
// L=4, L1=5, ..., each with a credit-flow-controlled source and sink of BufDepth = 8 flits per VC.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>

#include "board_mesh.h"
#include "link_bench.h"
#include "test_support.h"

namespace hx::test {

template <class M, unsigned Lanes>
class RouterFixture : public ::testing::Test {
 public:
  using Bench = LinkBench<M>;
  static constexpr unsigned kLanes = Lanes;
  static constexpr unsigned kPorts = num_router_ports(kLanes);
  static constexpr unsigned kBoardX = 2;
  static constexpr unsigned kBoardY = 3;
  static constexpr unsigned kDepth = 8;
  static constexpr unsigned kVcs = 3;

  static Straps at(unsigned x, unsigned y, RouteMode mode = RouteMode::Xy, VcPolicy policy = VcPolicy::Keep,
                   TreeSpan span = TreeSpan::Line) {
    Straps s;
    s.node_x = x;
    s.node_y = y;
    s.last_x = 2;
    s.last_y = 2;
    s.board_x = kBoardX;
    s.board_y = kBoardY;
    s.route_mode = mode;
    s.tree_span = span;
    s.vc_policy = policy;
    return s;
  }

  static std::unique_ptr<Bench> make_bench(const Straps& s, uint8_t allowed_errors = 0, uint64_t watchdog = 2000,
                                           bool contracts_broken = false) {
    BenchConfig c;
    c.contracts_broken = contracts_broken;
    c.local_ports = kLanes;
    c.straps = s;
    c.allowed_error_mask = allowed_errors;
    c.watchdog_cycles = watchdog;
    c.trace_file = trace_path();
    return std::make_unique<Bench>(c);
  }

  /// Node (x, y) of the router's own board.
  static Destination node(unsigned x, unsigned y) { return remote(kBoardX, kBoardY, x, y); }
  static Destination remote(unsigned bx, unsigned by, unsigned x, unsigned y) {
    Destination d;
    d.board_x = bx;
    d.board_y = by;
    d.node_x = x;
    d.node_y = y;
    return d;
  }
  static ExternalPortSet only(unsigned port) {
    ExternalPortSet s;
    s.set(port);
    return s;
  }

  /// Everything delivered, exactly once, intact, on an allowed port and VC; no bench error.
  static void expect_clean(const Bench& b) { expect_scoreboard_clean(b); }

  /// Every source holds BufDepth credits per VC again, and every sink returned exactly one
  /// credit per flit it received and holds nothing.
  static void expect_credits_home(const Bench& b) {
    for (unsigned p = 0; p < kPorts; ++p) {
      for (unsigned v = 0; v < kVcs; ++v) {
        EXPECT_EQ(b.source(p).credits(v), kDepth) << "source " << port_name(p) << " vc " << v;
      }
      EXPECT_EQ(b.source(p).credits_received(), b.source(p).flits_sent()) << "source " << port_name(p);
      EXPECT_EQ(b.sink(p).credits_returned(), b.sink(p).flits_received()) << "sink " << port_name(p);
      EXPECT_TRUE(b.sink(p).empty()) << "sink " << port_name(p);
    }
  }
};

}  // namespace hx::test

#define HX_ROUTER_FIXTURE_STR2(x) #x
#define HX_ROUTER_FIXTURE_STR(x) HX_ROUTER_FIXTURE_STR2(x)

/// Instantiate the typed suite `Suite` (registered with REGISTER_TYPED_TEST_SUITE_P) for `Model`;
/// the tests are named <Prefix>/<Suite>/<Model>.<Test>.
#define HX_INSTANTIATE_ROUTER_SUITE(Prefix, Suite, Model)                                            \
  namespace hx::test {                                                                               \
  struct Suite##ModelNameGenerator {                                                                 \
    template <class T>                                                                               \
    static std::string GetName(int) {                                                                \
      return HX_ROUTER_FIXTURE_STR(Model);                                                           \
    }                                                                                                \
  };                                                                                                 \
  INSTANTIATE_TYPED_TEST_SUITE_P(Prefix, Suite, ::testing::Types<Model>, Suite##ModelNameGenerator); \
  }
