// flow_model.cpp: saturating all-to-all at flow level (flow_model.h).
#include "flow_model.h"

#include <algorithm>
#include <cstdio>
#include <limits>
#include <memory>
#include <optional>
#include <stdexcept>

#include "analytic_backend.h"
#include "fabric_topology.h"
#include "flow_graph.h"
#include "maxmin.h"
#include "network_cost.h"

namespace hx {

namespace {

// The channels' loads with every flow at unit rate.
struct Loads {
  std::vector<double> load;
  double lambda = 0;      ///< min over channels of capacity / load: the flows' common rate
  uint32_t worst = 0;     ///< a channel that sets lambda
  unsigned at_worst = 0;  ///< channels within 0.1% of the worst utilisation
};

void finish(const FlowGraph& g, Loads& l) {
  l.lambda = std::numeric_limits<double>::infinity();
  for (uint32_t c = 0; c < l.load.size(); ++c) {
    if (l.load[c] <= 0) continue;
    const double r = g.channels[c].capacity / l.load[c];
    if (r < l.lambda) {
      l.lambda = r;
      l.worst = c;
    }
  }
  for (uint32_t c = 0; c < l.load.size(); ++c)
    if (l.load[c] > 0 && g.channels[c].capacity / l.load[c] <= l.lambda * 1.001) ++l.at_worst;
}

// Minimal (or dimension-order) routes of every flow: per destination, one unit from every other
// endpoint.
Loads direct_loads(const FlowGraph& g, FlowRouter& r) {
  Loads l;
  l.load.assign(g.channels.size(), 0.0);
  std::vector<double> mass(g.nodes(), 0.0);
  const unsigned N = g.endpoint_count();
  for (unsigned d = 0; d < N; ++d) {
    std::fill(mass.begin(), mass.end(), 0.0);
    for (unsigned s = 0; s < N; ++s)
      if (s != d) mass[g.endpoints[s]] = 1;
    if (g.routing == FlowGraph::Routing::DimOrder)
      r.dim_order(d, mass, l.load);
    else
      r.minimal({g.endpoints[d]}, mass, l.load);
  }
  finish(g, l);
  return l;
}

// Valiant routes of the inter-group flows (intra-group flows stay minimal): a flow from group S
// to group D goes, 1 / (groups - 2) of it through each other group G: minimally to any router of
// G, then minimally to its destination. Phase 1 depends only on S and G; what arrives in G from
// S, per unit sent by each endpoint of S, is arrive[G][S]. Phase 2 of destination d starts from
// the sum of those over G != D, S not in {G, D}: one push per destination.
Loads valiant_loads(const FlowGraph& g, FlowRouter& r) {
  const unsigned N = g.endpoint_count(), K = g.groups;
  std::vector<unsigned> size(K, 0);
  for (unsigned e = 0; e < N; ++e) ++size[static_cast<unsigned>(g.group[g.endpoints[e]])];
  Loads l;
  l.load.assign(g.channels.size(), 0.0);
  const double share = 1.0 / (K - 2);
  std::vector<std::vector<std::vector<double>>> arrive(K, std::vector<std::vector<double>>(K));
  std::vector<double> mass(g.nodes(), 0.0), scratch(g.channels.size(), 0.0);
  for (unsigned G = 0; G < K; ++G) {
    const std::vector<uint32_t> targets = group_routers(g, G);
    for (unsigned S = 0; S < K; ++S) {
      if (S == G) continue;
      // Each endpoint of S sends share of a unit to G for every destination outside S and G.
      const double sent = share * (N - size[S] - size[G]);
      std::fill(mass.begin(), mass.end(), 0.0);
      for (unsigned e = 0; e < N; ++e)
        if (g.group[g.endpoints[e]] == static_cast<int32_t>(S)) mass[g.endpoints[e]] = sent;
      r.minimal(targets, mass, l.load);
      arrive[G][S] = mass;
      if (sent > 0)
        for (double& m : arrive[G][S]) m /= sent;
    }
  }
  std::vector<std::vector<double>> start(K, std::vector<double>(g.nodes(), 0.0));
  for (unsigned D = 0; D < K; ++D)
    for (unsigned G = 0; G < K; ++G)
      for (unsigned S = 0; S < K; ++S) {
        if (G == D || S == G || S == D) continue;
        for (std::size_t v = 0; v < g.nodes(); ++v) start[D][v] += share * arrive[G][S][v];
      }
  for (unsigned d = 0; d < N; ++d) {
    const unsigned D = static_cast<unsigned>(g.group[g.endpoints[d]]);
    mass = start[D];
    for (unsigned s = 0; s < N; ++s)
      if (s != d && g.group[g.endpoints[s]] == static_cast<int32_t>(D)) mass[g.endpoints[s]] += 1;
    r.minimal({g.endpoints[d]}, mass, l.load);
  }
  finish(g, l);
  return l;
}

// One flow's channels and shares, for per-flow progressive filling.
FlowUse route_flow(const FlowGraph& g, FlowRouter& r, unsigned s, unsigned d, bool valiant, std::vector<double>& mass,
                   std::vector<double>& load) {
  std::vector<uint32_t> touched;
  std::fill(mass.begin(), mass.end(), 0.0);
  const int32_t S = g.group[g.endpoints[s]], D = g.group[g.endpoints[d]];
  if (valiant && S != D) {
    std::vector<double> at(g.nodes(), 0.0);
    for (unsigned G = 0; G < g.groups; ++G) {
      if (static_cast<int32_t>(G) == S || static_cast<int32_t>(G) == D) continue;
      std::fill(mass.begin(), mass.end(), 0.0);
      mass[g.endpoints[s]] = 1.0 / (g.groups - 2);
      r.minimal(group_routers(g, G), mass, load, &touched);
      for (std::size_t v = 0; v < at.size(); ++v) at[v] += mass[v];
    }
    mass = at;
  } else {
    mass[g.endpoints[s]] = 1;
  }
  if (g.routing == FlowGraph::Routing::DimOrder)
    r.dim_order(d, mass, load, &touched);
  else
    r.minimal({g.endpoints[d]}, mass, load, &touched);
  FlowUse u;
  for (const uint32_t c : touched) {
    u.channels.emplace_back(c, load[c]);
    load[c] = 0;
  }
  return u;
}

// The balanced shift as the paper runs it: N - 1 phases, phase i the permutation
// s -> (s + i) mod N. A phase's flows share the network by themselves; its rate is lambda_i =
// min over channels of capacity / load_i, and the exchange takes sum_i M / lambda_i. Returns
// every lambda_i (index i - 1). Valiant: the inter-group flows through the other groups.
std::vector<double> phase_rates(const FlowGraph& g, bool valiant) {
  const unsigned N = g.endpoint_count();
  const std::size_t C = g.channels.size();
  std::vector<float> load(static_cast<std::size_t>(N) * C, 0.0f);
  FlowRouter r(g);
  const std::vector<std::unique_ptr<FlowRouter>> via = valiant ? group_searches(g) : decltype(group_searches(g)){};
  const auto none = [](uint32_t, double) {};
  for (unsigned d = 0; d < N; ++d) {
    r.search_endpoint(d);
    const int32_t D = g.group[g.endpoints[d]];
    for (unsigned s = 0; s < N; ++s) {
      if (s == d) continue;
      float* L = &load[static_cast<std::size_t>((d + N - s) % N) * C];
      const auto add = [L](uint32_t c, double x) { L[c] += static_cast<float>(x); };
      const int32_t S = g.group[g.endpoints[s]];
      if (!valiant || S == D) {
        r.push_one(g.endpoints[s], 1.0, add, none);
        continue;
      }
      for (unsigned G = 0; G < g.groups; ++G) {
        if (static_cast<int32_t>(G) == S || static_cast<int32_t>(G) == D) continue;
        via[G]->push_one(g.endpoints[s], 1.0 / (g.groups - 2), add,
                         [&](uint32_t t, double x) { r.push_one(t, x, add, none); });
      }
    }
  }
  std::vector<double> rates(N - 1, std::numeric_limits<double>::infinity());
  for (unsigned i = 1; i < N; ++i) {
    const float* L = &load[static_cast<std::size_t>(i) * C];
    for (std::size_t c = 0; c < C; ++c)
      if (L[c] > 0) rates[i - 1] = std::min(rates[i - 1], g.channels[c].capacity / L[c]);
  }
  return rates;
}

// Per endpoint, flits per cycle over the whole exchange: N - 1 messages in sum_i 1 / lambda_i.
double phased_accepted(const std::vector<double>& rates) {
  double t = 0;
  for (const double r : rates) t += 1 / r;
  return static_cast<double>(rates.size()) / t;
}

const char* channel_kind(const FlowGraph& g, uint32_t c) {
  if (g.is_endpoint[g.channels[c].from]) return "injection";
  if (g.is_endpoint[g.channels[c].to]) return "ejection";
  return "network";
}

nlohmann::ordered_json loads_json(const FlowGraph& g, const Loads& l) {
  const unsigned N = g.endpoint_count();
  nlohmann::ordered_json j;
  j["flow_rate_flits_per_cycle"] = l.lambda;
  j["accepted"] = l.lambda * (N - 1);  // flits per endpoint per cycle, as the cycle model counts
  j["bottleneck"] = channel_kind(g, l.worst);
  j["bottleneck_channels"] = l.at_worst;
  j["bottleneck_example"] = g.name[g.channels[l.worst].from] + " -> " + g.name[g.channels[l.worst].to];
  return j;
}

// The all-to-all's graph and its channel loads under each routing the model reports: minimal
// (or dimension order); UGAL's all-Valiant alternative (more than two groups); the per-hop split
// of minimal routing. The all-to-all takes the better of minimal and Valiant.
struct AllToAllLoads {
  NetworkDescription net;
  FlowGraph g;
  Loads minimal;
  std::optional<Loads> valiant, per_hop;
  bool valiant_chosen() const { return valiant && valiant->lambda > minimal.lambda; }
  const Loads& chosen() const { return valiant_chosen() ? *valiant : minimal; }
};

AllToAllLoads all_to_all_loads(const SimConfig& cfg) {
  if (cfg.traffic.pattern != Pattern::AllToAll)
    throw std::invalid_argument(cfg.source + ": the flow model times traffic.pattern alltoall; this config has " +
                                pattern_name(cfg.traffic.pattern));
  AllToAllLoads a{flow_netlist(cfg), {}, {}, {}, {}};
  a.g = flow_graph(cfg, a.net);
  FlowRouter router(a.g);
  a.minimal = direct_loads(a.g, router);
  if (a.g.routing == FlowGraph::Routing::Ugal && a.g.groups > 2) a.valiant = valiant_loads(a.g, router);
  if (a.g.routing == FlowGraph::Routing::Minimal) {
    // The same flows split evenly per hop: the mean of a routing that picks among its next hops
    // by their own room (the trees' up ports, the board routers' minimal outputs), blind to
    // what lies beyond them. Where the paths behind the next hops differ (a tapered tree whose
    // up cables cannot be dealt evenly over its spines), it is below the even split over paths.
    router.set_split(FlowRouter::Split::PerHop);
    a.per_hop = direct_loads(a.g, router);
  }
  return a;
}

}  // namespace

std::string flow_channel_loads_csv(const SimConfig& cfg) {
  const AllToAllLoads a = all_to_all_loads(cfg);
  const FlowGraph& g = a.g;
  const Loads& chosen = a.chosen();
  std::string csv = "from,to,kind,capacity_flits_per_cycle,flits_per_cycle,per_hop_flits_per_cycle\n";
  char line[64];
  for (uint32_t c = 0; c < g.channels.size(); ++c) {
    const FlowChannel& ch = g.channels[c];
    csv += g.name[ch.from] + "," + g.name[ch.to] + "," + channel_kind(g, c);
    std::snprintf(line, sizeof line, ",%.6g,%.6f,", ch.capacity, chosen.lambda * chosen.load[c]);
    csv += line;
    if (a.per_hop) {
      std::snprintf(line, sizeof line, "%.6f", a.per_hop->lambda * a.per_hop->load[c]);
      csv += line;
    }
    csv += "\n";
  }
  return csv;
}

nlohmann::ordered_json flow_document(const SimConfig& cfg, const NetworkDescription& net, const FlowGraph& g) {
  using nlohmann::ordered_json;
  const FabricTopology& topo = fabric_topology(cfg.topology.kind);
  ordered_json j = model_document(cfg, "flow", g.endpoint_count());
  ordered_json config = j["config"];
  config["network"] = network_cost_json(net.equipment(), net.link_groups(), topo.analytic_spec(cfg), 1);
  config["routing_summary"] = topo.routing_summary(cfg);
  config["flow_channels"] = g.channels.size();
  config["injection_flits_per_cycle"] = g.injection;
  j["config"] = config;
  return j;
}

nlohmann::ordered_json flow_results(const SimConfig& cfg) {
  using nlohmann::ordered_json;
  const FabricTopology& topo = fabric_topology(cfg.topology.kind);
  const AllToAllLoads a = all_to_all_loads(cfg);
  const NetworkDescription& net = a.net;
  const FlowGraph& g = a.g;
  const unsigned N = g.endpoint_count();
  FlowRouter router(g);

  const Loads& chosen = a.chosen();
  const bool valiant = a.valiant_chosen();
  ordered_json routing;
  routing["function"] = g.routing_name;
  if (g.routing == FlowGraph::Routing::Ugal) {
    routing["minimal"] = loads_json(g, a.minimal);
    if (a.valiant) {
      const Loads& v = *a.valiant;
      routing["valiant"] = loads_json(g, v);
      // What a split between the two would give: a share f of every inter-group flow minimal,
      // the rest Valiant (loads mix linearly), f on a grid of 1/100. UGAL itself is the better
      // of f = 1 and f = 0; this shows what a per-flow choice could gain at most from mixing.
      double best_f = 1, best = a.minimal.lambda;
      for (int k = 0; k <= 100; ++k) {
        const double f = k / 100.0;
        double lam = std::numeric_limits<double>::infinity();
        for (std::size_t c = 0; c < g.channels.size(); ++c) {
          const double l = f * a.minimal.load[c] + (1 - f) * v.load[c];
          if (l > 0) lam = std::min(lam, g.channels[c].capacity / l);
        }
        if (lam > best) {
          best = lam;
          best_f = f;
        }
      }
      routing["best_mix"] = {{"minimal_fraction", best_f}, {"accepted", best * (N - 1)}};
    }
    routing["choice"] = valiant ? "valiant" : "minimal";
  }
  const unsigned links = topo.links_per_plane();
  if (a.per_hop) {
    const Loads& h = *a.per_hop;
    ordered_json ph = loads_json(g, h);
    ph["share_of_local_port"] = h.lambda * (N - 1) / g.injection;
    ph["share_of_plane_links"] = h.lambda * (N - 1) / (links * g.link_rate);
    routing["per_hop"] = ph;
  }

  ordered_json j = flow_document(cfg, net, g);

  ordered_json t;
  t["pattern"] = "alltoall";
  t["flows"] = static_cast<uint64_t>(N) * (N - 1);
  const ordered_json l = loads_json(g, chosen);
  for (const auto& [k, v] : l.items()) t[k] = v;
  ordered_json gb;
  gb["share_of_local_port"] = chosen.lambda * (N - 1) / g.injection;
  // The paper's injection bandwidth: a plane's network links (4 for a HammingMesh or torus
  // router, 1 for a fat-tree or Dragonfly endpoint), each at the cable rate.
  gb["share_of_plane_links"] = chosen.lambda * (N - 1) / (links * g.link_rate);
  t["global_bandwidth"] = gb;
  t["routing"] = routing;
  if (static_cast<uint64_t>(N) * g.channels.size() <= kMaxPhasedCells) {
    std::vector<double> rates = phase_rates(g, false);
    ordered_json ph;
    ph["phases"] = N - 1;
    if (g.routing == FlowGraph::Routing::Ugal && g.groups > 2) {
      const std::vector<double> val = phase_rates(g, true);
      ph["minimal_accepted"] = phased_accepted(rates);
      ph["valiant_accepted"] = phased_accepted(val);
      unsigned valiant_phases = 0;
      for (std::size_t i = 0; i < rates.size(); ++i) {
        if (val[i] > rates[i]) ++valiant_phases;
        rates[i] = std::max(rates[i], val[i]);
      }
      ph["valiant_phases"] = valiant_phases;
    }
    const double acc = phased_accepted(rates);
    ph["accepted"] = acc;
    ph["share_of_local_port"] = acc / g.injection;
    ph["share_of_plane_links"] = acc / (links * g.link_rate);
    ph["slowest_phase_accepted"] = *std::min_element(rates.begin(), rates.end());
    t["phased"] = ph;
  }
  if (N <= kMaxMinEndpoints) {
    std::vector<FlowUse> flows;
    std::vector<double> mass(g.nodes(), 0.0), load(g.channels.size(), 0.0);
    for (unsigned s = 0; s < N; ++s)
      for (unsigned d = 0; d < N; ++d)
        if (s != d) flows.push_back(route_flow(g, router, s, d, valiant, mass, load));
    std::vector<double> cap(g.channels.size());
    for (std::size_t c = 0; c < cap.size(); ++c) cap[c] = g.channels[c].capacity;
    const MaxMinResult mm = maxmin_rates(cap, flows);
    double sum = 0, lo = std::numeric_limits<double>::infinity();
    for (const double x : mm.rates) {
      sum += x;
      lo = std::min(lo, x);
    }
    t["maxmin"] = {{"min_flits_per_cycle", lo},
                   {"mean_flits_per_cycle", sum / static_cast<double>(mm.rates.size())},
                   {"levels", mm.levels}};
  }
  j["traffic"] = t;
  return j;
}

std::string flow_summary(const nlohmann::ordered_json& j) {
  const auto& cfg = j["config"];
  const auto& t = j["traffic"];
  std::string s;
  char line[512];
  std::snprintf(line, sizeof line, "hxsim model %s: %s (%u endpoints), flow level, %s\n",
                j["hxsim"]["config"].get<std::string>().c_str(), cfg["system"].get<std::string>().c_str(),
                cfg["endpoints"].get<unsigned>(), t["routing"]["function"].get<std::string>().c_str());
  s += line;
  std::snprintf(line, sizeof line,
                "  alltoall: %.6f flits/cycle per flow, accepted %.4f of the local port, global %.4f of the "
                "plane links (bottleneck: %u %s channels)\n",
                t["flow_rate_flits_per_cycle"].get<double>(),
                t["global_bandwidth"]["share_of_local_port"].get<double>(),
                t["global_bandwidth"]["share_of_plane_links"].get<double>(), t["bottleneck_channels"].get<unsigned>(),
                t["bottleneck"].get<std::string>().c_str());
  s += line;
  if (t["routing"].contains("choice")) {
    std::snprintf(line, sizeof line, "  UGAL: minimal %.4f, valiant %.4f flits/cycle per endpoint: %s\n",
                  t["routing"]["minimal"]["accepted"].get<double>(),
                  t["routing"].contains("valiant") ? t["routing"]["valiant"]["accepted"].get<double>() : 0.0,
                  t["routing"]["choice"].get<std::string>().c_str());
    s += line;
  }
  if (t.contains("phased")) {
    std::snprintf(line, sizeof line,
                  "  balanced shift, phase by phase: %.4f of the local port, %.4f of the plane links (slowest "
                  "phase %.4f flits/cycle per endpoint)\n",
                  t["phased"]["share_of_local_port"].get<double>(), t["phased"]["share_of_plane_links"].get<double>(),
                  t["phased"]["slowest_phase_accepted"].get<double>());
    s += line;
  }
  if (t.contains("maxmin")) {
    std::snprintf(line, sizeof line, "  max-min fair rates: min %.6f, mean %.6f flits/cycle (%u levels)\n",
                  t["maxmin"]["min_flits_per_cycle"].get<double>(), t["maxmin"]["mean_flits_per_cycle"].get<double>(),
                  t["maxmin"]["levels"].get<unsigned>());
    s += line;
  }
  return s;
}

}  // namespace hx
