#include "llm_iteration.h"

#include <algorithm>
#include <cstdio>
#include <tuple>

namespace hx::llm {

namespace {

std::string str(uint64_t v) { return std::to_string(v); }

std::string gib(double bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f", bytes / (1024.0 * 1024 * 1024));
  return buf;
}

std::vector<uint64_t> divisors(uint64_t n) {
  std::vector<uint64_t> small, large;
  for (uint64_t i = 1; i * i <= n; ++i) {
    if (n % i) continue;
    small.push_back(i);
    if (i != n / i) large.push_back(n / i);
  }
  small.insert(small.end(), large.rbegin(), large.rend());
  return small;
}

// The order of the search's results: time, then the strategy's numbers, so that equal times
// (symmetric mappings) come out the same way every run.
auto key_of(const Evaluation& e) {
  const Strategy& s = e.strategy;
  return std::make_tuple(e.terms.iteration(), s.p, s.t, s.d, s.v, s.b, s.p_h, s.t_h, s.d_h);
}

}  // namespace

double Transformer::block_parameters() const { return 12.0 * hidden * hidden + 13.0 * hidden; }

double Transformer::parameters() const {
  return double(layers) * block_parameters() + double(vocabulary + sequence) * hidden;
}

double ag_time(double bytes, uint64_t x, uint64_t y, const Cluster& c) {
  const double xs = double(x), ys = double(y);
  return (ys - 1) * bytes / (xs * ys * c.net_Bps) + (xs - 1) * bytes / (xs * c.hb_Bps) + (ys - 1) * c.net_latency_s +
         (xs - 1) * c.hb_latency_s;
}

// 72 B s l h^2, the unit of Korthikanti et al.'s FLOP counts.
static double flop_unit(const Workload& w) {
  const Transformer& m = w.model;
  return 72.0 * double(w.global_batch) * double(m.sequence) * double(m.layers) * double(m.hidden) * double(m.hidden);
}

double attention_flops(const Workload& w) {
  const Transformer& m = w.model;
  return flop_unit(w) * (1.0 / 3.0 + double(m.sequence) / (3.0 * double(m.hidden)));
}

double feed_forward_flops(const Workload& w) {
  const Transformer& m = w.model;
  return flop_unit(w) * (2.0 / 3.0 + double(m.vocabulary) / (12.0 * double(m.hidden) * double(m.layers)));
}

double hardware_flops(const Workload& w) { return attention_flops(w) + feed_forward_flops(w); }

Memory memory_of(const Workload& w, const Strategy& s) {
  const Transformer& m = w.model;
  const double h = double(m.hidden), t = double(s.t), p = double(s.p);
  Memory mem;
  // The first stage holds l/p blocks and the embeddings (word embeddings split over t).
  const double params =
      double(m.layers) / p * m.block_parameters() / t + double(m.vocabulary) * h / t + double(m.sequence) * h;
  mem.states = w.state_bytes_per_parameter * params;
  // 34 s b h / t bytes per layer and micro-batch; the first stage keeps min(p, m) micro-batches
  // of its l/p layers (l layers' worth when m >= p), times 1 + (p-1)/(p v) when interleaved.
  const double in_flight = double(std::min(s.p, s.m));
  double act = 34.0 * double(m.sequence) * double(s.b) * h / t * (double(m.layers) / p) * in_flight;
  if (s.v > 1) act *= 1.0 + (p - 1) / (p * double(s.v));
  mem.activations = act;
  return mem;
}

std::vector<Violation> violations(const Workload& w, const Strategy& s) {
  std::vector<Violation> out;
  const Cluster& c = w.cluster;
  const Transformer& m = w.model;
  const auto fail = [&out](const char* eq, std::string text) { out.push_back({eq, std::move(text)}); };
  for (const uint64_t v : {s.p, s.t, s.d, s.p_h, s.t_h, s.d_h, s.v, s.m, s.b})
    if (v < 1) {
      fail("Eq. 17", "p, t, d, their HB parts, v, m and b must be positive integers");
      return out;
    }
  if (s.p * s.d * s.t != c.gpus)
    fail("Eq. 11", "p d t = " + str(s.p) + " x " + str(s.d) + " x " + str(s.t) + " = " + str(s.p * s.d * s.t) +
                       ", not N = " + str(c.gpus));
  if (s.d_h * s.t_h * s.p_h != c.hb_domain)
    fail("Eq. 12", "d_h t_h p_h = " + str(s.d_h) + " x " + str(s.t_h) + " x " + str(s.p_h) + " = " +
                       str(s.d_h * s.t_h * s.p_h) + ", not K = " + str(c.hb_domain));
  if (w.global_batch % s.d)
    fail("Eq. 18", "B/d = " + str(w.global_batch) + "/" + str(s.d) + " is not an integer");
  else if (s.m * s.b != w.global_batch / s.d)
    fail("Eq. 13",
         "m b = " + str(s.m) + " x " + str(s.b) + " = " + str(s.m * s.b) + ", not B/d = " + str(w.global_batch / s.d));
  if (s.d % s.d_h) fail("Eq. 14", "d_h = " + str(s.d_h) + " does not divide d = " + str(s.d) + " (d_l d_h = d)");
  if (s.t % s.t_h) fail("Eq. 15", "t_h = " + str(s.t_h) + " does not divide t = " + str(s.t) + " (t_l t_h = t)");
  if (s.p % s.p_h) fail("Eq. 16", "p_h = " + str(s.p_h) + " does not divide p = " + str(s.p) + " (p_l p_h = p)");
  if (m.layers % (s.p * s.v))
    fail("Eq. 18", "l/(p v) = " + str(m.layers) + "/(" + str(s.p) + " x " + str(s.v) + ") is not an integer");
  if (m.sequence % s.t) fail("Eq. 18", "s/t = " + str(m.sequence) + "/" + str(s.t) + " is not an integer");
  if (m.hidden % s.t) fail("Eq. 18", "h/t = " + str(m.hidden) + "/" + str(s.t) + " is not an integer");
  if (s.v > 1 && s.p == 1) fail("Eq. 18", "interleaving v = " + str(s.v) + " > 1 needs pipeline stages (p > 1)");
  if (out.empty()) {
    const Memory mem = memory_of(w, s);
    if (mem.total() > c.gpu_bytes)
      fail("Eq. 19", "memory " + gib(mem.total()) + " GiB (model states " + gib(mem.states) + " + activations " +
                         gib(mem.activations) + ") exceeds R = " + gib(c.gpu_bytes) + " GiB");
  }
  return out;
}

Terms iteration_terms(const Workload& w, const Strategy& s) {
  const Cluster& c = w.cluster;
  const Transformer& m = w.model;
  const double h = double(m.hidden), seq = double(m.sequence), b = double(s.b);
  const double p = double(s.p), t = double(s.t), v = double(s.v), mb = double(s.m);
  Terms r;
  // Eq. 10: this GPU's share of one micro-batch's forward and backward FLOPs.
  r.t_microbatch = (feed_forward_flops(w) + w.attention_slowdown * attention_flops(w)) * b /
                   (c.gpu_flops * double(w.global_batch) * p * t);
  r.bubble_compute = (p - 1) * r.t_microbatch / v;  // Eq. 3
  // Eq. 4: 2 b h s / t bytes between adjacent stages, 2(p_s - 1) times across the network and
  // 2 p_s (p_f - 1) times inside HB domains (p_s = p_l, p_f = p_h), one step latency each.
  const double d_p = 2 * b * h * seq / t;
  const double ps = double(s.p_l()), pf = double(s.p_h);
  r.bubble_comm =
      2 * (ps - 1) * (d_p / c.net_Bps + c.net_latency_s) + 2 * ps * (pf - 1) * (d_p / c.hb_Bps + c.hb_latency_s);
  r.ls_compute = mb * r.t_microbatch;  // Eq. 5
  // Eq. 6: four all-gathers and four reduce-scatters of 2 b h s bytes per block and micro-batch,
  // l/p blocks; and the pipeline transfers of the last stage (none without a pipeline).
  r.ls_tensor = 8 * double(m.layers) * mb * ag_time(2 * b * h * seq, s.t_h, s.t_l(), c) / p;
  if (s.p > 1) {
    const bool network = s.p_l() > 1;
    r.ls_pipeline =
        2 * mb * v * (d_p / (network ? c.net_Bps : c.hb_Bps) + (network ? c.net_latency_s : c.hb_latency_s));
  }
  // Eq. 7: the all-reduce (twice an all-gather) of the stage's 2 l S_T / (p t) bytes of gradients.
  r.sync = 2 * ag_time(2 * double(m.layers) * m.block_parameters() / (p * t), s.d_h, s.d_l(), c);
  return r;
}

Evaluation evaluate(const Workload& w, const Strategy& s) {
  Evaluation e;
  e.strategy = s;
  e.terms = iteration_terms(w, s);
  e.memory = memory_of(w, s);
  e.hfu = hardware_flops(w) / (double(w.cluster.gpus) * w.cluster.gpu_flops * e.terms.iteration());
  return e;
}

SearchResult search(const Workload& w, unsigned keep) {
  SearchResult r;
  const Cluster& c = w.cluster;
  const Transformer& m = w.model;
  const auto better = [](const Evaluation& a, const Evaluation& b) { return key_of(a) < key_of(b); };
  // Eq. 11-18 hold by construction; Eq. 19 (memory) is checked per candidate.
  for (const uint64_t t : divisors(c.gpus)) {
    if (m.sequence % t || m.hidden % t) continue;
    for (const uint64_t p : divisors(c.gpus / t)) {
      const uint64_t d = c.gpus / (t * p);
      if (m.layers % p || w.global_batch % d) continue;
      for (const uint64_t v : divisors(m.layers / p)) {
        if (v > 1 && p == 1) continue;
        for (const uint64_t b : divisors(w.global_batch / d)) {
          Strategy s;
          s.p = p;
          s.t = t;
          s.d = d;
          s.v = v;
          s.b = b;
          s.m = w.global_batch / d / b;
          // The mapping: every split of K over divisors of t, p and d (Eq. 12, 14-16).
          for (const uint64_t t_h : divisors(t)) {
            if (c.hb_domain % t_h) continue;
            for (const uint64_t p_h : divisors(p)) {
              if ((c.hb_domain / t_h) % p_h) continue;
              const uint64_t d_h = c.hb_domain / (t_h * p_h);
              if (d % d_h) continue;
              s.t_h = t_h;
              s.p_h = p_h;
              s.d_h = d_h;
              ++r.candidates;
              if (memory_of(w, s).total() > c.gpu_bytes) {
                ++r.over_memory;
                continue;
              }
              ++r.valid;
              const Evaluation e = evaluate(w, s);
              if (r.top.size() < keep || better(e, r.top.back())) {
                r.top.insert(std::upper_bound(r.top.begin(), r.top.end(), e, better), e);
                if (r.top.size() > keep) r.top.pop_back();
              }
            }
          }
        }
      }
    }
  }
  return r;
}

}  // namespace hx::llm
