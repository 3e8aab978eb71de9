// run.cpp: a fabric-model run: the clock runs in chunks until the accelerators' run control says
// the run ended (drained, deadlock, loss, model error), with a progress line on terminals; then
// the checks are judged and the report (report.cpp) written.
#include <chrono>
#include <cstdio>
#include <sstream>

#include "netlist.h"

namespace hx {

nlohmann::ordered_json Simulation::run() {
  Netlist& n = *net_;
  AcceleratorArray& acc = *n.accelerators;
  const uint64_t chunk = 4096;
  const auto t0 = std::chrono::steady_clock::now();
  const sc_core::sc_time period = n.clock->period();
  const uint64_t planned = cfg_.run.warmup_cycles + cfg_.run.measure_cycles;
  if (n.boundary && opt_.world->rank() != 0) {
    // A partitioned run's rank > 0 steps its planes until rank 0 says the run ended; rank 0
    // judges and reports it.
    while (!n.boundary->stopped()) {
      sc_core::sc_start(period * static_cast<double>(chunk));
      if (sc_core::sc_get_status() == sc_core::SC_STOPPED) break;
    }
    passed_ = true;
    return {};
  }
  ProgressLine progress(opt_.progress);
  // --link-loads: the fabric links' counts at the edges of the measurement window (a traffic
  // run) or of the run (a collective), so the chunks stop at the window's edges.
  RunRecord rec;
  const bool loads = !opt_.link_loads.empty() && n.fabric;
  const auto link_flits = [&] {
    std::vector<uint64_t> v;
    for (const FlitLink* l : n.fabric->links()) v.push_back(l->flits_sent());
    return v;
  };
  while (acc.end() == RunEnd::Running) {
    uint64_t step = chunk;
    if (loads && !n.engine)
      for (const uint64_t edge : {cfg_.run.warmup_cycles, planned})
        if (acc.cycle() < edge) step = std::min(step, edge - acc.cycle());
    sc_core::sc_start(period * static_cast<double>(step));
    if (loads && !n.engine && acc.cycle() == cfg_.run.warmup_cycles) {
      rec.loads_from = acc.cycle();
      rec.flits_at_from = link_flits();
    }
    if (loads && !n.engine && acc.cycle() == planned) {
      rec.loads_to = acc.cycle();
      rec.flits_at_to = link_flits();
    }
    if (sc_core::sc_get_status() == sc_core::SC_STOPPED) break;
    // How far: a collective by the outputs written; traffic by warm-up + measurement (the drain
    // that follows has no known length).
    const TrackerCounts& tc = n.tracker.counts();
    const uint64_t in_flight = tc.created - tc.delivered;
    if (n.engine) {
      progress.update(acc.cycle(), n.engine->fraction_done(), in_flight, "collective: " + n.engine->progress());
    } else {
      const double done = std::min(1.0, static_cast<double>(acc.cycle()) / static_cast<double>(planned));
      progress.update(acc.cycle(), done, in_flight, acc.phase_name());
    }
  }
  if (n.boards) n.boards->finish();      // planes of the last cycle still stepped by workers
  if (n.boundary) n.boundary->finish();  // the other ranks' planes of the last cycle
  progress.finish();
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  if (n.waveform) n.waveform->close();

  const TrackerCounts& c = n.tracker.counts();
  const RunEnd end = acc.end();
  const uint64_t lost = c.created - c.delivered;

  // A collective's wrong results count as corrupted data, like a flit that changed on its way.
  const std::vector<CollectiveJobResult> coll = n.engine ? n.engine->results() : std::vector<CollectiveJobResult>{};
  uint64_t mismatched = 0, coverage_errors = 0;
  bool collectives_complete = true;
  for (const CollectiveJobResult& r : coll) {
    mismatched += r.mismatched;
    coverage_errors += r.coverage_errors;
    collectives_complete = collectives_complete && r.complete;
  }
  const uint64_t corrupted = c.corrupted + mismatched;
  passed_ = end == RunEnd::Drained && lost == 0 && c.duplicated == 0 && corrupted == 0 && c.misdelivered == 0 &&
            c.path_violations == 0 && acc.all_credits_home() && collectives_complete && coverage_errors == 0 &&
            c.foreign_boards == 0;
  failure_ = acc.end_report();
  if (!passed_ && failure_.empty()) {
    std::ostringstream os;
    os << "checks failed: " << lost << " lost, " << c.duplicated << " duplicated, " << c.corrupted << " corrupted, "
       << c.misdelivered << " misdelivered, " << c.path_violations << " broke the two-tree/three-VC rule, "
       << c.foreign_boards << " entered a board of another job";
    if (n.engine)
      os << "; collective: " << mismatched << " output elements wrong, " << coverage_errors
         << " ranks with elements missing or written twice";
    for (const std::string& m : n.tracker.messages()) os << "\n  " << m;
    if (n.engine)
      for (const std::string& m : n.engine->messages()) os << "\n  " << m;
    failure_ = os.str();
  }

  if (loads) {
    // A collective's window is the run; a traffic run that ended early (or had no warm-up)
    // counts from cycle 0 or to its end.
    if (rec.flits_at_from.empty()) rec.flits_at_from.assign(n.fabric->links().size(), 0);
    if (rec.flits_at_to.empty()) {
      rec.loads_to = acc.end_cycle();
      rec.flits_at_to = link_flits();
    }
  }
  rec.wall_seconds = wall;
  rec.cycles = acc.end_cycle();
  rec.counts = c;
  rec.traffic = acc.results();
  rec.end = end;
  rec.lost = lost;
  rec.corrupted = corrupted;
  rec.collectives = coll;
  rec.mismatched = mismatched;
  rec.coverage_errors = coverage_errors;
  rec.collectives_complete = collectives_complete;
  return report(rec);
}

}  // namespace hx
