// analytic_backend.h: `hxsim model CONFIG`, the analytical backend: the same configs as
// `hxsim run`, the same topology builders and schedules, timed by closed-form models instead of
// cycles, so that paper-scale systems (1,024 NPUs, GiB messages) take well under a second.
//
// It times two kinds of thing, told apart by the config: a config with a top-level `workload:`
// section is an LLM training workload on a cluster of HB domains (systemc/analytic/llm_*.h,
// docs/rail.md): its iteration time for a given parallelization, or the best ones of an
// exhaustive search. A config without a collective section whose traffic.pattern is alltoall
// is saturating all-to-all on a fabric (HammingMesh, HyperX, fat tree, Dragonfly, torus): the
// flow-level model of flow_model.h gives its global bandwidth from the same netlist the cycle
// model builds (max-min fair rates over each routing function's routes, docs/table2.md). A
// config whose collective runs a ring-based algorithm (ring, bidirectional_ring, hamiltonian,
// torus2d) on a fabric without dimensions goes to the collective flow model
// (collective_flow.h): the rate its rings reach under max-min fair sharing. Every other config
// is a collective on a system, as follows.
//
// Collectives: a hierarchical collective (collective.algorithm hierarchical) on a
// platform of dimensions (FabricTopology::dimensions(), topology.kind multidim): the chunk
// schedule of collective/dim_schedule.h (baseline or Themis, FIFO or SCF), timed by its
// alpha-beta model of each dimension. A CLEX with a rounds section (topology.kind clex): the
// round-based model of section III of Lenzen and Wattenhofer (clex_model.h, clex_rounds.h).
// Other configs are refused with the reason.
//
// Its results have the sections of a run's (docs/simulator.md): hxsim, config (with the
// netlist's equipment, config.network) and collective.jobs[] with time_us, algbw_GBps,
// busbw_GBps and fraction_of_peak, plus "backend": "analytic". There is no `checks` section: no
// packet moves, so there is nothing to check end to end, and no data, so no wrong_elements.
#pragma once

#include <string>
#include <vector>

#include "nlohmann/json.hpp"
#include "sim_config.h"

namespace hx {

/// The start every `hxsim model` document of a system config shares: `hxsim` (command, config,
/// name), `backend`, and `config` with the topology's kind, its description and `endpoints`;
/// each model adds the rest of `config` and its own sections.
nlohmann::ordered_json model_document(const SimConfig& cfg, const char* backend, uint64_t endpoints);

/// The analytical results of `cfg`. Throws std::invalid_argument for a config the backend does
/// not model (the message says why).
nlohmann::ordered_json model_results(const SimConfig& cfg);

/// The stdout summary of model_results' document.
std::string model_summary(const nlohmann::ordered_json& j);

/// What `hxsim model PATH` prints and writes.
struct ModelOutput {
  nlohmann::ordered_json results;
  std::string summary;
};

/// `hxsim model PATH`: dispatches on the config -- a `workload:` config to the LLM iteration
/// model, an all-to-all traffic config to the flow model (flow_results), a ring-based collective
/// on a fabric to the collective flow model (collective_flow_results), any other to
/// model_results. Throws ConfigError (bad input), std::invalid_argument (a
/// config the backend does not model), llm::NoValidStrategy (a search that finds nothing).
ModelOutput model_file(const std::string& path, const std::vector<std::string>& overrides);

/// `hxsim model PATH --link-loads FILE`: the all-to-all flow model's channel loads as CSV
/// (flow_channel_loads_csv). Throws std::invalid_argument naming the option for any other config.
std::string model_link_loads(const std::string& path, const std::vector<std::string>& overrides);

}  // namespace hx
