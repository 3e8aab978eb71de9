// llm_iteration.h: the training iteration time of a dense transformer (GPT) under PTD-P
// parallelism on a cluster of HB domains joined by a network, after Wang et al., "How to Build
// Low-cost Networks for Large Language Models (without Sacrificing Performance)?", section 5 and
// appendices B and C (docs/rail.md states every formula and what was inferred).
//
// The model is the paper's critical path of a 1F1B (optionally interleaved) pipeline:
//   T_iter = T_bubble + T_LS + T_sync                                   (Eq. 2)
// with the bubble's compute and pipeline communication (Eq. 3, 4), the last stage's m
// micro-batches with their tensor-parallel all-gathers / reduce-scatters and pipeline transfers
// (Eq. 5, 6), and the data-parallel all-reduce after the flush (Eq. 7), every collective timed by
// the hierarchical all-gather AGtime of Eq. 1 (rail first, then inside the HB domain), which is
// the same on a rail-optimized and a rail-only network. A micro-batch's compute time comes from
// the FLOPs of Korthikanti et al. (2022) with selective activation recomputation and a slowdown
// gamma of the attention blocks (Eq. 10). A strategy is valid when it satisfies Eq. 11-19, the
// memory of Korthikanti et al. included; search() enumerates every valid one.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace hx::llm {

/// A GPT-style transformer (Table 4's columns).
struct Transformer {
  std::string name;
  uint64_t hidden = 0;      // h
  uint64_t layers = 0;      // l
  uint64_t heads = 0;       // attention heads (reported; the FLOPs do not depend on them)
  uint64_t sequence = 0;    // s
  uint64_t vocabulary = 0;  // V

  /// Parameters of one transformer block: 12 h^2 + 13 h (Narayanan et al. 2021, Eq. 2).
  double block_parameters() const;
  /// All parameters: l blocks plus the embeddings (V + s) h.
  double parameters() const;
};

/// The cluster: N GPUs in HB domains of K, each GPU with HB bandwidth C_F and network
/// bandwidth C_S (bytes per second, as the paper counts them: C_F is a GPU's total NVLink
/// bandwidth, "900 GB/s or 7.2 Tbps" for NVLink 4; C_S its NIC's line rate), a latency per
/// collective step in each domain, peak compute F and memory R.
struct Cluster {
  uint64_t gpus = 0;       // N
  uint64_t hb_domain = 0;  // K
  double hb_Bps = 0;       // C_F
  double net_Bps = 0;      // C_S
  double hb_latency_s = 0;
  double net_latency_s = 0;
  double gpu_flops = 0;  // F, FLOP/s
  double gpu_bytes = 0;  // R
};

struct Workload {
  Transformer model;
  uint64_t global_batch = 0;  // B, sequences
  Cluster cluster;
  double attention_slowdown = 2.5;        // gamma = 1 / 0.4 (appendix B)
  double state_bytes_per_parameter = 16;  // fp16 weight and gradient, fp32 master weight and Adam moments
};

/// A parallelization (Table 1): p, t, d and their HB (h) / network (l) parts, interleaving v,
/// m micro-batches of b sequences.
struct Strategy {
  uint64_t p = 1, t = 1, d = 1;
  uint64_t p_h = 1, t_h = 1, d_h = 1;
  uint64_t v = 1, m = 1, b = 1;

  uint64_t p_l() const { return p / p_h; }
  uint64_t t_l() const { return t / t_h; }
  uint64_t d_l() const { return d / d_h; }
};

/// A violated constraint: which one ("Eq. 12") and what it says with the numbers.
struct Violation {
  std::string constraint;
  std::string text;
};

/// Memory of one GPU of the first pipeline stage (the fullest), in bytes.
struct Memory {
  double states = 0;       // weights, gradients, optimizer state of its parameters
  double activations = 0;  // activations kept for the backward pass
  double total() const { return states + activations; }
};

/// The terms of Eq. 2 for one strategy, in seconds.
struct Terms {
  double t_microbatch = 0;    // t(b), Eq. 10
  double bubble_compute = 0;  // Eq. 3
  double bubble_comm = 0;     // Eq. 4
  double ls_compute = 0;      // Eq. 5
  double ls_tensor = 0;       // Eq. 6, first term: tensor-parallel all-gathers and reduce-scatters
  double ls_pipeline = 0;     // Eq. 6, second term
  double sync = 0;            // Eq. 7
  double bubble() const { return bubble_compute + bubble_comm; }
  double last_stage() const { return ls_compute + ls_tensor + ls_pipeline; }
  double iteration() const { return bubble() + last_stage() + sync; }
};

struct Evaluation {
  Strategy strategy;
  Terms terms;
  Memory memory;
  double hfu = 0;  // hardware FLOPs of the iteration over N F T_iter
};

/// Eq. 1: the hierarchical all-gather of D bytes on x GPUs per HB domain by y domains, plus a
/// latency per ring step of each phase.
double ag_time(double bytes, uint64_t x, uint64_t y, const Cluster& c);

/// FLOPs of one iteration (B sequences), split as Eq. 10 needs them (Korthikanti et al. 2022,
/// Eq. 8, selective recomputation: 72 B s l h^2 (1 + s/3h + V/12hl) in all):
/// the attention blocks (QKV and output projections, scores and their recomputation),
/// 72 B s l h^2 (1/3 + s/3h), and the rest (MLP and logits), 72 B s l h^2 (2/3 + V/12hl).
double attention_flops(const Workload& w);
double feed_forward_flops(const Workload& w);
double hardware_flops(const Workload& w);  // their sum

/// Korthikanti et al.'s memory of a first-stage GPU (sequence parallelism and selective
/// recomputation: 34 s b h / t bytes of activations per layer and micro-batch in flight).
Memory memory_of(const Workload& w, const Strategy& s);

/// Every constraint of Eq. 11-19 that `s` violates (empty: valid). Two more rules the paper's
/// text implies are checked as well: v > 1 needs p > 1, and m b d = B exactly.
std::vector<Violation> violations(const Workload& w, const Strategy& s);

/// The terms of Eq. 2 for a valid strategy.
Terms iteration_terms(const Workload& w, const Strategy& s);

Evaluation evaluate(const Workload& w, const Strategy& s);

struct SearchResult {
  uint64_t candidates = 0;      // (p, t, d, v, m, b, mapping) tuples that satisfy Eq. 11-18
  uint64_t valid = 0;           // of which also fit the memory (Eq. 19)
  uint64_t over_memory = 0;     // of which do not
  std::vector<Evaluation> top;  // fastest first
};

/// Appendix C: every valid (p, t, d, v, m, b, mapping), keeping the `keep` fastest (ties broken
/// by p, t, d, v, b, then the mapping, so the order is deterministic).
SearchResult search(const Workload& w, unsigned keep);

}  // namespace hx::llm
