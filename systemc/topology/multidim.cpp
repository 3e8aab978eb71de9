// multidim.cpp: the multi-dimensional platforms of Rashidi et al. (ISCA 2022, Table 2): NPUs in a
// grid of 1..4 dimensions, each a ring, a fully connected clique or a switch, with links of its
// own bandwidth and latency (dim_layout.h numbers the ports).
//
// Every NPU has a router (a C++ switch with its NPU on one port per dimension, the NPU's lanes,
// one cycle like the boards' RTL routers) with the NPU's links of every dimension; a switch
// dimension adds one switch per plane and group of NPUs. A dimension's links run at its
// bandwidth (LinkRate against the local link's flit rate); its latency, the NPU-to-NPU time of a
// minimum message, is split over the hop: a ring or clique link takes it less the receiving
// router's cycle; in a switch dimension the switch's pipeline takes a third and its two links
// share the rest less the router's cycle (switch.latency, the HammingMesh fat trees' 80 ns, is
// not used: the derivations say what was).
//
// Links are counted by Table 2's note on the technologies: every dimension within a pod is in
// the package or on the board (PCB traces); the last one "uses NICs", optical cables. They are
// not priced: the cost model's prices are a 64-port Ethernet switch and 100 Gb/s cables.
#include <algorithm>
#include <cmath>

#include "dim_layout.h"
#include "multidim.h"
#include "tree_builder.h"

namespace hx {

unsigned dim_cycles(double seconds, const SimConfig& cfg) {
  return static_cast<unsigned>(std::ceil(seconds * cfg.router.clock_hz - 1e-9));
}

DimHop dim_hop(const Dimension& d, const SimConfig& cfg) {
  const unsigned step = dim_cycles(d.latency_s, cfg);
  if (d.kind != DimKind::Switch) return {std::max(1u, step > 1 ? step - 1 : 0), 0};
  const unsigned pipeline = std::max(1u, step / 3);
  return {std::max(1u, (step > pipeline + 1 ? step - pipeline - 1 : 0) / 2), pipeline};
}

NetworkDescription MultidimTopology::network(const SimConfig& cfg) const {
  const auto layout = std::make_shared<const DimLayout>(cfg.topology.dims);
  const DimLayout& L = *layout;
  const unsigned n = L.npus();
  NetworkDescription net;
  net.unpriced =
      "the cost model's prices are a 64-port Ethernet switch and 100 Gb/s cables, not a platform's rack-scale "
      "fabrics and 200 Gb/s to 1.5 Tb/s links";
  std::vector<unsigned> router(n);
  for (unsigned i = 0; i < n; ++i) {
    NodeDescription r;
    r.name = "npu" + std::to_string(i);
    r.ports = L.router_ports;
    r.latency = 1;  // one cycle, like the boards' RTL routers
    r.place.dims = layout;
    r.place.index = i;
    router[i] = add_accelerator_router(net, cfg, i, std::move(r), L.lanes);
  }
  for (unsigned k = 0; k < L.dims.size(); ++k) {
    const Dimension& d = cfg.topology.dims[k];
    const DimLayout::Dim& ld = L.dims[k];
    const LinkRate rate = LinkRate::from_bandwidth(d.link_bps, cfg.local_link.bandwidth_bps);
    const std::string cls = dim_link_class(k);
    const Medium medium = k + 1 == L.dims.size() && L.dims.size() > 1 ? Medium::Aoc : Medium::Pcb;
    const DimHop hop = dim_hop(d, cfg);
    if (d.kind == DimKind::Switch) {
      for (unsigned plane = 0; plane < d.links; ++plane) {
        for (unsigned g = 0; g < n; ++g) {
          if (L.coord(g, k) != 0) continue;  // one switch per group: its NPU of coordinate 0
          NodeDescription s =
              endpoint_switch(cfg, cls + "_sw" + std::to_string(plane) + "_" + std::to_string(g), d.size, hop.pipeline);
          s.place.dims = layout;
          s.place.dim_switch = static_cast<int>(k);
          s.place.index = g;
          const unsigned sw = net.add_node(std::move(s));
          for (unsigned q = 0; q < d.size; ++q)
            net.add_link({router[L.with_coord(g, k, q)], ld.first_port + plane}, {sw, q}, hop.link, rate, cls, medium);
        }
      }
      continue;
    }
    for (unsigned i = 0; i < n; ++i) {
      const unsigned c = L.coord(i, k);
      if (d.kind == DimKind::Ring) {
        // Link to the next NPU of each ring; the next NPU's previous-port ends it.
        const unsigned next = L.with_coord(i, k, (c + 1) % d.size);
        for (unsigned r = 0; r < d.links / 2; ++r)
          net.add_link({router[i], ld.first_port + 2 * r}, {router[next], ld.first_port + 2 * r + 1}, hop.link, rate,
                       cls, medium);
      } else {
        // Each pair once (from the lower coordinate): i's link q steps ahead is the peer's
        // link P - q steps ahead.
        const unsigned copies = d.links / (d.size - 1);
        for (unsigned q = 1; q < d.size; ++q) {
          const unsigned pc = (c + q) % d.size;
          if (pc < c) continue;
          const unsigned peer = L.with_coord(i, k, pc);
          for (unsigned j = 0; j < copies; ++j)
            net.add_link({router[i], ld.first_port + j * (d.size - 1) + q - 1},
                         {router[peer], ld.first_port + j * (d.size - 1) + (d.size - q) - 1}, hop.link, rate, cls,
                         medium);
        }
      }
    }
  }
  return net;
}

std::string MultidimTopology::describe(const SimConfig& cfg) const {
  std::string sizes, kinds;
  for (const Dimension& d : cfg.topology.dims) {
    sizes += (sizes.empty() ? "" : "x") + std::to_string(d.size);
    kinds += (kinds.empty() ? "" : ", ") + dim_kind_name(d.kind) + " " + std::to_string(d.links) + " x " +
             format_bandwidth(d.link_bps);
  }
  return sizes + " multi-dimensional platform (" + kinds + ")";
}

void MultidimTopology::check(const ConfigReader& reader, SimConfig& c) const {
  forbid(reader, {"topology.board", "topology.global", "topology.endpoints", "topology.dragonfly", "topology.tree",
                  "topology.clex", "topology.sides", "topology.pitch"});
  require(reader, "topology.dims", "a list of 1..4 dimensions");
  // One lane per dimension (dim_layout.h).
  const unsigned lanes = static_cast<unsigned>(c.topology.dims.size());
  if (reader.present("router.local_ports") && c.router.local_ports != lanes)
    reader.field("router.local_ports")
        .fail(std::to_string(lanes) + " on this platform, or no local_ports", "an NPU has one lane per dimension");
  c.router.local_ports = lanes;
  // Each dimension's links at a rate the cycle model takes, as links.global's.
  const std::vector<Field> items = reader.field("topology.dims").elements("a list of dimensions");
  for (std::size_t k = 0; k < c.topology.dims.size(); ++k) {
    check_link_bandwidth(items[k], c.topology.dims[k].link_bps, c,
                         format_bandwidth(c.topology.dims[k].link_bps) + "; raise router.clock for faster links");
    // In cycles of router.clock the latency becomes delay lines (dim_cycles): bounded like every
    // link's (make fuzz found one of 7e12 cycles overflowing the count).
    const double cycles = c.topology.dims[k].latency_s * c.router.clock_hz;
    if (cycles > kMaxLatencyCycles)
      items[k].fail_found(
          "a latency of at most " + format_number(kMaxLatencyCycles) + " cycles of router.clock",
          "latency " + format_time(c.topology.dims[k].latency_s) + " = " + format_number(cycles) + " cycles");
  }
  const bool ring = std::any_of(c.topology.dims.begin(), c.topology.dims.end(),
                                [](const Dimension& d) { return d.kind == DimKind::Ring; });
  if (ring && c.router.vcs < 2)
    reader.field("router.vcs")
        .fail("at least 2 with a ring dimension", "the dateline scheme moves a packet to VC 1 at the wrap-around");
}

void MultidimTopology::topology_values(const SimConfig& c, std::vector<std::pair<std::string, std::string>>& v) const {
  std::string dims;
  for (const Dimension& d : c.topology.dims)
    dims += std::string(dims.empty() ? "" : ", ") + "{size: " + std::to_string(d.size) +
            ", kind: " + dim_kind_name(d.kind) + ", bandwidth: " + format_bandwidth(d.link_bps) +
            ", links: " + std::to_string(d.links) + ", latency: " + format_time(d.latency_s) + "}";
  v.emplace_back("topology.dims", "[" + dims + "]");
}

void MultidimTopology::derivations(const SimConfig& c, std::vector<std::string>& d) const {
  for (std::size_t k = 0; k < c.topology.dims.size(); ++k) {
    const Dimension& dim = c.topology.dims[k];
    d.push_back(
        "topology.dims[" + std::to_string(k) + "] " + dim_kind_name(dim.kind) + " of " + std::to_string(dim.size) +
        ": " + LinkRate::from_bandwidth(dim.link_bps, c.local_link.bandwidth_bps).describe() + " per link, " +
        std::to_string(dim.links) + " links per NPU = " + format_bandwidth(dim.link_bps * dim.links) + "; latency " +
        format_time(dim.latency_s) + " = " + std::to_string(dim_cycles(dim.latency_s, c)) + " cycles NPU to NPU" +
        (dim.kind == DimKind::Switch
             ? ": two links of " + std::to_string(dim_hop(dim, c).link) + ", a switch pipeline of " +
                   std::to_string(dim_hop(dim, c).pipeline) + " and the router's 1"
             : ": a link of " + std::to_string(dim_hop(dim, c).link) + " and the router's 1"));
  }
}

FabricTopology::RoundTrip MultidimTopology::credit_round_trip(const SimConfig& c) const {
  RoundTrip most = FabricTopology::credit_round_trip(c);
  for (std::size_t k = 0; k < c.topology.dims.size(); ++k) {
    const Dimension& d = c.topology.dims[k];
    const double rate = std::max(1.0, d.link_bps / c.local_link.bandwidth_bps);
    const unsigned cycles = dim_cycles(d.latency_s, c);
    const double flits = rate * (2.0 * (1 + cycles) + 2);
    if (flits > most.flits)
      most = {flits, "topology.dims[" + std::to_string(k) + "]: " + format_number(rate) +
                         " flits per cycle x (2 x (1 + " + std::to_string(cycles) + ") NPU to NPU + 2)"};
  }
  return most;
}

const FabricTopology& multidim_topology() {
  static const MultidimTopology t;
  return t;
}

}  // namespace hx
