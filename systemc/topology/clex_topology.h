// clex_topology.h: what the clex builder (clex.cpp) derives from a config, for the models that
// run it: the graph with its layout, and one link's bandwidth per level.
#pragma once

#include "clex_graph.h"
#include "sim_config.h"

namespace hx {

/// The config's CLEX graph (topology.clex.k, levels, pitch).
clex::ClexGraph clex_graph(const SimConfig& c);
/// One link's bandwidth per level in bits per second (index 1..L): plain (a clique link is
/// links.global.bandwidth, a level-l link k times it), hop_weighted (topology.clex.node_bandwidth
/// split by clex::balanced_hops, section III-A) or as given.
clex::LevelCapacities clex_capacities_bps(const SimConfig& c);
/// Signal speed in a cable, 2/3 of light's (section II-A: "a signal travels about a foot per
/// nanosecond" in vacuum): a cable's propagation delay is its layout length over this.
constexpr double kClexSignalSpeed_mps = 2e8;
/// Cycles a cable of `length_m` takes: links.global.latency (the ends' fixed part) plus the
/// propagation, rounded up to whole cycles.
unsigned clex_cable_cycles(const SimConfig& c, double length_m);
/// The most nodes `hxsim run` builds (its cycle model steps every router).
constexpr uint64_t kClexMaxCycleNodes = 4096;
/// "plain", "hop_weighted" or "given".
const char* clex_capacity_name(const SimConfig& c);

}  // namespace hx
