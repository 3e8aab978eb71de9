// torus.cpp: dimension-order routing on a 2D or 3D torus of accelerator routers, with datelines.
//
// Port 0 leads to the router's accelerator, ports 1..4 to N, E, S, W, and on a 3D torus (kind
// torus3d) 5 and 6 to up and down (z). A packet goes along x first, then y, then z, each the short
// way round. It travels on VC 0 in a dimension until it crosses
// that dimension's wrap-around link (the dateline), then on VC 1, which breaks the ring's cycle
// of channel waits; entering a new dimension starts again on VC 0 (dor_dateline).
// torus_adaptive: minimal adaptive with that as its escape network (Duato), on VCs 2 and up.
#include "network_switch.h"
#include "routing_function.h"
#include "torus_route.h"

namespace hx {

namespace {

enum : unsigned {
  kLocal = kTorusLocal,
  kN = kTorusN,
  kE = kTorusE,
  kS = kTorusS,
  kW = kTorusW,
  kUp = kTorusUp,
  kDown = kTorusDown
};

TorusStep torus_step(const RoutingContext& c, unsigned dst) {
  return hx::torus_step({c.x, c.y, c.z}, {c.size_x, c.size_y, c.size_z}, dst);
}

bool along(unsigned port, unsigned d) {
  const unsigned plus[3] = {kE, kN, kUp}, minus[3] = {kW, kS, kDown};
  return port == plus[d] || port == minus[d];
}

// Dimension order with datelines: the first unaligned dimension; VC 0 in a dimension until its
// wrap-around link, VC 1 after it; entering a new dimension starts again on VC 0. A packet that
// arrives on an adaptive VC (>= 2, torus_adaptive) counts as on VC 0.
RouteChoice dor_choice(const TorusStep& s, unsigned in, unsigned vc) {
  for (unsigned d = 0; d < 3; ++d) {
    if (s.port[d] == 0) continue;
    const bool same_dim = along(in, d) && vc < 2;
    return RouteChoice{static_cast<int>(s.port[d]), s.wraps[d] ? 1u : (same_dim ? vc : 0u)};
  }
  return RouteChoice{static_cast<int>(kLocal), vc};
}

class DorDateline : public RoutingFunction {
 public:
  explicit DorDateline(const RoutingContext& ctx) : c_(ctx) {}

  RouteChoice route(const Flit& head, unsigned in, unsigned vc, const NetworkSwitch& sw) override {
    const RouteChoice r = dor_choice(torus_step(c_, c_.addressing.terminal(head)), in, vc);
    return sw.if_free(r.port, r.port == static_cast<int>(kLocal) ? vc : r.vc);
  }

  std::string describe_head(const Flit& head) const override {
    return "head for terminal " + std::to_string(c_.addressing.terminal(head));
  }

 private:
  RoutingContext c_;
};

// Minimal adaptive (Duato's protocol): VCs 2 .. vcs-1 are adaptive, on which a packet may take
// any minimal direction, the one with the most room; VCs 0 and 1 are the escape network,
// dimension order with datelines, which is deadlock-free on its own. A packet takes an adaptive
// VC when one is free and the escape route otherwise, and may return to the adaptive VCs at the
// next router. The escape VC must say whether the packet has crossed the dimension's dateline
// anywhere on its way, adaptive hops included: inferring it from the VC it arrives on (as
// dor_dateline can) would let a packet that wrapped on an adaptive VC take VC 0 after the
// dateline, which closes VC 0's ring through the adaptive channels (the 8x8x8 torus deadlocked
// so above saturation). A minimal route moves monotonically in each dimension, so it has
// wrapped in dimension d iff its coordinate has passed the source's the other way round.
// An adaptive VC is taken only when it is empty downstream (NetworkSwitch::output_empty: atomic
// allocation). With the switch's usual reuse of a VC as soon as the last packet's tail has left,
// a packet P could queue on an adaptive VC behind a packet X that waits for an escape channel;
// P then holds its own escape channel (the one it arrived on) while waiting for X, a dependency
// between two packets that Duato's argument does not cover. The 6x6x6 and 8x8x8 tori deadlocked
// that way under all-to-all with bounded sources: P sat on the z dateline's VC 1 waiting behind
// X on an adaptive VC, X waited for VC 0 further round the ring, whose packets waited for VC 1
// at the dateline, held by P (docs/results/2026-11-27-clex-patterns.md).
class TorusAdaptive : public RoutingFunction {
 public:
  explicit TorusAdaptive(const RoutingContext& ctx) : c_(ctx) {}

  RouteChoice route(const Flit& head, unsigned /*in*/, unsigned vc, const NetworkSwitch& sw) override {
    const TorusStep s = torus_step(c_, c_.addressing.terminal(head));
    if (s.port[0] == 0 && s.port[1] == 0 && s.port[2] == 0) return sw.if_free(kLocal, vc);
    RouteChoice escape;
    {
      const Header h = Header::decode(c_.addressing.fmt, head.payload);
      const unsigned src = h.src_board_y * TreeAddressing::kEndpointsPerBoardRow + h.src_board_x;
      const unsigned X = c_.size_x, Y = c_.size_y;
      const unsigned from[3] = {src % X, (src / X) % Y, src / (X * Y)}, at[3] = {c_.x, c_.y, c_.z};
      const unsigned plus[3] = {kE, kN, kUp};
      for (unsigned d = 0; d < 3; ++d) {
        if (s.port[d] == 0) continue;
        const bool wrapped = s.port[d] == plus[d] ? at[d] < from[d] : at[d] > from[d];
        escape = RouteChoice{static_cast<int>(s.port[d]), (wrapped || s.wraps[d]) ? 1u : 0u};
        break;
      }
    }
    int best = -1;
    unsigned best_vc = 0, best_room = 0;
    for (unsigned d = 0; d < 3; ++d) {
      if (s.port[d] == 0) continue;
      for (unsigned v = 2; v < sw.vcs(); ++v) {
        if (!sw.output_empty(s.port[d], v)) continue;
        const unsigned room = sw.output_room(s.port[d], v);
        if (best < 0 || room > best_room) {
          best = static_cast<int>(s.port[d]);
          best_vc = v;
          best_room = room;
        }
      }
    }
    if (best >= 0) return RouteChoice{best, best_vc};
    return sw.if_free(escape.port, escape.vc);
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

std::unique_ptr<RoutingFunction> make_torus_adaptive(const RoutingContext& ctx) {
  return std::make_unique<TorusAdaptive>(ctx);
}

}  // namespace hx
