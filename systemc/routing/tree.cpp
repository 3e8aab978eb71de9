// tree.cpp: up/down routing in the fat trees (HammingMesh row and column trees, the comparison
// fat trees of two or three levels).
//
// Every tree port that faces a board (or an endpoint) is a terminal, numbered by TreeAddressing
// from the destination in the head's header; terminal t is port t mod down of leaf t div down. A
// single-switch tree sends a packet straight to its terminal. Otherwise a switch sends a packet
// down when the destination's leaf lies below it, else up:
//   - a leaf goes down to the terminal's port when the leaf is its own;
//   - a middle switch or a top goes down by the one of its down ports towards that leaf (parallel
//     cables) with the most room for the packet's VC: the cables all lead to that leaf, and a
//     choice by the terminal would load them unevenly where the leaf's terminals are no multiple
//     of them (42 over 4 cables: 11, 11, 10, 10), which costs where the down cables bind (a
//     tapered tree's all-to-all: docs/table2.md, "The tapered trees");
//   - going up, a leaf or a middle switch takes adaptively the up port with the most room for the
//     packet's VC (downstream credits plus free output queue, among those whose output VC is
//     free; ties broken round-robin), among the up ports that reach the destination's leaf.
// A board one accelerator wide along the tree (a HyperX's) has two terminals, t and t ^ 1, both
// cables into its one router: the last switch delivers by the one with more room, the addressed
// side on a tie, the same choice as among parallel cables (a shift of the all-to-all addresses
// every packet of a phase to one side: docs/table2.md).
// Which ports lead down to a leaf, and which up ports reach it, is the switch's table
// (topology/tree_routes.h), computed from the working links: so a failed link or switch is
// avoided (topology/faults.h), as is a top of a three-level tree that does not reach a short last
// pod. Up/down routes have no cycles, so the tree cannot deadlock by itself. A flit keeps its VC
// in the tree.
#include "network_switch.h"
#include "routing_function.h"
#include "tree_routes.h"

namespace hx {

namespace {

class UpDown : public RoutingFunction {
 public:
  explicit UpDown(const RoutingContext& ctx)
      : c_(ctx), routes_(ctx.tree_routes.get()), two_sides_(ctx.addressing.one_wide()) {}

  RouteChoice route(const Flit& head, unsigned, unsigned vc, const NetworkSwitch& sw) override {
    const unsigned terminal = c_.addressing.terminal(head);
    int o = -1;
    if (c_.tree_place == RoutingContext::TreePlace::Single) {
      if (two_sides_) return sw.roomiest_of(2, vc, [terminal](unsigned k) { return terminal ^ k; }).choice;
      o = static_cast<int>(terminal);
    } else if (routes_ == nullptr) {
      sw.report("no up/down table (topology/tree_routes.h) for a switch of a tree of several");
      return RouteChoice{};
    } else {
      const unsigned leaf = terminal / c_.down;
      if (c_.tree_place == RoutingContext::TreePlace::Leaf) {
        if (leaf != c_.index) return RouteChoice{pick_up_port(vc, sw, leaf), vc};
        if (two_sides_ && (terminal ^ 1) / c_.down == leaf)
          return sw.roomiest_of(2, vc, [&](unsigned k) { return (terminal ^ k) % c_.down; }).choice;
        o = static_cast<int>(terminal % c_.down);
      } else {
        const unsigned count = routes_->down_count(leaf);
        // Parallel cables to that leaf: the one with the most room.
        if (count > 0) return sw.roomiest_of(count, vc, [&](unsigned k) { return routes_->down_port(leaf, k); }).choice;
        if (c_.up > 0) return RouteChoice{pick_up_port(vc, sw, leaf), vc};
      }
    }
    if (o < 0 || !sw.connected(static_cast<unsigned>(o))) {
      sw.report("no port towards tree terminal " + std::to_string(terminal) + " for " +
                Header::decode(c_.addressing.fmt, head.payload).to_string());
      return RouteChoice{};
    }
    return sw.if_free(o, vc);
  }

  std::string describe_head(const Flit& head) const override {
    return "head for terminal " + std::to_string(c_.addressing.terminal(head));
  }

 private:
  // The least loaded up port towards leaf `to`: the most room downstream, counting what its queue
  // still holds, among the up ports that reach that leaf.
  int pick_up_port(unsigned vc, const NetworkSwitch& sw, unsigned to) {
    int best = -1;
    unsigned best_room = 0;
    for (unsigned i = 0; i < c_.up; ++i) {
      const unsigned j = (rr_up_ + i) % c_.up, o = c_.up_first + j;
      if (!routes_->up_reaches(to, j) || !sw.connected(o) || !sw.output_free(o, vc)) continue;
      const unsigned room = sw.output_room(o, vc);
      if (room > best_room) {
        best_room = room;
        best = static_cast<int>(o);
      }
    }
    if (best != -1) rr_up_ = (rr_up_ + 1) % c_.up;
    return best;
  }

  RoutingContext c_;
  const TreeRoutes* routes_;  // owned by c_
  // Boards one accelerator wide along the tree: terminals t and t ^ 1 are the two cables into one
  // router, and a head takes the one with more room (the addressed side on a tie).
  bool two_sides_;
  unsigned rr_up_ = 0;  // tie-break among equally loaded up ports
};

}  // namespace

std::unique_ptr<RoutingFunction> make_updown(const RoutingContext& ctx) { return std::make_unique<UpDown>(ctx); }

}  // namespace hx
