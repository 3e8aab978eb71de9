// collective_flow.h: the flow-level model of a ring-based collective on a fabric (allreduce,
// reduce_scatter, all_gather by ring, bidirectional_ring, hamiltonian or torus2d): the bandwidth
// share its flows reach under max-min fair sharing, the allreduce column of the HammingMesh
// paper's Table II at scale (docs/table2.md, "Allreduce").
//
// The plan is the one the cycle model runs (collective_plan.h): per algorithm flow a sequence
// of stages, each a set of rings of ranks; rank r is endpoint r, as in the cycle model's one job
// on every accelerator. The model:
//
//   - Lock step. Every flow of these algorithms has the same stages, of the same ring sizes and
//     chunk sizes (they differ by direction or by transposition), so the flows are taken to be
//     in stage k together: the rings of stage k of all flows share the network, and nothing
//     else does.
//   - A ring is one max-min flow. A pipelined ring moves each segment hop by hop, so in steady
//     state every hop of the ring carries the same rate rho_R, the rate of its slowest hop; the
//     ring's weight on channel c is the sum over its hops (position i to i + 1, routed as the
//     all-to-all's flows are, flow_graph.h: split evenly over the minimal paths, or the
//     dimension-order path) of the hop's share on c. Progressive filling (maxmin.h) over the
//     stage's rings gives every rho_R. The rank's local port counts as channels too: one
//     channel of router.local_ports lanes (HammingMesh family), or the endpoint's link.
//   - Time. Ring R's stage time is the most flits one of its positions sends in the stage (its
//     n - 1 chunks, each in segments of one head flit plus ceil(segment / 16) body flits), over
//     rho_R. A stage takes its slowest ring's time; the collective, the sum over stages.
//   - algbw = S / time, busbw and fraction_of_peak as the cycle model defines them
//     (docs/collectives.md): allreduce algbw / (injection / 2), injection = router.local_ports
//     flits per cycle.
//
// Latency. The figures above (time_cycles, fraction_of_peak) leave it out: they are the bound
// the cycle model approaches for large messages. A second figure adds it
// (time_with_latency_cycles, fraction_of_peak_with_latency): a ring's step k + 1 starts at a
// position once the first packet of step k has arrived there from the position before, so a step
// takes the longer of its own flits over the ring's rate and that packet's flits (sent at the
// links' rate, at most an accelerator lane's flit per cycle) plus the ring's mean hop latency.
// The last step (n - 2) starts n - 2 steps into the stage and ends when its own flits have left
// and crossed one hop, so a stage is (n - 2) steps, plus the last step's flits, plus one hop. The
// hop latency is the zero-load latency of the hop's routes (FlowChannel::latency: links, their
// output registers, switch and router pipelines, edge ports), averaged over the hop's split and
// the ring's hops. Measured against the cycle model with 64 KiB and 256 KiB allreduces on the
// reduced systems, where the latency costs up to 90% of the bandwidth: 18 of 20 runs within 5%
// (16 within 2%); outside it the torus's torus2d at 64 KiB (its four flows share one port and
// drift apart: 1.23x) and the Dragonfly's UGAL-L at 256 KiB (its bandwidth gap, 1.09x);
// docs/table2.md, "The latency term".
//
// UGAL (ugal_l): a ring's hop between groups can go minimally or Valiant (through another
// group, 1 / (groups - 2) through each, as the all-to-all's flow_model.h). The model times
// every inter-group hop minimal and every one Valiant and takes the faster, as the all-to-all
// model does; it also reports the best split of each hop between the two (a share f minimal,
// on a grid of 1/20), the most UGAL-L's per-packet choice could reach with a fixed split
// (collective.jobs[].ugal). Intra-group hops are minimal.
#pragma once

#include "nlohmann/json.hpp"
#include "sim_config.h"

namespace hx {

/// Whether `cfg` is a collective the flow model times (a ring-based algorithm, one job on every
/// endpoint of a fabric). Configs it does not cover go to the other models.
bool collective_flow_applies(const SimConfig& cfg);

/// The flow model of `cfg`'s collective. Throws std::invalid_argument for a config it does not
/// model (the message says why).
nlohmann::ordered_json collective_flow_results(const SimConfig& cfg);

/// The stdout summary of collective_flow_results' document.
std::string collective_flow_summary(const nlohmann::ordered_json& j);

}  // namespace hx
