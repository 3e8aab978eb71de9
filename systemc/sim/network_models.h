// network_models.h: the registry of network models, and the one place where a config's
// topology.kind picks the model that builds and runs it.
//
// hxsim has two network models today:
//   - fabric:   the flit-level model: RTL board planes (Verilated) and C++ input-buffered VC
//               switches joined by FlitLinks (board, hammingmesh, fat_tree, torus, dragonfly,
//               multidim);
//   - nvswitch: the packet-level model of Klenk et al.: GPUs and output-queued NVSwitch-like
//               switches with Verilated reduction units (dgx2, nvswitch_tree).
// Each registers its routing functions, collectives and traffic patterns (for `hxsim list`), and
// entry points: check a config, run it, price its netlist. Which kinds a model builds is not
// listed here: each topology builder names its model (topology/topology_builder.h, one registry
// of every kind). `hxsim run CONFIG` reads topology.kind (after --set overrides), finds its builder
// in that registry and hands the config to the model the builder names; every model returns the
// same results schema (docs/simulator.md, "Results").
//
// Adding a model is one more entry in network_models.cpp, and builders that name it. Inside a
// model, the kind's topology builder (systemc/topology/) answers everything that depends on the
// kind.
#pragma once

#include <string>
#include <vector>

#include "config_reader.h"
#include "nlohmann/json.hpp"
#include "simulation.h"

namespace hx {

/// One `hxsim run` or `hxsim check`: the config and how to run it.
struct RunRequest {
  std::string config_path;             ///< "" for the built-in default config
  std::vector<std::string> overrides;  ///< --set key.path=value, in order
  RunOptions options;
  /// Options a model may not support; a model refuses what it cannot honour (UsageError-like
  /// std::invalid_argument naming the option).
  bool trace_window_given = false;
};

/// What a run produced: the results document and whether every check passed.
struct RunOutcome {
  nlohmann::ordered_json results;
  bool passed = false;
  std::string failure;  ///< the watchdog's or the checks' report; empty when passed
};

/// A system config's network as `hxsim cost` prints it: the netlist its builder makes, priced
/// (topology/network_cost.h).
struct PricedNetwork {
  std::string name, system;  ///< the config's name; what the builder calls the system
  unsigned endpoints = 0;
  nlohmann::ordered_json network;  ///< network_cost_json
};

/// A routing function, collective or traffic pattern a model registers, with one line of
/// description.
struct RegisteredName {
  std::string name, description;
};

struct NetworkModel {
  std::string name;         ///< "fabric", "nvswitch": what TopologyBuilder::model() names
  std::string description;  ///< one line
  std::vector<RegisteredName> routings, collectives, traffic;
  /// Loads and validates the config; returns the lines describing what it derived.
  std::vector<std::string> (*check)(const RunRequest&) = nullptr;
  /// Every key of the model's config schema (the one definition of keys, units and defaults).
  std::vector<KeyInfo> (*keys)() = nullptr;
  RunOutcome (*run)(const RunRequest&) = nullptr;
  /// The config's netlist, priced; std::invalid_argument for a system without a network.
  PricedNetwork (*price)(const RunRequest&) = nullptr;
};

/// Every registered model, in registration order.
const std::vector<NetworkModel>& network_models();
/// The model named `name`; throws std::invalid_argument naming the registered models.
const NetworkModel& network_model(const std::string& name);

/// The model that builds the config's topology.kind (read from the file, or the built-in default,
/// after the overrides): the one its builder names (topology_builder(kind).model()). A config
/// without a topology section but with an old NVSwitch `system:` section goes to the nvswitch
/// model, whose loader names the renamed keys. An unknown kind is a ConfigError at the kind's
/// position that lists every registered kind.
const NetworkModel& model_for(const RunRequest& request);

/// The config reference of every model as Markdown, generated from the schemas
/// (`hxsim config-reference`; docs/config-reference.md is this text).
std::string config_reference();

}  // namespace hx
