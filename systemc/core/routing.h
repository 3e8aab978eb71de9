// routing.h: the one signature of every switch's routing function, and of its registration.
//
// A switch knows nothing of the topology it sits in. When a packet's head reaches the front of
// one of its inputs, it asks its routing function where the packet goes, and the function answers
// from the head, the input and VC it waits at, and what the switch shows of itself (its place, its
// outputs' room and load). Both switch kinds ask this one question:
//   - the fabric model's input-buffered VC switch (fabric/network_switch.h) about a head flit,
//     answered with one output port and VC, or "none now" (routing/routing_function.h);
//   - the NVSwitch-like switch (nvswitch/nv_switch.h) about a whole packet, answered with its
//     output ports (several for a multicast), a port's reduction table, or "absorbed here"
//     (nvswitch/routing/nv_routing.h).
// What differs is the unit the switch moves (Head) and what a route is (Choice), so the signature
// is one template over them. Every function is registered by name with a factory that builds it
// for one switch or system (Context); `hxsim list` prints each registry, and a config names the
// function in routing.algorithm (named_registry.h finds it or lists the registered names).
#pragma once

#include <memory>
#include <string>

namespace hx {

template <class Head, class Switch, class Choice>
class Routing {
 public:
  virtual ~Routing() = default;
  /// Where the packet whose head waits at the front of input `in`, VC `vc`, of switch `sw` goes.
  virtual Choice route(const Head& head, unsigned in, unsigned vc, const Switch& sw) = 0;
  /// Where a waiting head is headed, for deadlock reports ("head for terminal 5"), or "".
  virtual std::string describe_head(const Head&) const { return ""; }
};

/// A registered routing function: its name (routing.algorithm), what it does, and its factory.
template <class Function, class Context>
struct RegisteredRoutingOf {
  std::string name, description;
  std::unique_ptr<Function> (*make)(const Context&);
};

}  // namespace hx
