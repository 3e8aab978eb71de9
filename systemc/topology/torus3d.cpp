// torus3d.cpp: a 3D torus of the accelerators' own routers (C++ switches with seven ports),
// X x Y x Z (topology.sides), the comparison network of CLEX's section III (docs/clex.md):
// dimension-order routing with dateline VCs, the 2D torus's function (routing/torus.cpp) with
// its z dimension, or minimal adaptive with that as escape (torus_adaptive). Every link a cable
// of links.global; no boards.
//
// Physical layout: a folded torus on a grid of topology.pitch, the standard way to avoid long
// wrap-around cables: along an axis of k routers, ring position i sits at slot 2i for
// i < ceil(k/2) and at slot 2(k-1-i)+1 after, so ring neighbours are 2 pitches apart except at
// the two folds (1 pitch). Every cable's latency is links.global.latency plus its length at the
// CLEX's signal speed (clex_cable_cycles), the same formula as the CLEX's cube-in-cube cables:
// both networks then occupy the same X x Y x Z grid of nodes at the same pitch and pay the same
// per metre, which is what makes their latencies and cable metres comparable (docs/clex.md).
#include <algorithm>
#include <cmath>

#include "clex_topology.h"
#include "fabric_topology.h"
#include "tree_builder.h"

namespace hx {

namespace {

// Slot (in pitches) of ring position i of k along one axis of the folded layout.
unsigned folded_slot(unsigned i, unsigned k) { return i < (k + 1) / 2 ? 2 * i : 2 * (k - 1 - i) + 1; }

// Length in pitches of the cable from ring position i to i + 1 (mod k).
unsigned folded_pitches(unsigned i, unsigned k) {
  const unsigned a = folded_slot(i, k), b = folded_slot((i + 1) % k, k);
  return a > b ? a - b : b - a;
}

class Torus3dTopology : public FabricTopology {
 public:
  const char* kind() const override { return "torus3d"; }
  const char* description() const override { return "3D torus of accelerator routers, switchless"; }
  bool has_boards() const override { return false; }
  // Router n serves accelerator n through its port 0; ports N, E, S, W, up, down (1..6) go to
  // the neighbours in y+, x+, y-, x-, z+, z-.
  NetworkDescription network(const SimConfig& cfg) const override {
    const unsigned X = cfg.topology.side_x, Y = cfg.topology.side_y, Z = cfg.topology.side_z;
    NetworkDescription net;
    net.unpriced = "the cost model has no 3D torus";
    std::vector<unsigned> router(X * Y * Z);
    for (unsigned n = 0; n < X * Y * Z; ++n) {
      NodeDescription r;
      r.name = "r" + std::to_string(n % X) + "_" + std::to_string(n / X % Y) + "_" + std::to_string(n / (X * Y));
      r.ports = 7;  // its accelerator, then N, E, S, W, up, down
      r.latency = switch_pipeline(cfg);
      r.place.x = n % X;
      r.place.y = n / X % Y;
      r.place.z = n / (X * Y);
      r.place.size_x = X;
      r.place.size_y = Y;
      r.place.size_z = Z;
      router[n] = add_accelerator_router(net, cfg, n, std::move(r), 1);
    }
    enum : unsigned { kN = 1, kE = 2, kS = 3, kW = 4, kUp = 5, kDown = 6 };
    const double pitch = cfg.topology.pitch_m;
    const auto link = [&](unsigned from, unsigned from_port, unsigned to, unsigned to_port, unsigned pitches) {
      const double length = pitches * pitch;
      net.add_link({router[from], from_port}, {router[to], to_port}, clex_cable_cycles(cfg, length), cable_rate(cfg),
                   "global", Medium::Dac, length);
    };
    for (unsigned n = 0; n < X * Y * Z; ++n) {
      const unsigned x = n % X, y = n / X % Y, z = n / (X * Y);
      if (X > 1) link(n, kE, z * X * Y + y * X + (x + 1) % X, kW, folded_pitches(x, X));
      if (Y > 1) link(n, kN, z * X * Y + ((y + 1) % Y) * X + x, kS, folded_pitches(y, Y));
      if (Z > 1) link(n, kUp, ((z + 1) % Z) * X * Y + y * X + x, kDown, folded_pitches(z, Z));
    }
    return net;
  }
  std::string describe(const SimConfig& cfg) const override {
    return std::to_string(cfg.topology.side_x) + "x" + std::to_string(cfg.topology.side_y) + "x" +
           std::to_string(cfg.topology.side_z) + " 3D torus (folded, " + format_number(cfg.topology.pitch_m) +
           " m pitch)";
  }
  std::string routing_summary(const SimConfig& cfg) const override {
    return cfg.routing.algorithm == "torus_adaptive" ? "minimal adaptive, dimension order with datelines as escape"
                                                     : "dimension order with datelines";
  }
  unsigned links_per_plane() const override { return 6; }
  // torus_adaptive may deliver on any of its adaptive VCs.
  unsigned max_path_vc(const SimConfig& c) const override {
    return c.routing.algorithm == "torus_adaptive" ? c.router.vcs - 1 : 2;
  }

  // Node n at (n mod X, n div X): x along the rows, y and z folded into the columns.
  Size size(const SimConfig& c) const override { return {c.topology.side_x, c.topology.side_y * c.topology.side_z, 0}; }
  // The coordinate patterns see the torus's own (x, y, z): node n = x + X (y + Y z), its grid
  // number (the ring positions, not the folded layout's slots: a pattern is defined on the
  // network's coordinates, and the folding only changes the cables' lengths).
  std::vector<unsigned> grid_extents(const SimConfig& c) const override {
    return {c.topology.side_x, c.topology.side_y, c.topology.side_z};
  }
  NodeGrid node_grid(const SimConfig& c) const override {
    std::vector<unsigned> index(c.topology.side_x * c.topology.side_y * c.topology.side_z);
    for (unsigned n = 0; n < index.size(); ++n) index[n] = n;
    return NodeGrid(grid_extents(c), std::move(index));
  }
  // The longest cable (2 pitches with a fold, 1 on a side of 2) at the cables' rate.
  RoundTrip credit_round_trip(const SimConfig& c) const override {
    unsigned pitches = 0;
    for (unsigned k : {c.topology.side_x, c.topology.side_y, c.topology.side_z})
      for (unsigned i = 0; k > 1 && i < k; ++i) pitches = std::max(pitches, folded_pitches(i, k));
    const unsigned cable = clex_cable_cycles(c, pitches * c.topology.pitch_m);
    const unsigned trip = 2 * (1 + cable) + switch_pipeline(c) + 2;
    const double rate = std::max(1.0, c.global_rate());
    return {rate * trip, format_number(rate) + " flits per cycle x (2 x (1 + " + std::to_string(cable) +
                             ") longest cable (" + std::to_string(pitches) + " pitches) + " +
                             std::to_string(switch_pipeline(c)) + " pipeline + 2)"};
  }
  std::vector<std::string> routing_names() const override { return {"dor_dateline", "torus_adaptive"}; }
  void check(const ConfigReader& reader, SimConfig& c) const override {
    forbid(reader, {"topology.board", "topology.global", "topology.endpoints", "topology.dragonfly", "topology.tree",
                    "topology.dims", "topology.clex"});
    require(reader, "topology.sides", "the torus's sides, X x Y x Z");
    if (c.router.vcs < 2)
      reader.field("router.vcs")
          .fail("at least 2 in a torus", "the dateline scheme moves a packet to VC 1 at the wrap-around");
    if (c.routing.algorithm == "torus_adaptive" && c.router.vcs < 3)
      reader.field("router.vcs")
          .fail("at least 3 for torus_adaptive", "VCs 0 and 1 are the dateline escape network, 2 and up adaptive");
  }
  void topology_values(const SimConfig& c, std::vector<std::pair<std::string, std::string>>& v) const override {
    v.emplace_back("topology.sides", std::to_string(c.topology.side_x) + "x" + std::to_string(c.topology.side_y) + "x" +
                                         std::to_string(c.topology.side_z));
    v.emplace_back("topology.pitch", format_number(c.topology.pitch_m) + " m");
  }
  // An accelerator's router: one cycle, like the 2D torus's.
  unsigned switch_pipeline(const SimConfig&) const override { return 1; }
};

}  // namespace

const FabricTopology& torus3d_topology() {
  static const Torus3dTopology t;
  return t;
}

}  // namespace hx
