// clex_model.cpp: the round model's results document (clex_model.h); fields in
// docs/results-reference.md, "hxsim model on a CLEX".
#include "clex_model.h"

#include <cstdio>

#include "analytic_backend.h"
#include "clex_paths.h"
#include "clex_rounds.h"
#include "clex_topology.h"
#include "fabric_topology.h"

namespace hx {

nlohmann::ordered_json clex_model_results(const SimConfig& cfg) {
  using nlohmann::ordered_json;
  const clex::ClexGraph g = clex_graph(cfg);
  const clex::LevelCapacities bps = clex_capacities_bps(cfg);

  clex::RoundParams p;
  p.k = g.k();
  p.levels = g.levels();
  p.messages_per_node = cfg.rounds.messages;
  p.relay = cfg.rounds.request ? clex::RelayMode::Request : clex::RelayMode::Direct;
  p.first_copies = cfg.rounds.first_copies;
  p.seed = cfg.run.seed;
  p.capacity.assign(g.levels() + 1, 0.0);
  for (unsigned l = 1; l <= g.levels(); ++l) p.capacity[l] = bps[l] / bps[1];
  const clex::RoundResults r = clex::run_rounds(p);

  ordered_json j = model_document(cfg, "analytic", g.nodes());
  ordered_json config = j["config"];
  ordered_json levels = ordered_json::array();
  for (unsigned l = 1; l <= g.levels(); ++l)
    levels.push_back({{"level", l},
                      {"links", g.link_count(l)},
                      {"link_Gbps", bps[l] / 1e9},
                      {"clique_links", bps[l] / bps[1]},
                      {"max_length_m", g.max_length_m(l)},
                      {"mean_length_m", g.mean_length_m(l)}});
  // clex_minimal against BFS: every source on small graphs, four seeded ones beyond 512 nodes
  // (each BFS covers all destinations; about a second per source at 2^20 nodes).
  std::vector<clex::Node> sources;
  Rng pick = Rng::stream(cfg.run.seed, 0xbf5);
  if (g.nodes() <= 512)
    for (clex::Node n = 0; n < g.nodes(); ++n) sources.push_back(n);
  else
    for (int i = 0; i < 4; ++i) sources.push_back(pick.below(g.nodes()));
  const clex::MinimalVsShortest mv = clex::compare_minimal(g, sources);
  const ordered_json minimal = {{"sources", sources.size()},
                                {"pairs", mv.pairs},
                                {"shortest_fraction", mv.shortest_fraction()},
                                {"mean_minimal_hops", mv.mean_minimal_hops},
                                {"mean_shortest_hops", mv.mean_shortest_hops},
                                {"mean_extra_hops", mv.mean_extra_hops},
                                {"max_extra_hops", mv.max_extra_hops},
                                {"diameter_seen", mv.diameter},
                                {"diameter_bound", (1ull << g.levels()) - 1}};
  config["clex"] = {{"k", g.k()},
                    {"levels", g.levels()},
                    {"capacity", clex_capacity_name(cfg)},
                    {"pitch_m", g.pitch_m()},
                    {"layout", {g.extent()[0], g.extent()[1], g.extent()[2]}},
                    {"links", g.link_count()},
                    {"vcs_minimal", clex::vcs_needed(clex::Scheme::Minimal, g.levels())},
                    {"vcs_balanced", clex::vcs_needed(clex::Scheme::Balanced, g.levels())},
                    {"level", levels},
                    {"minimal_vs_bfs", minimal}};
  config["derivations"] = cfg.derivations;
  j["config"] = config;

  ordered_json rounds;
  rounds["messages_per_node"] = cfg.rounds.messages;
  rounds["relay"] = clex::relay_mode_name(p.relay);
  rounds["first_copies"] = p.first_copies;
  rounds["seed"] = cfg.run.seed;
  rounds["messages"] = r.messages;
  rounds["delivered"] = r.delivered;
  ordered_json per = ordered_json::array();
  for (unsigned l = 1; l <= g.levels(); ++l) {
    const clex::RoundLevelStats& s = r.levels[l];
    per.push_back({{"level", l},
                   {"max_rounds", s.max_rounds},
                   {"avg_rounds", s.avg_rounds},
                   {"avg_rounds_with_handshake", s.avg_rounds_with_handshake},
                   {"max_avg_load", s.max_avg_load},
                   {"avg_hops", s.avg_hops},
                   {"instances", s.instances},
                   {"capacity_messages_per_round", p.capacity[l]}});
  }
  rounds["levels"] = per;
  ordered_json phases = ordered_json::array();
  for (std::size_t i = 1; i < r.clique_phases.size(); ++i)
    phases.push_back({{"phases", i}, {"instances", r.clique_phases[i]}});
  rounds["clique_phases"] = phases;
  rounds["wall_s"] = r.wall_s;
  j["rounds"] = rounds;
  return j;
}

std::string clex_model_summary(const nlohmann::ordered_json& j) {
  const auto& cfg = j["config"];
  const auto& r = j["rounds"];
  std::string s;
  char line[512];
  std::snprintf(line, sizeof line, "hxsim model %s: %s, round-based A_L\n",
                j["hxsim"]["config"].get<std::string>().c_str(), cfg["system"].get<std::string>().c_str());
  s += line;
  std::snprintf(line, sizeof line, "  %u messages from and to each node, relay %s: %s, %.1f s\n",
                r["messages_per_node"].get<unsigned>(), r["relay"].get<std::string>().c_str(),
                r["delivered"].get<bool>() ? "all delivered" : "NOT ALL DELIVERED", r["wall_s"].get<double>());
  s += line;
  s += "  lvl  max rds  avg rds  max avg load  avg hops\n";
  for (const auto& l : r["levels"]) {
    std::snprintf(line, sizeof line, "  %3u  %7u  %7.2f  %12.2f  %8.2f\n", l["level"].get<unsigned>(),
                  l["max_rounds"].get<unsigned>(), l["avg_rounds"].get<double>(), l["max_avg_load"].get<double>(),
                  l["avg_hops"].get<double>());
    s += line;
  }
  return s;
}

}  // namespace hx
