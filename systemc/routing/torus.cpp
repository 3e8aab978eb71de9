// torus.cpp: dimension-order routing on a 2D torus of accelerator routers, with datelines.
//
// Port 0 leads to the router's accelerator, ports 1..4 to N, E, S, W. A packet goes along x
// first, then y, each the short way round. It travels on VC 0 in a dimension until it crosses
// that dimension's wrap-around link (the dateline), then on VC 1, which breaks the ring's cycle
// of channel waits; entering a new dimension starts again on VC 0.
#include "network_switch.h"
#include "routing_function.h"
#include "torus_route.h"

namespace hx {

namespace {

class DorDateline : public RoutingFunction {
 public:
  explicit DorDateline(const RoutingContext& ctx) : c_(ctx) {}

  RouteChoice route(const Flit& head, unsigned in, unsigned vc, const NetworkSwitch& sw) override {
    const unsigned dst = c_.addressing.terminal(head);  // endpoint addressing
    const unsigned X = c_.size_x, Y = c_.size_y, x = c_.x, y = c_.y;
    const unsigned port = dor_torus_port(x, y, X, Y, dst);
    unsigned ov = vc;
    if (port == kTorusE || port == kTorusW) {
      const bool east = port == kTorusE;
      const bool in_x = in == kTorusE || in == kTorusW;  // still travelling along x
      const bool wraps = east ? x == X - 1 : x == 0;
      ov = wraps ? 1 : (in_x ? vc : 0);
    } else if (port == kTorusN || port == kTorusS) {
      const bool north = port == kTorusN;
      const bool in_y = in == kTorusN || in == kTorusS;
      const bool wraps = north ? y == Y - 1 : y == 0;
      ov = wraps ? 1 : (in_y ? vc : 0);
    }
    return sw.if_free(static_cast<int>(port), ov);
  }

  std::string describe_head(const Flit& head) const override {
    return "head for terminal " + std::to_string(c_.addressing.terminal(head));
  }

 private:
  RoutingContext c_;
};

}  // namespace

std::unique_ptr<RoutingFunction> make_dor_dateline(const RoutingContext& ctx) {
  return std::make_unique<DorDateline>(ctx);
}

}  // namespace hx
