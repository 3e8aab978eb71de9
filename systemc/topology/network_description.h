// network_description.h: what a topology builder makes of its config section, a netlist of
// the network: its nodes (endpoints, the switches and routers of C++ switch models, the edge
// ports of RTL boards) and the links between their ports, each with a latency, a rate, a link
// class and a medium. No SystemC: the cycle model instantiates it (SwitchFabric::build), the
// cost model prices it (equipment()), and the allocator reads its board grid and leaf switches
// from it (alloc/), so all three see the same network.
//
// A link joins two ports, and it is bidirectional: one credit link each way in the cycle model,
// one cable in the cost model. What it becomes depends on what it joins:
//   switch - switch          a cable (or a PCB trace, Medium::Pcb) between two switch ports;
//   endpoint - switch        the endpoint's NIC port (an edge port each way) and a cable;
//   board edge - switch      the board's edge port, its edge ports and a cable;
//   endpoint - switch, Medium::Internal
//                            the accelerator's own port on its router (a torus router's port
//                            0): its local links, no cable.
// The order of nodes and links is the order of construction, which fixes the order in which
// the cycle model steps its switches and edge ports (and so the results): builders append in a
// fixed order.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "link_rate.h"
#include "sim_config.h"
#include "switch_place.h"

namespace hx {

/// The physical medium of a link, what the cost model prices: Internal and Pcb are free.
enum class Medium : uint8_t { Internal, Pcb, Dac, Aoc };
const char* medium_name(Medium m);  // "internal", "pcb", "dac", "aoc"

struct PortRef {
  unsigned node = 0;
  unsigned port = 0;
};

struct NodeDescription {
  enum class Kind : uint8_t { Endpoint, Switch, BoardEdge };
  Kind kind = Kind::Switch;
  std::string name;

  // Switch: its ports, pipeline (cycles a flit waits in it), crossbar speedup, the routing
  // function it asks (registered name) and its place in the topology for that function.
  unsigned ports = 0;
  unsigned latency = 1, speedup = 1;
  /// Ports own_first_port .. own_first_port + own_endpoint_ports - 1 lead to its own accelerator
  /// (a torus router's port 0, a multidim NPU router's lanes, a board router's lanes after N, E,
  /// S, W), whose deliveries are no hop; 0: none.
  unsigned own_endpoint_ports = 0;
  unsigned own_first_port = 0;
  std::string routing;
  RoutingContext place;

  // Endpoint: its number and its ports (0 counts as 1): a fabric accelerator's lanes (the link
  // from its port k is lane k, the network's inject[e * lanes + k] and eject[e * lanes + k]), an
  // NVSwitch GPU's links (one per plane).
  // BoardEdge: the board plane's edge port `edge` of board `board` (by * global_x + bx) in plane
  // `plane`, at router (x, y) of the board.
  // Switch: the plane of a tree switch or a C++ board router (router.model switch; its board
  // and place on it are its RoutingContext's).
  unsigned endpoint = 0;
  unsigned board = 0, plane = 0, edge = 0, x = 0, y = 0;
};

struct LinkDescription {
  PortRef a, b;          ///< a is the end nearer the endpoints (the lower level, the lower group)
  unsigned latency = 0;  ///< cycles, each way
  LinkRate rate;
  std::string link_class;  ///< the config's links.<class> it was derived from: "local", "global"
  Medium medium = Medium::Dac;
  /// The cable's length in its builder's physical layout, metres; 0 where the builder has no
  /// layout (then the runs report no cable metres). Its latency already includes it.
  double length_m = 0;
  /// Installed but broken (faults.links, topology/faults.h): counted as equipment, never built
  /// into the cycle model, so the switches at its ends see an unconnected port.
  bool failed = false;
};

/// What a plane costs: its switches and cables by medium (what cost::Equipment counts). The
/// routers of accelerators (switch nodes with their own endpoint port) are no switches to buy.
struct NetworkEquipment {
  uint64_t switches = 0;
  uint64_t pcb = 0, dac = 0, aoc = 0;  ///< links by medium; Internal ones are not cables
  std::string unpriced;                ///< NetworkDescription::unpriced
  uint64_t cables() const { return dac + aoc; }
};

/// One dimension's fat trees of a HammingMesh as the allocator models them (alloc::TreeLeaves):
/// `positions` boards along the tree, each with `ports` consecutive terminals (two per line of
/// accelerators: both edges), on the leaves of `shape` (one switch when shape.leaves is 0).
struct TreeLayout {
  unsigned positions = 0, ports = 0;
  TreeShape shape;
  unsigned leaf_down() const { return shape.leaves == 0 ? 0 : shape.down; }
};

/// The boards of a system: boards_x x boards_y boards of board_x x board_y accelerators, board
/// (bx, by) numbered by * boards_x + bx; for a HammingMesh also its row and column trees.
struct BoardGrid {
  unsigned boards_x = 0, boards_y = 0, board_x = 0, board_y = 0;
  TreeLayout rows, cols;  ///< positions 0: no trees (a torus)
};

/// The links of one class and medium with one latency and rate, and how many there are: what
/// the results list under config.network.links.
struct LinkGroup {
  std::string link_class;
  Medium medium = Medium::Dac;
  unsigned latency = 0;
  double flits_per_cycle = 1;
  uint64_t count = 0;
};

struct NetworkDescription {
  std::vector<NodeDescription> nodes;
  std::vector<LinkDescription> links;
  /// State the routing functions share (a Dragonfly's global wiring and UGAL's choices).
  std::shared_ptr<DragonflyPlan> dragonfly;
  /// A CLEX's graph and clex_balanced's routes (clex_plan.h).
  std::shared_ptr<ClexPlan> clex;
  /// A HammingMesh's or torus's boards (all 0 without boards).
  BoardGrid grid;
  /// Why the cost model's prices (analytic/topology_cost.h) do not fit this network's switches
  /// and cables; "" when they do.
  std::string unpriced;

  unsigned add_node(NodeDescription n) {
    nodes.push_back(std::move(n));
    return static_cast<unsigned>(nodes.size() - 1);
  }
  void add_link(PortRef a, PortRef b, unsigned latency, LinkRate rate, std::string link_class, Medium medium,
                double length_m = 0) {
    links.push_back(LinkDescription{a, b, latency, rate, std::move(link_class), medium, length_m});
  }
  bool empty() const { return nodes.empty(); }
  /// Switches and cables of `plane` (every plane when -1). A link is in the plane of its switch
  /// end: an endpoint (a GPU with one link per plane) belongs to no one plane.
  NetworkEquipment equipment(int plane = -1) const;
  /// The links grouped by class, medium, latency and rate, in order of first appearance.
  std::vector<LinkGroup> link_groups() const;
};

}  // namespace hx
