// collective_flow.cpp: ring-based collectives at flow level (collective_flow.h).
#include "collective_flow.h"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <memory>
#include <stdexcept>

#include "analytic_backend.h"
#include "collective_plan.h"
#include "fabric_topology.h"
#include "flow_graph.h"
#include "flow_model.h"
#include "maxmin.h"
#include "network_cost.h"

namespace hx {

namespace {

bool ring_based(CollectiveAlgorithm a) {
  return a == CollectiveAlgorithm::Ring || a == CollectiveAlgorithm::BidirectionalRing ||
         a == CollectiveAlgorithm::Hamiltonian || a == CollectiveAlgorithm::Torus2D;
}

// Flits of a chunk of `bytes` sent in segments of `segment` bytes: per segment one head flit and
// its body in flits of `flit` bytes (the last segment may be short).
uint64_t chunk_flits(uint64_t bytes, uint64_t segment, uint64_t flit) {
  const uint64_t full = bytes / segment, rest = bytes % segment;
  uint64_t f = full * ((segment + flit - 1) / flit + 1);
  if (rest > 0) f += (rest + flit - 1) / flit + 1;
  return f;
}

// One ring of one stage of one flow: its ranks in send order and its channel weights.
struct Ring {
  unsigned stage = 0, flow = 0;
  std::vector<unsigned> ranks;
  uint64_t flits = 0;         ///< the most flits one of its positions sends in the stage
  uint64_t first_packet = 0;  ///< flits of the first packet of a step (the latency term's)
  std::vector<std::pair<uint32_t, double>> use;
  /// UGAL: the same with every inter-group hop Valiant (intra-group hops stay minimal).
  std::vector<std::pair<uint32_t, double>> valiant;
};

using Uses = std::vector<std::pair<uint32_t, double>>;

// What one routing of the rings gives: the total time and, per stage, its report.
struct Timing {
  double time = 0;
  double with_latency = 0;  ///< the same with the hops' latency (collective_flow.h)
  nlohmann::ordered_json stages = nlohmann::ordered_json::array();
};

// Sums a ring's weights per channel (its hops may share channels).
void merge(std::vector<std::pair<uint32_t, double>>& use) {
  std::sort(use.begin(), use.end());
  std::size_t k = 0;
  for (std::size_t i = 0; i < use.size(); ++i) {
    if (k > 0 && use[k - 1].first == use[i].first)
      use[k - 1].second += use[i].second;
    else
      use[k++] = use[i];
  }
  use.resize(k);
}

// The flow graph's endpoint of each rank. The cycle model puts rank r (one job on every
// accelerator) on accelerator r, at (r mod system_x, r div system_x); the flow graph numbers a
// HammingMesh's endpoints board by board (flow_graph.h: board * a * b + y * a + x), every
// other system's as the netlist does, by accelerator.
std::vector<unsigned> endpoint_of_rank(const SimConfig& cfg, const NetworkDescription& net, unsigned ranks) {
  std::vector<unsigned> e(ranks);
  const bool boards = std::any_of(net.nodes.begin(), net.nodes.end(),
                                  [](const NodeDescription& n) { return n.kind == NodeDescription::Kind::BoardEdge; });
  const BoardGrid& grid = net.grid;
  for (unsigned r = 0; r < ranks; ++r) {
    if (!boards) {
      e[r] = r;
      continue;
    }
    const unsigned X = r % cfg.system_x(), Y = r / cfg.system_x(), a = grid.board_x, b = grid.board_y;
    const unsigned board = (Y / b) * grid.boards_x + X / a;
    e[r] = board * a * b + (Y % b) * a + X % a;
  }
  return e;
}

const char* channel_kind(const FlowGraph& g, uint32_t c) {
  if (g.is_endpoint[g.channels[c].from]) return "injection";
  if (g.is_endpoint[g.channels[c].to]) return "ejection";
  return "network";
}

// Per stage, the max-min fair rates of its rings (ring i's channel weights: use(i)); the stage
// waits for its slowest ring, the collective for the sum of its stages.
template <class UseOf>
Timing time_stages(const FlowGraph& g, const std::vector<Ring>& rings, unsigned stages, UseOf&& use) {
  std::vector<double> capacity(g.channels.size());
  for (std::size_t c = 0; c < capacity.size(); ++c) capacity[c] = g.channels[c].capacity;
  Timing out;
  for (unsigned s = 0; s < stages; ++s) {
    std::vector<uint32_t> ids;
    std::vector<FlowUse> flows;
    for (uint32_t i = 0; i < rings.size(); ++i) {
      if (rings[i].stage != s || rings[i].use.empty()) continue;
      ids.push_back(i);
      flows.push_back(FlowUse{use(i)});
    }
    if (ids.empty()) continue;
    const MaxMinResult mm = maxmin_rates(capacity, flows);
    double time = 0, with_latency = 0, hop_latency = 0, lo = std::numeric_limits<double>::infinity(), hi = 0;
    std::size_t slowest = 0;
    for (std::size_t i = 0; i < ids.size(); ++i) {
      const Ring& r = rings[ids[i]];
      const double rate = mm.rates[i];
      if (rate < lo) {
        lo = rate;
        slowest = i;
      }
      hi = std::max(hi, rate);
      time = std::max(time, static_cast<double>(r.flits) / rate);
      // The latency term: a step's first packet can leave only when the packet before it in
      // the ring has arrived (its reduced or forwarded data), so a step takes the longer of its
      // own flits and that packet plus the mean latency of the ring's hops; the last step's
      // data then still has a hop to go. That packet crosses each link at the link's own rate,
      // not the ring's share of it (rings that share a port interleave their packets there),
      // and an accelerator's lane sends one flit per cycle.
      double latency = 0, packet_rate = 1;
      for (const auto& [c, w] : flows[i].channels) {
        latency += w * g.channels[c].latency;
        packet_rate = std::min(packet_rate, g.channels[c].capacity);
      }
      const double hops = static_cast<double>(r.ranks.size()), steps = hops - 1;
      latency /= hops;
      const double own = static_cast<double>(r.flits) / steps / rate;
      const double step = std::max(own, static_cast<double>(r.first_packet) / packet_rate + latency);
      // Step k starts k steps into the stage; the last one, n - 2, is done when its own flits
      // have left and crossed one hop.
      const double stage = (steps - 1) * step + own + latency;
      if (stage > with_latency) {
        with_latency = stage;
        hop_latency = latency;
      }
    }
    // The slowest ring's bottleneck: its channel of the highest utilisation.
    std::vector<double> used(capacity.size(), 0.0);
    for (std::size_t i = 0; i < ids.size(); ++i)
      for (const auto& [c, w] : flows[i].channels) used[c] += mm.rates[i] * w;
    uint32_t worst = flows[slowest].channels.front().first;
    for (const auto& [c, w] : flows[slowest].channels)
      if (used[c] / capacity[c] > used[worst] / capacity[worst]) worst = c;
    out.time += time;
    out.with_latency += with_latency;
    out.stages.push_back(
        {{"stage", s},
         {"rings", ids.size()},
         {"time_cycles", time},
         {"time_with_latency_cycles", with_latency},
         {"mean_hop_latency_cycles", hop_latency},
         {"min_ring_rate_flits_per_cycle", lo},
         {"max_ring_rate_flits_per_cycle", hi},
         {"levels", mm.levels},
         {"bottleneck", channel_kind(g, worst)},
         {"bottleneck_example", g.name[g.channels[worst].from] + " -> " + g.name[g.channels[worst].to]}});
  }
  return out;
}

}  // namespace

bool collective_flow_applies(const SimConfig& cfg) {
  if (!cfg.collective.enabled || cfg.rounds.enabled || !ring_based(cfg.collective.algorithm)) return false;
  const FabricTopology& topo = fabric_topology(cfg.topology.kind);
  return topo.dimensions(cfg).empty();
}

nlohmann::ordered_json collective_flow_results(const SimConfig& cfg) {
  using nlohmann::ordered_json;
  const SimConfig::Collective& k = cfg.collective;
  if (!collective_flow_applies(cfg))
    throw std::invalid_argument(cfg.source + ": the collective flow model times ring, bidirectional_ring, " +
                                "hamiltonian and torus2d collectives on a fabric");
  if (!k.jobs.empty())
    throw std::invalid_argument(cfg.source + ": the collective flow model times one job on every accelerator; " +
                                "this config has collective.jobs");
  if (k.op != CollectiveOp::AllReduce && k.op != CollectiveOp::ReduceScatter && k.op != CollectiveOp::AllGather)
    throw std::invalid_argument(cfg.source + ": the collective flow model times allreduce, reduce_scatter and " +
                                "all_gather; this config has " + collective_op_name(k.op));
  const NetworkDescription net = flow_netlist(cfg);
  const FlowGraph g = flow_graph(cfg, net);
  const unsigned N = g.endpoint_count();
  const CollectivePlan plan = make_collective_plan(k.op, k.algorithm, cfg.system_x(), cfg.system_y(), k.elements());
  if (plan.ranks() != N)
    throw std::invalid_argument(cfg.source + ": the plan has " + std::to_string(plan.ranks()) + " ranks, the network " +
                                std::to_string(N) + " endpoints");

  const std::vector<unsigned> endpoint = endpoint_of_rank(cfg, net, N);
  const uint64_t flit_bytes = cfg.router.flit_width_bits / 8, segment = k.segment_bytes;
  // Every ring of every stage of every flow, and per destination endpoint the hops into it.
  std::vector<Ring> rings;
  unsigned stages = 0;
  struct Hop {
    uint32_t ring, src;  ///< src: the sending endpoint
  };
  std::vector<std::vector<Hop>> into(N);
  for (unsigned f = 0; f < plan.flows.size(); ++f) {
    const std::vector<Stage>& st = plan.flows[f].stages;
    stages = std::max(stages, static_cast<unsigned>(st.size()));
    for (unsigned s = 0; s < st.size(); ++s) {
      if (st[s].direct || st[s].kind == StageKind::Chain)
        throw std::invalid_argument(cfg.source + ": the collective flow model times rings; " +
                                    collective_algorithm_name(k.algorithm) + " has a direct or chain stage");
      for (const std::vector<unsigned>& members : st[s].rings) {
        Ring r;
        r.stage = s;
        r.flow = f;
        r.ranks = members;
        const unsigned n = static_cast<unsigned>(members.size());
        if (n > 1) {
          const uint64_t first = st[s].sent_chunk(members[0], 0).size() * 4;
          r.first_packet = chunk_flits(std::min<uint64_t>(first, segment), segment, flit_bytes);
        }
        for (unsigned i = 0; i < n && n > 1; ++i) {
          uint64_t flits = 0;
          for (unsigned step = 0; step + 1 < n; ++step)
            flits += chunk_flits(st[s].sent_chunk(members[i], step).size() * 4, segment, flit_bytes);
          r.flits = std::max(r.flits, flits);
          into[endpoint[members[(i + 1) % n]]].push_back({static_cast<uint32_t>(rings.size()), endpoint[members[i]]});
        }
        rings.push_back(std::move(r));
      }
    }
  }

  // Route every hop: one search per destination, each hop pushed along its routes. UGAL: also
  // Valiant, 1 / (groups - 2) of an inter-group hop through each group other than its own two,
  // minimally to any router of that group, then minimally to the destination.
  FlowRouter router(g);
  const bool ugal = g.routing == FlowGraph::Routing::Ugal && g.groups > 2;
  const std::vector<std::unique_ptr<FlowRouter>> via = ugal ? group_searches(g) : decltype(group_searches(g)){};
  const auto none = [](uint32_t, double) {};
  for (unsigned d = 0; d < N; ++d) {
    if (into[d].empty()) continue;
    router.search_endpoint(d);
    const int32_t D = g.group[g.endpoints[d]];
    for (const Hop& h : into[d]) {
      Uses& use = rings[h.ring].use;
      const auto add = [&use](uint32_t c, double x) { use.emplace_back(c, x); };
      router.push_one(g.endpoints[h.src], 1.0, add, none);
      if (!ugal) continue;
      Uses& val = rings[h.ring].valiant;
      const auto add_val = [&val](uint32_t c, double x) { val.emplace_back(c, x); };
      const int32_t S = g.group[g.endpoints[h.src]];
      if (S == D) {
        router.push_one(g.endpoints[h.src], 1.0, add_val, none);
        continue;
      }
      for (unsigned G = 0; G < g.groups; ++G) {
        if (static_cast<int32_t>(G) == S || static_cast<int32_t>(G) == D) continue;
        via[G]->push_one(g.endpoints[h.src], 1.0 / (g.groups - 2), add_val,
                         [&](uint32_t t, double x) { router.push_one(t, x, add_val, none); });
      }
    }
  }
  for (Ring& r : rings) {
    merge(r.use);
    merge(r.valiant);
  }

  // UGAL: every inter-group hop minimal or every one Valiant, the faster of the two (as the
  // all-to-all's flow_model.h chooses). Also reported: the best split of each inter-group hop
  // between the two (a share f minimal, on a grid of 1/20), what UGAL-L's per-packet choice
  // could reach at most. Other routings: the one routing.
  Timing timing = time_stages(g, rings, stages, [&](uint32_t i) { return rings[i].use; });
  ordered_json ugal_json;
  if (ugal) {
    Timing valiant = time_stages(g, rings, stages, [&](uint32_t i) { return rings[i].valiant; });
    double best_f = 1, best = timing.time;
    for (int step = 0; step < 20; ++step) {
      const double f = step / 20.0;
      const double t = time_stages(g, rings, stages, [&](uint32_t i) {
                         Uses u;
                         for (const auto& [c, w] : rings[i].use) u.emplace_back(c, f * w);
                         for (const auto& [c, w] : rings[i].valiant) u.emplace_back(c, (1 - f) * w);
                         merge(u);
                         return u;
                       }).time;
      if (t < best * (1 - 1e-12)) {
        best = t;
        best_f = f;
      }
    }
    const bool use_valiant = valiant.time < timing.time;
    ugal_json = {{"choice", use_valiant ? "valiant" : "minimal"},
                 {"minimal_time_cycles", timing.time},
                 {"valiant_time_cycles", valiant.time},
                 {"best_mix_minimal_fraction", best_f},
                 {"best_mix_time_cycles", best}};
    if (use_valiant) timing = std::move(valiant);
  }
  const double total = timing.time;

  ordered_json j = flow_document(cfg, net, g);

  // As the cycle model's report (sim/report.cpp) defines them.
  const double clock = cfg.router.clock_hz;
  const double injection = cfg.router.local_ports * static_cast<double>(flit_bytes) * clock;  // bytes/s
  const unsigned seg_flits = k.segment_flits(cfg.router.flit_width_bits);
  const double seconds = total / clock, bytes = static_cast<double>(plan.elements) * 4;
  const double algbw = bytes / seconds, busbw = algbw * busbw_factor(plan.op, plan.ranks());
  ordered_json out;
  out["injection_GBps"] = injection / 1e9;
  out["payload_share_of_flits"] = static_cast<double>(seg_flits) / (seg_flits + 1);
  ordered_json job;
  job["name"] = "job0";
  job["operation"] = collective_op_name(plan.op);
  job["algorithm"] = collective_algorithm_name(plan.algorithm);
  job["ranks"] = plan.ranks();
  job["grid"] = std::to_string(plan.cols) + "x" + std::to_string(plan.rows);
  job["flows"] = plan.flows.size();
  job["message_bytes"] = plan.elements * 4;
  job["segment_bytes"] = segment;
  job["routing"] = g.routing_name;
  job["time_cycles"] = total;
  job["time_us"] = seconds * 1e6;
  job["algbw_GBps"] = algbw / 1e9;
  job["busbw_GBps"] = busbw / 1e9;
  write_injection_peak(job, plan.op, algbw, busbw, injection);
  // The same with the hops' latency: the figure a finite message reaches (collective_flow.h).
  job["time_with_latency_cycles"] = timing.with_latency;
  job["time_with_latency_us"] = timing.with_latency / clock * 1e6;
  job["fraction_of_peak_with_latency"] = job["fraction_of_peak"].get<double>() * total / timing.with_latency;
  if (ugal) job["ugal"] = ugal_json;
  job["stages"] = timing.stages;
  out["jobs"] = ordered_json::array({job});
  j["collective"] = out;
  return j;
}

std::string collective_flow_summary(const nlohmann::ordered_json& j) {
  const auto& cfg = j["config"];
  const auto& job = j["collective"]["jobs"][0];
  std::string s;
  char line[512];
  std::snprintf(line, sizeof line, "hxsim model %s: %s (%u endpoints), flow level, %s\n",
                j["hxsim"]["config"].get<std::string>().c_str(), cfg["system"].get<std::string>().c_str(),
                cfg["endpoints"].get<unsigned>(), job["routing"].get<std::string>().c_str());
  s += line;
  std::snprintf(line, sizeof line, "  %s by %s, %llu B: %.0f cycles, algbw %.2f GB/s, %.2f%% of peak\n",
                job["operation"].get<std::string>().c_str(), job["algorithm"].get<std::string>().c_str(),
                static_cast<unsigned long long>(job["message_bytes"].get<uint64_t>()), job["time_cycles"].get<double>(),
                job["algbw_GBps"].get<double>(), 100 * job["fraction_of_peak"].get<double>());
  s += line;
  std::snprintf(line, sizeof line, "  with the hops' latency: %.0f cycles, %.2f%% of peak\n",
                job["time_with_latency_cycles"].get<double>(),
                100 * job["fraction_of_peak_with_latency"].get<double>());
  s += line;
  for (const auto& st : job["stages"]) {
    std::snprintf(line, sizeof line,
                  "  stage %u: %zu rings, %.0f cycles, ring rates %.4f-%.4f flits/cycle (slowest bound by %s: %s)\n",
                  st["stage"].get<unsigned>(), st["rings"].get<std::size_t>(), st["time_cycles"].get<double>(),
                  st["min_ring_rate_flits_per_cycle"].get<double>(), st["max_ring_rate_flits_per_cycle"].get<double>(),
                  st["bottleneck"].get<std::string>().c_str(), st["bottleneck_example"].get<std::string>().c_str());
    s += line;
  }
  return s;
}

}  // namespace hx
