// nv_routing.h: the routing functions of the NVSwitch-like switch, one signature, registered by
// name (routing.algorithm; registry.cpp).
//
// The switch (nv_switch.h) does not know the system it sits in: for every packet it asks its
// routing function which output port leads to a GPU or to another switch, which ports a
// multicast to every GPU leaves by (and how many GPUs each copy set reaches), and which switch
// port's reduction table is the home of a push line. Routes are deterministic per line, so a pull
// response retraces its request's path and meets the tables the request allocated (Klenk et al.,
// IV-E2).
//
// Registered functions:
//   table   the fabric manager's routing and multicast (MCR) tables (IV-A): the routes, trees
//           and homes NvTopology computes from the wiring at construction (table.cpp)
//
// Adding a routing function: one file with a class derived from NvRouting and a factory, and one
// line in registry.cpp.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "nv_topology.h"

namespace hx::nv {

class NvRouting {
 public:
  virtual ~NvRouting() = default;
  /// The output port of switch `sw` towards GPU `gpu` for a packet of `line`.
  virtual unsigned to_gpu(unsigned sw, unsigned gpu, uint64_t line) const = 0;
  /// The output port of `sw` towards switch `target` (same plane, target != sw).
  virtual unsigned to_switch(unsigned sw, unsigned target, uint64_t line) const = 0;
  /// The copies of a multicast to every GPU but `exclude` (-1: none) of a packet of `line` that
  /// entered `sw` on port `in` (-1: from inside the switch).
  virtual NvTopology::Fanout multicast(unsigned sw, int in, uint64_t line, int exclude) const = 0;
  /// The switch port whose reduction table is the home of push line `line`.
  virtual NvTopology::Home home(uint64_t line) const = 0;
};

using NvRoutingFactory = std::unique_ptr<NvRouting> (*)(const NvTopology&);

struct RegisteredNvRouting {
  std::string name, description;
  NvRoutingFactory make;
};

/// Every registered routing function, in registration order.
const std::vector<RegisteredNvRouting>& nv_routings();
/// The routing function `name` for the system `topo`; throws std::invalid_argument naming the
/// registered ones if there is none of that name.
std::unique_ptr<NvRouting> make_nv_routing(const std::string& name, const NvTopology& topo);

}  // namespace hx::nv
