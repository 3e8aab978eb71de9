// switch_fabric.h: the switches, cables and edge ports of a system: the row and column fat
// trees that join the boards of a HammingMesh, and the comparison topologies built from the
// same switch model (a fat tree, a Dragonfly, a torus).
//
// Wiring (section III of the paper, one plane): the E and W edge ports of every line (row) of
// accelerators go to a row tree, the N and S edge ports of every column to a column tree. A
// tree serves one line of accelerators across the boards of a board row (column), or, with
// span `board`, all lines of that board row (column) at once. A tree with no more ports than
// the switch radix is one switch; a larger one is a two-level fat tree (TreeShape). Every
// cable, board to switch and switch to switch, is a FlitLink with the links.global latency in
// each direction; the edge ports sit between the routers and the cables (edge_port.h).
//
// A fat-tree system is one such tree whose terminals are the endpoints themselves: endpoint n
// sits on terminal n, behind an edge port (its NIC's cable port) and a cable. A Dragonfly's
// routers and a torus's routers are the same switch with their own routing (network_switch.h).
//
// The fabric is one SystemC module with one clocked process that steps every edge port and
// switch, plain C++ objects, once per cycle.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "edge_port.h"
#include "flit_link.h"
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

  /// A HammingMesh: `planes[by * global_x + bx]` is the plane of board (bx, by); builds the
  /// row and column trees and connects the boards' edge ports to them.
  void connect_boards(const std::vector<PlaneModel*>& planes, const std::string& prefix = "");
  /// A fat tree: endpoint n sends on `inject[n]` and receives on `eject[n]`.
  void connect_endpoints(const std::vector<FlitLink*>& inject, const std::vector<FlitLink*>& eject);
  /// A 2D torus of boards (board a x b, global x x y) whose routers are switch models, router n
  /// serving accelerator n through `inject[n]` / `eject[n]`: links within a board have the
  /// links.local latency, links between boards the links.global latency.
  void connect_torus(const std::vector<FlitLink*>& inject, const std::vector<FlitLink*>& eject);
  /// A Dragonfly (dragonfly_plan.h) with endpoint n on `inject[n]` / `eject[n]`.
  void connect_dragonfly(const std::vector<FlitLink*>& inject, const std::vector<FlitLink*>& eject);

  unsigned num_switches() const { return static_cast<unsigned>(switches_.size()); }
  unsigned num_cables() const { return cables_; }
  /// Every link of the fabric (cables and the edge ports' links to the routers), for waveforms.
  std::vector<FlitLink*> links() const;
  /// Where the held flits sit (for deadlock reports); at most `max_lines` lines.
  std::string describe(unsigned max_lines) const;

 private:
  void on_clock();
  /// A link of `rate` flits per cycle (1 unless a builder says otherwise; config keys for
  /// per-link bandwidths come later).
  FlitLink* make_link(const std::string& name, unsigned latency, LinkRate rate = LinkRate{});
  /// A cable between two switch ports: a link each way.
  void cable(NetworkSwitch* s, unsigned sp, NetworkSwitch* d, unsigned dp);
  void cable(NetworkSwitch* s, unsigned sp, NetworkSwitch* d, unsigned dp, unsigned latency,
             LinkRate rate = LinkRate{});
  using TerminalPorts = std::vector<std::pair<NetworkSwitch*, unsigned>>;
  /// The switches and inner cables of one tree of `ports` terminals; where each terminal is.
  TerminalPorts build_tree(const std::string& name, unsigned ports, const TreeAddressing& addr);
  /// A terminal's cable pair and the edge ports between it and a router port or endpoint:
  /// flits from `from_node` go up the tree, flits for the node go out on `to_node`.
  void attach(const std::pair<NetworkSwitch*, unsigned>& terminal, const std::string& name, FlitLink* from_node,
              FlitLink* to_node, unsigned board, unsigned x, unsigned y);
  void build_hammingmesh_tree(const std::vector<PlaneModel*>& planes, bool rows, unsigned board_row_or_col,
                              unsigned first_line);

  const SimConfig cfg_;
  PacketTracker* tracker_;
  ErrorHandler on_error_;
  std::vector<std::unique_ptr<FlitLink>> links_;
  std::vector<std::unique_ptr<EdgePort>> edge_ports_;
  std::vector<std::unique_ptr<NetworkSwitch>> switches_;
  std::unique_ptr<DragonflyPlan> dragonfly_;
  unsigned cables_ = 0;
  std::string prefix_;  // names of the plane being built
  unsigned router_depth_, switch_depth_, vcs_, cable_latency_, switch_latency_;
  LinkRate cable_rate_;  // links.global.bandwidth over the local link's: flits per cycle on every cable
  uint64_t cycle_ = 0;
};

}  // namespace hx
