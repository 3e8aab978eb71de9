#include "network_cost.h"

#include <iomanip>
#include <sstream>

namespace hx {

nlohmann::ordered_json network_cost_json(const NetworkEquipment& e, const std::vector<LinkGroup>& links,
                                         const std::optional<cost::TopologySpec>& spec, unsigned planes) {
  const cost::Equipment priced{e.switches, e.dac, e.aoc};
  nlohmann::ordered_json j = {
      {"switches", e.switches}, {"dac_cables", e.dac}, {"aoc_cables", e.aoc}, {"pcb_links", e.pcb}};
  if (e.unpriced.empty()) {
    j["cost_usd"] = priced.cost_usd(cost::Prices{});
  } else {
    j["cost_usd"] = nullptr;
    j["unpriced"] = e.unpriced;
  }
  j["planes"] = planes;
  j["links"] = nlohmann::ordered_json::array();
  for (const LinkGroup& g : links) {
    j["links"].push_back({{"class", g.link_class},
                          {"medium", medium_name(g.medium)},
                          {"count", g.count},
                          {"latency_cycles", g.latency},
                          {"flits_per_cycle", g.flits_per_cycle}});
  }
  if (spec) {
    const cost::TopologyCost c = cost::evaluate(*spec, cost::Prices{});
    j["analytic"] = {{"endpoints", c.endpoints},  // a fat tree's design fills its last leaf
                     {"switches", c.total.switches},
                     {"dac_cables", c.total.dac},
                     {"aoc_cables", c.total.aoc},
                     {"cost_usd", c.cost_usd}};
    j["matches_analytic"] = c.total.switches == e.switches && c.total.dac == e.dac && c.total.aoc == e.aoc;
  } else {
    j["analytic"] = nullptr;
  }
  return j;
}

std::string network_cost_text(const nlohmann::ordered_json& j) {
  std::ostringstream os;
  const auto line = [&os](const char* what, const nlohmann::ordered_json& x) {
    os << "  " << what << x["switches"].get<uint64_t>() << " switches, " << x["dac_cables"].get<uint64_t>() << " DAC + "
       << x["aoc_cables"].get<uint64_t>() << " AoC cables, ";
    if (x["cost_usd"].is_null())
      os << "not priced";
    else
      os << "$" << std::fixed << std::setprecision(0) << x["cost_usd"].get<double>() << std::defaultfloat
         << std::setprecision(6);
    os << "\n";
  };
  line("netlist   ", j);
  for (const auto& g : j["links"]) {
    os << "            " << g["count"].get<uint64_t>() << " " << g["class"].get<std::string>() << " links ("
       << g["medium"].get<std::string>() << "), " << g["latency_cycles"].get<unsigned>() << " cycles, "
       << g["flits_per_cycle"].get<double>() << " flits per cycle\n";
  }
  if (j.contains("unpriced")) os << "  not priced: " << j["unpriced"].get<std::string>() << "\n";
  if (j["analytic"].is_null()) {
    os << "  analytic  none: the analytical cost model has no closed form of this system\n";
  } else {
    line("analytic  ", j["analytic"]);
    os << "  "
       << (j["matches_analytic"].get<bool>() ? "the netlist has the analytical model's equipment"
                                             : "the netlist differs from the analytical model");
    // By design for a fat tree whose last leaf is not full: the analytical design cables it all.
    if (!j["matches_analytic"].get<bool>())
      os << " (its design attaches " << j["analytic"]["endpoints"].get<uint64_t>() << " endpoints)";
    os << "\n";
  }
  return os.str();
}

}  // namespace hx
