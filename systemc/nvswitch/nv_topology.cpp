#include "nv_topology.h"

#include <stdexcept>

#include "nv_system_builder.h"

namespace hx::nv {

NvTopology::NvTopology(const std::string& kind, unsigned groups, unsigned links)
    : NvTopology(nv_system_builder(kind), groups, links) {}

NvTopology::NvTopology(const NvSystemBuilder& builder, unsigned groups, unsigned links)
    : builder_(builder), groups_(groups), links_(links), spines_(builder.spines_per_plane()) {
  if (links_ < 1 || links_ > 16) throw std::invalid_argument("NvTopology: links must be in 1..16");
  if (groups_ < builder_.min_groups() || groups_ > builder_.max_groups())
    throw std::invalid_argument(
        std::string("NvTopology: a ") + builder_.kind() + " has " +
        (builder_.min_groups() == builder_.max_groups()
             ? "exactly " + std::to_string(builder_.min_groups())
             : std::to_string(builder_.min_groups()) + ".." + std::to_string(builder_.max_groups())) +
        " groups of 8 GPUs");

  // The leaves' GPU ports; the builder cables the rest.
  peers_.assign(static_cast<size_t>(links_) * switches_per_plane(), std::vector<PortPeer>(kPorts));
  for (unsigned j = 0; j < links_; ++j) {
    for (unsigned g = 0; g < groups_; ++g)
      for (unsigned p = 0; p < kDownPorts; ++p) peers_[leaf(j, g)][p] = {PortPeer::Kind::Gpu, g * kDownPorts + p, j};
    builder_.wire_plane(*this, j);
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
std::string NvTopology::name() const { return builder_.name(*this); }
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
  const unsigned j = plane_of_line(line);
  const unsigned slot = static_cast<unsigned>((line / links_) % (switches_per_plane() * kPorts));
  return {j * switches_per_plane() + slot / kPorts, slot % kPorts};
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
