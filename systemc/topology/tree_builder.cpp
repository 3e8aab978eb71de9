#include "tree_builder.h"

namespace hx {

unsigned cable_latency(const SimConfig& cfg) { return cfg.global_link.latency_cycles; }

LinkRate cable_rate(const SimConfig& cfg) {
  return LinkRate::from_bandwidth(cfg.global_link.bandwidth_bps, cfg.local_link.bandwidth_bps);
}

TreeShape config_tree_shape(const SimConfig& cfg, unsigned ports, bool three_levels) {
  return tree_shape(ports, cfg.topology.tree_radix, cfg.topology.tree_taper, three_levels,
                    cfg.topology.tree_spine_per_up_port);
}

void check_tree(const ConfigReader& reader, const SimConfig& cfg, unsigned ports, bool three_levels) {
  const TreeShape t = config_tree_shape(cfg, ports, three_levels);
  if (!t.valid && cfg.topology.tree_spine_per_up_port)
    reader.field("topology.tree.spines").fail("fewest, or a tree of at most radix leaves", t.problem);
  if (!t.valid)
    reader.field("topology.tree.radix")
        .fail(std::string("a radix whose ") + (three_levels ? "two- or three-level" : "two-level") +
                  " fat tree reaches " + std::to_string(ports) + " ports",
              t.problem);
}

std::string tree_derivation(const std::string& label, unsigned count, unsigned ports, const SimConfig& cfg,
                            bool three_levels) {
  const TreeShape t = config_tree_shape(cfg, ports, three_levels);
  std::string s = label + " trees: " + std::to_string(count) + " of " + std::to_string(ports) + " ports, ";
  if (t.levels() == 1) return s + "one switch each";
  s += std::to_string(t.leaves) + " leaves (" + std::to_string(t.down) + " down, " + std::to_string(t.up) + " up) + ";
  if (t.levels() == 3)
    s += std::to_string(t.middle_total) + " middle switches in " + std::to_string(t.pods) + " pods of up to " +
         std::to_string(t.pod_leaves) + " leaves + " + std::to_string(t.spines) + " top switches each";
  else
    s += std::to_string(t.spines) + " spines each";
  return s;
}

void tree_values(const SimConfig& cfg, std::vector<std::pair<std::string, std::string>>& v) {
  v.emplace_back("topology.tree.span", tree_span_name(cfg.topology.tree_span));
  v.emplace_back("topology.tree.radix", std::to_string(cfg.topology.tree_radix));
  v.emplace_back("topology.tree.taper", format_number(cfg.topology.tree_taper));
  if (cfg.topology.tree_spine_per_up_port) v.emplace_back("topology.tree.spines", "per_up_port");
}

TreeAddressing endpoint_addressing(const SimConfig& cfg) {
  TreeAddressing addr;
  addr.endpoints = true;
  addr.fmt.payload_width = cfg.router.flit_width_bits;
  return addr;
}

unsigned add_accelerator_router(NetworkDescription& net, const SimConfig& cfg, unsigned endpoint,
                                NodeDescription router, unsigned lanes, unsigned first_port) {
  router.own_endpoint_ports = lanes;
  router.own_first_port = first_port;
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
    net.add_link({node, lane}, {r, first_port + lane}, cfg.local_link.latency_cycles, LinkRate{}, "local",
                 Medium::Internal);
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
                                  unsigned ports, const TreeAddressing& addr, unsigned plane, bool three_levels) {
  const TreeShape shape = config_tree_shape(cfg, ports, three_levels);
  // Every switch of the tree routes up/down; its context is its place in the tree. Its up ports
  // follow its down ports; the routes themselves are tables (topology/tree_routes.h).
  auto add_switch = [&](const std::string& sw_name, unsigned sw_ports, RoutingContext::TreePlace place, unsigned index,
                        unsigned up_first, unsigned up) {
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
    sw.place.up_first = up_first;
    sw.place.up = up;
    sw.place.tree_leaves = shape.leaves;
    return net.add_node(std::move(sw));
  };
  const auto cable = [&](PortRef lower, PortRef upper) {
    net.add_link(lower, upper, cable_latency(cfg), cable_rate(cfg), "global", Medium::Aoc);
  };
  using Place = RoutingContext::TreePlace;

  std::vector<PortRef> terminal(shape.ports);
  if (shape.leaves == 0) {
    const unsigned s = add_switch(name + "_sw", shape.ports, Place::Single, 0, shape.ports, 0);
    for (unsigned t = 0; t < shape.ports; ++t) terminal[t] = {s, t};
    return terminal;
  }
  std::vector<unsigned> leaves, spines;
  for (unsigned l = 0; l < shape.leaves; ++l) {
    leaves.push_back(
        add_switch(name + "_leaf" + std::to_string(l), shape.down + shape.up, Place::Leaf, l, shape.down, shape.up));
  }
  for (unsigned s = 0; s < shape.spines; ++s) {
    spines.push_back(
        add_switch(name + "_spine" + std::to_string(s), shape.spine_ports, Place::Spine, s, shape.spine_ports, 0));
  }
  if (shape.levels() == 2) {
    for (unsigned l = 0; l < shape.leaves; ++l) {
      for (unsigned j = 0; j < shape.up; ++j) {
        const unsigned g = l * shape.up + j;  // up links dealt round-robin over the spines
        cable({leaves[l], shape.down + j}, {spines[g % shape.spines], g / shape.spines});
      }
    }
  } else {
    // Pod q: its leaves' up links dealt round-robin over its middles; then every middle's up
    // links, in order, dealt round-robin over the tops (TreeShape).
    uint64_t top_link = 0;
    unsigned middle_number = 0;
    for (unsigned q = 0; q < shape.pods; ++q) {
      const unsigned mq = shape.middles(q), first_leaf = q * shape.pod_leaves;
      std::vector<unsigned> middles;
      for (unsigned m = 0; m < mq; ++m) {
        const unsigned d = shape.middle_ports(q, m);
        middles.push_back(add_switch(name + "_mid" + std::to_string(middle_number++), 2 * d, Place::Middle, q, d, d));
      }
      for (unsigned i = 0; i < shape.pod_size(q); ++i) {
        for (unsigned j = 0; j < shape.up; ++j) {
          const unsigned g = i * shape.up + j;
          cable({leaves[first_leaf + i], shape.down + j}, {middles[g % mq], g / mq});
        }
      }
      for (unsigned m = 0; m < mq; ++m) {
        const unsigned d = shape.middle_ports(q, m);
        for (unsigned u = 0; u < d; ++u, ++top_link) {
          cable({middles[m], d + u}, {spines[top_link % shape.spines], static_cast<unsigned>(top_link / shape.spines)});
        }
      }
    }
  }
  for (unsigned t = 0; t < shape.ports; ++t) terminal[t] = {leaves[t / shape.down], t % shape.down};
  return terminal;
}

}  // namespace hx
