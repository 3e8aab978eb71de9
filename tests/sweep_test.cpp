// sweep_test.cpp: `hxsim sweep` with the local backend (sweep/sweep.h; issue 25 item 3), through
// the binary: the points and their results, resuming, a failed point that stops nothing, the
// merged CSV, and a bad axis value refused at its place in the sweep file. The Slurm backend is
// `make test-slurm` (scripts/test_slurm.sh): it needs daemons.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "cli_support.h"
#include "nlohmann/json.hpp"

namespace hx {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

std::string read(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

fs::path write_sweep(const fs::path& dir, const std::string& axes) {
  const fs::path f = dir / "sweep.yaml";
  std::ofstream(f) << "name: t\nbase: " << HX_SOURCE_DIR
                   << "/configs/mesh8x8_uniform.yaml\nset: [run.warmup=200cycles, run.measure=500cycles]\naxes:\n"
                   << axes;
  return f;
}

TEST(Sweep, RunsEveryPointResumesAndMergesTheResults) {
  const fs::path d = test::scratch_dir("sweep");
  const fs::path f = write_sweep(d, "  routing.algorithm: [xy, north_last]\n  traffic.injection_rate: [0.05, 0.1]\n");
  const test::CliResult r = test::hxsim("sweep '" + f.string() + "' -j 2 --out '" + (d / "out").string() + "'");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  // The last axis varies fastest: p0001 is xy at 0.1, p0002 north_last at 0.05.
  const json p1 = json::parse(read(d / "out/p0001/results.json"));
  EXPECT_EQ(p1["config"]["routing"], "xy");
  EXPECT_DOUBLE_EQ(p1["traffic"]["offered"].get<double>(), 0.1);
  EXPECT_TRUE(p1["checks"]["passed"].get<bool>());
  EXPECT_EQ(json::parse(read(d / "out/p0002/results.json"))["config"]["routing"], "north_last");
  const std::string csv = read(d / "out/sweep.csv");
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 5) << csv;
  EXPECT_EQ(csv.rfind("point,status,routing.algorithm,traffic.injection_rate,passed,cycles,offered,accepted", 0), 0u)
      << csv;
  EXPECT_NE(csv.find("p0003,0,north_last,0.1,true,"), std::string::npos) << csv;
  // Run again: every point is done, nothing runs.
  const test::CliResult again = test::hxsim("sweep '" + f.string() + "' --out '" + (d / "out").string() + "'");
  EXPECT_EQ(again.exit_code, 0) << again.output;
  EXPECT_NE(again.output.find("4 points in " + (d / "out").string() + ", 0 to run, 4 done before"), std::string::npos)
      << again.output;
}

// A point that fails (above saturation it cannot drain in one cycle: exit 3) is reported with its
// log; the others complete, and the merged results show its status.
TEST(Sweep, AFailedPointIsReportedAndStopsNothing) {
  const fs::path d = test::scratch_dir("sweep");
  const fs::path f = write_sweep(d,
                                 "  traffic.source_queue: [4]\n  traffic.injection_rate: [0.05, 0.7]\n"
                                 "  run.drain: [50000cycles, 1cycle, 2000cycles]\n");
  const test::CliResult r = test::hxsim("sweep '" + f.string() + "' -j 2 --out '" + (d / "out").string() + "'");
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("6 points, 4 done (0 of them before this run), 2 failed"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("FAILED p0004 (exit 3): " + (d / "out/p0004/log.txt").string()), std::string::npos)
      << r.output;
  EXPECT_NE(read(d / "out/p0004/log.txt").find("did not drain"), std::string::npos);
  EXPECT_NE(read(d / "out/sweep.csv").find("p0004,3,4,0.7,1cycle,false,"), std::string::npos)
      << read(d / "out/sweep.csv");
  EXPECT_NE(read(d / "out/sweep.csv").find("p0005,0,4,0.7,2000cycles,true,"), std::string::npos);
}

TEST(Sweep, AValueTheBaseConfigDoesNotTakeIsRefusedWhereTheSweepFileHasIt) {
  const fs::path d = test::scratch_dir("sweep");
  const fs::path f = write_sweep(d, "  traffic.injection_rate: [0.05, 2]\n");
  const test::CliResult r = test::hxsim("sweep '" + f.string() + "' --out '" + (d / "out").string() + "'");
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find(f.string() + ":5:34: axes.traffic.injection_rate[1]: expected a value the base config "
                                       "takes at traffic.injection_rate"),
            std::string::npos)
      << r.output;
  EXPECT_FALSE(fs::exists(d / "out"));  // nothing ran, nothing written
}

// Any config hxsim runs: an NVSwitch-like fabric's too (its points are checked by its own model).
TEST(Sweep, SweepsAnNvSwitchConfig) {
  const fs::path d = test::scratch_dir("sweep");
  const fs::path f = d / "nv.yaml";
  std::ofstream(f) << "base: " << HX_SOURCE_DIR
                   << "/configs/dgx2_push.yaml\nset: ['collective.message=64 KiB']\naxes:\n"
                      "  collective.algorithm: [push, pull]\n";
  const test::CliResult r = test::hxsim("sweep '" + f.string() + "' -j 2 --out '" + (d / "out").string() + "'");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const std::string csv = read(d / "out/sweep.csv");
  EXPECT_NE(csv.find("p0000,0,push,true,"), std::string::npos) << csv;
  EXPECT_NE(csv.find("p0001,0,pull,true,"), std::string::npos) << csv;
}

}  // namespace
}  // namespace hx
