#include "network_description.h"

namespace hx {

const char* medium_name(Medium m) {
  switch (m) {
    case Medium::Internal: return "internal";
    case Medium::Pcb: return "pcb";
    case Medium::Dac: return "dac";
    case Medium::Aoc: return "aoc";
  }
  return "?";
}

NetworkEquipment NetworkDescription::equipment(int plane) const {
  const auto in_plane = [plane](const NodeDescription& n) {
    return plane < 0 || n.plane == static_cast<unsigned>(plane);
  };
  NetworkEquipment e;
  e.unpriced = unpriced;
  // A router with its own accelerator (a torus's) is part of that accelerator, not equipment.
  for (const NodeDescription& n : nodes)
    e.switches += n.kind == NodeDescription::Kind::Switch && n.own_endpoint_ports == 0 && in_plane(n);
  for (const LinkDescription& l : links) {
    const NodeDescription& a = nodes[l.a.node];
    if (!in_plane(a.kind == NodeDescription::Kind::Endpoint ? nodes[l.b.node] : a)) continue;
    switch (l.medium) {
      case Medium::Internal: break;
      case Medium::Pcb: ++e.pcb; break;
      case Medium::Dac: ++e.dac; break;
      case Medium::Aoc: ++e.aoc; break;
    }
  }
  return e;
}

std::vector<LinkGroup> NetworkDescription::link_groups() const {
  std::vector<LinkGroup> groups;
  for (const LinkDescription& l : links) {
    LinkGroup* g = nullptr;
    for (LinkGroup& k : groups) {
      if (k.link_class == l.link_class && k.medium == l.medium && k.latency == l.latency &&
          k.flits_per_cycle == l.rate.flits_per_cycle)
        g = &k;
    }
    if (g == nullptr) g = &groups.emplace_back(LinkGroup{l.link_class, l.medium, l.latency, l.rate.flits_per_cycle, 0});
    ++g->count;
  }
  return groups;
}

}  // namespace hx
