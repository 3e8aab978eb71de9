// nv_system_builder.h: the builders of the NVSwitch-like systems, one per topology.kind, in the one
// registry of every model's builders (topology_builder.h, registry.cpp): dgx2 (dgx2.cpp) and
// nvswitch_tree (nvswitch_tree.cpp). The nvswitch model (systemc/nvswitch/) builds and runs them.
//
// A builder describes its system as a netlist, the one description every model's systems share
// (network_description.h): a GPU node per GPU with one port per link, a switch node per
// NVSwitch, and a link per GPU link and per switch-to-switch cable. NvTopology takes its wiring
// from that netlist, NvSystem its links' latencies and rates, and the cost model and the results
// (config.network) count its switches and links.
//
// Every such system is built from planes of 16-port switches (kNvSwitchPorts below): GPU link j
// goes to a leaf of plane j, 8 GPUs to a leaf. The part every kind shares is network() below: the
// GPUs, the switches of each plane (its leaves, then its spines, in NvTopology's numbering) and
// the GPU links. What a kind decides is everything above the leaves' GPU ports: where a leaf's 8
// up ports go (the other leaf's trunk ports, or spines) and over what medium, how many spines a
// plane has, how many leaf groups the system may have, and what the results call it.
// NvTopology (nvswitch/nv_topology.h) asks its builder and knows no kind; the routes, multicast
// trees and reduction homes follow from the wiring.
//
// Why these builders live here, in hx_system, and not beside the nvswitch model: the one registry
// (registry.cpp, in hx_system) names every builder, and hx_nvswitch depends on hx_system, not the
// other way round. A builder needs only the netlist (network_description.h) and link rates
// (core/link_rate.h), no SystemC and nothing of the nvswitch model, so the files moved rather
// than the nvswitch library registering its kinds into hx_system at run time (static
// registration objects in a static library are dropped by the linker unless referenced).
//
// Adding a kind: one file here with a class derived from NvSystemBuilder, one line in
// registry.cpp.
#pragma once

#include <string>
#include <vector>

#include "link_rate.h"
#include "network_description.h"
#include "topology_builder.h"

namespace hx::nv {

/// The NVSwitch-like switch every such system is built of: 16 ports; on a leaf, ports 0..7 go
/// down to the GPUs of its group and 8..15 up (to spines) or across (to the other leaf).
constexpr unsigned kNvSwitchPorts = 16;
constexpr unsigned kNvLeafDownPorts = 8;
constexpr unsigned kNvLeafUpPorts = kNvSwitchPorts - kNvLeafDownPorts;

/// What the netlist takes from the config besides the kind (NvConfig::network_params()).
struct NvNetworkParams {
  unsigned groups = 0;            ///< leaf groups of 8 GPUs
  unsigned links = 0;             ///< links per GPU = planes
  std::string routing;            ///< the switches' routing function (routing.algorithm, nv_routing.h)
  unsigned link_latency = 1;      ///< cycles, every link (topology.link_latency)
  LinkRate gpu_rate, trunk_rate;  ///< GPU links; switch-to-switch links (topology.trunk_bandwidth)
};

/// One plane of the netlist under construction, for a builder's wire_plane(): where its
/// switches' ports are, and the cable between two of them.
class NvPlaneWiring {
 public:
  NvPlaneWiring(NetworkDescription& net, const NvNetworkParams& p, unsigned first_switch)
      : net_(net), p_(p), first_(first_switch) {}
  unsigned groups() const { return p_.groups; }
  PortRef leaf(unsigned group, unsigned port) const { return {first_ + group, port}; }
  PortRef spine(unsigned k, unsigned port) const { return {first_ + p_.groups + k, port}; }
  /// A switch-to-switch link from `lower` (the leaf, or the lower group's leaf) to `upper`: class
  /// "global" (the fabric netlists' class of links between switches), the trunk rate.
  void cable(PortRef lower, PortRef upper, Medium medium) const {
    net_.add_link(lower, upper, p_.link_latency, p_.trunk_rate, "global", medium);
  }

 private:
  NetworkDescription& net_;
  const NvNetworkParams& p_;
  unsigned first_;
};

class NvSystemBuilder : public TopologyBuilder {
 public:
  /// Built and run by the nvswitch model (sim/network_models.cpp).
  const char* model() const final { return "nvswitch"; }
  /// Leaf groups of 8 GPUs when the config names none, and the sizes it may name ("" when the
  /// kind comes in one size: the config then may not name one).
  virtual unsigned default_groups() const = 0;
  virtual unsigned min_groups() const = 0;
  virtual unsigned max_groups() const = 0;
  /// Spine switches per plane (0: the leaves are cabled to each other).
  virtual unsigned spines_per_plane() const = 0;
  /// Longest GPU-to-GPU path in switch hops.
  virtual unsigned diameter_hops() const = 0;
  /// What the results call a system of `gpus` GPUs and `switches` switches: "DGX-2 (16 GPUs, 12
  /// switches)".
  virtual std::string name(unsigned gpus, unsigned switches) const = 0;

  /// The system's netlist. Throws std::invalid_argument for a size the kind does not come in.
  NetworkDescription network(const NvNetworkParams& p) const;

 protected:
  /// Cable one plane above its leaves' GPU ports: the leaves' up ports (8..15) and the spines.
  virtual void wire_plane(const NvPlaneWiring& plane) const = 0;
};

/// The builder of `kind` (one of the nvswitch model's kinds); throws std::invalid_argument naming
/// the nvswitch model's kinds for any other, another model's kind too.
const NvSystemBuilder& nv_system_builder(const std::string& kind);
/// The nvswitch model's builders: the registry's (topology_builders()) in registration order.
const std::vector<const NvSystemBuilder*>& nv_system_builders();

}  // namespace hx::nv
