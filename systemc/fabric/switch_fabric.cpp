#include "switch_fabric.h"

#include <cmath>

#include <sstream>
#include <stdexcept>

#include "dragonfly_plan.h"
#include "netlist_instance.h"

namespace hx {

SwitchFabric::SwitchFabric(sc_core::sc_module_name name, const SimConfig& cfg, PacketTracker* tracker,
                           ErrorHandler on_error)
    : sc_core::sc_module(name),
      clk("clk"),
      tracker_(tracker),
      on_error_(std::move(on_error)),
      router_depth_(cfg.router.buffer_depth),
      switch_depth_(cfg.fabric_switch.buffer_depth),
      output_depth_(cfg.fabric_switch.output_depth),
      vcs_(cfg.router.vcs) {
  bit_error_rate_ = cfg.global_link.bit_error_rate;
  seed_ = cfg.run.seed;
  SC_HAS_PROCESS(SwitchFabric);
  SC_METHOD(on_clock);
  sensitive << clk.pos();
  dont_initialize();
}

SwitchFabric::~SwitchFabric() = default;

FlitLink* SwitchFabric::make_link(const std::string& name, unsigned latency, LinkRate rate, bool errors) {
  LinkErrors e;
  if (errors && bit_error_rate_ > 0)
    e = LinkErrors{bit_error_rate_, Rng::stream(seed_, 0x6c696e6bu + links_.size()).next()};
  links_.push_back(std::make_unique<FlitLink>(name.c_str(), latency, rate, e));
  return links_.back().get();
}

namespace {
// Cables fail; a board's PCB traces and an accelerator's own router port do not.
bool is_cable(const LinkDescription& l) { return l.medium == Medium::Dac || l.medium == Medium::Aoc; }
}  // namespace

void SwitchFabric::cable(NetworkSwitch* s, unsigned sp, NetworkSwitch* d, unsigned dp, const LinkDescription& l) {
  const std::string n = s->name() + "_p" + std::to_string(sp) + "__" + d->name() + "_p" + std::to_string(dp);
  FlitLink* up = make_link(n + "_up", l.latency, l.rate, is_cable(l));
  FlitLink* down = make_link(n + "_down", l.latency, l.rate, is_cable(l));
  s->connect(sp, down, up, switch_depth_);
  d->connect(dp, up, down, switch_depth_);
  if (l.length_m > 0) {
    // In micrometres: the tracker sums integers, exact and the same in any order.
    const auto um = static_cast<uint32_t>(std::llround(l.length_m * 1e6));
    s->set_cable_length(sp, um);
    d->set_cable_length(dp, um);
    has_lengths_ = true;
  }
  ++cables_;
}

void SwitchFabric::attach(NetworkSwitch* sw, unsigned port, const std::string& name, FlitLink* from_node,
                          FlitLink* to_node, unsigned board, unsigned x, unsigned y, const LinkDescription& l) {
  FlitLink* to_switch = make_link(name + "_to_switch", l.latency, l.rate, is_cable(l));
  FlitLink* from_switch = make_link(name + "_from_switch", l.latency, l.rate, is_cable(l));
  edge_ports_.push_back(std::make_unique<EdgePort>(name + "_off", EdgePort::Direction::OffBoard, vcs_, router_depth_,
                                                   switch_depth_, board, x, y));
  edge_ports_.back()->connect(from_node, to_switch, tracker_, on_error_);
  edge_ports_.push_back(std::make_unique<EdgePort>(name + "_on", EdgePort::Direction::OnBoard, vcs_, switch_depth_,
                                                   router_depth_, board, x, y));
  edge_ports_.back()->connect(from_switch, to_node, tracker_, on_error_);
  sw->connect(port, to_switch, from_switch, switch_depth_);
  ++cables_;
}

void SwitchFabric::build(const NetworkDescription& net, const Ports& ports) {
  using Kind = NodeDescription::Kind;
  dragonfly_ = net.dragonfly;
  clex_ = net.clex;
  equipment_ = net.equipment();
  link_groups_ = net.link_groups();
  // What this model makes of the netlist's nodes and links (netlist_instance.h walks them).
  struct Model {
    SwitchFabric& f;
    const Ports& ports;
    void make_switch(unsigned, const NodeDescription& n) {
      f.switches_.push_back(std::make_unique<NetworkSwitch>(
          n.name, n.ports, f.vcs_, f.switch_depth_, n.latency, n.speedup, make_routing(n.routing, n.place), f.tracker_,
          f.on_error_, NetworkSwitch::OwnPorts{n.own_first_port, n.own_endpoint_ports}, f.output_depth_));
    }
    void connect(unsigned, const LinkDescription& l, const NetlistEnd& a, const NetlistEnd& b) {
      NetworkSwitch* to = f.switches_[b.index].get();
      const std::size_t lane = std::size_t{a.index} * ports.lanes + a.port;  // an endpoint's link
      if (a.kind == Kind::Switch) {
        f.cable(f.switches_[a.index].get(), a.port, to, b.port, l);
        std::vector<FlitLink*>& of_class = f.cables_by_class_[l.link_class];
        of_class.insert(of_class.end(), {f.links_[f.links_.size() - 2].get(), f.links_.back().get()});
      } else if (a.kind == Kind::Endpoint && l.medium == Medium::Internal) {
        // The accelerator's own router port: its local links. The accelerator counts
        // router.buffer_depth credits each way, so that is this port's input buffer too (it was
        // the switch's depth: router.buffer_depth=64 on a torus overfilled it, "a flit arrived
        // on a full VC").
        to->connect(b.port, ports.inject.at(lane), ports.eject.at(lane), f.router_depth_, f.router_depth_);
      } else if (a.kind == Kind::Endpoint) {
        const NodeDescription& n = *a.node;
        f.attach(to, b.port, n.name + "_port", ports.inject.at(lane), ports.eject.at(lane), n.board, n.x, n.y, l);
      } else {
        // A board edge port: the plane's side of it is a pair of zero-latency links.
        const NodeDescription& n = *a.node;
        PlaneModel& plane = *ports.planes.at(n.plane).at(n.board);
        FlitLink* from_router = f.make_link(n.name + "_from_router", 0);
        FlitLink* to_router = f.make_link(n.name + "_to_router", 0);
        plane.connect(n.edge, to_router, from_router);
        f.attach(to, b.port, n.name, from_router, to_router, n.board, n.x, n.y, l);
      }
    }
  } model{*this, ports};
  instantiate(net, model);
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
  if (lines > max_lines) return os.str() + "  ...\n";
  return os.str() + held_report(switches_, max_lines - lines);
}

}  // namespace hx
