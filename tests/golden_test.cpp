// golden_test.cpp: refactors keep results. Every case of tests/golden/golden.json is run again
// through the hxsim binary, and every value the table pins (cycle counts, packets and flits
// delivered, flit hops, mean latencies, collective times) must come out exactly the same.
//
// The table is written by scripts/golden.py --record. A value changes only with a reason in the
// commit that changes it (a fixed bug, a different random generator); a path changes when the
// results schema moves a value.
//
// The same runs keep the results reference honest: every field a run writes must be listed in
// docs/results-reference.md. The golden cases cover every system, so checking their documents
// here costs no extra simulation.
#include <gtest/gtest.h>

#include <fstream>
#include <ostream>
#include <regex>
#include <set>
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

// The fields docs/results-reference.md lists: the first cell of each table row, a dotted path in
// backticks, as patterns ("<class>" one key whose name is data, a trailing ".*" any fields below).
std::vector<std::regex> documented_fields() {
  std::ifstream in(HX_RESULTS_REFERENCE);
  std::vector<std::regex> fields;
  const std::regex row(R"(^\| `([^`]+)` \|)");
  for (std::string line; std::getline(in, line);) {
    std::smatch m;
    if (!std::regex_search(line, m, row)) continue;
    std::string pattern;
    for (const char ch : std::regex_replace(m[1].str(), std::regex(R"(<[a-z_]+>)"), "@")) {
      if (ch == '@')
        pattern += "[^.]+";
      else if (ch == '*')
        pattern += ".+";
      else if (std::string("[].").find(ch) != std::string::npos)
        pattern += std::string("\\") + ch;
      else
        pattern += ch;
    }
    fields.emplace_back(pattern);
  }
  return fields;
}

// Every field of `doc` as the reference names it: objects' keys joined by '.', an array of
// objects as "[]" with its elements' fields below; scalars, nulls and arrays of scalars are leaves.
void collect_fields(const json& node, const std::string& path, std::set<std::string>& out) {
  if (node.is_object()) {
    for (const auto& [key, value] : node.items()) collect_fields(value, path.empty() ? key : path + "." + key, out);
  } else if (node.is_array() && !node.empty() && node.front().is_structured()) {
    for (const json& element : node) collect_fields(element, path + "[]", out);
  } else {
    out.insert(path);
  }
}

// The fields of `doc` that docs/results-reference.md does not list.
std::vector<std::string> undocumented_fields(const json& doc) {
  static const std::vector<std::regex> documented = documented_fields();
  std::set<std::string> fields;
  collect_fields(doc, "", fields);
  std::vector<std::string> missing;
  for (const std::string& f : fields) {
    bool found = false;
    for (const std::regex& d : documented) found = found || std::regex_match(f, d);
    if (!found) missing.push_back(f);
  }
  return missing;
}

std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const std::string& x : v) s += "\n  " + x;
  return s;
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
  EXPECT_EQ(undocumented_fields(doc), std::vector<std::string>{})
      << c.name << " wrote fields docs/results-reference.md does not list:" << joined(undocumented_fields(doc));
}

// The results reference covers what the golden table does not run: the analytical backend (a
// collective, an LLM workload given and searched, the flow model of all-to-all with minimal and
// UGAL routing, the flow model of an allreduce) and the NVSwitch model's uniform traffic. And it can fail: a field it
// does not list is reported.
TEST(ResultsReference, ListsEveryFieldOfEveryWriter) {
  const std::filesystem::path dir = hx::test::scratch_dir("hx_results_reference");
  const std::string out = (dir / "results.json").string();
  for (const std::string args :
       {"model configs/themis/2d_sw_sw.yaml", "run configs/dgx2_uniform.yaml", "model configs/rail/table4_1t.yaml",
        "model configs/rail/gpt146b_gh200_n32768.yaml", "model configs/hx2mesh_4x4_alltoall.yaml",
        "model configs/dragonfly_1024_alltoall.yaml --set topology.dragonfly.groups=4",
        "model configs/clex/clex_4x3_rounds.yaml", "model configs/hx2mesh_4x4_allreduce.yaml",
        "model configs/table2/dragonfly_1024_allreduce.yaml --set topology.dragonfly.groups=4"}) {
    const hx::test::CliResult r = hx::test::hxsim(args + " --quiet --out '" + out + "'", HX_SOURCE_DIR);
    ASSERT_EQ(r.exit_code, 0) << args << "\n" << r.output;
    std::ifstream in(out);
    const json doc = json::parse(in);
    EXPECT_EQ(undocumented_fields(doc), std::vector<std::string>{}) << args << ":" << joined(undocumented_fields(doc));
  }
  const json made_up = {{"sim", {{"cycles", 1}, {"no_such_field", 2}}}, {"collective", {{"jobs", {{{"time_us", 1}}}}}}};
  EXPECT_EQ(undocumented_fields(made_up), std::vector<std::string>{"sim.no_such_field"});
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
