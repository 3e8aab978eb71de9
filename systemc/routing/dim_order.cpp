// dim_order.cpp: dimension-order routing on a multi-dimensional platform (topology/multidim.cpp,
// ports numbered as dim_layout.h describes).
//
// An NPU's router corrects the lowest dimension in which it differs from the destination, then
// the next (and hands an arrived packet to its NPU on the lane of the dimension it came from): a ring the short way
// round (half way round: the roomier way), a clique straight to the peer, a switch dimension through a switch, which
// hands the packet to the NPU of the destination's coordinate. Of a dimension's parallel links (rings, copies of a
// clique's link, switch planes) it takes the one with the most room, so one flow spreads over all of them.
//
// Deadlock freedom: dimensions are crossed in increasing order, so only a ring can close a
// cycle of channel waits within a dimension; on a ring a packet travels on VC 0 until it crosses
// the wrap-around link (from coordinate P - 1 to 0, or back), then on VC 1 (the dateline), and
// every new dimension starts on VC 0.
#include "dim_layout.h"
#include "network_switch.h"
#include "routing_function.h"

namespace hx {

namespace {

class DimOrder : public RoutingFunction {
 public:
  explicit DimOrder(const RoutingContext& ctx) : c_(ctx), L_(*ctx.dims) {}

  RouteChoice route(const Flit& head, unsigned in, unsigned vc, const NetworkSwitch& sw) override {
    const unsigned dst = c_.addressing.terminal(head);
    if (c_.dim_switch >= static_cast<int>(L_.dims.size())) {
      // A switch above the dimensions (a rail-optimized spine): dimension order never leads there.
      sw.report("dim_order routes no packet through a spine");
      return {};
    }
    if (c_.dim_switch >= 0)
      return sw.if_free(static_cast<int>(L_.coord(dst, static_cast<unsigned>(c_.dim_switch))), vc);
    const unsigned me = c_.index;
    for (unsigned k = 0; k < L_.dims.size(); ++k) {
      const DimLayout::Dim& d = L_.dims[k];
      const unsigned c = L_.coord(me, k), t = L_.coord(dst, k);
      if (c == t) continue;
      const bool same_dim = in >= L_.lanes && L_.dim_of_port(in) == k;
      switch (d.kind) {
        case DimKind::Ring: {
          // The short way round; half way round both ways are as short (a ring of two: both
          // neighbours are the destination), and the roomier of the two is taken.
          const unsigned ahead = (t + d.size - c) % d.size;
          const auto way = [&](bool forward) {
            const bool wraps = forward ? c == d.size - 1 : c == 0;
            const unsigned ov = wraps ? 1 : (same_dim ? vc : 0);
            return sw.roomiest_output(d.first_port + (forward ? 0 : 1), 2, d.links / 2, ov);
          };
          if (2 * ahead != d.size) return way(2 * ahead < d.size).choice;
          const NetworkSwitch::Roomiest f = way(true), b = way(false);
          return (b.choice.port >= 0 && (f.choice.port < 0 || b.room > f.room)) ? b.choice : f.choice;
        }
        case DimKind::FullyConnected: {
          const unsigned q = (t + d.size - c) % d.size;  // steps ahead, 1..P-1
          return sw.roomiest_output(d.first_port + q - 1, d.size - 1, d.links / (d.size - 1), 0).choice;
        }
        case DimKind::Switch: return sw.roomiest_output(d.first_port, 1, d.links, 0).choice;
      }
    }
    // Arrived: to the NPU, on the lane of the dimension it came from (its own lane if it never left).
    return sw.if_free(static_cast<int>(in < L_.lanes ? in : L_.dim_of_port(in)), vc);
  }

  std::string describe_head(const Flit& head) const override {
    return "head for NPU " + std::to_string(c_.addressing.terminal(head));
  }

 private:
  RoutingContext c_;
  const DimLayout& L_;
};

}  // namespace

std::unique_ptr<RoutingFunction> make_dim_order(const RoutingContext& ctx) { return std::make_unique<DimOrder>(ctx); }

}  // namespace hx
