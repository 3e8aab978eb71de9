// dragonfly_plan.h: the wiring and routing tables of a Dragonfly (Kim et al.; the comparison
// topology of the HammingMesh paper, section V and appendix A-C).
//
// `groups` groups of `a` routers; each router has `p` endpoints, a-1 local links (the group is
// fully connected) and `h` global links. Router ports: [0, p) endpoints, [p, p + a - 1) local
// (to router r2 of the group: p + r2, minus one above the router's own index), then h global.
// Global wiring: when a router has at least groups - 1 global ports, its port j goes to group
// g + 1 + j (mod groups), so every router reaches every other group directly. The remaining
// ports (or all of them, with fewer global ports) are paired round-robin, one link per group
// pair per round, so the links spread as evenly as the counts allow.
//
// Routing (per head, at each router):
//   minimal   to the destination group through a global link of this router if it has one,
//             else a local hop to a router that has (chosen by the destination, to spread the
//             load); in the destination group a local hop to the destination's router.
//   UGAL-L    at the source router, a packet to another group goes minimally or, when the
//             minimal output is more loaded (queue x hops) than the output towards a random
//             intermediate group, non-minimally through that group (Valiant). The choice is
//             kept per packet until it reaches the intermediate group.
// VCs: a packet takes VC + 1 on every global link, so minimal paths use VCs 0..1 and Valiant
// paths 0..2; there is at most one local hop per group visit, so no cycle of channel waits can
// form within a VC.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <utility>
#include <vector>

namespace hx {

struct DragonflyPlan {
  unsigned a = 0, p = 0, h = 0, groups = 0;
  bool ugal = false;

  /// exits[g][G]: the (router, global port) pairs of group g with a link to group G.
  std::vector<std::vector<std::vector<std::pair<unsigned, unsigned>>>> exits;
  /// link[(g * a + r) * h + j] = (group, router, port) at the far end of global port j of
  /// router r of group g.
  struct End {
    unsigned group = 0, router = 0, port = 0;
  };
  std::vector<End> link;
  /// UGAL-L: the intermediate group of each packet routed non-minimally, until it gets there.
  std::unordered_map<uint32_t, unsigned> intermediate;

  unsigned radix() const { return p + a - 1 + h; }
  unsigned endpoints() const { return groups * a * p; }
  unsigned group_of(unsigned endpoint) const { return endpoint / (a * p); }
  unsigned router_of(unsigned endpoint) const { return endpoint / p % a; }
  unsigned port_of(unsigned endpoint) const { return endpoint % p; }
  unsigned local_port(unsigned from, unsigned to) const { return p + (to < from ? to : to - 1); }
  unsigned global_port(unsigned j) const { return p + a - 1 + j; }
  bool is_global(unsigned port) const { return port >= p + a - 1; }

  /// Pairs the global ports (see the file comment).
  DragonflyPlan(unsigned a_, unsigned p_, unsigned h_, unsigned groups_, bool ugal_);
};

}  // namespace hx
