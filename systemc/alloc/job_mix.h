// job_mix.h: the allocation experiments of the HammingMesh paper's section IV-B
// (docs/allocation.md): job mixes drawn from a job-size distribution, allocated on a HammingMesh
// with randomly failed boards, and the distribution of the system utilisation over many mixes.
//
// A job mix is what a full-global-bandwidth system of the same number of working boards would
// run at once: job sizes drawn until they add up to the working boards. A drawn size that no
// longer fits is carried over to the next mix (IV-B), so no size is biased against. The draw
// order is the mix's arrival order. Every random number comes from one Rng seeded by the run's
// seed, so a run is a pure function of (mesh, distribution, heuristics, failures, mixes, seed).
//
// Pure C++17: no SystemC, no YAML.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <string>
#include <vector>

#include "hxmesh_allocator.h"
#include "rng.h"

namespace hx::alloc {

/// Every random draw of the allocator's experiments comes from hxsim's one generator (core/rng.h):
/// the same seed gives the same mixes and failed boards on every platform.
using Rng = hx::Rng;

/// Job sizes in boards with relative weights (the probability of drawing a size is its weight
/// over the total). Sizes are distinct; both lists have the same length.
struct JobSizeDistribution {
  std::string source;  // the file it was read from, for reports
  std::vector<unsigned> sizes;
  std::vector<double> weights;

  double total_weight() const;
  /// The expected job size in boards.
  double mean() const;
};

/// Draws job mixes for a system of `capacity` working boards. Only sizes up to the capacity are
/// ever drawn (the distribution conditioned on fitting the system: a larger job could never
/// run on it). Throws std::invalid_argument if no size fits.
class MixGenerator {
 public:
  MixGenerator(const JobSizeDistribution& dist, unsigned capacity);

  /// The next mix, in arrival order: first the sizes carried over from earlier mixes that fit,
  /// then fresh draws; a draw that does not fit in the rest is carried over. The mix ends when
  /// it holds exactly `capacity` boards, or when the rest is smaller than the smallest size.
  std::vector<unsigned> next(Rng& rng);
  std::size_t carried() const { return carry_.size(); }
  uint64_t drawn() const { return drawn_; }
  /// The smallest and largest size that can be drawn.
  unsigned min_size() const { return sizes_.front(); }
  unsigned max_size() const { return sizes_.back(); }

 private:
  unsigned draw(Rng& rng);

  unsigned capacity_;
  std::vector<unsigned> sizes_;     // ascending, <= capacity
  std::vector<double> cumulative_;  // running sums of their weights
  std::deque<unsigned> carry_;
  uint64_t drawn_ = 0;
};

/// `count` distinct boards of an x x y mesh, uniformly at random (a partial Fisher-Yates shuffle).
std::vector<Board> random_failures(unsigned x, unsigned y, unsigned count, Rng& rng);

/// A HammingMesh for the experiments.
struct MeshSpec {
  std::string name;
  unsigned x = 0, y = 0;  // boards: columns, rows
  Trees trees;
};

/// One run: `mixes` job mixes, each on a fresh mesh with `failures` randomly failed boards.
struct RunSpec {
  Heuristics heuristics;
  unsigned failures = 0;
  unsigned mixes = 1;
  uint64_t seed = 1;
};

struct RunResult {
  unsigned working_boards = 0;
  std::vector<double> utilisation;     // per mix: boards allocated / working boards
  std::vector<double> upper_fraction;  // per mix: the board-weighted mean of the placed jobs'
                                       // tree_traffic().fraction() (jobs of 2+ boards), or 0
  uint64_t jobs = 0;                   // jobs in all mixes
  uint64_t placed = 0;                 // of which allocated
  std::size_t carried_at_end = 0;      // draws still carried after the last mix
  double wall_seconds = 0;
};

/// Runs the mixes. The generator restarts from spec.seed in every run, so runs that differ only
/// in their heuristics see the same failed boards and the same job traces. `progress`, if set,
/// is called after each mix with the number done.
RunResult run_mixes(const MeshSpec& mesh, const JobSizeDistribution& dist, const RunSpec& spec,
                    const std::function<void(unsigned)>& progress = {});

/// Order statistics of a sample. Quantiles interpolate linearly between order statistics
/// (q at position q (n - 1) of the sorted sample: "type 7", numpy's default).
struct Summary {
  std::size_t count = 0;
  double mean = 0, min = 0, p1 = 0, p5 = 0, p25 = 0, median = 0, p75 = 0, p95 = 0, p99 = 0, max = 0;
};
Summary summarize(std::vector<double> values);
double quantile(const std::vector<double>& sorted, double q);

}  // namespace hx::alloc
