// flow_graph.cpp: the flow model's channel graph and routes (flow_graph.h).
#include "flow_graph.h"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <tuple>

#include "board_geometry.h"
#include "dragonfly_plan.h"
#include "fabric_topology.h"
#include "torus_route.h"
#include "tree_builder.h"

namespace hx {

uint32_t FlowGraph::add_node(bool endpoint, std::string node_name) {
  name.push_back(std::move(node_name));
  board_x.push_back(-1);
  board_y.push_back(-1);
  tree_rows.push_back(-1);
  out.emplace_back();
  in.emplace_back();
  is_endpoint.push_back(endpoint ? 1 : 0);
  place_x.push_back(-1);
  place_y.push_back(-1);
  group.push_back(-1);
  port_channel.emplace_back();
  return static_cast<uint32_t>(out.size() - 1);
}

void FlowGraph::add_link(uint32_t a, uint32_t b, double capacity, double latency_ab, double latency_ba) {
  for (const auto& [u, v, lat] : {std::tuple<uint32_t, uint32_t, double>{a, b, latency_ab}, {b, a, latency_ba}}) {
    out[u].push_back(static_cast<uint32_t>(channels.size()));
    in[v].push_back(static_cast<uint32_t>(channels.size()));
    channels.push_back(FlowChannel{u, v, capacity, lat});
  }
}

NetworkDescription flow_netlist(const SimConfig& cfg) {
  const FabricTopology& topo = fabric_topology(cfg.topology.kind);
  // A fluid model has no router microarchitecture: a HammingMesh's boards are the same graph
  // whichever routers the cycle model runs (router.model), and FlowGraph adds their routers.
  SimConfig rtl = cfg;
  rtl.router.switch_model = false;
  NetworkDescription net = topo.network(rtl);
  if (net.empty())
    throw std::invalid_argument(cfg.source + ": the flow model needs a netlist of switches and links; the " +
                                topo.describe(cfg) + " has none");
  return net;
}

std::vector<uint32_t> group_routers(const FlowGraph& g, unsigned G) {
  std::vector<uint32_t> t;
  for (uint32_t v = 0; v < g.nodes(); ++v)
    if (!g.is_endpoint[v] && g.group[v] == static_cast<int32_t>(G)) t.push_back(v);
  return t;
}

namespace {

FlowGraph::Routing routing_of(const std::string& name) {
  if (name == "updown" || name == "dragonfly_minimal") return FlowGraph::Routing::Minimal;
  if (name == "dor_dateline") return FlowGraph::Routing::DimOrder;
  if (name == "ugal_l") return FlowGraph::Routing::Ugal;
  throw std::invalid_argument("the flow model does not know routing function '" + name +
                              "' (it knows updown, dragonfly_minimal, ugal_l, dor_dateline and the board routings)");
}

void set_port(FlowGraph& g, uint32_t node, unsigned port, uint32_t channel) {
  auto& pc = g.port_channel[node];
  if (pc.size() <= port) pc.resize(port + 1, -1);
  pc[port] = static_cast<int32_t>(channel);
}

}  // namespace

FlowGraph flow_graph(const SimConfig& cfg, const NetworkDescription& net) {
  if (cfg.topology.planes > 1)
    throw std::invalid_argument(cfg.source +
                                ": the flow model models one plane (planes never exchange packets, rates are per "
                                "port); set topology.planes: 1");
  FlowGraph g;
  g.link_rate = cable_rate(cfg).flits_per_cycle;
  const BoardGrid& grid = net.grid;
  const bool boards = grid.boards_x > 0 && !net.nodes.empty() &&
                      std::any_of(net.nodes.begin(), net.nodes.end(),
                                  [](const NodeDescription& n) { return n.kind == NodeDescription::Kind::BoardEdge; });
  // Board routers and their accelerators first (a HammingMesh), so endpoint e is node 2e + 1's
  // accelerator: endpoint e = board * (a * b) + y * a + x.
  // Latencies at zero load (FlowChannel::latency), in cycles: a link's latency plus its output
  // register, then the pipeline of the node it enters: a board router forwards a head the cycle
  // after it arrived (docs/router.md), a switch after its latency; an endpoint takes it. An edge
  // port (between a board router or an accelerator's NIC and its cable) adds its own link's
  // register each way. These are what the cycle model's parts add at zero load (measured against
  // it: collective_flow.h).
  constexpr double kRouterCycles = 1, kEdgePortCycles = 1;
  const double local = cfg.local_link.latency_cycles + 1.0;
  std::vector<double> delay;     // per node: its pipeline (0 for an endpoint)
  std::vector<uint32_t> router;  // HammingMesh: per endpoint its router node
  if (boards) {
    const unsigned a = grid.board_x, b = grid.board_y, nb = grid.boards_x * grid.boards_y;
    g.injection = cfg.router.local_ports * 1.0;  // each lane one flit per cycle
    for (unsigned e = 0; e < nb * a * b; ++e) {
      const std::string at = "board" + std::to_string(e / (a * b)) + "_" + std::to_string(e % (a * b) % a) + "_" +
                             std::to_string(e % (a * b) / a);
      router.push_back(g.add_node(false, at + "_router"));
      g.endpoints.push_back(g.add_node(true, at));
      for (const uint32_t v : {router.back(), g.endpoints.back()}) {
        g.board_x[v] = static_cast<int32_t>(e / (a * b) % grid.boards_x);
        g.board_y[v] = static_cast<int32_t>(e / (a * b) / grid.boards_x);
      }
      delay.resize(g.nodes(), 0.0);
      delay[router.back()] = kRouterCycles;
      g.add_link(g.endpoints.back(), router.back(), g.injection, local + kRouterCycles, local);
    }
    for (unsigned bi = 0; bi < nb; ++bi) {
      for (unsigned y = 0; y < b; ++y) {
        for (unsigned x = 0; x < a; ++x) {
          const unsigned e = bi * a * b + y * a + x;
          const double hop = local + kRouterCycles;
          if (x + 1 < a) g.add_link(router[e], router[e + 1], 1.0, hop, hop);
          if (y + 1 < b) g.add_link(router[e], router[e + a], 1.0, hop, hop);
        }
      }
    }
  }
  std::vector<uint32_t> node_of(net.nodes.size());
  std::string routing;
  for (std::size_t i = 0; i < net.nodes.size(); ++i) {
    const NodeDescription& n = net.nodes[i];
    switch (n.kind) {
      case NodeDescription::Kind::BoardEdge:
        node_of[i] = router.at(n.board * grid.board_x * grid.board_y + n.y * grid.board_x + n.x);
        break;
      case NodeDescription::Kind::Endpoint:
        node_of[i] = g.add_node(true, n.name);
        if (g.endpoints.size() <= n.endpoint) g.endpoints.resize(n.endpoint + 1, UINT32_MAX);
        g.endpoints[n.endpoint] = node_of[i];
        if (net.dragonfly) g.group[node_of[i]] = static_cast<int32_t>(net.dragonfly->group_of(n.endpoint));
        break;
      case NodeDescription::Kind::Switch:
        node_of[i] = g.add_node(false, n.name);
        if (routing.empty()) routing = n.routing;
        if (n.routing != routing)
          throw std::invalid_argument("the flow model routes a network of one routing function; it has " + routing +
                                      " and " + n.routing);
        g.place_x[node_of[i]] = static_cast<int32_t>(n.place.x);
        g.place_y[node_of[i]] = static_cast<int32_t>(n.place.y);
        g.torus_x = n.place.size_x;
        g.torus_y = n.place.size_y;
        if (n.place.plan != nullptr) g.group[node_of[i]] = static_cast<int32_t>(n.place.group);
        if (boards) g.tree_rows[node_of[i]] = n.place.addressing.rows ? 1 : 0;
        delay.resize(g.nodes(), 0.0);
        delay[node_of[i]] = n.latency;
        break;
    }
  }
  delay.resize(g.nodes(), 0.0);
  for (const LinkDescription& l : net.links) {
    const uint32_t a = node_of[l.a.node], b = node_of[l.b.node];
    set_port(g, a, l.a.port, static_cast<uint32_t>(g.channels.size()));
    set_port(g, b, l.b.port, static_cast<uint32_t>(g.channels.size() + 1));
    const NodeDescription& na = net.nodes[l.a.node];
    const bool edge_port = na.kind == NodeDescription::Kind::BoardEdge ||
                           (na.kind == NodeDescription::Kind::Endpoint && l.medium != Medium::Internal);
    const double wire = l.latency + 1.0 + (edge_port ? kEdgePortCycles : 0.0);
    g.add_link(a, b, l.rate.flits_per_cycle, wire + delay[b], wire + delay[a]);
  }
  if (!boards) {
    // An endpoint injects on all its links.
    g.injection = 0;
    if (!g.endpoints.empty())
      for (const uint32_t c : g.out[g.endpoints[0]]) g.injection += g.channels[c].capacity;
  }
  for (const uint32_t e : g.endpoints)
    if (e == UINT32_MAX || g.out[e].empty()) throw std::invalid_argument("the flow model: an endpoint has no link");
  g.routing_name = boards ? cfg.routing.algorithm + " + " + routing : routing;
  g.routing = routing_of(routing);
  g.board_trees = boards;
  if (net.dragonfly) {
    g.groups = net.dragonfly->groups;
    g.one_global_hop = true;
  }
  return g;
}

FlowRouter::FlowRouter(const FlowGraph& g) : g_(g), dist_(g.nodes()), order_(), paths_(g.nodes()), next_(g.nodes()) {
  order_.reserve(g.nodes());
  // Compressed adjacency: the searches below run once per destination, over the whole graph.
  const std::size_t V = g.nodes();
  in_start_.assign(V + 1, 0);
  out_start_.assign(V + 1, 0);
  for (std::size_t v = 0; v < V; ++v) {
    in_start_[v + 1] = in_start_[v] + static_cast<uint32_t>(g.in[v].size());
    out_start_[v + 1] = out_start_[v] + static_cast<uint32_t>(g.out[v].size());
  }
  in_from_.reserve(g.channels.size());
  out_ch_.reserve(g.channels.size());
  out_to_.reserve(g.channels.size());
  for (std::size_t v = 0; v < V; ++v) {
    for (const uint32_t c : g.in[v]) in_from_.push_back(g.channels[c].from);
    for (const uint32_t c : g.out[v]) {
      out_ch_.push_back(c);
      out_to_.push_back(g.channels[c].to);
    }
  }
}

void FlowRouter::search(const std::vector<uint32_t>& targets) {
  dim_order_search_ = false;
  target_group_ = g_.one_global_hop ? g_.group[targets.front()] : -1;
  target_bx_ = g_.board_trees ? g_.board_x[targets.front()] : -1;
  target_by_ = g_.board_trees ? g_.board_y[targets.front()] : -1;
  constexpr uint32_t kFar = std::numeric_limits<uint32_t>::max();
  std::fill(dist_.begin(), dist_.end(), kFar);
  order_.clear();
  for (const uint32_t t : targets) {
    dist_[t] = 0;
    paths_[t] = 1;
    order_.push_back(t);
  }
  // Backwards breadth-first from the targets: order_ is by distance. Endpoints are not
  // searched (they forward nothing); one with several links gets a distance as a source.
  for (std::size_t k = 0; k < order_.size(); ++k) {
    const uint32_t v = order_[k];
    if (dist_[v] > 0 && g_.is_endpoint[v]) continue;
    for (uint32_t i = in_start_[v]; i < in_start_[v + 1]; ++i) {
      const uint32_t u = in_from_[i];
      if (dist_[u] != kFar || !allowed(u, v)) continue;
      if (g_.is_endpoint[u] && g_.out[u].size() == 1) continue;
      dist_[u] = dist_[v] + 1;
      order_.push_back(u);
    }
  }
  // Shortest paths to the targets from each node, nearest first.
  auto next_hop = [&](uint32_t v, uint32_t w) {
    return dist_[w] + 1 == dist_[v] && (dist_[w] == 0 || !g_.is_endpoint[w]) && allowed(v, w);
  };
  for (const uint32_t v : order_) {
    if (dist_[v] == 0) continue;
    double p = 0;
    for (uint32_t i = out_start_[v]; i < out_start_[v + 1]; ++i)
      if (next_hop(v, out_to_[i])) p += paths_[out_to_[i]];
    paths_[v] = p;
  }
}

void FlowRouter::minimal(const std::vector<uint32_t>& targets, std::vector<double>& mass, std::vector<double>& load,
                         std::vector<uint32_t>* touched) {
  search(targets);
  // An endpoint forwards nothing, so a source endpoint's mass takes its one link first (an
  // endpoint of several links is searched like any node).
  auto take = [&](uint32_t c, double m) {
    if (touched && load[c] == 0) touched->push_back(c);
    load[c] += m;
  };
  for (const uint32_t e : g_.endpoints) {
    if (mass[e] == 0 || dist_[e] == 0 || g_.out[e].size() != 1) continue;
    const uint32_t c = g_.out[e].front();
    take(c, mass[e]);
    mass[g_.channels[c].to] += mass[e];
    mass[e] = 0;
  }
  auto next_hop = [&](uint32_t v, uint32_t w) {
    return dist_[w] + 1 == dist_[v] && (dist_[w] == 0 || !g_.is_endpoint[w]) && allowed(v, w);
  };
  // Push the mass down, farthest first: each next hop w of v takes paths(w) / paths(v), or
  // (Split::PerHop) an even share of v's next hops.
  for (std::size_t k = order_.size(); k-- > 0;) {
    const uint32_t v = order_[k];
    if (dist_[v] == 0 || mass[v] == 0) continue;
    unsigned hops = 0;  // PerHop: v's next hops
    if (split_ == Split::PerHop)
      for (uint32_t i = out_start_[v]; i < out_start_[v + 1]; ++i) hops += next_hop(v, out_to_[i]) ? 1 : 0;
    const double m = split_ == Split::PerHop ? mass[v] / hops : mass[v] / paths_[v];
    for (uint32_t i = out_start_[v]; i < out_start_[v + 1]; ++i) {
      const uint32_t w = out_to_[i];
      if (!next_hop(v, w)) continue;
      const double share = split_ == Split::PerHop ? m : m * paths_[w];
      take(out_ch_[i], share);
      mass[w] += share;
    }
    mass[v] = 0;
  }
  for (std::size_t v = 0; v < mass.size(); ++v)
    if (mass[v] > 0 && dist_[v] != 0) throw std::invalid_argument("the flow model: a source cannot reach its target");
}

void FlowRouter::search_dim_order(unsigned dst) {
  dim_order_search_ = true;
  const uint32_t target = g_.endpoints.at(dst);
  // The next channel of every node on the way to `dst` and each node's hops to it; the mass
  // then moves farthest first.
  const unsigned V = static_cast<unsigned>(g_.nodes());
  std::fill(next_.begin(), next_.end(), -1);
  constexpr uint32_t kUnknown = std::numeric_limits<uint32_t>::max();
  std::fill(dist_.begin(), dist_.end(), kUnknown);
  dist_[target] = 0;
  for (unsigned v = 0; v < V; ++v) {
    if (v == target) continue;
    if (g_.is_endpoint[v]) {
      next_[v] = static_cast<int32_t>(g_.out[v].front());
    } else {
      const unsigned port = dor_torus_port(static_cast<unsigned>(g_.place_x[v]), static_cast<unsigned>(g_.place_y[v]),
                                           g_.torus_x, g_.torus_y, dst);
      const auto& pc = g_.port_channel[v];
      next_[v] = port < pc.size() ? pc[port] : -1;
      if (next_[v] < 0)
        throw std::invalid_argument("the flow model: a torus router has no port " + std::to_string(port));
    }
  }
  std::vector<uint32_t> stack;
  for (unsigned v = 0; v < V; ++v) {
    uint32_t u = v;
    while (dist_[u] == kUnknown) {
      stack.push_back(u);
      u = g_.channels[static_cast<uint32_t>(next_[u])].to;
      if (stack.size() > V) throw std::invalid_argument("the flow model: a dimension-order route loops");
    }
    for (uint32_t d = dist_[u]; !stack.empty(); stack.pop_back()) dist_[stack.back()] = ++d;
  }
  // Farthest first, by buckets of distance.
  uint32_t far = 0;
  for (unsigned v = 0; v < V; ++v) far = std::max(far, dist_[v]);
  std::vector<uint32_t> start(far + 2, 0);
  for (unsigned v = 0; v < V; ++v) ++start[far - dist_[v] + 1];
  for (uint32_t k = 1; k < start.size(); ++k) start[k] += start[k - 1];
  order_.resize(V);
  for (unsigned v = 0; v < V; ++v) order_[start[far - dist_[v]]++] = v;
}

void FlowRouter::dim_order(unsigned dst, std::vector<double>& mass, std::vector<double>& load,
                           std::vector<uint32_t>* touched) {
  search_dim_order(dst);
  const uint32_t target = g_.endpoints.at(dst);
  for (const uint32_t v : order_) {
    if (v == target || mass[v] == 0) continue;
    const uint32_t c = static_cast<uint32_t>(next_[v]);
    if (touched && load[c] == 0) touched->push_back(c);
    load[c] += mass[v];
    mass[g_.channels[c].to] += mass[v];
    mass[v] = 0;
  }
}

}  // namespace hx
