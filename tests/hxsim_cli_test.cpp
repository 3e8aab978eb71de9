// hxsim_cli_test.cpp: the simulator end to end, through the hxsim command line.
//
// Each test runs the real hxsim executable (one SystemC elaboration per process) on a config
// from configs/ or a small YAML written here, and reads its results JSON. They cover: the
// determinism of a run, the scoreboard catching an injected fault, the watchdog catching a
// deadlock, the config error paths through the CLI (exit code 2, no output file), the
// zero-load latency against the analytical value, every traffic pattern, and the waveform
// (FST + GTKWave save file naming only signals the FST has).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "cli_support.h"
#include "nlohmann/json.hpp"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

using hx::test::hxsim;
using Result = hx::test::CliResult;

fs::path scratch() { return hx::test::scratch_dir("hxsim_cli_test"); }

json read_json(const fs::path& p) {
  std::ifstream in(p);
  return json::parse(in);
}

std::string config(const std::string& name) { return std::string(HX_CONFIG_DIR) + "/" + name; }

fs::path write_file(const fs::path& p, const std::string& text) {
  std::ofstream(p) << text;
  return p;
}

// docs/config-reference.md is what `hxsim config-reference` generates from the schemas today.
TEST(HxsimDocs, ConfigReferenceIsCurrent) {
  const Result r = hxsim("config-reference");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  std::ifstream in(std::string(HX_DOCS_DIR) + "/config-reference.md");
  ASSERT_TRUE(in) << "docs/config-reference.md is missing: make docs";
  std::stringstream doc;
  doc << in.rdbuf();
  EXPECT_EQ(doc.str(), r.output) << "docs/config-reference.md is stale: make docs";
  for (const char* key :
       {"`topology.kind`", "`router.vcs`", "`collective.algorithm`", "`topology.trunk_bandwidth`", "`switch.table`"})
    EXPECT_NE(r.output.find(key), std::string::npos) << key;
}

// `hxsim list`: one table of every topology kind with the model that builds it (the one registry
// of builders, topology/registry.cpp), then each model's routing functions, collectives and
// traffic patterns.
TEST(HxsimList, OneTableOfKindsWithTheirModels) {
  const Result r = hxsim("list");
  ASSERT_EQ(r.exit_code, 0) << r.output;
  std::istringstream in(r.output);
  std::string line;
  ASSERT_TRUE(std::getline(in, line));
  EXPECT_EQ(line, "topologies (topology.kind):");
  ASSERT_TRUE(std::getline(in, line));
  std::istringstream head(line);
  std::string k, m, d;
  head >> k >> m >> d;
  EXPECT_EQ(k + " " + m + " " + d, "kind model description") << line;
  std::vector<std::pair<std::string, std::string>> kinds;  // kind, model
  while (std::getline(in, line) && line.rfind("model ", 0) != 0) {
    std::istringstream row(line);
    std::string kind, model, description;
    row >> kind >> model;
    std::getline(row, description);
    EXPECT_FALSE(description.empty()) << line;
    kinds.emplace_back(kind, model);
  }
  const std::vector<std::pair<std::string, std::string>> expected = {
      {"board", "fabric"},     {"hammingmesh", "fabric"},    {"fat_tree", "fabric"}, {"torus", "fabric"},
      {"dragonfly", "fabric"}, {"multidim", "fabric"},       {"clex", "fabric"},     {"torus3d", "fabric"},
      {"rail_only", "fabric"}, {"rail_optimized", "fabric"}, {"dgx2", "nvswitch"},   {"nvswitch_tree", "nvswitch"}};
  EXPECT_EQ(kinds, expected);
  // The models follow, each once, and no second table of kinds.
  EXPECT_EQ(line, "model fabric: flit level: Verilated RTL board planes and C++ input-buffered VC switches, FlitLinks");
  EXPECT_NE(r.output.find("\nmodel nvswitch: "), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("topologies", 1), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("  routing functions:\n"), std::string::npos) << r.output;
}

// A short run of the shipped 4x4 adaptive config.
const char* kShort = " --set run.warmup=200cycles --set run.measure=2000cycles --quiet";

TEST(HxsimRun, ShippedConfigsPassTheirChecks) {
  const fs::path d = scratch();
  for (const char* c : {"board4x4_adaptive.yaml", "mesh8x8_uniform.yaml"}) {
    const Result r = hxsim("run " + config(c) + kShort + " --out " + (d / "r.json").string());
    ASSERT_EQ(r.exit_code, 0) << c << "\n" << r.output;
    const json j = read_json(d / "r.json");
    EXPECT_TRUE(j["checks"]["passed"].get<bool>()) << c;
    EXPECT_EQ(j["checks"]["lost"], 0);
    EXPECT_GT(j["checks"]["delivered"].get<uint64_t>(), 1000u) << c;
    EXPECT_EQ(j["checks"]["injected"], j["checks"]["delivered"]);
    for (const char* k : {"cycles", "wall_seconds", "cycles_per_second", "router_cycles_per_second"}) {
      EXPECT_TRUE(j["sim"].contains(k)) << k;
    }
    for (const char* k : {"offered", "accepted", "avg_latency_cycles", "p99_latency_cycles", "packets"}) {
      EXPECT_TRUE(j["traffic"].contains(k)) << k;
    }
  }
}

json without_wall_clock(json j) {
  for (const char* k :
       {"wall_seconds", "cycles_per_second", "router_cycles_per_second", "flit_hops_per_second", "peak_rss_mb"}) {
    j["sim"].erase(k);
  }
  return j;
}

TEST(HxsimRun, SameSeedGivesByteIdenticalResults) {
  const fs::path d = scratch();
  const std::string base = "run " + config("board4x4_adaptive.yaml") + kShort;
  ASSERT_EQ(hxsim(base + " --seed 7 --out " + (d / "a.json").string()).exit_code, 0);
  ASSERT_EQ(hxsim(base + " --seed 7 --out " + (d / "b.json").string()).exit_code, 0);
  ASSERT_EQ(hxsim(base + " --seed 8 --out " + (d / "c.json").string()).exit_code, 0);
  const std::string a = without_wall_clock(read_json(d / "a.json")).dump(2);
  const std::string b = without_wall_clock(read_json(d / "b.json")).dump(2);
  const std::string c = without_wall_clock(read_json(d / "c.json")).dump(2);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c) << "the seed must change the traffic";
}

// The board planes may be stepped on worker threads (board.h); the results must not depend on
// how many: a HammingMesh with fabric and a collective on real data, then synthetic all-to-all.
TEST(HxsimRun, ThreadCountDoesNotChangeResults) {
  const fs::path d = scratch();
  const std::vector<std::string> runs = {
      "run " + config("hx4mesh_2x2_allreduce.yaml") + " --set collective.message=64KiB --quiet",
      "run " + config("hx2mesh_4x4_alltoall.yaml") +
          " --set run.warmup=200cycles --set run.measure=1500cycles --quiet"};
  for (const std::string& base : runs) {
    std::string one;
    for (const unsigned threads : {1u, 2u, 3u}) {
      const fs::path out = d / ("t" + std::to_string(threads) + ".json");
      const Result r = hxsim(base + " --threads " + std::to_string(threads) + " --out " + out.string());
      ASSERT_EQ(r.exit_code, 0) << base << "\n" << r.output;
      json j = read_json(out);
      EXPECT_EQ(j["sim"]["threads"], threads) << base;
      j["sim"].erase("threads");
      const std::string s = without_wall_clock(j).dump(2);
      if (threads == 1) {
        one = s;
      } else {
        EXPECT_EQ(s, one) << base << " with " << threads << " threads";
      }
    }
  }
}

// --link-loads: one row per fabric link, counted over the right window, and the run unchanged.
// A collective on a switch-model fat tree counts the whole run: its accelerators' cables into
// the leaves carry exactly the flits the scoreboard saw injected. A traffic run on RTL boards
// with trees counts the measurement window, and gives the same results as without the file
// (which steps the planes on one thread: the thread count is the one field that differs).
std::vector<std::vector<std::string>> read_csv(const fs::path& p) {
  std::vector<std::vector<std::string>> rows;
  std::ifstream in(p);
  for (std::string line; std::getline(in, line);) {
    std::vector<std::string> cells;
    std::stringstream ss(line);
    for (std::string c; std::getline(ss, c, ',');) cells.push_back(c);
    rows.push_back(cells);
  }
  return rows;
}

TEST(HxsimRun, LinkLoadsCountEveryFabricLinkWithoutChangingResults) {
  const fs::path d = scratch();
  const fs::path loads = d / "loads.csv", out = d / "r.json";
  Result r = hxsim("run " + config("table2/fat_tree_1024_allreduce.yaml") +
                   " --set topology.endpoints=64 --set topology.tree.radix=16 --set collective.message=64KiB --quiet"
                   " --out " +
                   out.string() + " --link-loads " + loads.string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  json j = read_json(out);
  auto rows = read_csv(loads);
  ASSERT_GT(rows.size(), 1u);
  EXPECT_EQ(rows[0], (std::vector<std::string>{"link", "class", "from_cycle", "to_cycle", "flits", "flits_per_cycle"}));
  uint64_t into_leaves = 0;
  for (std::size_t i = 1; i < rows.size(); ++i) {
    ASSERT_EQ(rows[i].size(), 6u) << i;
    EXPECT_EQ(rows[i][2], "0");
    EXPECT_EQ(std::stoull(rows[i][3]), j["sim"]["cycles"].get<uint64_t>());
    EXPECT_LE(std::stod(rows[i][5]), 1.0) << rows[i][0];
    const std::string& name = rows[i][0];
    if (name.size() > 10 && name.compare(name.size() - 10, 10, "_to_switch") == 0)
      into_leaves += std::stoull(rows[i][4]);
  }
  EXPECT_EQ(rows.size() - 1, 2u * j["config"]["cables"].get<std::size_t>());  // two directions a cable
  EXPECT_EQ(into_leaves, j["check_details"]["flits_injected"].get<uint64_t>());

  const std::string traffic = "run " + config("hx2mesh_4x4_alltoall.yaml") +
                              " --set run.warmup=200cycles --set run.measure=1500cycles --quiet --threads 2";
  ASSERT_EQ(hxsim(traffic + " --out " + (d / "a.json").string()).exit_code, 0);
  r = hxsim(traffic + " --out " + (d / "b.json").string() + " --link-loads " + loads.string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  json a = read_json(d / "a.json"), b = read_json(d / "b.json");
  EXPECT_EQ(a["sim"]["threads"], 2);
  EXPECT_EQ(b["sim"]["threads"], 1);
  a["sim"].erase("threads");
  b["sim"].erase("threads");
  EXPECT_EQ(without_wall_clock(a).dump(2), without_wall_clock(b).dump(2));
  rows = read_csv(loads);
  ASSERT_GT(rows.size(), 1u);
  uint64_t busy = 0;
  for (std::size_t i = 1; i < rows.size(); ++i) {
    EXPECT_EQ(rows[i][2], "200");
    EXPECT_EQ(rows[i][3], "1700");
    EXPECT_LE(std::stoull(rows[i][4]), 1500u) << rows[i][0];
    busy += std::stoull(rows[i][4]);
  }
  EXPECT_GT(busy, 0u);

  // A lone board has no fabric: refused, and nothing written.
  fs::remove(loads);
  r = hxsim("run " + config("board4x4_adaptive.yaml") + kShort + " --link-loads " + loads.string());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("--link-loads"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(loads));
}

// hxsim model --link-loads: the all-to-all flow model's channels at its rate. The channels that
// set the rate are at their capacity, as many as the results name, and none is above it.
TEST(HxsimModel, LinkLoadsShowTheBottleneckChannels) {
  const fs::path d = scratch();
  const fs::path loads = d / "flow.csv", out = d / "m.json";
  const Result r = hxsim("model " + config("hx4mesh_2x2_alltoall.yaml") + " --quiet --out " + out.string() +
                         " --link-loads " + loads.string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const json j = read_json(out);
  const auto rows = read_csv(loads);
  ASSERT_EQ(rows.size() - 1, j["config"]["flow_channels"].get<std::size_t>());
  EXPECT_EQ(rows[0], (std::vector<std::string>{"from", "to", "kind", "capacity_flits_per_cycle", "flits_per_cycle",
                                               "per_hop_flits_per_cycle"}));
  unsigned at_capacity = 0;
  for (std::size_t i = 1; i < rows.size(); ++i) {
    ASSERT_EQ(rows[i].size(), 6u) << i;
    const double cap = std::stod(rows[i][3]), load = std::stod(rows[i][4]);
    EXPECT_LE(load, cap * 1.000001) << rows[i][0] << " -> " << rows[i][1];
    if (load >= cap * 0.999 && rows[i][2] == j["traffic"]["bottleneck"].get<std::string>()) ++at_capacity;
  }
  EXPECT_EQ(at_capacity, j["traffic"]["bottleneck_channels"].get<unsigned>());

  // Only an all-to-all has channel loads: refused, nothing written.
  fs::remove(loads);
  const Result bad = hxsim("model " + config("hx2mesh_4x4_allreduce.yaml") + " --link-loads " + loads.string());
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.output.find("--link-loads"), std::string::npos) << bad.output;
  EXPECT_FALSE(fs::exists(loads));
}

TEST(HxsimChecks, ScoreboardCatchesADroppedPacket) {
  // A dropped single-flit packet never arrives: the network drains, the watchdog sees no
  // flit left inside while a packet is outstanding, and reports a loss.
  const fs::path d = scratch();
  const Result r = hxsim("run " + config("board4x4_adaptive.yaml") + kShort +
                         " --set traffic.packet_length=1 --set run.watchdog=500cycles"
                         " --inject-fault drop:5:3 --out " +
                         (d / "r.json").string());
  EXPECT_EQ(r.exit_code, 3) << r.output;
  const json j = read_json(d / "r.json");
  EXPECT_FALSE(j["checks"]["passed"].get<bool>());
  EXPECT_EQ(j["checks"]["lost"], 1);
  EXPECT_EQ(j["checks"]["deadlock"], false);
  EXPECT_EQ(j["check_details"]["end"], "loss");
  EXPECT_NE(r.output.find("LOSS"), std::string::npos) << r.output;
}

TEST(HxsimChecks, ScoreboardCatchesADroppedBodyFlit) {
  // The third flit of the first 4-flit packet for node 5 vanishes: the packet arrives short,
  // its tail in the place of the missing body flit.
  const fs::path d = scratch();
  const Result r = hxsim("run " + config("board4x4_adaptive.yaml") + kShort +
                         " --set traffic.packet_length=4 --inject-fault drop:5:3 --out " + (d / "r.json").string());
  EXPECT_EQ(r.exit_code, 3) << r.output;
  const json j = read_json(d / "r.json");
  EXPECT_FALSE(j["checks"]["passed"].get<bool>());
  EXPECT_EQ(j["checks"]["corrupted"], 1);
  EXPECT_EQ(j["checks"]["lost"], 0);
  EXPECT_NE(r.output.find("differs from what was sent"), std::string::npos) << r.output;
}

TEST(HxsimChecks, ScoreboardCatchesACorruptedFlit) {
  const fs::path d = scratch();
  const Result r = hxsim("run " + config("board4x4_adaptive.yaml") + kShort + " --inject-fault corrupt:6:10 --out " +
                         (d / "r.json").string());
  EXPECT_EQ(r.exit_code, 3) << r.output;
  const json j = read_json(d / "r.json");
  EXPECT_EQ(j["checks"]["corrupted"], 1);
  EXPECT_EQ(j["checks"]["lost"], 0);
  EXPECT_NE(r.output.find("differs from what was sent"), std::string::npos) << r.output;
}

TEST(HxsimChecks, WatchdogReportsADeadlockAndWhereTheFlitsAre) {
  // Minimal adaptive routing without a turn rule, one VC in use (keep: everything on VC 0),
  // long packets at saturation: a cyclic channel dependency forms.
  const fs::path d = scratch();
  const Result r = hxsim("run " + config("board4x4_adaptive.yaml") +
                         " --set routing.algorithm=min_adaptive --set router.vc_policy=keep"
                         " --set traffic.packet_length=16 --set traffic.injection_rate=0.9"
                         " --set run.watchdog=1000cycles --seed 1 --quiet --out " +
                         (d / "r.json").string());
  EXPECT_EQ(r.exit_code, 3) << r.output;
  const json j = read_json(d / "r.json");
  EXPECT_TRUE(j["checks"]["deadlock"].get<bool>());
  const std::string report = j["check_details"]["report"];
  EXPECT_NE(report.find("DEADLOCK"), std::string::npos) << report;
  EXPECT_NE(report.find("flits injected"), std::string::npos) << report;
  EXPECT_NE(report.find("input buffer"), std::string::npos) << report;
}

TEST(HxsimChecks, NorthLastDoesNotDeadlockOnTheSameTraffic) {
  const fs::path d = scratch();
  const Result r = hxsim("run " + config("board4x4_adaptive.yaml") +
                         " --set routing.algorithm=north_last --set router.vc_policy=keep"
                         " --set traffic.packet_length=16 --set traffic.injection_rate=0.9"
                         " --set run.warmup=200cycles --set run.measure=3000cycles"
                         " --set run.watchdog=1000cycles --seed 1 --quiet --out " +
                         (d / "r.json").string());
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_TRUE(read_json(d / "r.json")["checks"]["passed"].get<bool>());
}

// ---- config errors through the CLI: exit code 2, message, no output file ---------------------

void expect_bad_input(const std::string& args, const std::string& message) {
  const fs::path out = fs::temp_directory_path() / "hxsim_cli_test" / "never.json";
  fs::remove(out);
  const Result r = hxsim(args + " --out " + out.string());
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find(message), std::string::npos) << "expected '" << message << "' in\n" << r.output;
  EXPECT_FALSE(fs::exists(out)) << "no output file on bad input";
}

// Above saturation an unbounded source queue grows without end (latency includes source
// queueing), but a waiting packet costs 8 bytes, not a scoreboard record: the 8x8 mesh at 0.7
// for 100,000 cycles queues about two million packets and stays under 50 MB (it took 370-730 MB
// when every queued packet had its record). They are still counted: never injected, they are
// lost when the run ends, and the report says where they are.
TEST(HxsimOverload, UnboundedSourcesStaySmallAboveSaturation) {
#ifdef HX_SANITIZED
  GTEST_SKIP() << "under ASan the shadow memory and the allocator's quarantine count in the RSS";
#endif
  const fs::path d = scratch();
  const Result r = hxsim("run " + config("mesh8x8_uniform.yaml") +
                         " --quiet --set traffic.injection_rate=0.7 --set run.measure=100000cycles"
                         " --set run.drain=1cycle --out " +
                         (d / "r.json").string());
  EXPECT_EQ(r.exit_code, 3) << r.output;  // it cannot drain: the sources hold a backlog
  const json j = read_json(d / "r.json");
  EXPECT_EQ(j["check_details"]["end"], "drain_timeout");
  EXPECT_LT(j["sim"]["peak_rss_mb"].get<double>(), 50.0);
  EXPECT_GT(j["checks"]["lost"].get<uint64_t>(), 1000000u);
  EXPECT_NE(r.output.find("never injected, still waiting at their sources"), std::string::npos) << r.output;
}

// A bounded source that is full skips its trial, and the results say how often.
TEST(HxsimOverload, BoundedSourcesReportTheCyclesTheyWereFull) {
  const fs::path d = scratch();
  for (const double rate : {0.05, 0.9}) {
    const Result r = hxsim("run " + config("board4x4_adaptive.yaml") + kShort +
                           " --set traffic.source_queue=4 --set traffic.injection_rate=" + std::to_string(rate) +
                           " --out " + (d / "r.json").string());
    ASSERT_EQ(r.exit_code, 0) << r.output;
    const json t = read_json(d / "r.json")["traffic"];
    if (rate < 0.5) {
      EXPECT_EQ(t["source_full_cycles"], 0) << rate;
    } else {
      EXPECT_GT(t["source_full_share"].get<double>(), 0.2) << rate;
      EXPECT_LT(t["accepted"].get<double>(), t["offered"].get<double>()) << rate;
    }
  }
}

TEST(HxsimBadInput, MissingFile) { expect_bad_input("run /nonexistent/x.yaml", "/nonexistent/x.yaml"); }

TEST(HxsimBadInput, UnknownKeyNamesFileLineAndKey) {
  const fs::path d = scratch();
  const fs::path f = write_file(d / "bad.yaml", "topology:\n  board: 4x4\ntraffic:\n  injection_rat: 0.1\n");
  expect_bad_input("run " + f.string(), "bad.yaml:4:3: traffic.injection_rat");
}

TEST(HxsimBadInput, WrongTypeAndRangeThroughSet) {
  expect_bad_input("run " + config("board4x4_adaptive.yaml") + " --set router.vcs=five", "router.vcs");
  expect_bad_input("run " + config("board4x4_adaptive.yaml") + " --set router.vcs=9", "router.vcs");
}

// Board sizes that are not compiled in (the build has 4x4 only) run without a build file edited:
// the plane is Verilated and compiled into the model cache on first use, then loaded from it.
// A 3x5 board and a 1x7 board, the second as a one-wide column (the y links only).
class AnyBoardSize : public ::testing::TestWithParam<const char*> {};

// One board per test: each compiles its plane into the model cache, so ctest builds them side by side.
TEST_P(AnyBoardSize, IsBuiltOnFirstUse) {
  const fs::path d = scratch();
  const std::string board = GetParam();
  const Result r = hxsim("run " + config("board4x4_adaptive.yaml") + " --set topology.board=" + board + kShort +
                         " --out " + (d / "r.json").string());
  ASSERT_EQ(r.exit_code, 0) << board << "\n" << r.output;
  const json j = read_json(d / "r.json");
  EXPECT_TRUE(j["checks"]["passed"].get<bool>()) << board;
  EXPECT_GT(j["checks"]["delivered"].get<uint64_t>(), 500u) << board;
  EXPECT_EQ(j["config"]["rtl_model"], "hx_board_plane " + board);
  const Result c = hxsim("check " + config("board4x4_adaptive.yaml") + " --set topology.board=" + board);
  EXPECT_NE(c.output.find("rtl model: hx_board_plane " + board + ", cached in"), std::string::npos) << c.output;
}

INSTANTIATE_TEST_SUITE_P(HxsimRun, AnyBoardSize, ::testing::Values("3x5", "1x7"),
                         [](const ::testing::TestParamInfo<const char*>& p) { return std::string(p.param); });

// `hxsim plot` draws what the results hold: latency and link loads of traffic runs (two loads, one
// curve), collective bandwidth and per-dimension busy time of a multi-dimensional collective.
TEST(HxsimPlot, DrawsTheirPlotsAndRefusesWhatIsNotAResult) {
  const fs::path d = scratch();
  for (const char* rate : {"0.1", "0.3"}) {
    const Result r = hxsim("run --set traffic.injection_rate=" + std::string(rate) + kShort + " --out " +
                           (d / ("load" + std::string(rate) + ".json")).string());
    ASSERT_EQ(r.exit_code, 0) << r.output;
  }
  const Result c = hxsim("run " + config("themis/small/2d_sw_sw.yaml") + " --set collective.message=64KiB --quiet" +
                         " --out " + (d / "coll.json").string());
  ASSERT_EQ(c.exit_code, 0) << c.output;
  const Result p = hxsim("plot " + (d / "load0.1.json").string() + " " + (d / "load0.3.json").string() + " " +
                         (d / "coll.json").string() + " --out " + (d / "png").string());
  ASSERT_EQ(p.exit_code, 0) << p.output;
  for (const char* png : {"load0.1_latency.png", "load0.1_links.png", "load0.1_collective.png", "load0.1_dims.png"}) {
    std::ifstream in(d / "png" / png, std::ios::binary);
    ASSERT_TRUE(in) << png << " not written\n" << p.output;
    char magic[4] = {};
    in.read(magic, 4);
    EXPECT_EQ(std::string(magic + 1, 3), "PNG") << png;
    EXPECT_NE(p.output.find(png), std::string::npos) << "the path is printed";
  }
  const fs::path bad = write_file(d / "bad.json", "{\"x\": 1}\n");
  const Result b = hxsim("plot " + bad.string());
  EXPECT_EQ(b.exit_code, 2) << b.output;
  EXPECT_NE(b.output.find("bad.json: not an hxsim result"), std::string::npos) << b.output;
}

TEST(HxsimBadInput, BadTraceWindow) {
  expect_bad_input("run " + config("board4x4_adaptive.yaml") + " --trace /tmp/x.fst --trace-window 9:3",
                   "--trace-window");
  expect_bad_input("run " + config("board4x4_adaptive.yaml") + " --trace-window 1:3", "--trace-window needs --trace");
}

TEST(HxsimBadInput, UnknownOption) { expect_bad_input("run --frobnicate", "frobnicate"); }

TEST(HxsimCheck, ValidatesWithoutRunning) {
  const Result r = hxsim("check " + config("mesh8x8_uniform.yaml"));
  EXPECT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("valid config"), std::string::npos) << r.output;
}

// ---- zero-load latency ------------------------------------------------------------------------

// The analytical zero-load latency, computed here from the routing rules independently of the
// simulator: 2 cycles per router on a minimal path (|dx| + |dy| + 1 routers), the local link
// latency into and out of the board, and the packet's serialization (P flits; the head leaves
// the source one cycle after its creation).
double analytical_zero_load(unsigned a, unsigned b, unsigned link_cycles, unsigned length) {
  double sum = 0;
  unsigned pairs = 0;
  for (unsigned s = 0; s < a * b; ++s) {
    for (unsigned t = 0; t < a * b; ++t) {
      if (s == t) continue;
      const int dx = std::abs(int(s % a) - int(t % a)), dy = std::abs(int(s / a) - int(t / a));
      sum += 2.0 * (dx + dy + 1);
      ++pairs;
    }
  }
  return sum / pairs + 2.0 * link_cycles + length;
}

void expect_zero_load(const std::string& cfg, const std::string& sets, unsigned a, unsigned b, unsigned link_cycles,
                      unsigned length) {
  const fs::path d = scratch();
  const Result r = hxsim("run " + config(cfg) + sets +
                         " --set traffic.injection_rate=0.01 --set run.measure=20000cycles"
                         " --quiet --out " +
                         (d / "r.json").string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const json j = read_json(d / "r.json");
  const double expect = analytical_zero_load(a, b, link_cycles, length);
  const double got = j["traffic"]["avg_latency_cycles"];
  std::printf("[ zeroload ] %s%s: measured %.3f, analytical %.3f cycles\n", cfg.c_str(), sets.c_str(), got, expect);
  // Within 5%: the measured mean also carries the sampling noise of the destinations drawn
  // (a few hundred packets), so it may land slightly below the exact expectation.
  EXPECT_NEAR(got, expect, 0.05 * expect);
  EXPECT_NEAR(j["traffic"]["zero_load_latency_cycles"].get<double>(), expect, 1e-9);
}

TEST(HxsimLatency, ZeroLoadLatencyMatchesTheAnalyticalValue8x8) {
  expect_zero_load("mesh8x8_uniform.yaml", " --set links.local.latency=1cycles", 8, 8, 1, 1);
}

TEST(HxsimLatency, ZeroLoadLatencyWithLongerLinksAndPackets4x4) {
  expect_zero_load("board4x4_adaptive.yaml", " --set links.local.latency=5ns --set traffic.packet_length=4", 4, 4, 5,
                   4);
}

// ---- traffic patterns -------------------------------------------------------------------------

TEST(HxsimTraffic, EveryPatternRunsClean) {
  const fs::path d = scratch();
  for (const std::string p : {"uniform", "permutation", "transpose", "bit_complement", "neighbor", "hotspot"}) {
    std::string sets = " --set traffic.pattern=" + p;
    if (p == "hotspot") sets += " --set traffic.hotspot.nodes=[5] --set traffic.hotspot.fraction=0.3";
    const Result r =
        hxsim("run " + config("board4x4_adaptive.yaml") + kShort + sets + " --out " + (d / "r.json").string());
    ASSERT_EQ(r.exit_code, 0) << p << "\n" << r.output;
    const json j = read_json(d / "r.json");
    EXPECT_TRUE(j["checks"]["passed"].get<bool>()) << p;
    EXPECT_EQ(j["traffic"]["pattern"], p);
    EXPECT_GT(j["checks"]["delivered"].get<uint64_t>(), 100u) << p;
  }
}

// ---- waveforms --------------------------------------------------------------------------------

// Full names of every signal in an FST, by converting it to VCD and following $scope.
std::set<std::string> fst_signals(const fs::path& fst) {
  std::set<std::string> names;
  const std::string cmd = "fst2vcd " + fst.string() + " 2>/dev/null";
  FILE* p = popen(cmd.c_str(), "r");
  if (p == nullptr) return names;
  std::vector<std::string> scope;
  char line[8192];
  while (fgets(line, sizeof line, p)) {
    std::istringstream is(line);
    std::string tok;
    is >> tok;
    if (tok == "$scope") {
      std::string kind, name;
      is >> kind >> name;
      scope.push_back(name);
    } else if (tok == "$upscope") {
      if (!scope.empty()) scope.pop_back();
    } else if (tok == "$var") {
      std::string type, width, id, name;
      is >> type >> width >> id >> name;
      std::string full;
      for (const auto& s : scope) full += s + ".";
      names.insert(full + name);
    } else if (tok == "$enddefinitions") {
      break;
    }
  }
  pclose(p);
  return names;
}

// A 2x2 board: its traced plane is the one the HammingMesh test below needs too, so a fresh model
// cache builds one traced plane for both (hxsim's own models have no waveform code).
TEST(HxsimTrace, FstAndSaveFileWithOneRouterGroupedByPort) {
  const fs::path d = scratch();
  const fs::path fst = d / "waves.fst";
  const Result r = hxsim("run " + config("board4x4_adaptive.yaml") + kShort + " --set topology.board=2x2 --trace " +
                         fst.string() + " --trace-window 100:300 --out " + (d / "r.json").string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  ASSERT_TRUE(fs::exists(fst));
  const fs::path gtkw = d / "waves.gtkw";
  ASSERT_TRUE(fs::exists(gtkw));
  const std::set<std::string> have = fst_signals(fst);
  ASSERT_GT(have.size(), 1000u) << "the FST should hold every router's signals";
  std::ifstream in(gtkw);
  std::string line;
  unsigned signals = 0, groups = 0;
  while (std::getline(in, line)) {
    if (line.rfind("@800200", 0) == 0) ++groups;
    if (line.empty() || line[0] == '[' || line[0] == '@' || line[0] == '-' || line[0] == '*') continue;
    std::string name = line;  // drop a trailing [msb:lsb]
    const auto br = name.rfind('[');
    if (br != std::string::npos && name.find(':', br) != std::string::npos) name.resize(br);
    EXPECT_TRUE(have.count(name)) << "the save file names " << name << ", which the FST lacks";
    ++signals;
  }
  EXPECT_GE(groups, 5u) << "one group per router port";
  EXPECT_GT(signals, 40u);
  // The window: the dump starts at cycle 100 (1 GHz: 100,000 ps).
  const json j = read_json(d / "r.json");
  EXPECT_EQ(j["trace"]["from_cycle"], 100);
}

TEST(HxsimTrace, HammingMeshHoldsEveryBoardAndTheCables) {
  const fs::path d = scratch();
  const fs::path fst = d / "hx.fst";
  const Result r = hxsim("run " + config("hx2mesh_4x4_alltoall.yaml") +
                         " --set run.warmup=100cycles --set run.measure=200cycles --quiet --trace " + fst.string() +
                         " --out " + (d / "r.json").string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  const std::set<std::string> names = fst_signals(fst);
  // The RTL of the last of the 16 boards, a board's cable to its row tree, and a local link.
  EXPECT_TRUE(names.count("board15_plane0.hx_board_plane.error_o")) << "board 15's RTL";
  EXPECT_TRUE(names.count("links.board0_W0_0_to_switch.valid")) << "a cable";
  EXPECT_TRUE(names.count("links.board0_W0_0_from_switch.packet")) << "a cable";
  EXPECT_TRUE(names.count("links.node0_inject.valid")) << "a local link";
}

TEST(HxsimTrace, SwitchedTopologiesHaveNoRtlToTrace) {
  const fs::path d = scratch();
  const Result r = hxsim("run " + config("fat_tree_1024_alltoall.yaml") + " --set topology.endpoints=16 --trace " +
                         (d / "f.fst").string() + " --out " + (d / "r.json").string());
  EXPECT_NE(r.exit_code, 0);
  EXPECT_NE(r.output.find("no RTL to trace"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(d / "r.json"));
}

// `hxsim model` on an LLM workload (docs/rail.md): a given parallelization, a search, a given one
// that breaks Eq. 12 (exit 2, the equation named, nothing written), a search with no valid
// strategy (exit 1, said so, nothing written).
TEST(HxsimModelWorkload, GivenSearchedAndRefused) {
  const fs::path d = hx::test::scratch_dir("hx_cli_workload");
  const std::string cfg = std::string(HX_CONFIG_DIR) + "/rail/table4_1t.yaml";
  hx::test::CliResult r = hx::test::hxsim("model " + cfg + " --out " + (d / "g.json").string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  EXPECT_NE(r.output.find("paper (Table 4): computed 70.69 s"), std::string::npos) << r.output;
  nlohmann::json j = nlohmann::json::parse(std::ifstream(d / "g.json"));
  EXPECT_EQ(j["iteration"]["mode"], "given");
  EXPECT_EQ(j["iteration"]["best"]["strategy"]["p"], 64);

  r = hx::test::hxsim("model " + cfg + " --set workload.parallelization=~ --set workload.search.top=3 --quiet --out " +
                      (d / "s.json").string());
  ASSERT_EQ(r.exit_code, 0) << r.output;
  j = nlohmann::json::parse(std::ifstream(d / "s.json"));
  EXPECT_EQ(j["iteration"]["mode"], "search");
  EXPECT_EQ(j["iteration"]["top"].size(), 3u);
  EXPECT_LE(j["iteration"]["best"]["iteration_s"].get<double>(), j["paper"]["iteration_time_s"].get<double>() * 1.05);

  r = hx::test::hxsim(
      "model " + cfg +
      " --set 'workload.parallelization={tensor: 8, pipeline: 64, data: 1, micro_batch: 1, hb_tensor: 4, "
      "hb_pipeline: 1, hb_data: 1}' --out " +
      (d / "bad.json").string());
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("workload.parallelization: expected a parallelization that satisfies Eq. 12"),
            std::string::npos)
      << r.output;
  EXPECT_FALSE(fs::exists(d / "bad.json"));

  r = hx::test::hxsim("model " + cfg +
                      " --set workload.parallelization=~ --set 'workload.cluster.gpu_memory=1 GiB' --out " +
                      (d / "none.json").string());
  EXPECT_EQ(r.exit_code, 1) << r.output;
  EXPECT_NE(r.output.find("no parallelization satisfies Eq. 11-19"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(d / "none.json"));
}

}  // namespace
