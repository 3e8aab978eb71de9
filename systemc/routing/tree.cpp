// tree.cpp: up/down routing in the fat trees (HammingMesh row and column trees, the comparison
// fat trees).
//
// Every tree port that faces a board (or an endpoint) is a terminal, numbered by TreeAddressing
// from the destination in the head's header. A single-switch tree sends a packet straight to its
// terminal. In a two-level tree a leaf sends it down when the terminal is its own, else up,
// adaptively, to the up port with the most room for the packet's VC (downstream credits plus free
// output queue, among those whose output VC is free; ties broken round-robin); a spine sends it
// down, deterministically, to the leaf of the terminal. Up/down routes have no cycles, so the
// tree cannot deadlock by itself. A flit keeps its VC in the tree.
//
// Failed links (topology/faults.h): a leaf goes up only by a working link to a spine that still
// reaches the destination's leaf (its up_reach table), and a spine with parallel links to a leaf
// takes the working one the terminal picks, counting from the one it would pick without faults.
#include "network_switch.h"
#include "routing_function.h"

namespace hx {

namespace {

class UpDown : public RoutingFunction {
 public:
  explicit UpDown(const RoutingContext& ctx) : c_(ctx) {}

  RouteChoice route(const Flit& head, unsigned, unsigned vc, const NetworkSwitch& sw) override {
    const unsigned terminal = c_.addressing.terminal(head);
    if (c_.tree_place == RoutingContext::TreePlace::Leaf && terminal / c_.down != c_.index) {
      return RouteChoice{pick_up_port(vc, sw, terminal / c_.down), vc};
    }
    const int o = down_port(terminal, sw);
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
  int down_port(unsigned terminal, const NetworkSwitch& sw) const {
    switch (c_.tree_place) {
      case RoutingContext::TreePlace::Single: return static_cast<int>(terminal);
      case RoutingContext::TreePlace::Leaf: return static_cast<int>(terminal % c_.down);
      case RoutingContext::TreePlace::Spine: {
        // Up link g = leaf * up + j arrives at spine g mod spines as port g div spines: this
        // spine's ports to `leaf` are those of the links g in [leaf * up, (leaf + 1) * up) with
        // g mod spines == index, a contiguous run. Pick one by the terminal.
        const unsigned leaf = terminal / c_.down;
        const unsigned s = c_.spines, i = c_.index;
        const unsigned first_g = leaf * c_.up + (i + s - (leaf * c_.up) % s) % s;
        const unsigned last_g = (leaf + 1) * c_.up - 1;
        if (first_g > last_g) return -1;  // no link to that leaf (TreeShape rules this out)
        const unsigned first = first_g / s, count = (last_g - first_g) / s + 1;
        for (unsigned k = 0; k < count; ++k) {
          const unsigned o = first + (terminal + k) % count;
          if (sw.connected(o)) return static_cast<int>(o);
        }
        return -1;  // every link to that leaf failed: the leaves' up_reach never sends a packet here
      }
    }
    return -1;
  }

  // The least loaded up port towards leaf `to`: the most room downstream, counting what its queue
  // still holds; with faults, only the up ports whose spine still reaches that leaf.
  int pick_up_port(unsigned vc, const NetworkSwitch& sw, unsigned to) {
    const uint64_t reach = !c_.up_reach ? ~uint64_t{0} : to < c_.up_reach->size() ? (*c_.up_reach)[to] : 0;
    int best = -1;
    unsigned best_room = 0;
    for (unsigned i = 0; i < c_.up; ++i) {
      const unsigned j = (rr_up_ + i) % c_.up, o = c_.down + j;
      if ((c_.up_reach && !(reach >> j & 1)) || !sw.connected(o) || !sw.output_free(o, vc)) continue;
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
  unsigned rr_up_ = 0;  // tie-break among equally loaded up ports
};

}  // namespace

std::unique_ptr<RoutingFunction> make_updown(const RoutingContext& ctx) { return std::make_unique<UpDown>(ctx); }

}  // namespace hx
