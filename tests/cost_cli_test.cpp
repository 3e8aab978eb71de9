// cost_cli_test.cpp: `hxsim cost` through the built binary: table, JSON, exit codes, no output
// on bad input. The model itself is tested without the binary in cost_model_test.cpp.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "cli_support.h"
#include "config_test_support.h"
#include "cost_config.h"
#include "cost_report.h"
#include "cost_test_support.h"
#include "topology_cost.h"

namespace hx::cost {
namespace {

using cost_test::kBase;
using cost_test::kConfigDir;

// ---- through the hxsim binary ---------------------------------------------------------------------

namespace fs = std::filesystem;

using hx::test::hxsim;
using Result = hx::test::CliResult;

fs::path scratch() { return hx::test::scratch_dir("cost_cli_test"); }

TEST(HxsimCost, TableAndJson) {
  const fs::path d = scratch();
  const fs::path out = d / "sub" / "cost.json";
  const Result r = hxsim("cost " + kConfigDir + "/cost_large.yaml --out " + out.string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("Hx4Mesh"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("43.29"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("results  " + out.string()), std::string::npos) << r.output;
  ASSERT_TRUE(fs::exists(out));
  EXPECT_FALSE(fs::exists(out.string() + ".tmp"));
  std::ifstream in(out);
  const auto j = nlohmann::json::parse(in);
  EXPECT_EQ(j["hxsim"]["command"], "cost");
  EXPECT_EQ(j["topologies"].size(), 8u);
  EXPECT_EQ(j["topologies"][4]["per_plane"]["switches"], 3072);
  EXPECT_EQ(j["topologies"][7]["diameter"], 128);
}

// `hxsim cost` of a shipped system config; its results JSON in `j` when it succeeded.
Result cost_of_system(const std::string& config, nlohmann::json& j) {
  const fs::path out = scratch() / "system.json";
  const Result r = hxsim("cost " + kConfigDir + "/" + config + " --out " + out.string());
  if (r.exit_code == 0) {
    std::ifstream in(out);
    j = nlohmann::json::parse(in);
  }
  return r;
}

// A system config: the netlist its topology builder makes, priced, beside the analytical model.
TEST(HxsimCost, PricesASystemConfigsNetlist) {
  nlohmann::json j;
  const Result r = cost_of_system("hx2mesh_16x16_alltoall.yaml", j);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("the netlist has the analytical model's equipment"), std::string::npos) << r.output;
  EXPECT_EQ(j["endpoints"], 1024);
  EXPECT_EQ(j["network"]["switches"], 32);  // 16 row + 16 column trees of 64 ports, one switch each
  EXPECT_EQ(j["network"]["dac_cables"], 1024);
  EXPECT_EQ(j["network"]["aoc_cables"], 1024);
  EXPECT_EQ(j["network"]["matches_analytic"], true);
}

// An NVSwitch system's netlist: counted by medium, but neither priced (no NVSwitch or NVLink
// price) nor compared with an analytical model (none), and the output says both.
TEST(HxsimCost, CountsAnNvSwitchSystemsNetlist) {
  nlohmann::json j;
  const Result r = cost_of_system("dgx2_push.yaml", j);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("12 switches, 0 DAC + 0 AoC cables, not priced"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("not priced: the cost model has no price for an NVSwitch"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("analytic  none"), std::string::npos) << r.output;
  EXPECT_EQ(j["endpoints"], 16);
  EXPECT_EQ(j["network"]["switches"], 12);
  EXPECT_EQ(j["network"]["pcb_links"], 16 * 6 + 6 * 8);  // GPU links and trunks
  EXPECT_EQ(j["network"]["aoc_cables"], 0);
  EXPECT_TRUE(j["network"]["cost_usd"].is_null());
  EXPECT_TRUE(j["network"]["analytic"].is_null());
  EXPECT_EQ(j["network"]["planes"], 6);

  nlohmann::json t;
  const Result tree = cost_of_system("fat_tree128_push.yaml", t);
  ASSERT_EQ(tree.exit_code, 0) << tree.output;
  EXPECT_EQ(t["endpoints"], 128);
  EXPECT_EQ(t["network"]["switches"], 144);
  EXPECT_EQ(t["network"]["pcb_links"], 128 * 6);
  EXPECT_EQ(t["network"]["aoc_cables"], 16 * 6 * 8);  // leaf-spine cables
}

TEST(HxsimCost, QuietAndOverrides) {
  const fs::path d = scratch();
  const Result r =
      hxsim("cost " + kConfigDir + "/cost_small.yaml --quiet --set prices.aoc=272 --out " + (d / "c.json").string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_EQ(r.output, "");
  std::ifstream in(d / "c.json");
  const auto j = nlohmann::json::parse(in);
  EXPECT_EQ(j["topologies"][7]["total"]["cost_usd"], 4096 * 272);  // the torus at DAC prices
}

void expect_bad_input(const std::string& args, const std::string& message) {
  const fs::path out = fs::temp_directory_path() / "cost_cli_test" / "never.json";
  fs::remove(out);
  const Result r = hxsim(args + " --out " + out.string());
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find(message), std::string::npos) << "expected '" << message << "' in\n" << r.output;
  EXPECT_FALSE(fs::exists(out)) << "no output file on bad input";
}

TEST(HxsimCost, BadInputExitsTwoAndWritesNothing) {
  const fs::path d = scratch();
  expect_bad_input("cost /nonexistent/cost.yaml", "/nonexistent/cost.yaml: cannot open");
  std::ofstream(d / "bad.yaml") << kBase << "    leaf_up: 70\n    leaf_down: 10\n";
  expect_bad_input("cost " + (d / "bad.yaml").string(),
                   "bad.yaml:6:14: topologies[0].leaf_up: expected an integer in 1..54 (leaf_down + leaf_up <= radix "
                   "64), found '70'");
  expect_bad_input("cost " + kConfigDir + "/cost_small.yaml --set cluster.radix=3", "cluster.radix");
  // A system config is priced as its netlist; a lone board has none.
  expect_bad_input("cost " + kConfigDir + "/mesh8x8_uniform.yaml", "a lone board has no network to price");
}

}  // namespace
}  // namespace hx::cost
