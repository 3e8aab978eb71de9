// board_router.cpp: the C++ switch as a board router, routed by the board routing functions of
// board_mesh.h (xy, north_last, min_adaptive), the rules the RTL router (rtl/hx_route.sv)
// implements in hardware.
//
// The switch's ports are numbered as the RTL router's (N, E, S, W, then the local lanes), and
// its RoutingContext holds its place on its board. Among the outputs the rules allow, the head
// takes the free one with the most room behind it (the RTL's choice among minimal outputs: the
// least loaded, by credits), the lowest-numbered one on a tie. It keeps its VC on the board and
// takes VC+1 when it leaves the board through an edge port, as under the RTL's `keep` policy
// (the HammingMesh's deadlock freedom across boards, sec. IV-C3). A deterministic rule (xy)
// allows one output.
#include "board_mesh.h"
#include "network_switch.h"
#include "routing_function.h"

namespace hx {

namespace {

class BoardRouter : public RoutingFunction {
 public:
  BoardRouter(const RoutingContext& ctx, RouteMode mode) : c_(ctx), mode_(mode), edges_(edge_ports(ctx.place)) {}

  RouteChoice route(const Flit& head, unsigned in, unsigned vc, const NetworkSwitch& sw) override {
    const Header h = Header::decode(c_.addressing.fmt, head.payload);
    const Destination dst{h.dst_board_x, h.dst_board_y, h.dst_node_x, h.dst_node_y};
    const PortMask allowed = board_route_set(c_.place, in, mode_, dst, c_.local_ports, c_.span);
    RouteChoice best;
    unsigned best_room = 0;
    for (unsigned p = 0; p < num_router_ports(c_.local_ports); ++p) {
      if ((allowed & (1u << p)) == 0) continue;
      if (!sw.connected(p)) {
        sw.report("board routing allows port " + std::string(port_name(p)) + ", which has no link");
        continue;
      }
      const unsigned out_vc = (edges_ & (1u << p)) != 0 ? vc + 1 : vc;
      if (out_vc >= sw.vcs()) {
        sw.report("a head on VC " + std::to_string(vc) + " leaves its board through " + port_name(p) +
                  " and there is no VC " + std::to_string(out_vc) + " (more board crossings than VCs)");
        continue;
      }
      if (!sw.output_free(p, out_vc)) continue;
      const unsigned room = sw.output_room(p, out_vc);
      if (best.port < 0 || room > best_room) {
        best = RouteChoice{static_cast<int>(p), out_vc};
        best_room = room;
      }
    }
    return best;
  }

  std::string describe_head(const Flit& head) const override {
    const Header h = Header::decode(c_.addressing.fmt, head.payload);
    return "head for board (" + std::to_string(h.dst_board_x) + "," + std::to_string(h.dst_board_y) + ") node (" +
           std::to_string(h.dst_node_x) + "," + std::to_string(h.dst_node_y) + ")";
  }

 private:
  RoutingContext c_;
  RouteMode mode_;
  PortMask edges_;  // the outputs that leave the board
};

}  // namespace

std::unique_ptr<RoutingFunction> make_board_xy(const RoutingContext& ctx) {
  return std::make_unique<BoardRouter>(ctx, RouteMode::Xy);
}
std::unique_ptr<RoutingFunction> make_board_north_last(const RoutingContext& ctx) {
  return std::make_unique<BoardRouter>(ctx, RouteMode::NorthLast);
}
std::unique_ptr<RoutingFunction> make_board_min_adaptive(const RoutingContext& ctx) {
  return std::make_unique<BoardRouter>(ctx, RouteMode::MinAdaptive);
}

}  // namespace hx
