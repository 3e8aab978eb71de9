// topology_builder.h: the one registry of topology builders, one per topology.kind, whatever
// network model builds it (registry.cpp, one line per kind).
//
// Every builder says what it is: the kind configs name (topology.kind), one line of description,
// and the network model that builds and runs it (sim/network_models.cpp: "fabric" or
// "nvswitch"). That is all `hxsim list`, `hxsim run`, `hxsim check` and `hxsim cost` need to pick
// the model (model_for()); no other list of kinds exists. What else a builder answers depends on
// its model, so it lives on the model's own base class, derived from this one:
//   - FabricTopology (fabric_topology.h): its config keys, its netlist of RTL boards and C++
//     switches, its board grid, analytical spec and dimensions;
//   - nv::NvSystemBuilder (nv_system_builder.h): the group sizes it comes in, the wiring of a
//     plane's up ports, its netlist of GPUs and NVSwitch-like switches.
// Each model looks its builders up through a typed view of this registry (fabric_topology(),
// nv::nv_system_builder()), which refuses a kind of another model.
//
// Adding a topology kind: one file in this folder with a class derived from the model's builder
// class, and one line in registry.cpp. docs/architecture.md walks through an example.
#pragma once

#include <string>
#include <vector>

namespace hx {

class TopologyBuilder {
 public:
  virtual ~TopologyBuilder() = default;
  /// The name configs write (topology.kind) and `hxsim list` prints.
  virtual const char* kind() const = 0;
  /// One line for `hxsim list`.
  virtual const char* description() const = 0;
  /// The network model that builds it: the name of a model of network_models()
  /// (sim/network_models.h), "fabric" or "nvswitch".
  virtual const char* model() const = 0;
};

/// Every registered builder, of every model, in registration order (registry.cpp).
const std::vector<const TopologyBuilder*>& topology_builders();
/// The builder of `kind`; throws std::invalid_argument naming every registered kind.
const TopologyBuilder& topology_builder(const std::string& kind);

/// The registered builders of one model's builder class, in registration order: the typed views
/// fabric_topologies() and nv::nv_system_builders() are this.
template <class Builder>
std::vector<const Builder*> topology_builders_of() {
  std::vector<const Builder*> v;
  for (const TopologyBuilder* b : topology_builders())
    if (const auto* t = dynamic_cast<const Builder*>(b)) v.push_back(t);
  return v;
}

}  // namespace hx
