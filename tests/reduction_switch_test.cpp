// reduction_switch_test.cpp: a whole switch's reduction tables as one model
// (Vhx_switch_reduction_e<N>: 16 ports of HX_RED_ENTRIES entries). The directed tests run on one
// port (port 5, so the flattened slices are exercised away from bit 0) with the other ports idle;
// the random test drives all 16 ports at once, each against its own ReductionTableRef.
#include HX_RED_MODEL_HEADER

#include "reduction_table_tests.h"

namespace {

using Model = HX_RED_MODEL;
const hx::test::RedTestEnv<Model> kPort5{16, 5, HX_RED_ENTRIES};
const hx::test::RedTestEnv<Model> kAll{16, ~0u, HX_RED_ENTRIES};

TEST(ReductionSwitch, PullAllocateRespondCompleteStreamed) { hx::test::red_test_pull_complete(kPort5); }
TEST(ReductionSwitch, PullFirstHopStallsWhenFullAndIsReleased) { hx::test::red_test_pull_first_hop_stall(kPort5); }
TEST(ReductionSwitch, PullIntermediateBypassWhenFull) { hx::test::red_test_intermediate_bypass(kPort5); }
TEST(ReductionSwitch, PushEvictsLruWhenFull) { hx::test::red_test_push_evict_lru(kPort5); }
TEST(ReductionSwitch, PushTimeoutEviction) { hx::test::red_test_timeout(kPort5); }
TEST(ReductionSwitch, OutputBackpressureMidPacket) { hx::test::red_test_backpressure(kPort5); }
TEST(ReductionSwitch, RandomAllPortsWithTimeout) { hx::test::red_test_random(kAll, 7, 400, 40); }

}  // namespace
