// alloc_config.h: the YAML config of `hxsim alloc` and the job-size distribution file it names
// (docs/allocation.md has every key and the file format).
//
// An alloc config lists HammingMeshes (board size, boards, the shape of their fat trees) and says
// what to do with them: `experiments` (IV-B's utilisation runs over random job mixes), `place`
// (an explicit sequence of jobs and releases, printed with each job's virtual mapping) and/or
// `timing` (wall time of allocations on a large mesh, for `make bench`). It is read with the
// project's validating reader (systemc/config/config_reader.h): every bad input -- in the YAML or
// in the distribution file -- is a ConfigError naming file:line:column, the key path, what was
// expected and what was found. A config returned by a load function runs without input errors.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "config_reader.h"
#include "hxmesh_allocator.h"
#include "job_mix.h"
#include "network_description.h"
#include "sim_config.h"

namespace hx::alloc {

/// One HammingMesh of the config: HaxbMesh of x by y boards with its row and column trees.
struct SystemConfig {
  std::string name;
  unsigned a = 0, b = 0;  // accelerators per board: columns, rows
  unsigned x = 0, y = 0;  // boards: columns, rows
  hx::TreeSpan span = hx::TreeSpan::Line;
  unsigned radix = 64;  // fat-tree switch ports
  double taper = 1;     // up : down ports of a two-level tree's leaves
  unsigned mixes = 0;   // experiments: mixes on this system (0: experiments.mixes)
  hx::BoardGrid grid;   // the boards and trees, as the hammingmesh builder makes them
  Trees trees;          // leaf layouts for the locality heuristic and metric

  MeshSpec mesh() const { return {name, x, y, trees}; }
};

/// One step of a `place` sequence: allocate a job (by shape or by size) or release one.
struct PlaceStep {
  enum class Kind { Shape, Size, Release } kind = Kind::Size;
  unsigned u = 0, v = 0;  // Shape
  unsigned boards = 0;    // Size
  unsigned job = 0;       // Release: the id allocate gave
  std::string text;       // as written, for the report
  hx::Origin origin;      // where it was written, for errors found while running
  std::string path;       // its key path, "place.jobs[3]"
};

struct AllocConfig {
  std::string source;  // the file path, or the source name given to load_alloc_config_text
  std::string name;    // defaults to the file name without directory and extension
  std::string description;
  uint64_t seed = 1;
  double max_aspect = 8;
  JobSizeDistribution distribution;
  std::vector<SystemConfig> systems;

  struct Experiments {
    bool enabled = false;
    unsigned mixes = 1000;
    std::vector<Heuristics> heuristics;          // Fig. 8: each on every system, no failures
    std::vector<unsigned> failures;              // Fig. 10: these failure counts ...
    std::vector<Heuristics> failure_heuristics;  // ... with each of these sets
  } experiments;

  struct Place {
    bool enabled = false;
    std::size_t system = 0;  // index into systems
    Heuristics heuristics;
    std::vector<Board> failed;
    std::vector<PlaceStep> steps;
  } place;

  struct Timing {
    bool enabled = false;
    std::size_t system = 0;
    std::vector<Heuristics> heuristics;  // each set timed on its own
    unsigned failures = 0;
    std::vector<Shape> shapes;  // single allocations on the fresh mesh, each timed
    bool fill = true;           // fill the mesh with one job mix, timed
    unsigned repeats = 3;
  } timing;
};

/// Loads `path`, applies the overrides ("key.path=value", as for `hxsim run --set`) and
/// validates; reads the distribution file it names (relative to the config's directory; a path
/// given by --set is relative to the working directory). Throws ConfigError.
AllocConfig load_alloc_config(const std::string& path, const std::vector<std::string>& overrides = {});

/// The same for YAML text; `source_name` stands for the file name in errors and the default
/// name; a relative distribution path is relative to `base_dir`.
AllocConfig load_alloc_config_text(const std::string& yaml_text, const std::string& source_name,
                                   const std::vector<std::string>& overrides = {}, const std::string& base_dir = ".");

/// Reads a job-size distribution: one "SIZE WEIGHT" pair a line, SIZE a whole number of boards
/// in 1..2^20 and WEIGHT a positive number; '#' starts a comment; blank lines are skipped; each
/// size at most once. Errors are ConfigErrors at file:line:column under `key_path`; an
/// unreadable file or one without any pair is an error at the file.
JobSizeDistribution load_job_sizes(const std::string& path, const std::string& key_path = "distribution");
/// The same for text; `source_name` stands for the file name.
JobSizeDistribution parse_job_sizes(const std::string& text, const std::string& source_name,
                                    const std::string& key_path = "distribution");

/// The key paths an alloc config may hold, for documentation checks: "seed", "systems[].board", ...
std::vector<std::string> alloc_config_keys();

}  // namespace hx::alloc
