// clex_model.h: `hxsim model` on a CLEX config with a rounds section: the round-based model of
// section III (clex_rounds.h) on the config's graph, as a results document, and its summary.
// analytic_backend.cpp dispatches here.
#pragma once

#include <string>

#include "nlohmann/json.hpp"
#include "sim_config.h"

namespace hx {

/// The round model's results for `cfg` (topology.kind clex with a rounds section).
nlohmann::ordered_json clex_model_results(const SimConfig& cfg);
/// Its stdout summary: a table per level, as the paper's Tables I-IV.
std::string clex_model_summary(const nlohmann::ordered_json& j);

}  // namespace hx
