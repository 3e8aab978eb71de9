// reduction_table_test.cpp: directed and random tests of one reduction table
// (reduction_table_tests.h). The model is chosen at compile time: the RTL table
// (HX_RED_MODEL=Vhx_reduction_table_e2) or its gate-level netlist (Vhx_reduction_table_gl,
// HX_RED_GATELEVEL=1, which shortens the random tests).
#ifndef HX_RED_MODEL
#define HX_RED_MODEL Vhx_reduction_table_e2
#endif
#ifndef HX_RED_MODEL_HEADER
#define HX_RED_MODEL_HEADER "Vhx_reduction_table_e2.h"
#endif
#ifndef HX_RED_ENTRIES
#define HX_RED_ENTRIES 2
#endif
#ifndef HX_RED_GATELEVEL
#define HX_RED_GATELEVEL 0
#endif

#include HX_RED_MODEL_HEADER

#include "reduction_table_tests.h"

namespace {

using Model = HX_RED_MODEL;
const hx::test::RedTestEnv<Model> kEnv{1, 0, HX_RED_ENTRIES};
constexpr unsigned kRandomPackets = HX_RED_GATELEVEL ? 600 : 4000;

TEST(ReductionTable, PullAllocateRespondCompleteStreamed) { hx::test::red_test_pull_complete(kEnv); }
TEST(ReductionTable, PullFirstHopStallsWhenFullAndIsReleased) { hx::test::red_test_pull_first_hop_stall(kEnv); }
TEST(ReductionTable, PullFirstHopStallReleasedByTimeout) { hx::test::red_test_pull_stall_released_by_timeout(kEnv); }
TEST(ReductionTable, PullIntermediateBypassWhenFull) { hx::test::red_test_intermediate_bypass(kEnv); }
TEST(ReductionTable, PushAllocateHitComplete) { hx::test::red_test_push(kEnv); }
TEST(ReductionTable, PushEvictsLruWhenFull) { hx::test::red_test_push_evict_lru(kEnv); }
TEST(ReductionTable, PushTimeoutEviction) { hx::test::red_test_timeout(kEnv); }
TEST(ReductionTable, OutputBackpressureMidPacket) { hx::test::red_test_backpressure(kEnv); }
TEST(ReductionTable, ForeignAndMalformedPacketsBypass) { hx::test::red_test_foreign_bypass(kEnv); }
TEST(ReductionTable, RandomNoTimeout) { hx::test::red_test_random(kEnv, 1, kRandomPackets, 0); }
TEST(ReductionTable, RandomWithTimeout) { hx::test::red_test_random(kEnv, 2, kRandomPackets, 30); }
TEST(ReductionTable, RandomWithShortTimeout) { hx::test::red_test_random(kEnv, 3, kRandomPackets, 5); }

}  // namespace
