// torus.cpp: dimension-order routing on a 2D or 3D torus of accelerator routers, with datelines.
//
// Port 0 leads to the router's accelerator, ports 1..4 to N, E, S, W, and on a 3D torus (kind
// torus3d) 5 and 6 to up and down (z). A packet goes along x first, then y, then z, each the short
// way round. It travels on VC 0 in a dimension until it crosses
// that dimension's wrap-around link (the dateline), then on VC 1, which breaks the ring's cycle
// of channel waits; entering a new dimension starts again on VC 0.
#include "network_switch.h"
#include "routing_function.h"

namespace hx {

namespace {

class DorDateline : public RoutingFunction {
 public:
  explicit DorDateline(const RoutingContext& ctx) : c_(ctx) {}

  RouteChoice route(const Flit& head, unsigned in, unsigned vc, const NetworkSwitch& sw) override {
    enum : unsigned { kLocal = 0, kN = 1, kE = 2, kS = 3, kW = 4, kUp = 5, kDown = 6 };
    const unsigned dst = c_.addressing.terminal(head);  // endpoint addressing
    const unsigned X = c_.size_x, Y = c_.size_y, Z = c_.size_z, x = c_.x, y = c_.y, z = c_.z;
    // Node n at (n mod X, (n div X) mod Y, n div XY); a 2D torus has Z = 1.
    const unsigned dx = dst % X, dy = (dst / X) % Y, dz = dst / (X * Y);
    unsigned port = kLocal, ov = vc;
    if (dx != x) {
      const bool east = (dx + X - x) % X <= X / 2;
      port = east ? kE : kW;
      const bool in_x = in == kE || in == kW;  // still travelling along x
      const bool wraps = east ? x == X - 1 : x == 0;
      ov = wraps ? 1 : (in_x ? vc : 0);
    } else if (dy != y) {
      const bool north = (dy + Y - y) % Y <= Y / 2;
      port = north ? kN : kS;
      const bool in_y = in == kN || in == kS;
      const bool wraps = north ? y == Y - 1 : y == 0;
      ov = wraps ? 1 : (in_y ? vc : 0);
    } else if (dz != z) {
      const bool up = (dz + Z - z) % Z <= Z / 2;
      port = up ? kUp : kDown;
      const bool in_z = in == kUp || in == kDown;
      const bool wraps = up ? z == Z - 1 : z == 0;
      ov = wraps ? 1 : (in_z ? vc : 0);
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
