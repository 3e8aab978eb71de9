// nv_topology.h: the NVSwitch-like fabrics of Klenk et al. (ISCA 2020, section V): the netlist
// a builder makes (topology/nv_system_builder.h), who sits at each switch port, and the
// deterministic routes, multicast trees and reduction home ports. Plain C++, no SystemC.
//
// Every such system is built from "planes": GPU link j (of `links` = 6) goes to a switch of plane
// j, and nothing crosses planes. A plane has one leaf switch per group of 8 GPUs, with 8 GPU
// ports (0..7) and 8 up ports (8..15); where the up ports go is the kind's builder's choice
// (topology/nv_system_builder.h, one file per kind):
//   - dgx2: two leaves, trunk port 8+k of one cabled to trunk port 8+k of the other;
//   - nvswitch_tree (128 GPUs): 16 leaves and 8 spines; leaf port 8+k goes to spine k, spine port
//     G to the leaf of group G.
// So the whole DGX-2 has 2 x 6 = 12 switches and the fat tree 16 x 6 + 8 x 6 = 144, as in the paper.
//
// Routes are deterministic (the paper's section IV-E2: deterministic routing for unicast and
// multicast, multicast on the unicast paths). Every packet carries a 128-byte line address, and
// the line fixes its plane (line mod links) and the trunk or spine it crosses
// ((line / links) mod 8), so a pull response retraces its request's path in reverse and meets the
// reduction tables that request allocated.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "network_description.h"
#include "nv_system_builder.h"

namespace hx::nv {

/// Who sits at the far end of a switch port.
struct PortPeer {
  enum class Kind : uint8_t { None, Gpu, Switch } kind = Kind::None;
  unsigned index = 0;  // GPU id or switch id
  unsigned port = 0;   // GPU link, or the far switch's port
  unsigned link = 0;   // the netlist's link (NvTopology::network().links), its latency and rate
};

class NvTopology {
 public:
  static constexpr unsigned kPorts = kNvSwitchPorts;        // switch radix
  static constexpr unsigned kDownPorts = kNvLeafDownPorts;  // GPU ports of a leaf (0..7)
  static constexpr unsigned kUpPorts = kNvLeafUpPorts;      // ports 8..15: up or across

  /// The system of netlist `net`, which `builder` made (NvSystemBuilder::network): the switch
  /// ports' peers are its links, but those marked failed (topology/faults.h). Throws
  /// std::logic_error if a GPU link is not where the routes expect it (gpu_switch, gpu_port),
  /// and FaultError if failed links leave a plane of several groups no working trunk or spine.
  NvTopology(const NvSystemBuilder& builder, NetworkDescription net);
  /// The system `builder` makes of `groups` leaf groups of 8 GPUs (within the builder's sizes)
  /// and `links` GPU links = planes, with links of 1 cycle and 1 flit per cycle and switches of
  /// the first registered routing function. Throws std::invalid_argument for a size the kind
  /// does not come in.
  NvTopology(const NvSystemBuilder& builder, unsigned groups, unsigned links);
  /// The same, by topology.kind.
  NvTopology(const std::string& kind, unsigned groups, unsigned links);

  const char* kind() const;
  std::string name() const;
  unsigned gpus() const { return groups_ * kDownPorts; }
  unsigned links() const { return links_; }
  unsigned groups() const { return groups_; }
  unsigned switches() const { return static_cast<unsigned>(peers_.size()); }
  unsigned leaves_per_plane() const { return groups_; }
  unsigned spines_per_plane() const { return spines_; }
  unsigned switches_per_plane() const { return leaves_per_plane() + spines_per_plane(); }
  /// Longest GPU-to-GPU path in switch hops (DGX-2 2, fat tree 3).
  unsigned diameter_hops() const;

  unsigned plane_of_line(uint64_t line) const { return static_cast<unsigned>(line % links_); }
  /// Trunk (DGX-2) or spine (fat tree) a line's packets cross between leaves: 0..7. Lines go
  /// round-robin over the 8 in groups of `links` (one line per plane), and the pattern shifts by
  /// one after every round of the p owners (home_gpu), so that each GPU's lines use every trunk.
  /// Without the shift GPU g's lines all crossed trunk g mod 8, and a trunk's congestion slowed
  /// one GPU's pull waves only: that GPU fell behind and set the allreduce's time.
  /// With failed links (faults.*, topology/faults.h), a trunk or spine that lost one is out of
  /// its plane's routes: its lines take the next working one (up_map_).
  unsigned up_of_line(uint64_t line) const {
    const uint64_t group = line / links_;
    return up_map_[plane_of_line(line) * kUpPorts + static_cast<unsigned>((group + group / gpus()) % kUpPorts)];
  }

  bool is_leaf(unsigned sw) const { return sw % switches_per_plane() < groups_; }
  unsigned plane_of_switch(unsigned sw) const { return sw / switches_per_plane(); }
  unsigned leaf(unsigned plane, unsigned group) const { return plane * switches_per_plane() + group; }
  unsigned spine(unsigned plane, unsigned k) const { return plane * switches_per_plane() + groups_ + k; }
  /// The leaf switch GPU g's link j goes to, and the port there.
  unsigned gpu_switch(unsigned gpu, unsigned link) const { return leaf(link, gpu / kDownPorts); }
  unsigned gpu_port(unsigned gpu) const { return gpu % kDownPorts; }

  const PortPeer& peer(unsigned sw, unsigned port) const { return peers_[sw][port]; }
  /// The netlist it was built from: what the cycle model wires, the cost model and the results
  /// count.
  const NetworkDescription& network() const { return net_; }

  /// The output port of switch `sw` towards GPU `dst` for a packet of `line`.
  unsigned route_to_gpu(unsigned sw, unsigned dst, uint64_t line) const;
  /// The output port of `sw` towards switch `target` (same plane, target != sw).
  unsigned route_to_switch(unsigned sw, unsigned target, uint64_t line) const;

  /// Push reduction: the switch port whose reduction table is the home of `line`. Lines of a
  /// plane are interleaved over every port of every switch of that plane (but a spine taken out
  /// by a failed link: some leaves could not reach it).
  struct Home {
    unsigned sw, port;
  };
  Home home_of_line(uint64_t line) const;
  /// The GPU responsible for `line`: push collects its evicted partials there, and pull has it
  /// request the line's reduction. Groups of `links` consecutive lines (one per plane) share a
  /// home, so each GPU's lines use every plane.
  unsigned home_gpu(uint64_t line) const { return static_cast<unsigned>((line / links_) % gpus()); }

  /// Multicast to every GPU (but `exclude`, -1 for none) of a packet of `line` that entered
  /// switch `sw` on port `in` (-1: from inside the switch): the set of output ports (bit i = port
  /// i), and how many GPUs those ports reach. A port that leads back where the packet came from
  /// is never in the set: the multicast follows the unicast routes (BRCP), as a tree.
  struct Fanout {
    uint32_t ports = 0;
    unsigned gpus = 0;
  };
  Fanout multicast(unsigned sw, int in, uint64_t line, int exclude) const;

 private:
  const NvSystemBuilder& builder_;
  NetworkDescription net_;
  unsigned groups_ = 0, links_ = 0, spines_;
  std::vector<std::vector<PortPeer>> peers_;
  // Per plane: up_map_[plane * kUpPorts + k], the trunk or spine that lines of choice k take (k
  // itself unless it lost a link: then the next working one); home_switches_[plane], the
  // switches whose ports are homes.
  std::vector<unsigned> up_map_;
  std::vector<std::vector<unsigned>> home_switches_;
  // fanout_[sw][in + 1][up]: the multicast to all GPUs, per entry port and trunk/spine choice.
  std::vector<std::vector<std::vector<Fanout>>> fanout_;
};

}  // namespace hx::nv
