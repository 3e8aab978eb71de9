// simulation.h: one `hxsim run` of the fabric model: the SystemC netlist built from a config
// (build.cpp), run and checked (run.cpp), and reported (report.cpp).
//
// The netlist of a board config: a clock, one Board (its planes are Verilated models), one
// AcceleratorArray with an accelerator per local port, and two FlitLinks per accelerator
// (inject and eject) with the configured latency. Edge ports are tied off: a single board is
// a plain a x b mesh.
//
// SystemC allows one elaboration per process, so a process builds one Simulation.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "nlohmann/json.hpp"
#include "progress_line.h"
#include "sim_config.h"

namespace hx {

class MpiWorld;

struct RunOptions {
  std::string trace_path;  ///< FST file; empty: no waveform
  uint64_t trace_from = 0, trace_to = UINT64_MAX;
  ProgressMode progress = ProgressMode::Off;  ///< the progress line on stderr (core/progress_line.h)
  /// Test hook: drop or corrupt the n-th flit delivered to accelerator `fault_node`.
  std::string fault;  ///< "", "drop" or "corrupt"
  unsigned fault_node = 0;
  uint64_t fault_nth = 1;
  /// Test hook: only this node sends (-1: every node the pattern says).
  int only_source = -1;
  /// Collective runs: write every rank's output buffer to this file (docs/collectives.md).
  std::string dump_buffers;
  /// Runs with a fabric: write each fabric link's flits to this CSV (link, class, window,
  /// flits, flits per cycle), over the measurement window of a traffic run, over the whole run
  /// of a collective. Which cables bind, where a mean hides it (docs/results-reference.md).
  std::string link_loads;
  /// Threads that step the board planes, the main one included; 0: auto (two on a machine
  /// with two or more cores, for systems of at least kAutoThreadPlanes planes). Results do not
  /// depend on it (board.h).
  unsigned threads = 0;
  static constexpr unsigned kAutoThreadPlanes = 16;
  /// A partitioned run's processes (`--partition`, sim/rank_boundary.h); null: one process.
  MpiWorld* world = nullptr;
};

class Simulation {
 public:
  Simulation(const SimConfig& cfg, const RunOptions& opt);
  ~Simulation();

  /// Run to the end; returns the results document (see docs/results.md).
  nlohmann::ordered_json run();

  /// True when every check passed (nothing lost, duplicated, corrupted or misdelivered, no
  /// deadlock, no model error, drained). Valid after run().
  bool passed() const { return passed_; }
  /// The watchdog's or the error's report, empty when the run passed.
  const std::string& failure_report() const { return failure_; }

 private:
  struct Netlist;    // netlist.h
  struct RunRecord;  // netlist.h
  /// The results document of a finished run (report.cpp).
  nlohmann::ordered_json report(const RunRecord& r);
  SimConfig cfg_;
  RunOptions opt_;
  std::unique_ptr<Netlist> net_;
  bool passed_ = false;
  std::string failure_;
};

/// The RTL model the config's boards need and where it comes from ("rtl model: hx_board_plane
/// 3x5, built on first use"), for `hxsim check`. Throws std::invalid_argument if the RTL does not
/// take the config's plane parameters.
std::string describe_rtl_model(const SimConfig& cfg);

/// Zero-load latency of the config's traffic, in cycles, averaged over its source-destination
/// pairs: 2 cycles per router crossed (minimal paths cross |dx| + |dy| + 1 routers), the local
/// link latency into and out of the board, and the packet's serialization (its length, which
/// includes the source's output register cycle). See docs/simulator.md.
/// For a topology with a switch fabric: -1 (the formula above covers a single board).
double zero_load_latency(const SimConfig& cfg);

}  // namespace hx
