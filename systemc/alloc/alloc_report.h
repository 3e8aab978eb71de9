// alloc_report.h: what `hxsim alloc CONFIG` does with a loaded config -- the experiment runs,
// the explicit placement sequence, the timing benchmark -- and its text and JSON output
// (docs/allocation.md describes both).
#pragma once

#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "alloc_config.h"
#include "hxmesh_allocator.h"
#include "job_mix.h"
#include "nlohmann/json.hpp"

namespace hx::alloc {

/// One utilisation run of the experiments: a system, a heuristic set, a failure count.
struct RunRecord {
  std::size_t system = 0;
  Heuristics heuristics;
  unsigned failures = 0;
  unsigned mixes = 0;
  bool heuristics_experiment = false;  // part of the heuristics comparison (Fig. 8)
  bool failures_experiment = false;    // part of the failures comparison (Fig. 10)
  RunResult result;
};

/// One step of the `place` sequence and its outcome.
struct PlaceRecord {
  PlaceStep step;
  bool ok = false;                     // allocated, or released
  std::optional<Placement> placement;  // for allocations that succeeded
  double upper_fraction = 0;
  unsigned free_after = 0;
};

struct PlaceResult {
  std::vector<PlaceRecord> steps;
  std::vector<std::string> map;  // the mesh after the last step, one string per row
  unsigned working = 0, used = 0;
  std::vector<Placement> final_jobs;
};

/// The timing benchmark, per heuristic set: wall time of allocations on one mesh (the fastest
/// and the median of the repeats).
struct TimingResult {
  struct ShapeTime {
    Shape shape;
    bool ok = false;
    Shape placed;
    double min_seconds = 0, median_seconds = 0;
  };
  struct Set {
    Heuristics heuristics;
    std::vector<ShapeTime> shapes;
    bool filled = false;
    unsigned fill_jobs = 0, fill_placed = 0;
    double fill_utilisation = 0;
    double fill_min_seconds = 0, fill_median_seconds = 0;
    double fill_slowest_job_seconds = 0;  // the slowest single allocation of the fastest repeat
  };
  std::vector<Set> sets;
  unsigned working = 0;
};

struct AllocResults {
  std::vector<RunRecord> runs;
  std::optional<PlaceResult> place;
  std::optional<TimingResult> timing;
  double wall_seconds = 0;
};

/// The runs the experiments section asks for, in order: per system, every heuristic set without
/// failures, then every failure count with every failure heuristic set (a pair already listed
/// is run once and marked as part of both experiments). Results not yet filled in.
std::vector<RunRecord> planned_runs(const AllocConfig& config);

/// Runs everything the config asks for. `progress`, if not null, gets one line per finished run
/// (and per timing part). Throws ConfigError for a place step that releases an unknown job.
AllocResults run_alloc(const AllocConfig& config, std::FILE* progress);

/// The results JSON: {"hxsim": {command, config, name}, "seed", "distribution", "systems",
/// "runs", "place", "timing", "wall_seconds"}. Only the wall_seconds fields vary between runs
/// of the same config.
nlohmann::ordered_json alloc_json(const AllocConfig& config, const AllocResults& results);

/// The text `hxsim alloc` prints: the utilisation table, the placements, the timings.
std::string alloc_text(const AllocConfig& config, const AllocResults& results);

}  // namespace hx::alloc
