// rail_cycle_test.cpp: the rail clusters at cycle level (topology/rail.cpp, routing/rail.cpp;
// Wang et al., issue 20 items 1, 2 and 5): their netlists, the relay routing (every cross-rail
// packet of rail_only is relayed exactly once, none on rail_optimized, none lost), the
// hierarchical collectives verified on both and checked against `hxsim model`, and the configs'
// errors.
#include <gtest/gtest.h>

#include <fstream>
#include <map>

#include "cli_support.h"
#include "dim_layout.h"
#include "fabric_topology.h"
#include "nlohmann/json.hpp"
#include "sim_config.h"

namespace hx {
namespace {

using nlohmann::json;

json load(const std::filesystem::path& p) {
  std::ifstream in(p);
  return json::parse(in);
}

std::string cluster(const std::string& kind, unsigned k, unsigned domains, const std::string& rest) {
  return "topology:\n  kind: " + kind + "\n  dims:\n    - {size: " + std::to_string(k) +
         ", kind: switch, bandwidth: 32 Gb/s, links: 4, latency: 100 ns}\n    - {size: " + std::to_string(domains) +
         ", kind: switch, bandwidth: 14.22 Gb/s, links: 1, latency: 500 ns}\nrouter: {clock: 1 GHz, vcs: 8, "
         "vc_policy: any, buffer_depth: 64}\n" +
         rest;
}
const char* kUniform =
    "traffic: {pattern: uniform, injection_rate: 0.05, packet_length: 4}\n"
    "run: {warmup: 500 cycles, measure: 2000 cycles}\n";

TEST(RailNetlist, RailOptimizedAddsAFullBisectionSpineToTheRailOnlyNetwork) {
  const SimConfig only = load_config_text(cluster("rail_only", 8, 4, kUniform), "ro.yaml");
  const SimConfig opt = load_config_text(cluster("rail_optimized", 8, 4, kUniform), "rp.yaml");
  const NetworkDescription a = fabric_topology("rail_only").network(only);
  const NetworkDescription b = fabric_topology("rail_optimized").network(opt);
  const auto count = [](const NetworkDescription& n) {
    std::map<std::string, unsigned> links;
    for (const LinkDescription& l : n.links) ++links[l.link_class];
    return links;
  };
  // 32 GPUs: 4 domains of 8. Rail-only: 4 x 4 HB switches (4 planes), 8 rail switches of 4 ports.
  std::map<std::string, unsigned> ca = count(a), cb = count(b);
  EXPECT_EQ(ca["dim1"], 32u * 4);  // every GPU's 4 NVLink planes
  EXPECT_EQ(ca["dim2"], 32u);      // one NIC each
  EXPECT_EQ(ca.count("spine"), 0u);
  EXPECT_EQ(cb["dim2"], 32u);
  EXPECT_EQ(cb["spine"], 8u * 4);  // each of 8 leaves to each of 4 spines
  unsigned spines = 0, leaves = 0;
  for (const NodeDescription& n : b.nodes) {
    if (n.kind != NodeDescription::Kind::Switch) continue;
    if (n.place.dim_switch == 2) {
      ++spines;
      EXPECT_EQ(n.ports, 8u);  // one per rail
    }
    if (n.place.dim_switch == 1) {
      ++leaves;
      EXPECT_EQ(n.ports, 2u * 4);  // as many up ports as NICs: full bisection
    }
  }
  EXPECT_EQ(spines, 4u);
  EXPECT_EQ(leaves, 8u);
  EXPECT_EQ(b.nodes.size(), a.nodes.size() + 4);
  EXPECT_EQ(opt.routing.algorithm, "rail_clos");
  EXPECT_EQ(only.routing.algorithm, "dim_order");
}

// `hxsim run` on `yaml` (written to the test's scratch directory); expects exit 0, returns the results.
json run(const std::string& name, const std::string& yaml, const std::string& verb = "run") {
  const std::filesystem::path dir = test::scratch_dir("rail_cycle");
  const std::filesystem::path cfg = dir / (name + ".yaml"), out = dir / (name + "_" + verb + ".json");
  std::ofstream(cfg) << yaml;
  const test::CliResult r = test::hxsim(verb + " '" + cfg.string() + "' --quiet --out '" + out.string() + "'");
  EXPECT_EQ(r.exit_code, 0) << r.output;
  return load(out);
}

void expect_clean(const json& r) {
  EXPECT_TRUE(r["checks"]["passed"].get<bool>()) << r["check_details"].dump(1);
  EXPECT_EQ(r["checks"]["lost"], 0);
  EXPECT_EQ(r["checks"]["delivered"], r["checks"]["injected"]);
}

// An all-to-all of 64 KiB on 64 GPUs sends one 1 KiB packet (the segment) from every GPU to every
// other: 64 x 7 x 7 of them go to another rail in another domain, and only those cross a third
// GPU's router.
TEST(RailRelay, EveryCrossRailPacketIsRelayedExactlyOnceOnRailOnlyAndNeverOnRailOptimized) {
  const std::string a2a = "collective: {operation: all_to_all, algorithm: direct, message: 64 KiB}\n";
  for (const char* kind : {"rail_only", "rail_optimized"}) {
    const json r = run(kind, cluster(kind, 8, 8, a2a));
    expect_clean(r);
    const json& job = r["collective"]["jobs"][0];
    EXPECT_EQ(job["wrong_elements"], 0);
    EXPECT_EQ(job["packets"], 64 * 63);
    const bool relays = std::string(kind) == "rail_only";
    EXPECT_EQ(r["sim"]["transit_packets"], relays ? 64 * 7 * 7 : 0) << kind;
    EXPECT_EQ(r["sim"]["transits"], relays ? 64 * 7 * 7 : 0) << kind;
    EXPECT_EQ(r["sim"]["max_transits_per_packet"], relays ? 1 : 0) << kind;
  }
}

// Uniform random traffic: every packet arrives once; on rail_only some are relayed, each once,
// and the relayed ones take longer on average (an HB hop more, and a second GPU's router).
TEST(RailRelay, UniformTrafficIsDeliveredAndRelaysCostLatency) {
  const json r = run("uniform", cluster("rail_only", 4, 4, kUniform));
  expect_clean(r);
  EXPECT_GT(r["sim"]["transit_packets"].get<uint64_t>(), 0u);
  EXPECT_EQ(r["sim"]["transits"], r["sim"]["transit_packets"]);
  EXPECT_GT(r["sim"]["transit_avg_latency_cycles"].get<double>(), r["sim"]["direct_avg_latency_cycles"].get<double>());
  const json o = run("uniform_opt", cluster("rail_optimized", 4, 4, kUniform));
  expect_clean(o);
  EXPECT_EQ(o["sim"]["transit_packets"], 0);
}

// The hierarchical collectives (rail stage and HB stage) on both networks: every element right,
// the same time on both (they never use the spine), and within 5% of `hxsim model` at 1 MiB.
TEST(RailCollectives, HierarchicalCollectivesAreVerifiedAndMatchTheAnalyticalBackend) {
  for (const char* op : {"all_gather", "reduce_scatter", "allreduce"}) {
    double only_us = 0;
    for (const char* kind : {"rail_only", "rail_optimized"}) {
      const std::string yaml = cluster(
          kind, 4, 4,
          std::string("collective: {operation: ") + op + ", algorithm: hierarchical, message: 1 MiB, chunks: 4}\n");
      const json r = run(std::string(kind) + "_" + op, yaml);
      expect_clean(r);
      const json& job = r["collective"]["jobs"][0];
      EXPECT_TRUE(job["complete"].get<bool>());
      EXPECT_EQ(job["wrong_elements"], 0);
      EXPECT_EQ(job["coverage_errors"], 0);
      const double cycle_us = job["time_us"].get<double>();
      const json m = run(std::string(kind) + "_" + op, yaml, "model");
      const double model_us = m["collective"]["jobs"][0]["time_us"].get<double>();
      EXPECT_NEAR(cycle_us / model_us, 1.0, 0.05) << kind << " " << op;
      if (std::string(kind) == "rail_only")
        only_us = cycle_us;
      else
        EXPECT_DOUBLE_EQ(cycle_us, only_us) << op;
    }
  }
}

// Appendix D's hierarchical all-to-all: the HB domain first, then the rail. Every element arrives
// right and exactly once; a GPU relays in its memory, so no packet crosses a third GPU's router.
// The time follows Eq. 21 plus each phase's latency (`hxsim model`), within 5% at 1 MiB.
TEST(RailCollectives, HierarchicalAllToAllIsVerifiedAndMatchesEq21) {
  for (const char* kind : {"rail_only", "rail_optimized"}) {
    const std::string yaml =
        cluster(kind, 4, 4, "collective: {operation: all_to_all, algorithm: hierarchical, message: 1 MiB}\n");
    const json r = run(std::string(kind) + "_a2a", yaml);
    expect_clean(r);
    const json& job = r["collective"]["jobs"][0];
    EXPECT_TRUE(job["complete"].get<bool>());
    EXPECT_EQ(job["wrong_elements"], 0);
    EXPECT_EQ(job["coverage_errors"], 0);
    EXPECT_EQ(job["output_elements"], 16 * (1 << 18));
    EXPECT_EQ(r["sim"]["transit_packets"], 0) << kind;
    const json m = run(std::string(kind) + "_a2a", yaml, "model");
    const double model_us = m["collective"]["jobs"][0]["time_us"].get<double>();
    EXPECT_NEAR(job["time_us"].get<double>() / model_us, 1.0, 0.05) << kind;
  }
}

TEST(RailConfig, ShapesThatAreNoRailClusterAreRefusedWithTheKey) {
  const auto error = [](const std::string& yaml) {
    try {
      load_config_text(yaml, "bad.yaml");
    } catch (const ConfigError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  // Three dimensions; a ring for the HB domain; two NICs per GPU; dim_order on rail_only only.
  std::string three = cluster("rail_only", 4, 4, kUniform);
  three.replace(three.find("router:"), 0,
                "    - {size: 2, kind: switch, bandwidth: 32 Gb/s, links: 1, latency: 1 us}\n");
  EXPECT_NE(error(three).find("topology.dims: expected two dimensions"), std::string::npos) << error(three);
  std::string ring = cluster("rail_only", 4, 4, kUniform);
  ring.replace(ring.find("kind: switch"), 12, "kind: ring");
  EXPECT_NE(error(ring).find("kind switch"), std::string::npos) << error(ring);
  std::string two_nics = cluster("rail_only", 4, 4, kUniform);
  two_nics.replace(two_nics.find("links: 1,"), 9, "links: 2,");
  EXPECT_NE(error(two_nics).find("one NIC per GPU"), std::string::npos) << error(two_nics);
  EXPECT_NE(error(cluster("rail_only", 4, 4, kUniform) + "routing: {algorithm: rail_clos}\n").find("routing.algorithm"),
            std::string::npos);
  // A hierarchical all-to-all has no chunks to schedule.
  const std::string a2a = cluster("rail_only", 4, 4, "") +
                          "collective: {operation: all_to_all, algorithm: hierarchical, message: 1 MiB, chunks: 4}\n";
  EXPECT_NE(error(a2a).find("collective.chunks: expected no collective.chunks for a hierarchical all_to_all"),
            std::string::npos)
      << error(a2a);
}

}  // namespace
}  // namespace hx
