// board_random_8x8_test.cpp: random stress on the 8x8 board plane with four VCs
// (board_random_support.h says how).
#include "Vhx_board_plane_8x8v4.h"
#include "board_random_support.h"

namespace hx::test {
namespace {
using namespace board_random;

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

}  // namespace
}  // namespace hx::test
