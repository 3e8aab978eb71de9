// multidim.h: the multi-dimensional platforms' builder (multidim.cpp), declared here so that
// the rail clusters' builders (rail.cpp), which are two-dimensional platforms of switches with
// a spine or without, build on it.
#pragma once

#include "dim_schedule.h"
#include "fabric_topology.h"

namespace hx {

/// A dimension's NPU-to-NPU latency split over its hop (multidim.cpp's header comment): each
/// link's cycles and, in a switch dimension, the switch's pipeline.
struct DimHop {
  unsigned link = 1, pipeline = 0;
};
DimHop dim_hop(const Dimension& d, const SimConfig& cfg);
/// `seconds` in whole cycles of router.clock, rounded up.
unsigned dim_cycles(double seconds, const SimConfig& cfg);

class MultidimTopology : public FabricTopology {
 public:
  const char* kind() const override { return "multidim"; }
  bool has_lanes() const override { return true; }
  const char* description() const override {
    return "1..4 dimensions of rings, cliques and switches (Rashidi et al., Table 2)";
  }
  bool has_boards() const override { return false; }

  NetworkDescription network(const SimConfig& cfg) const override;

  std::string describe(const SimConfig& cfg) const override;
  std::string routing_summary(const SimConfig&) const override {
    return "dimension order; rings the short way with datelines";
  }
  std::vector<Dimension> dimensions(const SimConfig& cfg) const override { return cfg.topology.dims; }
  unsigned links_per_plane() const override { return 1; }
  Size size(const SimConfig& c) const override {
    unsigned n = 1;
    for (const Dimension& d : c.topology.dims) n *= d.size;
    return {n, 1, 0};
  }
  std::vector<std::string> routing_names() const override { return {"dim_order"}; }
  void check(const ConfigReader& reader, SimConfig& c) const override;
  void topology_values(const SimConfig& c, std::vector<std::pair<std::string, std::string>>& v) const override;
  void derivations(const SimConfig& c, std::vector<std::string>& d) const override;
  // The longest link's round trip: a dimension's link (its latency, send register, router cycle,
  // the credit's way back) or the global cables of the default (unused here, but the smaller).
  RoundTrip credit_round_trip(const SimConfig& c) const override;
};

}  // namespace hx
