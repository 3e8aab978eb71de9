// full_size_test.cpp: every shipped system config at its full size, end to end (label `long`:
// `make test-long`; minutes to an hour on two cores). The suites of `make test` run these
// systems reduced; here the sizes the configs name (1,024-endpoint fat trees, Dragonflies,
// HyperX and tori, the 16x16 Hx2Mesh, the 8x8 Hx4Mesh, 8 MiB NVSwitch allreduces) must still
// finish with every check passed: each packet delivered exactly once, intact, where it was
// addressed, every collective's result exact, no deadlock.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "cli_support.h"
#include "nlohmann/json.hpp"

namespace {

using nlohmann::json;

class FullSize : public ::testing::TestWithParam<const char*> {};

TEST_P(FullSize, EveryCheckPasses) {
  const std::string name = GetParam();
  const std::filesystem::path out = hx::test::scratch_dir("full_size_test") / (name + ".json");
  const hx::test::CliResult r =
      hx::test::hxsim("run " + std::string(HX_CONFIG_DIR) + "/" + name + ".yaml --quiet --out " + out.string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  std::ifstream in(out);
  ASSERT_TRUE(in) << "no results file";
  const json j = json::parse(in);
  const json& c = j["checks"];
  EXPECT_TRUE(c["passed"].get<bool>()) << j["check_details"]["report"];
  EXPECT_FALSE(c["deadlock"].get<bool>());
  EXPECT_EQ(c["lost"], 0);
  EXPECT_EQ(c["duplicated"], 0);
  EXPECT_EQ(c["corrupted"], 0);
  EXPECT_EQ(c["misdelivered"], 0);
  EXPECT_GT(c["delivered"].get<uint64_t>(), 0u);
  if (j.contains("collective"))
    for (const json& job : j["collective"]["jobs"]) {
      EXPECT_TRUE(job["complete"].get<bool>()) << name;
      EXPECT_EQ(job["wrong_elements"], 0) << name;
    }
}

INSTANTIATE_TEST_SUITE_P(Configs, FullSize,
                         ::testing::Values("fat_tree_1024_alltoall", "dragonfly_1024_alltoall", "hyperx_32x32_alltoall",
                                           "torus_32x32_alltoall", "hx2mesh_16x16_alltoall", "hx2mesh_16x16_allreduce",
                                           "hx4mesh_8x8_alltoall", "hx4mesh_8x8_allreduce", "dgx2_push", "dgx2_pull",
                                           "dgx2_ring", "dgx2_uniform", "fat_tree128_push", "fat_tree128_pull",
                                           "fat_tree128_ring"),
                         [](const ::testing::TestParamInfo<const char*>& i) { return std::string(i.param); });

}  // namespace
