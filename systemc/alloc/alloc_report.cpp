#include "alloc_report.h"

#include <algorithm>
#include <chrono>
#include <cstdarg>
#include <stdexcept>

namespace hx::alloc {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }

std::string format(const char* fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  char buf[512];
  std::vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  return buf;
}

std::string list_text(const std::vector<unsigned>& v) {
  std::string s = "[";
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

std::string shape_text(Shape s) { return std::to_string(s.u) + "x" + std::to_string(s.v); }

double median_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return quantile(v, 0.5);
}

nlohmann::ordered_json summary_json(const std::vector<double>& values) {
  const Summary s = summarize(values);
  nlohmann::ordered_json j;
  j["mean"] = s.mean;
  j["min"] = s.min;
  j["p1"] = s.p1;
  j["p5"] = s.p5;
  j["p25"] = s.p25;
  j["median"] = s.median;
  j["p75"] = s.p75;
  j["p95"] = s.p95;
  j["p99"] = s.p99;
  j["max"] = s.max;
  j["values"] = values;
  return j;
}

nlohmann::ordered_json tree_json(const hx::TreeShape& t, const TreeLeaves& leaves, unsigned positions,
                                 unsigned ports_per_board) {
  nlohmann::ordered_json j;
  j["ports"] = t.ports;
  j["switches"] = t.switches();
  j["leaves"] = t.leaves;
  j["leaf_down_ports"] = t.down;
  j["spines"] = t.spines;
  j["ports_per_board"] = ports_per_board;
  // Boards under one leaf when the leaves hold whole boards, else fractional.
  j["boards_per_leaf"] =
      leaves.single_switch() ? static_cast<double>(positions) : static_cast<double>(t.down) / ports_per_board;
  return j;
}

nlohmann::ordered_json placement_json(const Placement& p) {
  nlohmann::ordered_json j;
  j["job"] = p.job;
  j["shape"] = {p.u(), p.v()};
  j["rows"] = p.rows;
  j["cols"] = p.cols;
  // virtual (i, j) -> physical [column, row], row-major.
  nlohmann::ordered_json v = nlohmann::ordered_json::array();
  for (unsigned i = 0; i < p.u(); ++i) {
    nlohmann::ordered_json row = nlohmann::ordered_json::array();
    for (unsigned k = 0; k < p.v(); ++k) {
      const Board b = p.physical(i, k);
      row.push_back({b.col, b.row});
    }
    v.push_back(row);
  }
  j["virtual_to_physical"] = v;
  return j;
}

// The mesh as text: one line per row (row 0 first), '#' failed, '.' free, else the job id.
std::vector<std::string> mesh_map(const HxMeshAllocator& a) {
  unsigned width = 1;
  for (const auto& kv : a.jobs())
    width = std::max<unsigned>(width, static_cast<unsigned>(std::to_string(kv.first).size()));
  std::vector<std::string> out;
  for (unsigned r = 0; r < a.y(); ++r) {
    std::string line;
    for (unsigned c = 0; c < a.x(); ++c) {
      const Board b{c, r};
      std::string cell = a.is_failed(b) ? "#" : a.owner(b) ? std::to_string(*a.owner(b)) : ".";
      line += std::string(width + 1 - cell.size(), ' ') + cell;
    }
    out.push_back(line);
  }
  return out;
}

PlaceResult run_place(const AllocConfig& c) {
  const AllocConfig::Place& pl = c.place;
  const SystemConfig& sys = c.systems[pl.system];
  HxMeshAllocator alloc(sys.x, sys.y, pl.failed, pl.heuristics, sys.trees);
  PlaceResult out;
  for (const PlaceStep& st : pl.steps) {
    PlaceRecord rec;
    rec.step = st;
    switch (st.kind) {
      case PlaceStep::Kind::Shape: rec.placement = alloc.allocate(st.u, st.v); break;
      case PlaceStep::Kind::Size: rec.placement = alloc.allocate(st.boards); break;
      case PlaceStep::Kind::Release:
        if (!alloc.jobs().count(st.job))
          throw ConfigError(st.origin, st.path, "no such job", "the id of a job placed earlier and not yet released",
                            "'" + st.text + "'");
        alloc.release(st.job);
        rec.ok = true;
        break;
    }
    if (rec.placement) {
      rec.ok = true;
      rec.upper_fraction = tree_traffic(*rec.placement, sys.trees.row_trees, sys.trees.col_trees).fraction();
    }
    rec.free_after = alloc.free_boards();
    out.steps.push_back(std::move(rec));
  }
  const std::string problem = alloc.check();
  if (!problem.empty()) throw std::logic_error("allocator invariants broken:\n" + problem);
  out.map = mesh_map(alloc);
  out.working = alloc.working_boards();
  out.used = alloc.used_boards();
  for (const auto& kv : alloc.jobs()) out.final_jobs.push_back(kv.second);
  return out;
}

TimingResult run_timing(const AllocConfig& c, std::FILE* progress) {
  const AllocConfig::Timing& t = c.timing;
  const SystemConfig& sys = c.systems[t.system];
  TimingResult out;
  // The same failed boards and the same job mix for every heuristic set.
  Rng rng(c.seed);
  const std::vector<Board> failed = random_failures(sys.x, sys.y, t.failures, rng);
  out.working = sys.x * sys.y - t.failures;
  std::vector<unsigned> mix;
  if (t.fill) mix = MixGenerator(c.distribution, out.working).next(rng);

  for (const Heuristics& h : t.heuristics) {
    TimingResult::Set set;
    set.heuristics = h;
    const std::string name = heuristics_name(h);
    for (const Shape& s : t.shapes) {
      TimingResult::ShapeTime st;
      st.shape = s;
      std::vector<double> times;
      for (unsigned r = 0; r < t.repeats; ++r) {
        HxMeshAllocator alloc(sys.x, sys.y, failed, h, sys.trees);
        const auto t0 = Clock::now();
        const std::optional<Placement> p = alloc.allocate(s.u, s.v);
        times.push_back(seconds_since(t0));
        st.ok = p.has_value();
        if (p) st.placed = p->shape();
      }
      st.min_seconds = *std::min_element(times.begin(), times.end());
      st.median_seconds = median_of(times);
      if (progress)
        std::fprintf(progress, "hxsim alloc: timing %s, %s on %ux%u: %s in %.6f s\n", name.c_str(),
                     shape_text(s).c_str(), sys.x, sys.y, st.ok ? "placed" : "no room", st.min_seconds);
      set.shapes.push_back(st);
    }
    if (t.fill) {
      // allocate_jobs() in a loop of single allocations, to time each one.
      std::vector<std::size_t> order(mix.size());
      for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
      if (h.sort)
        std::stable_sort(order.begin(), order.end(), [&mix](std::size_t a, std::size_t b) { return mix[a] > mix[b]; });
      std::vector<double> totals;
      for (unsigned r = 0; r < t.repeats; ++r) {
        HxMeshAllocator alloc(sys.x, sys.y, failed, h, sys.trees);
        double slowest = 0;
        unsigned placed = 0;
        const auto t0 = Clock::now();
        for (std::size_t i : order) {
          const auto j0 = Clock::now();
          placed += alloc.allocate(mix[i]).has_value();
          slowest = std::max(slowest, seconds_since(j0));
        }
        totals.push_back(seconds_since(t0));
        if (totals.back() <= *std::min_element(totals.begin(), totals.end())) set.fill_slowest_job_seconds = slowest;
        set.fill_placed = placed;
        set.fill_utilisation = static_cast<double>(alloc.used_boards()) / out.working;
      }
      set.filled = true;
      set.fill_jobs = static_cast<unsigned>(mix.size());
      set.fill_min_seconds = *std::min_element(totals.begin(), totals.end());
      set.fill_median_seconds = median_of(totals);
      if (progress)
        std::fprintf(progress, "hxsim alloc: timing %s, fill of %ux%u: %u jobs in %.3f s\n", name.c_str(), sys.x, sys.y,
                     set.fill_jobs, set.fill_min_seconds);
    }
    out.sets.push_back(set);
  }
  return out;
}

}  // namespace

std::vector<RunRecord> planned_runs(const AllocConfig& c) {
  std::vector<RunRecord> runs;
  if (!c.experiments.enabled) return runs;
  for (std::size_t s = 0; s < c.systems.size(); ++s) {
    const unsigned mixes = c.systems[s].mixes ? c.systems[s].mixes : c.experiments.mixes;
    const auto add = [&](const Heuristics& h, unsigned failures, bool fig8) {
      for (RunRecord& r : runs) {
        if (r.system == s && r.heuristics == h && r.failures == failures) {
          (fig8 ? r.heuristics_experiment : r.failures_experiment) = true;
          return;
        }
      }
      RunRecord r;
      r.system = s;
      r.heuristics = h;
      r.failures = failures;
      r.mixes = mixes;
      (fig8 ? r.heuristics_experiment : r.failures_experiment) = true;
      runs.push_back(r);
    };
    for (const Heuristics& h : c.experiments.heuristics) add(h, 0, true);
    for (unsigned f : c.experiments.failures)
      for (const Heuristics& h : c.experiments.failure_heuristics) add(h, f, false);
  }
  return runs;
}

AllocResults run_alloc(const AllocConfig& c, std::FILE* progress) {
  const auto t0 = Clock::now();
  AllocResults out;
  if (c.place.enabled) out.place = run_place(c);
  out.runs = planned_runs(c);
  for (std::size_t i = 0; i < out.runs.size(); ++i) {
    RunRecord& r = out.runs[i];
    const SystemConfig& sys = c.systems[r.system];
    RunSpec spec;
    spec.heuristics = r.heuristics;
    spec.failures = r.failures;
    spec.mixes = r.mixes;
    spec.seed = c.seed;
    r.result = run_mixes(sys.mesh(), c.distribution, spec);
    if (progress) {
      std::fprintf(progress, "hxsim alloc: [%zu/%zu] %s, %s, %u failed: %u mixes in %.1f s, mean utilisation %.3f\n",
                   i + 1, out.runs.size(), sys.name.c_str(), heuristics_name(r.heuristics).c_str(), r.failures, r.mixes,
                   r.result.wall_seconds, summarize(r.result.utilisation).mean);
      std::fflush(progress);
    }
  }
  if (c.timing.enabled) out.timing = run_timing(c, progress);
  out.wall_seconds = seconds_since(t0);
  return out;
}

nlohmann::ordered_json alloc_json(const AllocConfig& c, const AllocResults& res) {
  nlohmann::ordered_json j;
  j["hxsim"] = {{"command", "alloc"}, {"config", c.source}, {"name", c.name}};
  j["description"] = c.description;
  j["seed"] = c.seed;
  j["max_aspect"] = c.max_aspect;
  if (!c.distribution.sizes.empty()) {
    j["distribution"] = {{"file", c.distribution.source},
                         {"sizes", c.distribution.sizes},
                         {"weights", c.distribution.weights},
                         {"mean_boards", c.distribution.mean()}};
  }
  nlohmann::ordered_json systems = nlohmann::ordered_json::array();
  for (const SystemConfig& s : c.systems) {
    nlohmann::ordered_json sj;
    sj["name"] = s.name;
    sj["board"] = {s.a, s.b};
    sj["global"] = {s.x, s.y};
    sj["boards"] = s.x * s.y;
    sj["accelerators"] = uint64_t{s.a} * s.b * s.x * s.y;
    sj["tree_span"] = hx::tree_span_name(s.span);
    sj["radix"] = s.radix;
    sj["taper"] = s.taper;
    sj["row_tree"] = tree_json(s.grid.rows.shape, s.trees.row_trees, s.x, s.grid.rows.ports);
    sj["col_tree"] = tree_json(s.grid.cols.shape, s.trees.col_trees, s.y, s.grid.cols.ports);
    systems.push_back(sj);
  }
  j["systems"] = systems;

  nlohmann::ordered_json runs = nlohmann::ordered_json::array();
  for (const RunRecord& r : res.runs) {
    nlohmann::ordered_json rj;
    rj["system"] = c.systems[r.system].name;
    rj["heuristics"] = heuristics_name(r.heuristics);
    rj["failures"] = r.failures;
    nlohmann::ordered_json exps = nlohmann::ordered_json::array();
    if (r.heuristics_experiment) exps.push_back("heuristics");
    if (r.failures_experiment) exps.push_back("failures");
    rj["experiments"] = exps;
    rj["mixes"] = r.mixes;
    rj["working_boards"] = r.result.working_boards;
    rj["jobs"] = {{"drawn", r.result.jobs}, {"placed", r.result.placed}, {"carried_at_end", r.result.carried_at_end}};
    rj["utilisation"] = summary_json(r.result.utilisation);
    rj["upper_fraction"] = summary_json(r.result.upper_fraction);
    rj["wall_seconds"] = r.result.wall_seconds;
    runs.push_back(rj);
  }
  j["runs"] = runs;

  if (res.place) {
    const PlaceResult& p = *res.place;
    nlohmann::ordered_json pj;
    pj["system"] = c.systems[c.place.system].name;
    pj["heuristics"] = heuristics_name(c.place.heuristics);
    nlohmann::ordered_json failed = nlohmann::ordered_json::array();
    for (const Board& b : c.place.failed) failed.push_back({b.col, b.row});
    pj["failed"] = failed;
    nlohmann::ordered_json steps = nlohmann::ordered_json::array();
    for (const PlaceRecord& r : p.steps) {
      nlohmann::ordered_json sj;
      sj["step"] = r.step.text;
      sj["ok"] = r.ok;
      if (r.placement) {
        sj["placement"] = placement_json(*r.placement);
        sj["upper_fraction"] = r.upper_fraction;
      }
      sj["free_after"] = r.free_after;
      steps.push_back(sj);
    }
    pj["steps"] = steps;
    pj["working_boards"] = p.working;
    pj["used_boards"] = p.used;
    pj["map"] = p.map;
    j["place"] = pj;
  }

  if (res.timing) {
    const TimingResult& t = *res.timing;
    const SystemConfig& sys = c.systems[c.timing.system];
    nlohmann::ordered_json tj;
    tj["system"] = sys.name;
    tj["global"] = {sys.x, sys.y};
    tj["failures"] = c.timing.failures;
    tj["working_boards"] = t.working;
    tj["repeats"] = c.timing.repeats;
    nlohmann::ordered_json sets = nlohmann::ordered_json::array();
    for (const TimingResult::Set& set : t.sets) {
      nlohmann::ordered_json hj;
      hj["heuristics"] = heuristics_name(set.heuristics);
      nlohmann::ordered_json shapes = nlohmann::ordered_json::array();
      for (const auto& s : set.shapes) {
        nlohmann::ordered_json sj;
        sj["request"] = {s.shape.u, s.shape.v};
        sj["placed"] = s.ok;
        if (s.ok) sj["shape"] = {s.placed.u, s.placed.v};
        sj["min_seconds"] = s.min_seconds;
        sj["median_seconds"] = s.median_seconds;
        shapes.push_back(sj);
      }
      hj["shapes"] = shapes;
      if (set.filled) {
        hj["fill"] = {{"jobs", set.fill_jobs},
                      {"placed", set.fill_placed},
                      {"utilisation", set.fill_utilisation},
                      {"min_seconds", set.fill_min_seconds},
                      {"median_seconds", set.fill_median_seconds},
                      {"slowest_job_seconds", set.fill_slowest_job_seconds}};
      }
      sets.push_back(hj);
    }
    tj["sets"] = sets;
    j["timing"] = tj;
  }
  j["wall_seconds"] = res.wall_seconds;
  return j;
}

std::string alloc_text(const AllocConfig& c, const AllocResults& res) {
  std::string s;
  if (!res.runs.empty()) {
    s += format("%-18s %-40s %6s %6s %7s %7s %7s %7s %7s %7s\n", "system", "heuristics", "failed", "mixes", "mean",
                "median", "p1", "p99", "min", "upper");
    for (const RunRecord& r : res.runs) {
      const Summary u = summarize(r.result.utilisation);
      const Summary f = summarize(r.result.upper_fraction);
      s += format("%-18s %-40s %6u %6u %7.4f %7.4f %7.4f %7.4f %7.4f %7.4f\n", c.systems[r.system].name.c_str(),
                  heuristics_name(r.heuristics).c_str(), r.failures, r.mixes, u.mean, u.median, u.p1, u.p99, u.min,
                  f.mean);
    }
    s += "  utilisation = boards allocated / working boards per mix; upper = mean share of the jobs' all-to-all\n"
         "  tree traversals that cross a tree's upper level (docs/allocation.md)\n";
  }
  if (res.place) {
    const PlaceResult& p = *res.place;
    const SystemConfig& sys = c.systems[c.place.system];
    s += format("place on %s (%ux%u boards, %s):\n", sys.name.c_str(), sys.x, sys.y,
                heuristics_name(c.place.heuristics).c_str());
    for (const PlaceRecord& r : p.steps) {
      if (r.step.kind == PlaceStep::Kind::Release) {
        s += format("  %-12s released, %u boards free\n", r.step.text.c_str(), r.free_after);
      } else if (!r.placement) {
        s += format("  %-12s no room, %u boards free\n", r.step.text.c_str(), r.free_after);
      } else {
        const Placement& pl = *r.placement;
        s += format("  %-12s job %u: %ux%u on rows %s, columns %s; upper %.3f\n", r.step.text.c_str(), pl.job, pl.u(),
                    pl.v(), list_text(pl.rows).c_str(), list_text(pl.cols).c_str(), r.upper_fraction);
      }
    }
    s += "  the mesh (row 0 first; '#' failed, '.' free, else the job):\n";
    for (const std::string& line : p.map) s += "   " + line + "\n";
    for (const Placement& pl : p.final_jobs) {
      s += format("  job %u: virtual (i, j) -> physical (column, row)\n", pl.job);
      for (unsigned i = 0; i < pl.u(); ++i) {
        std::string line = "   ";
        for (unsigned j = 0; j < pl.v(); ++j) {
          const Board b = pl.physical(i, j);
          line += format(" (%u,%u)", b.col, b.row);
        }
        s += line + "\n";
      }
    }
  }
  if (res.timing) {
    const TimingResult& t = *res.timing;
    const SystemConfig& sys = c.systems[c.timing.system];
    s += format("timing on %s (%ux%u boards, %u failed), fastest of %u:\n", sys.name.c_str(), sys.x, sys.y,
                c.timing.failures, c.timing.repeats);
    for (const TimingResult::Set& set : t.sets) {
      s += "  " + heuristics_name(set.heuristics) + ":\n";
      for (const auto& st : set.shapes)
        s += format("    %-12s %-14s %.6f s\n", shape_text(st.shape).c_str(),
                    st.ok ? ("as " + shape_text(st.placed)).c_str() : "no room", st.min_seconds);
      if (set.filled)
        s += format("    fill         %u jobs, %u placed, utilisation %.4f: %.3f s (slowest job %.6f s)\n",
                    set.fill_jobs, set.fill_placed, set.fill_utilisation, set.fill_min_seconds,
                    set.fill_slowest_job_seconds);
    }
  }
  return s;
}

}  // namespace hx::alloc
