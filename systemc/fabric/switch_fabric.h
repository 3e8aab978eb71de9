// switch_fabric.h: the switches, cables and edge ports of a system, instantiated from the
// netlist its topology builder describes (topology/network_description.h): the row and column
// fat trees that join the boards of a HammingMesh, and the comparison topologies built from the
// same switch model (a fat tree, a Dragonfly, a torus). The fabric knows no topology: each
// switch asks the routing function its node names (routing/routing_function.h).
//
// A switch node becomes a NetworkSwitch. A link between two switches becomes a cable, a
// FlitLink each way with the link's latency and rate. A link from an endpoint or a board's edge
// port to a switch becomes that node's cable and two edge ports (edge_port.h), which sit between
// the routers (or the endpoint's NIC) and the cable; an accelerator's own router port (a torus
// router's port 0) takes the accelerator's local links directly.
//
// The fabric is one SystemC module with one clocked process that steps every edge port and
// switch, plain C++ objects, once per cycle, in the order the netlist lists them.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "edge_port.h"
#include "flit_link.h"
#include "network_description.h"
#include "network_switch.h"
#include "plane_model.h"
#include "sim_config.h"

namespace hx {

class SwitchFabric : public sc_core::sc_module {
 public:
  sc_core::sc_in<bool> clk;
  using ErrorHandler = std::function<void(const std::string&)>;

  SwitchFabric(sc_core::sc_module_name name, const SimConfig& cfg, PacketTracker* tracker, ErrorHandler on_error);
  ~SwitchFabric() override;

  /// What the network joins: the endpoints' links (systems without boards) and the board planes.
  struct Ports {
    /// Per endpoint and lane (endpoint * lanes + lane): into and out of the network.
    std::vector<FlitLink*> inject, eject;
    unsigned lanes = 1;
    std::vector<std::vector<PlaneModel*>> planes;  ///< [plane][board], board by * global_x + bx
  };
  /// Instantiates a topology builder's netlist (topology/netlist_instance.h, the walk both
  /// network models share): a NetworkSwitch per switch node, in node order (the order they step
  /// in), then per link, in link order, a cable (a FlitLink each way), an
  /// endpoint's or board edge's edge ports and cable, or an accelerator's own router port.
  void build(const NetworkDescription& net, const Ports& ports);

  unsigned num_switches() const { return static_cast<unsigned>(switches_.size()); }
  unsigned num_cables() const { return cables_; }
  /// Its builder gave the cables between switches physical lengths (NetworkDescription's
  /// length_m): the run then reports the cable metres packets travelled.
  bool has_cable_lengths() const { return has_lengths_; }
  /// The netlist's switches and cables by medium, every plane (what the cost model prices).
  const NetworkEquipment& equipment() const { return equipment_; }
  /// The netlist's links by class, medium, latency and rate.
  const std::vector<LinkGroup>& link_groups() const { return link_groups_; }
  /// Every link of the fabric (cables and the edge ports' links to the routers), for waveforms.
  std::vector<FlitLink*> links() const;
  /// The cables between switches (both directions), by the netlist's link class ("dim1", ...).
  const std::map<std::string, std::vector<FlitLink*>>& cables_by_class() const { return cables_by_class_; }
  /// Where the held flits sit (for deadlock reports); at most `max_lines` lines.
  std::string describe(unsigned max_lines) const;

 private:
  void on_clock();
  /// errors: whether the link is a cable, which links.global.bit_error_rate corrupts (each link
  /// its own stream of draws).
  FlitLink* make_link(const std::string& name, unsigned latency, LinkRate rate = LinkRate{}, bool errors = false);
  /// A cable between two switch ports: a link each way, and its length for the tracker's metres.
  void cable(NetworkSwitch* s, unsigned sp, NetworkSwitch* d, unsigned dp, const LinkDescription& l);
  /// A terminal's cable pair and the edge ports between it and a board's edge port or an
  /// endpoint: flits from `from_node` go up the tree, flits for the node go out on `to_node`.
  void attach(NetworkSwitch* sw, unsigned port, const std::string& name, FlitLink* from_node, FlitLink* to_node,
              unsigned board, unsigned x, unsigned y, const LinkDescription& l);

  PacketTracker* tracker_;
  ErrorHandler on_error_;
  std::vector<std::unique_ptr<FlitLink>> links_;
  double bit_error_rate_ = 0;  // of the cables (links.global.bit_error_rate)
  uint64_t seed_ = 1;          // run.seed: each cable's draws are a stream of it
  std::vector<std::unique_ptr<EdgePort>> edge_ports_;
  std::vector<std::unique_ptr<NetworkSwitch>> switches_;
  std::shared_ptr<DragonflyPlan> dragonfly_;  // the routing functions' shared state
  std::shared_ptr<ClexPlan> clex_;            // the same for a CLEX
  unsigned cables_ = 0;
  bool has_lengths_ = false;
  NetworkEquipment equipment_;
  std::vector<LinkGroup> link_groups_;
  std::map<std::string, std::vector<FlitLink*>> cables_by_class_;
  unsigned router_depth_, switch_depth_, output_depth_, vcs_;
  uint64_t cycle_ = 0;
};

}  // namespace hx
