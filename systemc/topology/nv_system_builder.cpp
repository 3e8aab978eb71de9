// nv_system_builder.cpp: what every NVSwitch-like system's netlist has, whatever its kind: the
// GPUs, the planes' switches and the GPU links.
#include "nv_system_builder.h"

#include <stdexcept>

namespace hx::nv {

NetworkDescription NvSystemBuilder::network(const NvNetworkParams& p) const {
  if (p.links < 1 || p.links > kNvSwitchPorts)
    throw std::invalid_argument("NvTopology: links must be in 1.." + std::to_string(kNvSwitchPorts));
  if (p.groups < min_groups() || p.groups > max_groups())
    throw std::invalid_argument(std::string("NvTopology: a ") + kind() + " has " +
                                (min_groups() == max_groups()
                                     ? "exactly " + std::to_string(min_groups())
                                     : std::to_string(min_groups()) + ".." + std::to_string(max_groups())) +
                                " groups of 8 GPUs");
  NetworkDescription net;
  // The cost model's prices are a 64-port Ethernet switch and 100 Gb/s cables (appendix A-E of
  // the HammingMesh paper); it has none for an NVSwitch or NVLink, and none is made up here.
  net.unpriced = "the cost model has no price for an NVSwitch or an NVLink cable";
  const unsigned gpus = p.groups * kNvLeafDownPorts;
  for (unsigned g = 0; g < gpus; ++g) {
    NodeDescription n;
    n.kind = NodeDescription::Kind::Endpoint;
    n.name = "gpu" + std::to_string(g);
    n.endpoint = g;
    n.ports = p.links;
    net.add_node(std::move(n));
  }
  // The switches as NvTopology numbers them: plane by plane, its leaves, then its spines. Their
  // pipeline and (fractional) crossbar speedup are the switch model's parameters (SwitchParams,
  // from switch.*), the same for every switch, which NvSystem does not read from here.
  const unsigned per_plane = p.groups + spines_per_plane();
  for (unsigned j = 0; j < p.links; ++j)
    for (unsigned s = 0; s < per_plane; ++s) {
      NodeDescription n;
      n.kind = NodeDescription::Kind::Switch;
      n.name = "switch" + std::to_string(j * per_plane + s);
      n.ports = kNvSwitchPorts;
      n.routing = p.routing;
      n.plane = j;
      net.add_node(std::move(n));
    }
  // GPU g's link j to port g mod 8 of its group's leaf in plane j. Klenk et al. (section II)
  // describe the DGX-2's two groups, not its boards; in NVIDIA's DGX-2 each group, 8 GPUs and
  // their 6 NVSwitches, is one baseboard, and the 128-GPU tree's groups are taken to be the same
  // board. So these links are PCB traces: class "local", as the fabric netlists call a board's
  // own links.
  for (unsigned j = 0; j < p.links; ++j) {
    const NvPlaneWiring plane(net, p, gpus + j * per_plane);
    for (unsigned g = 0; g < gpus; ++g)
      net.add_link({g, j}, plane.leaf(g / kNvLeafDownPorts, g % kNvLeafDownPorts), p.link_latency, p.gpu_rate, "local",
                   Medium::Pcb);
    wire_plane(plane);
  }
  return net;
}

}  // namespace hx::nv
