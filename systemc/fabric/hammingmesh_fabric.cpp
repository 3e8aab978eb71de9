#include "hammingmesh_fabric.h"

#include <sstream>

#include "route_ref.h"

namespace hx {

HammingMeshFabric::HammingMeshFabric(sc_core::sc_module_name name, const SimConfig& cfg,
                                     const std::vector<PlaneModel*>& planes,
                                     PacketTracker* tracker, ErrorHandler on_error)
    : sc_core::sc_module(name),
      clk("clk"),
      tracker_(tracker),
      on_error_(std::move(on_error)),
      router_depth_(cfg.router.buffer_depth),
      switch_depth_(cfg.fabric_switch.buffer_depth),
      vcs_(cfg.router.vcs),
      cable_latency_(cfg.global_link.latency_cycles),
      switch_latency_(cfg.fabric_switch.latency_cycles) {
  const unsigned gx = cfg.topology.global_x, gy = cfg.topology.global_y;
  const unsigned row_lines = tree_lines(cfg, true), col_lines = tree_lines(cfg, false);
  for (unsigned by = 0; by < gy; ++by) {
    for (unsigned l = 0; l < cfg.topology.board_y; l += row_lines) build_tree(cfg, planes, true, by, l);
  }
  for (unsigned bx = 0; bx < gx; ++bx) {
    for (unsigned l = 0; l < cfg.topology.board_x; l += col_lines) build_tree(cfg, planes, false, bx, l);
  }
  SC_HAS_PROCESS(HammingMeshFabric);
  SC_METHOD(on_clock);
  sensitive << clk.pos();
  dont_initialize();
}

HammingMeshFabric::~HammingMeshFabric() = default;

FlitLink* HammingMeshFabric::make_link(const std::string& name, unsigned latency) {
  links_.push_back(std::make_unique<FlitLink>(name.c_str(), latency));
  return links_.back().get();
}

// One tree: its switches, the cables between them, and per terminal the cable pair to a board
// edge port with the two EdgePorts there.
void HammingMeshFabric::build_tree(const SimConfig& cfg, const std::vector<PlaneModel*>& planes,
                                   bool rows, unsigned board_rc, unsigned first_line) {
  const unsigned a = cfg.topology.board_x, b = cfg.topology.board_y;
  const unsigned lines = tree_lines(cfg, rows);
  const unsigned positions = rows ? cfg.topology.global_x : cfg.topology.global_y;
  const TreeShape shape = tree_shape(tree_ports(cfg, rows), cfg.topology.tree_radix,
                                     cfg.topology.tree_taper);
  const std::string tree = std::string(rows ? "row" : "col") + std::to_string(board_rc) + "_line" +
                           std::to_string(first_line);

  TreeAddressing addr;
  addr.rows = rows;
  addr.lines = lines;
  addr.board_x = a;
  addr.board_y = b;
  addr.fmt.payload_width = cfg.router.flit_width_bits;

  auto add_switch = [&](const std::string& sw_name, unsigned ports, FatTreeSwitch::Role role) {
    switches_.push_back(std::make_unique<FatTreeSwitch>(sw_name, ports, vcs_, switch_depth_,
                                                        switch_latency_, cfg.fabric_switch.speedup,
                                                        role, addr, tracker_, on_error_));
    return switches_.back().get();
  };
  // A cable between two switch ports: a link each way.
  auto cable = [&](FatTreeSwitch* s, unsigned sp, FatTreeSwitch* d, unsigned dp) {
    const std::string n = s->name() + "_p" + std::to_string(sp) + "__" + d->name() + "_p" + std::to_string(dp);
    FlitLink* up = make_link(n + "_up", cable_latency_);
    FlitLink* down = make_link(n + "_down", cable_latency_);
    s->connect(sp, down, up, switch_depth_);
    d->connect(dp, up, down, switch_depth_);
    ++cables_;
  };

  // Terminal t sits on (switch, port).
  std::vector<std::pair<FatTreeSwitch*, unsigned>> terminal_port(shape.ports);
  if (shape.leaves == 0) {
    FatTreeSwitch::Role role;
    FatTreeSwitch* s = add_switch(tree + "_sw", shape.ports, role);
    for (unsigned t = 0; t < shape.ports; ++t) terminal_port[t] = {s, t};
  } else {
    std::vector<FatTreeSwitch*> leaves, spines;
    for (unsigned l = 0; l < shape.leaves; ++l) {
      FatTreeSwitch::Role role{FatTreeSwitch::Role::Kind::Leaf, l, shape.down, shape.up, shape.spines, shape.per_pair};
      leaves.push_back(add_switch(tree + "_leaf" + std::to_string(l), shape.down + shape.up, role));
    }
    for (unsigned s = 0; s < shape.spines; ++s) {
      FatTreeSwitch::Role role{FatTreeSwitch::Role::Kind::Spine, s, shape.down, shape.up, shape.spines, shape.per_pair};
      spines.push_back(add_switch(tree + "_spine" + std::to_string(s), shape.leaves * shape.per_pair, role));
    }
    for (unsigned l = 0; l < shape.leaves; ++l) {
      for (unsigned j = 0; j < shape.up; ++j) {
        cable(leaves[l], shape.down + j, spines[j % shape.spines], l * shape.per_pair + j / shape.spines);
      }
    }
    for (unsigned t = 0; t < shape.ports; ++t) terminal_port[t] = {leaves[t / shape.down], t % shape.down};
  }

  // Terminals: (position, line, side) -> a board's edge port.
  const BoardGeometry geom{a, b};
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
        PlaneModel& plane = *planes.at(by * cfg.topology.global_x + bx);
        const unsigned edge = geom.edge_port(dir, x, y);
        static const char* const kDir = "NESW";
        const std::string ep = "board" + std::to_string(by * cfg.topology.global_x + bx) + "_" +
                               kDir[dir] + std::to_string(x) + "_" + std::to_string(y);
        FlitLink* from_router = make_link(ep + "_from_router", 0);
        FlitLink* to_router = make_link(ep + "_to_router", 0);
        FlitLink* to_switch = make_link(ep + "_to_switch", cable_latency_);
        FlitLink* from_switch = make_link(ep + "_from_switch", cable_latency_);
        plane.connect(edge, to_router, from_router);
        edge_ports_.push_back(std::make_unique<EdgePort>(ep + "_off", EdgePort::Direction::OffBoard, vcs_,
                                                         router_depth_, switch_depth_, x, y));
        edge_ports_.back()->connect(from_router, to_switch, tracker_, on_error_);
        edge_ports_.push_back(std::make_unique<EdgePort>(ep + "_on", EdgePort::Direction::OnBoard, vcs_,
                                                         switch_depth_, router_depth_, x, y));
        edge_ports_.back()->connect(from_switch, to_router, tracker_, on_error_);
        auto [sw, port] = terminal_port[t];
        sw->connect(port, to_switch, from_switch, switch_depth_);
        ++cables_;
      }
    }
  }
}

void HammingMeshFabric::on_clock() {
  const uint64_t t = cycle_++;
  for (auto& e : edge_ports_) e->step(t);
  for (auto& s : switches_) s->step(t);
}

uint64_t HammingMeshFabric::flits_held() const {
  uint64_t n = 0;
  for (const auto& e : edge_ports_) n += e->held();
  for (const auto& s : switches_) n += s->held();
  return n;
}

std::string HammingMeshFabric::describe(unsigned max_lines) const {
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
