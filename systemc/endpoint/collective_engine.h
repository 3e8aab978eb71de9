// collective_engine.h: the accelerators' DMA and collective engines, moving real data.
//
// Each accelerator of a job runs the job's CollectivePlan (collective/collective_plan.h): for
// every flow, stage by stage, its DMA reads the data a step needs, puts it into packets of one
// segment each (4 elements of 32 bits per 128-bit flit) on the flow's local port, and handles
// what arrives: a reduce-scatter step adds its own data to the received segment and sends the
// sum on (the buffer that received it becomes the one that sends it, as a DMA engine would
// reduce in place); an all-gather or chain step keeps the segment and forwards it. All-to-all
// sends block d of its buffer to rank d, a few packets ahead per local port. A hierarchical
// all-to-all (plan.a2a_group = x) does it in two phases, each on its dimension's lane: rank
// (a, j) (a = r mod x, j = r div x) first sends its blocks for every rank (a', j') to its group
// peer (a', j); once a rank has everything of its phase 1, it sends to each (a, j') of the other
// groups the blocks its group holds for it, its own and those it keeps for its peers.
//
// Data. Rank r's input element i is ((7 r + i) mod 31) - 15, as fp32 (or int32). Sums of up
// to 2^20 such values are exact in fp32, so every result is checked for equality, with no
// tolerance. The expected output is computed from that formula alone (for allreduce and
// reduce-scatter, the sum over the job's ranks for each residue i mod 31), independently of the
// algorithm: wrong chunk offsets, a missing or doubled contribution, or a segment delivered to
// the wrong place change the values.
//
// Memory is modelled sparsely so that 1,024 accelerators with 16 MiB each fit in a few GiB: a
// rank's input is the formula (its DMA reads it on demand), what a stage leaves for the next
// (a reduced chunk) is stored, and the final output is checked element by element as the DMA
// writes it, then dropped unless keep_outputs asks for the buffers (tests, --dump-buffers).
// Besides the values, every rank checks that each output element was written exactly once: the
// count of writes and the sums of the output indices and of their squares must equal those of
// the full output.
//
// Per-cycle cost: the engine works only when a flit arrives (a copy into the receive buffer)
// and when a packet completes or leaves; buffers come from a free list, not the heap.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "accelerator_array.h"
#include "collective_plan.h"
#include "hx_flit.h"
#include "packet_tracker.h"

namespace hx {

/// One job: its plan and where its ranks sit.
struct CollectiveJob {
  std::string name;
  CollectivePlan plan;
  std::vector<unsigned> endpoint;  ///< rank -> endpoint
  std::string placement;           ///< where it runs, for reports ("" for the whole system)
};

struct CollectiveEngineConfig {
  bool int32 = false;           ///< int32 data, else fp32
  unsigned segment_flits = 64;  ///< body flits per packet (4 elements each)
  unsigned lanes = 1;           ///< local ports per accelerator
  unsigned vcs = 4;             ///< VCs packets may arrive on
  bool keep_outputs = false;    ///< keep every rank's output buffer
};

/// What one job's collective did.
struct CollectiveJobResult {
  bool complete = false;                    ///< every rank finished
  uint64_t end_cycle = 0;                   ///< the cycle after the last rank finished
  uint64_t output_elements = 0;             ///< written, over all ranks
  uint64_t mismatched = 0;                  ///< elements that differ from the reference
  uint64_t coverage_errors = 0;             ///< ranks whose output was not written exactly once per element
  uint64_t packets = 0, payload_bytes = 0;  ///< data packets sent and their payload
};

/// The DMA engine of the fabric's accelerators in the one endpoint interface (core/endpoint.h):
/// it injects into their NIC (the AcceleratorArray) and gets every flit the NIC ejects.
class CollectiveEngine final : public FlitDma {
 public:
  CollectiveEngine(const CollectiveEngineConfig& cfg, std::vector<CollectiveJob> jobs, PacketTracker& tracker,
                   unsigned endpoints);

  /// The NIC whose lanes carry the packets (it ejects into the engine).
  void attach(Nic<OutPacket>* nic) { nic_ = nic; }

  // ---- the endpoint interface, called by the NIC ---------------------------------------------
  void start(uint64_t t) override;
  void eject(unsigned endpoint, unsigned lane, FlitArrival& a, uint64_t t) override;
  void sent(unsigned endpoint, unsigned lane, const OutPacket& p, uint64_t t) override;
  bool done() const override { return jobs_done_ == jobs_.size(); }
  /// "3 of 4 jobs complete, 60 of 64 ranks of job 0 ..." for timeout reports.
  std::string progress() const override;
  /// The share of every rank's output written so far (for the progress line).
  double fraction_done() const override;

  // ---- results ------------------------------------------------------------------------------
  const std::vector<CollectiveJob>& jobs() const { return jobs_; }
  std::vector<CollectiveJobResult> results() const;
  /// The first mismatches and coverage errors, described.
  const std::vector<std::string>& messages() const { return messages_; }
  /// Rank r of job j's output buffer (keep_outputs only): element bits in output order.
  const std::vector<uint32_t>& output(unsigned job, unsigned rank) const;
  /// The output of `rank` has this many elements.
  static uint64_t output_size(const CollectivePlan& plan, unsigned rank);
  /// Rank r's input element i as stored (fp32 or int32 bits).
  static uint32_t input_bits(bool int32, unsigned rank, uint64_t i);

 private:
  struct Meta {  // what a data packet is, in its tracker tag
    unsigned job = 0, flow = 0, stage = 0, step = 0;
    uint64_t seg = 0;
  };
  static uint64_t pack(const Meta& m);
  static Meta unpack(uint64_t user);

  struct Parked {
    Meta meta;
    uint32_t buffer = 0, elements = 0;
  };
  struct FlowState {
    unsigned stage = 0;
    bool started = false;
    uint64_t received = 0, expected = 0;
    std::vector<Parked> parked;
    std::vector<std::vector<uint32_t>> store;  // per stage: what it leaves for the next
    std::vector<uint64_t> store_begin;
  };
  struct RankState {
    unsigned flows_done = 0;
    bool done = false;
    uint64_t done_cycle = 0;
    // output accounting
    uint64_t written = 0, mismatched = 0;
    uint64_t index_sum = 0, index_sq_sum = 0;  // mod 2^64
    std::vector<uint32_t> out;                 // keep_outputs
    // all-to-all: the next (destination offset, segment) to send, and receipts
    unsigned a2a_offset = 1;
    uint64_t a2a_seg = 0, a2a_received = 0, a2a_expected = 0;
    // hierarchical all-to-all: the next send of each phase (a flat index), phase 1's receipts,
    // and what this rank relays: [(source mod x) * groups + destination group] * block + e
    uint64_t h_next[2] = {0, 0}, h_received = 0, h_expected = 0;
    bool h_phase2 = false;
    std::vector<uint32_t> relay;
  };
  struct JobState {
    std::vector<RankState> ranks;
    std::vector<FlowState> flows;       // [rank * flows + flow]
    std::vector<uint32_t> residue_sum;  // allreduce, reduce_scatter: the reference per i mod 31
    unsigned ranks_done = 0;
    uint64_t end_cycle = 0, packets = 0, payload_bytes = 0;
  };

  FlowState& flow_state(unsigned job, unsigned rank, unsigned flow) {
    return state_[job].flows[std::size_t{rank} * jobs_[job].plan.flows.size() + flow];
  }
  uint64_t segments(uint64_t elements) const { return (elements + seg_elems_ - 1) / seg_elems_; }
  ElementRange segment(const ElementRange& chunk, uint64_t seg) const;

  /// The local port a packet of `m` takes: its stage's lane, or the flow's.
  unsigned lane_of(const Meta& m) const {
    const int lane = jobs_[m.job].plan.flows[m.flow].stages[m.stage].lane;
    return lane >= 0 ? static_cast<unsigned>(lane) : m.flow % cfg_.lanes;
  }

  uint32_t alloc_buffer();
  void free_buffer(uint32_t b) { free_.push_back(b); }
  uint32_t get(uint32_t buffer, uint64_t e) const;
  void set(uint32_t buffer, uint64_t e, uint32_t bits);
  uint32_t add(uint32_t a, uint32_t b) const;

  /// Rank r's own data for stage `stage` of `flow` at element i (the input, or what the previous
  /// stage left).
  uint32_t own(unsigned job, unsigned rank, unsigned flow, unsigned stage, uint64_t i);
  void send(const Meta& m, unsigned rank, unsigned dst_rank, uint32_t buffer, uint64_t elements, unsigned lane,
            uint64_t t);
  /// A new buffer with rank r's own data of `range` for the stage, sent as step 0 (or the chain).
  void send_own(const Meta& m, unsigned rank, unsigned dst_rank, const ElementRange& range, uint64_t t);

  void start_stage(unsigned job, unsigned rank, unsigned flow, uint64_t t);
  void start_direct(unsigned job, unsigned rank, unsigned flow, unsigned stage, uint64_t t);
  void advance(unsigned job, unsigned rank, unsigned flow, uint64_t t);
  void handle(unsigned job, unsigned rank, const Meta& m, uint32_t buffer, uint64_t elements, uint64_t t);
  /// The stage's result element i: stored for the next stage, or the output when it is the last.
  void keep(unsigned job, unsigned rank, unsigned flow, unsigned stage, uint64_t i, uint32_t bits);
  /// Output element `out` of `rank` is `bits`; `element` is its index in [0, S), what its
  /// expected value follows from (an all_to_all's: in the receiver's block of the sender's data).
  void write_output(unsigned job, unsigned rank, uint64_t out, uint64_t element, uint32_t bits);
  void rank_finished(unsigned job, unsigned rank, uint64_t t);

  void a2a_start(unsigned job, unsigned rank, uint64_t t);
  void a2a_send_next(unsigned job, unsigned rank, unsigned lane, uint64_t t);
  /// Hierarchical all-to-all: the next packet of `phase` (0: within the group, on lane 0; 1:
  /// across the groups, on lane 1), if any; the receipt of a phase-1 packet for another rank.
  void h_send_next(unsigned job, unsigned rank, unsigned phase, uint64_t t);
  void h_relay(unsigned job, unsigned rank, const Meta& m, uint32_t buffer, uint64_t t);
  void h_phase1_received(unsigned job, unsigned rank, uint64_t t);

  void note(std::string msg);

  CollectiveEngineConfig cfg_;
  std::vector<CollectiveJob> jobs_;
  PacketTracker& tracker_;
  Nic<OutPacket>* nic_ = nullptr;
  std::vector<JobState> state_;
  std::vector<int> job_of_, rank_of_;  // per endpoint (-1: no job)
  std::size_t jobs_done_ = 0;

  uint64_t seg_elems_;
  std::vector<uint32_t> free_;  // buffers of pool_ not in use
  std::vector<std::string> messages_;
  uint64_t total_output_ = 0;  // output elements of every rank of every job
};

}  // namespace hx
