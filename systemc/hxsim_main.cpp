// hxsim: the command-line front end of the simulator.
//
//   hxsim run [CONFIG] [--set key.path=value ...] [--seed N] [--out results.json]
//             [--trace waves.fst] [--trace-window FROM:TO]
//   hxsim check CONFIG
//   hxsim cost CONFIG [--set key.path=value ...] [--out results.json]
//   hxsim alloc CONFIG [--set key.path=value ...] [--out results.json]
//   hxsim list
//   hxsim config-reference
//
// `run` simulates any system: the config's topology.kind picks the network model that builds it
// (sim/network_models.h), from HammingMesh boards to the NVSwitch-like fabrics with in-network
// reduction; without CONFIG it uses the built-in default config. `nvswitch` is an alias of `run`.
// `list` prints every topology kind with the model that builds it, and what the models register.
// `cost` evaluates the cost model (systemc/analytic, docs/cost.md) on a cost config, or prices the
// netlist a system config's topology builder makes; `alloc` runs the job allocator (systemc/alloc,
// docs/allocation.md). Exit codes: 0 the run passed every check (for cost: evaluated); 2 bad input
// (config, options), nothing written; 3 the run failed a check (deadlock, loss, corruption, model
// error), results written; 1 an internal error.
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <systemc>

#include <yaml-cpp/yaml.h>

#include "CLI/CLI.hpp"
#include "alloc_report.h"
#include "analytic_backend.h"
#include "config_reader.h"
#include "cost_report.h"
#include "gtkw.h"
#include "llm_report.h"
#include "model_cache.h"
#include "mpi_world.h"
#include "network_cost.h"
#include "network_models.h"
#include "sweep.h"
#include "text_file.h"
#include "topology_builder.h"

namespace {

constexpr int kExitOk = 0;
constexpr int kExitInternal = 1;
constexpr int kExitBadInput = 2;
constexpr int kExitCheckFailed = 3;

struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

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
    throw UsageError("--trace-window: TO (" + std::to_string(opt.trace_to) + ") is before FROM (" +
                     std::to_string(opt.trace_from) + ")");
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

// The stdout summary of a run, the same form for every model: read from the results document.
void print_summary(const nlohmann::ordered_json& j, bool passed, const std::string& out) {
  using nlohmann::ordered_json;
  const auto u64 = [](const ordered_json& v) { return static_cast<unsigned long long>(v.get<uint64_t>()); };
  const auto& cfg = j["config"];
  const auto& ck = j["checks"];
  const auto& sim = j["sim"];
  std::printf("hxsim run %s: %s (%llu endpoints, %llu switches), %s\n", j["hxsim"]["config"].get<std::string>().c_str(),
              cfg["system"].get<std::string>().c_str(), u64(cfg["endpoints"]), u64(cfg["switches"]),
              cfg["routing_summary"].get<std::string>().c_str());
  if (cfg.contains("failed_links") && (!cfg["failed_links"].empty() || !cfg["failed_switches"].empty()))
    std::printf("  faults   %zu links and %zu switches failed; routing avoids them\n", cfg["failed_links"].size(),
                cfg["failed_switches"].size());
  if (j.contains("collective")) {
    for (const auto& job : j["collective"]["jobs"]) {
      const std::string grid = job.contains("grid") ? " (" + job["grid"].get<std::string>() + ")" : "";
      std::printf("  %s  %s by %s on %u ranks%s, %llu B each: %s in %.2f us = %llu cycles\n",
                  job["name"].get<std::string>().c_str(), job["operation"].get<std::string>().c_str(),
                  job["algorithm"].get<std::string>().c_str(), job["ranks"].get<unsigned>(), grid.c_str(),
                  u64(job["message_bytes"]), job["complete"].get<bool>() ? "complete" : "INCOMPLETE",
                  job["time_us"].get<double>(), u64(job["time_cycles"]));
      std::printf("        algbw %.2f GB/s, busbw %.2f GB/s, %.1f%% of peak; %llu elements checked, %llu wrong\n",
                  job["algbw_GBps"].get<double>(), job["busbw_GBps"].get<double>(),
                  100 * job["fraction_of_peak"].get<double>(), u64(job["output_elements"]), u64(job["wrong_elements"]));
    }
  }
  if (j.contains("traffic")) {
    const auto& tr = j["traffic"];
    if (tr.contains("offered")) {
      std::printf("  traffic  %s, %u-flit packets: offered %.3f, accepted %.3f flits/node/cycle (%.1f Gb/s per node)\n",
                  tr["pattern"].get<std::string>().c_str(), tr["packet_length_flits"].get<unsigned>(),
                  tr["offered"].get<double>(), tr["accepted"].get<double>(),
                  tr["accepted_gbps_per_node"].get<double>());
      std::printf("  latency  avg %.2f, p99 %.0f, max %.0f cycles over %llu packets",
                  tr["avg_latency_cycles"].get<double>(), tr["p99_latency_cycles"].get<double>(),
                  tr["max_latency_cycles"].get<double>(), u64(tr["packets"]));
      if (tr["zero_load_latency_cycles"].is_number())
        std::printf(" (zero-load %.2f)", tr["zero_load_latency_cycles"].get<double>());
      std::printf("\n");
    } else {
      std::printf("  traffic  %s, %llu B per endpoint in %.2f us: %.2f GB/s = %.1f%% of peak\n",
                  tr["pattern"].get<std::string>().c_str(), u64(tr["message_bytes"]), tr["time_us"].get<double>(),
                  tr["bandwidth_GBps"].get<double>(), 100 * tr["fraction_of_peak"].get<double>());
    }
    if (tr.contains("global_bandwidth")) {
      const auto& d = j["check_details"];
      // The diameter formula exists where the analytical cost model describes the topology.
      const std::string formula =
          d.contains("diameter_formula") ? " (diameter formula " + d["diameter_formula"].dump() + ")" : "";
      std::printf(
          "  global   %.3f of the local port = %.3f of the plane's links; longest path %u cables%s,"
          " at most %u trees, VCs up to %u\n",
          tr["global_bandwidth"]["share_of_local_port"].get<double>(),
          tr["global_bandwidth"]["share_of_plane_links"].get<double>(), d["max_path_cables"].get<unsigned>(),
          formula.c_str(), d["max_trees"].get<unsigned>(), d["max_vc"].get<unsigned>());
    }
  }
  if (j.contains("in_network")) {
    const auto& n = j["in_network"];
    std::printf(
        "  tables   %llu results, %llu evictions, %llu bypasses, max %u entries/port; reduction latency %.0f cycles\n",
        u64(n["table_results"]), u64(n["table_evictions"]), u64(n["table_bypasses"]),
        n["max_table_occupancy"].get<unsigned>(), n["reduction_latency_cycles"].get<double>());
  }
  // Packets relayed through a third accelerator's router (rail_only's PXN relay; a torus's
  // intermediate routers count too), in a synthetic-traffic run, and what the relay costs.
  if (sim.contains("transit_packets") && u64(sim["transit_packets"]) > 0 &&
      !sim["direct_avg_latency_cycles"].is_null() && !sim["transit_avg_latency_cycles"].is_null()) {
    std::printf(
        "  relays   %llu packets crossed a third accelerator's router (%llu crossings, at most %u a packet); "
        "mean latency %.0f cycles, %.0f without\n",
        u64(sim["transit_packets"]), u64(sim["transits"]), sim["max_transits_per_packet"].get<unsigned>(),
        sim["transit_avg_latency_cycles"].get<double>(), sim["direct_avg_latency_cycles"].get<double>());
  }
  std::printf(
      "  checks   %s: %llu injected, %llu delivered; %llu lost, %llu duplicated, %llu corrupted, %llu misdelivered%s\n",
      passed ? "PASSED" : "FAILED", u64(ck["injected"]), u64(ck["delivered"]), u64(ck["lost"]), u64(ck["duplicated"]),
      u64(ck["corrupted"]), u64(ck["misdelivered"]), ck["deadlock"].get<bool>() ? "; DEADLOCK" : "");
  std::printf("  sim      %llu cycles in %.2f s: %.3g cycles/s, peak RSS %.0f MB\n", u64(sim["cycles"]),
              sim["wall_seconds"].get<double>(), sim["cycles_per_second"].get<double>(),
              sim["peak_rss_mb"].get<double>());
  if (!out.empty()) std::printf("  results  %s\n", out.c_str());
  if (j.contains("trace")) {
    std::printf("  trace    %s (open with: gtkwave -a %s)\n", j["trace"]["fst"].get<std::string>().c_str(),
                hx::gtkw_path_for(j["trace"]["fst"].get<std::string>()).c_str());
  }
}

int cmd_check(const hx::RunRequest& req) {
  const hx::NetworkModel& model = hx::model_for(req);
  const std::vector<std::string> lines = model.check(req);
  const std::string source = req.config_path.empty() ? "<built-in>" : req.config_path;
  for (std::size_t i = 0; i < lines.size(); ++i)
    std::printf("%s%s\n", i == 0 ? (source + ": ").c_str() : "  ", lines[i].c_str());
  return kExitOk;
}

int cmd_run(hx::RunRequest req, const std::string& seed, const std::string& out, const std::string& window,
            const std::string& fault, const std::string& partition, std::unique_ptr<hx::MpiWorld>& world, bool quiet) {
  if (!seed.empty()) req.overrides.push_back("run.seed=" + seed);
  hx::RunOptions& opt = req.options;
  // A partitioned run (docs/scale.md): one process per MPI rank; rank 0 writes the results.
  if (!partition.empty()) {
    if (partition != "auto") throw UsageError("--partition: expected auto, found '" + partition + "'");
    world = std::make_unique<hx::MpiWorld>();
    opt.world = world.get();
    if (world->rank() != 0) quiet = true;
  }
  if (!window.empty()) {
    if (opt.trace_path.empty()) throw UsageError("--trace-window needs --trace FILE.fst");
    parse_window(window, opt);
    req.trace_window_given = true;
  }
  if (!fault.empty()) parse_fault(fault, opt);
  // A line rewritten in place on a terminal; a full line now and then in a log.
  opt.progress = quiet                    ? hx::ProgressMode::Off
                 : isatty(fileno(stderr)) ? hx::ProgressMode::Terminal
                                          : hx::ProgressMode::Log;
  const hx::NetworkModel& model = hx::model_for(req);
  if (!opt.trace_path.empty()) {
    const std::filesystem::path tp(opt.trace_path);
    if (tp.has_parent_path()) std::filesystem::create_directories(tp.parent_path());
  }
  const hx::RunOutcome r = model.run(req);
  if (world && world->rank() != 0) return world->finish(kExitOk);  // rank 0's verdict
  if (!out.empty()) hx::write_text_atomically(out, r.results.dump(2) + "\n");
  if (!quiet) print_summary(r.results, r.passed, out);
  int code = kExitOk;
  if (!r.passed) {
    std::fprintf(stderr, "hxsim: run FAILED\n%s\n", r.failure.c_str());
    code = kExitCheckFailed;
  }
  return world ? world->finish(code) : code;
}

// `hxsim plot`: scripts/hxsim_plot.py with matplotlib (Debian's python3-matplotlib, for
// /usr/bin/python3; $HXSIM_PYTHON overrides), run in place of this process.
int cmd_plot(const std::vector<std::string>& inputs, const std::string& out) {
  const char* env = std::getenv("HXSIM_PYTHON");
  const std::string python = env != nullptr && *env != '\0'            ? env
                             : ::access("/usr/bin/python3", X_OK) == 0 ? "/usr/bin/python3"
                                                                       : "python3";
  std::vector<std::string> args{python, HX_PLOT_SCRIPT};
  args.insert(args.end(), inputs.begin(), inputs.end());
  if (!out.empty()) args.insert(args.end(), {"--out", out});
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::fflush(stdout);
  ::execvp(argv[0], argv.data());
  std::fprintf(stderr, "hxsim: cannot run %s: %s\n", python.c_str(), std::strerror(errno));
  return kExitInternal;
}

// Every registered topology kind with the model that builds it (one table, from the one registry
// of builders), then every model with its routing functions, collectives and traffic patterns.
int cmd_list() {
  std::printf("topologies (topology.kind):\n  %-18s%-10s%s\n", "kind", "model", "description");
  for (const hx::TopologyBuilder* t : hx::topology_builders())
    std::printf("  %-18s%-10s%s\n", t->kind(), t->model(), t->description());
  const auto section = [](const char* title, const std::vector<hx::RegisteredName>& names) {
    std::printf("  %s:\n", title);
    for (const hx::RegisteredName& n : names) std::printf("    %-20s%s\n", n.name.c_str(), n.description.c_str());
  };
  for (const hx::NetworkModel& m : hx::network_models()) {
    std::printf("model %s: %s\n", m.name.c_str(), m.description.c_str());
    section("routing functions", m.routings);
    section("collectives (collective.algorithm)", m.collectives);
    section("traffic patterns (traffic.pattern)", m.traffic);
  }
  return kExitOk;
}

// A system config (`topology:`, one system) rather than a cost config (`topologies:`, a list);
// an unreadable file is left to the cost config's loader to report.
bool is_system_config(const std::string& path) {
  const YAML::Node root = hx::peek_yaml_file(path);
  return root.IsMap() && root["topology"] && !root["topologies"];
}

// `hxsim cost SYSTEM_CONFIG`: the netlist its topology builder makes, priced, beside the
// analytical model's counts for the same parameters where there is one.
int cmd_cost_system(const std::string& path, const std::vector<std::string>& sets, const std::string& out, bool quiet) {
  hx::RunRequest request;
  request.config_path = path;
  request.overrides = sets;
  const hx::PricedNetwork p = hx::model_for(request).price(request);
  nlohmann::ordered_json j;
  j["hxsim"] = {{"command", "cost"}, {"config", path}, {"name", p.name}};
  j["system"] = p.system;
  j["endpoints"] = p.endpoints;
  j["network"] = p.network;
  if (!out.empty()) hx::write_text_atomically(out, j.dump(2) + "\n");
  if (!quiet) {
    std::printf("%s: %s, %u endpoints\n%s", p.name.c_str(), p.system.c_str(), p.endpoints,
                hx::network_cost_text(j["network"]).c_str());
    if (!out.empty()) std::printf("  results  %s\n", out.c_str());
  }
  return kExitOk;
}

int cmd_cost(const std::string& path, const std::vector<std::string>& sets, const std::string& out, bool quiet) {
  if (is_system_config(path)) return cmd_cost_system(path, sets, out, quiet);
  const hx::cost::CostConfig cfg = hx::cost::load_cost_config(path, sets);
  const std::vector<hx::cost::TopologyCost> results = hx::cost::evaluate_all(cfg);
  if (!out.empty()) hx::write_text_atomically(out, hx::cost::cost_json(cfg, results).dump(2) + "\n");
  if (!quiet) {
    std::fputs(hx::cost::cost_table(cfg, results).c_str(), stdout);
    if (!out.empty()) std::printf("  results  %s\n", out.c_str());
  }
  return kExitOk;
}

// `hxsim model CONFIG`: the analytical backend's results for a config `hxsim run` also takes.
// A workload config (`workload:`) is an LLM training iteration (docs/rail.md); a search that
// finds no valid parallelization says so and exits 1, writing nothing.
int cmd_model(const std::string& path, const std::vector<std::string>& sets, const std::string& out,
              const std::string& link_loads, bool quiet) {
  // The channel loads first: a config they do not apply to is refused before anything is written.
  const std::string loads = link_loads.empty() ? "" : hx::model_link_loads(path, sets);
  hx::ModelOutput r;
  try {
    r = hx::model_file(path, sets);
  } catch (const hx::llm::NoValidStrategy& e) {
    std::fprintf(stderr, "hxsim: %s\n", e.what());
    return kExitInternal;
  }
  const nlohmann::ordered_json& j = r.results;
  if (!out.empty()) hx::write_text_atomically(out, j.dump(2) + "\n");
  if (!link_loads.empty()) hx::write_text_atomically(link_loads, loads);
  if (!quiet) {
    std::fputs(r.summary.c_str(), stdout);
    if (!out.empty()) std::printf("  results  %s\n", out.c_str());
    if (!link_loads.empty()) std::printf("  channel loads  %s\n", link_loads.c_str());
  }
  return kExitOk;
}

// Progress lines go to stderr; results are written only after every run finished.
int cmd_alloc(const std::string& path, const std::vector<std::string>& sets, const std::string& out, bool quiet) {
  const hx::alloc::AllocConfig cfg = hx::alloc::load_alloc_config(path, sets);
  const hx::alloc::AllocResults results = hx::alloc::run_alloc(cfg, quiet ? nullptr : stderr);
  if (!out.empty()) hx::write_text_atomically(out, hx::alloc::alloc_json(cfg, results).dump(2) + "\n");
  if (!quiet) {
    std::fputs(hx::alloc::alloc_text(cfg, results).c_str(), stdout);
    if (!out.empty()) std::printf("  results  %s\n", out.c_str());
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

// This executable, for the processes a sweep starts.
std::string self_path() {
  std::error_code ec;
  const std::filesystem::path p = std::filesystem::read_symlink("/proc/self/exe", ec);
  return ec ? std::string("hxsim") : p.string();
}

int cmd_sweep(const std::string& what, const std::string& file, const std::string& dir, std::size_t point,
              const hx::sweep::Options& o) {
  if (what == "collect") return hx::sweep::collect(dir, o.quiet);
  if (what == "point") return hx::sweep::run_point(dir, point, o.hxsim);
  if (file.empty()) throw UsageError("hxsim sweep: give a sweep file (SWEEP.yaml), or collect DIR");
  return hx::sweep::run(hx::sweep::load_sweep(file), o);
}

// The command line; a partitioned run's MPI world is left in `world`.
int run_cli(int argc, char* argv[], std::unique_ptr<hx::MpiWorld>& world) {
  // No "simulation stopped by user" note: the run control stops the kernel on purpose at the
  // end of every run.
  sc_core::sc_report_handler::set_actions("/OSCI/SystemC", sc_core::SC_INFO, sc_core::SC_DO_NOTHING);
  CLI::App app{"hxsim: cycle-accurate simulator of deep-learning training networks"};
  app.require_subcommand(1);

  std::string path, seed, out, trace, window, fault, dump, link_loads, partition;
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
  run->add_option("--link-loads", link_loads,
                  "write each fabric link's flits per cycle here (CSV): over the measurement window of traffic, "
                  "over the whole run of a collective");
  run->add_option("--only-source", only_source,
                  "test hook: only this node sends (with a hotspot pattern: one directed route)");
  run->add_option("--threads", threads,
                  "threads that step the board planes (default 0: two on a multi-core machine for 16 or more "
                  "planes, else one); results do not depend on it");
  run->add_option("--partition", partition,
                  "auto: split the run between the ranks of mpirun -np R (docs/scale.md); results do not depend "
                  "on R");
  run->add_flag("--quiet", quiet, "no summary, no progress line");

  CLI::App* check = app.add_subcommand("check", "validate a config and show what it derives");
  check->add_option("CONFIG", path, "YAML config file")->required();
  check->add_option("--set", sets, "override a key: key.path=value (repeatable)");

  CLI::App* cost = app.add_subcommand("cost", "switches, cables, dollars, diameter, bisection of topologies");
  cost->add_option("CONFIG", path, "YAML cost config file (docs/cost.md), or a system config: its netlist, priced")
      ->required();
  cost->add_option("--set", sets, "override a key: key.path=value (repeatable)");
  cost->add_option("--out", out, "write the results JSON here");
  cost->add_flag("--quiet", quiet, "no table");

  CLI::App* alloc = app.add_subcommand("alloc", "job allocation on HammingMesh boards: utilisation, placements");
  alloc->add_option("CONFIG", path, "YAML alloc config file (docs/allocation.md)")->required();
  alloc->add_option("--set", sets, "override a key: key.path=value (repeatable)");
  alloc->add_option("--out", out, "write the results JSON here");
  alloc->add_flag("--quiet", quiet, "no table, no progress lines");

  CLI::App* model = app.add_subcommand(
      "model", "the analytical backend: a config's collective, or an LLM training iteration, in closed form");
  model
      ->add_option("CONFIG", path,
                   "YAML config file (a hierarchical collective on topology.dims, or a workload: section)")
      ->required();
  model->add_option("--set", sets, "override a key: key.path=value (repeatable)");
  model->add_option("--out", out, "write the results JSON here");
  model->add_option("--link-loads", link_loads,
                    "all-to-all: write every channel's load at the all-to-all's rate here (CSV), as hxsim run "
                    "--link-loads measures it");
  model->add_flag("--quiet", quiet, "no summary");

  // The old `hxsim nvswitch CONFIG`: the same as `hxsim run CONFIG`, kept as an alias.
  run->alias("nvswitch");

  std::vector<std::string> plot_inputs;
  CLI::App* plot = app.add_subcommand("plot", "PNG plots of results: latency, link loads, collective bandwidth, dims");
  plot->add_option("RESULTS", plot_inputs, "hxsim result JSON files")->required();
  plot->add_option("--out", out, "directory for the PNGs (default: the first result's)");

  // `hxsim sweep SWEEP.yaml`, `hxsim sweep collect DIR`, `hxsim sweep point DIR I` (sweep/sweep.h).
  std::string backend = "local", sweep_dir;
  unsigned jobs = 0;
  std::size_t point = 0;
  bool no_wait = false;
  CLI::App* sweep = app.add_subcommand("sweep", "run a base config over axes of --set values (docs/sweeps.md)");
  sweep->add_option("SWEEP", path, "YAML sweep file");
  sweep->add_option("--out", out, "directory of the sweep (default: build/sweep/NAME)");
  sweep->add_option("--backend", backend, "local (a process pool) or slurm (a job array)")
      ->check(CLI::IsMember({"local", "slurm"}));
  sweep->add_option("-j,--jobs", jobs, "local: points at once (default: the cores)");
  sweep->add_flag("--no-wait", no_wait, "slurm: submit and return");
  sweep->add_flag("--quiet", quiet, "no progress lines");
  CLI::App* collect = sweep->add_subcommand("collect", "merge a sweep's results into sweep.csv, sweep_results.json");
  collect->add_option("DIR", sweep_dir, "the sweep's directory")->required();
  collect->add_flag("--quiet", quiet, "no summary");
  CLI::App* sweep_point = sweep->add_subcommand("point", "run one point of a sweep (what a Slurm task runs)");
  sweep_point->add_option("DIR", sweep_dir, "the sweep's directory")->required();
  sweep_point->add_option("I", point, "the point's index")->required();

  CLI::App* list = app.add_subcommand("list", "the registered topologies, routing functions, collectives, traffic");
  CLI::App* reference =
      app.add_subcommand("config-reference", "every config key of every model, as Markdown (docs/config-reference.md)");

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? kExitOk : kExitBadInput;
  }

  try {
    hx::RunRequest req;
    req.config_path = path;
    req.overrides = sets;
    req.options.trace_path = trace;
    req.options.dump_buffers = dump;
    req.options.link_loads = link_loads;
    req.options.only_source = only_source;
    req.options.threads = threads;
    if (*list) return cmd_list();
    if (*plot) return cmd_plot(plot_inputs, out);
    if (*reference) {
      std::fputs(hx::config_reference().c_str(), stdout);
      return kExitOk;
    }
    if (*check) return cmd_check(req);
    if (*cost) return cmd_cost(path, sets, out, quiet);
    if (*alloc) return cmd_alloc(path, sets, out, quiet);
    if (*model) return cmd_model(path, sets, out, link_loads, quiet);
    if (*sweep)
      return cmd_sweep(*collect       ? "collect"
                       : *sweep_point ? "point"
                                      : "run",
                       path, sweep_dir, point, {out, backend, jobs, !no_wait, quiet, self_path()});
    return cmd_run(req, seed, out, window, fault, partition, world, quiet);
  } catch (const hx::ConfigError& e) {
    std::fprintf(stderr, "hxsim: %s\n", e.what());
    return kExitBadInput;
  } catch (const UsageError& e) {
    std::fprintf(stderr, "hxsim: %s\n", e.what());
    return kExitBadInput;
  } catch (const std::invalid_argument& e) {
    std::fprintf(stderr, "hxsim: %s\n", e.what());
    return kExitBadInput;
  } catch (const hx::ModelBuildError& e) {
    std::fprintf(stderr, "hxsim: %s\n", e.what());
    return kExitInternal;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "hxsim: internal error: %s\n", e.what());
    return kExitInternal;
  }
}

int sc_main(int argc, char* argv[]) {
  std::unique_ptr<hx::MpiWorld> world;
  const int code = run_cli(argc, argv, world);
  // A rank that failed (its error printed above) may leave the others waiting for its next
  // message: end them all, with its exit code, rather than hang.
  if (world && !world->finished()) world->abort(code);
  return code;
}
