// netlist_instance.h: the one way a cycle model instantiates a netlist (network_description.h).
// Both network models go through it: the fabric's SwitchFabric::build and the NVSwitch model's
// NvSystem, and NvTopology numbers its switches by it, so that the switch a routing table names
// is the object the model made for that node.
//
// What every instantiation agrees on:
//   - switches are numbered in netlist order, 0, 1, ... over the switch nodes: the order the
//     model makes them in and steps them in (which fixes the results), and the number its routing
//     tables use;
//   - endpoints by their endpoint number (NodeDescription::endpoint), board edge ports by node;
//   - links in netlist order, each once, with both ends resolved to those numbers; a failed link
//     (faults.links) is skipped: installed, never built, so the ports at its ends stay unconnected.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "network_description.h"

namespace hx {

/// One end of a link, resolved: what it is, its number among its kind (a switch's ordinal, an
/// endpoint's number, a board edge's node index), the port there, and its node.
struct NetlistEnd {
  NodeDescription::Kind kind;
  unsigned index = 0;
  unsigned port = 0;
  const NodeDescription* node = nullptr;
};

/// The numbering of a netlist's nodes that every model instantiates it by.
class NetlistNumbering {
 public:
  explicit NetlistNumbering(const NetworkDescription& net) : net_(net), index_(net.nodes.size()) {
    for (std::size_t i = 0; i < net.nodes.size(); ++i) {
      const NodeDescription& n = net.nodes[i];
      switch (n.kind) {
        case NodeDescription::Kind::Switch: index_[i] = switches_++; break;
        case NodeDescription::Kind::Endpoint:
          index_[i] = n.endpoint;
          ++endpoints_;
          break;
        case NodeDescription::Kind::BoardEdge: index_[i] = static_cast<unsigned>(i); break;
      }
    }
  }
  unsigned switches() const { return switches_; }
  unsigned endpoints() const { return endpoints_; }
  /// Node i's number among its kind.
  unsigned index(unsigned node) const { return index_[node]; }
  NetlistEnd end(PortRef r) const { return {net_.nodes[r.node].kind, index_[r.node], r.port, &net_.nodes[r.node]}; }

 private:
  const NetworkDescription& net_;
  std::vector<unsigned> index_;
  unsigned switches_ = 0, endpoints_ = 0;
};

/// Instantiates `net` into `model`: model.make_switch(s, node) for every switch node, in netlist
/// order (s = 0, 1, ...), then model.connect(l, link, a, b) for every working link l, in netlist
/// order. A link's b end is always a switch (builders list the end nearer the endpoints first);
/// a link whose b end is not is a builder's bug, refused with the node's name.
template <class Model>
void instantiate(const NetworkDescription& net, Model& model) {
  const NetlistNumbering numbering(net);
  for (unsigned i = 0; i < net.nodes.size(); ++i)
    if (net.nodes[i].kind == NodeDescription::Kind::Switch) model.make_switch(numbering.index(i), net.nodes[i]);
  for (unsigned l = 0; l < net.links.size(); ++l) {
    const LinkDescription& link = net.links[l];
    if (link.failed) continue;
    const NetlistEnd a = numbering.end(link.a), b = numbering.end(link.b);
    if (b.kind != NodeDescription::Kind::Switch)
      throw std::logic_error("network description: link from " + a.node->name + " ends at no switch");
    model.connect(l, link, a, b);
  }
}

}  // namespace hx
