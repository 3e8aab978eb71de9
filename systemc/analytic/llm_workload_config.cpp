#include "llm_workload_config.h"

#include <yaml-cpp/yaml.h>

#include <functional>

namespace hx::llm {

namespace {

constexpr uint64_t kMaxGpus = uint64_t{1} << 32;
constexpr uint64_t kMaxDim = uint64_t{1} << 24;  // hidden size, sequence, vocabulary, batch

const std::vector<std::string> kStrategyKeys = {"pipeline",   "tensor",      "data",      "micro_batch",
                                                "interleave", "hb_pipeline", "hb_tensor", "hb_data"};

// workload.parallelization: read, then checked against Eq. 11-19; the first violation is the
// error, at the parallelization map, naming its equation.
Strategy read_strategy(const Field& f, const Workload& w) {
  const MapFields m(f, "a map with keys " + join_names(kStrategyKeys), kStrategyKeys);
  const auto dim = [&m](const char* key, const char* what) {
    return m.required(key, std::string(what) + ", an integer").integer(1, kMaxGpus);
  };
  Strategy s;
  s.p = dim("pipeline", "pipeline-parallel stages p");
  s.t = dim("tensor", "tensor-parallel size t");
  s.d = dim("data", "data-parallel size d");
  s.b = dim("micro_batch", "micro-batch size b in sequences");
  s.p_h = dim("hb_pipeline", "the part p_h of p inside an HB domain");
  s.t_h = dim("hb_tensor", "the part t_h of t inside an HB domain");
  s.d_h = dim("hb_data", "the part d_h of d inside an HB domain");
  const auto v = m.get("interleave");
  s.v = v ? v->integer(1, kMaxDim) : 1;
  s.m = w.global_batch % s.d ? 0 : w.global_batch / s.d / s.b;
  if (s.m == 0) s.m = 1;  // Eq. 13 / 18 report the mismatch
  const std::vector<Violation> bad = violations(w, s);
  if (!bad.empty())
    f.fail_found("a parallelization that satisfies " + bad.front().constraint + " (Wang et al., appendix C)",
                 bad.front().text,
                 bad.size() > 1 ? std::to_string(bad.size() - 1) + " more constraint(s) violated" : "");
  return s;
}

KeySpec make_schema(WorkloadConfig& c) {
  using P = Presence;
  Workload& w = c.workload;
  const auto dim = [](std::string name, std::string what, uint64_t& out) {
    return leaf(std::move(name), P::Required, what + ", an integer in 1..2^24", "",
                [&out](const Field& f) { out = f.integer(1, kMaxDim); });
  };
  const auto bandwidth = [](std::string name, double& out) {
    return leaf(std::move(name), P::Required, "a bandwidth > 0 such as '200 Gb/s'", "", [&out](const Field& f) {
      const double bps = f.bandwidth();
      if (!(bps > 0)) f.fail("a bandwidth > 0 such as '200 Gb/s'");
      out = bps / 8;  // bytes per second
    });
  };
  const auto latency = [](std::string name, double& out) {
    return leaf(std::move(name), P::Defaulted, "a time >= 0 such as '1 us'", "0 ns", [&out](const Field& f) {
      out = f.time();
      if (out < 0) f.fail("a time >= 0 such as '1 us'");
    });
  };
  return section(
      "", P::Required,
      {
          leaf("name", P::Optional, "a string", "", [&c](const Field& f) { c.name = f.text(); }),
          leaf("description", P::Defaulted, "a string", "\"\"", [&c](const Field& f) { c.description = f.text(); }),
          section("workload", P::Required,
                  {
                      section("model", P::Required,
                              {
                                  leaf("name", P::Defaulted, "a string", "\"\"",
                                       [&w](const Field& f) { w.model.name = f.text(); }),
                                  dim("hidden", "hidden size h", w.model.hidden),
                                  dim("layers", "transformer blocks l", w.model.layers),
                                  leaf("heads", P::Required, "attention heads, an integer dividing model.hidden", "",
                                       [&w](const Field& f) {
                                         const std::string expected =
                                             "attention heads, an integer dividing model.hidden " +
                                             std::to_string(w.model.hidden);
                                         w.model.heads = f.integer(1, w.model.hidden, expected);
                                         if (w.model.hidden % w.model.heads) f.fail(expected);
                                       }),
                                  dim("sequence", "sequence length s in tokens", w.model.sequence),
                                  dim("vocabulary", "vocabulary size V", w.model.vocabulary),
                              }),
                      dim("global_batch", "global batch B in sequences", w.global_batch),
                      leaf("attention_slowdown", P::Defaulted, "a number in [1, 100]", "2.5",
                           [&w](const Field& f) {
                             w.attention_slowdown = f.number({1, 100});
                           }),
                      section("cluster", P::Required,
                              {
                                  leaf("gpus", P::Required, "the GPU count N, an integer in 1..2^32", "",
                                       [&w](const Field& f) { w.cluster.gpus = f.integer(1, kMaxGpus); }),
                                  leaf("hb_domain", P::Required,
                                       "the HB domain size K, an integer dividing cluster.gpus", "",
                                       [&w](const Field& f) {
                                         const std::string expected =
                                             "the HB domain size K, an integer in 1.." +
                                             std::to_string(w.cluster.gpus) +
                                             " dividing cluster.gpus N = " + std::to_string(w.cluster.gpus);
                                         w.cluster.hb_domain = f.integer(1, w.cluster.gpus, expected);
                                         if (w.cluster.gpus % w.cluster.hb_domain) f.fail(expected);
                                       }),
                                  bandwidth("hb_bandwidth", w.cluster.hb_Bps),
                                  bandwidth("network_bandwidth", w.cluster.net_Bps),
                                  latency("hb_latency", w.cluster.hb_latency_s),
                                  latency("network_latency", w.cluster.net_latency_s),
                                  leaf("gpu_compute", P::Required, "a compute rate > 0 such as '312 TFLOP/s'", "",
                                       [&w](const Field& f) {
                                         w.cluster.gpu_flops = f.compute_rate();
                                         if (!(w.cluster.gpu_flops > 0))
                                           f.fail("a compute rate > 0 such as '312 TFLOP/s'");
                                       }),
                                  leaf("gpu_memory", P::Required, "a data size > 0 such as '80 GiB'", "",
                                       [&w](const Field& f) {
                                         w.cluster.gpu_bytes = f.data_size() / 8;
                                         if (!(w.cluster.gpu_bytes > 0)) f.fail("a data size > 0 such as '80 GiB'");
                                       }),
                              }),
                      leaf("parallelization", P::Optional,
                           "a map: pipeline, tensor, data, micro_batch, interleave, hb_pipeline, hb_tensor, hb_data; "
                           "absent or ~: search",
                           "",
                           [&c](const Field& f) {
                             // `~` (e.g. --set workload.parallelization=~) asks for the search.
                             if (f.node().IsNull()) return;
                             c.strategy = read_strategy(f, c.workload);
                             c.has_strategy = true;
                           }),
                      section("search", P::Defaulted,
                              {leaf("top", P::Defaulted, "an integer in 1..100", "5",
                                    [&c](const Field& f) { c.top = static_cast<unsigned>(f.integer(1, 100)); })}),
                  }),
          section("paper", P::Optional,
                  {
                      leaf("iteration_time", P::Optional, "a time > 0 such as '70.69 s'", "",
                           [&c](const Field& f) {
                             c.paper.has_computed = true;
                             c.paper.computed_s = f.time();
                             if (!(c.paper.computed_s > 0)) f.fail("a time > 0 such as '70.69 s'");
                           }),
                      leaf("measured_iteration_time", P::Optional, "a time > 0 such as '71.49 s'", "",
                           [&c](const Field& f) {
                             c.paper.has_measured = true;
                             c.paper.measured_s = f.time();
                             if (!(c.paper.measured_s > 0)) f.fail("a time > 0 such as '71.49 s'");
                           }),
                  }),
      });
}

WorkloadConfig load(const std::function<void(ConfigReader&)>& parse, const std::string& source,
                    const std::vector<std::string>& overrides) {
  WorkloadConfig c;
  ConfigReader reader(make_schema(c), source);
  reader.read_all(parse, overrides);
  c.source = source;
  reader.default_name(c.name);
  return c;
}

}  // namespace

bool is_workload_config(const std::string& path) {
  const YAML::Node root = peek_yaml_file(path);
  return root.IsMap() && root["workload"];
}

WorkloadConfig load_workload_config(const std::string& path, const std::vector<std::string>& overrides) {
  return load([&path](ConfigReader& r) { r.parse_file(path); }, path, overrides);
}

WorkloadConfig load_workload_config_text(const std::string& yaml_text, const std::string& source_name,
                                         const std::vector<std::string>& overrides) {
  return load([&yaml_text](ConfigReader& r) { r.parse_text(yaml_text); }, source_name, overrides);
}

std::vector<KeyInfo> workload_config_keys() {
  WorkloadConfig c;
  return schema_keys(make_schema(c));
}

}  // namespace hx::llm
