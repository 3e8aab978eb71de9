#include "tree_builder.h"

namespace hx {

unsigned cable_latency(const SimConfig& cfg) { return cfg.global_link.latency_cycles; }

LinkRate cable_rate(const SimConfig& cfg) {
  return LinkRate::from_bandwidth(cfg.global_link.bandwidth_bps, cfg.local_link.bandwidth_bps);
}

void check_tree(const ConfigReader& reader, const SimConfig& cfg, unsigned ports) {
  const TreeShape t = tree_shape(ports, cfg.topology.tree_radix, cfg.topology.tree_taper);
  if (!t.valid)
    reader.field("topology.tree.radix")
        .fail("a radix whose two-level fat tree reaches " + std::to_string(ports) + " ports", t.problem);
}

std::string tree_derivation(const std::string& label, unsigned count, unsigned ports, const SimConfig& cfg) {
  const TreeShape t = tree_shape(ports, cfg.topology.tree_radix, cfg.topology.tree_taper);
  return label + " trees: " + std::to_string(count) + " of " + std::to_string(ports) + " ports, " +
         (t.leaves == 0 ? std::string("one switch each")
                        : std::to_string(t.leaves) + " leaves (" + std::to_string(t.down) + " down, " +
                              std::to_string(t.up) + " up) + " + std::to_string(t.spines) + " spines each");
}

void tree_values(const SimConfig& cfg, std::vector<std::pair<std::string, std::string>>& v) {
  v.emplace_back("topology.tree.span", tree_span_name(cfg.topology.tree_span));
  v.emplace_back("topology.tree.radix", std::to_string(cfg.topology.tree_radix));
  v.emplace_back("topology.tree.taper", format_number(cfg.topology.tree_taper));
}

TreeAddressing endpoint_addressing(const SimConfig& cfg) {
  TreeAddressing addr;
  addr.endpoints = true;
  addr.fmt.payload_width = cfg.router.flit_width_bits;
  return addr;
}

unsigned add_accelerator_router(NetworkDescription& net, const SimConfig& cfg, unsigned endpoint,
                                NodeDescription router, unsigned lanes) {
  router.speedup = 1;
  router.own_endpoint_ports = lanes;
  router.routing = cfg.routing.algorithm;
  router.place.switch_name = router.name;
  router.place.addressing = endpoint_addressing(cfg);
  const unsigned r = net.add_node(std::move(router));
  NodeDescription e;
  e.kind = NodeDescription::Kind::Endpoint;
  e.name = "node" + std::to_string(endpoint);
  e.endpoint = endpoint;
  e.ports = lanes;
  const unsigned node = net.add_node(std::move(e));
  // The accelerator's own ports: its local links, with the accelerator's credits.
  for (unsigned lane = 0; lane < lanes; ++lane)
    net.add_link({node, lane}, {r, lane}, cfg.local_link.latency_cycles, LinkRate{}, "local", Medium::Internal);
  return r;
}

NodeDescription endpoint_switch(const SimConfig& cfg, std::string name, unsigned ports, unsigned latency) {
  NodeDescription s;
  s.name = std::move(name);
  s.ports = ports;
  s.latency = latency;
  s.speedup = cfg.fabric_switch.speedup;
  s.routing = cfg.routing.algorithm;
  s.place.switch_name = s.name;
  s.place.addressing = endpoint_addressing(cfg);
  return s;
}

std::vector<PortRef> add_fat_tree(NetworkDescription& net, const SimConfig& cfg, const std::string& name,
                                  unsigned ports, const TreeAddressing& addr, unsigned plane) {
  const TreeShape shape = tree_shape(ports, cfg.topology.tree_radix, cfg.topology.tree_taper);
  // Every switch of the tree routes up/down; its context is its place in the tree.
  auto add_switch = [&](const std::string& sw_name, unsigned sw_ports, RoutingContext::TreePlace place,
                        unsigned index) {
    NodeDescription sw;
    sw.name = sw_name;
    sw.plane = plane;
    sw.ports = sw_ports;
    sw.latency = cfg.fabric_switch.latency_cycles;
    sw.speedup = cfg.fabric_switch.speedup;
    sw.routing = "updown";
    sw.place.switch_name = sw_name;
    sw.place.addressing = addr;
    sw.place.tree_place = place;
    sw.place.index = index;
    sw.place.down = shape.down;
    sw.place.up = shape.up;
    sw.place.spines = shape.spines;
    return net.add_node(std::move(sw));
  };

  std::vector<PortRef> terminal(shape.ports);
  if (shape.leaves == 0) {
    const unsigned s = add_switch(name + "_sw", shape.ports, RoutingContext::TreePlace::Single, 0);
    for (unsigned t = 0; t < shape.ports; ++t) terminal[t] = {s, t};
    return terminal;
  }
  std::vector<unsigned> leaves, spines;
  for (unsigned l = 0; l < shape.leaves; ++l) {
    leaves.push_back(
        add_switch(name + "_leaf" + std::to_string(l), shape.down + shape.up, RoutingContext::TreePlace::Leaf, l));
  }
  for (unsigned s = 0; s < shape.spines; ++s) {
    spines.push_back(
        add_switch(name + "_spine" + std::to_string(s), shape.spine_ports, RoutingContext::TreePlace::Spine, s));
  }
  for (unsigned l = 0; l < shape.leaves; ++l) {
    for (unsigned j = 0; j < shape.up; ++j) {
      const unsigned g = l * shape.up + j;  // up links dealt round-robin over the spines
      net.add_link({leaves[l], shape.down + j}, {spines[g % shape.spines], g / shape.spines}, cable_latency(cfg),
                   cable_rate(cfg), "global", Medium::Aoc);
    }
  }
  for (unsigned t = 0; t < shape.ports; ++t) terminal[t] = {leaves[t / shape.down], t % shape.down};
  return terminal;
}

}  // namespace hx
