// faults.h: failed links and switches (faults.links, faults.switches; docs/reliability.md), applied
// to a netlist before the cycle model builds it.
//
// A failed link stays in the netlist, marked (LinkDescription::failed): it is installed equipment,
// so the cost and the results count it, but SwitchFabric does not build it, and the switches at
// its ends see an unconnected port. A failed switch fails every link it has.
//
// Routing around them is the routing function's job, from what it knows of its own switch and
// from what apply_faults() tells it. Two routings do so:
//   - up/down routing in fat trees (routing/tree.cpp): every switch of a tree routes from a
//     table of the working links (topology/tree_routes.h, RoutingContext::tree_routes): up only
//     towards switches that still reach the destination's leaf, down by a working one of its
//     parallel links. A fault that leaves two leaves of a tree without a path between them is
//     refused, naming the two leaves, before the run starts.
//   - the NVSwitch-like fabric's tables (nvswitch/nv_topology.h): a plane's trunk or spine with a
//     failed link is taken out of the plane's routes, multicast trees and reduction homes.
// Only links between two such switches may fail, so that every endpoint, board and GPU keeps its
// cables: the boards' RTL routers do not route around a cable, and an endpoint has one.
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include "config_reader.h"
#include "fault_set.h"
#include "network_description.h"

namespace hx {

/// Why a fault cannot be applied: its key ("faults.links", "faults.switches"; "faults" for the set
/// as a whole), its index in that list (none for the set), what was expected and what was found.
struct FaultError : std::invalid_argument {
  std::string key;
  std::ptrdiff_t index = -1;
  std::string expected, found;
  FaultError(std::string k, std::ptrdiff_t i, std::string e, std::string f)
      : std::invalid_argument(k + ": expected " + e + ", found " + f),
        key(std::move(k)),
        index(i),
        expected(std::move(e)),
        found(std::move(f)) {}
};

/// `e` as the config's error, at its place in the file: the faults section, or the entry of the
/// list it names. For every model's loader.
[[noreturn]] void fail_at(const ConfigReader& reader, const FaultError& e);

/// The config's faults section (faults.links, faults.switches) into `f`: one schema for every
/// model's config.
KeySpec fault_keys(FaultSet& f);

/// Marks the failed links of `net` and gives every switch of a tree of several switches its
/// up/down table over the working links (route_trees(); with no faults too).
/// Throws FaultError for a name the netlist does not have, a link that may not fail, a fault named
/// twice, or faults that leave no path.
void apply_faults(NetworkDescription& net, const FaultSet& faults);

}  // namespace hx
