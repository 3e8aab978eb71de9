// rail.cpp: the GPU clusters of Wang et al., "How to Build Low-cost Networks for Large Language
// Models (without Sacrificing Performance)?" (../shared/seeds/004, sections 3-4, Figures 1 and 6):
// N GPUs in HB domains of K, GPU i of every domain with a NIC on rail i.
//
//   rail_only       K rails, each one nonblocking switch joining the N/K NICs of its rail; no
//                   spine. A packet for a GPU of another rail and another domain first crosses
//                   its own HB domain to the GPU on the destination's rail and leaves through
//                   that GPU's NIC (NVIDIA's PXN): dimension-order routing with the HB domain as
//                   the first dimension (routing/dim_order.cpp) is exactly that relay.
//   rail_optimized  the same rail switches as the leaves of a full-bisection two-level Clos:
//                   each leaf gets N/K up ports, and N/K spine switches of K ports join every
//                   leaf once. A GPU reaches a GPU of another domain straight through its own
//                   NIC (routing/rail.cpp: rail_clos); dim_order on it relays as on rail_only.
//
// Both are two-dimensional platforms of switches (multidim.h, dim_layout.h), so they are
// configured as one, in physical units, and the hierarchical collectives (dim_schedule.h) and
// `hxsim model` run on them unchanged:
//   topology.dims[0]  the HB domain: size K, kind switch, `links` NVLink planes of `bandwidth`
//                     (C_F = links x bandwidth), `latency` GPU to GPU through the NVSwitch;
//   topology.dims[1]  the rails: size N/K (the HB domains), kind switch, links 1 (one NIC per
//                     GPU) of `bandwidth` (C_S), `latency` NIC to NIC through the rail switch.
// The HB domain is built as NVSwitch-style planes (GPU link j to the domain's switch of plane j,
// as the DGX systems wire their NVSwitches) of the shared C++ switch. A rail of more NICs than a
// switch's radix would be a Clos of its own; here it is one nonblocking switch, which has the
// bisection of that Clos and one switch's latency (the cycle model's sizes fit one switch).
// A GPU's router (multidim's NPU router) stands for its NVLink ports, its NIC and the PXN path
// between them: a relayed packet crosses it as a transit (check/packet_tracker.h counts them).
#include <algorithm>

#include "dim_layout.h"
#include "multidim.h"
#include "tree_builder.h"

namespace hx {

namespace {

// A spine switch's dim_switch: the dimension above the platform's two (dim_layout.h).
constexpr int kSpine = 2;

class RailTopology : public MultidimTopology {
 public:
  explicit constexpr RailTopology(bool spine) : spine_(spine) {}

  const char* kind() const override { return spine_ ? "rail_optimized" : "rail_only"; }
  const char* description() const override {
    return spine_ ? "HB domains of K GPUs, K rails joined by a spine into one Clos (Wang et al., Figure 1)"
                  : "HB domains of K GPUs, K separate rails, no spine; PXN relays across rails (Wang et al., Figure 6)";
  }

  NetworkDescription network(const SimConfig& cfg) const override {
    NetworkDescription net = MultidimTopology::network(cfg);
    if (spine_) add_spine(net, cfg);
    return net;
  }

  std::string describe(const SimConfig& c) const override {
    const Dimension& hb = c.topology.dims[0];
    const Dimension& rail = c.topology.dims[1];
    return std::to_string(hb.size * rail.size) + " GPUs, " + std::to_string(rail.size) + " HB domains of " +
           std::to_string(hb.size) + " (" + std::to_string(hb.links) + " x " + format_bandwidth(hb.link_bps) + "), " +
           std::to_string(hb.size) + " rails of " + std::to_string(rail.size) + " NICs (" +
           format_bandwidth(rail.link_bps) + ")" +
           (spine_ ? ", a spine of " + std::to_string(rail.size) + " switches" : ", no spine");
  }
  std::string routing_summary(const SimConfig& c) const override {
    if (c.routing.algorithm == "rail_clos")
      return "the HB domain within a domain, else straight through the GPU's own NIC: leaf, spine, leaf";
    return "HB domain first, then the rail: a GPU of another rail and domain is reached through the domain's GPU "
           "on its rail (PXN)";
  }
  // rail_clos carries a NIC's packets on VC (destination mod router.vcs) to the end.
  unsigned max_path_vc(const SimConfig& c) const override {
    return spine_ ? std::max(MultidimTopology::max_path_vc(c), c.router.vcs - 1) : MultidimTopology::max_path_vc(c);
  }
  std::vector<std::string> routing_names() const override {
    if (spine_) return {"rail_clos", "dim_order"};
    return {"dim_order"};
  }

  void check(const ConfigReader& reader, SimConfig& c) const override {
    MultidimTopology::check(reader, c);
    const std::vector<Dimension>& d = c.topology.dims;
    const Field dims = reader.field("topology.dims");
    if (d.size() != 2)
      dims.fail_found("two dimensions: dims[0] the HB domain (K GPUs), dims[1] the rails (N/K HB domains)",
                      std::to_string(d.size()));
    const std::vector<Field> items = dims.elements("a list of dimensions");
    for (unsigned k = 0; k < 2; ++k)
      if (d[k].kind != DimKind::Switch)
        items[k].fail_found("kind switch (" + std::string(k == 0 ? "the HB domain's NVSwitch planes" : "a rail") + ")",
                            dim_kind_name(d[k].kind));
    if (d[1].links != 1)
      items[1].fail_found("links 1: one NIC per GPU, on its rail", "links " + std::to_string(d[1].links));
  }

  void derivations(const SimConfig& c, std::vector<std::string>& out) const override {
    MultidimTopology::derivations(c, out);
    const Dimension& hb = c.topology.dims[0];
    const Dimension& rail = c.topology.dims[1];
    out.push_back("N = " + std::to_string(hb.size * rail.size) + " GPUs = " + std::to_string(rail.size) +
                  " HB domains of K = " + std::to_string(hb.size) +
                  "; C_F = " + format_bandwidth(hb.bytes_per_s() * 8) +
                  ", C_S = " + format_bandwidth(rail.bytes_per_s() * 8) + " per GPU");
    if (spine_)
      out.push_back("spine: " + std::to_string(rail.size) + " switches of " + std::to_string(hb.size) +
                    " ports, each linked once to every rail's leaf (" + std::to_string(rail.size) +
                    " up ports a leaf): full bisection; its links as the rails'");
  }

 private:
  // The spine of the rail-optimized Clos: every rail switch becomes a leaf with as many up ports
  // as down ports (P = N/K), and spine s (of P) links to up port P + s of every leaf, on links
  // like the rails' (their rate; the hop's link cycles and switch pipeline).
  void add_spine(NetworkDescription& net, const SimConfig& cfg) const {
    const Dimension& rail = cfg.topology.dims[1];
    const unsigned rails = cfg.topology.dims[0].size, p = rail.size;
    std::vector<unsigned> leaf(rails);
    std::shared_ptr<const DimLayout> layout;
    for (unsigned n = 0; n < net.nodes.size(); ++n) {
      NodeDescription& node = net.nodes[n];
      if (node.kind != NodeDescription::Kind::Switch || node.place.dim_switch != 1) continue;
      // The switch of a rail is numbered by its NPU of coordinate 0 in dims[1]: the rail itself.
      leaf[node.place.index] = n;
      node.ports = 2 * p;
      layout = node.place.dims;
    }
    const DimHop hop = dim_hop(rail, cfg);
    const LinkRate rate = LinkRate::from_bandwidth(rail.link_bps, cfg.local_link.bandwidth_bps);
    for (unsigned s = 0; s < p; ++s) {
      NodeDescription sp = endpoint_switch(cfg, "spine_sw" + std::to_string(s), rails, hop.pipeline);
      sp.place.dims = layout;
      sp.place.dim_switch = kSpine;
      sp.place.index = s;
      const unsigned sw = net.add_node(std::move(sp));
      for (unsigned r = 0; r < rails; ++r)
        net.add_link({leaf[r], p + s}, {sw, r}, hop.link, rate, "spine", Medium::Aoc);
    }
  }

  bool spine_;
};

}  // namespace

const FabricTopology& rail_only_topology() {
  static const RailTopology t(false);
  return t;
}

const FabricTopology& rail_optimized_topology() {
  static const RailTopology t(true);
  return t;
}

}  // namespace hx
