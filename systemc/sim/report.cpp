// report.cpp: a fabric-model run's results JSON (docs/simulator.md, "Results"): the derived
// config, the checks every model reports and this model's check details, traffic or collective
// results, and the run's speed; the analytical diameters the paths are checked against.
#include <algorithm>
#include <cstdio>
#include <map>
#include <stdexcept>
#include <tuple>
#include <utility>

#include "dim_layout.h"
#include "fabric_topology.h"
#include "netlist.h"
#include "network_cost.h"
#include "process_stats.h"
#include "text_file.h"

namespace hx {

namespace {

unsigned routers_crossed(const SimConfig& cfg, unsigned s, unsigned d) {
  const int ax = static_cast<int>(cfg.topology.board_x);
  const int dx = std::abs(static_cast<int>(s % ax) - static_cast<int>(d % ax));
  const int dy = std::abs(static_cast<int>(s / ax) - static_cast<int>(d / ax));
  return static_cast<unsigned>(dx + dy + 1);
}

// Min, median, mean, max, Jain's fairness index and a 10-bin histogram of the nodes' bandwidth in the
// window (received, or sent), in flits per cycle. The bins span [0, capacity], the local port's
// lanes: a 4-lane node can move up to 4 flits per cycle.
nlohmann::ordered_json node_distribution(std::vector<uint64_t> flits, double window, unsigned capacity) {
  nlohmann::ordered_json j;
  if (flits.empty() || window <= 0) return j;
  std::sort(flits.begin(), flits.end());
  const auto rate = [window](uint64_t f) { return static_cast<double>(f) / window; };
  j["min"] = rate(flits.front());
  j["median"] = rate(flits[flits.size() / 2]);
  double sum = 0, sum_sq = 0;
  for (uint64_t f : flits) {
    const double x = rate(f);
    sum += x;
    sum_sq += x * x;
  }
  j["mean"] = sum / static_cast<double>(flits.size());
  j["max"] = rate(flits.back());
  // Jain's index, (sum x)^2 / (n sum x^2): 1 when every node moves the same, 1/n when one moves all.
  j["fairness"] = sum_sq > 0 ? sum * sum / (static_cast<double>(flits.size()) * sum_sq) : 1.0;
  const double top = capacity > 0 ? capacity : 1;
  std::vector<unsigned> bins(10, 0);
  for (uint64_t f : flits) ++bins[std::min<std::size_t>(9, static_cast<std::size_t>(rate(f) / top * 10))];
  char what[96];
  std::snprintf(what, sizeof what, "10 bins of %g from 0 to %g flits per cycle", top / 10, top);
  j["histogram_bins"] = what;
  j["histogram"] = bins;
  return j;
}

}  // namespace

namespace {

// The traffic section of a synthetic-traffic run's results.
nlohmann::ordered_json traffic_results(const SimConfig& cfg, const TrafficResults& tr, bool fabric) {
  using nlohmann::ordered_json;
  const double window = static_cast<double>(tr.window_cycles);
  const double senders = tr.sending_nodes > 0 ? tr.sending_nodes : 1;
  ordered_json traffic;
  traffic["pattern"] = pattern_name(cfg.traffic.pattern);
  traffic["packet_length_flits"] = cfg.traffic.packet_length;
  traffic["offered"] = cfg.traffic.injection_rate;
  traffic["generated"] = tr.window_generated_flits / (window * senders);
  traffic["accepted"] = tr.window_accepted_flits / (window * senders);
  traffic["accepted_gbps_per_node"] =
      tr.window_accepted_flits / (window * senders) * cfg.router.flit_width_bits * cfg.router.clock_hz / 1e9;
  // A bounded source (traffic.source_queue) that is full skips its trial: the load it could not
  // offer, next to what it offered and what the network accepted.
  traffic["source_full_cycles"] = tr.source_full_cycles;
  traffic["source_full_share"] = static_cast<double>(tr.source_full_cycles) / (window * senders);
  traffic["avg_latency_cycles"] = tr.avg_latency;
  traffic["p50_latency_cycles"] = tr.p50_latency;
  traffic["p99_latency_cycles"] = tr.p99_latency;
  traffic["max_latency_cycles"] = tr.max_latency;
  traffic["avg_latency_ns"] = tr.avg_latency * 1e9 / cfg.router.clock_hz;
  if (fabric) {
    traffic["zero_load_latency_cycles"] = nullptr;  // the analytical form covers one board only
  } else {
    traffic["zero_load_latency_cycles"] = zero_load_latency(cfg);
  }
  traffic["receive_bandwidth"] = node_distribution(tr.node_accepted_flits, window, cfg.router.local_ports);
  traffic["send_bandwidth"] = node_distribution(tr.node_sent_flits, window, cfg.router.local_ports);
  if (fabric) {
    // The paper reports global bandwidth as a share of an accelerator's injection bandwidth
    // in one plane. A HammingMesh or torus plane gives an accelerator four network links, and
    // its router's local port carries one link's bandwidth, so the model's accelerators can
    // inject at most 25% of that. A fat-tree or Dragonfly plane gives an endpoint one link.
    const bool four_ports = fabric_topology(cfg.topology.kind).links_per_plane() == 4;  // N, E, S, W
    const double links = four_ports ? 4.0 : 1.0;
    ordered_json g;
    g["share_of_local_port"] = traffic["accepted"];
    g["share_of_plane_links"] = traffic["accepted"].get<double>() / links;
    g["note"] = four_ports ? "share_of_plane_links = accepted / 4: the paper's injection bandwidth is "
                             "the 4 links of a plane; the router's local port limits it to 0.25"
                           : "share_of_plane_links = accepted: an endpoint has one link per plane";
    traffic["global_bandwidth"] = g;
  }
  traffic["packets"] = tr.measured_packets;
  traffic["sending_nodes"] = tr.sending_nodes;
  traffic["window_cycles"] = tr.window_cycles;
  return traffic;
}

// Utilisation (flits per cycle) of a set of links over the run: mean, min and max.
nlohmann::ordered_json link_utilisation(const std::vector<FlitLink*>& links, uint64_t cycles) {
  nlohmann::ordered_json j;
  if (links.empty() || cycles == 0) return j;
  double sum = 0, lo = 1e300, hi = 0;
  for (const FlitLink* l : links) {
    const double u = static_cast<double>(l->flits_sent()) / static_cast<double>(cycles);
    sum += u;
    lo = std::min(lo, u);
    hi = std::max(hi, u);
  }
  j["links"] = links.size();
  j["mean"] = sum / static_cast<double>(links.size());
  j["min"] = lo;
  j["max"] = hi;
  return j;
}

// Each accelerator's links into and out of the network over the run, for heat maps over the
// system's layout (`hxsim plot`): accelerator n sits at (n mod x, n div x) of the grid; its load is
// the mean over its planes and lanes, in flits per cycle (a local link carries at most one).
nlohmann::ordered_json accelerator_link_loads(const SimConfig& cfg,
                                              const std::vector<std::unique_ptr<FlitLink>>& inject,
                                              const std::vector<std::unique_ptr<FlitLink>>& eject, uint64_t cycles) {
  const unsigned accels = cfg.node_count(), per = cfg.topology.planes * cfg.router.local_ports;
  std::vector<double> in(accels, 0), out(accels, 0);
  for (std::size_t i = 0; i < inject.size() && cycles > 0; ++i) {
    // Link i is endpoint i / lanes = plane * accels + accelerator.
    const unsigned a = static_cast<unsigned>(i / cfg.router.local_ports) % accels;
    in[a] += static_cast<double>(inject[i]->flits_sent()) / static_cast<double>(cycles) / per;
    out[a] += static_cast<double>(eject[i]->flits_sent()) / static_cast<double>(cycles) / per;
  }
  nlohmann::ordered_json j;
  j["unit"] = "flits per cycle per link, each accelerator's mean over its planes and lanes, over the whole run";
  j["grid"] = {cfg.system_x(), cfg.system_y()};
  j["injection"] = in;
  j["ejection"] = out;
  return j;
}

// A hierarchical collective's dimensions as the cycle model used them: each one's busy fraction
// (the flits its links carried over what they could carry in the collective's time, both
// directions: what an NPU sends into the dimension and what it receives) and the paper's
// average bandwidth utilisation, the busy fractions weighted by each dimension's bandwidth. Head
// flits count: they occupy the links as payload does.
void dimension_busy(nlohmann::ordered_json& job, const std::vector<Dimension>& dims, const SwitchFabric& fabric,
                    uint64_t cycles) {
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  std::vector<double> fractions;
  for (std::size_t k = 0; k < dims.size(); ++k) {
    const auto it = fabric.cables_by_class().find(dim_link_class(static_cast<unsigned>(k)));
    double flits = 0, capacity = 0;
    if (it != fabric.cables_by_class().end()) {
      for (const FlitLink* l : it->second) {
        flits += static_cast<double>(l->flits_sent());
        capacity += l->rate() * static_cast<double>(cycles);
      }
    }
    fractions.push_back(capacity > 0 ? flits / capacity : 0);
    out.push_back({{"dim", k + 1}, {"busy_fraction", fractions.back()}});
  }
  job["dims"] = out;
  job["bw_utilization"] = bandwidth_utilization(dims, fractions);
}

// The collective section of a collective run's results: per job its time, NCCL's algbw and
// busbw, the fraction of the theoretical peak, and the checks of its data.
nlohmann::ordered_json collective_results(const SimConfig& cfg, const CollectiveEngine& engine,
                                          const std::vector<CollectiveJobResult>& results, uint64_t cycles,
                                          const std::vector<FlitLink*>& inject, const std::vector<FlitLink*>& eject,
                                          const SwitchFabric* fabric) {
  using nlohmann::ordered_json;
  const double clock = cfg.router.clock_hz, flit_bytes = cfg.router.flit_width_bits / 8.0;
  const double injection = cfg.router.local_ports * flit_bytes * clock;  // bytes/s per accelerator
  const unsigned seg_flits = cfg.collective.segment_flits(cfg.router.flit_width_bits);
  ordered_json out;
  out["injection_GBps"] = injection / 1e9;
  out["payload_share_of_flits"] = static_cast<double>(seg_flits) / (seg_flits + 1);
  ordered_json jobs = ordered_json::array();
  for (unsigned i = 0; i < results.size(); ++i) {
    const CollectiveJob& job = engine.jobs()[i];
    const CollectiveJobResult& r = results[i];
    const CollectivePlan& plan = job.plan;
    const double seconds = r.end_cycle / clock;
    const double bytes = static_cast<double>(plan.elements) * 4;
    const double algbw = seconds > 0 ? bytes / seconds : 0;
    const double busbw = algbw * busbw_factor(plan.op, plan.ranks());
    ordered_json j;
    j["name"] = job.name;
    j["operation"] = collective_op_name(plan.op);
    j["algorithm"] = collective_algorithm_name(plan.algorithm);
    j["ranks"] = plan.ranks();
    j["grid"] = std::to_string(plan.cols) + "x" + std::to_string(plan.rows);
    if (!job.placement.empty()) j["placement"] = job.placement;
    j["flows"] = plan.flows.size();
    j["message_bytes"] = plan.elements * 4;
    j["segment_bytes"] = cfg.collective.segment_bytes;
    j["datatype"] = cfg.collective.int32 ? "int32" : "fp32";
    j["complete"] = r.complete;
    j["time_cycles"] = r.end_cycle;
    j["time_us"] = seconds * 1e6;
    j["algbw_GBps"] = algbw / 1e9;
    j["busbw_GBps"] = busbw / 1e9;
    if (plan.algorithm == CollectiveAlgorithm::Hierarchical) {
      // As the analytical backend defines it (model/analytic_backend.cpp): every dimension busy.
      const double peak = platform_bytes_per_s(fabric_topology(cfg.topology.kind).dimensions(cfg));
      j["peak_busbw_GBps"] = peak / 1e9;
      j["fraction_of_peak"] = busbw / peak;
      j["peak_definition"] = kHierarchicalPeakDefinition;
    } else {
      write_injection_peak(j, plan.op, algbw, busbw, injection);
    }
    j["packets"] = r.packets;
    j["payload_bytes"] = r.payload_bytes;
    j["output_elements"] = r.output_elements;
    j["wrong_elements"] = r.mismatched;
    j["coverage_errors"] = r.coverage_errors;
    if (plan.algorithm == CollectiveAlgorithm::Hierarchical && fabric != nullptr)
      dimension_busy(j, fabric_topology(cfg.topology.kind).dimensions(cfg), *fabric, r.end_cycle);
    jobs.push_back(j);
  }
  out["jobs"] = jobs;
  ordered_json links;
  links["injection"] = link_utilisation(inject, cycles);
  links["ejection"] = link_utilisation(eject, cycles);
  if (fabric != nullptr) links["fabric"] = link_utilisation(fabric->links(), cycles);
  links["unit"] = "flits per cycle over the whole run; links inside an RTL board plane are not counted";
  out["link_utilisation"] = links;
  return out;
}

// Every rank's output buffer, for tests and offline checks: a little-endian binary file of
// "HXCOLL01", then per job: u32 ranks, then per rank u64 elements and the element bits (u32 each).
void write_buffers(const std::string& path, const CollectiveEngine& engine) {
  const std::string tmp = path + ".tmp";
  FILE* f = std::fopen(tmp.c_str(), "wb");
  if (f == nullptr) throw std::runtime_error("cannot write " + tmp);
  bool ok = std::fwrite("HXCOLL01", 1, 8, f) == 8;
  for (unsigned j = 0; j < engine.jobs().size(); ++j) {
    const uint32_t ranks = engine.jobs()[j].plan.ranks();
    ok = ok && std::fwrite(&ranks, sizeof ranks, 1, f) == 1;
    for (unsigned r = 0; r < ranks; ++r) {
      const std::vector<uint32_t>& out = engine.output(j, r);
      const uint64_t n = out.size();
      ok = ok && std::fwrite(&n, sizeof n, 1, f) == 1;
      ok = ok && (n == 0 || std::fwrite(out.data(), sizeof(uint32_t), n, f) == n);
    }
  }
  ok = std::fclose(f) == 0 && ok;
  if (!ok || std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    throw std::runtime_error("cannot write " + path);
  }
}

// --link-loads: a CSV of every fabric link's flits between two cycles. The class is the
// config's links.<class> of a cable between two switches (cables_by_class), empty for the rest
// (edge ports, accelerator links).
void write_link_loads(const std::string& path, const SwitchFabric& fabric, uint64_t from, uint64_t to,
                      const std::vector<uint64_t>& at_from, const std::vector<uint64_t>& at_to) {
  std::map<const FlitLink*, std::string> cls;
  for (const auto& [name, links] : fabric.cables_by_class())
    for (const FlitLink* l : links) cls[l] = name;
  const std::vector<FlitLink*> links = fabric.links();
  std::string csv = "link,class,from_cycle,to_cycle,flits,flits_per_cycle\n";
  const double cycles = to > from ? static_cast<double>(to - from) : 1.0;
  char row[128];
  for (std::size_t i = 0; i < links.size() && i < at_to.size(); ++i) {
    const uint64_t flits = at_to[i] - (i < at_from.size() ? at_from[i] : 0);
    const auto it = cls.find(links[i]);
    std::snprintf(row, sizeof row, ",%llu,%llu,%llu,%.6f\n", static_cast<unsigned long long>(from),
                  static_cast<unsigned long long>(to), static_cast<unsigned long long>(flits),
                  static_cast<double>(flits) / cycles);
    csv += std::string(links[i]->name()) + "," + (it == cls.end() ? "" : it->second) + row;
  }
  write_text_atomically(path, csv);
}

}  // namespace

double zero_load_latency(const SimConfig& cfg) {
  if (fabric_topology(cfg.topology.kind).has_fabric()) return -1;
  const TrafficPattern pattern = make_pattern(cfg);
  double sum = 0;
  unsigned senders = 0;
  for (unsigned s = 0; s < cfg.node_count(); ++s) {
    if (!pattern.sends_traffic(s)) continue;
    sum += pattern.expected(s, [&](unsigned a, unsigned b) { return 2.0 * routers_crossed(cfg, a, b); });
    ++senders;
  }
  if (senders == 0) return 0;
  return sum / senders + 2.0 * cfg.local_link.latency_cycles + cfg.traffic.packet_length;
}

nlohmann::ordered_json Simulation::report(const RunRecord& r) {
  Netlist& n = *net_;
  AcceleratorArray& acc = *n.accelerators;
  const uint64_t cycles = r.cycles;
  const TrackerCounts& c = r.counts;
  const TrafficResults& tr = r.traffic;
  const RunEnd end = r.end;
  const uint64_t lost = r.lost, corrupted = r.corrupted, mismatched = r.mismatched;
  const uint64_t coverage_errors = r.coverage_errors;
  const bool collectives_complete = r.collectives_complete;
  const std::vector<CollectiveJobResult>& coll = r.collectives;
  const double wall = r.wall_seconds;
  const unsigned routers = cfg_.node_count() * cfg_.topology.planes;  // one per accelerator and plane

  using nlohmann::ordered_json;
  ordered_json j;
  j["hxsim"] = {{"command", "run"}, {"config", cfg_.source}, {"name", cfg_.name}, {"model", "fabric"}};
  ordered_json derived;
  const FabricTopology& topo = fabric_topology(cfg_.topology.kind);
  derived["kind"] = cfg_.topology.kind;
  if (cfg_.topology.board_x > 0)
    derived["board"] = std::to_string(cfg_.topology.board_x) + "x" + std::to_string(cfg_.topology.board_y);
  derived["rtl_model"] = n.variant ? "hx_board_plane " + n.variant->name : "none";
  derived["system"] = topo.describe(cfg_);
  topo.add_config(derived, cfg_);
  derived["endpoints"] = cfg_.node_count();
  derived["switches"] = n.fabric ? n.fabric->num_switches() : 0;
  derived["routing_summary"] = topo.routing_summary(cfg_);
  // Failed links and switches (faults.*, topology/faults.h), as the config names them.
  derived["failed_links"] = cfg_.faults.links;
  derived["failed_switches"] = cfg_.faults.switches;
  if (n.fabric) {
    derived["accelerators"] = cfg_.node_count();
    derived["cables"] = n.fabric->num_cables();
    derived["network"] = network_cost_json(n.fabric->equipment(), n.fabric->link_groups(), topo.analytic_spec(cfg_),
                                           cfg_.topology.planes);
    derived["global_link_latency_cycles"] = cfg_.global_link.latency_cycles;
    derived["switch_latency_cycles"] = cfg_.fabric_switch.latency_cycles;
    derived["switch_buffer_depth_flits"] = cfg_.fabric_switch.buffer_depth;
  }
  derived["clock_hz"] = cfg_.router.clock_hz;
  derived["cycle_ns"] = 1e9 / cfg_.router.clock_hz;
  derived["flit_payload_bits"] = cfg_.router.flit_width_bits;
  derived["local_ports"] = cfg_.router.local_ports;
  derived["link_word_bits"] = cfg_.link_word_bits();
  derived["local_link_latency_cycles"] = cfg_.local_link.latency_cycles;
  derived["vcs"] = cfg_.router.vcs;
  derived["buffer_depth_flits"] = cfg_.router.buffer_depth;
  derived["routing"] = cfg_.routing.algorithm;  // the board routers' mode on boards (the same names)
  derived["vc_policy"] = vc_policy_name(cfg_.router.vc_policy);
  derived["derivations"] = cfg_.derivations;
  j["config"] = derived;

  if (n.engine) {
    std::vector<FlitLink*> inject, eject;
    for (const auto& l : n.inject) inject.push_back(l.get());
    for (const auto& l : n.eject) eject.push_back(l.get());
    j["collective"] = collective_results(cfg_, *n.engine, coll, cycles, inject, eject, n.fabric.get());
  } else {
    j["traffic"] = traffic_results(cfg_, tr, n.fabric != nullptr);
  }
  j["accelerator_links"] = accelerator_link_loads(cfg_, n.inject, n.eject, cycles);
  if (!opt_.dump_buffers.empty() && n.engine) write_buffers(opt_.dump_buffers, *n.engine);
  if (!opt_.link_loads.empty() && n.fabric)
    write_link_loads(opt_.link_loads, *n.fabric, r.loads_from, r.loads_to, r.flits_at_from, r.flits_at_to);
  // The checks every hxsim run reports, with the same keys for every model.
  ordered_json checks;
  RunChecks rc;
  rc.injected = c.injected;
  rc.delivered = c.delivered;
  rc.lost = lost;
  rc.duplicated = c.duplicated;
  rc.corrupted = corrupted;
  rc.misdelivered = c.misdelivered;
  rc.deadlock = end == RunEnd::Deadlock;
  rc.passed = passed_;
  write_checks(checks, rc);
  j["checks"] = checks;
  // Link-level retry on the cables (links.global.bit_error_rate): the errors it recovered.
  if (n.fabric && cfg_.global_link.bit_error_rate > 0) {
    RetryTotals rt;
    rt.bit_error_rate = cfg_.global_link.bit_error_rate;
    for (const FlitLink* l : n.fabric->links()) rt.add(*l);
    ordered_json e;
    write_link_errors(e, rt);
    j["link_errors"] = e;
  }
  // What this model checks beyond them: the run's end, the flits, the credits, the collective's
  // data, the paths against the routing rules and the diameter.
  ordered_json details;
  details["unit"] = "packets, each checked end to end by the scoreboard (PacketTracker)";
  details["end"] = to_string(end);
  details["model_error"] = end == RunEnd::ModelError;
  details["flits_injected"] = c.flits_injected;
  details["flits_delivered"] = c.flits_delivered;
  details["credits_returned"] = acc.all_credits_home();
  if (n.engine) {
    details["collective_complete"] = collectives_complete;
    details["collective_wrong_elements"] = mismatched;
    details["collective_coverage_errors"] = coverage_errors;
    if (!cfg_.collective.jobs.empty()) details["foreign_board_entries"] = c.foreign_boards;
  }
  details["max_path_cables"] = c.max_path_cables;
  details["max_trees"] = c.max_trees;
  details["max_vc"] = c.max_vc;
  details["path_violations"] = c.path_violations;
  if (topo.diameter(cfg_) >= 0) details["diameter_formula"] = topo.diameter(cfg_);
  std::vector<std::string> messages = n.tracker.messages();
  if (n.engine) messages.insert(messages.end(), n.engine->messages().begin(), n.engine->messages().end());
  details["messages"] = messages;
  details["report"] = failure_;
  j["check_details"] = details;

  const double flit_hops = static_cast<double>(c.flit_hops);
  ordered_json sim;
  sim["cycles"] = cycles;
  sim["simulated_seconds"] = cycles / cfg_.router.clock_hz;
  sim["routers"] = routers;
  sim["switches"] = n.fabric ? n.fabric->num_switches() : 0;
  sim["flit_hops"] = c.flit_hops;
  // Per delivered flit, warmup and drain included like flit_hops.
  sim["avg_flit_hops"] = c.flits_delivered > 0 ? flit_hops / static_cast<double>(c.flits_delivered) : 0.0;
  // Transits through accelerators' routers (PacketTracker): a rail-only cluster's relays.
  sim["transit_packets"] = c.transit_packets;
  sim["transits"] = c.transits;
  sim["max_transits_per_packet"] = c.max_transits;
  // ... and what they cost: the mean latency of the measured packets with transits and without
  // (synthetic traffic's measurement window; null when there are none).
  const auto mean_or_null = [](uint64_t sum, uint64_t n) -> ordered_json {
    return n > 0 ? ordered_json(static_cast<double>(sum) / static_cast<double>(n)) : ordered_json(nullptr);
  };
  sim["transit_avg_latency_cycles"] = mean_or_null(c.transit_latency_sum, c.transit_measured);
  sim["direct_avg_latency_cycles"] = mean_or_null(c.direct_latency_sum, c.direct_measured);
  // The cable metres of the delivered packets' paths, where the builder lays its cables out
  // (CLEX, 3D torus); null elsewhere. Counted per packet head as it leaves each switch.
  if (n.fabric && n.fabric->has_cable_lengths()) {
    sim["cable_m"] = static_cast<double>(c.cable_um) * 1e-6;
    sim["avg_cable_m"] =
        c.delivered > 0 ? static_cast<double>(c.cable_um) * 1e-6 / static_cast<double>(c.delivered) : 0.0;
  } else {
    sim["cable_m"] = nullptr;
    sim["avg_cable_m"] = nullptr;
  }
  sim["wall_seconds"] = wall;
  sim["cycles_per_second"] = wall > 0 ? cycles / wall : 0.0;
  sim["router_cycles_per_second"] = wall > 0 ? cycles * static_cast<double>(routers) / wall : 0.0;
  sim["flit_hops_per_second"] = wall > 0 ? flit_hops / wall : 0.0;
  sim["peak_rss_mb"] = peak_rss_mb();
  sim["threads"] = n.boards ? n.boards->threads() : 1;
  // A partitioned run (rank_boundary.h): its processes, and the window of cycles between swaps.
  sim["ranks"] = n.boundary ? n.boundary->ranks() : 1;
  sim["rank_window_cycles"] = n.boundary ? ordered_json(n.boundary->window()) : ordered_json(nullptr);
  sim["rank_wait_seconds"] = n.boundary ? ordered_json(n.boundary->wait_seconds()) : ordered_json(nullptr);
  // How much of the planes' time was idle, so not evaluated (verilated_plane.h); the other
  // ranks' planes included.
  const uint64_t plane_cycles = n.boards ? static_cast<uint64_t>(n.boards->num_planes()) * n.boards->cycle() : 0;
  const uint64_t idle =
      (n.boards ? n.boards->skipped_plane_cycles() : 0) + (n.boundary ? n.boundary->peer_idle_plane_cycles() : 0);
  sim["idle_plane_cycles"] = idle;
  sim["idle_plane_share"] = plane_cycles > 0 ? static_cast<double>(idle) / static_cast<double>(plane_cycles) : 0.0;
  sim["seed"] = cfg_.run.seed;
  j["sim"] = sim;
  if (!opt_.trace_path.empty()) {
    j["trace"] = {{"fst", opt_.trace_path},
                  {"from_cycle", opt_.trace_from},
                  {"to_cycle", std::min<uint64_t>(opt_.trace_to, cycles)}};
  }
  return j;
}

}  // namespace hx
