// alloc_cli_test.cpp: `hxsim alloc` through the built binary: output, JSON, determinism, exit
// code 2 and no output file on bad input. The allocator itself is tested without the binary in
// alloc_test.cpp.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "alloc_config.h"
#include "alloc_report.h"
#include "cli_support.h"
#include "config_test_support.h"
#include "hxmesh_allocator.h"
#include "job_mix.h"

namespace hx::alloc {
namespace {

namespace fs = std::filesystem;
const std::string kConfigDir = HX_CONFIG_DIR;

// ---- through the hxsim binary -------------------------------------------------------------------------

using hx::test::hxsim;
using Result = hx::test::CliResult;

fs::path scratch() { return hx::test::scratch_dir("alloc_cli_test"); }

nlohmann::json read_json(const fs::path& p) {
  std::ifstream in(p);
  return nlohmann::json::parse(in);
}

// Drops every wall-clock field, the only ones allowed to differ between two runs.
void strip_wall(nlohmann::json& j) {
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end();) {
      if (it.key().find("seconds") != std::string::npos) {
        it = j.erase(it);
      } else {
        strip_wall(*it);
        ++it;
      }
    }
  } else if (j.is_array()) {
    for (auto& e : j) strip_wall(e);
  }
}

TEST(HxsimAlloc, PlacePrintsTheVirtualMapping) {
  const fs::path d = scratch();
  const fs::path out = d / "sub" / "place.json";
  const Result r = hxsim("alloc " + kConfigDir + "/alloc_place_example.yaml --out " + out.string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("3x3          job 2: 3x3 on rows [0, 1, 3], columns [0, 1, 3]"), std::string::npos)
      << r.output;
  EXPECT_NE(r.output.find("job 2: virtual (i, j) -> physical (column, row)"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("results  " + out.string()), std::string::npos);
  ASSERT_TRUE(fs::exists(out));
  EXPECT_FALSE(fs::exists(out.string() + ".tmp"));
  const auto j = read_json(out);
  EXPECT_EQ(j["hxsim"]["command"], "alloc");
  ASSERT_EQ(j["place"]["steps"].size(), 5u);
  EXPECT_EQ(j["place"]["steps"][0]["placement"]["cols"], nlohmann::json({0, 3}));
  EXPECT_EQ(j["place"]["steps"][2]["placement"]["virtual_to_physical"][2][2], nlohmann::json({3, 3}));
  EXPECT_EQ(j["place"]["map"].size(), 4u);
}

TEST(HxsimAlloc, ExperimentsAreDeterministic) {
  const fs::path d = scratch();
  const std::string args = "alloc " + kConfigDir +
                           "/alloc_small.yaml --quiet --set experiments.mixes=20 "
                           "--set experiments.failures=[0,10] --out ";
  const Result a = hxsim(args + (d / "a.json").string());
  ASSERT_EQ(a.exit_code, 0) << a.output;
  EXPECT_EQ(a.output, "");  // --quiet: no table, no progress
  ASSERT_EQ(hxsim(args + (d / "b.json").string()).exit_code, 0);
  auto ja = read_json(d / "a.json"), jb = read_json(d / "b.json");
  // 8 sets at 0 failures + 3 sets at 10 failures, on 2 systems.
  ASSERT_EQ(ja["runs"].size(), 2u * (8 + 3));
  EXPECT_EQ(ja["runs"][0]["utilisation"]["values"].size(), 20u);
  EXPECT_EQ(ja["runs"][0]["system"], "small Hx2Mesh");
  EXPECT_EQ(ja["runs"][0]["working_boards"], 256);
  strip_wall(ja);
  strip_wall(jb);
  EXPECT_EQ(ja, jb);
  // Another seed, other mixes.
  ASSERT_EQ(hxsim(args + (d / "c.json").string() + " --set seed=2").exit_code, 0);
  auto jc = read_json(d / "c.json");
  strip_wall(jc);
  EXPECT_NE(ja["runs"], jc["runs"]);
}

TEST(HxsimAlloc, ProgressGoesToStderrAndTheTableToStdout) {
  const fs::path d = scratch();
  const std::string cmd = std::string(HXSIM_EXE) + " alloc " + kConfigDir +
                          "/alloc_small.yaml --set experiments.mixes=5 --set experiments.failures=[] "
                          "--set experiments.heuristics=[greedy] >" +
                          (d / "out.txt").string() + " 2>" + (d / "err.txt").string();
  ASSERT_EQ(std::system(cmd.c_str()), 0) << cmd;
  const auto slurp = [](const fs::path& p) {
    std::ifstream in(p);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  };
  const std::string out = slurp(d / "out.txt"), err = slurp(d / "err.txt");
  EXPECT_NE(err.find("hxsim alloc: [2/2] small Hx4Mesh, greedy, 0 failed: 5 mixes"), std::string::npos) << err;
  EXPECT_EQ(out.find("hxsim alloc: ["), std::string::npos) << out;
  EXPECT_NE(out.find("small Hx4Mesh"), std::string::npos) << out;
}

void expect_bad_input(const std::string& args, const std::string& message) {
  const fs::path out = fs::temp_directory_path() / "alloc_cli_test" / "never.json";
  fs::remove(out);
  const Result r = hxsim(args + " --out " + out.string());
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find(message), std::string::npos) << "expected '" << message << "' in\n" << r.output;
  EXPECT_FALSE(fs::exists(out)) << "no output file on bad input";
  EXPECT_FALSE(fs::exists(out.string() + ".tmp"));
}

TEST(HxsimAlloc, BadInputExitsTwoAndWritesNothing) {
  const fs::path d = scratch();
  expect_bad_input("alloc /nonexistent/alloc.yaml", "/nonexistent/alloc.yaml: cannot open");
  std::ofstream(d / "bad.yaml") << "systems:\n  - name: hx\n    board: 2x2\n    global: 8x4\n    taper: 2\n"
                                << "place: {system: hx, jobs: [1]}\n";
  expect_bad_input("alloc " + (d / "bad.yaml").string(),
                   "bad.yaml:5:12: systems[0].taper: expected a number in (0, 1], found '2'");
  std::ofstream(d / "sizes.txt") << "# sizes\n1 1\n\n8 1 1\n";
  expect_bad_input("alloc " + kConfigDir + "/alloc_small.yaml --set distribution=" + (d / "sizes.txt").string(),
                   "sizes.txt:4:1: distribution: expected a line 'SIZE WEIGHT'");
  std::ofstream(d / "empty.txt") << "# no sizes\n";
  expect_bad_input("alloc " + kConfigDir + "/alloc_small.yaml --set distribution=" + (d / "empty.txt").string(),
                   "empty.txt: distribution: no job sizes");
  expect_bad_input("alloc " + kConfigDir + "/alloc_small.yaml --set experiments.mixes=0", "experiments.mixes");
  // An error found while running (releasing a job never placed) also writes nothing.
  std::ofstream(d / "release.yaml") << "systems:\n  - name: hx\n    board: 2x2\n    global: 8x4\n"
                                    << "place:\n  system: hx\n  jobs: [2, release 5]\n";
  expect_bad_input("alloc " + (d / "release.yaml").string(), "release.yaml:7:13: place.jobs[1]: no such job");
  // A run config is not an alloc config.
  expect_bad_input("alloc " + kConfigDir + "/mesh8x8_uniform.yaml", "unknown key");
}

}  // namespace
}  // namespace hx::alloc
