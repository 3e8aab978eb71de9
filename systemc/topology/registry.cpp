// registry.cpp: the one registry of topology builders, every model's, by kind (topology_builder.h),
// and the typed views each model looks its builders up through (fabric_topology.h,
// nv_system_builder.h). Also the parts every fabric builder shares.
#include <algorithm>
#include <stdexcept>

#include "board_mesh.h"
#include "fabric_topology.h"
#include "named_registry.h"
#include "nv_system_builder.h"

namespace hx {

// One accessor per builder file. The NVSwitch-like systems' builders are here too, in hx_system
// (nv_system_builder.h says why).
const FabricTopology& board_topology();
const FabricTopology& hammingmesh_topology();
const FabricTopology& fat_tree_topology();
const FabricTopology& torus_topology();
const FabricTopology& dragonfly_topology();
const FabricTopology& multidim_topology();
const FabricTopology& clex_topology();
const FabricTopology& torus3d_topology();
const FabricTopology& rail_only_topology();
const FabricTopology& rail_optimized_topology();
namespace nv {
const NvSystemBuilder& dgx2_builder();
const NvSystemBuilder& nvswitch_tree_builder();
}  // namespace nv

// Every kind, one line each, in the order `hxsim list` and the errors name them. Each builder
// says which network model builds it (TopologyBuilder::model()).
// clang-format off
const std::vector<const TopologyBuilder*>& topology_builders() {
  static const std::vector<const TopologyBuilder*> all = {
      &board_topology(),
      &hammingmesh_topology(),
      &fat_tree_topology(),
      &torus_topology(),
      &dragonfly_topology(),
      &multidim_topology(),
      &clex_topology(),
      &torus3d_topology(),
      &rail_only_topology(),
      &rail_optimized_topology(),
      &nv::dgx2_builder(),
      &nv::nvswitch_tree_builder(),
  };
  return all;
}
// clang-format on

const TopologyBuilder& topology_builder(const std::string& kind) {
  return *find_named(topology_builders(), kind, "topology kind", [](const TopologyBuilder* b) { return b->kind(); });
}

// The typed views: a model's builders, in registration order, and the lookup of one of its
// kinds, which refuses another model's kind as unknown (naming the model's own kinds).
const std::vector<const FabricTopology*>& fabric_topologies() {
  static const std::vector<const FabricTopology*> fabric = topology_builders_of<FabricTopology>();
  return fabric;
}

const FabricTopology& fabric_topology(const std::string& kind) {
  return *find_named(fabric_topologies(), kind, "fabric topology", [](const FabricTopology* t) { return t->kind(); });
}

namespace nv {

const std::vector<const NvSystemBuilder*>& nv_system_builders() {
  static const std::vector<const NvSystemBuilder*> nvswitch = topology_builders_of<NvSystemBuilder>();
  return nvswitch;
}

const NvSystemBuilder& nv_system_builder(const std::string& kind) {
  return *find_named(nv_system_builders(), kind, "NVSwitch system kind",
                     [](const NvSystemBuilder* b) { return b->kind(); });
}

}  // namespace nv

void FabricTopology::forbid(const ConfigReader& reader, std::initializer_list<const char*> keys) const {
  for (const char* key : keys) {
    if (reader.present(key))
      reader.field(key).fail("no " + std::string(key) + ", since topology.kind is '" + kind() + "'",
                             "remove it, or change topology.kind");
  }
}

void FabricTopology::require(const ConfigReader& reader, const std::string& path, const std::string& expected) const {
  if (reader.present(path)) return;
  const std::size_t dot = path.rfind('.');
  reader.field(path.substr(0, dot)).fail_missing(path.substr(dot + 1), expected + ", required for a " + kind());
}

std::vector<std::string> FabricTopology::board_routing_names() {
  std::vector<std::string> names;
  for (const BoardRouting& r : board_routings()) names.push_back(r.name);
  return names;
}

int FabricTopology::diameter(const SimConfig& cfg) const {
  const std::optional<cost::TopologySpec> spec = analytic_spec(cfg);
  return spec ? static_cast<int>(cost::evaluate(*spec, cost::Prices{}).diameter) : -1;
}

FabricTopology::RoundTrip FabricTopology::credit_round_trip(const SimConfig& c) const {
  // The flit's cable (send register + latency), the switch pipeline, the credit's way back, and a
  // margin of two cycles for the credit and flit registers; a cable faster than a flit per cycle
  // has that many more flits in flight per cycle.
  const unsigned round_trip = 2 * (1 + c.global_link.latency_cycles) + switch_pipeline(c) + 2;
  const double rate = c.global_rate();
  return {std::max(1.0, rate) * round_trip, std::string(rate > 1 ? format_number(rate) + " flits per cycle x (" : "") +
                                                "2 x (1 + " + std::to_string(c.global_link.latency_cycles) +
                                                ") cable + " + std::to_string(switch_pipeline(c)) + " pipeline + 2" +
                                                (rate > 1 ? ")" : "")};
}

std::vector<unsigned> FabricTopology::grid_extents(const SimConfig& c) const {
  const Size s = size(c);
  return {s.x, s.y};
}

NodeGrid FabricTopology::node_grid(const SimConfig& c) const {
  const Size s = size(c);
  return NodeGrid(s.x, s.y);
}

ScheduleRequest hierarchical_request(const SimConfig& c) {
  ScheduleRequest req;
  req.dims = fabric_topology(c.topology.kind).dimensions(c);
  req.op = c.collective.op;
  req.message_bytes = static_cast<double>(c.collective.message_bytes);
  req.chunks = c.collective.chunks;
  req.scheduler = c.collective.scheduler;
  req.intra = c.collective.intra;
  req.threshold = c.collective.threshold;
  return req;
}

}  // namespace hx
