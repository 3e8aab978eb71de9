// hxsim: the command-line front end of the simulator.
//
//   hxsim run [CONFIG] [--set key.path=value ...] [--seed N] [--out results.json]
//             [--trace waves.fst] [--trace-window FROM:TO]
//   hxsim check CONFIG
//   hxsim cost CONFIG [--set key.path=value ...] [--out results.json]
//   hxsim alloc CONFIG [--set key.path=value ...] [--out results.json]
//   hxsim nvswitch CONFIG [--set key.path=value ...] [--out results.json] [--trace waves.fst]
//
// Without CONFIG, `run` uses the built-in default config. `cost` evaluates the cost model
// (systemc/analytic, docs/cost.md) on a cost config; `alloc` runs the job allocator
// (systemc/alloc, docs/allocation.md); `nvswitch` simulates an allreduce on an NVSwitch-like
// fabric with in-network reduction (systemc/nvswitch, docs/nvswitch.md). Exit codes: 0 the run passed every check
// (for cost: evaluated); 2 bad input (config, options), nothing written; 3 the run failed a
// check (deadlock, loss, corruption, model error), results written; 1 an internal error.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <string>
#include <vector>

#include <systemc>

#include "CLI/CLI.hpp"
#include "alloc_report.h"
#include "cost_report.h"
#include "gtkw.h"
#include "nv_system.h"
#include "sim_config.h"
#include "simulation.h"

namespace {

constexpr int kExitOk = 0;
constexpr int kExitInternal = 1;
constexpr int kExitBadInput = 2;
constexpr int kExitCheckFailed = 3;

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Write `text` to `path` through a temporary file, so a reader never sees half a file.
void write_atomically(const std::string& path, const std::string& text) {
  namespace fs = std::filesystem;
  const fs::path p(path);
  if (p.has_parent_path()) fs::create_directories(p.parent_path());
  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp);
    if (!out) throw std::runtime_error("cannot write " + tmp);
    out << text;
    if (!out.flush()) throw std::runtime_error("cannot write " + tmp);
  }
  fs::rename(tmp, p);
}

uint64_t parse_cycle(const std::string& s, const std::string& what) {
  std::size_t used = 0;
  unsigned long long v = 0;
  try {
    v = std::stoull(s, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used == 0 || used != s.size() || s[0] == '-') {
    throw UsageError(what + ": expected a cycle number, found '" + s + "'");
  }
  return v;
}

void parse_window(const std::string& w, hx::RunOptions& opt) {
  const auto colon = w.find(':');
  if (colon == std::string::npos) {
    throw UsageError("--trace-window: expected FROM:TO in cycles, found '" + w + "'");
  }
  opt.trace_from = parse_cycle(w.substr(0, colon), "--trace-window FROM");
  opt.trace_to = parse_cycle(w.substr(colon + 1), "--trace-window TO");
  if (opt.trace_to < opt.trace_from) {
    throw UsageError("--trace-window: TO (" + std::to_string(opt.trace_to) +
                     ") is before FROM (" + std::to_string(opt.trace_from) + ")");
  }
}

void parse_fault(const std::string& f, hx::RunOptions& opt) {
  // KIND:NODE:N, e.g. drop:5:1 drops the first flit delivered to accelerator 5.
  std::vector<std::string> parts;
  std::stringstream ss(f);
  for (std::string p; std::getline(ss, p, ':');) parts.push_back(p);
  if (parts.size() != 3 || (parts[0] != "drop" && parts[0] != "corrupt")) {
    throw UsageError("--inject-fault: expected drop:NODE:N or corrupt:NODE:N, found '" + f + "'");
  }
  opt.fault = parts[0];
  opt.fault_node = static_cast<unsigned>(parse_cycle(parts[1], "--inject-fault NODE"));
  opt.fault_nth = parse_cycle(parts[2], "--inject-fault N");
  if (opt.fault_nth == 0) throw UsageError("--inject-fault: N counts from 1");
}

void print_summary(const hx::SimConfig& cfg, const nlohmann::ordered_json& j, bool passed,
                   const std::string& out) {
  static const nlohmann::ordered_json kNone;
  const auto& tr = j.contains("traffic") ? j["traffic"] : kNone;
  const auto& ck = j["checks"];
  const auto& sim = j["sim"];
  const std::string system = cfg.hammingmesh() || cfg.switched()
                                 ? j["config"]["system"].get<std::string>() + " (" +
                                       std::to_string(cfg.node_count()) + " accelerators, " +
                                       std::to_string(j["config"]["switches"].get<unsigned>()) + " switches)"
                                 : j["config"]["board"].get<std::string>() + " board";
  std::printf("hxsim run %s: %s, %s routing, %u VCs x %u flits, %.3g GHz\n",
              cfg.source.c_str(), system.c_str(),
              (cfg.fat_tree()    ? std::string("up/down")
               : cfg.dragonfly() ? std::string(cfg.topology.dragonfly.ugal ? "UGAL-L" : "minimal")
               : cfg.torus()     ? std::string("dimension-order")
                                 : hx::route_mode_name(cfg.router.routing))
                  .c_str(), cfg.router.vcs,
              cfg.router.buffer_depth, cfg.router.clock_hz / 1e9);
  if (j.contains("collective")) {
    for (const auto& job : j["collective"]["jobs"]) {
      std::printf("  %s  %s by %s on %u ranks (%s), %llu B each: %s in %.2f us = %llu cycles\n",
                  job["name"].get<std::string>().c_str(), job["operation"].get<std::string>().c_str(),
                  job["algorithm"].get<std::string>().c_str(), job["ranks"].get<unsigned>(),
                  job["grid"].get<std::string>().c_str(),
                  static_cast<unsigned long long>(job["message_bytes"].get<uint64_t>()),
                  job["complete"].get<bool>() ? "complete" : "INCOMPLETE", job["time_us"].get<double>(),
                  static_cast<unsigned long long>(job["time_cycles"].get<uint64_t>()));
      std::printf("        algbw %.2f GB/s, busbw %.2f GB/s, %.1f%% of peak; %llu elements checked, %llu wrong\n",
                  job["algbw_GBps"].get<double>(), job["busbw_GBps"].get<double>(),
                  100 * job["fraction_of_peak"].get<double>(),
                  static_cast<unsigned long long>(job["output_elements"].get<uint64_t>()),
                  static_cast<unsigned long long>(job["wrong_elements"].get<uint64_t>()));
    }
  } else {
    std::printf("  traffic  %s, %u-flit packets: offered %.3f, accepted %.3f flits/node/cycle"
                " (%.1f Gb/s per node)\n",
                tr["pattern"].get<std::string>().c_str(), cfg.traffic.packet_length,
                tr["offered"].get<double>(), tr["accepted"].get<double>(),
                tr["accepted_gbps_per_node"].get<double>());
    std::printf("  latency  avg %.2f, p99 %.0f, max %.0f cycles over %llu packets",
                tr["avg_latency_cycles"].get<double>(), tr["p99_latency_cycles"].get<double>(),
                tr["max_latency_cycles"].get<double>(),
                static_cast<unsigned long long>(tr["packets"].get<uint64_t>()));
    if (tr["zero_load_latency_cycles"].is_number()) {
      std::printf(" (zero-load %.2f)", tr["zero_load_latency_cycles"].get<double>());
    }
    std::printf("\n");
  }
  if (!j.contains("collective") && (cfg.hammingmesh() || cfg.switched())) {
    std::printf("  global   %.3f of the local port = %.3f of the plane's links; longest path %u cables"
                " (diameter formula %u), at most %u trees, VCs up to %u\n",
                tr["global_bandwidth"]["share_of_local_port"].get<double>(),
                tr["global_bandwidth"]["share_of_plane_links"].get<double>(),
                ck["max_path_cables"].get<unsigned>(), ck["diameter_formula"].get<unsigned>(),
                ck["max_trees"].get<unsigned>(), ck["max_vc"].get<unsigned>());
  }
  std::printf("  checks   %s: %llu packets injected, %llu delivered; %llu lost, %llu duplicated,"
              " %llu corrupted, %llu misrouted%s\n",
              passed ? "PASSED" : "FAILED",
              static_cast<unsigned long long>(ck["injected"].get<uint64_t>()),
              static_cast<unsigned long long>(ck["delivered"].get<uint64_t>()),
              static_cast<unsigned long long>(ck["lost"].get<uint64_t>()),
              static_cast<unsigned long long>(ck["duplicated"].get<uint64_t>()),
              static_cast<unsigned long long>(ck["corrupted"].get<uint64_t>()),
              static_cast<unsigned long long>(ck["misrouted"].get<uint64_t>()),
              ck["deadlock"].get<bool>() ? "; DEADLOCK" : "");
  std::printf("  sim      %llu cycles in %.2f s: %.3g cycles/s, %.3g router-cycles/s,"
              " peak RSS %.0f MB\n",
              static_cast<unsigned long long>(sim["cycles"].get<uint64_t>()),
              sim["wall_seconds"].get<double>(), sim["cycles_per_second"].get<double>(),
              sim["router_cycles_per_second"].get<double>(), sim["peak_rss_mb"].get<double>());
  if (!out.empty()) std::printf("  results  %s\n", out.c_str());
  if (j.contains("trace")) {
    std::printf("  trace    %s (open with: gtkwave -a %s)\n",
                j["trace"]["fst"].get<std::string>().c_str(),
                hx::gtkw_path_for(j["trace"]["fst"].get<std::string>()).c_str());
  }
}

hx::SimConfig load(const std::string& path, const std::vector<std::string>& sets) {
  if (path.empty()) return hx::load_config_text(hx::default_config_yaml(), "<built-in>", sets);
  return hx::load_config(path, sets);
}

int cmd_check(const std::string& path, const std::vector<std::string>& sets) {
  const hx::SimConfig cfg = load(path, sets);
  std::printf("%s: valid config '%s'\n", cfg.source.c_str(), cfg.name.c_str());
  for (const std::string& d : cfg.derivations) std::printf("  %s\n", d.c_str());
  hx::check_buildable(cfg);
  return kExitOk;
}

int cmd_run(const std::string& path, std::vector<std::string> sets, const std::string& seed,
            const std::string& out, const std::string& trace, const std::string& window,
            const std::string& fault, int only_source, const std::string& dump, unsigned threads, bool quiet) {
  if (!seed.empty()) sets.push_back("run.seed=" + seed);
  hx::RunOptions opt;
  opt.dump_buffers = dump;
  opt.only_source = only_source;
  opt.trace_path = trace;
  opt.threads = threads;
  if (!window.empty()) {
    if (trace.empty()) throw UsageError("--trace-window needs --trace FILE.fst");
    parse_window(window, opt);
  }
  if (!fault.empty()) parse_fault(fault, opt);
  opt.progress = !quiet && isatty(fileno(stderr));
  const hx::SimConfig cfg = load(path, sets);
  hx::check_buildable(cfg);
  if (!dump.empty() && !cfg.collective.enabled) throw UsageError("--dump-buffers needs a config with a collective");
  if (only_source >= static_cast<int>(cfg.node_count()))
    throw UsageError("--only-source: expected a node index below " + std::to_string(cfg.node_count()));
  if (!trace.empty()) {
    const std::filesystem::path tp(trace);
    if (tp.has_parent_path()) std::filesystem::create_directories(tp.parent_path());
  }

  hx::Simulation sim(cfg, opt);
  const nlohmann::ordered_json j = sim.run();
  if (!out.empty()) write_atomically(out, j.dump(2) + "\n");
  if (!trace.empty()) {
    hx::write_gtkw(hx::gtkw_path_for(trace), trace, cfg);
  }
  if (!quiet) print_summary(cfg, j, sim.passed(), out);
  if (!sim.passed()) {
    std::fprintf(stderr, "hxsim: run FAILED\n%s\n", sim.failure_report().c_str());
    return kExitCheckFailed;
  }
  return kExitOk;
}

int cmd_cost(const std::string& path, const std::vector<std::string>& sets, const std::string& out,
             bool quiet) {
  const hx::cost::CostConfig cfg = hx::cost::load_cost_config(path, sets);
  const std::vector<hx::cost::TopologyCost> results = hx::cost::evaluate_all(cfg);
  if (!out.empty()) write_atomically(out, hx::cost::cost_json(cfg, results).dump(2) + "\n");
  if (!quiet) {
    std::fputs(hx::cost::cost_table(cfg, results).c_str(), stdout);
    if (!out.empty()) std::printf("  results  %s\n", out.c_str());
  }
  return kExitOk;
}

// Progress lines go to stderr; results are written only after every run finished.
int cmd_alloc(const std::string& path, const std::vector<std::string>& sets, const std::string& out, bool quiet) {
  const hx::alloc::AllocConfig cfg = hx::alloc::load_alloc_config(path, sets);
  const hx::alloc::AllocResults results = hx::alloc::run_alloc(cfg, quiet ? nullptr : stderr);
  if (!out.empty()) write_atomically(out, hx::alloc::alloc_json(cfg, results).dump(2) + "\n");
  if (!quiet) {
    std::fputs(hx::alloc::alloc_text(cfg, results).c_str(), stdout);
    if (!out.empty()) std::printf("  results  %s\n", out.c_str());
  }
  return kExitOk;
}

// One allreduce on an NVSwitch-like fabric; --trace records switch 0's reduction units.
int cmd_nvswitch(const std::string& path, const std::vector<std::string>& sets, const std::string& out,
                 const std::string& trace, const std::string& fault, bool quiet) {
  hx::nv::NvConfig cfg = hx::nv::load_nv_config(path, sets);
  if (!fault.empty()) {
    hx::RunOptions opt;
    parse_fault(fault, opt);
    if (opt.fault_node >= cfg.gpus())
      throw UsageError("--inject-fault: NODE must be a GPU, 0.." + std::to_string(cfg.gpus() - 1));
    cfg.fault = opt.fault == "drop" ? hx::nv::GpuParams::Fault::Drop : hx::nv::GpuParams::Fault::Corrupt;
    cfg.fault_gpu = opt.fault_node;
    cfg.fault_n = opt.fault_nth;
  }
  hx::nv::NvSystem system("nvswitch", cfg);
  const hx::nv::NvResults r = system.run(!quiet && isatty(fileno(stderr)), trace);
  if (!out.empty()) write_atomically(out, hx::nv::nv_json(cfg, system.topology(), r).dump(2) + "\n");
  if (!quiet) {
    std::fputs(hx::nv::nv_text(cfg, system.topology(), r).c_str(), stdout);
    if (!out.empty()) std::printf("  results     %s\n", out.c_str());
  }
  if (!r.ok) {
    std::fprintf(stderr, "hxsim: check failed: %s\n", r.error.c_str());
    return kExitCheckFailed;
  }
  return kExitOk;
}

}  // namespace

// The program's own main, ahead of libsystemc's: it silences the SystemC banner, which is
// printed before sc_main runs, then hands over to the kernel as libsystemc's main would.
int main(int argc, char* argv[]) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  return sc_core::sc_elab_and_sim(argc, argv);
}

int sc_main(int argc, char* argv[]) {
  // No "simulation stopped by user" note: the run control stops the kernel on purpose at the
  // end of every run.
  sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO,
                                          sc_core::SC_DO_NOTHING);
  CLI::App app{"hxsim: cycle-accurate simulator of deep-learning training networks"};
  app.require_subcommand(1);

  std::string path, seed, out, trace, window, fault, dump;
  int only_source = -1;
  unsigned threads = 0;
  std::vector<std::string> sets;
  bool quiet = false;

  CLI::App* run = app.add_subcommand("run", "simulate a config (the built-in default without CONFIG)");
  run->add_option("CONFIG", path, "YAML config file");
  run->add_option("--set", sets, "override a key: key.path=value (repeatable)");
  run->add_option("--seed", seed, "random seed (same as --set run.seed=N)");
  run->add_option("--out", out, "write the results JSON here");
  run->add_option("--trace", trace, "write an FST waveform (and a .gtkw save file) here");
  run->add_option("--trace-window", window, "cycles to trace, FROM:TO (default: all)");
  run->add_option("--inject-fault", fault,
                  "test hook: drop:NODE:N or corrupt:NODE:N (the N-th flit delivered to NODE)");
  run->add_option("--dump-buffers", dump, "collective runs: write every rank's output buffer here (binary)");
  run->add_option("--only-source", only_source,
                  "test hook: only this node sends (with a hotspot pattern: one directed route)");
  run->add_option("--threads", threads,
                  "threads that step the board planes (default 0: two on a multi-core machine for 16 or more "
                  "planes, else one); results do not depend on it");
  run->add_flag("--quiet", quiet, "no summary, no progress line");

  CLI::App* check = app.add_subcommand("check", "validate a config and show what it derives");
  check->add_option("CONFIG", path, "YAML config file")->required();
  check->add_option("--set", sets, "override a key: key.path=value (repeatable)");

  CLI::App* cost = app.add_subcommand("cost", "switches, cables, dollars, diameter, bisection of topologies");
  cost->add_option("CONFIG", path, "YAML cost config file (docs/cost.md)")->required();
  cost->add_option("--set", sets, "override a key: key.path=value (repeatable)");
  cost->add_option("--out", out, "write the results JSON here");
  cost->add_flag("--quiet", quiet, "no table");

  CLI::App* alloc = app.add_subcommand("alloc", "job allocation on HammingMesh boards: utilisation, placements");
  alloc->add_option("CONFIG", path, "YAML alloc config file (docs/allocation.md)")->required();
  alloc->add_option("--set", sets, "override a key: key.path=value (repeatable)");
  alloc->add_option("--out", out, "write the results JSON here");
  alloc->add_flag("--quiet", quiet, "no table, no progress lines");

  CLI::App* nvswitch = app.add_subcommand("nvswitch", "allreduce on an NVSwitch-like fabric: ring, pull or push");
  nvswitch->add_option("CONFIG", path, "YAML config file (docs/nvswitch.md)")->required();
  nvswitch->add_option("--set", sets, "override a key: key.path=value (repeatable)");
  nvswitch->add_option("--out", out, "write the results JSON here");
  nvswitch->add_option("--trace", trace, "write an FST waveform of switch 0's reduction units here");
  nvswitch->add_option("--inject-fault", fault,
                       "test hook: drop:GPU:N or corrupt:GPU:N (the N-th data packet delivered to GPU)");
  nvswitch->add_flag("--quiet", quiet, "no summary, no progress line");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? kExitOk : kExitBadInput;
  }

  try {
    if (*check) return cmd_check(path, sets);
    if (*cost) return cmd_cost(path, sets, out, quiet);
    if (*alloc) return cmd_alloc(path, sets, out, quiet);
    if (*nvswitch) return cmd_nvswitch(path, sets, out, trace, fault, quiet);
    return cmd_run(path, sets, seed, out, trace, window, fault, only_source, dump, threads, quiet);
  } catch (const hx::ConfigError& e) {
    std::fprintf(stderr, "hxsim: %s\n", e.what());
    return kExitBadInput;
  } catch (const UsageError& e) {
    std::fprintf(stderr, "hxsim: %s\n", e.what());
    return kExitBadInput;
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "hxsim: %s\n", e.what());
    return kExitBadInput;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "hxsim: internal error: %s\n", e.what());
    return kExitInternal;
  }
}
