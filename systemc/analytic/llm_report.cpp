#include "llm_report.h"

#include <cstdio>

namespace hx::llm {

namespace {

using nlohmann::ordered_json;

constexpr double kGiB = 1024.0 * 1024 * 1024;

ordered_json evaluation_json(const Evaluation& e) {
  const Strategy& s = e.strategy;
  const Terms& t = e.terms;
  ordered_json j;
  j["strategy"] = {{"p", s.p},       {"t", s.t},       {"d", s.d},       {"p_h", s.p_h}, {"t_h", s.t_h}, {"d_h", s.d_h},
                   {"p_l", s.p_l()}, {"t_l", s.t_l()}, {"d_l", s.d_l()}, {"v", s.v},     {"m", s.m},     {"b", s.b}};
  j["iteration_s"] = t.iteration();
  j["terms"] = {{"microbatch_compute_s", t.t_microbatch},
                {"bubble_compute_s", t.bubble_compute},
                {"bubble_comm_s", t.bubble_comm},
                {"last_stage_compute_s", t.ls_compute},
                {"last_stage_tensor_s", t.ls_tensor},
                {"last_stage_pipeline_s", t.ls_pipeline},
                {"sync_s", t.sync}};
  j["memory_GiB"] = {{"states", e.memory.states / kGiB},
                     {"activations", e.memory.activations / kGiB},
                     {"total", e.memory.total() / kGiB}};
  j["hfu"] = e.hfu;
  return j;
}

}  // namespace

ordered_json workload_results(const WorkloadConfig& c) {
  const Workload& w = c.workload;
  ordered_json j;
  j["hxsim"] = {{"command", "model"}, {"config", c.source}, {"name", c.name}};
  j["backend"] = "analytic";
  ordered_json wl;
  if (!c.description.empty()) wl["description"] = c.description;
  wl["model"] = {{"name", w.model.name},
                 {"hidden", w.model.hidden},
                 {"layers", w.model.layers},
                 {"heads", w.model.heads},
                 {"sequence", w.model.sequence},
                 {"vocabulary", w.model.vocabulary},
                 {"parameters", w.model.parameters()}};
  wl["global_batch"] = w.global_batch;
  wl["attention_slowdown"] = w.attention_slowdown;
  wl["cluster"] = {{"gpus", w.cluster.gpus},
                   {"hb_domain", w.cluster.hb_domain},
                   {"hb_bandwidth_Gbps", w.cluster.hb_Bps * 8 / 1e9},
                   {"network_bandwidth_Gbps", w.cluster.net_Bps * 8 / 1e9},
                   {"hb_latency_ns", w.cluster.hb_latency_s * 1e9},
                   {"network_latency_ns", w.cluster.net_latency_s * 1e9},
                   {"gpu_TFLOPs", w.cluster.gpu_flops / 1e12},
                   {"gpu_memory_GiB", w.cluster.gpu_bytes / kGiB}};
  wl["flops_per_iteration"] = {
      {"attention", attention_flops(w)}, {"feed_forward", feed_forward_flops(w)}, {"hardware", hardware_flops(w)}};
  j["workload"] = wl;

  ordered_json it;
  std::vector<Evaluation> shown;
  if (c.has_strategy) {
    it["mode"] = "given";
    shown.push_back(evaluate(w, c.strategy));
  } else {
    const SearchResult r = search(w, c.top);
    it["mode"] = "search";
    it["candidates"] = r.candidates;
    it["valid"] = r.valid;
    it["over_memory"] = r.over_memory;
    if (r.top.empty())
      throw NoValidStrategy(c.source + ": no parallelization satisfies Eq. 11-19: " + std::to_string(r.candidates) +
                            " candidates satisfy Eq. 11-18 and all of them exceed the GPU memory (Eq. 19)" +
                            (r.candidates == 0 ? " -- none does: no (p, t, d) divides N, h, s, l and B" : ""));
    shown = r.top;
  }
  it["best"] = evaluation_json(shown.front());
  ordered_json top = ordered_json::array();
  for (const Evaluation& e : shown) top.push_back(evaluation_json(e));
  it["top"] = top;
  j["iteration"] = it;

  if (c.paper.has_computed || c.paper.has_measured) {
    ordered_json p;
    p["source"] = "Wang et al., How to Build Low-cost Networks for Large Language Models, Table 4";
    const double mine = shown.front().terms.iteration();
    if (c.paper.has_computed) {
      p["iteration_time_s"] = c.paper.computed_s;
      p["deviation"] = mine / c.paper.computed_s - 1;
    }
    if (c.paper.has_measured) {
      p["measured_iteration_time_s"] = c.paper.measured_s;
      p["measured_deviation"] = mine / c.paper.measured_s - 1;
    }
    j["paper"] = p;
  }
  return j;
}

std::string workload_summary(const ordered_json& j) {
  const auto& wl = j["workload"];
  const auto& cl = wl["cluster"];
  const auto& it = j["iteration"];
  std::string s;
  char line[512];
  std::snprintf(line, sizeof line,
                "hxsim model %s: %s (h %llu, l %llu, %.1fB parameters), batch %llu on %llu GPUs, K = %llu, "
                "C_F %.0f Gb/s, C_S %.0f Gb/s, %.0f TFLOP/s, %.0f GiB\n",
                j["hxsim"]["config"].get<std::string>().c_str(), wl["model"]["name"].get<std::string>().c_str(),
                static_cast<unsigned long long>(wl["model"]["hidden"].get<uint64_t>()),
                static_cast<unsigned long long>(wl["model"]["layers"].get<uint64_t>()),
                wl["model"]["parameters"].get<double>() / 1e9,
                static_cast<unsigned long long>(wl["global_batch"].get<uint64_t>()),
                static_cast<unsigned long long>(cl["gpus"].get<uint64_t>()),
                static_cast<unsigned long long>(cl["hb_domain"].get<uint64_t>()), cl["hb_bandwidth_Gbps"].get<double>(),
                cl["network_bandwidth_Gbps"].get<double>(), cl["gpu_TFLOPs"].get<double>(),
                cl["gpu_memory_GiB"].get<double>());
  s += line;
  if (it["mode"] == "search") {
    std::snprintf(line, sizeof line,
                  "  search: %llu candidates (Eq. 11-18), %llu fit the memory (Eq. 19); the %zu best:\n",
                  static_cast<unsigned long long>(it["candidates"].get<uint64_t>()),
                  static_cast<unsigned long long>(it["valid"].get<uint64_t>()), it["top"].size());
  } else {
    std::snprintf(line, sizeof line, "  the given parallelization:\n");
  }
  s += line;
  s += "     p    t     d  p_h t_h d_h  v     m   b |   T_iter  bubble(c+n)  LS comp    LS TP    LS PP     sync | mem "
       "GiB   HFU\n";
  for (const auto& e : it["top"]) {
    const auto& st = e["strategy"];
    const auto& t = e["terms"];
    const auto u = [&st](const char* k) { return static_cast<unsigned long long>(st[k].get<uint64_t>()); };
    std::snprintf(line, sizeof line,
                  "  %4llu %4llu %5llu %4llu %3llu %3llu %2llu %5llu %3llu | %8.3f %6.3f+%-6.3f %8.3f %8.3f %8.3f "
                  "%8.3f | %7.1f %5.1f%%\n",
                  u("p"), u("t"), u("d"), u("p_h"), u("t_h"), u("d_h"), u("v"), u("m"), u("b"),
                  e["iteration_s"].get<double>(), t["bubble_compute_s"].get<double>(), t["bubble_comm_s"].get<double>(),
                  t["last_stage_compute_s"].get<double>(), t["last_stage_tensor_s"].get<double>(),
                  t["last_stage_pipeline_s"].get<double>(), t["sync_s"].get<double>(),
                  e["memory_GiB"]["total"].get<double>(), 100 * e["hfu"].get<double>());
    s += line;
  }
  if (j.contains("paper")) {
    const auto& p = j["paper"];
    if (p.contains("iteration_time_s")) {
      std::snprintf(line, sizeof line, "  paper (Table 4): computed %.2f s (%+.1f%%)",
                    p["iteration_time_s"].get<double>(), 100 * p["deviation"].get<double>());
      s += line;
    }
    if (p.contains("measured_iteration_time_s")) {
      std::snprintf(line, sizeof line, ", measured %.2f s (%+.1f%%)", p["measured_iteration_time_s"].get<double>(),
                    100 * p["measured_deviation"].get<double>());
      s += line;
    }
    s += "\n";
  }
  return s;
}

}  // namespace hx::llm
