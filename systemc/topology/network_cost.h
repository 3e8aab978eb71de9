// network_cost.h: a netlist priced as the cost model prices equipment (analytic/topology_cost.h,
// its default prices), beside the analytical model's counts for the same parameters: the two
// descriptions of one network. The results of every run with a network carry it
// (config.network), and `hxsim cost` prints it for a system config.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "network_description.h"
#include "nlohmann/json.hpp"
#include "topology_cost.h"

namespace hx {

/// switches, dac_cables, aoc_cables, pcb_links, cost_usd (null, with `unpriced` saying why, when
/// the prices do not fit the equipment: NetworkEquipment::unpriced), planes, links (grouped by
/// class, medium, latency and rate) and analytic: with a spec {endpoints, switches, dac_cables,
/// aoc_cables, cost_usd} and matches_analytic, without one null (the analytical model has no
/// closed form of the system).
nlohmann::ordered_json network_cost_json(const NetworkEquipment& e, const std::vector<LinkGroup>& links,
                                         const std::optional<cost::TopologySpec>& spec, unsigned planes);

/// The same as lines of text for the terminal.
std::string network_cost_text(const nlohmann::ordered_json& j);

}  // namespace hx
