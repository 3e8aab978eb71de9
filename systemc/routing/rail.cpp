// rail.cpp: rail_clos, the routing of a rail-optimized GPU cluster (topology/rail.cpp; Wang et
// al., Figure 1): within an HB domain over NVLink, to any other GPU straight through the source
// GPU's own NIC into the Clos. Ports as dim_layout.h numbers them: dims[0] the HB domain's switch
// planes, dims[1] the NIC; a rail switch (leaf) has its domains' NICs on ports 0 .. P-1 and the
// spines on P .. 2P-1; spine port r leads to rail r's leaf.
//
//   GPU router  same domain: the roomiest HB plane (the GPU itself: its lane); else the NIC.
//   HB switch   the destination GPU's port (its coordinate in the domain).
//   leaf        the destination on this rail: down to its domain's NIC; else up, to the spine
//               numbered like the destination's domain (destination mod k, as fat trees route
//               deterministically). Then spine s's link down to leaf r carries only what GPU
//               (r, s)'s NIC receives from other rails, never more than that NIC can take, and the
//               leaf's packets for distinct domains take distinct spines. (The roomiest up port
//               instead sees only the leaf's own links: a 64-GPU all-to-all took 223 us against
//               198 us with this choice; docs/rail.md.)
//   spine       down to the leaf of the destination's rail.
// No packet crosses a third GPU's router, so no channel dependency closes a cycle, and VCs are
// free to serve another purpose: a packet leaves its GPU's NVLink ports on VC 0 (as dim_order's
// switch dimensions do) and its NIC on VC (destination mod router.vcs), which it keeps to the
// destination. So the leaf's input from a NIC holds the packets of up to `vcs` destinations in
// separate queues, as an Ethernet or InfiniBand switch's virtual output queues do, and a packet
// waiting for a busy destination does not block the NIC's packets for the others. On one VC a
// 64-GPU all-to-all of 256 KiB took 198 us, with these VCs 151 us (docs/rail.md).
#include "dim_layout.h"
#include "network_switch.h"
#include "routing_function.h"

namespace hx {

namespace {

class RailClos : public RoutingFunction {
 public:
  explicit RailClos(const RoutingContext& ctx) : c_(ctx), L_(*ctx.dims) {}

  RouteChoice route(const Flit& head, unsigned in, unsigned vc, const NetworkSwitch& sw) override {
    const unsigned dst = c_.addressing.terminal(head);
    const unsigned rail = L_.coord(dst, 0), domain = L_.coord(dst, 1);
    const unsigned domains = L_.dims[1].size;
    switch (c_.dim_switch) {
      case -1: break;  // a GPU's router, below
      case 0: return sw.if_free(static_cast<int>(rail), 0);
      case 1:
        if (rail == c_.index) return sw.if_free(static_cast<int>(domain), vc);  // the VC of the NIC's choice
        return sw.if_free(static_cast<int>(domains + domain), vc);
      default: return sw.if_free(static_cast<int>(rail), vc);  // the spine
    }
    const unsigned me = c_.index;
    if (dst == me) return sw.if_free(static_cast<int>(in < L_.lanes ? in : L_.dim_of_port(in)), vc);
    if (L_.coord(me, 1) == domain) return sw.roomiest_output(L_.dims[0].first_port, 1, L_.dims[0].links, 0).choice;
    return sw.if_free(static_cast<int>(L_.dims[1].first_port), dst % sw.vcs());
  }

  std::string describe_head(const Flit& head) const override {
    return "head for GPU " + std::to_string(c_.addressing.terminal(head));
  }

 private:
  RoutingContext c_;
  const DimLayout& L_;
};

}  // namespace

std::unique_ptr<RoutingFunction> make_rail_clos(const RoutingContext& ctx) { return std::make_unique<RailClos>(ctx); }

}  // namespace hx
