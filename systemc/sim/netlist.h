// netlist.h: what the three parts of a fabric-model run share (private to systemc/sim/):
// build.cpp makes the Netlist from a SimConfig, run.cpp runs it and judges the checks into a
// RunRecord, report.cpp turns both into the results JSON.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <systemc.h>  // before Verilator's headers (::sc_time_stamp)

#include "accelerator_array.h"
#include "board.h"
#include "collective_engine.h"
#include "flit_link.h"
#include "hxmesh_allocator.h"
#include "packet_tracker.h"
#include "plane_registry.h"
#include "rank_boundary.h"
#include "simulation.h"
#include "switch_fabric.h"
#include "traffic_pattern.h"
#include "verilated.h"
#include "waveform.h"

namespace hx {

// Everything that exists during the run, in construction order.
struct Simulation::Netlist {
  std::unique_ptr<VerilatedContext> vctx;
  std::unique_ptr<sc_core::sc_clock> clock;
  /// A partitioned run's ranks > 0 clock the components rank 0 steps with this signal, which
  /// never toggles: they exist, as every rank builds the whole netlist, but never run.
  std::unique_ptr<sc_core::sc_signal<bool>> still;
  TrafficPattern pattern;
  PacketTracker tracker;
  std::vector<std::unique_ptr<FlitLink>> inject, eject;  // per endpoint and lane: [e * lanes + k]
  std::unique_ptr<BoardArray> boards;                    // board (bx, by) is board by * global_x + bx
  std::unique_ptr<SwitchFabric> fabric;                  // hammingmesh and fat_tree
  std::unique_ptr<AcceleratorArray> accelerators;
  std::unique_ptr<CollectiveEngine> engine;  // collective runs
  std::vector<alloc::Placement> placements;  // collective.jobs: where each job runs
  std::unique_ptr<Waveform> waveform;
  std::unique_ptr<RankBoundary> boundary;  ///< a partitioned run's links between ranks
  std::optional<PlaneVariant> variant;     ///< the boards' plane; none without boards

  explicit Netlist(const SimConfig& cfg);  // build.cpp
};

/// What a run ended with: its counts and the verdict of its checks (run.cpp), for the report.
struct Simulation::RunRecord {
  double wall_seconds = 0;
  uint64_t cycles = 0;
  TrackerCounts counts;
  TrafficResults traffic;
  RunEnd end = RunEnd::Running;
  uint64_t lost = 0, corrupted = 0;
  std::vector<CollectiveJobResult> collectives;
  uint64_t mismatched = 0, coverage_errors = 0;  // over every job
  bool collectives_complete = true;
  /// --link-loads: the fabric links' flits sent before cycle `from` and before cycle `to`.
  uint64_t loads_from = 0, loads_to = 0;
  std::vector<uint64_t> flits_at_from, flits_at_to;
};

/// The config's synthetic traffic pattern (build.cpp).
TrafficPattern make_pattern(const SimConfig& cfg);

}  // namespace hx
