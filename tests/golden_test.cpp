// golden_test.cpp: refactors keep results. Every case of tests/golden/golden.json is run again
// through the hxsim binary, and every value the table pins (cycle counts, packets and flits
// delivered, flit hops, mean latencies, collective times) must come out exactly the same.
//
// The table is written by scripts/golden.py --record. A value changes only with a reason in the
// commit that changes it (a fixed bug, a different random generator); a path changes when the
// results schema moves a value.
#include <gtest/gtest.h>

#include <fstream>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include "cli_support.h"
#include "nlohmann/json.hpp"

namespace {

using nlohmann::json;

struct GoldenCase {
  std::string name;
  std::vector<std::string> args;
  json values;
};

// gtest prints a parameter in the test's name: the case's name, not its bytes.
void PrintTo(const GoldenCase& c, std::ostream* os) { *os << c.name; }

std::vector<GoldenCase> load_cases() {
  std::ifstream in(HX_GOLDEN_TABLE);
  if (!in) return {};
  const json table = json::parse(in);
  std::vector<GoldenCase> cases;
  for (const json& c : table.at("cases")) {
    cases.push_back({c.at("name").get<std::string>(), c.at("args").get<std::vector<std::string>>(), c.at("values")});
  }
  return cases;
}

// The value at a dotted path ("collective.jobs.0.time_cycles"), or null.
json at_path(const json& doc, const std::string& path) {
  const json* node = &doc;
  std::stringstream ss(path);
  for (std::string part; std::getline(ss, part, '.');) {
    if (node->is_array()) {
      const std::size_t i = std::stoul(part);
      if (i >= node->size()) return nullptr;
      node = &(*node)[i];
    } else if (node->is_object() && node->contains(part)) {
      node = &(*node)[part];
    } else {
      return nullptr;
    }
  }
  return *node;
}

std::string quoted(const std::vector<std::string>& args) {
  std::string s;
  for (const std::string& a : args) s += " '" + a + "'";
  return s;
}

class Golden : public ::testing::TestWithParam<GoldenCase> {};

TEST_P(Golden, SameResults) {
  const GoldenCase& c = GetParam();
  const std::filesystem::path dir = hx::test::scratch_dir("hx_golden");
  const std::string out = (dir / "results.json").string();
  // Config paths in the table are relative to the source tree.
  const hx::test::CliResult r = hx::test::hxsim(quoted(c.args) + " --quiet --out '" + out + "'", HX_SOURCE_DIR);
  ASSERT_EQ(r.exit_code, 0) << r.output;
  std::ifstream in(out);
  ASSERT_TRUE(in) << "no results written";
  const json doc = json::parse(in);
  for (const auto& [path, want] : c.values.items()) {
    EXPECT_EQ(at_path(doc, path), want) << c.name << ": " << path;
  }
}

INSTANTIATE_TEST_SUITE_P(Table, Golden, ::testing::ValuesIn(load_cases()),
                         [](const ::testing::TestParamInfo<GoldenCase>& info) { return info.param.name; });

TEST(GoldenTable, CoversEverySystem) {
  // At least 12 cases, and every system of the table is still in it (a case cannot vanish unseen).
  const std::vector<GoldenCase> cases = load_cases();
  ASSERT_GE(cases.size(), 12u) << HX_GOLDEN_TABLE;
  for (const char* needed :
       {"mesh8x8_uniform", "board4x4_default", "hx2mesh_allreduce_ring", "hx2mesh_allreduce_bidirectional_ring",
        "hx2mesh_allreduce_hamiltonian", "hx2mesh_allreduce_torus2d", "fat_tree_alltoall", "torus_alltoall",
        "hyperx_alltoall", "dragonfly_alltoall", "dgx2_ring", "dgx2_pull", "dgx2_push", "fat_tree128_push"}) {
    bool found = false;
    for (const GoldenCase& c : cases) found = found || c.name == needed;
    EXPECT_TRUE(found) << needed;
  }
}

}  // namespace
