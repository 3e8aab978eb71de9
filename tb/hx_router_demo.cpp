// hx_router_demo: one 4x4 HammingMesh board plane (16 RTL routers, Verilated as one model)
// under uniform random traffic, with every packet checked end to end.
//
// Each accelerator injects packets of --length flits for uniformly random other accelerators of
// the board at --load flits per node per cycle (Bernoulli arrivals), for --cycles cycles; then
// injection stops and the network drains. Routing is north-last minimal adaptive with VcKeep,
// the sinks always accept. The run prints a short summary and writes JSON (atomically) to --out:
//   sim      cycles simulated, wall time, cycles/s, router-cycles/s
//   traffic  offered and accepted load (flits/node/cycle over the injection window), packet
//            latency from creation to tail delivery (mean and p99, packets created after the
//            warm-up), packets delivered
//   checks   injected, delivered, lost, duplicated, corrupted, misrouted, bad_vc, deadlock
// The exit status is 0 only if every check passes. Same seed and options, same JSON apart from
// the wall-clock fields.
#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <unistd.h>
#include <vector>

#include "Vhx_board_plane_4x4.h"
#include "link_bench.h"
#include "traffic.h"

namespace {

struct Options {
  uint64_t seed = 1;
  double load = 0.2;
  uint64_t cycles = 20000;
  unsigned length = 4;
  uint64_t warmup = 1000;
  uint64_t drain_cycles = 100000;
  std::string trace;
  std::string out = "build/run/router_demo.json";
};

bool write_json_atomically(const std::string& path, const nlohmann::json& j, std::string& err) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::path p(path);
  if (p.has_parent_path()) {
    fs::create_directories(p.parent_path(), ec);
    if (ec) {
      err = "cannot create directory " + p.parent_path().string() + ": " + ec.message();
      return false;
    }
  }
  const std::string tmp = path + ".tmp." + std::to_string(::getpid());
  {
    std::ofstream f(tmp, std::ios::trunc);
    if (!f) {
      err = "cannot open " + tmp + " for writing";
      return false;
    }
    f << j.dump(2) << "\n";
    f.close();
    if (!f) {
      err = "cannot write " + tmp;
      fs::remove(tmp, ec);
      return false;
    }
  }
  fs::rename(tmp, path, ec);
  if (ec) {
    err = "cannot rename " + tmp + " to " + path + ": " + ec.message();
    fs::remove(tmp, ec);
    return false;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  Options opt;
  CLI::App app{"hx_router_demo: a 4x4 HammingMesh board plane (RTL) under uniform random traffic"};
  app.add_option("--seed", opt.seed, "random seed")->capture_default_str();
  app.add_option("--load", opt.load, "offered load, flits per node per cycle")
      ->check(CLI::Range(0.0, 1.0))
      ->capture_default_str();
  app.add_option("--cycles", opt.cycles, "cycles of injection (then the network drains)")
      ->check(CLI::Range(uint64_t{1}, uint64_t{1000000000}))
      ->capture_default_str();
  app.add_option("--length", opt.length, "packet length in flits")
      ->check(CLI::Range(1u, 255u))
      ->capture_default_str();
  app.add_option("--warmup", opt.warmup, "cycles excluded from latency and throughput")
      ->capture_default_str();
  app.add_option("--trace", opt.trace, "write an FST waveform of the RTL to this file");
  app.add_option("--out", opt.out, "results JSON (written atomically)")->capture_default_str();
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  if (opt.warmup >= opt.cycles) opt.warmup = 0;

  using Model = Vhx_board_plane_4x4;
  hx::BenchConfig cfg;
  cfg.board = hx::BoardGeometry{4, 4};
  cfg.straps.route_mode = hx::RouteMode::NorthLast;
  cfg.straps.vc_policy = hx::VcPolicy::Keep;
  cfg.seed = opt.seed;
  cfg.watchdog_cycles = 5000;
  cfg.trace_file = opt.trace;
  cfg.source_queue_capacity = 1u << 16;
  cfg.expected_packets =
      static_cast<std::size_t>(opt.load * opt.cycles * cfg.board.num_nodes() / opt.length * 1.2) + 1024;

  std::unique_ptr<hx::LinkBench<Model>> bench;
  try {
    bench = std::make_unique<hx::LinkBench<Model>>(cfg);
  } catch (const std::exception& e) {
    std::cerr << "hx_router_demo: " << e.what() << "\n";
    return 2;
  }
  hx::LinkBench<Model>& b = *bench;

  hx::UniformTrafficConfig tc;
  tc.offered_load = opt.load;
  tc.min_length = opt.length;
  tc.max_length = opt.length;
  tc.seed = opt.seed;
  hx::UniformTraffic traffic(tc, cfg.board, 0, 0);

  const unsigned nodes = cfg.board.num_nodes();
  const auto t0 = std::chrono::steady_clock::now();
  uint64_t flits_at_warmup = 0, flits_generated_at_warmup = 0;
  bool ran = b.run(opt.cycles, [&](auto& bench_ref) {
    if (bench_ref.cycle() == opt.warmup) {
      flits_at_warmup = bench_ref.scoreboard().flits_delivered();
      flits_generated_at_warmup = traffic.generated_flits();
    }
    traffic.tick(bench_ref);
  });
  const uint64_t flits_at_end = b.scoreboard().flits_delivered();
  const uint64_t measured_cycles = opt.cycles - opt.warmup;
  const bool drained = ran && b.drain(opt.drain_cycles);
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  // Latency of the packets created after the warm-up.
  std::vector<uint64_t> lat;
  lat.reserve(b.scoreboard().num_packets());
  for (const hx::PacketRecord& r : b.scoreboard().packets()) {
    if (r.state == hx::PacketState::Delivered && r.created_cycle >= opt.warmup) {
      lat.push_back(r.tail_delivered_cycle - r.created_cycle);
    }
  }
  std::sort(lat.begin(), lat.end());
  double avg = 0;
  for (uint64_t l : lat) avg += static_cast<double>(l);
  avg = lat.empty() ? 0.0 : avg / lat.size();
  const uint64_t p99 = lat.empty() ? 0 : lat[std::min(lat.size() - 1, (lat.size() * 99) / 100)];
  const double offered = static_cast<double>(traffic.generated_flits() - flits_generated_at_warmup) /
                         (static_cast<double>(measured_cycles) * nodes);
  const double accepted =
      static_cast<double>(flits_at_end - flits_at_warmup) / (static_cast<double>(measured_cycles) * nodes);

  const hx::ScoreboardSummary s = b.scoreboard().summary();
  const bool pass = ran && drained && b.ok() && s.all_delivered() && traffic.refused() == 0;

  nlohmann::json j;
  j["sim"] = {{"model", "hx_board_plane_4x4"},
              {"routers", nodes},
              {"cycles", b.cycle()},
              {"injection_cycles", opt.cycles},
              {"wall_seconds", wall},
              {"cycles_per_second", wall > 0 ? b.cycle() / wall : 0.0},
              {"router_cycles_per_second", wall > 0 ? b.cycle() * nodes / wall : 0.0}};
  j["config"] = {{"seed", opt.seed},
                 {"load", opt.load},
                 {"packet_length", opt.length},
                 {"warmup_cycles", opt.warmup},
                 {"route_mode", hx::to_string(cfg.straps.route_mode)},
                 {"vc_policy", hx::to_string(cfg.straps.vc_policy)},
                 {"num_vcs", cfg.num_vcs},
                 {"buf_depth", cfg.buf_depth}};
  j["traffic"] = {{"offered", offered},
                  {"accepted", accepted},
                  {"avg_latency_cycles", avg},
                  {"p99_latency_cycles", p99},
                  {"packets", s.delivered}};
  nlohmann::json errors = nlohmann::json::array();
  for (const auto& e : b.errors()) errors.push_back(e);
  for (const auto& e : b.scoreboard().messages()) errors.push_back(e);
  if (b.deadlocked()) errors.push_back(b.deadlock_report());
  if (!drained && !b.deadlocked() && ran) errors.push_back("network did not drain");
  if (traffic.refused() != 0) errors.push_back("source queues overflowed (load beyond saturation)");
  j["checks"] = {{"injected", s.injected},
                 {"delivered", s.delivered},
                 {"lost", s.lost},
                 {"duplicated", s.duplicated},
                 {"corrupted", s.corrupted},
                 {"misrouted", s.misrouted},
                 {"bad_vc", s.bad_vc},
                 {"deadlock", b.deadlocked()},
                 {"error_o", b.error_bits_seen()},
                 {"errors", errors},
                 {"pass", pass}};

  std::printf("hx_router_demo: 4x4 board plane, %s, %s, seed %llu\n",
              hx::to_string(cfg.straps.route_mode), hx::to_string(cfg.straps.vc_policy),
              static_cast<unsigned long long>(opt.seed));
  std::printf("  traffic   offered %.3f, accepted %.3f flits/node/cycle; %llu packets of %u flits\n",
              offered, accepted, static_cast<unsigned long long>(s.delivered), opt.length);
  std::printf("  latency   avg %.1f cycles, p99 %llu cycles (creation to tail delivery)\n", avg,
              static_cast<unsigned long long>(p99));
  std::printf("  checks    injected %llu, delivered %llu, lost %llu, duplicated %llu, corrupted "
              "%llu, misrouted %llu, deadlock %s -> %s\n",
              static_cast<unsigned long long>(s.injected),
              static_cast<unsigned long long>(s.delivered), static_cast<unsigned long long>(s.lost),
              static_cast<unsigned long long>(s.duplicated),
              static_cast<unsigned long long>(s.corrupted),
              static_cast<unsigned long long>(s.misrouted), b.deadlocked() ? "yes" : "no",
              pass ? "PASS" : "FAIL");
  std::printf("  speed     %llu cycles in %.2f s: %.0f cycles/s, %.0f router-cycles/s\n",
              static_cast<unsigned long long>(b.cycle()), wall, wall > 0 ? b.cycle() / wall : 0.0,
              wall > 0 ? b.cycle() * nodes / wall : 0.0);
  if (!pass) std::fprintf(stderr, "%s", b.report().c_str());

  std::string err;
  if (!write_json_atomically(opt.out, j, err)) {
    std::fprintf(stderr, "hx_router_demo: %s\n", err.c_str());
    return 2;
  }
  std::printf("  results   %s\n", opt.out.c_str());
  return pass ? 0 : 1;
}
