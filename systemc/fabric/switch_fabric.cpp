#include "switch_fabric.h"

#include <sstream>

#include "board_geometry.h"
#include "dragonfly_plan.h"

namespace hx {

SwitchFabric::SwitchFabric(sc_core::sc_module_name name, const SimConfig& cfg, PacketTracker* tracker,
                           ErrorHandler on_error)
    : sc_core::sc_module(name),
      clk("clk"),
      cfg_(cfg),
      tracker_(tracker),
      on_error_(std::move(on_error)),
      router_depth_(cfg.router.buffer_depth),
      switch_depth_(cfg.fabric_switch.buffer_depth),
      vcs_(cfg.router.vcs),
      cable_latency_(cfg.global_link.latency_cycles),
      switch_latency_(cfg.fabric_switch.latency_cycles),
      cable_rate_(LinkRate::from_bandwidth(cfg.global_link.bandwidth_bps, cfg.local_link.bandwidth_bps)) {
  SC_HAS_PROCESS(SwitchFabric);
  SC_METHOD(on_clock);
  sensitive << clk.pos();
  dont_initialize();
}

SwitchFabric::~SwitchFabric() = default;

FlitLink* SwitchFabric::make_link(const std::string& name, unsigned latency, LinkRate rate) {
  links_.push_back(std::make_unique<FlitLink>(name.c_str(), latency, rate));
  return links_.back().get();
}

void SwitchFabric::cable(NetworkSwitch* s, unsigned sp, NetworkSwitch* d, unsigned dp) {
  cable(s, sp, d, dp, cable_latency_, cable_rate_);
}

void SwitchFabric::cable(NetworkSwitch* s, unsigned sp, NetworkSwitch* d, unsigned dp, unsigned latency,
                         LinkRate rate) {
  const std::string n = s->name() + "_p" + std::to_string(sp) + "__" + d->name() + "_p" + std::to_string(dp);
  FlitLink* up = make_link(n + "_up", latency, rate);
  FlitLink* down = make_link(n + "_down", latency, rate);
  s->connect(sp, down, up, switch_depth_);
  d->connect(dp, up, down, switch_depth_);
  ++cables_;
}

SwitchFabric::TerminalPorts SwitchFabric::build_tree(const std::string& tree, unsigned ports,
                                                     const TreeAddressing& addr) {
  const TreeShape shape = tree_shape(ports, cfg_.topology.tree_radix, cfg_.topology.tree_taper);
  // Every switch of the tree routes up/down; its context is its place in the tree.
  auto add_switch = [&](const std::string& sw_name, unsigned sw_ports, RoutingContext::TreePlace place,
                        unsigned index) {
    RoutingContext ctx;
    ctx.switch_name = sw_name;
    ctx.addressing = addr;
    ctx.tree_place = place;
    ctx.index = index;
    ctx.down = shape.down;
    ctx.up = shape.up;
    ctx.spines = shape.spines;
    switches_.push_back(std::make_unique<NetworkSwitch>(sw_name, sw_ports, vcs_, switch_depth_, switch_latency_,
                                                        cfg_.fabric_switch.speedup, make_routing("updown", ctx),
                                                        tracker_, on_error_));
    return switches_.back().get();
  };

  TerminalPorts terminal_port(shape.ports);
  if (shape.leaves == 0) {
    NetworkSwitch* s = add_switch(tree + "_sw", shape.ports, RoutingContext::TreePlace::Single, 0);
    for (unsigned t = 0; t < shape.ports; ++t) terminal_port[t] = {s, t};
    return terminal_port;
  }
  std::vector<NetworkSwitch*> leaves, spines;
  for (unsigned l = 0; l < shape.leaves; ++l) {
    leaves.push_back(
        add_switch(tree + "_leaf" + std::to_string(l), shape.down + shape.up, RoutingContext::TreePlace::Leaf, l));
  }
  for (unsigned s = 0; s < shape.spines; ++s) {
    spines.push_back(
        add_switch(tree + "_spine" + std::to_string(s), shape.spine_ports, RoutingContext::TreePlace::Spine, s));
  }
  for (unsigned l = 0; l < shape.leaves; ++l) {
    for (unsigned j = 0; j < shape.up; ++j) {
      const unsigned g = l * shape.up + j;  // up links dealt round-robin over the spines
      cable(leaves[l], shape.down + j, spines[g % shape.spines], g / shape.spines);
    }
  }
  for (unsigned t = 0; t < shape.ports; ++t) terminal_port[t] = {leaves[t / shape.down], t % shape.down};
  return terminal_port;
}

void SwitchFabric::attach(const std::pair<NetworkSwitch*, unsigned>& terminal, const std::string& name,
                          FlitLink* from_node, FlitLink* to_node, unsigned board, unsigned x, unsigned y) {
  FlitLink* to_switch = make_link(name + "_to_switch", cable_latency_, cable_rate_);
  FlitLink* from_switch = make_link(name + "_from_switch", cable_latency_, cable_rate_);
  edge_ports_.push_back(std::make_unique<EdgePort>(name + "_off", EdgePort::Direction::OffBoard, vcs_, router_depth_,
                                                   switch_depth_, board, x, y));
  edge_ports_.back()->connect(from_node, to_switch, tracker_, on_error_);
  edge_ports_.push_back(std::make_unique<EdgePort>(name + "_on", EdgePort::Direction::OnBoard, vcs_, switch_depth_,
                                                   router_depth_, board, x, y));
  edge_ports_.back()->connect(from_switch, to_node, tracker_, on_error_);
  terminal.first->connect(terminal.second, to_switch, from_switch, switch_depth_);
  ++cables_;
}

void SwitchFabric::connect_boards(const std::vector<PlaneModel*>& planes, const std::string& prefix) {
  prefix_ = prefix;
  const unsigned row_lines = tree_lines(cfg_, true), col_lines = tree_lines(cfg_, false);
  for (unsigned by = 0; by < cfg_.topology.global_y; ++by) {
    for (unsigned l = 0; l < cfg_.topology.board_y; l += row_lines) build_hammingmesh_tree(planes, true, by, l);
  }
  for (unsigned bx = 0; bx < cfg_.topology.global_x; ++bx) {
    for (unsigned l = 0; l < cfg_.topology.board_x; l += col_lines) build_hammingmesh_tree(planes, false, bx, l);
  }
}

void SwitchFabric::connect_endpoints(const std::vector<FlitLink*>& inject, const std::vector<FlitLink*>& eject) {
  TreeAddressing addr;
  addr.endpoints = true;
  addr.fmt.payload_width = cfg_.router.flit_width_bits;
  const TerminalPorts terminals = build_tree("tree", static_cast<unsigned>(inject.size()), addr);
  for (unsigned n = 0; n < inject.size(); ++n) {
    attach(terminals[n], "node" + std::to_string(n) + "_port", inject[n], eject[n], n, 0, 0);
  }
}

void SwitchFabric::connect_torus(const std::vector<FlitLink*>& inject, const std::vector<FlitLink*>& eject) {
  const unsigned a = cfg_.topology.board_x, b = cfg_.topology.board_y;
  const unsigned X = cfg_.system_x(), Y = cfg_.system_y();
  TreeAddressing addr;  // the header fields that carry the endpoint number
  addr.endpoints = true;
  addr.fmt.payload_width = cfg_.router.flit_width_bits;
  std::vector<NetworkSwitch*> router(X * Y);
  for (unsigned n = 0; n < X * Y; ++n) {
    RoutingContext ctx;
    ctx.switch_name = "r" + std::to_string(n % X) + "_" + std::to_string(n / X);
    ctx.addressing = addr;
    ctx.x = n % X;
    ctx.y = n / X;
    ctx.size_x = X;
    ctx.size_y = Y;
    // An accelerator's router: a one-cycle pipeline and no crossbar speedup, like the RTL
    // router of the boards. Port 0 is its own accelerator's.
    switches_.push_back(std::make_unique<NetworkSwitch>(ctx.switch_name, 5, vcs_, switch_depth_, 1, 1,
                                                        make_routing("dor_dateline", ctx), tracker_, on_error_, 0));
    router[n] = switches_.back().get();
    // The accelerator's own port: its local links, with the accelerator's credits.
    router[n]->connect(0, inject[n], eject[n], router_depth_);
  }
  enum : unsigned { kN = 1, kE = 2, kS = 3, kW = 4 };
  for (unsigned n = 0; n < X * Y; ++n) {
    const unsigned x = n % X, y = n / X;
    const unsigned east = y * X + (x + 1) % X, north = ((y + 1) % Y) * X + x;
    // A link that leaves the board is a cable; one within a board is a PCB trace.
    const bool x_cable = (x + 1) % a == 0, y_cable = (y + 1) % b == 0;
    if (X > 1)
      cable(router[n], kE, router[east], kW, x_cable ? cable_latency_ : cfg_.local_link.latency_cycles,
            x_cable ? cable_rate_ : LinkRate{});
    if (Y > 1)
      cable(router[n], kN, router[north], kS, y_cable ? cable_latency_ : cfg_.local_link.latency_cycles,
            y_cable ? cable_rate_ : LinkRate{});
  }
}

void SwitchFabric::connect_dragonfly(const std::vector<FlitLink*>& inject, const std::vector<FlitLink*>& eject) {
  const SimConfig::Dragonfly& df = cfg_.topology.dragonfly;
  dragonfly_ = std::make_unique<DragonflyPlan>(df.a, df.p, df.h, df.groups, df.ugal);
  DragonflyPlan& d = *dragonfly_;
  TreeAddressing addr;  // the header fields that carry the endpoint number
  addr.endpoints = true;
  addr.fmt.payload_width = cfg_.router.flit_width_bits;
  std::vector<NetworkSwitch*> router(d.groups * d.a);
  for (unsigned g = 0; g < d.groups; ++g) {
    for (unsigned r = 0; r < d.a; ++r) {
      RoutingContext ctx;
      ctx.switch_name = "g" + std::to_string(g) + "_r" + std::to_string(r);
      ctx.addressing = addr;
      ctx.group = g;
      ctx.index = r;
      ctx.plan = &d;
      ctx.seed = cfg_.run.seed * 7919 + g * d.a + r + 1;
      switches_.push_back(std::make_unique<NetworkSwitch>(
          ctx.switch_name, d.radix(), vcs_, switch_depth_, switch_latency_, cfg_.fabric_switch.speedup,
          make_routing(df.ugal ? "ugal_l" : "dragonfly_minimal", ctx), tracker_, on_error_));
      router[g * d.a + r] = switches_.back().get();
    }
  }
  for (unsigned g = 0; g < d.groups; ++g) {
    for (unsigned r1 = 0; r1 < d.a; ++r1) {
      for (unsigned r2 = r1 + 1; r2 < d.a; ++r2) {
        cable(router[g * d.a + r1], d.local_port(r1, r2), router[g * d.a + r2], d.local_port(r2, r1));
      }
      for (unsigned j = 0; j < d.h; ++j) {
        const DragonflyPlan::End& far = d.link[(g * d.a + r1) * d.h + j];
        const bool unused = far.port == 0;      // a global port the pairing left free
        if (unused || far.group < g) continue;  // each global cable once, from its lower group
        cable(router[g * d.a + r1], d.global_port(j), router[far.group * d.a + far.router], far.port);
      }
    }
  }
  for (unsigned n = 0; n < inject.size(); ++n) {
    attach({router[d.group_of(n) * d.a + d.router_of(n)], d.port_of(n)}, "node" + std::to_string(n) + "_port",
           inject[n], eject[n], n, 0, 0);
  }
}

// One HammingMesh tree and, per terminal, the board edge port it serves.
void SwitchFabric::build_hammingmesh_tree(const std::vector<PlaneModel*>& planes, bool rows, unsigned board_rc,
                                          unsigned first_line) {
  const unsigned a = cfg_.topology.board_x, b = cfg_.topology.board_y;
  const unsigned lines = tree_lines(cfg_, rows);
  const unsigned positions = rows ? cfg_.topology.global_x : cfg_.topology.global_y;
  TreeAddressing addr;
  addr.rows = rows;
  addr.lines = lines;
  addr.board_x = a;
  addr.board_y = b;
  addr.fmt.payload_width = cfg_.router.flit_width_bits;
  const TerminalPorts terminals =
      build_tree(prefix_ + (rows ? "row" : "col") + std::to_string(board_rc) + "_line" + std::to_string(first_line),
                 tree_ports(cfg_, rows), addr);

  // Terminal (position, line, side) -> a board's edge port (numbered after the plane's lanes).
  for (unsigned pos = 0; pos < positions; ++pos) {
    for (unsigned li = 0; li < lines; ++li) {
      for (unsigned side = 0; side < 2; ++side) {
        const unsigned t = (pos * lines + li) * 2 + side;
        const unsigned line = first_line + li;
        const unsigned bx = rows ? pos : board_rc, by = rows ? board_rc : pos;
        unsigned x = 0, y = 0, dir = 0;
        if (rows) {
          x = side == 0 ? 0 : a - 1;
          y = line;
          dir = side == 0 ? kPortW : kPortE;
        } else {
          x = line;
          y = side == 0 ? 0 : b - 1;
          dir = side == 0 ? kPortS : kPortN;
        }
        PlaneModel& plane = *planes.at(by * cfg_.topology.global_x + bx);
        const unsigned edge = plane.geometry().edge_port(dir, x, y);
        static const char* const kDir = "NESW";
        const std::string ep = prefix_ + "board" + std::to_string(by * cfg_.topology.global_x + bx) + "_" + kDir[dir] +
                               std::to_string(x) + "_" + std::to_string(y);
        FlitLink* from_router = make_link(ep + "_from_router", 0);
        FlitLink* to_router = make_link(ep + "_to_router", 0);
        plane.connect(edge, to_router, from_router);
        attach(terminals[t], ep, from_router, to_router, by * cfg_.topology.global_x + bx, x, y);
      }
    }
  }
}

void SwitchFabric::on_clock() {
  const uint64_t t = cycle_++;
  // Cache hints a few ports ahead, each stage reading what the one before fetched: the port,
  // its links, their slots. Most of a cycle's time goes to waiting for memory, and this lets
  // the fetches of several ports overlap.
  const std::size_t n = edge_ports_.size();
  for (std::size_t i = 0; i < n; ++i) {
    if (i + 6 < n) {
      const char* p = reinterpret_cast<const char*>(edge_ports_[i + 6].get());
      __builtin_prefetch(p, 1);
      __builtin_prefetch(p + 64, 1);
    }
    if (i + 4 < n) edge_ports_[i + 4]->prefetch_links();
    if (i + 2 < n) edge_ports_[i + 2]->prefetch_slots(t);
    edge_ports_[i]->step(t);
  }
  for (auto& s : switches_) s->step(t);
}

std::vector<FlitLink*> SwitchFabric::links() const {
  std::vector<FlitLink*> v;
  for (const auto& l : links_) v.push_back(l.get());
  return v;
}

std::string SwitchFabric::describe(unsigned max_lines) const {
  std::ostringstream os;
  unsigned lines = 0;
  for (const auto& e : edge_ports_) {
    if (e->held() == 0) continue;
    if (++lines > max_lines) break;
    os << "  " << e->name() << ": " << e->held() << " flits\n";
  }
  for (const auto& s : switches_) {
    if (lines > max_lines) break;
    if (s->held() == 0) continue;
    const std::string d = s->describe();
    os << d;
    for (char ch : d) lines += ch == '\n';
  }
  if (lines > max_lines) os << "  ...\n";
  return os.str();
}

}  // namespace hx
