// fabric_topology.h: the topology builders of the fabric model, one per topology.kind, registered
// by kind (registry.cpp).
//
// A builder knows its topology: whether its accelerators sit on RTL board planes or are
// endpoints of C++ switches, how the switch fabric joins them (SwitchFabric's wiring), what the
// results call the system, how it routes, and its analytical diameter (the one `hxsim cost`
// computes), against which every run checks its longest path. Simulation (sim/build.cpp,
// sim/report.cpp) asks the builder of its config's kind; it does not test the kind itself.
//
// Adding a topology kind: one file here with a class derived from FabricTopology, one line in
// registry.cpp, and its keys in the config schema (config/sim_config.cpp).
#pragma once

#include <string>
#include <vector>

#include "nlohmann/json.hpp"
#include "sim_config.h"

namespace hx {

class FlitLink;
class PlaneModel;
class SwitchFabric;

/// What a builder wires: the endpoints' links (systems without boards) or the board planes.
struct FabricPorts {
  std::vector<FlitLink*> inject, eject;          ///< per endpoint: into and out of the network
  std::vector<std::vector<PlaneModel*>> planes;  ///< [plane][board], board by * global_x + bx
};

class FabricTopology {
 public:
  virtual ~FabricTopology() = default;
  virtual const char* kind() const = 0;
  virtual const char* description() const = 0;
  /// The accelerators sit on RTL board planes; else they are endpoints of C++ switches, addressed
  /// by their number in the header's board fields (TreeAddressing).
  virtual bool has_boards() const = 0;
  /// C++ switches join the boards or endpoints: a SwitchFabric is built and wire() wires it.
  virtual bool has_fabric() const { return true; }
  virtual void wire(SwitchFabric&, const SimConfig&, const FabricPorts&) const {}
  /// The system in one line, for config.system.
  virtual std::string describe(const SimConfig& cfg) const = 0;
  /// How it routes, in a few words, for config.routing_summary.
  virtual std::string routing_summary(const SimConfig& cfg) const = 0;
  /// The analytical diameter in cables or router hops that the longest path is checked against;
  /// -1: none (a lone board).
  virtual int diameter(const SimConfig&) const { return -1; }
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
