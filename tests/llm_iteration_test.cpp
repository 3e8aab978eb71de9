// llm_iteration_test.cpp: the LLM training iteration model (systemc/analytic/llm_iteration.h)
// against Wang et al., "How to Build Low-cost Networks for Large Language Models", section 5 and
// appendices B, C, E: Table 4's computed iteration times (DGX A100 clusters), hand-derived
// values of Eq. 1, 3-7 and 10, the constraints Eq. 11-19, the search, and the workload config
// (configs/rail/table4_*.yaml) with its errors.
//
// The Table 4 rows are written out here from the paper, independently of the configs; a test
// checks that the configs describe the same workloads.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "config_test_support.h"
#include "llm_iteration.h"
#include "llm_report.h"
#include "llm_workload_config.h"

namespace hx::llm {
namespace {

const std::string kConfigDir = HX_CONFIG_DIR;

// DGX A100 (docs/rail.md cites each figure): NVLink 3 600 GB/s per GPU (as the paper counts
// NVLink 4's 900 GB/s as C_F), one 200 Gb/s HDR NIC per GPU, 312 TFLOP/s dense BF16, 80 GiB.
Cluster dgx_a100(uint64_t gpus) {
  Cluster c;
  c.gpus = gpus;
  c.hb_domain = 8;
  c.hb_Bps = 600e9;
  c.net_Bps = 200e9 / 8;
  c.gpu_flops = 312e12;
  c.gpu_bytes = 80.0 * (1u << 30);
  return c;
}

// Table 4: model, heads, hidden, layers, TP, PP, GPUs, global batch, micro-batch, interleaving,
// measured (Korthikanti et al.) and computed (section 5) iteration times in seconds.
struct Row {
  const char* name;
  uint64_t heads, hidden, layers, t, p, gpus, batch, micro, interleave;
  double measured_s, computed_s;
  const char* config;
};
const std::vector<Row> kTable4 = {
    {"22B", 64, 6144, 48, 8, 1, 8, 4, 4, 1, 1.10, 0.78, "table4_22b.yaml"},
    {"175B", 96, 12288, 96, 8, 8, 64, 64, 1, 3, 13.75, 11.89, "table4_175b.yaml"},
    {"530B", 128, 20480, 105, 8, 35, 280, 280, 1, 3, 37.83, 35.29, "table4_530b_n280.yaml"},
    {"530B", 128, 20480, 105, 8, 35, 2240, 2240, 1, 3, 39.15, 35.56, "table4_530b_n2240.yaml"},
    {"1T", 160, 25600, 128, 8, 64, 512, 512, 1, 1, 71.49, 70.69, "table4_1t.yaml"},
};

Workload workload_of(const Row& r) {
  Workload w;
  w.model = {std::string("GPT-") + r.name, r.hidden, r.layers, r.heads, 2048, 51200};
  w.global_batch = r.batch;
  w.cluster = dgx_a100(r.gpus);
  return w;
}

Strategy strategy_of(const Row& r) {
  Strategy s;
  s.t = r.t;
  s.p = r.p;
  s.d = r.gpus / (r.t * r.p);
  s.t_h = 8;  // the tensor-parallel group fills the DGX
  s.v = r.interleave;
  s.b = r.micro;
  s.m = r.batch / s.d / s.b;
  return s;
}

TEST(LlmIteration, Table4ComputedIterationTimes) {
  for (const Row& r : kTable4) {
    SCOPED_TRACE(std::string(r.name) + " on " + std::to_string(r.gpus));
    const Workload w = workload_of(r);
    const Strategy s = strategy_of(r);
    ASSERT_TRUE(violations(w, s).empty()) << violations(w, s).front().constraint;
    const double dev = iteration_terms(w, s).iteration() / r.computed_s - 1;
    // Within 5% for every row but the 22B one, which lands at +5.6%: with p = 1 and one micro-
    // batch it is one micro-batch's compute plus its tensor-parallel all-gathers, which are 6% of
    // its time, the largest share of any row; the paper's own Figure 8 calls the 22B its least
    // accurate case. docs/rail.md has the breakdown. The bound is not widened beyond that.
    if (r.gpus == 8)
      EXPECT_TRUE(dev > 0 && dev < 0.06) << dev;
    else
      EXPECT_LT(std::fabs(dev), 0.05) << dev;
  }
}

TEST(LlmIteration, DataParallelSyncIsTheOnlyDifferenceOf530BRows) {
  // Table 4's two 530B rows differ only by d = 8 across the network: the paper's computed
  // times differ by 35.56 - 35.29 = 0.27 s. Eq. 7 with d_h = 1, d_l = 8: 2 AGtime(2 l S_T/(p t),
  // 1, 8) = 2 x 7/8 x 2 x 105 x (12 h^2 + 13 h) / 280 / 25e9 B/s = 0.264 s for h = 20480.
  const Workload w280 = workload_of(kTable4[2]), w2240 = workload_of(kTable4[3]);
  const Terms a = iteration_terms(w280, strategy_of(kTable4[2]));
  const Terms b = iteration_terms(w2240, strategy_of(kTable4[3]));
  const double h = 20480, st = 12 * h * h + 13 * h;
  EXPECT_NEAR(b.sync, 2 * 7.0 / 8 * 2 * 105 * st / 280 / 25e9, 1e-9);
  EXPECT_NEAR(b.sync, 0.264, 0.001);
  EXPECT_EQ(a.sync, 0);
  EXPECT_NEAR(b.iteration() - a.iteration(), 35.56 - 35.29, 0.01);
}

TEST(LlmIteration, FlopsFollowKorthikanti) {
  // 72 B s l h^2 (1 + s/3h + V/12hl) for the 1T model, B = 512: 72 x 512 x 2048 x 128 x 25600^2
  // = 6.3331e18; s/3h = 2048/76800 = 0.026667; V/12hl = 51200/39321600 = 0.0013021.
  const Workload w = workload_of(kTable4[4]);
  const double unit = 72.0 * 512 * 2048 * 128 * 25600.0 * 25600.0;
  EXPECT_NEAR(hardware_flops(w) / unit, 1 + 2048.0 / (3 * 25600) + 51200.0 / (12.0 * 25600 * 128), 1e-12);
  EXPECT_NEAR(attention_flops(w) / unit, 1.0 / 3 + 2048.0 / (3 * 25600), 1e-12);
  // Korthikanti et al. report 57.0% HFU at 71.49 s measured: these FLOPs over 512 x 312e12 x
  // 71.49 give the same.
  EXPECT_NEAR(hardware_flops(w) / (512 * 312e12 * 71.49), 0.570, 0.002);
}

TEST(LlmIteration, HandDerivedTermsOf22B) {
  // 22B on one DGX, t = 8, p = d = 1, b = B = 4, m = 1.
  const Row& r = kTable4[0];
  const Workload w = workload_of(r);
  const Terms t = iteration_terms(w, strategy_of(r));
  const double h = 6144, s = 2048, unit = 72.0 * 4 * s * 48 * h * h;
  // Eq. 10: (M_FF + 2.5 M_Attn) b / (F B p t), b = B.
  const double mff = unit * (2.0 / 3 + 51200 / (12 * h * 48)), matt = unit * (1.0 / 3 + s / (3 * h));
  EXPECT_NEAR(t.t_microbatch, (mff + 2.5 * matt) / (312e12 * 8), 1e-12);
  EXPECT_EQ(t.bubble_compute, 0);  // Eq. 3, p = 1
  EXPECT_EQ(t.bubble_comm, 0);     // Eq. 4, p_s = 1, p_f = 1
  EXPECT_EQ(t.ls_pipeline, 0);     // no pipeline
  EXPECT_EQ(t.sync, 0);            // d = 1
  // Eq. 6: 8 l m AGtime(2 b h s, 8, 1) / p = 8 x 48 x 7/8 x 2 x 4 x 6144 x 2048 / 600e9.
  EXPECT_NEAR(t.ls_tensor, 8 * 48 * 7.0 / 8 * 2 * 4 * h * s / 600e9, 1e-12);
}

TEST(LlmIteration, AllGatherTimeIsEq1) {
  Cluster c = dgx_a100(64);
  // (y-1) D / (x y C_S) + (x-1) D / (x C_F): D = 8e9, x = 8, y = 4: 3e9/32... spelled out.
  EXPECT_NEAR(ag_time(8e9, 8, 4, c), 3 * 8e9 / (32 * 25e9) + 7 * 8e9 / (8 * 600e9), 1e-12);
  EXPECT_EQ(ag_time(8e9, 1, 1, c), 0);
  c.hb_latency_s = 1e-6;
  c.net_latency_s = 5e-6;
  EXPECT_NEAR(ag_time(0, 8, 4, c), 7e-6 + 15e-6, 1e-15);  // one latency per ring step
}

TEST(LlmIteration, MemoryOf1TFitsAnA100) {
  // First stage of 1T, t = 8, p = 64, b = 1, m = 512 >= p: states 16 B x (2 blocks x (12 h^2 +
  // 13 h) / 8 + V h / 8 + s h); activations 34 s b h / t x l = 34 x 2048 x 25600 x 128 / 8.
  const Workload w = workload_of(kTable4[4]);
  const Memory m = memory_of(w, strategy_of(kTable4[4]));
  const double h = 25600;
  EXPECT_NEAR(m.states, 16 * (2 * (12 * h * h + 13 * h) / 8 + 51200 * h / 8 + 2048 * h), 1);
  EXPECT_NEAR(m.activations, 34.0 * 2048 * h / 8 * 128, 1);
  EXPECT_LT(m.total(), w.cluster.gpu_bytes);
}

TEST(LlmIteration, ViolationsNameTheirEquation) {
  const Workload w = workload_of(kTable4[4]);
  const auto first = [&w](Strategy s) {
    const auto v = violations(w, s);
    return v.empty() ? std::string("none") : v.front().constraint;
  };
  Strategy s = strategy_of(kTable4[4]);
  EXPECT_EQ(first(s), "none");
  Strategy x = s;
  x.p = 32;  // p d t = 256
  EXPECT_EQ(first(x), "Eq. 11");
  x = s;
  x.t_h = 4;  // d_h t_h p_h = 4
  EXPECT_EQ(first(x), "Eq. 12");
  x = s;
  x.m = 256;  // m b = 256, not B/d = 512
  EXPECT_EQ(first(x), "Eq. 13");
  x = s;
  x.v = 3;  // l/(p v) = 128/192
  EXPECT_EQ(first(x), "Eq. 18");
  x = s;
  x.b = 8;
  x.m = 64;  // 8 in-flight... 64 >= p: activations x 8
  EXPECT_EQ(first(x), "Eq. 19");
}

TEST(LlmIteration, SearchFindsAtLeastThePapersStrategy) {
  for (const Row& r : {kTable4[0], kTable4[1]}) {
    SCOPED_TRACE(r.name);
    const Workload w = workload_of(r);
    const SearchResult res = search(w, 5);
    ASSERT_FALSE(res.top.empty());
    EXPECT_GT(res.valid, 0u);
    EXPECT_EQ(res.valid + res.over_memory, res.candidates);
    EXPECT_LE(res.top.front().terms.iteration(), iteration_terms(w, strategy_of(r)).iteration() + 1e-12);
    for (size_t i = 1; i < res.top.size(); ++i)
      EXPECT_LE(res.top[i - 1].terms.iteration(), res.top[i].terms.iteration());
    for (const Evaluation& e : res.top) EXPECT_TRUE(violations(w, e.strategy).empty());
  }
}

TEST(LlmIteration, LargerHbDomainsNeverSlower) {
  // Section 6.2: the optimum can only improve as K grows (a bigger HB domain can hold any mapping
  // of a smaller one with the surplus as HB data parallelism -- here checked, not assumed).
  Workload w = workload_of(kTable4[1]);
  double last = 1e30;
  for (const uint64_t k : {1u, 2u, 4u, 8u, 16u, 32u, 64u}) {
    w.cluster.hb_domain = k;
    const double t = search(w, 1).top.front().terms.iteration();
    EXPECT_LE(t, last * (1 + 1e-9)) << "K " << k;
    last = t;
  }
}

TEST(LlmWorkloadConfig, ShippedConfigsDescribeTable4) {
  for (const Row& r : kTable4) {
    SCOPED_TRACE(r.config);
    const WorkloadConfig c = load_workload_config(kConfigDir + "/rail/" + r.config);
    ASSERT_TRUE(c.has_strategy);
    const Workload w = workload_of(r);
    EXPECT_EQ(c.workload.model.hidden, w.model.hidden);
    EXPECT_EQ(c.workload.model.layers, w.model.layers);
    EXPECT_EQ(c.workload.model.heads, w.model.heads);
    EXPECT_EQ(c.workload.global_batch, w.global_batch);
    EXPECT_EQ(c.workload.cluster.gpus, w.cluster.gpus);
    EXPECT_DOUBLE_EQ(c.workload.cluster.hb_Bps, w.cluster.hb_Bps);
    EXPECT_DOUBLE_EQ(c.workload.cluster.net_Bps, w.cluster.net_Bps);
    EXPECT_DOUBLE_EQ(c.workload.cluster.gpu_flops, w.cluster.gpu_flops);
    EXPECT_DOUBLE_EQ(c.workload.cluster.gpu_bytes, w.cluster.gpu_bytes);
    const Strategy s = strategy_of(r);
    EXPECT_EQ(c.strategy.p, s.p);
    EXPECT_EQ(c.strategy.t, s.t);
    EXPECT_EQ(c.strategy.d, s.d);
    EXPECT_EQ(c.strategy.m, s.m);
    EXPECT_EQ(c.strategy.v, s.v);
    EXPECT_DOUBLE_EQ(c.paper.computed_s, r.computed_s);
    EXPECT_DOUBLE_EQ(c.paper.measured_s, r.measured_s);
    const auto j = workload_results(c);
    EXPECT_EQ(j["iteration"]["mode"], "given");
    EXPECT_NEAR(j["paper"]["deviation"].get<double>(), iteration_terms(w, s).iteration() / r.computed_s - 1, 1e-12);
  }
}

// The smallest valid workload: lines 1-16; a test appends the parallelization from line 17.
const std::string kBase =
    "workload:\n"
    "  model:\n"
    "    hidden: 6144\n"
    "    layers: 48\n"
    "    heads: 64\n"
    "    sequence: 2048\n"
    "    vocabulary: 51200\n"
    "  global_batch: 4\n"
    "  cluster:\n"
    "    gpus: 8\n"
    "    hb_domain: 8\n"
    "    hb_bandwidth: 4800 Gb/s\n"
    "    network_bandwidth: 200 Gb/s\n"
    "    gpu_compute: 312 TFLOP/s\n"
    "    gpu_memory: 80 GiB\n"
    "  search: {top: 3}\n";

TEST(LlmWorkloadConfig, HandGivenStrategyBreakingAConstraintNamesIt) {
  const auto load = [](const std::string& y) { return load_workload_config_text(y, "t.yaml"); };
  const std::string yaml = kBase +
                           "  parallelization: {tensor: 8, pipeline: 1, data: 1, micro_batch: 4, hb_tensor: 4, "
                           "hb_pipeline: 1, hb_data: 1}\n";
  const ConfigError e = test::config_error_of([&] { load(yaml); }, yaml);
  EXPECT_EQ(e.line(), 17);
  EXPECT_EQ(e.key_path(), "workload.parallelization");
  EXPECT_EQ(e.expected(), "a parallelization that satisfies Eq. 12 (Wang et al., appendix C)");
  EXPECT_EQ(e.found(), "d_h t_h p_h = 1 x 4 x 1 = 4, not K = 8");
  // The same with t_h = 8 is valid (Table 4's 22B row); with t = 4, d = 2 it breaks the memory.
  const std::string ok = kBase +
                         "  parallelization: {tensor: 8, pipeline: 1, data: 1, micro_batch: 4, hb_tensor: 8, "
                         "hb_pipeline: 1, hb_data: 1}\n";
  EXPECT_TRUE(load(ok).has_strategy);
  const std::string big = kBase +
                          "  parallelization: {tensor: 4, pipeline: 1, data: 2, micro_batch: 2, hb_tensor: 4, "
                          "hb_pipeline: 1, hb_data: 2}\n";
  EXPECT_EQ(test::config_error_of([&] { load(big); }, big).expected(),
            "a parallelization that satisfies Eq. 19 (Wang et al., appendix C)");
}

TEST(LlmWorkloadConfig, BadClusterAndUnits) {
  const auto load = [](const std::string& y) { return load_workload_config_text(y, "t.yaml"); };
  std::string yaml = kBase;
  yaml.replace(yaml.find("hb_domain: 8"), 12, "hb_domain: 3");
  EXPECT_CONFIG_ERROR(test::config_error_of([&] { load(yaml); }, yaml), 11, 16, "workload.cluster.hb_domain",
                      "the HB domain size K, an integer in 1..8 dividing cluster.gpus N = 8", "'3'");
  yaml = kBase;
  yaml.replace(yaml.find("312 TFLOP/s"), 11, "312");
  EXPECT_EQ(test::config_error_of([&] { load(yaml); }, yaml).key_path(), "workload.cluster.gpu_compute");
}

TEST(LlmWorkloadConfig, SearchWithNoValidStrategyThrows) {
  const WorkloadConfig c = load_workload_config_text(kBase, "t.yaml", {"workload.cluster.gpu_memory=1 GiB"});
  EXPECT_THROW(workload_results(c), NoValidStrategy);
  const auto j = workload_results(load_workload_config_text(kBase, "t.yaml"));
  EXPECT_EQ(j["iteration"]["mode"], "search");
  EXPECT_EQ(j["iteration"]["top"].size(), 3u);
}

}  // namespace
}  // namespace hx::llm
