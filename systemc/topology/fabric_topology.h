// fabric_topology.h: the topology builders of the fabric model, one per topology.kind, registered
// by kind (registry.cpp).
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
// registry.cpp, and its keys in the config schema (config/sim_config.cpp). docs/architecture.md
// walks through an example.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "network_description.h"
#include "nlohmann/json.hpp"
#include "sim_config.h"
#include "topology_cost.h"

namespace hx {

class FabricTopology {
 public:
  virtual ~FabricTopology() = default;
  virtual const char* kind() const = 0;
  virtual const char* description() const = 0;
  /// The accelerators sit on RTL board planes; else they are endpoints of C++ switches, addressed
  /// by their number in the header's board fields (TreeAddressing).
  virtual bool has_boards() const = 0;
  /// The boards and, for a HammingMesh, the trees' leaf layout, as network() builds them; what
  /// the job allocator reads (alloc/). None for systems without a board grid.
  virtual std::optional<BoardGrid> board_grid(const SimConfig&) const { return std::nullopt; }
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
  /// Keys of this topology for the results' config section.
  virtual void add_config(nlohmann::ordered_json&, const SimConfig&) const {}
};

/// The builder of `kind` (one of the fabric model's topology kinds); throws std::invalid_argument
/// naming the registered kinds for any other.
const FabricTopology& fabric_topology(const std::string& kind);
/// Every registered builder, in registration order.
const std::vector<const FabricTopology*>& fabric_topologies();

}  // namespace hx
