#include "collective_engine.h"

#include <cstring>
#include <sstream>
#include <stdexcept>

namespace hx {

namespace {

constexpr unsigned kResidues = 31;  // the input formula's period
constexpr std::size_t kMaxMessages = 16;

int input_value(unsigned rank, uint64_t i) { return static_cast<int>((7ull * rank + i) % kResidues) - 15; }

uint32_t to_bits(bool int32, int64_t v) {
  if (int32) return static_cast<uint32_t>(static_cast<int32_t>(v));
  const float f = static_cast<float>(v);
  uint32_t bits;
  std::memcpy(&bits, &f, sizeof bits);
  return bits;
}

float as_float(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

// Sums of 0..n-1 and of their squares, mod 2^64 (the coverage check).
uint64_t index_sum(uint64_t n) {
  return static_cast<uint64_t>(static_cast<unsigned __int128>(n) * (n == 0 ? 0 : n - 1) / 2);
}
uint64_t index_sq_sum(uint64_t n) {
  if (n == 0) return 0;
  return static_cast<uint64_t>(static_cast<unsigned __int128>(n - 1) * n * (2 * n - 1) / 6);
}

// The user tag of a data packet: job 6 bits, flow 8, stage 3, step 17, segment 30.
constexpr unsigned kSegBits = 30, kStepBits = 17, kStageBits = 3, kFlowBits = 8, kJobBits = 6;

}  // namespace

uint64_t CollectiveEngine::pack(const Meta& m) {
  return m.seg | uint64_t{m.step} << kSegBits | uint64_t{m.stage} << (kSegBits + kStepBits) |
         uint64_t{m.flow} << (kSegBits + kStepBits + kStageBits) |
         uint64_t{m.job} << (kSegBits + kStepBits + kStageBits + kFlowBits);
}

CollectiveEngine::Meta CollectiveEngine::unpack(uint64_t u) {
  Meta m;
  m.seg = u & ((uint64_t{1} << kSegBits) - 1);
  m.step = static_cast<unsigned>(u >> kSegBits) & ((1u << kStepBits) - 1);
  m.stage = static_cast<unsigned>(u >> (kSegBits + kStepBits)) & ((1u << kStageBits) - 1);
  m.flow = static_cast<unsigned>(u >> (kSegBits + kStepBits + kStageBits)) & ((1u << kFlowBits) - 1);
  m.job = static_cast<unsigned>(u >> (kSegBits + kStepBits + kStageBits + kFlowBits));
  return m;
}

uint32_t CollectiveEngine::input_bits(bool int32, unsigned rank, uint64_t i) {
  return to_bits(int32, input_value(rank, i));
}

uint64_t CollectiveEngine::output_size(const CollectivePlan& plan, unsigned rank) {
  switch (plan.op) {
    case CollectiveOp::ReduceScatter: return plan.owned(rank);
    case CollectiveOp::AllToAll: return plan.block(rank).size() * plan.ranks();
    default: return plan.elements;
  }
}

CollectiveEngine::CollectiveEngine(const CollectiveEngineConfig& cfg, std::vector<CollectiveJob> jobs,
                                   PacketTracker& tracker, unsigned endpoints)
    : FlitDma(cfg.segment_flits, endpoints, cfg.lanes, cfg.vcs),
      cfg_(cfg),
      jobs_(std::move(jobs)),
      tracker_(tracker),
      job_of_(endpoints, -1),
      rank_of_(endpoints, -1) {
  if (cfg_.segment_flits == 0 || cfg_.segment_flits > 254)
    throw std::invalid_argument("CollectiveEngine: a segment is 1..254 body flits");
  if (jobs_.size() > (1u << kJobBits)) throw std::invalid_argument("CollectiveEngine: at most 64 jobs");
  seg_elems_ = uint64_t{cfg_.segment_flits} * 4;
  state_.resize(jobs_.size());
  for (unsigned j = 0; j < jobs_.size(); ++j) {
    const CollectivePlan& plan = jobs_[j].plan;
    const unsigned p = plan.ranks();
    if (jobs_[j].endpoint.size() != p)
      throw std::invalid_argument("CollectiveEngine: a job needs one endpoint per rank");
    if (p >= (1u << kStepBits)) throw std::invalid_argument("CollectiveEngine: at most 2^17 - 1 ranks per job");
    if (segments(plan.elements) >= (uint64_t{1} << kSegBits))
      throw std::invalid_argument("CollectiveEngine: too many segments");
    if (plan.flows.size() > (1u << kFlowBits)) throw std::invalid_argument("CollectiveEngine: at most 256 flows");
    for (const Flow& f : plan.flows) {
      if (f.stages.size() > (1u << kStageBits)) throw std::invalid_argument("CollectiveEngine: at most 8 stages");
      for (const Stage& st : f.stages) {
        if (st.lane >= static_cast<int>(cfg_.lanes))
          throw std::invalid_argument("CollectiveEngine: a stage's lane is beyond the local ports");
      }
    }
    for (unsigned r = 0; r < p; ++r) {
      const unsigned e = jobs_[j].endpoint[r];
      if (e >= endpoints || job_of_[e] >= 0)
        throw std::invalid_argument("CollectiveEngine: endpoint " + std::to_string(e) +
                                    " is out of range or in two jobs");
      job_of_[e] = static_cast<int>(j);
      rank_of_[e] = static_cast<int>(r);
    }
    JobState& js = state_[j];
    js.ranks.resize(p);
    js.flows.resize(std::size_t{p} * plan.flows.size());
    for (FlowState& fs : js.flows) {
      const std::size_t stages = plan.flows.empty() ? 0 : plan.flows[0].stages.size();
      fs.store.resize(stages);
      fs.store_begin.assign(stages, 0);
    }
    if (plan.op == CollectiveOp::AllReduce || plan.op == CollectiveOp::ReduceScatter) {
      js.residue_sum.resize(kResidues);
      for (unsigned m = 0; m < kResidues; ++m) {
        int64_t sum = 0;
        for (unsigned r = 0; r < p; ++r) sum += input_value(r, m);
        js.residue_sum[m] = to_bits(cfg_.int32, sum);
      }
    }
    for (unsigned r = 0; r < p; ++r) total_output_ += output_size(plan, r);
    if (cfg_.keep_outputs) {
      for (unsigned r = 0; r < p; ++r) js.ranks[r].out.assign(output_size(plan, r), 0);
    }
  }
}

ElementRange CollectiveEngine::segment(const ElementRange& chunk, uint64_t seg) const {
  const uint64_t b = chunk.begin + seg * seg_elems_;
  return {b, std::min(chunk.end, b + seg_elems_)};
}

uint32_t CollectiveEngine::alloc_buffer() {
  if (free_.empty()) {
    const std::size_t n = pool_.size() / stride_;
    pool_.resize(pool_.size() + stride_);
    return static_cast<uint32_t>(n);
  }
  const uint32_t b = free_.back();
  free_.pop_back();
  return b;
}

// Element e of a buffer's body flits, placed as both network models place data (flit_word).
uint32_t CollectiveEngine::get(uint32_t buffer, uint64_t e) const {
  return flit_word(pool_[std::size_t{buffer} * stride_ + e / kWordsPerFlit], static_cast<unsigned>(e % kWordsPerFlit));
}

void CollectiveEngine::set(uint32_t buffer, uint64_t e, uint32_t bits) {
  set_flit_word(pool_[std::size_t{buffer} * stride_ + e / kWordsPerFlit], static_cast<unsigned>(e % kWordsPerFlit),
                bits);
}

uint32_t CollectiveEngine::add(uint32_t a, uint32_t b) const {
  if (cfg_.int32) return a + b;  // two's complement, wrapping
  const float s = as_float(a) + as_float(b);
  uint32_t bits;
  std::memcpy(&bits, &s, sizeof bits);
  return bits;
}

void CollectiveEngine::note(std::string msg) {
  if (messages_.size() < kMaxMessages) messages_.push_back(std::move(msg));
}

// ---- sending ----------------------------------------------------------------------------------

void CollectiveEngine::send(const Meta& m, unsigned rank, unsigned dst_rank, uint32_t buffer, uint64_t elements,
                            unsigned lane, uint64_t t) {
  const CollectiveJob& job = jobs_[m.job];
  const unsigned flits = static_cast<unsigned>((elements + kWordsPerFlit - 1) / kWordsPerFlit);
  for (uint64_t e = elements; e < uint64_t{flits} * 4; ++e) set(buffer, e, 0);  // pad the last flit
  const unsigned src = job.endpoint[rank], dst = job.endpoint[dst_rank];
  const uint64_t hash = PacketTracker::data_hash(&pool_[std::size_t{buffer} * stride_], flits);
  const uint32_t id = tracker_.create_data(src, dst, flits + 1, t, pack(m), hash);
  const uint16_t priority =
      static_cast<uint16_t>(job.plan.flows.empty() ? 0 : job.plan.flows[m.flow].stages[m.stage].priority);
  nic_->inject(src, lane, job.plan.queue_per_flow ? m.flow : 0,
               OutPacket{id, buffer, static_cast<uint16_t>(flits + 1), priority});
  ++state_[m.job].packets;
  state_[m.job].payload_bytes += elements * 4;
}

void CollectiveEngine::send_own(const Meta& m, unsigned rank, unsigned dst_rank, const ElementRange& range,
                                uint64_t t) {
  const uint32_t b = alloc_buffer();
  for (uint64_t i = range.begin; i < range.end; ++i) set(b, i - range.begin, own(m.job, rank, m.flow, m.stage, i));
  send(m, rank, dst_rank, b, range.size(), lane_of(m), t);
}

uint32_t CollectiveEngine::own(unsigned job, unsigned rank, unsigned flow, unsigned stage, uint64_t i) {
  const CollectivePlan& plan = jobs_[job].plan;
  if (stage == 0) return input_bits(cfg_.int32, plan.op == CollectiveOp::Broadcast ? plan.root : rank, i);
  const FlowState& fs = flow_state(job, rank, flow);
  return fs.store[stage - 1][i - fs.store_begin[stage - 1]];
}

// ---- results of a stage -----------------------------------------------------------------------

void CollectiveEngine::keep(unsigned job, unsigned rank, unsigned flow, unsigned stage, uint64_t i, uint32_t bits) {
  const CollectivePlan& plan = jobs_[job].plan;
  if (stage + 1 < plan.flows[flow].stages.size()) {
    FlowState& fs = flow_state(job, rank, flow);
    fs.store[stage][i - fs.store_begin[stage]] = bits;
  } else {
    write_output(job, rank, plan.op == CollectiveOp::ReduceScatter ? plan.output_index(rank, i) : i, i, bits);
  }
}

void CollectiveEngine::write_output(unsigned job, unsigned rank, uint64_t out, uint64_t element, uint32_t bits) {
  const CollectivePlan& plan = jobs_[job].plan;
  JobState& js = state_[job];
  RankState& rs = js.ranks[rank];
  uint32_t expect = 0;
  switch (plan.op) {
    case CollectiveOp::AllReduce: expect = js.residue_sum[out % kResidues]; break;
    case CollectiveOp::ReduceScatter: expect = js.residue_sum[element % kResidues]; break;
    // The rank that owns the element contributed it.
    case CollectiveOp::AllGather: expect = input_bits(cfg_.int32, plan.owner(element), element); break;
    case CollectiveOp::Broadcast: expect = input_bits(cfg_.int32, plan.root, out); break;
    case CollectiveOp::AllToAll: {
      expect = input_bits(cfg_.int32, static_cast<unsigned>(out / plan.block(rank).size()), element);
      break;
    }
  }
  ++rs.written;
  rs.index_sum += out;
  rs.index_sq_sum += out * out;
  if (!rs.out.empty() && out < rs.out.size()) rs.out[out] = bits;
  if (bits != expect) {
    ++rs.mismatched;
    if (rs.mismatched == 1) {
      std::ostringstream os;
      os << jobs_[job].name << " rank " << rank << " (endpoint " << jobs_[job].endpoint[rank] << "): output element "
         << out << " is " << (cfg_.int32 ? static_cast<double>(static_cast<int32_t>(bits)) : as_float(bits))
         << ", expected " << (cfg_.int32 ? static_cast<double>(static_cast<int32_t>(expect)) : as_float(expect));
      note(os.str());
    }
  }
}

void CollectiveEngine::rank_finished(unsigned job, unsigned rank, uint64_t t) {
  JobState& js = state_[job];
  RankState& rs = js.ranks[rank];
  rs.done = true;
  rs.done_cycle = t;
  const uint64_t n = output_size(jobs_[job].plan, rank);
  if (rs.written != n || rs.index_sum != index_sum(n) || rs.index_sq_sum != index_sq_sum(n)) {
    std::ostringstream os;
    os << jobs_[job].name << " rank " << rank << ": " << rs.written << " output elements written for " << n
       << " (or some written twice and others never)";
    note(os.str());
  }
  js.end_cycle = std::max(js.end_cycle, t + 1);
  if (++js.ranks_done == js.ranks.size()) ++jobs_done_;
}

// ---- stages -----------------------------------------------------------------------------------

void CollectiveEngine::start(uint64_t t) {
  if (nic_ == nullptr) throw std::logic_error("CollectiveEngine::start: not attached");
  for (unsigned j = 0; j < jobs_.size(); ++j) {
    const CollectivePlan& plan = jobs_[j].plan;
    for (unsigned r = 0; r < plan.ranks(); ++r) {
      if (plan.op == CollectiveOp::AllToAll) {
        a2a_start(j, r, t);
        continue;
      }
      for (unsigned f = 0; f < plan.flows.size(); ++f) advance(j, r, f, t);
    }
  }
}

void CollectiveEngine::start_stage(unsigned job, unsigned rank, unsigned flow, uint64_t t) {
  const CollectivePlan& plan = jobs_[job].plan;
  FlowState& fs = flow_state(job, rank, flow);
  const unsigned k = fs.stage;
  const Stage& st = plan.flows[flow].stages[k];
  const unsigned ring = st.ring_of[rank], pos = st.position_of[rank];
  const std::vector<unsigned>& members = st.rings[ring];
  const unsigned n = static_cast<unsigned>(members.size()), next = members[(pos + 1) % n];
  const bool last = k + 1 == plan.flows[flow].stages.size();
  fs.received = 0;
  fs.expected = 0;
  Meta m{job, flow, k, 0, 0};

  // What this stage leaves for the next: the reduced own chunk, or the gathered range. A direct
  // reduce_scatter adds its contributions up there even when it is the last (advance() writes
  // the sums out).
  if (!last || (st.direct && st.kind == StageKind::ReduceScatter)) {
    ElementRange held = st.chunk[ring][pos];
    if (st.kind != StageKind::ReduceScatter) {
      for (const ElementRange& c : st.chunk[ring]) {
        held.begin = std::min(held.begin, c.begin);
        held.end = std::max(held.end, c.end);
      }
    }
    fs.store[k].assign(held.size(), 0);
    fs.store_begin[k] = held.begin;
  }

  if (st.direct) {
    start_direct(job, rank, flow, k, t);
    return;
  }
  switch (st.kind) {
    case StageKind::ReduceScatter:
      if (n == 1) {
        const ElementRange& c = st.chunk[ring][pos];
        for (uint64_t i = c.begin; i < c.end; ++i) keep(job, rank, flow, k, i, own(job, rank, flow, k, i));
        break;
      }
      for (unsigned s = 0; s + 1 < n; ++s) fs.expected += segments(st.received_chunk(rank, s).size());
      for (uint64_t g = 0, segs = segments(st.sent_chunk(rank, 0).size()); g < segs; ++g) {
        m.seg = g;
        send_own(m, rank, next, segment(st.sent_chunk(rank, 0), g), t);
      }
      break;
    case StageKind::AllGather: {
      const ElementRange& c = st.chunk[ring][pos];
      for (uint64_t i = c.begin; i < c.end; ++i) keep(job, rank, flow, k, i, own(job, rank, flow, k, i));
      if (n == 1) break;
      for (unsigned s = 0; s + 1 < n; ++s) fs.expected += segments(st.received_chunk(rank, s).size());
      for (uint64_t g = 0, segs = segments(c.size()); g < segs; ++g) {
        m.seg = g;
        send_own(m, rank, next, segment(c, g), t);
      }
      break;
    }
    case StageKind::Chain: {
      const ElementRange& c = st.chunk[ring][0];
      if (pos != 0) {
        fs.expected = segments(c.size());
        break;
      }
      for (uint64_t i = c.begin; i < c.end; ++i) keep(job, rank, flow, k, i, own(job, rank, flow, k, i));
      if (n == 1) break;
      for (uint64_t g = 0, segs = segments(c.size()); g < segs; ++g) {
        m.seg = g;
        send_own(m, rank, next, segment(c, g), t);
      }
      break;
    }
  }
}

// A direct stage: this rank's data for every other member of its group at once, segment by
// segment round the members (so that consecutive packets take different links). A
// reduce_scatter starts its own chunk from its own data and adds what arrives (handle); an
// all_gather keeps its own chunk and sends it to everyone.
void CollectiveEngine::start_direct(unsigned job, unsigned rank, unsigned flow, unsigned k, uint64_t t) {
  FlowState& fs = flow_state(job, rank, flow);
  const Stage& st = jobs_[job].plan.flows[flow].stages[k];
  const unsigned pos = st.position_of[rank];
  const std::vector<unsigned>& members = st.rings[st.ring_of[rank]];
  const std::vector<ElementRange>& chunks = st.chunk[st.ring_of[rank]];
  const unsigned n = static_cast<unsigned>(members.size());
  const bool reduce = st.kind == StageKind::ReduceScatter;
  const ElementRange& mine = chunks[pos];
  for (uint64_t i = mine.begin; i < mine.end; ++i) {
    if (reduce) {
      fs.store[k][i - fs.store_begin[k]] = own(job, rank, flow, k, i);  // the sum starts with its own
    } else {
      keep(job, rank, flow, k, i, own(job, rank, flow, k, i));
    }
  }
  uint64_t most = 0;
  for (unsigned j = 0; j < n; ++j) {
    if (j == pos) continue;
    fs.expected += segments((reduce ? mine : chunks[j]).size());
    most = std::max(most, segments((reduce ? chunks[j] : mine).size()));
  }
  for (uint64_t g = 0; g < most; ++g) {
    for (unsigned d = 1; d < n; ++d) {
      const unsigned j = (pos + d) % n;
      const ElementRange& sent = reduce ? chunks[j] : mine;
      if (g >= segments(sent.size())) continue;
      send_own(Meta{job, flow, k, pos, g}, rank, members[j], segment(sent, g), t);
    }
  }
}

void CollectiveEngine::advance(unsigned job, unsigned rank, unsigned flow, uint64_t t) {
  const CollectivePlan& plan = jobs_[job].plan;
  FlowState& fs = flow_state(job, rank, flow);
  const std::size_t stages = plan.flows[flow].stages.size();
  while (fs.stage < stages) {
    if (!fs.started) {
      start_stage(job, rank, flow, t);
      fs.started = true;
      // Segments of this stage that arrived before it started.
      std::vector<Parked> early;
      early.swap(fs.parked);
      for (const Parked& p : early) {
        if (p.meta.stage == fs.stage) {
          handle(job, rank, p.meta, p.buffer, p.elements, t);
        } else {
          fs.parked.push_back(p);
        }
      }
    }
    if (fs.received < fs.expected) return;
    const Stage& done = plan.flows[flow].stages[fs.stage];
    if (done.direct && done.kind == StageKind::ReduceScatter && fs.stage + 1 == stages) {
      // The last stage's sums are complete: they are the output.
      const ElementRange& mine = done.chunk[done.ring_of[rank]][done.position_of[rank]];
      for (uint64_t i = mine.begin; i < mine.end; ++i)
        write_output(job, rank, plan.output_index(rank, i), i, fs.store[fs.stage][i - fs.store_begin[fs.stage]]);
      std::vector<uint32_t>().swap(fs.store[fs.stage]);
    }
    if (fs.stage > 0) std::vector<uint32_t>().swap(fs.store[fs.stage - 1]);  // no longer read
    ++fs.stage;
    fs.started = false;
  }
  if (fs.stage == stages) {
    ++fs.stage;  // counted once
    RankState& rs = state_[job].ranks[rank];
    if (++rs.flows_done == plan.flows.size()) rank_finished(job, rank, t);
  }
}

void CollectiveEngine::handle(unsigned job, unsigned rank, const Meta& m, uint32_t buffer, uint64_t elements,
                              uint64_t t) {
  const Stage& st = jobs_[job].plan.flows[m.flow].stages[m.stage];
  FlowState& fs = flow_state(job, rank, m.flow);
  const unsigned ring = st.ring_of[rank], pos = st.position_of[rank];
  const std::vector<unsigned>& members = st.rings[ring];
  const unsigned n = static_cast<unsigned>(members.size()), next = members[(pos + 1) % n];
  const ElementRange seg = segment(st.arriving_chunk(rank, m.step), m.seg);
  if (seg.size() != elements) {
    note(jobs_[job].name + " rank " + std::to_string(rank) + ": a segment of " + std::to_string(elements) +
         " elements arrived where the plan has " + std::to_string(seg.size()));
    state_[job].ranks[rank].mismatched += 1;
  }
  const uint64_t count = std::min<uint64_t>(elements, seg.size());
  if (st.direct) {
    // A contribution to this rank's own chunk, added to what it holds (a reduce_scatter: its
    // own data and the contributions so far), or a member's chunk to keep (an all_gather).
    for (uint64_t e = 0; e < count; ++e) {
      const uint64_t i = seg.begin + e;
      if (st.kind == StageKind::ReduceScatter) {
        uint32_t& held = fs.store[m.stage][i - fs.store_begin[m.stage]];
        held = add(held, get(buffer, e));
      } else {
        keep(job, rank, m.flow, m.stage, i, get(buffer, e));
      }
    }
    ++fs.received;
    free_buffer(buffer);
    return;
  }
  bool forward = false;
  switch (st.kind) {
    case StageKind::ReduceScatter:
      // Reduce in place: the received partial sum plus this rank's own data.
      for (uint64_t e = 0; e < count; ++e)
        set(buffer, e, add(get(buffer, e), own(job, rank, m.flow, m.stage, seg.begin + e)));
      if (m.step + 2 < n) {
        forward = true;
      } else {  // the last step brings this rank's own chunk, now fully reduced
        for (uint64_t e = 0; e < count; ++e) keep(job, rank, m.flow, m.stage, seg.begin + e, get(buffer, e));
      }
      break;
    case StageKind::AllGather:
      for (uint64_t e = 0; e < count; ++e) keep(job, rank, m.flow, m.stage, seg.begin + e, get(buffer, e));
      forward = m.step + 2 < n;
      break;
    case StageKind::Chain:
      for (uint64_t e = 0; e < count; ++e) keep(job, rank, m.flow, m.stage, seg.begin + e, get(buffer, e));
      forward = pos + 1 < n;
      break;
  }
  ++fs.received;
  if (forward) {
    Meta out = m;
    if (st.kind != StageKind::Chain) ++out.step;
    send(out, rank, next, buffer, elements, lane_of(m), t);
  } else {
    free_buffer(buffer);
  }
}

// ---- all-to-all -------------------------------------------------------------------------------

// Packets a local port keeps queued ahead: enough to never idle, few enough to stay small.
constexpr unsigned kA2aAhead = 2;

void CollectiveEngine::a2a_start(unsigned job, unsigned rank, uint64_t t) {
  const CollectivePlan& plan = jobs_[job].plan;
  RankState& rs = state_[job].ranks[rank];
  const ElementRange mine = plan.block(rank);
  for (uint64_t i = mine.begin; i < mine.end; ++i)  // its own block stays local
    write_output(job, rank, uint64_t{rank} * mine.size() + (i - mine.begin), i, input_bits(cfg_.int32, rank, i));
  rs.a2a_expected = uint64_t{plan.ranks() - 1} * segments(mine.size());
  if (plan.a2a_group > 0) {
    const unsigned x = plan.a2a_group, y = plan.ranks() / x;
    const uint64_t block = plan.block(0).size();  // the largest
    rs.h_expected = uint64_t{x - 1} * y * segments(block);
    rs.relay.assign(std::size_t{x} * y * block, 0);
    for (unsigned k = 0; k < kA2aAhead; ++k) h_send_next(job, rank, 0, t);
    if (rs.h_expected == 0) h_phase1_received(job, rank, t);
  } else {
    for (unsigned lane = 0; lane < cfg_.lanes; ++lane)
      for (unsigned k = 0; k < kA2aAhead; ++k) a2a_send_next(job, rank, lane, t);
  }
  if (rs.a2a_expected == 0) rank_finished(job, rank, t);
}

// Phase 1, index i over (peer offset o = 1..x-1, destination group k, segment g): block (a', j')
// to the peer a' = a + o of this group, j' = j + k (staggered, so that the peers' packets for one
// group do not all come at once). Phase 2, index i over (group offset o = 1..y-1, source s of
// this group, segment g): to rank (a, j + o), what s sends it: this rank's own block, or the one
// relayed for s.
void CollectiveEngine::h_send_next(unsigned job, unsigned rank, unsigned phase, uint64_t t) {
  const CollectivePlan& plan = jobs_[job].plan;
  RankState& rs = state_[job].ranks[rank];
  const unsigned x = plan.a2a_group, y = plan.ranks() / x, a = rank % x, j = rank / x;
  const uint64_t per = segments(plan.block(0).size()), stride = plan.block(0).size();
  uint64_t& i = rs.h_next[phase];
  while (true) {
    const uint64_t g = i % per;
    unsigned to = 0, dst = 0, src = rank, group = 0;
    if (phase == 0) {
      if (i >= uint64_t{x - 1} * y * per) return;
      const unsigned o = static_cast<unsigned>(i / (uint64_t{y} * per)) + 1, k = static_cast<unsigned>(i / per % y);
      group = (j + k) % y;
      to = j * x + (a + o) % x;
      dst = group * x + (a + o) % x;
    } else {
      if (!rs.h_phase2 || i >= uint64_t{y - 1} * x * per) return;
      const unsigned o = static_cast<unsigned>(i / (uint64_t{x} * per)) + 1, k = static_cast<unsigned>(i / per % x);
      group = (j + o) % y;
      to = dst = group * x + a;
      src = j * x + (a + k) % x;
    }
    ++i;
    const ElementRange block = plan.block(dst);
    if (g >= segments(block.size())) continue;  // a smaller block has fewer segments
    const ElementRange seg = segment({0, block.size()}, g);
    const uint32_t b = alloc_buffer();
    for (uint64_t e = seg.begin; e < seg.end; ++e) {
      const uint32_t bits = src == rank ? input_bits(cfg_.int32, rank, block.begin + e)
                                        : rs.relay[(std::size_t{src % x} * y + group) * stride + e];
      set(b, e - seg.begin, bits);
    }
    send(Meta{job, group, phase + 1, src, g}, rank, to, b, seg.size(), phase, t);
    return;
  }
}

// A phase-1 packet for another group: kept until phase 2 sends it on.
void CollectiveEngine::h_relay(unsigned job, unsigned rank, const Meta& m, uint32_t buffer, uint64_t t) {
  const CollectivePlan& plan = jobs_[job].plan;
  RankState& rs = state_[job].ranks[rank];
  const unsigned x = plan.a2a_group, y = plan.ranks() / x;
  const uint64_t stride = plan.block(0).size();
  const ElementRange seg = segment({0, plan.block(m.flow * x + rank % x).size()}, m.seg);
  for (uint64_t e = seg.begin; e < seg.end; ++e)
    rs.relay[(std::size_t{m.step % x} * y + m.flow) * stride + e] = get(buffer, e - seg.begin);
  free_buffer(buffer);
  h_phase1_received(job, rank, t);
}

void CollectiveEngine::h_phase1_received(unsigned job, unsigned rank, uint64_t t) {
  RankState& rs = state_[job].ranks[rank];
  if (rs.h_expected > 0 && ++rs.h_received < rs.h_expected) return;
  rs.h_phase2 = true;
  for (unsigned k = 0; k < kA2aAhead; ++k) h_send_next(job, rank, 1, t);
}

void CollectiveEngine::a2a_send_next(unsigned job, unsigned rank, unsigned lane, uint64_t t) {
  const CollectivePlan& plan = jobs_[job].plan;
  if (plan.a2a_group > 0) {
    h_send_next(job, rank, lane, t);
    return;
  }
  RankState& rs = state_[job].ranks[rank];
  const unsigned p = plan.ranks();
  while (rs.a2a_offset < p) {
    const unsigned dst = (rank + rs.a2a_offset) % p;
    const ElementRange block = plan.block(dst);
    if (rs.a2a_seg < segments(block.size())) {
      const ElementRange seg = segment(block, rs.a2a_seg);
      const uint32_t b = alloc_buffer();
      for (uint64_t i = seg.begin; i < seg.end; ++i) set(b, i - seg.begin, input_bits(cfg_.int32, rank, i));
      send(Meta{job, 0, 0, rank, rs.a2a_seg}, rank, dst, b, seg.size(), lane, t);
      ++rs.a2a_seg;
      return;
    }
    ++rs.a2a_offset;
    rs.a2a_seg = 0;
  }
}

// ---- the DMA's receive side -------------------------------------------------------------------

void CollectiveEngine::eject(unsigned endpoint, unsigned lane, FlitArrival& arrival, uint64_t t) {
  const Flit& f = arrival.flit;
  const PacketTracker::Arrival& a = arrival.tracked;
  // The tracker passes only flits in sequence (a.ok), so a.index - 1 is rx.next.
  RxSlot& rx = rx_slot(endpoint, lane, f.vc);  // the tracker checked f.vc
  if (a.index == 0) {
    rx.buffer = alloc_buffer();
    rx.next = 0;
  } else if (rx.buffer != RxSlot::kNone && rx.next < stride_) {
    pool_[std::size_t{rx.buffer} * stride_ + rx.next++] = f.payload;
  }
  if (!is_tail(f.type) || rx.buffer == RxSlot::kNone) return;
  const uint32_t buffer = rx.buffer;
  rx.buffer = RxSlot::kNone;
  const Meta m = unpack(a.user);
  const int job = job_of_[endpoint], rank = rank_of_[endpoint];
  if (job < 0 || static_cast<unsigned>(job) != m.job) {
    note("endpoint " + std::to_string(endpoint) + " received a data packet of job " + std::to_string(m.job) +
         ", which it does not belong to");
    free_buffer(buffer);
    return;
  }
  const unsigned j = static_cast<unsigned>(job), r = static_cast<unsigned>(rank);
  const CollectivePlan& plan = jobs_[j].plan;
  // The packet's elements: its body flits hold 4 each; the plan says how many are real.
  const uint64_t flits = a.index;  // the tail's index = body flits
  if (plan.op == CollectiveOp::AllToAll) {
    RankState& rs = state_[j].ranks[r];
    if (plan.a2a_group > 0 && m.stage == 1 && m.flow != r / plan.a2a_group) {
      h_relay(j, r, m, buffer, t);
      return;
    }
    if (plan.a2a_group > 0 && m.stage == 1) h_phase1_received(j, r, t);
    const ElementRange mine = plan.block(r);
    const ElementRange seg = segment({0, mine.size()}, m.seg);
    if ((seg.size() + kWordsPerFlit - 1) / kWordsPerFlit != flits)
      note(jobs_[j].name + ": an all-to-all segment of the wrong length");
    for (uint64_t e = 0; e < seg.size() && e < flits * 4; ++e)
      write_output(j, r, uint64_t{m.step} * mine.size() + seg.begin + e, mine.begin + seg.begin + e, get(buffer, e));
    free_buffer(buffer);
    if (++rs.a2a_received == rs.a2a_expected) rank_finished(j, r, t);
    return;
  }
  FlowState& fs = flow_state(j, r, m.flow);
  const Stage& st = plan.flows[m.flow].stages[m.stage];
  const ElementRange seg = segment(st.arriving_chunk(r, m.step), m.seg);
  const uint64_t elements = std::min<uint64_t>(seg.size(), flits * 4);
  if (m.stage != fs.stage || !fs.started) {
    fs.parked.push_back(Parked{m, buffer, static_cast<uint32_t>(elements)});
    return;
  }
  handle(j, r, m, buffer, elements, t);
  advance(j, r, m.flow, t);
}

void CollectiveEngine::sent(unsigned endpoint, unsigned lane, const OutPacket& p, uint64_t t) {
  free_buffer(p.buffer);
  const int job = job_of_[endpoint];
  if (job >= 0 && jobs_[job].plan.op == CollectiveOp::AllToAll)
    a2a_send_next(static_cast<unsigned>(job), static_cast<unsigned>(rank_of_[endpoint]), lane, t);
}

// ---- reports ----------------------------------------------------------------------------------

std::string CollectiveEngine::progress() const {
  std::ostringstream os;
  os << jobs_done_ << " of " << jobs_.size() << " jobs complete";
  for (unsigned j = 0; j < jobs_.size(); ++j)
    os << "; " << jobs_[j].name << ": " << state_[j].ranks_done << " of " << state_[j].ranks.size()
       << " ranks finished";
  return os.str();
}

double CollectiveEngine::fraction_done() const {
  uint64_t written = 0;
  for (const JobState& js : state_)
    for (const RankState& rs : js.ranks) written += rs.written;
  return total_output_ > 0 ? static_cast<double>(written) / static_cast<double>(total_output_) : 0;
}

std::vector<CollectiveJobResult> CollectiveEngine::results() const {
  std::vector<CollectiveJobResult> out;
  for (unsigned j = 0; j < jobs_.size(); ++j) {
    const JobState& js = state_[j];
    CollectiveJobResult r;
    r.complete = js.ranks_done == js.ranks.size();
    r.end_cycle = js.end_cycle;
    r.packets = js.packets;
    r.payload_bytes = js.payload_bytes;
    for (unsigned k = 0; k < js.ranks.size(); ++k) {
      const RankState& rs = js.ranks[k];
      const uint64_t n = output_size(jobs_[j].plan, k);
      r.output_elements += rs.written;
      r.mismatched += rs.mismatched;
      if (!rs.done || rs.written != n || rs.index_sum != index_sum(n) || rs.index_sq_sum != index_sq_sum(n))
        ++r.coverage_errors;
    }
    out.push_back(r);
  }
  return out;
}

const std::vector<uint32_t>& CollectiveEngine::output(unsigned job, unsigned rank) const {
  return state_.at(job).ranks.at(rank).out;
}

}  // namespace hx
