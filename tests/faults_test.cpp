// faults_test.cpp: failed links and switches (topology/faults.h, routing/tree.cpp; issue 23
// item 6): what apply_faults marks and tells the leaves, the config's errors, and through the
// binary, traffic and a collective that route around the failed parts and verify.
#include <gtest/gtest.h>

#include <fstream>

#include "cli_support.h"
#include "fabric_topology.h"
#include "faults.h"
#include "nlohmann/json.hpp"
#include "sim_config.h"
#include "tree_routes.h"

namespace hx {
namespace {

using nlohmann::json;

// 32 endpoints in a two-level tree of radix 16: 4 leaves (ports 0-7 down, 8-15 up) and 2 spines
// of 16 ports. Leaf l's up link j is link g = 8 l + j, to spine g mod 2, port g div 2: spine 0
// reaches leaf 0 by its ports 0-3.
// A fat tree of `endpoints` under uniform traffic, the tree's line as given ("{radix: .., taper: ..}").
std::string tree_config(unsigned endpoints, const std::string& tree) {
  return "topology:\n  kind: fat_tree\n  endpoints: " + std::to_string(endpoints) + "\n  tree: " + tree +
         "\nrouter: {clock: 1 GHz, vc_policy: any, vcs: 3}\n"
         "traffic: {pattern: uniform, injection_rate: 0.3, packet_length: 4}\n"
         "run: {warmup: 500 cycles, measure: 3000 cycles}\n";
}
const std::string kTree = tree_config(32, "{radix: 16, taper: 1}");
const char* kSpine0ToLeaf0 = "faults:\n  links: [tree_spine0:0, tree_spine0:1, tree_spine0:2, 'tree_spine0:3']\n";

unsigned node(const NetworkDescription& net, const std::string& name) {
  for (unsigned i = 0; i < net.nodes.size(); ++i)
    if (net.nodes[i].name == name) return i;
  ADD_FAILURE() << name;
  return 0;
}

TEST(FaultsNetlist, FailedLinksStayInstalledAndLeavesAvoidASpineThatLostTheirDestination) {
  const SimConfig cfg = load_config_text(kTree + kSpine0ToLeaf0, "tree.yaml");
  NetworkDescription net = fabric_topology("fat_tree").network(cfg);
  const std::size_t links = net.links.size();
  apply_faults(net, cfg.faults);
  EXPECT_EQ(net.links.size(), links);  // installed: the cost and the results count them
  unsigned failed = 0;
  for (const LinkDescription& l : net.links) failed += l.failed;
  EXPECT_EQ(failed, 4u);
  // Leaf 1's even up ports (8, 10, ...) go to spine 0, which no longer reaches leaf 0: towards
  // leaf 0 only its odd ones; towards leaf 2, all eight.
  const RoutingContext& leaf1 = net.nodes[node(net, "tree_leaf1")].place;
  ASSERT_TRUE(leaf1.tree_routes);
  EXPECT_EQ(leaf1.tree_routes->up_bits[0], 0xAAu);
  EXPECT_EQ(leaf1.tree_routes->up_bits[2], 0xFFu);
  // Leaf 0 lost its links to spine 0: only spine 1, whatever the destination.
  const RoutingContext& leaf0 = net.nodes[node(net, "tree_leaf0")].place;
  EXPECT_EQ(leaf0.tree_routes->up_bits[3], 0xAAu);
  // Spine 0 goes down to leaf 0 by no port now; to leaf 1 by its ports 4..7 (the four links of
  // leaf 1's even up ports: link g = 1 * 8 + j, j even, is port g / 2).
  const RoutingContext& spine0 = net.nodes[node(net, "tree_spine0")].place;
  EXPECT_EQ(spine0.tree_routes->down_count(0), 0u);
  ASSERT_EQ(spine0.tree_routes->down_count(1), 4u);
  EXPECT_EQ(spine0.tree_routes->down_port(1, 0), 4u);
  EXPECT_EQ(spine0.tree_routes->down_port(1, 3), 7u);
  // A failed spine fails all 16 of its links.
  SimConfig spine = load_config_text(kTree + "faults: {switches: [tree_spine1]}\n", "spine.yaml");
  NetworkDescription net2 = fabric_topology("fat_tree").network(spine);
  apply_faults(net2, spine.faults);
  failed = 0;
  for (const LinkDescription& l : net2.links) failed += l.failed;
  EXPECT_EQ(failed, 16u);
}

TEST(FaultsConfig, NamesThatAreNoTreeLinkAndFaultsThatLeaveNoPathAreRefused) {
  const auto error = [](const std::string& faults) {
    try {
      load_config_text(kTree + faults, "bad.yaml");
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(error("faults: {links: [tree_leaf9:8]}\n")
                .find("faults.links[0]: expected a switch of a fat tree of several switches or of an NVSwitch "
                      "plane of this network, such as tree_leaf0"),
            std::string::npos)
      << error("faults: {links: [tree_leaf9:8]}\n");
  EXPECT_NE(error("faults: {links: ['tree_leaf0:8x']}\n").find("expected SWITCH:PORT"), std::string::npos);
  // An endpoint's cable: nothing routes around it.
  EXPECT_NE(error("faults: {links: ['tree_leaf0:3']}\n").find("which joins node3 and tree_leaf0"), std::string::npos);
  EXPECT_NE(
      error("faults: {links: ['tree_leaf0:8', 'tree_spine0:0']}\n").find("faults.links[1]: expected each link once"),
      std::string::npos);
  // Leaf 0 without any up link: no path to the other leaves.
  std::string all = "faults: {links: [";
  for (unsigned p = 8; p < 16; ++p) all += (p > 8 ? ", " : "") + std::string("'tree_leaf0:") + std::to_string(p) + "'";
  all += "]}\n";
  EXPECT_NE(error(all).find("bad.yaml:8:9: faults: expected faults that leave a path between every two leaves of a "
                            "tree, found none between tree_leaf0 and tree_leaf1"),
            std::string::npos)
      << error(all);
  // Where no tree has two levels, nothing may fail.
  const std::string single = tree_config(32, "{radix: 64, taper: 1}");
  try {
    load_config_text(single + "faults: {switches: [tree_sw]}\n", "single.yaml");
    ADD_FAILURE() << "a single-switch tree has no links that may fail";
  } catch (const ConfigError& e) {
    EXPECT_NE(std::string(e.what()).find("no switches of a fat tree of several switches"), std::string::npos)
        << e.what();
  }
}

// A three-level tree of 6-port switches, tapered 1 : 0.5 (4 down, 2 up): 40 endpoints on 10
// leaves, pods of 3 leaves (the last holds 1) with 2, 2, 2 and 1 middle switches, 4 tops. The
// middles' up links, dealt round-robin over the tops, give the short last pod's middle tops 2 and
// 3 only: tops 0 and 1 cannot reach leaf 9, and the tables send nothing for it their way.
const std::string kThreeLevels = tree_config(40, "{radix: 6, taper: 0.5}");

TEST(TreeRoutes, ThreeLevelsRouteOnlyThroughTopsThatReachTheDestination) {
  const SimConfig cfg = load_config_text(kThreeLevels, "three.yaml");
  NetworkDescription net = fabric_topology("fat_tree").network(cfg);
  apply_faults(net, cfg.faults);
  const RoutingContext& top0 = net.nodes[node(net, "tree_spine0")].place;
  const RoutingContext& top2 = net.nodes[node(net, "tree_spine2")].place;
  ASSERT_TRUE(top0.tree_routes && top2.tree_routes);
  EXPECT_EQ(top0.tree_routes->down_count(9), 0u);
  EXPECT_EQ(top2.tree_routes->down_count(9), 1u);
  EXPECT_EQ(top0.tree_routes->down_count(0), 2u);  // pod 0's two middles
  // Pod 0's first middle has up links 0, 1, 2 to tops 0, 1, 2: towards leaf 9 only the third.
  const RoutingContext& mid0 = net.nodes[node(net, "tree_mid0")].place;
  EXPECT_EQ(mid0.up, 3u);
  EXPECT_EQ(mid0.tree_routes->up_bits[9], 0x4u);
  EXPECT_EQ(mid0.tree_routes->up_bits[5], 0x7u);
  // ... and down to its own pod's leaves 0..2, by one port each; nothing down to leaf 3.
  EXPECT_EQ(mid0.tree_routes->down_count(2), 1u);
  EXPECT_EQ(mid0.tree_routes->down_count(3), 0u);
  // Every leaf reaches leaf 9 through both of its middles (each has a link to top 2 or 3).
  const RoutingContext& leaf0 = net.nodes[node(net, "tree_leaf0")].place;
  EXPECT_EQ(leaf0.tree_routes->up_bits[9], 0x3u);
}

json run(const std::string& name, const std::string& args) {
  const std::filesystem::path out = test::scratch_dir("faults") / (name + ".json");
  const test::CliResult r = test::hxsim("run " + args + " --quiet --out '" + out.string() + "'", HX_SOURCE_DIR);
  EXPECT_EQ(r.exit_code, 0) << r.output;
  std::ifstream in(out);
  return json::parse(in);
}

// Uniform traffic on the tree whose spine 0 lost leaf 0: every packet arrives, and the results
// name the failed links.
TEST(FaultsRun, TrafficRoutesAroundFailedLinks) {
  const std::filesystem::path cfg = test::scratch_dir("faults_cfg") / "tree.yaml";
  std::ofstream(cfg) << kTree << kSpine0ToLeaf0;
  const json r = run("tree", "'" + cfg.string() + "'");
  EXPECT_TRUE(r["checks"]["passed"].get<bool>()) << r["check_details"].dump(1);
  EXPECT_EQ(r["checks"]["delivered"], r["checks"]["injected"]);
  EXPECT_EQ(r["config"]["failed_links"].size(), 4u);
  EXPECT_EQ(r["config"]["network"]["aoc_cables"], 32);  // installed, failed or not
}

// The three-level tree above at cycle level: every packet arrives, also with a failed link
// between a middle switch and a top (the tables take the other tops).
TEST(FaultsRun, ThreeLevelTreeDeliversEverythingWithAndWithoutAFailedLink) {
  for (const char* fault : {"", "faults: {links: ['tree_mid0:3']}\n"}) {
    const std::filesystem::path cfg = test::scratch_dir("faults_cfg") / "three.yaml";
    std::ofstream(cfg) << kThreeLevels << fault;
    const json r = run("three", "'" + cfg.string() + "'");
    EXPECT_TRUE(r["checks"]["passed"].get<bool>()) << fault << r["check_details"].dump(1);
    EXPECT_GT(r["checks"]["delivered"].get<uint64_t>(), 1000u) << fault;
    EXPECT_EQ(r["checks"]["delivered"], r["checks"]["injected"]) << fault;
  }
}

// A HammingMesh whose row and column trees have two levels (radix 4), with one global link and
// then one spine failed: the allreduce completes and every element is right.
TEST(FaultsRun, HammingMeshAllreduceCompletesWithAFailedGlobalLinkOrSpine) {
  for (const char* fault : {"faults.links=[row0_line0_leaf0:2]", "faults.switches=[col1_line0_spine0]"}) {
    const json r = run("hx", std::string("configs/hx2mesh_4x4_allreduce.yaml --set topology.tree.radix=4 --set "
                                         "collective.message=256KiB --set '") +
                                 fault + "'");
    EXPECT_TRUE(r["checks"]["passed"].get<bool>()) << fault << r["check_details"].dump(1);
    const json& job = r["collective"]["jobs"][0];
    EXPECT_TRUE(job["complete"].get<bool>()) << fault;
    EXPECT_EQ(job["wrong_elements"], 0) << fault;
  }
}

// The NVSwitch-like fabric (nvswitch/nv_topology.h): a trunk or spine that lost a link is taken
// out of its plane's routes, multicast trees and homes. One failed DGX-2 trunk, then a failed
// spine of the 128-GPU tree: push and pull allreduces complete and every element is right.
TEST(FaultsRun, NvSwitchAllreducesRouteAroundAFailedTrunkOrSpine) {
  const std::pair<const char*, const char*> cases[] = {
      {"dgx2_push.yaml", "faults.links=[switch0:8]"},
      {"dgx2_pull.yaml", "faults.links=[switch0:8, switch1:12]"},
      {"fat_tree128_push.yaml", "faults.switches=[switch16]"},  // plane 0's first spine
  };
  for (const auto& [config, fault] : cases) {
    const json r =
        run("nv", std::string("configs/") + config + " --set 'collective.message=256 KiB' --set '" + fault + "'");
    EXPECT_TRUE(r["checks"]["passed"].get<bool>()) << config << " " << fault;
    const json& job = r["collective"]["jobs"][0];
    EXPECT_TRUE(job["complete"].get<bool>()) << config;
    EXPECT_EQ(job["wrong_elements"], 0) << config;
    EXPECT_FALSE(r["config"]["failed_links"].empty() && r["config"]["failed_switches"].empty());
  }
}

TEST(FaultsRun, NvSwitchFaultsThatLeaveAPlaneNoTrunkOrCutAGpuAreRefused) {
  std::string all = "faults.links=[";
  for (unsigned p = 8; p < 16; ++p) all += (p > 8 ? "," : "") + std::string("switch0:") + std::to_string(p);
  all += "]";
  const test::CliResult r = test::hxsim("run configs/dgx2_push.yaml --set '" + all + "'", HX_SOURCE_DIR);
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("faults: expected faults that leave every plane a working trunk or spine, found none in "
                          "plane 0 (switches 0..1)"),
            std::string::npos)
      << r.output;
  const test::CliResult gpu = test::hxsim("run configs/dgx2_push.yaml --set 'faults.links=[switch0:3]'", HX_SOURCE_DIR);
  EXPECT_EQ(gpu.exit_code, 2) << gpu.output;
  EXPECT_NE(gpu.output.find("which joins gpu3 and switch0"), std::string::npos) << gpu.output;
}

}  // namespace
}  // namespace hx
