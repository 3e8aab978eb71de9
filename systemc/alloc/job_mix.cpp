#include "job_mix.h"

#include <algorithm>
#include <chrono>
#include <numeric>
#include <stdexcept>

namespace hx::alloc {

double JobSizeDistribution::total_weight() const { return std::accumulate(weights.begin(), weights.end(), 0.0); }

double JobSizeDistribution::mean() const {
  double sum = 0;
  for (std::size_t i = 0; i < sizes.size(); ++i) sum += sizes[i] * weights[i];
  return sum / total_weight();
}

MixGenerator::MixGenerator(const JobSizeDistribution& dist, unsigned capacity) : capacity_(capacity) {
  if (dist.sizes.size() != dist.weights.size()) throw std::invalid_argument("sizes and weights differ in length");
  std::vector<std::size_t> order(dist.sizes.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(),
            [&dist](std::size_t a, std::size_t b) { return dist.sizes[a] < dist.sizes[b]; });
  double sum = 0;
  for (std::size_t i : order) {
    if (dist.sizes[i] == 0 || dist.sizes[i] > capacity || !(dist.weights[i] > 0)) continue;
    sizes_.push_back(dist.sizes[i]);
    sum += dist.weights[i];
    cumulative_.push_back(sum);
  }
  if (sizes_.empty())
    throw std::invalid_argument("no job size of the distribution fits " + std::to_string(capacity) + " boards");
}

unsigned MixGenerator::draw(Rng& rng) {
  ++drawn_;
  const double target = rng.uniform() * cumulative_.back();
  const auto it = std::upper_bound(cumulative_.begin(), cumulative_.end(), target);
  return sizes_[std::min<std::size_t>(it - cumulative_.begin(), sizes_.size() - 1)];
}

std::vector<unsigned> MixGenerator::next(Rng& rng) {
  std::vector<unsigned> mix;
  unsigned rest = capacity_;
  // Carried sizes first, in the order they were drawn; those that still do not fit stay.
  for (auto it = carry_.begin(); it != carry_.end();) {
    if (*it <= rest) {
      rest -= *it;
      mix.push_back(*it);
      it = carry_.erase(it);
    } else {
      ++it;
    }
  }
  while (rest >= sizes_.front()) {
    const unsigned s = draw(rng);
    if (s <= rest) {
      rest -= s;
      mix.push_back(s);
    } else {
      carry_.push_back(s);
    }
  }
  return mix;
}

std::vector<Board> random_failures(unsigned x, unsigned y, unsigned count, Rng& rng) {
  const uint64_t n = uint64_t{x} * y;
  if (count > n) throw std::invalid_argument("more failed boards than boards");
  std::vector<uint32_t> ids(n);
  std::iota(ids.begin(), ids.end(), 0u);
  std::vector<Board> out;
  out.reserve(count);
  for (unsigned i = 0; i < count; ++i) {
    const uint64_t j = i + rng.below_exact(n - i);
    std::swap(ids[i], ids[j]);
    out.push_back({ids[i] % x, ids[i] / x});
  }
  return out;
}

RunResult run_mixes(const MeshSpec& mesh, const JobSizeDistribution& dist, const RunSpec& spec,
                    const std::function<void(unsigned)>& progress) {
  const auto start = std::chrono::steady_clock::now();
  RunResult out;
  if (spec.failures >= uint64_t{mesh.x} * mesh.y) throw std::invalid_argument("every board failed");
  out.working_boards = mesh.x * mesh.y - spec.failures;
  Rng rng(spec.seed);
  MixGenerator gen(dist, out.working_boards);
  out.utilisation.reserve(spec.mixes);
  out.upper_fraction.reserve(spec.mixes);
  for (unsigned m = 0; m < spec.mixes; ++m) {
    // Failures first, then the mix: both come from the same stream in a fixed order.
    const std::vector<Board> failed = random_failures(mesh.x, mesh.y, spec.failures, rng);
    const std::vector<unsigned> mix = gen.next(rng);
    HxMeshAllocator alloc(mesh.x, mesh.y, failed, spec.heuristics, mesh.trees);
    const std::vector<std::optional<Placement>> placed = alloc.allocate_jobs(mix);
    double weighted = 0, weight = 0;
    for (const auto& p : placed) {
      if (!p) continue;
      ++out.placed;
      if (p->boards() < 2) continue;
      weighted += p->boards() * tree_traffic(*p, mesh.trees.row_trees, mesh.trees.col_trees).fraction();
      weight += p->boards();
    }
    out.jobs += mix.size();
    out.utilisation.push_back(static_cast<double>(alloc.used_boards()) / out.working_boards);
    out.upper_fraction.push_back(weight > 0 ? weighted / weight : 0);
    if (progress) progress(m + 1);
  }
  out.carried_at_end = gen.carried();
  out.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return out;
}

double quantile(const std::vector<double>& sorted, double q) {
  if (sorted.empty()) return 0;
  const double pos = q * static_cast<double>(sorted.size() - 1);
  const auto lo = static_cast<std::size_t>(pos);
  const std::size_t hi = std::min(lo + 1, sorted.size() - 1);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - static_cast<double>(lo));
}

Summary summarize(std::vector<double> values) {
  Summary s;
  s.count = values.size();
  if (values.empty()) return s;
  std::sort(values.begin(), values.end());
  s.mean = std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
  s.min = values.front();
  s.max = values.back();
  s.p1 = quantile(values, 0.01);
  s.p5 = quantile(values, 0.05);
  s.p25 = quantile(values, 0.25);
  s.median = quantile(values, 0.5);
  s.p75 = quantile(values, 0.75);
  s.p95 = quantile(values, 0.95);
  s.p99 = quantile(values, 0.99);
  return s;
}

}  // namespace hx::alloc
