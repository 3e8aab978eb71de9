#include "nv_topology.h"

#include <stdexcept>
#include <utility>

#include "faults.h"
#include "netlist_instance.h"
#include "nv_routing.h"
#include "nv_system_builder.h"

namespace hx::nv {

NvTopology::NvTopology(const std::string& kind, unsigned groups, unsigned links)
    : NvTopology(nv_system_builder(kind), groups, links) {}

NvTopology::NvTopology(const NvSystemBuilder& builder, unsigned groups, unsigned links)
    : NvTopology(builder, builder.network({groups, links, nv_routings().front().name, 1, LinkRate{}, LinkRate{}})) {}

NvTopology::NvTopology(const NvSystemBuilder& builder, NetworkDescription net)
    : builder_(builder), net_(std::move(net)), spines_(builder.spines_per_plane()) {
  // Who sits at each switch port: the netlist instantiated as every model instantiates it
  // (netlist_instance.h), so a switch's number here is the NvSwitch the system makes for it and a
  // GPU's its endpoint number. A failed link leaves both its ports unconnected.
  const NetlistNumbering numbering(net_);
  for (const NodeDescription& n : net_.nodes)
    if (n.kind == NodeDescription::Kind::Endpoint) links_ = n.ports;
  groups_ = numbering.endpoints() / kDownPorts;
  peers_.assign(numbering.switches(), std::vector<PortPeer>(kPorts));
  struct Peers {
    NvTopology& t;
    void make_switch(unsigned, const NodeDescription&) {}
    void connect(unsigned l, const LinkDescription&, const NetlistEnd& a, const NetlistEnd& b) {
      if (a.kind == NodeDescription::Kind::Endpoint) {
        // The routes find GPU g's link j at port gpu_port(g) of gpu_switch(g, j): the wiring must agree.
        const unsigned g = a.index;
        if (b.index != t.gpu_switch(g, a.port) || b.port != t.gpu_port(g))
          throw std::logic_error(std::string(t.kind()) + ": GPU " + std::to_string(g) + "'s link " +
                                 std::to_string(a.port) + " is not where the routes expect it");
        t.peers_[b.index][b.port] = {PortPeer::Kind::Gpu, g, a.port, l};
      } else {
        t.peers_[a.index][a.port] = {PortPeer::Kind::Switch, b.index, b.port, l};
        t.peers_[b.index][b.port] = {PortPeer::Kind::Switch, a.index, a.port, l};
      }
    }
  } peers{*this};
  instantiate(net_, peers);

  // The working trunks or spines of each plane: a DGX-2 trunk k with its link, a spine with a link
  // to every leaf. Lines of a failed choice take the next working one; homes leave failed spines.
  up_map_.resize(std::size_t{links_} * kUpPorts);
  home_switches_.assign(links_, {});
  for (unsigned j = 0; j < links_; ++j) {
    std::vector<bool> works(kUpPorts, true);
    for (unsigned k = 0; k < kUpPorts; ++k)
      for (unsigned g = 0; g < groups_; ++g)
        if (peers_[leaf(j, g)][kDownPorts + k].kind != PortPeer::Kind::Switch) works[k] = false;
    unsigned working = 0;
    for (unsigned k = 0; k < kUpPorts; ++k) working += works[k];
    if (working == 0 && groups_ > 1)
      throw FaultError("faults", -1, "faults that leave every plane a working trunk or spine",
                       "none in plane " + std::to_string(j) + " (switches " + std::to_string(leaf(j, 0)) + ".." +
                           std::to_string(leaf(j, 0) + switches_per_plane() - 1) + ")");
    for (unsigned k = 0; k < kUpPorts; ++k) {
      unsigned e = k;
      while (!works[e] && working > 0) e = (e + 1) % kUpPorts;
      up_map_[j * kUpPorts + k] = e;
    }
    for (unsigned s = 0; s < switches_per_plane(); ++s)
      if (s < groups_ || works[s - groups_]) home_switches_[j].push_back(j * switches_per_plane() + s);
  }

  // The all-GPU multicast per switch, entry port and up choice (the line only matters through
  // up_of_line, so one line per up choice stands for all of them). A copy that enters a leaf from
  // above (a spine, or the peer across the DGX-2 trunk) only goes down: the switch above has
  // already covered every other leaf. That holds whichever up port it came by, which matters for
  // results multicast from a spine's table: they reach a leaf by that spine, not the line's.
  fanout_.resize(switches());
  for (unsigned sw = 0; sw < switches(); ++sw) {
    fanout_[sw].assign(kPorts + 1, std::vector<Fanout>(kUpPorts));
    for (int in = -1; in < static_cast<int>(kPorts); ++in)
      for (unsigned k = 0; k < kUpPorts; ++k) {
        const uint64_t line = static_cast<uint64_t>(k) * links_ + plane_of_switch(sw);
        const bool from_above =
            in >= 0 && is_leaf(sw) && peers_[sw][static_cast<unsigned>(in)].kind == PortPeer::Kind::Switch;
        Fanout f;
        for (unsigned d = 0; d < gpus(); ++d) {
          const unsigned port = route_to_gpu(sw, d, line);
          if (static_cast<int>(port) == in || (from_above && peers_[sw][port].kind != PortPeer::Kind::Gpu)) continue;
          f.ports |= 1u << port;
          ++f.gpus;
        }
        fanout_[sw][static_cast<unsigned>(in + 1)][k] = f;
      }
  }
}

const char* NvTopology::kind() const { return builder_.kind(); }
std::string NvTopology::name() const { return builder_.name(gpus(), switches()); }
unsigned NvTopology::diameter_hops() const { return builder_.diameter_hops(); }

unsigned NvTopology::route_to_gpu(unsigned sw, unsigned dst, uint64_t line) const {
  const unsigned group = dst / kDownPorts;
  if (!is_leaf(sw)) return group;  // a spine: down to the destination's leaf
  if (sw % switches_per_plane() == group) return gpu_port(dst);
  return kDownPorts + up_of_line(line);
}

unsigned NvTopology::route_to_switch(unsigned sw, unsigned target, uint64_t line) const {
  const unsigned base = plane_of_switch(sw) * switches_per_plane();
  const unsigned t = target - base;
  if (!is_leaf(sw)) return t;                           // spine -> leaf t (spines never route to spines)
  if (t >= groups_) return kDownPorts + (t - groups_);  // leaf -> spine t - groups
  return kDownPorts + up_of_line(line);                 // leaf -> other leaf, across trunk/spine
}

NvTopology::Home NvTopology::home_of_line(uint64_t line) const {
  const std::vector<unsigned>& homes = home_switches_[plane_of_line(line)];
  const unsigned slot = static_cast<unsigned>((line / links_) % (homes.size() * kPorts));
  return {homes[slot / kPorts], slot % kPorts};
}

NvTopology::Fanout NvTopology::multicast(unsigned sw, int in, uint64_t line, int exclude) const {
  Fanout f = fanout_[sw][static_cast<unsigned>(in + 1)][up_of_line(line)];
  if (exclude >= 0) {
    const unsigned port = route_to_gpu(sw, static_cast<unsigned>(exclude), line);
    if (static_cast<int>(port) != in) {
      --f.gpus;
      if (peers_[sw][port].kind == PortPeer::Kind::Gpu) f.ports &= ~(1u << port);
    }
  }
  return f;
}

}  // namespace hx::nv
