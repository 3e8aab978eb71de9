// fabric_topology.h: the topology builders of the fabric model, one per topology.kind, in the one
// registry of every model's builders (topology_builder.h, registry.cpp).
//
// A builder knows its topology: whether its accelerators sit on RTL board planes or are
// endpoints of C++ switches, the network that joins them as a netlist (network()), what the
// results call the system, how it routes, and its analytical diameter (the one `hxsim cost`
// computes), against which every run checks its longest path. Simulation (sim/build.cpp,
// sim/report.cpp) asks the builder of its config's kind; it does not test the kind itself. The
// cycle model instantiates the netlist (SwitchFabric::build), the results price it
// (NetworkDescription::equipment()).
//
// Adding a topology kind: one file here with a class derived from FabricTopology, one line in
// registry.cpp (the one registry of every model's kinds), and its keys in the config schema
// (config/sim_config.cpp). docs/architecture.md walks through an example.
#pragma once

#include <initializer_list>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "config_reader.h"
#include "network_description.h"
#include "nlohmann/json.hpp"
#include "node_grid.h"
#include "sim_config.h"
#include "topology_builder.h"
#include "topology_cost.h"

namespace hx {

class FabricTopology : public TopologyBuilder {
 public:
  /// Built and run by the fabric model (sim/network_models.cpp).
  const char* model() const final { return "fabric"; }
  /// The accelerators sit on boards, addressed by board and node in the header (the boards' routers
  /// are RTL planes unless rtl_boards() says otherwise); else they are endpoints of C++ switches,
  /// addressed by their number in the header's board fields (TreeAddressing).
  virtual bool has_boards() const = 0;
  /// Its boards are Verilated RTL planes (hx_board_plane); false where it has none, or where
  /// C++ switches stand in for the boards' routers (a HammingMesh with router.model switch: then
  /// its accelerators keep their board addresses, and network() describes the routers too).
  virtual bool rtl_boards(const SimConfig&) const { return has_boards(); }
  /// The boards and, for a HammingMesh, the trees' leaf layout, as network() builds them; what
  /// the job allocator reads (alloc/). None for systems without a board grid.
  virtual std::optional<BoardGrid> board_grid(const SimConfig&) const { return std::nullopt; }
  /// Its accelerators may have several local ports (router.local_ports): the RTL routers' lanes.
  virtual bool has_lanes() const { return has_boards(); }
  /// C++ switches join the boards or endpoints: network() describes them.
  virtual bool has_fabric() const { return true; }
  /// The network of C++ switches that joins the boards or endpoints, in construction order.
  virtual NetworkDescription network(const SimConfig&) const { return {}; }
  /// The system in one line, for config.system.
  virtual std::string describe(const SimConfig& cfg) const = 0;
  /// How it routes, in a few words, for config.routing_summary.
  virtual std::string routing_summary(const SimConfig& cfg) const = 0;
  /// The topology as the analytical model describes it (analytic/topology_cost.h), or none (a
  /// lone board). Its diameter, in cables or router hops, is what every run checks its longest
  /// path against; its equipment is what the netlist's must equal (tests/topology_test.cpp).
  virtual std::optional<cost::TopologySpec> analytic_spec(const SimConfig&) const { return std::nullopt; }
  /// The analytical model's diameter of analytic_spec(); -1 without one.
  int diameter(const SimConfig& cfg) const;
  /// Network links an accelerator has per plane, the paper's injection bandwidth: 4 (N, E, S, W)
  /// where the accelerators' routers are the network, 1 where an endpoint has one switch port.
  virtual unsigned links_per_plane() const { return 1; }
  /// The platform's dimensions, dim1 first, over which hierarchical collectives run
  /// (dim_schedule.h; `hxsim model`); none for a topology that is not described by dimensions.
  virtual std::vector<Dimension> dimensions(const SimConfig&) const { return {}; }
  /// The highest VC a packet may arrive on, which every run checks (PacketTracker's path rule):
  /// the HammingMesh paper's three VCs unless the kind's routing needs more.
  virtual unsigned max_path_vc(const SimConfig&) const { return 2; }
  /// `hxsim model` runs the round-based model of a rounds section on it (CLEX).
  virtual bool has_round_model() const { return false; }
  /// Keys of this topology for the results' config section.
  virtual void add_config(nlohmann::ordered_json&, const SimConfig&) const {}

  // ---- its config: what config/sim_config.cpp asks, so that nothing else tests the kind ------
  /// Accelerators along x and y (node n at (n mod x, n div x)) and boards of RTL routers, from
  /// the topology keys alone (the traffic keys ask before the config is checked).
  struct Size {
    unsigned x = 0, y = 0, boards = 0;
  };
  virtual Size size(const SimConfig& c) const = 0;
  /// The axes of the endpoints' node grid (core/node_grid.h), which the coordinate traffic
  /// patterns map: (size().x, size().y) unless the builder places its endpoints otherwise. From
  /// the topology keys alone, like size(); empty when they make no network (check() says why).
  virtual std::vector<unsigned> grid_extents(const SimConfig& c) const;
  /// The node grid itself: by default endpoint n at grid number n, (n mod x, n div x).
  virtual NodeGrid node_grid(const SimConfig& c) const;
  /// routing.algorithm: the names this kind accepts (registered routing functions, or the board
  /// routers' rules), in the order the schema lists them, and the one it takes by default. The
  /// schema reads the name into SimConfig::routing; check() turns it into what the switches use.
  virtual std::vector<std::string> routing_names() const = 0;
  virtual std::string default_routing() const { return routing_names().front(); }
  /// Checks the topology keys for this kind: required, forbidden (forbid()) or constrained, and
  /// derives what its switches use from them (a Dragonfly's topology.endpoints and UGAL flag, a
  /// board's route mode). Reports through
  /// reader.field(...).fail(...), with the file position.
  virtual void check(const ConfigReader& reader, SimConfig& c) const = 0;
  /// Planes (independent networks) it may have: topology.planes is at most this.
  virtual unsigned max_planes() const { return 1; }
  /// Its topology keys with their values, in schema order (for effective values and to_yaml).
  virtual void topology_values(const SimConfig& c, std::vector<std::pair<std::string, std::string>>& v) const = 0;
  /// Derivation lines of its own (its trees' shapes), after the links' and the switch's.
  virtual void derivations(const SimConfig&, std::vector<std::string>&) const {}
  /// Cycles a flit spends in one of its switches' pipelines: switch.latency (a torus router is
  /// an accelerator's, one cycle). switch.buffer_depth auto covers it.
  virtual unsigned switch_pipeline(const SimConfig& c) const { return c.fabric_switch.latency_cycles; }
  /// Flits one VC must buffer to keep its slowest-to-answer link busy: the credit round trip of
  /// the longest link, times its rate, and how that was computed (for the derivation report).
  /// switch.buffer_depth auto is this (at least 8).
  struct RoundTrip {
    double flits = 0;
    std::string how;
  };
  virtual RoundTrip credit_round_trip(const SimConfig& c) const;

 protected:
  /// Fails on the first of `keys` the config has, since this kind takes none of them.
  void forbid(const ConfigReader& reader, std::initializer_list<const char*> keys) const;
  /// Fails unless the config has `path` ("topology.global"), which this kind needs.
  void require(const ConfigReader& reader, const std::string& path, const std::string& expected) const;
  /// routing.algorithm on RTL boards: the board routers' rules (routing/board_mesh.h).
  static std::vector<std::string> board_routing_names();
  /// "4x4"
  static std::string size_text(unsigned x, unsigned y) { return std::to_string(x) + "x" + std::to_string(y); }
};

/// The builder of `kind` (one of the fabric model's topology kinds); throws std::invalid_argument
/// naming the fabric model's kinds for any other, another model's kind too.
const FabricTopology& fabric_topology(const std::string& kind);
/// The fabric model's builders: the registry's (topology_builders()) in registration order.
const std::vector<const FabricTopology*>& fabric_topologies();

/// A hierarchical collective's schedule request (dim_schedule.h): the platform's dimensions and
/// the collective section's op, message and chunk scheduling. What both the cycle model and
/// `hxsim model` schedule.
ScheduleRequest hierarchical_request(const SimConfig& c);

}  // namespace hx
