// clex.cpp: the clex topology kind (clex_graph.h, docs/clex.md): its config keys and checks, and
// its cycle-level netlist: every node an accelerator with its own router (k + L - 1 ports:
// clex_plan.h), clique cables and one cable per long-range link, each with its level's
// bandwidth and a latency from its length in the cube-in-cube layout. With a rounds section,
// `hxsim model` runs the round-based model instead (model/clex_rounds.h).
#include <algorithm>
#include <cmath>

#include "clex_paths.h"
#include "clex_plan.h"
#include "clex_topology.h"
#include "fabric_topology.h"
#include "tree_builder.h"

namespace hx {

clex::ClexGraph clex_graph(const SimConfig& c) {
  return clex::ClexGraph(c.topology.clex.k, c.topology.clex.levels, c.topology.clex.pitch_m);
}

clex::LevelCapacities clex_capacities_bps(const SimConfig& c) {
  const auto& x = c.topology.clex;
  using Capacity = SimConfig::Topology::Clex::Capacity;
  switch (x.capacity) {
    case Capacity::Plain: return clex::plain_capacities(x.k, x.levels, c.global_link.bandwidth_bps);
    case Capacity::HopWeighted:
      return clex::hop_weighted_capacities(x.k, x.levels, x.node_bps, clex::balanced_hops(x.k, x.levels));
    case Capacity::Given: break;
  }
  clex::LevelCapacities v(1, 0.0);
  v.insert(v.end(), x.level_bps.begin(), x.level_bps.end());
  return v;
}

unsigned clex_cable_cycles(const SimConfig& c, double length_m) {
  return cable_latency(c) + static_cast<unsigned>(cycles_for(length_m / kClexSignalSpeed_mps, c.router.clock_hz));
}

const char* clex_capacity_name(const SimConfig& c) {
  using Capacity = SimConfig::Topology::Clex::Capacity;
  switch (c.topology.clex.capacity) {
    case Capacity::Plain: return "plain";
    case Capacity::HopWeighted: return "hop_weighted";
    case Capacity::Given: break;
  }
  return "given";
}

namespace {

std::string power_text(unsigned k, unsigned levels) { return std::to_string(k) + "^" + std::to_string(levels); }

std::string gib_text(double bytes) {
  char s[64];
  std::snprintf(s, sizeof s, "%.2f GiB", bytes / (1024.0 * 1024 * 1024));
  return s;
}

class ClexTopology : public FabricTopology {
 public:
  const char* kind() const override { return "clex"; }
  const char* description() const override {
    return "CLEX clique-expander (Lenzen, Wattenhofer): k^L nodes, cliques, one long-range link per level";
  }
  bool has_boards() const override { return false; }
  bool has_round_model() const override { return true; }
  NetworkDescription network(const SimConfig& cfg) const override {
    NetworkDescription net;
    net.clex = std::make_shared<ClexPlan>(clex_graph(cfg));
    ClexPlan& plan = *net.clex;
    const clex::ClexGraph& g = plan.graph;
    const clex::LevelCapacities bps = clex_capacities_bps(cfg);
    std::vector<unsigned> router(g.nodes());
    for (clex::Node n = 0; n < g.nodes(); ++n) {
      NodeDescription r;
      r.name = "r" + std::to_string(n);
      r.ports = plan.ports();
      r.latency = switch_pipeline(cfg);
      r.place.index = n;
      r.place.clex = &plan;
      r.place.seed = cfg.run.seed * 7919 + n + 1;  // clex_balanced's draws at this source
      router[n] = add_accelerator_router(net, cfg, n, std::move(r), 1);
    }
    for (clex::Node n = 0; n < g.nodes(); ++n)
      for (clex::Node m : g.neighbours(n)) {
        if (m < n) continue;  // each cable once
        const unsigned l = g.link_level(n, m);
        net.add_link({router[n], plan.port_to(n, m)}, {router[m], plan.port_to(m, n)},
                     clex_cable_cycles(cfg, g.length_m(n, m)),
                     LinkRate::from_bandwidth(bps[l], cfg.local_link.bandwidth_bps), "global",
                     l == 1 ? Medium::Dac : Medium::Aoc, g.length_m(n, m));
      }
    return net;
  }
  // The longest cable's round trip at the fastest level's rate.
  RoundTrip credit_round_trip(const SimConfig& c) const override {
    const clex::ClexGraph g = clex_graph(c);
    const clex::LevelCapacities bps = clex_capacities_bps(c);
    double longest = 0, rate = 0;
    for (unsigned l = 1; l <= g.levels(); ++l) {
      longest = std::max(longest, g.max_length_m(l));
      rate = std::max(rate, bps[l] / c.local_link.bandwidth_bps);
    }
    const unsigned cable = clex_cable_cycles(c, longest);
    const unsigned trip = 2 * (1 + cable) + switch_pipeline(c) + 2;
    return {std::max(1.0, rate) * trip, format_number(std::max(1.0, rate)) + " flits per cycle x (2 x (1 + " +
                                            std::to_string(cable) + ") longest cable + " +
                                            std::to_string(switch_pipeline(c)) + " pipeline + 2)"};
  }
  // One VC per long-range link a path of the scheme may take (clex_paths.h).
  unsigned max_path_vc(const SimConfig& c) const override {
    const clex::Scheme s = c.routing.algorithm == "clex_balanced" ? clex::Scheme::Balanced : clex::Scheme::Minimal;
    return clex::vcs_needed(s, c.topology.clex.levels) - 1;
  }
  // A CLEX router is the accelerator's own, one cycle like the torus's.
  unsigned switch_pipeline(const SimConfig&) const override { return 1; }
  std::string describe(const SimConfig& cfg) const override {
    const auto& x = cfg.topology.clex;
    return "CLEX k=" + std::to_string(x.k) + ", L=" + std::to_string(x.levels) + " (" +
           std::to_string(clex::node_count(x.k, x.levels)) + " nodes, cliques of " + std::to_string(x.k) +
           ", one long-range link per level)";
  }
  std::string routing_summary(const SimConfig& cfg) const override {
    return cfg.routing.algorithm == "clex_balanced"
               ? "randomised recursion (section II-D): a random owner of the long-range link per level, VC + 1 per "
                 "long-range link"
               : "hierarchical minimal: one clique hop to the owner of the link, across, one level down; VC + 1 per "
                 "long-range link";
  }
  Size size(const SimConfig& c) const override {
    const uint64_t n = clex::node_count(c.topology.clex.k, c.topology.clex.levels);
    return {static_cast<unsigned>(n), n ? 1u : 0u, 0};
  }
  // The coordinate patterns see each node where the cube-in-cube layout puts it (clex_graph.h:
  // grid(), in pitches), so that they mean the same as on a torus of the same extents (k=4, L=3:
  // 4x4x4; k=8, L=3: 8x8x8). None when k and L make no graph (check() says why) or more nodes
  // than a cycle-level run takes (only the extents are computed then).
  std::vector<unsigned> grid_extents(const SimConfig& c) const override {
    if (clex::node_count(c.topology.clex.k, c.topology.clex.levels) == 0) return {};
    const std::array<uint32_t, 3> e = clex_graph(c).extent();
    return {e[0], e[1], e[2]};
  }
  NodeGrid node_grid(const SimConfig& c) const override {
    const clex::ClexGraph g = clex_graph(c);
    const std::array<uint32_t, 3> e = g.extent();
    std::vector<unsigned> index(g.nodes());
    for (clex::Node n = 0; n < g.nodes(); ++n) {
      const std::array<uint32_t, 3> p = g.grid(n);
      index[n] = p[0] + e[0] * (p[1] + e[1] * p[2]);
    }
    return NodeGrid({e[0], e[1], e[2]}, std::move(index));
  }
  std::vector<std::string> routing_names() const override { return {"clex_minimal", "clex_balanced"}; }
  void check(const ConfigReader& reader, SimConfig& c) const override {
    forbid(reader, {"topology.board", "topology.global", "topology.endpoints", "topology.dragonfly", "topology.tree",
                    "topology.dims", "topology.sides", "topology.pitch"});
    require(reader, "topology.clex", "a map with k and levels");
    const auto& x = c.topology.clex;
    using Capacity = SimConfig::Topology::Clex::Capacity;
    // Too large is known from k^L before anything is built.
    const uint64_t nodes = clex::node_count(x.k, x.levels);
    if (nodes == 0)
      reader.field("topology.clex.levels")
          .fail_found("levels such that k^L is at most 2^32 - 1 nodes",
                      "k^L = " + power_text(x.k, x.levels) + " nodes");
    if (x.capacity == Capacity::Given && x.level_bps.size() != x.levels)
      reader.field("topology.clex.capacity")
          .fail_found("one bandwidth per level: " + std::to_string(x.levels) + " (topology.clex.levels)",
                      "a list of " + std::to_string(x.level_bps.size()));
    if (x.capacity == Capacity::HopWeighted)
      require(reader, "topology.clex.node_bandwidth", "a node's total bandwidth, which hop_weighted splits");
    else if (reader.present("topology.clex.node_bandwidth"))
      reader.field("topology.clex.node_bandwidth")
          .fail("no node_bandwidth, since topology.clex.capacity is not hop_weighted", "remove it");
    if (c.rounds.enabled) {
      const double bytes = static_cast<double>(clex::round_model_bytes(x.k, x.levels, c.rounds.messages)) +
                           static_cast<double>(clex::graph_bytes(x.k, x.levels));
      if (bytes * 8 > c.rounds.memory_bits)
        reader.field("topology.clex.levels")
            .fail_found("a CLEX whose round model fits rounds.memory (" + gib_text(c.rounds.memory_bits / 8) + ")",
                        power_text(x.k, x.levels) + " nodes x " + std::to_string(c.rounds.messages) +
                            " messages need " + gib_text(bytes));
      if (x.capacity != Capacity::Plain) {
        // A round moves one message per clique link: the other levels' capacities in clique links.
        const clex::LevelCapacities bps = clex_capacities_bps(c);
        for (unsigned l = 2; l <= x.levels; ++l)
          if (bps[l] / bps[1] < 1 - 1e-9)
            reader.field("topology.clex.capacity")
                .fail_found("level links at least as fast as a clique link in the round model",
                            "level " + std::to_string(l) + " at " + format_number(bps[l] / bps[1]) + " clique links");
      }
      return;
    }
    // A cycle-level run (`hxsim run`): every router is stepped, every level's cable must be a
    // rate the links take, and the VCs must cover the scheme's long-range hops.
    if (nodes > kClexMaxCycleNodes)
      reader.field("topology.clex.levels")
          .fail_found("at most " + std::to_string(kClexMaxCycleNodes) + " nodes in a cycle-level run (hxsim run)",
                      "k^L = " + power_text(x.k, x.levels) + " = " + std::to_string(nodes) + " nodes",
                      "add a rounds section for the round-based model of hxsim model");
    const clex::LevelCapacities bps = clex_capacities_bps(c);
    // A plain level-l link is k clique links: a large k takes it past what a link carries.
    const char* const at = reader.present("topology.clex.capacity") ? "topology.clex.capacity" : "topology.clex.k";
    for (unsigned l = 1; l <= x.levels; ++l)
      check_link_bandwidth(reader.field(at), bps[l], c, "level " + std::to_string(l) + "'s link");
    const clex::Scheme scheme = c.routing.algorithm == "clex_balanced" ? clex::Scheme::Balanced : clex::Scheme::Minimal;
    const unsigned need = clex::vcs_needed(scheme, x.levels);
    if (c.router.vcs < need)
      reader.field("router.vcs")
          .fail("at least " + std::to_string(need) + " for " + c.routing.algorithm +
                    " on L = " + std::to_string(x.levels) + " levels",
                "a packet moves to VC + 1 on each long-range link (docs/clex.md)");
  }
  void topology_values(const SimConfig& c, std::vector<std::pair<std::string, std::string>>& v) const override {
    const auto& x = c.topology.clex;
    v.emplace_back("topology.clex.k", std::to_string(x.k));
    v.emplace_back("topology.clex.levels", std::to_string(x.levels));
    if (x.capacity == SimConfig::Topology::Clex::Capacity::Given) {
      std::string list;
      for (double b : x.level_bps) list += (list.empty() ? "" : ", ") + format_bandwidth(b);
      v.emplace_back("topology.clex.capacity", "[" + list + "]");
    } else {
      v.emplace_back("topology.clex.capacity", clex_capacity_name(c));
    }
    if (x.capacity == SimConfig::Topology::Clex::Capacity::HopWeighted)
      v.emplace_back("topology.clex.node_bandwidth", format_bandwidth(x.node_bps));
    v.emplace_back("topology.clex.pitch", format_number(x.pitch_m) + " m");
  }
  void derivations(const SimConfig& c, std::vector<std::string>& d) const override {
    const clex::LevelCapacities bps = clex_capacities_bps(c);
    for (unsigned l = 1; l < bps.size(); ++l)
      d.push_back("clex level " + std::to_string(l) + " link: " + format_bandwidth(bps[l]) + " (" +
                  clex_capacity_name(c) + ") = " + format_number(bps[l] / bps[1]) + " clique links");
  }
};

}  // namespace

const FabricTopology& clex_topology() {
  static const ClexTopology t;
  return t;
}

}  // namespace hx
