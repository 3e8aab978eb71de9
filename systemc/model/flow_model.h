// flow_model.h: the flow-level model of saturating all-to-all (traffic.pattern alltoall), the
// large-cluster global bandwidth of the HammingMesh paper's Table II (docs/table2.md).
//
// Every ordered pair of endpoints is one flow. The routing (flow_graph.h) fixes how each flow
// spreads over the channels; progressive filling (maxmin.h) then gives the max-min fair rates.
// The all-to-all's rate is the lowest of them, the first filling level, lambda = min over
// channels of capacity / load (load: the channel's share of all flows at unit rate): in the
// paper's balanced shift every source sends the same amount to every destination, so the
// exchange ends when its slowest flow does, and every source keeps lambda * (N - 1) flits per
// cycle in flight. The global bandwidth is that as a share of the injection bandwidth, exactly
// as the cycle model's results state it (traffic.global_bandwidth).
//
// The paper's alltoall is a balanced shift: in phase i = 1..N-1 endpoint j sends to
// (j + i) mod N. Its phases are permutations, which load a network quite unlike all flows at once
// (a Dragonfly group's endpoints all send to one other group). On systems small enough
// (kMaxPhasedCells) the model also gives the exchange phase by phase: phase i's flows alone
// set its rate lambda_i, and the exchange takes sum_i M / lambda_i (traffic.phased; UGAL takes
// the better routing per phase).
//
// UGAL takes the better (higher lambda) of all-minimal and all-Valiant routing of the inter-group
// flows; both are reported. Full per-flow progressive filling costs a route per flow, so it runs
// on systems of up to kMaxMinEndpoints endpoints (its lowest rate must equal lambda: a check);
// lambda itself sums the flows per destination and scales to the large cluster (16,384
// endpoints in seconds).
#pragma once

#include <cstdint>
#include <string>

#include "flow_graph.h"
#include "nlohmann/json.hpp"
#include "sim_config.h"

namespace hx {

/// Systems up to this size also get every flow's max-min rate.
constexpr unsigned kMaxMinEndpoints = 128;
/// Systems whose endpoints x channels are at most this also get the phase-by-phase figure
/// (one float per phase and channel: 128 MB at most).
constexpr uint64_t kMaxPhasedCells = uint64_t{1} << 25;

/// The start of every flow-model document (the all-to-all's and the collectives'): the model
/// document with the netlist's equipment, the routing and the flow graph's size.
nlohmann::ordered_json flow_document(const SimConfig& cfg, const NetworkDescription& net, const FlowGraph& g);

/// The flow model of `cfg`'s all-to-all. Throws std::invalid_argument for a config it does not
/// model (the message says why).
nlohmann::ordered_json flow_results(const SimConfig& cfg);

/// Every channel of `cfg`'s all-to-all flow graph with its load at the all-to-all's rate, as CSV
/// (`hxsim model --link-loads`): from, to, kind (injection, ejection, network), capacity and
/// flits per cycle, at the chosen routing's lambda and, for minimal routing, at the per-hop
/// split's. The cycle model's `hxsim run --link-loads` gives the same channels measured.
std::string flow_channel_loads_csv(const SimConfig& cfg);

/// The stdout summary of flow_results' document.
std::string flow_summary(const nlohmann::ordered_json& j);

}  // namespace hx
