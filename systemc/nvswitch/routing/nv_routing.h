// nv_routing.h: the routing functions of the NVSwitch-like switch, on the one signature of every
// switch's routing function (core/routing.h), registered by name (routing.algorithm;
// registry.cpp).
//
// The switch (nv_switch.h) does not know the system it sits in: for every packet at the front of
// an input it asks its routing function where the packet goes: to which output ports (one for a
// unicast, the copy set of a multicast to every GPU, with how many GPUs the copies reach), into
// the reduction table of one of its ports (a pull response; a push write at the line's home
// port), or nowhere (an acknowledgment for this switch's own port). Routes are deterministic per
// line, so a pull response retraces its request's path and meets the tables the request allocated
// (Klenk et al., IV-E2).
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

#include "nv_packet.h"
#include "nv_topology.h"
#include "routing.h"

namespace hx::nv {

class NvSwitch;

/// Where a packet goes from a switch.
struct NvRoute {
  uint32_t ports = 0;     ///< output ports that each get a copy (bit p: port p)
  bool to_table = false;  ///< ... or the reduction table of port `table_port`
  unsigned table_port = 0;
  bool sink = false;  ///< ... or nowhere: it ends at this switch
  unsigned gpus = 0;  ///< a multicast: the GPUs its copies reach
};

/// The switch's routing function: route(packet, input, VC, switch) gives its NvRoute. Inputs
/// 0 .. kPorts-1 are the links; an input from kPorts on is the reinjection of a port's reduction
/// table (a packet from inside the switch).
class NvRouting : public Routing<Packet, NvSwitch, NvRoute> {};

using NvRoutingFactory = std::unique_ptr<NvRouting> (*)(const NvTopology&);
using RegisteredNvRouting = RegisteredRoutingOf<NvRouting, NvTopology>;

/// Every registered routing function, in registration order.
const std::vector<RegisteredNvRouting>& nv_routings();
/// The routing function `name` for the system `topo`; throws std::invalid_argument naming the
/// registered ones if there is none of that name.
std::unique_ptr<NvRouting> make_nv_routing(const std::string& name, const NvTopology& topo);

}  // namespace hx::nv
