// partition_test.cpp: one run split between MPI ranks (`mpirun -np 2 hxsim run CONFIG
// --partition auto`, sim/rank_boundary.h; issue 25 item 2) gives the results of the same run in
// one process, byte for byte but for the wall clock and the rank fields: for traffic, for a
// collective with real data, and with a window of more than one cycle. A failed check and a
// deadlock fail every rank with rank 0's verdict and report; what cannot be split is refused.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "cli_support.h"
#include "nlohmann/json.hpp"
#include "rank_boundary.h"

int sc_main(int, char*[]) { return 0; }  // libsystemc needs one; gtest_main runs the tests

namespace hx {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

// mpirun as root (CI runs as root) and on a machine with fewer cores than ranks.
test::CliResult mpirun(unsigned ranks, const std::string& args) {
  return test::run_command(
      "OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_mpi_yield_when_idle=1 mpirun --oversubscribe "
      "-np " +
      std::to_string(ranks) + " " + HXSIM_EXE + " " + args);
}

json read_json(const fs::path& p) {
  std::ifstream in(p);
  return json::parse(in);
}

// What may differ between a run in one process and a partitioned one: the wall clock and the
// process layout.
json without_process_fields(json j) {
  for (const char* k : {"wall_seconds", "cycles_per_second", "router_cycles_per_second", "flit_hops_per_second",
                        "peak_rss_mb", "threads", "ranks", "rank_window_cycles", "rank_wait_seconds"})
    j["sim"].erase(k);
  return j;
}

std::string config(const char* name) { return std::string(HX_SOURCE_DIR) + "/configs/" + name; }

struct SplitCase {
  const char* name;
  const char* config;
  const char* sets;
  unsigned window;  // the boundary's: 1 where planes have edge ports (latency 0), 1 + local latency else
};
void PrintTo(const SplitCase& c, std::ostream* os) { *os << c.name; }

class Partition : public ::testing::TestWithParam<SplitCase> {};

TEST_P(Partition, TwoRanksGiveTheResultsOfOneProcess) {
  const SplitCase& c = GetParam();
  const fs::path d = test::scratch_dir("partition");
  const std::string args = "run " + config(c.config) + " " + c.sets + " --seed 3 --quiet --out ";
  const test::CliResult one = test::hxsim(args + (d / "one.json").string());
  ASSERT_EQ(one.exit_code, 0) << one.output;
  const test::CliResult two = mpirun(2, args + (d / "two.json").string() + " --partition auto");
  ASSERT_EQ(two.exit_code, 0) << two.output;
  const json a = read_json(d / "one.json"), b = read_json(d / "two.json");
  EXPECT_EQ(b["sim"]["ranks"], 2);
  EXPECT_EQ(b["sim"]["rank_window_cycles"], c.window);
  EXPECT_EQ(a["sim"]["ranks"], 1);
  EXPECT_TRUE(b["checks"]["passed"].get<bool>());
  EXPECT_GT(b["sim"]["cycles"].get<uint64_t>(), 1000u);
  EXPECT_EQ(without_process_fields(a).dump(2), without_process_fields(b).dump(2));
}

INSTANTIATE_TEST_SUITE_P(Runs, Partition,
                         ::testing::Values(
                             // Synthetic traffic on 16 boards joined by fat trees: planes on both ranks.
                             SplitCase{"hx2mesh_alltoall", "hx2mesh_4x4_alltoall.yaml",
                                       "--set run.warmup=500cycles --set run.measure=3000cycles", 1},
                             // An allreduce with real data, every element checked (1 MiB keeps it short).
                             SplitCase{"hx2mesh_allreduce", "hx2mesh_4x4_allreduce.yaml",
                                       "--set collective.message=1MiB", 1},
                             // One board, no edge ports: its links to the accelerators allow a window of 3 cycles
                             // (1.5 ns, 2 cycles at 1 GHz, + the register); its one plane is rank 1's.
                             SplitCase{"board_window3", "board4x4_adaptive.yaml",
                                       "--set run.warmup=500cycles --set run.measure=3000cycles", 3}),
                         [](const ::testing::TestParamInfo<SplitCase>& i) { return std::string(i.param.name); });

TEST(PartitionChecks, AFailedCheckFailsEveryRankAsInOneProcess) {
  const fs::path d = test::scratch_dir("partition");
  // Drop the third flit delivered to accelerator 5: the scoreboard, in rank 0, finds the packet
  // corrupted whichever rank stepped the plane it crossed.
  const std::string args = "run " + config("hx2mesh_4x4_alltoall.yaml") +
                           " --set run.warmup=200cycles --set run.measure=2000cycles --inject-fault drop:5:3 --quiet";
  const test::CliResult one = test::hxsim(args);
  const test::CliResult two = mpirun(2, args + " --partition auto");
  EXPECT_EQ(one.exit_code, 3) << one.output;
  EXPECT_EQ(two.exit_code, 3) << two.output;
  const std::string failure = "packet 55 flit 2 differs from what was sent";
  EXPECT_NE(one.output.find(failure), std::string::npos) << one.output;
  EXPECT_NE(two.output.find(failure), std::string::npos) << two.output;
}

TEST(PartitionChecks, TheWatchdogFindsADeadlockAsInOneProcess) {
  // Minimal adaptive routing with one VC in use and long packets at saturation deadlock the
  // board (hxsim_cli_test.cpp); its one plane is rank 1's, the watchdog rank 0's.
  const fs::path d = test::scratch_dir("partition");
  const std::string args = "run " + config("board4x4_adaptive.yaml") +
                           " --set routing.algorithm=min_adaptive --set router.vc_policy=keep"
                           " --set traffic.packet_length=16 --set traffic.injection_rate=0.9"
                           " --set run.watchdog=1000cycles --seed 1 --quiet --out ";
  EXPECT_EQ(test::hxsim(args + (d / "one.json").string()).exit_code, 3);
  const test::CliResult two = mpirun(2, args + (d / "two.json").string() + " --partition auto");
  EXPECT_EQ(two.exit_code, 3) << two.output;
  const json a = read_json(d / "one.json"), b = read_json(d / "two.json");
  EXPECT_TRUE(b["checks"]["deadlock"].get<bool>());
  EXPECT_EQ(without_process_fields(a).dump(2), without_process_fields(b).dump(2));
}

TEST(PartitionChecks, RefusesWhatItCannotSplit) {
  // The NVSwitch model and the fabrics of C++ switches have no RTL planes to split.
  for (const char* c : {"fat_tree128_ring.yaml", "fat_tree_1024_alltoall.yaml"}) {
    const test::CliResult r = mpirun(2, "run " + config(c) + " --partition auto --quiet");
    EXPECT_EQ(r.exit_code, 2) << c << "\n" << r.output;
    EXPECT_NE(r.output.find("no RTL board planes to split between ranks"), std::string::npos) << c << "\n" << r.output;
  }
  const test::CliResult bad = test::hxsim("run " + config("board4x4_adaptive.yaml") + " --partition planes --quiet");
  EXPECT_EQ(bad.exit_code, 2) << bad.output;
  EXPECT_NE(bad.output.find("--partition: expected auto, found 'planes'"), std::string::npos) << bad.output;
}

TEST(PlaneRanks, RankZeroTakesLessForItsComponentsAndEveryOtherRankSome) {
  // 64 planes on 2 ranks: rank 0's share of the work, 64 x 1.65 / 2 = 52.8 planes' worth, less
  // its components' 64 x 0.65 = 41.6: 11 planes (rounded), rank 1 the other 53.
  std::vector<unsigned> o = plane_ranks(64, 2);
  EXPECT_EQ(std::count(o.begin(), o.end(), 0u), 11);
  EXPECT_EQ(std::count(o.begin(), o.end(), 1u), 53);
  EXPECT_TRUE(std::is_sorted(o.begin(), o.end()));  // contiguous blocks, in board order
  // 3 ranks: rank 0's components are more than its share, so it takes no plane; 2 ranks split 64.
  o = plane_ranks(64, 3);
  EXPECT_EQ(std::count(o.begin(), o.end(), 0u), 0);
  EXPECT_EQ(std::count(o.begin(), o.end(), 1u), 32);
  EXPECT_EQ(std::count(o.begin(), o.end(), 2u), 32);
  EXPECT_EQ(plane_ranks(16, 1), std::vector<unsigned>(16, 0u));
  EXPECT_THROW(plane_ranks(2, 4), std::invalid_argument);
}

}  // namespace
}  // namespace hx
