// clex.cpp: the CLEX routers' routing functions (topology/clex_paths.h has the rules, docs/clex.md
// the reasons).
//
// clex_minimal: hierarchical, stateless: at the highest level where this router and the
// destination differ, one clique hop to the owner of the right long-range link, across it, one
// level down (clex::minimal_next).
// clex_balanced: section II-D's randomised recursion; the source router draws the whole route once
// (clex::balanced_path, from its own seeded generator) and every router on it follows it.
// Both: a packet moves to VC + 1 on every long-range link and keeps its VC on clique links; the
// config gives at least the VCs the scheme needs (L, 2^{L-1}), which the builder checks.
#include "clex_paths.h"
#include "clex_plan.h"
#include "network_switch.h"
#include "rng.h"
#include "routing_function.h"

namespace hx {

namespace {

class ClexRouting : public RoutingFunction {
 public:
  ClexRouting(const RoutingContext& ctx, bool balanced) : c_(ctx), balanced_(balanced), rng_(ctx.seed) {}

  RouteChoice route(const Flit& head, unsigned in, unsigned vc, const NetworkSwitch& sw) override {
    ClexPlan& plan = *c_.clex;
    const clex::ClexGraph& g = plan.graph;
    const clex::Node here = c_.index, dst = c_.addressing.terminal(head);
    if (dst == here) {
      if (balanced_) plan.balanced.erase(read_tag(c_.addressing.fmt, head.payload).packet_id);
      return sw.if_free(0, vc);
    }
    clex::Node next = 0;
    if (!balanced_) {
      next = clex::minimal_next(g, here, dst);
    } else {
      const uint32_t id = read_tag(c_.addressing.fmt, head.payload).packet_id;
      auto it = plan.balanced.find(id);
      if (it == plan.balanced.end()) {
        if (in != 0) {
          sw.report("clex_balanced: no drawn route for a packet that did not start here: " +
                    Header::decode(c_.addressing.fmt, head.payload).to_string());
          return RouteChoice{};
        }
        it = plan.balanced.emplace(id, ClexPlan::Route{clex::balanced_path(g, here, dst, rng_), 0}).first;
      }
      ClexPlan::Route& r = it->second;
      // The head may ask again before it leaves; it has moved on when the next node is here.
      if (r.path[r.at] != here && r.at + 1 < r.path.size() && r.path[r.at + 1] == here) ++r.at;
      next = r.path[r.at + 1];  // the destination's router drops the route (above)
    }
    const unsigned port = plan.port_to(here, next);
    const unsigned ov = vc + (g.link_level(here, next) >= 2 ? 1 : 0);
    if (ov >= sw.vcs() || !sw.connected(port)) {
      sw.report("clex: no VC or link for port " + std::to_string(port) + " (VC " + std::to_string(ov) + ") towards " +
                g.label(next) + " for " + Header::decode(c_.addressing.fmt, head.payload).to_string());
      return RouteChoice{};
    }
    return sw.if_free(static_cast<int>(port), ov);
  }

  std::string describe_head(const Flit& head) const override {
    return "head for node " + std::to_string(c_.addressing.terminal(head));
  }

 private:
  RoutingContext c_;
  bool balanced_;
  Rng rng_;
};

}  // namespace

std::unique_ptr<RoutingFunction> make_clex_minimal(const RoutingContext& ctx) {
  return std::make_unique<ClexRouting>(ctx, false);
}

std::unique_ptr<RoutingFunction> make_clex_balanced(const RoutingContext& ctx) {
  return std::make_unique<ClexRouting>(ctx, true);
}

}  // namespace hx
