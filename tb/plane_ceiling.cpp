// plane_ceiling: how fast the Verilated 8x8 board plane runs with no simulator around it, the
// speed ceiling hxsim's own 8x8 mesh can approach (issue 26, docs/performance.md).
//
// A plain C++ loop (LinkBench, no SystemC) drives Vhx_board_plane_8x8v4 with the traffic of
// configs/mesh8x8_uniform.yaml: XY routing, any free VC, single-flit packets to uniformly random
// other nodes at `--load` flits per node per cycle. Every ejected flit is checked by the bench's
// scoreboard and its credit returned by a sink that always drains, as hxsim's accelerators do.
// It runs --warmup + --measure cycles, then drains, and times the whole run (the warm-up is short:
// it only makes the first-cycle work a small share of the run, as in hxsim's run). With
// --skip-idle 1 (the default) it skips the clock edges the plane's idle_o says change nothing,
// as hxsim does (systemc/board/verilated_plane.h); --skip-idle 0 evaluates every edge.
//
//   plane_ceiling [--load 0.1] [--warmup 1000] [--measure 10000] [--seed 1] [--skip-idle 1]
//
// It prints one JSON object: cycles, wall seconds, cycles/s, router-cycles/s, the packets and
// flits delivered, and whether the scoreboard is clean. Exit 0 if clean, 3 if not, 2 on bad
// arguments. scripts/bench_ceiling.py runs it next to hxsim on the same config.
//
// The plane is the test build's model (rtl/CMakeLists.txt, HX_BOARD_SIZES 8x8v4): the same RTL,
// Verilator flags and compiler flags as the one hxsim builds into its model cache, and like it
// without waveform code (HX_MODEL_WAVEFORMS, rtl/CMakeLists.txt).
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

#include "Vhx_board_plane_8x8v4.h"
#include "Vhx_board_plane_8x8v4__Syms.h"  // the root class, for lower_clock's fast path as hxsim has it
#include "link_bench.h"
#include "traffic.h"

namespace {

struct Args {
  double load = 0.1;
  uint64_t warmup = 1000;
  uint64_t measure = 10000;
  uint64_t seed = 1;
  bool skip_idle = true;
};

[[noreturn]] void usage(const char* why) {
  std::fprintf(stderr,
               "plane_ceiling: %s\nusage: plane_ceiling [--load FLITS_PER_NODE_CYCLE] [--warmup CYCLES] "
               "[--measure CYCLES] [--seed N] [--skip-idle 0|1]\n",
               why);
  std::exit(2);
}

Args parse(int argc, char** argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    const std::string k = argv[i];
    if (i + 1 >= argc) usage(("missing the value of " + k).c_str());
    const char* v = argv[++i];
    char* end = nullptr;
    if (k == "--load") {
      a.load = std::strtod(v, &end);
      if (*end != '\0' || !(a.load >= 0.0 && a.load <= 1.0)) usage("--load: expected 0..1 flits per node per cycle");
    } else if (k == "--skip-idle") {
      if (std::strcmp(v, "0") != 0 && std::strcmp(v, "1") != 0) usage("--skip-idle: expected 0 or 1");
      a.skip_idle = v[0] == '1';
    } else if (k == "--warmup" || k == "--measure" || k == "--seed") {
      const unsigned long long n = std::strtoull(v, &end, 10);
      if (*end != '\0' || v[0] == '-') usage((k + ": expected a non-negative integer").c_str());
      (k == "--warmup" ? a.warmup : k == "--measure" ? a.measure : a.seed) = n;
    } else {
      usage(("unknown argument " + k).c_str());
    }
  }
  return a;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace hx;
  const Args a = parse(argc, argv);
  constexpr unsigned kSize = 8, kVcs = 4;

  BenchConfig cfg;
  cfg.board = BoardGeometry{kSize, kSize, 1};
  cfg.straps.route_mode = RouteMode::Xy;
  cfg.straps.vc_policy = VcPolicy::Any;
  cfg.num_vcs = kVcs;
  cfg.seed = a.seed;
  cfg.watchdog_cycles = 2000;
  cfg.skip_idle_edges = a.skip_idle;
  const double expected = a.load * kSize * kSize * static_cast<double>(a.warmup + a.measure);
  cfg.expected_packets = static_cast<std::size_t>(expected * 1.2) + 1024;
  LinkBench<Vhx_board_plane_8x8v4> bench(cfg);

  UniformTrafficConfig tc;
  tc.offered_load = a.load;
  tc.min_length = tc.max_length = 1;
  tc.random_vc = true;
  tc.num_vcs = kVcs;
  tc.seed = a.seed;
  UniformTraffic traffic(tc, cfg.board, 0, 0);

  const auto t0 = std::chrono::steady_clock::now();
  const bool ran = bench.run(a.warmup + a.measure, [&](auto& b) { traffic.tick(b); });
  const bool drained = ran && bench.drain(50000);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  const ScoreboardSummary s = bench.scoreboard().summary();
  const bool clean = drained && bench.ok();
  const double cps = static_cast<double>(bench.cycle()) / wall;
  std::printf(
      "{\"model\": \"Vhx_board_plane_8x8v4\", \"load\": %g, \"seed\": %llu, \"cycles\": %llu, "
      "\"wall_seconds\": %.6f, \"cycles_per_s\": %.1f, \"router_cycles_per_s\": %.1f, "
      "\"skip_idle\": %s, \"skipped_edges\": %llu, \"packets_delivered\": %llu, \"flits_delivered\": %llu, "
      "\"clean\": %s}\n",
      a.load, static_cast<unsigned long long>(a.seed), static_cast<unsigned long long>(bench.cycle()), wall, cps,
      cps * kSize * kSize, a.skip_idle ? "true" : "false", static_cast<unsigned long long>(bench.skipped_edges()),
      static_cast<unsigned long long>(s.delivered), static_cast<unsigned long long>(s.flits_delivered),
      clean ? "true" : "false");
  if (!clean) {
    std::fprintf(stderr, "plane_ceiling: the run is not clean\n%s", bench.report().c_str());
    return 3;
  }
  return 0;
}
