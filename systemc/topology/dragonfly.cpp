// dragonfly.cpp: a Dragonfly (dragonfly_plan.h): groups of a routers with p endpoints and h
// global links each, every group linked to every other; minimal or UGAL-L routing.
#include "analytic_spec.h"
#include "dragonfly_plan.h"
#include "fabric_topology.h"
#include "tree_builder.h"

namespace hx {

namespace {

class DragonflyTopology : public FabricTopology {
 public:
  const char* kind() const override { return "dragonfly"; }
  const char* description() const override { return "groups of a routers with p endpoints and h global links"; }
  bool has_boards() const override { return false; }
  // Every router one switch; endpoint and local cables DAC, global cables AoC (the cost model's
  // media), all of links.global's latency and rate.
  NetworkDescription network(const SimConfig& cfg) const override {
    const SimConfig::Dragonfly& df = cfg.topology.dragonfly;
    NetworkDescription net;
    net.dragonfly = std::make_shared<DragonflyPlan>(df.a, df.p, df.h, df.groups, df.ugal);
    DragonflyPlan& d = *net.dragonfly;
    std::vector<unsigned> router(d.groups * d.a);
    for (unsigned g = 0; g < d.groups; ++g) {
      for (unsigned r = 0; r < d.a; ++r) {
        NodeDescription s = endpoint_switch(cfg, "g" + std::to_string(g) + "_r" + std::to_string(r), d.radix(),
                                            cfg.fabric_switch.latency_cycles);
        s.place.group = g;
        s.place.index = r;
        s.place.plan = &d;
        s.place.seed = cfg.run.seed * 7919 + g * d.a + r + 1;
        router[g * d.a + r] = net.add_node(std::move(s));
      }
    }
    const auto cable = [&](unsigned from, unsigned from_port, unsigned to, unsigned to_port, Medium m) {
      net.add_link({from, from_port}, {to, to_port}, cable_latency(cfg), cable_rate(cfg), "global", m);
    };
    for (unsigned g = 0; g < d.groups; ++g) {
      for (unsigned r1 = 0; r1 < d.a; ++r1) {
        for (unsigned r2 = r1 + 1; r2 < d.a; ++r2) {
          cable(router[g * d.a + r1], d.local_port(r1, r2), router[g * d.a + r2], d.local_port(r2, r1), Medium::Dac);
        }
        for (unsigned j = 0; j < d.h; ++j) {
          const DragonflyPlan::End& far = d.link[(g * d.a + r1) * d.h + j];
          const bool unused = far.port == 0;      // a global port the pairing left free
          if (unused || far.group < g) continue;  // each global cable once, from its lower group
          cable(router[g * d.a + r1], d.global_port(j), router[far.group * d.a + far.router], far.port, Medium::Aoc);
        }
      }
    }
    for (unsigned n = 0; n < d.endpoints(); ++n) {
      NodeDescription e;
      e.kind = NodeDescription::Kind::Endpoint;
      e.name = "node" + std::to_string(n);
      e.endpoint = e.board = n;
      cable(net.add_node(std::move(e)), 0, router[d.group_of(n) * d.a + d.router_of(n)], d.port_of(n), Medium::Dac);
    }
    return net;
  }
  std::string describe(const SimConfig& cfg) const override {
    const SimConfig::Dragonfly& d = cfg.topology.dragonfly;
    return "Dragonfly a=" + std::to_string(d.a) + " p=" + std::to_string(d.p) + " h=" + std::to_string(d.h) + ", " +
           std::to_string(d.groups) + " groups, " + (d.ugal ? "UGAL-L" : "minimal") + " routing";
  }
  std::string routing_summary(const SimConfig& cfg) const override {
    return cfg.topology.dragonfly.ugal ? "UGAL-L" : "minimal";
  }
  // Its diameter is the minimal routes' (UGAL-L's non-minimal ones are longer).
  std::optional<cost::TopologySpec> analytic_spec(const SimConfig& cfg) const override {
    const SimConfig::Dragonfly& d = cfg.topology.dragonfly;
    cost::DragonflyParams p;
    p.a = d.a;
    p.p = d.p;
    p.h = d.h;
    p.groups = d.groups;
    // One virtual router per switch, as in the cycle model: the smallest even radix that holds
    // one router (the cost model prices switches of even radix).
    return analytic_spec_of(cfg, p, (d.p + d.a - 1 + d.h + 1) / 2 * 2);
  }

  Size size(const SimConfig& c) const override {
    const SimConfig::Dragonfly& d = c.topology.dragonfly;
    return {d.groups * d.a * d.p, 1, 0};
  }
  std::vector<std::string> routing_names() const override { return {"dragonfly_minimal", "ugal_l"}; }
  std::string default_routing() const override { return "ugal_l"; }
  void check(const ConfigReader& reader, SimConfig& c) const override {
    forbid(reader, {"topology.board", "topology.global", "topology.endpoints", "topology.tree", "topology.clex",
                    "topology.sides", "topology.pitch"});
    require(reader, "topology.dragonfly", "a map with a, p, h and groups");
    c.topology.dragonfly.ugal = c.routing.algorithm == "ugal_l";  // UGAL-L's plan state (dragonfly_plan.h)
    const SimConfig::Dragonfly& d = c.topology.dragonfly;
    if (d.groups > d.a * d.h + 1)
      reader.field("topology.dragonfly.groups")
          .fail("at most a * h + 1 = " + std::to_string(d.a * d.h + 1) + " groups",
                "every group needs a global link to every other");
    const uint64_t endpoints = uint64_t{d.groups} * d.a * d.p;
    if (endpoints > 65536)
      reader.field("topology.dragonfly.groups")
          .fail("groups * a * p <= 65536 endpoints", std::to_string(endpoints) + " endpoints");
    c.topology.endpoints = static_cast<unsigned>(endpoints);
    // A Valiant path takes two global links, each moving the packet to VC + 1.
    if (c.router.vcs < 3)
      reader.field("router.vcs")
          .fail("at least 3 in a dragonfly", "a packet moves to VC + 1 on each of up to two global links");
  }
  void topology_values(const SimConfig& c, std::vector<std::pair<std::string, std::string>>& v) const override {
    const SimConfig::Dragonfly& d = c.topology.dragonfly;
    v.emplace_back("topology.planes", std::to_string(c.topology.planes));
    v.emplace_back("topology.dragonfly.a", std::to_string(d.a));
    v.emplace_back("topology.dragonfly.p", std::to_string(d.p));
    v.emplace_back("topology.dragonfly.h", std::to_string(d.h));
    v.emplace_back("topology.dragonfly.groups", std::to_string(d.groups));
  }
};

}  // namespace

const FabricTopology& dragonfly_topology() {
  static const DragonflyTopology t;
  return t;
}

}  // namespace hx
