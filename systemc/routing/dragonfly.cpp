// dragonfly.cpp: routing in a Dragonfly (dragonfly_plan.h): minimal, or UGAL-L.
//
// Minimal: in the destination group, to the destination's router (or its endpoint); elsewhere,
// through this router's own global link to the destination group if it has one (spread by
// destination), else to the router of the group that has one. UGAL-L decides at the source
// router: it draws an intermediate group and goes there first (Valiant) when the minimal
// output's load is more than twice the non-minimal one's (weighted by the 3 and 6 router hops
// the two paths take at most). A packet moves to VC + 1 on every global link, so a route of at
// most two global links needs three VCs and has no cyclic channel waits.
#include <algorithm>

#include "dragonfly_plan.h"
#include "network_switch.h"
#include "rng.h"
#include "routing_function.h"

namespace hx {

namespace {

class DragonflyRouting : public RoutingFunction {
 public:
  DragonflyRouting(const RoutingContext& ctx, bool ugal) : c_(ctx), ugal_(ugal) { rng_.reseed(ctx.seed); }

  RouteChoice route(const Flit& head, unsigned in, unsigned vc, const NetworkSwitch& sw) override {
    DragonflyPlan& d = *c_.plan;
    const unsigned dst = c_.addressing.terminal(head);  // endpoint addressing
    const unsigned dst_group = d.group_of(dst);
    const uint32_t id = read_tag(c_.addressing.fmt, head.payload).packet_id;
    unsigned target = dst_group;
    const auto it = d.intermediate.find(id);
    if (it != d.intermediate.end()) {
      if (it->second == c_.group) {
        d.intermediate.erase(it);  // arrived at the intermediate group: minimal from here
      } else {
        target = it->second;
      }
    } else if (ugal_ && in < d.p && dst_group != c_.group && d.groups > 2) {
      // UGAL-L at the source router: minimal unless its output is the more loaded, weighted by
      // the hops each path still has (a minimal path at most 3 router-to-router hops, a
      // non-minimal one at most 6).
      unsigned mid = rng_.below(d.groups - 2);
      for (const unsigned g : {std::min(c_.group, dst_group), std::max(c_.group, dst_group)}) {
        if (mid >= g) ++mid;
      }
      const unsigned pm = minimal(dst_group, dst), pv = minimal(mid, dst);
      const unsigned vm = vc + (d.is_global(pm) ? 1 : 0), vv = vc + (d.is_global(pv) ? 1 : 0);
      if (sw.output_load(pm, vm) * 3 > sw.output_load(pv, vv) * 6) {
        d.intermediate[id] = mid;
        target = mid;
      }
    }
    const unsigned o = minimal(target, dst);
    const unsigned ov = vc + (d.is_global(o) ? 1 : 0);
    if (ov >= sw.vcs() || !sw.connected(o)) {
      sw.report("no VC or link for output " + std::to_string(o) + " (VC " + std::to_string(ov) + ") towards group " +
                std::to_string(target) + " for " + Header::decode(c_.addressing.fmt, head.payload).to_string());
      return RouteChoice{};
    }
    return sw.if_free(static_cast<int>(o), ov);
  }

 private:
  // The minimal output from this router towards group `target` (or, in the destination group,
  // towards the destination endpoint).
  unsigned minimal(unsigned target, unsigned dst) const {
    const DragonflyPlan& d = *c_.plan;
    const unsigned r = c_.index;
    if (target == c_.group) {
      const unsigned dr = d.router_of(dst);
      return dr == r ? d.port_of(dst) : d.local_port(r, dr);
    }
    const auto& exits = d.exits[c_.group][target];
    // This router's own global links to the target group first, spread by destination.
    unsigned own = 0;
    for (const auto& e : exits) own += e.first == r ? 1 : 0;
    if (own > 0) {
      unsigned k = dst % own;
      for (const auto& e : exits) {
        if (e.first == r && k-- == 0) return e.second;
      }
    }
    return d.local_port(r, exits[dst % exits.size()].first);
  }

  RoutingContext c_;
  bool ugal_;
  Rng rng_;  // UGAL-L's intermediate groups
};

}  // namespace

std::unique_ptr<RoutingFunction> make_dragonfly_minimal(const RoutingContext& ctx) {
  return std::make_unique<DragonflyRouting>(ctx, false);
}

std::unique_ptr<RoutingFunction> make_ugal_l(const RoutingContext& ctx) {
  return std::make_unique<DragonflyRouting>(ctx, true);
}

}  // namespace hx
