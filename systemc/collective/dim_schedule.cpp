#include "dim_schedule.h"

#include <algorithm>
#include <limits>
#include <numeric>
#include <stdexcept>

namespace hx {

std::string dim_kind_name(DimKind k) {
  switch (k) {
    case DimKind::Ring: return "ring";
    case DimKind::FullyConnected: return "fully_connected";
    case DimKind::Switch: return "switch";
  }
  return "?";
}

std::string chunk_scheduler_name(ChunkScheduler s) { return s == ChunkScheduler::Baseline ? "baseline" : "themis"; }
std::string intra_dim_order_name(IntraDimOrder o) { return o == IntraDimOrder::Fifo ? "fifo" : "scf"; }
std::string themis_threshold_name(ThemisThreshold t) { return t == ThemisThreshold::Chunk ? "chunk" : "chunk_per_npu"; }

std::string dim_algorithm_name(DimKind k) {
  switch (k) {
    case DimKind::Ring: return "ring";
    case DimKind::FullyConnected: return "direct";
    case DimKind::Switch: return "halving_doubling";
  }
  return "?";
}

double platform_bytes_per_s(const std::vector<Dimension>& dims) {
  double sum = 0;
  for (const Dimension& d : dims) sum += d.bytes_per_s();
  return sum;
}

double bandwidth_utilization(const std::vector<Dimension>& dims, const std::vector<double>& busy) {
  double weighted = 0;
  for (std::size_t k = 0; k < dims.size() && k < busy.size(); ++k) weighted += busy[k] * dims[k].bytes_per_s();
  const double total = platform_bytes_per_s(dims);
  return total > 0 ? weighted / total : 0;
}

unsigned stage_steps(const Dimension& d) {
  switch (d.kind) {
    case DimKind::Ring: return d.size - 1;
    case DimKind::FullyConnected: return 1;
    case DimKind::Switch: {
      unsigned steps = 0;
      for (unsigned p = 1; p < d.size; p *= 2) ++steps;
      return steps;
    }
  }
  return 0;
}

double stage_bytes_sent(const Dimension& d, StageKind op, double bytes_in) {
  const double p = d.size;
  return op == StageKind::ReduceScatter ? bytes_in * (p - 1) / p : bytes_in * (p - 1);
}

double stage_bytes_out(const Dimension& d, StageKind op, double bytes_in) {
  return op == StageKind::ReduceScatter ? bytes_in / d.size : bytes_in * d.size;
}

double stage_transfer_s(const Dimension& d, StageKind op, double bytes_in) {
  return stage_bytes_sent(d, op, bytes_in) / d.bytes_per_s();
}

double stage_fixed_s(const Dimension& d) { return stage_steps(d) * d.latency_s; }

unsigned ScheduleRequest::npus() const {
  unsigned n = 1;
  for (const Dimension& d : dims) n *= d.size;
  return n;
}

namespace {

// The chunk's stages over `order` of RS (or AG) starting with `bytes` per NPU; returns the bytes
// per NPU after them.
double add_stages(std::vector<ChunkStage>& stages, const ScheduleRequest& r, const std::vector<unsigned>& order,
                  StageKind op, double bytes) {
  for (unsigned d : order) {
    stages.push_back({d, op, bytes});
    bytes = stage_bytes_out(r.dims[d], op, bytes);
  }
  return bytes;
}

}  // namespace

ChunkSchedule schedule_chunks(const ScheduleRequest& r) {
  if (r.dims.empty()) throw std::invalid_argument("a hierarchical collective needs at least one dimension");
  if (r.chunks == 0) throw std::invalid_argument("a collective has at least one chunk");
  if (r.op != CollectiveOp::AllReduce && r.op != CollectiveOp::ReduceScatter && r.op != CollectiveOp::AllGather)
    throw std::invalid_argument("hierarchical collectives are allreduce, reduce_scatter and all_gather, not " +
                                collective_op_name(r.op));
  const unsigned D = static_cast<unsigned>(r.dims.size());
  const bool gather_only = r.op == CollectiveOp::AllGather;
  const double chunk = r.message_bytes / r.chunks;
  // What a chunk holds per NPU when its first stage starts: an all-gather's starts at 1/N.
  const double first_bytes = gather_only ? chunk / r.npus() : chunk;
  const StageKind first_op = gather_only ? StageKind::AllGather : StageKind::ReduceScatter;

  std::vector<unsigned> ascending(D);
  std::iota(ascending.begin(), ascending.end(), 0u);
  const std::vector<unsigned> descending(ascending.rbegin(), ascending.rend());
  // The baseline's first half: RS dim1 .. dimD; an all-gather alone runs the second half, dimD .. dim1.
  const std::vector<unsigned>& baseline_first = gather_only ? descending : ascending;

  // Dim Load Tracker (Algorithm 1, line 2; section 4.4): each dimension's fixed delay for the
  // collective, its stage's steps once per RS or AG the collective runs on it.
  std::vector<double> load(D);
  const unsigned stages_per_dim = r.op == CollectiveOp::AllReduce ? 2 : 1;
  for (unsigned d = 0; d < D; ++d) load[d] = stages_per_dim * stage_fixed_s(r.dims[d]);

  ChunkSchedule s;
  s.chunks.resize(r.chunks);
  for (unsigned c = 0; c < r.chunks; ++c) {
    std::vector<unsigned> order = baseline_first;
    if (r.scheduler == ChunkScheduler::Themis) {
      const auto [lo, hi] = std::minmax_element(load.begin(), load.end());
      const unsigned least = static_cast<unsigned>(lo - load.begin());
      const double threshold_bytes = r.threshold == ThemisThreshold::Chunk ? first_bytes : first_bytes / r.npus();
      const double threshold = stage_transfer_s(r.dims[least], first_op, threshold_bytes);
      if (*hi - *lo < threshold) {
        ++s.fallbacks;
      } else {
        // Least loaded first for RS, most loaded first for an all-gather alone; ties keep the
        // dimensions' order, so every NPU computes the same schedule (section 4.6.1).
        std::stable_sort(order.begin(), order.end(),
                         [&](unsigned a, unsigned b) { return gather_only ? load[a] > load[b] : load[a] < load[b]; });
      }
    }
    std::vector<ChunkStage>& stages = s.chunks[c];
    const double left = add_stages(stages, r, order, first_op, first_bytes);
    if (r.op == CollectiveOp::AllReduce)
      add_stages(stages, r, {order.rbegin(), order.rend()}, StageKind::AllGather, left);
    for (const ChunkStage& st : stages) load[st.dim] += stage_transfer_s(r.dims[st.dim], st.op, st.bytes_in);
  }
  return s;
}

ScheduleTimeline simulate_schedule(const ScheduleRequest& r, const ChunkSchedule& s) {
  const unsigned D = static_cast<unsigned>(r.dims.size());
  const unsigned C = static_cast<unsigned>(s.chunks.size());
  ScheduleTimeline tl;
  tl.dim_busy_s.assign(D, 0);
  tl.dim_bytes.assign(D, 0);
  tl.by_dim.resize(D);

  struct Waiting {
    unsigned chunk;
    double ready_s;
  };
  std::vector<std::vector<Waiting>> queue(D);  // per dimension: stages ready or becoming ready
  std::vector<unsigned> next_stage(C, 0);
  std::vector<double> bandwidth_free(D, 0);
  for (unsigned c = 0; c < C; ++c)
    if (!s.chunks[c].empty()) queue[s.chunks[c][0].dim].push_back({c, 0});

  const auto bytes_of = [&](const Waiting& w) {
    const ChunkStage& st = s.chunks[w.chunk][next_stage[w.chunk]];
    return stage_bytes_sent(r.dims[st.dim], st.op, st.bytes_in);
  };
  // The stage a dimension serves next among those ready by `now`: FIFO by ready time (then
  // chunk), or SCF by the bytes it sends (then FIFO).
  const auto pick = [&](unsigned d, double now) -> int {
    int best = -1;
    for (std::size_t i = 0; i < queue[d].size(); ++i) {
      const Waiting& w = queue[d][i];
      if (w.ready_s > now) continue;
      if (best < 0) {
        best = static_cast<int>(i);
        continue;
      }
      const Waiting& b = queue[d][static_cast<std::size_t>(best)];
      const auto fifo_before = [](const Waiting& x, const Waiting& y) {
        return x.ready_s < y.ready_s || (x.ready_s == y.ready_s && x.chunk < y.chunk);
      };
      bool better = fifo_before(w, b);
      if (r.intra == IntraDimOrder::SmallestFirst) {
        const double bw = bytes_of(w), bb = bytes_of(b);
        better = bw < bb || (bw == bb && better);
      }
      if (better) best = static_cast<int>(i);
    }
    return best;
  };

  unsigned remaining = 0;
  for (const auto& c : s.chunks) remaining += static_cast<unsigned>(c.size());
  while (remaining > 0) {
    // The next moment a dimension can start a stage: its bandwidth free and a stage ready.
    double now = std::numeric_limits<double>::infinity();
    unsigned dim = 0;
    for (unsigned d = 0; d < D; ++d) {
      for (const Waiting& w : queue[d]) {
        const double t = std::max(bandwidth_free[d], w.ready_s);
        if (t < now || (t == now && d < dim)) now = t, dim = d;
      }
    }
    const int i = pick(dim, now);
    const Waiting w = queue[dim][static_cast<std::size_t>(i)];
    queue[dim].erase(queue[dim].begin() + i);
    const ChunkStage& st = s.chunks[w.chunk][next_stage[w.chunk]];
    const Dimension& d = r.dims[dim];
    StageRun run;
    run.chunk = w.chunk;
    run.stage = next_stage[w.chunk];
    run.start_s = now;
    run.sent_s = now + stage_transfer_s(d, st.op, st.bytes_in);
    run.end_s = run.sent_s + stage_fixed_s(d);
    bandwidth_free[dim] = run.sent_s;
    tl.dim_busy_s[dim] += run.sent_s - run.start_s;
    tl.dim_bytes[dim] += stage_bytes_sent(d, st.op, st.bytes_in);
    tl.by_dim[dim].push_back(run);
    tl.time_s = std::max(tl.time_s, run.end_s);
    --remaining;
    if (++next_stage[w.chunk] < s.chunks[w.chunk].size())
      queue[s.chunks[w.chunk][next_stage[w.chunk]].dim].push_back({w.chunk, run.end_s});
  }
  return tl;
}

CollectivePlan hierarchical_plan(const ScheduleRequest& r, const ChunkSchedule& s, const ScheduleTimeline& order,
                                 uint64_t elements) {
  // Rings of more than two NPUs are run both ways round (a ring of two has one neighbour both
  // ways: dim_order spreads its packets over all its links).
  bool ring_dim = false;
  for (const Dimension& d : r.dims) ring_dim = ring_dim || (d.kind == DimKind::Ring && d.size > 2);
  const unsigned directions = ring_dim ? 2 : 1;
  if (s.chunks.size() * directions > 256 || (!s.chunks.empty() && s.chunks[0].size() > 8))
    throw std::invalid_argument("the cycle model runs at most 256 flows (chunks x directions) of 8 stages");
  const unsigned n = r.npus();
  std::vector<unsigned> stride(r.dims.size(), 1);
  for (std::size_t k = 1; k < r.dims.size(); ++k) stride[k] = stride[k - 1] * r.dims[k - 1].size;
  const auto coord = [&](unsigned rank, unsigned k) { return rank / stride[k] % r.dims[k].size; };

  CollectivePlan plan;
  plan.op = r.op;
  plan.algorithm = CollectiveAlgorithm::Hierarchical;
  plan.cols = n;
  plan.rows = 1;
  plan.elements = elements;
  plan.queue_per_flow = true;
  const unsigned C = static_cast<unsigned>(s.chunks.size());
  std::vector<std::vector<unsigned>> turn(C);  // [chunk][stage]: its place in its dimension's order
  for (unsigned c = 0; c < C; ++c) turn[c].assign(s.chunks[c].size(), 0);
  for (const std::vector<StageRun>& runs : order.by_dim)
    for (std::size_t i = 0; i < runs.size(); ++i) turn[runs[i].chunk][runs[i].stage] = static_cast<unsigned>(i);
  std::vector<uint64_t> output_end(n, 0);  // reduce_scatter, all_gather: each rank's pieces so far

  for (unsigned c = 0; c < C; ++c) {
    const ElementRange chunk = split_range({0, elements}, c, C);
    const std::vector<ChunkStage>& stages = s.chunks[c];
    for (unsigned v = 0; v < directions; ++v) {
      const ElementRange part = split_range(chunk, v, directions);
      Flow flow;
      // held[rank]: what the rank holds before each stage (RS narrows it, AG widens it back);
      // before_rs[rank]: its range before each RS not yet undone by an AG. An all_gather alone
      // starts where the RS over its dimensions in reverse order would have ended.
      std::vector<ElementRange> held(n, part);
      std::vector<std::vector<ElementRange>> before_rs(n);
      if (r.op == CollectiveOp::AllGather) {
        for (auto it = stages.rbegin(); it != stages.rend(); ++it) {
          for (unsigned rank = 0; rank < n; ++rank) {
            before_rs[rank].push_back(held[rank]);
            held[rank] = split_range(held[rank], coord(rank, it->dim), r.dims[it->dim].size);
          }
        }
        for (unsigned rank = 0; rank < n; ++rank) {  // what the rank contributes: its piece
          plan.pieces.push_back({held[rank], rank, output_end[rank]});
          output_end[rank] += held[rank].size();
        }
      }
      unsigned index = 0;
      for (const ChunkStage& cs : stages) {
        const unsigned k = cs.dim, P = r.dims[k].size;
        Stage st;
        st.kind = cs.op;
        st.lane = static_cast<int>(k);
        st.direct = r.dims[k].kind == DimKind::FullyConnected;
        st.priority = turn[c][index++];
        st.ring_of.assign(n, 0);
        st.position_of.assign(n, 0);
        const bool backward = v == 1 && r.dims[k].kind == DimKind::Ring && P > 2;
        for (unsigned g = 0; g < n; ++g) {
          if (coord(g, k) != 0) continue;  // one ring per group: its member of coordinate 0
          std::vector<unsigned> ring(P);
          std::vector<ElementRange> owned(P);
          // The range the ring works on: what every member holds before an RS; before an AG,
          // what the matching RS started from (the members differ only in coordinate k).
          const ElementRange whole = cs.op == StageKind::ReduceScatter ? held[g] : before_rs[g].back();
          for (unsigned q = 0; q < P; ++q) {
            const unsigned pos = backward ? (P - q) % P : q;  // send order: position i to i + 1
            ring[pos] = g + q * stride[k];
            owned[pos] = split_range(whole, q, P);
          }
          for (unsigned pos = 0; pos < P; ++pos) {
            st.ring_of[ring[pos]] = static_cast<unsigned>(st.rings.size());
            st.position_of[ring[pos]] = pos;
          }
          st.rings.push_back(std::move(ring));
          st.chunk.push_back(std::move(owned));
        }
        for (unsigned rank = 0; rank < n; ++rank) {
          if (cs.op == StageKind::ReduceScatter) {
            before_rs[rank].push_back(held[rank]);
            held[rank] = split_range(held[rank], coord(rank, k), P);
          } else {
            held[rank] = before_rs[rank].back();
            before_rs[rank].pop_back();
          }
        }
        flow.stages.push_back(std::move(st));
      }
      if (r.op == CollectiveOp::ReduceScatter) {
        for (unsigned rank = 0; rank < n; ++rank) {  // what the rank ends with: its piece
          plan.pieces.push_back({held[rank], rank, output_end[rank]});
          output_end[rank] += held[rank].size();
        }
      }
      plan.flows.push_back(std::move(flow));
    }
  }
  std::sort(plan.pieces.begin(), plan.pieces.end(), [](const CollectivePlan::Piece& a, const CollectivePlan::Piece& b) {
    return a.range.begin < b.range.begin;
  });
  return plan;
}

ScheduleTimeline hierarchical_all_to_all_time(const ScheduleRequest& r) {
  if (r.dims.size() != 2) throw std::invalid_argument("a hierarchical all_to_all runs on two dimensions");
  const double x = r.dims[0].size, y = r.dims[1].size, shard = r.message_bytes / (x * y);
  ScheduleTimeline tl;
  const double bytes[2] = {(x - 1) * y * shard, (y - 1) * x * shard};
  for (unsigned k = 0; k < 2; ++k) {
    const double start = tl.time_s;
    tl.dim_busy_s.push_back(bytes[k] / r.dims[k].bytes_per_s());
    tl.dim_bytes.push_back(bytes[k]);
    tl.time_s += r.dims[k].latency_s + tl.dim_busy_s.back();
    StageRun run;
    run.stage = k;
    run.start_s = start;
    run.sent_s = start + tl.dim_busy_s.back();
    run.end_s = tl.time_s;
    tl.by_dim.push_back({run});
  }
  return tl;
}

}  // namespace hx
