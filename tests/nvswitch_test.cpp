// nvswitch_test: allreduce on the NVSwitch-like fabrics end to end (hxsim run), each run
// its own process. Every run checks every final line of every GPU bit for bit inside the
// simulator; these tests check that the checks pass, that they fail when data is damaged, that
// the table mechanisms the paper describes (first-hop stalls, bypasses, evictions to the home GPU)
// actually happen, and that bad configs are refused with a clear error.
#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "cli_support.h"

namespace hx::test {
namespace {

const std::string kConfigs = HX_CONFIG_DIR;

struct NvRun {
  CliResult cli;
  nlohmann::json json;
};

NvRun nvswitch(const std::string& config, const std::string& sets) {
  const auto dir = scratch_dir("nvswitch_test");
  const std::string out = (dir / "r.json").string();
  NvRun r;
  r.cli = hxsim("run " + kConfigs + "/" + config + " --quiet --out " + out + " " + sets);
  std::ifstream in(out);
  if (in) r.json = nlohmann::json::parse(in);
  return r;
}

void expect_verified(const NvRun& r, unsigned gpus, uint64_t message) {
  ASSERT_EQ(r.cli.exit_code, 0) << r.cli.output;
  const auto& c = r.json["checks"];
  EXPECT_TRUE(c["passed"].get<bool>()) << r.json["check_details"]["report"];
  // The checks count packets (the scoreboard's); every GPU must also hold every result line.
  EXPECT_GT(c["injected"].get<uint64_t>(), gpus * (message / 128));
  EXPECT_EQ(c["delivered"].get<uint64_t>(), c["injected"].get<uint64_t>());
  EXPECT_EQ(r.json["check_details"]["lines_final"].get<uint64_t>(), gpus * (message / 128));
  EXPECT_EQ(r.json["check_details"]["lines_expected"].get<uint64_t>(), gpus * (message / 128));
  EXPECT_EQ(c["lost"].get<uint64_t>(), 0u);
  EXPECT_EQ(c["duplicated"].get<uint64_t>(), 0u);
  EXPECT_EQ(c["corrupted"].get<uint64_t>(), 0u);
  EXPECT_EQ(c["misdelivered"].get<uint64_t>(), 0u);
  EXPECT_FALSE(c["deadlock"].get<bool>());
  EXPECT_EQ(c.size(), 8u) << "the checks every model reports, and no others";
  EXPECT_GT(r.json["sim"]["cycles"].get<uint64_t>(), 0u);
}

TEST(NvSwitchDgx2, PushVerifies) {
  const NvRun r = nvswitch("dgx2_push.yaml", "--set 'collective.message=16 KiB'");
  expect_verified(r, 16, 16384);
  EXPECT_EQ(r.json["in_network"]["table_results"].get<uint64_t>(), 128u) << "one result per line";
  EXPECT_EQ(r.json["in_network"]["table_evictions"].get<uint64_t>(), 0u);
  // Every packet, counted: 16 GPUs x 128 push writes, 128 results (one multicast each), and
  // 16 x 128 acks of the results' copies.
  EXPECT_EQ(r.json["checks"]["injected"].get<uint64_t>(), 16u * 128 + 128 + 16u * 128);
}

TEST(NvSwitchDgx2, PullVerifies) {
  const NvRun r = nvswitch("dgx2_pull.yaml", "--set 'collective.message=16 KiB' --set switch.table=1KiB");
  expect_verified(r, 16, 16384);
  // Each of the 128 lines completes at its first-hop table, most also at the peer switch.
  EXPECT_GE(r.json["in_network"]["table_results"].get<uint64_t>(), 128u);
}

TEST(NvSwitchDgx2, PullWithBarrierIsSlowerButVerifies) {
  const NvRun plain = nvswitch("dgx2_pull.yaml", "--set 'collective.message=4 KiB' --set switch.table=1KiB");
  const NvRun sync = nvswitch("dgx2_pull.yaml",
                              "--set 'collective.message=4 KiB' --set switch.table=1KiB --set collective.barrier=true");
  expect_verified(sync, 16, 4096);
  EXPECT_GT(sync.json["sim"]["cycles"].get<uint64_t>(), plain.json["sim"]["cycles"].get<uint64_t>());
}

TEST(NvSwitchDgx2, RingVerifiesWithUnevenChunks) {
  // 9 KiB = 72 lines over 16 GPUs: chunks of 4 and 5 lines, slices of 2 lines.
  const NvRun r = nvswitch("dgx2_ring.yaml", "--set 'collective.message=9 KiB' --set 'collective.ring_slice=256 B'");
  expect_verified(r, 16, 9216);
}

TEST(NvSwitchDgx2, Int32PushVerifies) {
  const NvRun r = nvswitch("dgx2_push.yaml", "--set 'collective.message=8 KiB' --set collective.datatype=int32");
  expect_verified(r, 16, 8192);
}

TEST(NvSwitchDgx2, PushWithoutWavesEvictsToTheHomeGpuAndStillVerifies) {
  // 256 B per port and no injection limit: tables overflow, partials go to their home GPUs.
  const NvRun r = nvswitch("dgx2_push.yaml",
                           "--set 'collective.message=128 KiB' --set collective.wave=0B --set collective.waves=1");
  expect_verified(r, 16, 131072);
  EXPECT_GT(r.json["in_network"]["table_evictions"].get<uint64_t>(), 0u);
  EXPECT_GT(r.json["in_network"]["home_gpu_partials"].get<uint64_t>(), 0u);
}

TEST(NvSwitchDgx2, RandomIssueOrderVerifiesAndChangesTheTiming) {
  // A DMA engine that shuffles each wave spreads a line's contributions further apart in time.
  const NvRun a = nvswitch("dgx2_push.yaml", "--set 'collective.message=64 KiB' --set gpu.issue_order=address");
  const NvRun r = nvswitch("dgx2_push.yaml", "--set 'collective.message=64 KiB' --set gpu.issue_order=random");
  expect_verified(a, 16, 65536);
  expect_verified(r, 16, 65536);
  EXPECT_EQ(r.json["config"]["issue_order"], "random");
  EXPECT_NE(a.json["sim"]["cycles"], r.json["sim"]["cycles"]);
}

TEST(NvSwitchDgx2, PullWithSmallTablesStallsAtTheFirstHop) {
  const NvRun r = nvswitch(
      "dgx2_pull.yaml",
      "--set 'collective.message=64 KiB' --set switch.table=256B --set collective.wave=0B --set collective.waves=1");
  expect_verified(r, 16, 65536);
  EXPECT_GT(r.json["in_network"]["pull_first_hop_stall_cycles"].get<uint64_t>(), 0u);
}

TEST(NvSwitchDgx2, SwitchBufferSetsTheCreditsOfEveryHop) {
  // 288 B per VC is two packets: far less than the 236-cycle round trip of a hop, so every link
  // waits for credits and the same allreduce takes longer; it must still verify.
  const NvRun def = nvswitch("dgx2_pull.yaml", "--set 'collective.message=16 KiB'");
  const NvRun small = nvswitch("dgx2_pull.yaml", "--set 'collective.message=16 KiB' --set 'switch.buffer=288 B'");
  expect_verified(def, 16, 16384);
  expect_verified(small, 16, 16384);
  EXPECT_EQ(def.json["config"]["input_buffer_bytes_per_vc"].get<unsigned>(), 32768u);
  // A switch latency whose round trip exceeds 32 KiB raises the default to the round trip.
  const NvRun slow = nvswitch("dgx2_pull.yaml", "--set 'collective.message=1 KiB' --set 'switch.latency=2 us'");
  expect_verified(slow, 16, 1024);
  EXPECT_EQ(slow.json["config"]["input_buffer_flits_per_vc"].get<unsigned>(), 3125u + 2 + 18)
      << "round trip + 2 packets";
  EXPECT_EQ(small.json["config"]["input_buffer_flits_per_vc"].get<unsigned>(), 18u);
  EXPECT_EQ(small.json["config"]["input_buffer_bytes_per_vc"].get<unsigned>(), 288u);
  EXPECT_GT(small.json["sim"]["cycles"].get<uint64_t>(), def.json["sim"]["cycles"].get<uint64_t>());
}

TEST(NvSwitchDgx2, UniformWritesArriveOnceIntactAndAcknowledged) {
  const NvRun r = nvswitch("dgx2_uniform.yaml", "--set 'traffic.message=64 KiB'");
  expect_verified(r, 16, 65536);  // every write acknowledged, and received exactly once (checked)
  EXPECT_EQ(r.json["checks"]["injected"].get<uint64_t>(), 2u * 16 * 512) << "a write and its ack per line";
  EXPECT_EQ(r.json["traffic"]["pattern"], "uniform");
  EXPECT_FALSE(r.json.contains("in_network")) << "plain writes bypass the tables";
  EXPECT_GT(r.json["traffic"]["link_utilisation"]["fabric"]["mean"].get<double>(), 0.0)
      << "half the writes cross the trunks";
  const NvRun bad = nvswitch("dgx2_uniform.yaml", "--set 'traffic.message=64 KiB' --inject-fault corrupt:5:7");
  EXPECT_EQ(bad.cli.exit_code, 3) << bad.cli.output;
  EXPECT_FALSE(bad.json["checks"]["passed"].get<bool>());
  const NvRun waves = nvswitch("dgx2_uniform.yaml", "--set traffic.wave=8KiB");
  EXPECT_EQ(waves.cli.exit_code, 2) << waves.cli.output;
  EXPECT_NE(waves.cli.output.find("traffic.wave"), std::string::npos) << waves.cli.output;
}

TEST(NvSwitchDgx2, PullReportsWhenEachOwnerFinished) {
  const NvRun pull = nvswitch("dgx2_pull.yaml", "--set 'collective.message=16 KiB'");
  expect_verified(pull, 16, 16384);
  const auto& f = pull.json["in_network"]["pull_owner_finish_cycles"];
  const uint64_t first = f["first"].get<uint64_t>(), last = f["last"].get<uint64_t>();
  EXPECT_GT(first, 0u);
  EXPECT_LE(first, last);
  // The owners' last reduced lines still have to be multicast to everyone after `last`.
  EXPECT_LT(last, pull.json["sim"]["cycles"].get<uint64_t>());
  const NvRun push = nvswitch("dgx2_push.yaml", "--set 'collective.message=8 KiB'");
  EXPECT_TRUE(push.json["in_network"]["pull_owner_finish_cycles"].is_null());
}

TEST(NvSwitchDgx2, SameSeedSameResult) {
  const NvRun a = nvswitch("dgx2_push.yaml", "--set 'collective.message=8 KiB' --set run.seed=7");
  const NvRun b = nvswitch("dgx2_push.yaml", "--set 'collective.message=8 KiB' --set run.seed=7");
  const NvRun c = nvswitch("dgx2_push.yaml", "--set 'collective.message=8 KiB' --set run.seed=8");
  EXPECT_EQ(a.json["sim"]["cycles"], b.json["sim"]["cycles"]);
  EXPECT_NE(a.json["sim"]["cycles"], c.json["sim"]["cycles"]) << "the memory jitter follows the seed";
}

TEST(NvSwitchFatTree, EveryMethodVerifiesOn32Gpus) {
  for (const char* cfg : {"fat_tree128_push.yaml", "fat_tree128_pull.yaml", "fat_tree128_ring.yaml"}) {
    const NvRun r = nvswitch(cfg, "--set topology.groups=4 --set 'collective.message=4 KiB'");
    expect_verified(r, 32, 4096);
  }
}

TEST(NvSwitchChecks, CorruptedPacketFailsTheRun) {
  const NvRun r = nvswitch("dgx2_push.yaml", "--set 'collective.message=8 KiB' --inject-fault corrupt:3:5");
  EXPECT_EQ(r.cli.exit_code, 3) << r.cli.output;
  EXPECT_FALSE(r.json["checks"]["passed"].get<bool>());
  // The scoreboard compares the delivered payload with what its sender sent.
  EXPECT_EQ(r.json["checks"]["corrupted"].get<uint64_t>(), 1u);
  const std::string first = r.json["check_details"]["messages"][0].get<std::string>();
  EXPECT_NE(first.find("GPU 3: packet"), std::string::npos) << first;
  EXPECT_NE(first.find("payload differs from what was sent"), std::string::npos) << first;
}

TEST(NvSwitchChecks, DroppedPacketIsReportedNotHung) {
  const NvRun r = nvswitch("dgx2_ring.yaml",
                           "--set 'collective.message=8 KiB' --set run.watchdog=2000cycles --inject-fault drop:2:3");
  EXPECT_EQ(r.cli.exit_code, 3) << r.cli.output;
  EXPECT_NE(r.json["check_details"]["report"].get<std::string>().find("deadlock"), std::string::npos)
      << r.json["check_details"]["report"];
  EXPECT_TRUE(r.json["checks"]["deadlock"].get<bool>());
  EXPECT_GT(r.json["checks"]["lost"].get<uint64_t>(), 0u);
  EXPECT_EQ(r.json["checks"]["lost"].get<uint64_t>(),
            r.json["checks"]["injected"].get<uint64_t>() - r.json["checks"]["delivered"].get<uint64_t>());
  EXPECT_LT(r.json["check_details"]["lines_final"].get<uint64_t>(), 16u * 64);
}

TEST(NvSwitchConfig, BadInputIsRefusedWithFileLineAndKey) {
  struct Case {
    const char* sets;
    const char* key;
  };
  for (const Case& c :
       {Case{"--set collective.algorithm=tree", "collective.algorithm"},
        Case{"--set switch.table=200B", "switch.table"}, Case{"--set switch.table=8KiB", "switch.table"},
        Case{"--set 'switch.buffer=128 B'", "switch.buffer"}, Case{"--set 'switch.buffer=1000 B'", "switch.buffer"},
        Case{"--set 'collective.message=100 B'", "collective.message"},
        Case{"--set collective.barrier=true", "collective.barrier"}, Case{"--set topology.groups=4", "topology.groups"},
        Case{"--set routing.algorithm=ugal_l", "routing.algorithm"}}) {
    const NvRun r = nvswitch("dgx2_push.yaml", c.sets);
    EXPECT_EQ(r.cli.exit_code, 2) << c.sets << "\n" << r.cli.output;
    EXPECT_NE(r.cli.output.find(c.key), std::string::npos) << r.cli.output;
    EXPECT_TRUE(r.json.is_null()) << "no results file on bad input";
  }
  const auto dir = scratch_dir("nvswitch_test");
  {
    std::ofstream f(dir / "bad.yaml");
    f << "topology:\n  kind: dgx2\ncollective:\n  algorithm: push\n  message: 3 parsecs\n";
  }
  const CliResult r = hxsim("run " + (dir / "bad.yaml").string());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("bad.yaml:5:"), std::string::npos) << r.output;
}

TEST(NvSwitchConfig, OldKeysNameTheirNewNames) {
  const auto dir = scratch_dir("nvswitch_test");
  {
    std::ofstream f(dir / "old.yaml");
    f << "system:\n  kind: dgx2\nallreduce:\n  method: push\n  message: 8 KiB\n";
  }
  // `hxsim nvswitch` is an alias of `hxsim run`.
  const CliResult r = hxsim("nvswitch " + (dir / "old.yaml").string());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.output.find("system: renamed key, expected 'topology'"), std::string::npos) << r.output;
  std::ofstream(dir / "old2.yaml") << "topology:\n  kind: dgx2\nallreduce:\n  method: push\n  message: 8 KiB\n";
  const CliResult r2 = hxsim("run " + (dir / "old2.yaml").string());
  EXPECT_EQ(r2.exit_code, 2);
  EXPECT_NE(r2.output.find("allreduce: renamed key, expected 'collective'"), std::string::npos) << r2.output;
  std::ofstream(dir / "old3.yaml") << "topology:\n  kind: fat_treee\n";
  const CliResult r3 = hxsim("run " + (dir / "old3.yaml").string());
  EXPECT_EQ(r3.exit_code, 2);
  EXPECT_NE(r3.output.find("old3.yaml:2:9: topology.kind: expected one of board, hammingmesh, fat_tree, torus, "
                           "dragonfly, multidim, clex, torus3d, rail_only, rail_optimized, dgx2, nvswitch_tree, found "
                           "'fat_treee'"),
            std::string::npos)
      << r3.output;
}

// Links of two rates in one system: the DGX-2's trunks (switch to switch) at a quarter and at twice
// the GPU links' 25 GB/s. No link carries more than its own bandwidth; quarter-rate trunks are the
// bottleneck (busy, and the run slower); double-rate trunks carry the same flits in half the time.
TEST(NvSwitchLinks, TwoRatesInOneSystem) {
  const std::string sets = "--set 'traffic.message=256 KiB' --set 'topology.trunk_bandwidth=";
  const NvRun same = nvswitch("dgx2_uniform.yaml", sets + "25 GB/s'");
  const NvRun slow = nvswitch("dgx2_uniform.yaml", sets + "6.25 GB/s'");
  const NvRun fast = nvswitch("dgx2_uniform.yaml", sets + "50 GB/s'");
  for (const NvRun* r : {&same, &slow, &fast}) {
    ASSERT_EQ(r->cli.exit_code, 0) << r->cli.output;
    for (const char* cls : {"injection", "ejection", "fabric"}) {
      const auto& l = r->json["traffic"]["link_utilisation"][cls];
      EXPECT_LE(l["max"].get<double>(), 1.0 + 1e-9) << cls;
      EXPECT_LE(l["GBps_per_link"].get<double>(), l["link_GBps"].get<double>() * (1 + 1e-9)) << cls;
    }
  }
  EXPECT_EQ(slow.json["config"]["trunk_flits_per_cycle"].get<double>(), 0.25);
  EXPECT_EQ(fast.json["config"]["trunk_flits_per_cycle"].get<double>(), 2.0);
  // The netlist's trunks carry that rate: what the links were built with.
  EXPECT_EQ(fast.json["config"]["network"]["links"][1]["flits_per_cycle"].get<double>(), 2.0);
  const auto fabric = [](const NvRun& r) { return r.json["traffic"]["link_utilisation"]["fabric"]; };
  const auto cycles = [](const NvRun& r) { return r.json["sim"]["cycles"].get<double>(); };
  // Quarter-rate trunks: busy most of the run, carrying most of their 6.25 GB/s, and the run slower.
  EXPECT_GT(fabric(slow)["mean"].get<double>(), 0.7);
  EXPECT_GT(fabric(slow)["GBps_per_link"].get<double>(), 0.7 * 6.25);
  EXPECT_GT(cycles(slow), 1.5 * cycles(same));
  // The same writes cross the trunks whatever their rate: flits = busy x cycles x rate.
  const auto flits = [&](const NvRun& r, double rate) { return fabric(r)["mean"].get<double>() * cycles(r) * rate; };
  EXPECT_NEAR(flits(fast, 2.0), flits(same, 1.0), 1e-6 * flits(same, 1.0));
  EXPECT_NEAR(flits(slow, 0.25), flits(same, 1.0), 1e-6 * flits(same, 1.0));
}

// Bit errors on every NVLink at 1e-4 (a 9-flit packet is hit 11% of the time): the links' CRC
// catches each, go-back-N replay resends, and the allreduce still verifies line by line, later.
TEST(NvSwitchLinks, BitErrorsAreRecoveredByLinkLevelReplay) {
  const NvRun clean = nvswitch("dgx2_push.yaml", "--set 'collective.message=64 KiB'");
  const NvRun noisy =
      nvswitch("dgx2_push.yaml", "--set 'collective.message=64 KiB' --set topology.link_bit_error_rate=1e-4");
  expect_verified(noisy, 16, 65536);
  const auto& e = noisy.json["link_errors"];
  EXPECT_EQ(e["bit_error_rate"].get<double>(), 1e-4);
  EXPECT_GT(e["corrupted"].get<uint64_t>(), 100u);
  EXPECT_EQ(e["detected"], e["corrupted"]) << "the CRC catches every error";
  EXPECT_GT(e["naks"].get<uint64_t>(), 0u);
  EXPECT_GE(e["replayed"].get<uint64_t>(), e["naks"].get<uint64_t>());
  EXPECT_GT(e["replay_share"].get<double>(), 0.0);
  EXPECT_LT(e["replay_share"].get<double>(), 0.5);
  EXPECT_GT(noisy.json["sim"]["cycles"].get<uint64_t>(), clean.json["sim"]["cycles"].get<uint64_t>())
      << "replays cost time";
  EXPECT_FALSE(clean.json.contains("link_errors"));
}

TEST(NvSwitchCli, RunWritesTheCommonResultsSchema) {
  const NvRun r = nvswitch("dgx2_push.yaml", "--set 'collective.message=8 KiB'");
  ASSERT_EQ(r.cli.exit_code, 0) << r.cli.output;
  for (const char* key : {"hxsim", "config", "checks", "check_details", "collective", "sim"})
    EXPECT_TRUE(r.json.contains(key)) << key;
  const auto& job = r.json["collective"]["jobs"][0];
  for (const char* key : {"time_us", "algbw_GBps", "busbw_GBps", "fraction_of_peak", "complete", "wrong_elements"})
    EXPECT_TRUE(job.contains(key)) << key;
  EXPECT_EQ(job["algorithm"], "push");
  EXPECT_TRUE(job["complete"].get<bool>());
  EXPECT_EQ(job["wrong_elements"].get<uint64_t>(), 0u);
  EXPECT_DOUBLE_EQ(job["busbw_GBps"].get<double>(), job["algbw_GBps"].get<double>() * 2 * 15 / 16);
  EXPECT_EQ(r.json["config"]["kind"], "dgx2");
  // config.network: the netlist the run was built from, as a fabric run lists its own.
  const auto& net = r.json["config"]["network"];
  EXPECT_EQ(net["switches"], 12);
  EXPECT_EQ(net["pcb_links"], 16 * 6 + 6 * 8);
  ASSERT_EQ(net["links"].size(), 2u) << net;
  EXPECT_EQ(net["links"][0]["class"], "local");
  EXPECT_EQ(net["links"][0]["count"], 16 * 6);
  EXPECT_EQ(net["links"][1]["class"], "global");
  EXPECT_EQ(net["links"][1]["count"], 6 * 8);
  EXPECT_EQ(net["links"][1]["latency_cycles"], r.json["config"]["link_latency_cycles"]);
}

}  // namespace
}  // namespace hx::test
