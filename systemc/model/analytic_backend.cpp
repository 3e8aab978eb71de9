#include "analytic_backend.h"

#include <cstdio>
#include <stdexcept>

#include "clex_model.h"
#include "collective_flow.h"
#include "fabric_topology.h"
#include "flow_model.h"
#include "llm_report.h"
#include "llm_workload_config.h"
#include "network_cost.h"

namespace hx {

nlohmann::ordered_json model_document(const SimConfig& cfg, const char* backend, uint64_t endpoints) {
  nlohmann::ordered_json j;
  j["hxsim"] = {{"command", "model"}, {"config", cfg.source}, {"name", cfg.name}};
  j["backend"] = backend;
  j["config"]["kind"] = cfg.topology.kind;
  j["config"]["system"] = fabric_topology(cfg.topology.kind).describe(cfg);
  j["config"]["endpoints"] = endpoints;
  return j;
}

nlohmann::ordered_json model_results(const SimConfig& cfg) {
  using nlohmann::ordered_json;
  // A rounds section (CLEX, section III of Lenzen and Wattenhofer): the round-based model.
  if (cfg.rounds.enabled) return clex_model_results(cfg);
  const FabricTopology& topo = fabric_topology(cfg.topology.kind);
  const std::vector<Dimension> dims = topo.dimensions(cfg);
  if (dims.empty() && topo.has_round_model())
    throw std::invalid_argument(cfg.source + ": hxsim model runs the round-based model of a " + cfg.topology.kind +
                                " given a rounds section (rounds.messages); this config has none");
  if (dims.empty())
    throw std::invalid_argument(cfg.source +
                                ": hxsim model times hierarchical collectives on a platform of dimensions " +
                                "(topology.dims); the " + topo.describe(cfg) + " has none");
  if (!cfg.collective.enabled || cfg.collective.algorithm != CollectiveAlgorithm::Hierarchical)
    throw std::invalid_argument(cfg.source + ": hxsim model needs a collective section with algorithm hierarchical");

  const ScheduleRequest req = hierarchical_request(cfg);
  // An all_to_all is two phases, no chunks (dim_schedule.h); the others are scheduled chunk by chunk.
  const bool a2a = req.op == CollectiveOp::AllToAll;
  const ChunkSchedule schedule = a2a ? ChunkSchedule{} : schedule_chunks(req);
  const ScheduleTimeline tl = a2a ? hierarchical_all_to_all_time(req) : simulate_schedule(req, schedule);

  ordered_json j = model_document(cfg, "analytic", cfg.node_count());
  ordered_json config = j["config"];
  const NetworkDescription net = topo.network(cfg);
  config["network"] = network_cost_json(net.equipment(), net.link_groups(), topo.analytic_spec(cfg), 1);
  config["routing_summary"] = topo.routing_summary(cfg);
  ordered_json jd = ordered_json::array();
  for (std::size_t k = 0; k < dims.size(); ++k) {
    const Dimension& d = dims[k];
    jd.push_back({{"dim", k + 1},
                  {"kind", dim_kind_name(d.kind)},
                  {"size", d.size},
                  {"links", d.links},
                  {"link_Gbps", d.link_bps / 1e9},
                  {"bandwidth_GBps", d.bytes_per_s() / 1e9},
                  {"latency_ns", d.latency_s * 1e9},
                  {"algorithm", dim_algorithm_name(d.kind)},
                  {"steps", stage_steps(d)}});
  }
  config["dims"] = jd;
  config["derivations"] = cfg.derivations;
  j["config"] = config;

  const unsigned n = req.npus();
  const double algbw = req.message_bytes / tl.time_s;
  const double busbw = algbw * busbw_factor(req.op, n);
  ordered_json job;
  job["name"] = "job0";
  job["operation"] = collective_op_name(req.op);
  job["algorithm"] = "hierarchical";
  if (a2a) {
    job["formula"] = "Wang et al., Appendix D, Eq. 21 plus each phase's latency (dim_schedule.h)";
  } else {
    job["scheduler"] = chunk_scheduler_name(req.scheduler);
    job["intra"] = intra_dim_order_name(req.intra);
    job["chunks"] = req.chunks;
  }
  if (!a2a && req.scheduler == ChunkScheduler::Themis) {
    job["threshold"] = themis_threshold_name(req.threshold);
    job["baseline_fallbacks"] = schedule.fallbacks;
  }
  job["ranks"] = n;
  job["message_bytes"] = cfg.collective.message_bytes;
  job["complete"] = true;
  job["time_us"] = tl.time_s * 1e6;
  job["algbw_GBps"] = algbw / 1e9;
  job["busbw_GBps"] = busbw / 1e9;
  const double peak = platform_bytes_per_s(dims);
  job["peak_busbw_GBps"] = peak / 1e9;
  job["fraction_of_peak"] = busbw / peak;
  job["peak_definition"] = kHierarchicalPeakDefinition;
  ordered_json busy = ordered_json::array();
  std::vector<double> fractions;
  for (std::size_t k = 0; k < dims.size(); ++k) {
    fractions.push_back(tl.busy_fraction(static_cast<unsigned>(k)));
    busy.push_back({{"dim", k + 1},
                    {"busy_fraction", fractions.back()},
                    {"bytes_per_npu", tl.dim_bytes[k]},
                    {"stages", tl.by_dim[k].size()}});
  }
  job["dims"] = busy;
  // Here equal to fraction_of_peak (the same bytes over the same time); the cycle model's
  // counts head flits too.
  job["bw_utilization"] = bandwidth_utilization(dims, fractions);
  j["collective"]["jobs"] = ordered_json::array({job});
  return j;
}

ModelOutput model_file(const std::string& path, const std::vector<std::string>& overrides) {
  if (llm::is_workload_config(path)) {
    const nlohmann::ordered_json j = llm::workload_results(llm::load_workload_config(path, overrides));
    return {j, llm::workload_summary(j)};
  }
  const SimConfig cfg = load_config(path, overrides);
  if (!cfg.collective.enabled && cfg.traffic.pattern == Pattern::AllToAll) {
    const nlohmann::ordered_json j = flow_results(cfg);
    return {j, flow_summary(j)};
  }
  if (collective_flow_applies(cfg)) {
    const nlohmann::ordered_json j = collective_flow_results(cfg);
    return {j, collective_flow_summary(j)};
  }
  const nlohmann::ordered_json j = model_results(cfg);
  return {j, model_summary(j)};
}

std::string model_link_loads(const std::string& path, const std::vector<std::string>& overrides) {
  const auto refuse = [&](const std::string& why) {
    return std::invalid_argument("--link-loads: " + path + ": " + why +
                                 "; the flow model's channel loads are those of a saturating all-to-all "
                                 "(traffic.pattern alltoall, no collective)");
  };
  if (llm::is_workload_config(path)) throw refuse("a workload config");
  const SimConfig cfg = load_config(path, overrides);
  if (cfg.collective.enabled) throw refuse("a config with a collective");
  if (cfg.traffic.pattern != Pattern::AllToAll) throw refuse("traffic.pattern is " + pattern_name(cfg.traffic.pattern));
  return flow_channel_loads_csv(cfg);
}

std::string model_summary(const nlohmann::ordered_json& j) {
  if (j.contains("rounds")) return clex_model_summary(j);
  const auto& cfg = j["config"];
  const auto& job = j["collective"]["jobs"][0];
  std::string s;
  char line[512];
  std::snprintf(line, sizeof line, "hxsim model %s: %s (%u NPUs), analytic\n",
                j["hxsim"]["config"].get<std::string>().c_str(), cfg["system"].get<std::string>().c_str(),
                cfg["endpoints"].get<unsigned>());
  s += line;
  const std::string how = job.contains("chunks")
                              ? job["scheduler"].get<std::string>() + " + " + job["intra"].get<std::string>() + ", " +
                                    std::to_string(job["chunks"].get<unsigned>()) + " chunks"
                              : "two phases";
  std::snprintf(line, sizeof line, "  %s  %s by %s, %s, %llu B each: %.2f us\n", job["name"].get<std::string>().c_str(),
                job["operation"].get<std::string>().c_str(), job["algorithm"].get<std::string>().c_str(), how.c_str(),
                static_cast<unsigned long long>(job["message_bytes"].get<uint64_t>()), job["time_us"].get<double>());
  s += line;
  std::snprintf(line, sizeof line, "        algbw %.2f GB/s, busbw %.2f GB/s, %.1f%% of peak (%.1f GB/s)\n",
                job["algbw_GBps"].get<double>(), job["busbw_GBps"].get<double>(),
                100 * job["fraction_of_peak"].get<double>(), job["peak_busbw_GBps"].get<double>());
  s += line;
  for (std::size_t k = 0; k < job["dims"].size(); ++k) {
    const auto& d = job["dims"][k];
    const auto& c = cfg["dims"][k];
    std::snprintf(line, sizeof line, "  dim%u  %-15s %4u NPUs %8.1f GB/s  busy %5.1f%%\n", d["dim"].get<unsigned>(),
                  c["kind"].get<std::string>().c_str(), c["size"].get<unsigned>(), c["bandwidth_GBps"].get<double>(),
                  100 * d["busy_fraction"].get<double>());
    s += line;
  }
  return s;
}

}  // namespace hx
