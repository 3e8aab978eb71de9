// sweep.h: `hxsim sweep SWEEP.yaml`, many runs of one base config (docs/sweeps.md).
//
// A sweep file names a base config and the axes to vary, each a config key (the `--set` syntax)
// with its values; the points are every combination, the last axis varying fastest. Every point
// is checked before anything runs: a value the base config does not take is an error at that
// value in the sweep file (exit 2), as a bad config key is.
//
// Each point runs as its own `hxsim run` process (SystemC elaborates once per process), into
// OUT/pNNNN/: results.json, the run's output in log.txt, and its exit status in status. The
// sweep's plan is OUT/sweep.json. A point whose status is 0 is done and is skipped when the sweep
// runs again, so an interrupted sweep resumes; a failed point (status not 0) is reported with its
// log and runs again next time; it never stops the others.
//
// Backends run the points:
//   local  a pool of `jobs` processes on this machine;
//   slurm  a Slurm job array (OUT/sweep.sbatch, one task per point not yet done, each running
//          `hxsim sweep point OUT I`), submitted with sbatch; waits for it unless told not to.
// `hxsim sweep collect OUT` merges the points' results into OUT/sweep.csv and
// OUT/sweep_results.json (`hxsim plot OUT/p*/results.json` draws the points themselves).
#pragma once

#include <string>
#include <vector>

namespace hx::sweep {

struct Axis {
  std::string key;                  ///< a config key, "traffic.injection_rate"
  std::vector<std::string> values;  ///< as YAML scalars, passed as --set key=value
};

struct SweepConfig {
  std::string source;            ///< the sweep file
  std::string name;              ///< the sweep's name (default: the file's stem)
  std::string base;              ///< the base config's path, as given (relative to the sweep file)
  std::string base_path;         ///< ... resolved
  std::vector<std::string> set;  ///< key=value for every point, before the axes' values
  std::vector<Axis> axes;
  std::size_t points() const;
  /// Point i's overrides: `set`, then each axis's value for i.
  std::vector<std::string> overrides(std::size_t i) const;
};

/// Reads and checks a sweep file, every point included. Throws ConfigError (file, line, key).
SweepConfig load_sweep(const std::string& path);

struct Options {
  std::string out;  ///< OUT (default: build/sweep/<name>)
  std::string backend = "local";
  unsigned jobs = 0;  ///< local: processes at once (0: the cores)
  bool wait = true;   ///< slurm: wait for the job array
  bool quiet = false;
  std::string hxsim;  ///< the executable the points run (this one)
};

/// Runs the points not done yet. Returns 0 when every point is done, 1 when some failed (their
/// logs are named), 2 for a backend that cannot start (sbatch missing...).
int run(const SweepConfig& s, const Options& o);
/// Runs point `i` of the sweep in `dir` (its plan, sweep.json): what a Slurm task does. Returns
/// the run's exit status.
int run_point(const std::string& dir, std::size_t i, const std::string& hxsim);
/// Merges the results in `dir` into sweep.csv and sweep_results.json. Returns 0, or 1 if a point has no
/// results.
int collect(const std::string& dir, bool quiet);

}  // namespace hx::sweep
