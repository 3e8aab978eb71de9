// flow_graph.h: the flow model's view of a network: directed channels with capacities, built
// from the netlist the topology builder describes (network_description.h), and the loads the
// routing puts on them.
//
// Channels. Every netlist link is two channels, one each way, of the link's rate in flits per
// cycle. A HammingMesh's boards are RTL, not netlist nodes: the builder describes their edge
// ports (BoardEdge nodes) and their geometry (BoardGrid), and the graph adds what the RTL
// holds: a router per accelerator, the board's mesh links (one flit per cycle, like the RTL
// router's ports) and the accelerator's local port (router.local_ports lanes of one flit per
// cycle each). An edge port is no hop: its cable joins the router to the tree's switch. Only
// plane 0 is modelled: planes never exchange packets, and every rate is per port.
//
// Routing, by the routing function the netlist's switches name:
//   Minimal    (updown, dragonfly_minimal, the board routings xy / north_last / min_adaptive):
//              a flow is split evenly over all shortest paths of the graph, from its source to
//              its destination, that forward only through switches and routers (never through
//              another endpoint); in a Dragonfly, paths of one global link (into the destination's
//              group), as minimal Dragonfly routing goes. A next hop w of node v gets the share
//              paths(w) / paths(v).
//   DimOrder   (dor_dateline): the one dimension-order path (routing/torus_route.h).
//   Ugal       (ugal_l): minimal, or Valiant: to any router of an intermediate group by a
//              shortest path, then minimally to the destination, evenly over the groups other
//              than the source's and the destination's (flow_model.h picks between the two).
// Loads are per unit rate of every flow: load[c] is the sum over flows of the share of the flow
// on channel c.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "network_description.h"
#include "sim_config.h"

namespace hx {

struct FlowChannel {
  uint32_t from = 0, to = 0;
  double capacity = 1;  ///< flits per cycle
  /// Cycles from a head leaving `from` to its leaving `to` at zero load: the link's latency, its
  /// output register, and `to`'s pipeline (a switch's latency, a board router's cycle); what a
  /// collective's latency term sums along a hop (collective_flow.h).
  double latency = 0;
};

struct FlowGraph {
  enum class Routing : uint8_t { Minimal, DimOrder, Ugal };
  Routing routing = Routing::Minimal;
  std::string routing_name;  ///< the netlist's routing function ("updown", ...)
  std::vector<FlowChannel> channels;
  std::vector<std::vector<uint32_t>> out, in;  ///< per node: its channels
  std::vector<char> is_endpoint;               ///< per node: an endpoint, which never forwards
  std::vector<uint32_t> endpoints;             ///< endpoint number -> node
  std::vector<std::string> name;               ///< per node, for reports: the netlist's names
  double injection = 1;                        ///< an endpoint's injection capacity, flits/cycle
  double link_rate = 1;                        ///< a network link's rate, flits/cycle
  // DimOrder: per node its torus place (x, y; -1 for endpoints) and its port -> channel map.
  unsigned torus_x = 0, torus_y = 0;
  std::vector<int32_t> place_x, place_y;
  std::vector<std::vector<int32_t>> port_channel;
  // A Dragonfly: per node its group (-1: none), and the number of groups. Minimal routes take
  // one global link, into the target's group: a path through a third group can be as short in
  // hops (global, global, local against local, global, local) but is no minimal route.
  std::vector<int32_t> group;
  unsigned groups = 0;
  bool one_global_hop = false;
  // A HammingMesh: per node its board's place (bx, by; -1 for switches), and per switch its
  // tree's dimension (1 row, 0 column, -1 none). Its routing crosses a tree only to line the
  // packet up with the destination board in that dimension: it enters a row tree from a board
  // of another board column than the destination's and leaves it into the destination's board
  // column (column trees alike). So a packet never re-enters a board it left, nor leaves the
  // destination's board, as a shortest path of the graph otherwise could (a tree hop of 2 cables
  // can be shorter than 3 mesh hops across a 4x4 board).
  bool board_trees = false;
  std::vector<int32_t> board_x, board_y;
  std::vector<int8_t> tree_rows;

  std::size_t nodes() const { return out.size(); }
  unsigned endpoint_count() const { return static_cast<unsigned>(endpoints.size()); }
  uint32_t add_node(bool endpoint, std::string node_name = "");
  /// Both directions; latency a -> b and b -> a (FlowChannel::latency).
  void add_link(uint32_t a, uint32_t b, double capacity, double latency_ab = 0, double latency_ba = 0);
};

/// The graph of `net`, the network `cfg` describes. Throws std::invalid_argument for a netlist
/// the flow model cannot route (a routing function it does not know, a node without ports).
FlowGraph flow_graph(const SimConfig& cfg, const NetworkDescription& net);
/// The netlist cfg's topology builder describes, for the flow models; std::invalid_argument
/// (naming the config) for a system without one (a lone board).
NetworkDescription flow_netlist(const SimConfig& cfg);

/// The routers (not endpoints) of Dragonfly group G.
std::vector<uint32_t> group_routers(const FlowGraph& g, unsigned G);

/// Routes the flows of one destination (or one set of targets) and adds their loads.
class FlowRouter {
 public:
  explicit FlowRouter(const FlowGraph& g);
  /// How minimal() divides a node's flow among its next hops on shortest paths.
  enum class Split : uint8_t {
    Paths,   ///< in proportion to the shortest paths beyond each: an even split over the paths
    PerHop,  ///< evenly over the next hops (channels), whatever lies beyond them: what a switch
             ///< that spreads by its own outputs' room reaches in the mean
  };
  void set_split(Split s) { split_ = s; }

  /// Moves mass[v] (the total rate of the flows that start at node v) along shortest paths to
  /// the nearest of `targets` (Minimal), adding the rate on each channel to `load`; the
  /// mass ends on the targets (mass[t] holds what arrived at t). `touched` (optional) collects
  /// the channels given load.
  void minimal(const std::vector<uint32_t>& targets, std::vector<double>& mass, std::vector<double>& load,
               std::vector<uint32_t>* touched = nullptr);
  /// The same along the dimension-order path to endpoint `dst`.
  void dim_order(unsigned dst, std::vector<double>& mass, std::vector<double>& load,
                 std::vector<uint32_t>* touched = nullptr);

  /// Search the routes to `targets` (Minimal) or to endpoint `dst` (DimOrder) once, for
  /// push_one(); a later minimal() or dim_order() replaces the search.
  void search(const std::vector<uint32_t>& targets);
  void search_dim_order(unsigned dst);
  /// The search of the graph's own routing for the flows into endpoint `dst`.
  void search_endpoint(unsigned dst) {
    if (g_.routing == FlowGraph::Routing::DimOrder)
      search_dim_order(dst);
    else
      search({g_.endpoints[dst]});
  }
  /// Moves `m` from node `src` along the last search's routes, calling channel(c, amount) for
  /// each channel it takes and arrive(t, amount) where it ends. Costs the routes' size only.
  template <class Channel, class Arrive>
  void push_one(uint32_t src, double m, Channel&& channel, Arrive&& arrive);

 private:
  const FlowGraph& g_;
  Split split_ = Split::Paths;
  bool dim_order_search_ = false;
  int32_t target_group_ = -1;                ///< one_global_hop: the group of the search's targets
  int32_t target_bx_ = -1, target_by_ = -1;  ///< board_trees: the targets' board
  /// May a route take the channel from u to v? (Dragonfly: only into the target's group between
  /// groups. HammingMesh: into a tree only where it lines the packet up, out of it only there.)
  bool allowed(uint32_t u, uint32_t v) const {
    if (target_group_ >= 0 && g_.group[u] != g_.group[v] && g_.group[v] != target_group_) return false;
    if (target_bx_ < 0) return true;
    if (g_.tree_rows[v] >= 0 && g_.board_x[u] >= 0)  // router -> tree
      return g_.tree_rows[v] ? g_.board_x[u] != target_bx_ : g_.board_y[u] != target_by_;
    if (g_.tree_rows[u] >= 0 && g_.board_x[v] >= 0)  // tree -> router
      return g_.tree_rows[u] ? g_.board_x[v] == target_bx_ : g_.board_y[v] == target_by_;
    return true;
  }
  std::vector<double> one_mass_;
  std::vector<std::vector<uint32_t>> one_bucket_;
  std::vector<uint32_t> dist_, order_;
  std::vector<double> paths_;
  std::vector<int32_t> next_;
  std::vector<uint32_t> in_start_, in_from_, out_start_, out_ch_, out_to_;
};

/// Valiant's first leg: per group, a search to any of its routers (push_one along search G).
inline std::vector<std::unique_ptr<FlowRouter>> group_searches(const FlowGraph& g) {
  std::vector<std::unique_ptr<FlowRouter>> via;
  for (unsigned G = 0; G < g.groups; ++G) {
    via.push_back(std::make_unique<FlowRouter>(g));
    via.back()->search(group_routers(g, G));
  }
  return via;
}

template <class Channel, class Arrive>
void FlowRouter::push_one(uint32_t src, double m, Channel&& channel, Arrive&& arrive) {
  if (dim_order_search_) {
    for (uint32_t v = src; dist_[v] > 0;) {
      const uint32_t c = static_cast<uint32_t>(next_[v]);
      channel(c, m);
      v = g_.channels[c].to;
      if (dist_[v] == 0) arrive(v, m);
    }
    return;
  }
  if (g_.is_endpoint[src] && dist_[src] != 0 && g_.out[src].size() == 1) {
    const uint32_t c = g_.out[src].front();
    channel(c, m);
    src = g_.channels[c].to;
  }
  if (dist_[src] == 0) {
    arrive(src, m);
    return;
  }
  if (one_mass_.size() != g_.nodes()) one_mass_.assign(g_.nodes(), 0.0);
  if (one_bucket_.size() <= dist_[src]) one_bucket_.resize(dist_[src] + 1);
  one_mass_[src] = m;
  one_bucket_[dist_[src]].push_back(src);
  for (uint32_t d = dist_[src]; d > 0; --d) {
    for (const uint32_t v : one_bucket_[d]) {
      const double share = one_mass_[v] / paths_[v];
      one_mass_[v] = 0;
      for (uint32_t i = out_start_[v]; i < out_start_[v + 1]; ++i) {
        const uint32_t w = out_to_[i];
        if (dist_[w] + 1 != dist_[v] || (dist_[w] != 0 && g_.is_endpoint[w]) || !allowed(v, w)) continue;
        const double x = share * paths_[w];
        channel(out_ch_[i], x);
        if (dist_[w] == 0) {
          arrive(w, x);
        } else {
          if (one_mass_[w] == 0) one_bucket_[dist_[w]].push_back(w);
          one_mass_[w] += x;
        }
      }
    }
    one_bucket_[d].clear();
  }
}

}  // namespace hx
