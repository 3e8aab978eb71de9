// multidim_test.cpp: the multi-dimensional platforms of Rashidi et al. (topology/multidim.cpp):
// the netlist its builder makes (every NPU's links of a dimension lead where dim_layout.h says,
// at the dimension's rate), the config's errors, and, through the hxsim binary, traffic routed
// by dim_order without loss or deadlock and the analytical backend (`hxsim model`).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "cli_support.h"
#include "dim_layout.h"
#include "fabric_topology.h"
#include "nlohmann/json.hpp"
#include "sim_config.h"

namespace hx {
namespace {

namespace fs = std::filesystem;
using nlohmann::json;

const char* kPlatform = R"(topology:
  kind: multidim
  dims:
    - {size: 4, kind: ring, bandwidth: 256 Gb/s, links: 4, latency: 20 ns}
    - {size: 3, kind: fully_connected, bandwidth: 128 Gb/s, links: 4, latency: 30 ns}
    - {size: 4, kind: switch, bandwidth: 64 Gb/s, links: 2, latency: 200 ns}
router: {clock: 1 GHz}
)";

std::string with_traffic(const std::string& platform, double rate, const std::string& pattern = "uniform") {
  return platform + "traffic: {pattern: " + pattern + ", injection_rate: " + std::to_string(rate) +
         ", packet_length: 4}\nrun: {warmup: 500 cycles, measure: 3000 cycles}\n";
}

TEST(MultidimNetlist, EveryLinkJoinsNeighboursOfItsDimensionAtItsRate) {
  const SimConfig cfg = load_config_text(with_traffic(kPlatform, 0.1), "md.yaml");
  ASSERT_EQ(cfg.node_count(), 48u);
  const NetworkDescription net = fabric_topology(cfg.topology.kind).network(cfg);
  const DimLayout L(cfg.topology.dims);
  ASSERT_EQ(L.router_ports, 3u + 4 + 4 + 2);
  // Node index -> NPU for the routers, and switches by dimension.
  std::map<unsigned, unsigned> npu_of;
  unsigned switches = 0;
  for (unsigned i = 0; i < net.nodes.size(); ++i) {
    const NodeDescription& n = net.nodes[i];
    if (n.kind != NodeDescription::Kind::Switch) continue;
    if (n.own_endpoint_ports == 3) {
      npu_of[i] = n.place.index;
      EXPECT_EQ(n.ports, L.router_ports);
    } else {
      ++switches;
      EXPECT_EQ(n.place.dim_switch, 2);
      EXPECT_EQ(n.ports, 4u);
    }
  }
  EXPECT_EQ(npu_of.size(), 48u);
  EXPECT_EQ(switches, 2u * 48 / 4);  // two planes, one switch per group of 4
  std::map<std::string, unsigned> per_class;
  std::set<std::pair<unsigned, unsigned>> used;
  for (const LinkDescription& l : net.links) {
    ++per_class[l.link_class];
    EXPECT_TRUE(used.insert({l.b.node, l.b.port}).second);
    if (l.link_class == "local") {
      EXPECT_EQ(l.a.port, l.b.port);  // lane k is router port k
      EXPECT_LT(l.b.port, 3u);
      continue;
    }
    const unsigned k = static_cast<unsigned>(std::stoi(l.link_class.substr(3))) - 1;
    const double expected_rate = cfg.topology.dims[k].link_bps / cfg.local_link.bandwidth_bps;
    EXPECT_DOUBLE_EQ(l.rate.flits_per_cycle, expected_rate) << l.link_class;
    if (k == 2) {  // NPU -> switch: the switch's port q leads to the NPU of coordinate q
      const unsigned a = npu_of.at(l.a.node);
      EXPECT_EQ(L.coord(a, 2), l.b.port);
      EXPECT_EQ(L.dim_of_port(l.a.port), 2u);
      continue;
    }
    ASSERT_TRUE(npu_of.count(l.a.node) && npu_of.count(l.b.node));
    const unsigned a = npu_of.at(l.a.node), b = npu_of.at(l.b.node);
    EXPECT_TRUE(used.insert({l.a.node, l.a.port}).second);
    EXPECT_EQ(L.dim_of_port(l.a.port), k);
    EXPECT_EQ(L.dim_of_port(l.b.port), k);
    for (unsigned other = 0; other < 3; ++other) {
      if (other != k) {
        EXPECT_EQ(L.coord(a, other), L.coord(b, other)) << "a dim" << k + 1 << " link changes dim" << other + 1;
      }
    }
    const unsigned P = cfg.topology.dims[k].size, ca = L.coord(a, k), cb = L.coord(b, k);
    const unsigned pa = l.a.port - L.dims[k].first_port, pb = l.b.port - L.dims[k].first_port;
    if (k == 0) {  // ring: port 2r to the next NPU, whose port 2r + 1 it reaches
      EXPECT_EQ(pa % 2, 0u);
      EXPECT_EQ(pb, pa + 1);
      EXPECT_EQ(cb, (ca + 1) % P);
    } else {  // clique: the link q steps ahead is port j (P - 1) + q - 1
      const unsigned q = (cb + P - ca) % P;
      EXPECT_EQ(pa % (P - 1), q - 1);
      EXPECT_EQ(pb % (P - 1), P - q - 1);
      EXPECT_EQ(pa / (P - 1), pb / (P - 1));
    }
  }
  EXPECT_EQ(per_class["local"], 48u * 3);     // a lane per dimension
  EXPECT_EQ(per_class["dim1"], 48u * 4 / 2);  // each link has two ends
  EXPECT_EQ(per_class["dim2"], 48u * 4 / 2);
  EXPECT_EQ(per_class["dim3"], 48u * 2);  // an NPU's link to each switch plane
}

// The effective config (what results list and to_yaml writes) loads back to the same platform
// and schedule.
TEST(MultidimConfig, EffectiveValuesLoadBack) {
  const SimConfig a = load_config_text(std::string(kPlatform) +
                                           "collective: {operation: reduce_scatter, algorithm: hierarchical, message: "
                                           "3 MiB, scheduler: themis, intra: scf, chunks: 16, threshold: chunk}\n",
                                       "md.yaml");
  const SimConfig b = load_config_text(to_yaml(a), "md.yaml");
  EXPECT_EQ(effective_values(a), effective_values(b));
  ASSERT_EQ(b.topology.dims.size(), 3u);
  EXPECT_EQ(b.topology.dims[1].kind, DimKind::FullyConnected);
  EXPECT_DOUBLE_EQ(b.topology.dims[2].latency_s, 200e-9);
  EXPECT_EQ(b.collective.chunks, 16u);
  EXPECT_EQ(b.collective.threshold, ThemisThreshold::Chunk);
  EXPECT_EQ(b.collective.intra, IntraDimOrder::SmallestFirst);
}

void expect_config_error(const std::string& yaml, const std::string& key, const std::string& text) {
  try {
    load_config_text(yaml, "bad.yaml");
    ADD_FAILURE() << "accepted: " << yaml;
  } catch (const ConfigError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("bad.yaml:"), std::string::npos) << what;
    EXPECT_NE(what.find(key), std::string::npos) << what;
    EXPECT_NE(what.find(text), std::string::npos) << what;
  }
}

std::string platform_with(const std::string& dim) {
  return "topology:\n  kind: multidim\n  dims:\n    - " + dim +
         "\n    - {size: 4, kind: switch, bandwidth: 64 Gb/s, links: 1, latency: 100 ns}\n"
         "traffic: {injection_rate: 0.1}\n";
}

const char* kCollective =
    "collective:\n  operation: allreduce\n  algorithm: hierarchical\n  message: 1 MiB\n  scheduler: themis\n";

TEST(MultidimConfig, BadDimensionsAndSchedulesNameTheKey) {
  expect_config_error(platform_with("{size: 4, kind: torus, bandwidth: 64 Gb/s, links: 2, latency: 10 ns}"),
                      "topology.dims[0].kind", "one of ring, fully_connected, switch");
  expect_config_error(platform_with("{size: 1, kind: ring, bandwidth: 64 Gb/s, links: 2, latency: 10 ns}"),
                      "topology.dims[0].size", "2..1024");
  expect_config_error(platform_with("{size: 4, kind: ring, bandwidth: -64 Gb/s, links: 2, latency: 10 ns}"),
                      "topology.dims[0].bandwidth", "bandwidth");
  expect_config_error(platform_with("{size: 6, kind: switch, bandwidth: 64 Gb/s, links: 2, latency: 10 ns}"),
                      "topology.dims[0].size", "power of two");
  expect_config_error(platform_with("{size: 4, kind: fully_connected, bandwidth: 64 Gb/s, links: 2, latency: 10 ns}"),
                      "topology.dims[0].links", "multiple of size - 1");
  expect_config_error(platform_with("{size: 4, kind: ring, bandwidth: 64 Tb/s, links: 2, latency: 10 ns}"),
                      "topology.dims[0]", "raise router.clock");
  // A latency of more cycles than a link's delay line may have (make fuzz found 7e12 cycles
  // overflowing the cycle count: tests/fuzz/regressions/multidim_latency_overflow).
  expect_config_error(platform_with("{size: 4, kind: ring, bandwidth: 64 Gb/s, links: 2, latency: 3500 s}"),
                      "topology.dims[0]", "a latency of at most 1000000 cycles");
  const std::string ok_platform =
      "topology:\n  kind: multidim\n  dims:\n    - {size: 4, kind: ring, bandwidth: "
      "64 Gb/s, links: 2, latency: 10 ns}\n";
  expect_config_error(ok_platform +
                          "collective: {operation: allreduce, algorithm: hierarchical, message: 1 MiB, "
                          "scheduler: fastest}\n",
                      "collective.scheduler", "one of baseline, themis");
  expect_config_error(
      ok_platform + "collective: {operation: allreduce, algorithm: hierarchical, message: 1 MiB, chunks: 0}\n",
      "collective.chunks", "1..4096");
  expect_config_error(ok_platform + "collective: {operation: allreduce, algorithm: ring, message: 1 MiB, chunks: 4}\n",
                      "collective.chunks", "unless collective.algorithm is hierarchical");
  expect_config_error(ok_platform + "collective: {operation: broadcast, algorithm: hierarchical, message: 1 MiB}\n",
                      "collective.operation", "allreduce, reduce_scatter, all_gather or all_to_all");
  // A hierarchical all-to-all runs on two dimensions (ok_platform has one).
  expect_config_error(ok_platform + "collective: {operation: all_to_all, algorithm: hierarchical, message: 1 MiB}\n",
                      "topology.dims", "two dimensions for a hierarchical all_to_all");
  // Another kind has no dimensions: neither the key nor the algorithm.
  expect_config_error(
      "topology:\n  kind: torus\n  board: 2x2\n  global: 2x2\n  dims: [{size: 2, kind: ring, bandwidth: "
      "64 Gb/s, links: 2, latency: 10 ns}]\ntraffic: {injection_rate: 0.1}\n",
      "topology.dims", "no dims");
  expect_config_error(
      "topology: {kind: torus, board: 2x2, global: 2x2}\n"
      "collective: {operation: allreduce, algorithm: hierarchical, message: 1 MiB}\n",
      "collective.algorithm", "topology.dims");
}

// ---- through the binary ------------------------------------------------------------------

fs::path scratch() { return test::scratch_dir("multidim_test"); }

json read_json(const fs::path& p) {
  std::ifstream in(p);
  return json::parse(in);
}

fs::path write_file(const fs::path& p, const std::string& text) {
  std::ofstream(p) << text;
  return p;
}

// dim_order on every kind of dimension: uniform traffic and a random permutation arrive complete,
// without deadlock, on VCs 0 and 1 only (the rings' datelines), at the offered load.
TEST(MultidimRun, TrafficArrivesCompleteOnEveryKindOfDimension) {
  const fs::path d = scratch();
  for (const auto& [pattern, rate] : {std::pair<std::string, double>{"uniform", 0.3}, {"permutation", 0.2}}) {
    const fs::path cfg = write_file(d / (pattern + ".yaml"), with_traffic(kPlatform, rate, pattern));
    const test::CliResult r = test::hxsim("run " + cfg.string() + " --quiet --out " + (d / "r.json").string());
    ASSERT_EQ(r.exit_code, 0) << pattern << "\n" << r.output;
    const json j = read_json(d / "r.json");
    EXPECT_TRUE(j["checks"]["passed"].get<bool>()) << pattern;
    EXPECT_EQ(j["checks"]["lost"], 0);
    EXPECT_FALSE(j["checks"]["deadlock"].get<bool>());
    EXPECT_GT(j["checks"]["delivered"].get<uint64_t>(), 1000u);
    EXPECT_NEAR(j["traffic"]["accepted"].get<double>(), rate, 0.02) << pattern;
    EXPECT_EQ(j["config"]["network"]["switches"], 2 * 48 / 4);
    EXPECT_LE(j["check_details"]["max_vc"].get<unsigned>(), 1u);
  }
}

std::string themis_config(const std::string& name) { return std::string(HX_CONFIG_DIR) + "/themis/" + name + ".yaml"; }

TEST(MultidimModel, PaperPlatformsInTheAnalyticalBackend) {
  const fs::path d = scratch();
  for (const char* name : {"2d_sw_sw", "3d_sw_sw_sw_homo", "3d_sw_sw_sw_hetero", "3d_fc_ring_sw", "4d_ring_sw_sw_sw",
                           "4d_ring_fc_ring_sw"}) {
    double baseline = 0;
    for (const char* sched : {"baseline", "themis"}) {
      const test::CliResult r = test::hxsim("model " + themis_config(name) + " --set collective.scheduler=" + sched +
                                            " --set collective.message=1GiB --quiet --out " + (d / "m.json").string());
      ASSERT_EQ(r.exit_code, 0) << name << "\n" << r.output;
      const json j = read_json(d / "m.json");
      EXPECT_EQ(j["backend"], "analytic");
      EXPECT_EQ(j["config"]["endpoints"], 1024);
      const json& job = j["collective"]["jobs"][0];
      EXPECT_TRUE(job["complete"].get<bool>());
      const double t = job["time_us"].get<double>(), f = job["fraction_of_peak"].get<double>();
      EXPECT_GT(f, 0);
      EXPECT_LE(f, 1 + 1e-9);
      // algbw = S / t and busbw = 2 (N - 1) / N algbw, NCCL's definitions.
      EXPECT_NEAR(job["algbw_GBps"].get<double>(), 1073741824.0 / (t * 1e-6) / 1e9, 1e-6);
      EXPECT_NEAR(job["busbw_GBps"].get<double>() / job["algbw_GBps"].get<double>(), 2.0 * 1023 / 1024, 1e-12);
      if (std::string(sched) == "baseline") {
        baseline = t;
      } else {
        EXPECT_LT(t, baseline) << name << ": Themis balances the dimensions";
      }
    }
  }
}

TEST(MultidimModel, RefusesWhatItDoesNotModelAndWritesNothing) {
  const fs::path d = scratch();
  const fs::path out = d / "m.json";
  const test::CliResult torus =
      // Uniform traffic: an all-to-all config goes to the flow model (docs/table2.md).
      test::hxsim("model " + std::string(HX_CONFIG_DIR) +
                  "/torus_32x32_alltoall.yaml --set traffic.pattern=uniform --out " + out.string());
  EXPECT_EQ(torus.exit_code, 2) << torus.output;
  EXPECT_NE(torus.output.find("topology.dims"), std::string::npos) << torus.output;
  const fs::path bad = write_file(d / "bad.yaml",
                                  "topology:\n  kind: multidim\n  dims:\n    - {size: 4, kind: ring, "
                                  "bandwidth: 64 Gb/s, links: 2, latency: 10 ns}\n" +
                                      std::string(kCollective) + "  chunks: 0\n");
  const test::CliResult r = test::hxsim("model " + bad.string() + " --out " + out.string());
  EXPECT_EQ(r.exit_code, 2) << r.output;
  EXPECT_NE(r.output.find("bad.yaml:"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("collective.chunks"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(out));
}

// ---- cycle level: real data through the network, against the analytical backend ------------

struct Times {
  double run_us = 0, model_us = 0;
};

Times run_and_model(const std::string& config, const std::string& sets, const fs::path& d) {
  Times t;
  const test::CliResult r = test::hxsim("run " + config + sets + " --quiet --out " + (d / "r.json").string());
  EXPECT_EQ(r.exit_code, 0) << config << sets << "\n" << r.output;
  if (r.exit_code != 0) return t;
  const json j = read_json(d / "r.json");
  EXPECT_TRUE(j["checks"]["passed"].get<bool>()) << config << sets;
  EXPECT_EQ(j["checks"]["lost"], 0);
  const json& job = j["collective"]["jobs"][0];
  EXPECT_TRUE(job["complete"].get<bool>()) << config << sets;
  // Every dimension carried data, no more than its links could (busy fraction in (0, 1]).
  for (const json& dim : job["dims"]) {
    EXPECT_GT(dim["busy_fraction"].get<double>(), 0) << config << sets;
    EXPECT_LE(dim["busy_fraction"].get<double>(), 1 + 1e-9) << config << sets;
  }
  EXPECT_FALSE(job["dims"].empty());
  EXPECT_EQ(job["wrong_elements"], 0) << config << sets;
  EXPECT_GT(job["output_elements"].get<uint64_t>(), 0u);
  t.run_us = job["time_us"].get<double>();
  const test::CliResult m = test::hxsim("model " + config + sets + " --quiet --out " + (d / "m.json").string());
  EXPECT_EQ(m.exit_code, 0) << m.output;
  if (m.exit_code == 0) t.model_us = read_json(d / "m.json")["collective"]["jobs"][0]["time_us"].get<double>();
  return t;
}

// Every schedule and op on the small 2D and 3D platforms moves real data to the right result;
// with 1 MiB the cycle model's time is within 5% of the analytical backend's (the cycle model is
// the slower by its head flits, one per 32 payload flits of a 512-B segment: 3%), for 1, 4 and 16
// chunks. A reduce_scatter leaves, an all_gather starts from, a piece of every chunk on each rank.
// One test per platform and schedule (six of about 7 s each), so that ctest spreads them.
struct ScheduleCase {
  const char* name;      ///< the test's name
  const char* platform;  ///< configs/themis/<platform>.yaml
  const char* schedule;  ///< the --set arguments that pick the scheduler and intra-dimension policy
};

class EverySchedule : public ::testing::TestWithParam<ScheduleCase> {};

TEST_P(EverySchedule, EveryOpIsRightAndAgreesWithTheModel) {
  const fs::path d = scratch();
  const ScheduleCase& c = GetParam();
  for (const char* op : {"allreduce", "reduce_scatter", "all_gather"}) {
    for (unsigned chunks : {1u, 4u, 16u}) {
      const std::string sets = std::string(" --set collective.scheduler=") + c.schedule +
                               " --set collective.operation=" + op +
                               " --set collective.chunks=" + std::to_string(chunks);
      const Times t = run_and_model(themis_config(c.platform), sets, d);
      EXPECT_NEAR(t.run_us / t.model_us, 1.0, 0.05)
          << c.platform << sets << ": run " << t.run_us << " us, model " << t.model_us << " us";
    }
  }
}

INSTANTIATE_TEST_SUITE_P(
    MultidimCollective, EverySchedule,
    ::testing::Values(ScheduleCase{"Sw2dBaselineFifo", "small/2d_sw_sw", "baseline --set collective.intra=fifo"},
                      ScheduleCase{"Sw2dThemisFifo", "small/2d_sw_sw", "themis --set collective.intra=fifo"},
                      ScheduleCase{"Sw2dThemisScf", "small/2d_sw_sw", "themis --set collective.intra=scf"},
                      ScheduleCase{"Sw3dBaselineFifo", "small/3d_sw_sw_sw_homo",
                                   "baseline --set collective.intra=fifo"},
                      ScheduleCase{"Sw3dThemisFifo", "small/3d_sw_sw_sw_homo", "themis --set collective.intra=fifo"},
                      ScheduleCase{"Sw3dThemisScf", "small/3d_sw_sw_sw_homo", "themis --set collective.intra=scf"}),
    [](const ::testing::TestParamInfo<ScheduleCase>& p) { return std::string(p.param.name); });

// Ring dimensions (both directions of a ring of more than two carry half of each chunk), a fully
// connected one (the direct algorithm), four dimensions.
TEST(MultidimCollective, RingCliqueAndFourDimensionsAgreeWithTheModel) {
  const fs::path d = scratch();
  for (const char* platform : {"small/3d_fc_ring_sw", "small/4d_ring_sw_sw_sw", "small/4d_ring_fc_ring_sw"}) {
    for (const char* sched : {"baseline --set collective.intra=fifo", "themis --set collective.intra=scf"}) {
      const Times t = run_and_model(themis_config(platform), " --set collective.scheduler=" + std::string(sched), d);
      EXPECT_NEAR(t.run_us / t.model_us, 1.0, 0.05)
          << platform << " " << sched << ": run " << t.run_us << " us, model " << t.model_us << " us";
    }
  }
}

// A dimension faster than an NPU lane feeds is refused with the reason: the run would measure the
// lane.
TEST(MultidimCollective, RefusesWhatItCannotRunFaithfully) {
  const fs::path d = scratch();
  const test::CliResult fast = test::hxsim("run " + themis_config("small/2d_sw_sw") +
                                           " --set router.clock=500MHz --quiet --out " + (d / "r.json").string());
  EXPECT_EQ(fast.exit_code, 2) << fast.output;
  EXPECT_NE(fast.output.find("topology.dims[0]"), std::string::npos) << fast.output;
  EXPECT_FALSE(fs::exists(d / "r.json"));
}

}  // namespace
}  // namespace hx
