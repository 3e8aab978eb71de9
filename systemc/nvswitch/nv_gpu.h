// nv_gpu.h: a GPU of the NVSwitch-like fabric with its DMA engines (Klenk et al., IV-F, V).
//
// A GPU is the two halves of the one endpoint interface (core/endpoint.h): its NIC (nv_gpu_nic.h:
// one link per plane, their queues, the scoreboard) and its DMA engine (GpuDma, here), which
// injects into the NIC and gets every packet the NIC ejects.
//
// Each GPU has a memory with a latency of `mem_latency` + U[0, mem_jitter) cycles per access, and
// a DMA engine that runs one allreduce by one of three methods:
//   - push (IV-C): read every line of the buffer and send it as a reduction write to the line's
//     home port; the network multicasts the final result back. Partials a table evicts arrive at
//     the line's home GPU, which adds them in memory, counting contributions, and multicasts the
//     result once all p have arrived.
//   - pull (IV-B): for each line the GPU owns (topology home_gpu), send a pull request that the network
//     multicasts to the other GPUs; they answer with their line, the tables reduce the answers,
//     and the requester adds its own line and multicasts the result. Optionally an initial
//     barrier (an in-network allreduce of one flag line) first, as the paper's "pull with sync".
//   - uniform (not an allreduce): write every line to a GPU drawn at random (uniform_target),
//     at one line per cycle, more than the links carry; the receiver checks the data against the
//     writer's input formula and that no line arrives twice, the writer counts the acks.
//   - ring (III, V): the software baseline. 2(p-1) steps, each a write of a slice to the next
//     GPU's mailbox, a fence (all acks back), then a flag write; the receiver sees the flag after
//     one memory access (its poll) and only then reads the mailbox for its next step.
// The wave controller (IV-F1, Fig. 6): the work is cut into waves of `wave_lines`; at most
// `waves` are outstanding, and the credits of the next wave are withheld until one completes
// (push: all its results are in memory; pull: all its reduced responses have returned).
//
// Every final line is compared bit for bit with the reference sum, computed from the input
// formula alone; a line finalised twice, a misdelivered packet or a bad checksum is an error.
#pragma once

#include <cstdint>
#include <queue>
#include <string>
#include <unordered_map>
#include <vector>

#include "endpoint.h"
#include "fifo.h"
#include "nv_gpu_nic.h"
#include "nv_topology.h"
#include "rng.h"

namespace hx::nv {

// Uniform is not an allreduce: every GPU writes each line of its buffer to a GPU drawn at random,
// a fabric throughput test (section V: the switch "can sustain all-to-all uniform random traffic
// at greater than 95% throughput").
enum class Method { Ring, Pull, Push, Uniform };
enum class DataType { Fp32, Int32 };

struct GpuParams {
  Method method = Method::Push;
  DataType dtype = DataType::Fp32;
  unsigned gpus = 16;
  uint64_t lines = 0;       // message size / 128 B
  uint64_t wave_lines = 0;  // 0: no wave control
  unsigned waves = 1;       // outstanding waves
  bool barrier = false;     // pull: an initial barrier
  uint64_t ring_slice_lines = 512;
  unsigned mem_latency = 180, mem_jitter = 180;
  unsigned dma_window = 256;  // lines the DMA engine has in flight (reads issued, not yet sent)
  bool shuffle = false;       // inject each wave's lines in a random order (else address order)
  uint64_t seed = 1;
  // Test hook: corrupt or drop the fault_n-th data packet (1-based) delivered to GPU fault_gpu.
  enum class Fault { None, Corrupt, Drop } fault = Fault::None;
  unsigned fault_gpu = 0;
  uint64_t fault_n = 0;
};

/// What a GPU checks beyond the scoreboard's packets: the collective's data and bookkeeping.
///   wrong_elements   a final line (or a uniform write) differs from the reference
///   duplicate_lines  a line finalised twice, or a writer's line received twice (in two packets)
///   wrong_writer     a uniform write whose writer did not mean it for this GPU
///   bad_checksums    data whose end-to-end checksum (set by the GPU that read it from memory,
///                    carried through bypassing reduction units) does not match
///   bad_counts       a reduction of the wrong number of contributions
struct GpuChecks {
  uint64_t wrong_elements = 0, duplicate_lines = 0, wrong_writer = 0, bad_checksums = 0, bad_counts = 0;
  std::string first_error;
  bool ok() const { return wrong_elements + duplicate_lines + wrong_writer + bad_checksums + bad_counts == 0; }
};

/// Element i of GPU g's input: a small integer, so every sum is exact in fp32 whatever the order.
inline int32_t input_value(unsigned gpu, uint64_t i) { return static_cast<int32_t>((7 * gpu + i) % 31) - 15; }

/// Uniform traffic: the GPU that GPU `src` writes its line `line` to, uniform over the other
/// `gpus` - 1 and fixed by the seed, so that a receiver can tell a misrouted write.
inline unsigned uniform_target(uint64_t seed, unsigned src, uint64_t line, unsigned gpus) {
  uint64_t z = seed * 0x9E3779B97F4A7C15ull + (static_cast<uint64_t>(src) << 40) + line;  // splitmix64
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  z ^= z >> 31;
  const unsigned k = static_cast<unsigned>(z % (gpus - 1));
  return k < src ? k : k + 1;
}

/// A GPU's DMA engine and memory: the collective (or the uniform traffic) it runs, every packet it
/// injects and every one its NIC ejects to it.
class GpuDma final : public Dma<Packet, Packet> {
 public:
  GpuDma(unsigned id, const NvTopology& topo, const GpuParams& params, Nic<Packet>& nic);

  unsigned id() const { return id_; }
  /// The memory completions due and the next issue, in cycle `now` (after the NIC's receive).
  void step(uint64_t now);

  // ---- the endpoint interface (core/endpoint.h) -------------------------------------------
  void start(uint64_t) override { started_ = true; }
  bool done() const override { return finals_ == p_.lines; }
  double fraction_done() const override {
    return p_.lines ? static_cast<double>(finals_) / static_cast<double>(p_.lines) : 1.0;
  }
  std::string progress() const override;
  void eject(unsigned endpoint, unsigned port, Packet& pkt, uint64_t now) override;
  /// A packet carries its line itself: no DMA buffer to free when it leaves.
  void sent(unsigned, unsigned, const Packet&, uint64_t) override {}

  uint64_t done_at() const { return done_at_; }
  /// Pull: when the last of this GPU's owned lines came back reduced (0 before).
  uint64_t owned_done_at() const { return owned_done_at_; }
  /// No memory access pending.
  bool idle() const { return mem_.empty(); }
  const GpuChecks& checks() const { return checks_; }
  uint64_t lines_final() const { return finals_; }
  uint64_t partials_merged() const { return partials_merged_; }
  /// Uniform traffic: writes received (each checked and counted once).
  uint64_t writes_received() const { return writes_received_; }
  /// Reduction latency: from sending a line's push write or pull request to its result's return.
  uint64_t latency_sum() const { return latency_sum_; }
  uint64_t latency_count() const { return latency_count_; }

 private:
  struct MemOp {
    uint64_t at;
    uint64_t seq;  // tie-break: issue order
    Packet pkt;    // sent when the access completes (data filled in then)
    uint8_t what;  // see MemWhat in the .cpp
    bool operator>(const MemOp& o) const { return at != o.at ? at > o.at : seq > o.seq; }
  };

  void finalise(uint64_t line, const std::array<uint32_t, kLineWords>& data, uint64_t now);
  /// Injects `pkt` on the link of its line's plane, on its VC.
  void send(Packet&& pkt) {
    const unsigned j = topo_.plane_of_line(pkt.address), vc = pkt.vc();
    nic_.inject(id_, j, vc, std::move(pkt));
  }
  /// Keeps the DMA engine no more than a few requests ahead of the links it feeds.
  bool backlog_ok() const {
    for (unsigned j = 0; j < nic_.ports(); ++j)
      if (nic_.backlog(id_, j, kVcRequest) >= 4) return false;
    return true;
  }
  void ack(const Packet& write);
  void multicast_result(uint64_t line, const std::array<uint32_t, kLineWords>& data);
  void issue(uint64_t now);
  void issue_ring(uint64_t now);
  void ring_task(unsigned step, uint64_t slice, uint64_t lo, uint64_t hi);
  void memory(uint64_t now, Packet&& pkt, uint8_t what);
  void complete(MemOp& op, uint64_t now);
  /// Pull: the position of an owned line in the (unshuffled) list of owned lines.
  uint64_t owned_index(uint64_t line) const {
    const uint64_t l = topo_.links();
    return line / (l * p_.gpus) * l + line % l;
  }
  /// Push: the switch port whose table reduces `line` (where its push writes end).
  NodeId home_port(uint64_t line) const {
    const NvTopology::Home h = topo_.home_of_line(line);
    return switch_port_id(h.sw, h.port);
  }
  uint64_t wave_of(uint64_t index) const { return p_.wave_lines ? index / p_.wave_lines : 0; }
  bool wave_open(uint64_t wave);
  void wave_progress(uint64_t wave);
  std::array<uint32_t, kLineWords> own_line(uint64_t line) const;
  uint32_t combine(uint32_t a, uint32_t b) const;
  void error(uint64_t& counter, const std::string& what);
  void received_write(const Packet& w);

  unsigned id_;
  const NvTopology& topo_;
  GpuParams p_;
  Nic<Packet>& nic_;
  bool started_ = false;
  Rng rng_;  // this GPU's stream: memory jitter, DMA issue order
  std::priority_queue<MemOp, std::vector<MemOp>, std::greater<MemOp>> mem_;
  uint64_t mem_seq_ = 0;
  unsigned in_flight_ = 0;  // DMA lines read or being read, not yet handed to a link

  // the work list and waves (push: every line; pull: the owned lines)
  std::vector<uint64_t> work_;
  uint64_t next_work_ = 0;
  uint64_t waves_started_ = 0, waves_open_ = 0;
  std::vector<uint64_t> wave_left_;
  bool barrier_done_ = true;
  bool barrier_sent_ = false;

  // results
  std::vector<bool> final_;
  uint64_t finals_ = 0, done_at_ = 0;
  uint64_t owned_returned_ = 0, owned_done_at_ = 0;  // pull
  std::array<uint32_t, 31> expected_{};              // the reference sum per (element index mod 31)
  // push home GPU: partials by line (data, count)
  std::unordered_map<uint64_t, std::pair<std::array<uint32_t, kLineWords>, unsigned>> partial_;
  uint64_t partials_merged_ = 0;
  // uniform traffic: which (writer, line) arrived here, and how many
  std::vector<bool> received_;
  uint64_t writes_received_ = 0;
  std::vector<uint64_t> sent_at_;  // per line: when its push write or pull request left the DMA
  uint64_t latency_sum_ = 0, latency_count_ = 0;
  void issued(uint64_t line, uint64_t now) {  // the line's push write or pull request left
    if (line < sent_at_.size()) sent_at_[line] = now;
  }
  void returned(uint64_t line, uint64_t now) {
    if (line < sent_at_.size() && sent_at_[line] != 0) {
      latency_sum_ += now - sent_at_[line];
      ++latency_count_;
    }
  }

  // ring: per (step, slice): ready tasks, outstanding acks; mailboxes by (step, line)
  struct RingTask {
    unsigned step;
    uint64_t slice;
    uint64_t next_line;
    uint64_t end_line;
  };
  Fifo<RingTask> ring_ready_ = Fifo<RingTask>::growing();
  std::unordered_map<uint64_t, unsigned> ring_acks_;                        // key step<<40|slice
  std::unordered_map<uint64_t, std::array<uint32_t, kLineWords>> mailbox_;  // key step<<40|line
  GpuChecks checks_;
};

/// A GPU: its NIC and its DMA engine, joined by the endpoint interface (core/endpoint.h).
class Gpu {
 public:
  Gpu(unsigned id, const NvTopology& topo, const GpuParams& params, PacketBoard* board)
      : params_(params), nic_(id, topo.links(), params_, board), dma_(id, topo, params_, nic_) {
    nic_.attach(&dma_);
  }
  Gpu(const Gpu&) = delete;  // its NIC and DMA engine refer to each other and to params_
  Gpu& operator=(const Gpu&) = delete;
  unsigned id() const { return dma_.id(); }
  GpuNic& nic() { return nic_; }
  const GpuNic& nic() const { return nic_; }
  GpuDma& dma() { return dma_; }
  const GpuDma& dma() const { return dma_; }

  /// One cycle: the NIC ejects what arrived, the DMA engine completes memory accesses and
  /// injects, the NIC transmits.
  void step(uint64_t now) {
    nic_.receive(now);
    dma_.step(now);
    nic_.transmit(now);
  }
  /// Nothing in memory, the queues or on the GPU's links.
  bool idle() const { return dma_.idle() && nic_.idle(); }
  /// For deadlock reports.
  std::string where() const;

 private:
  GpuParams params_;
  GpuNic nic_;
  GpuDma dma_;
};

}  // namespace hx::nv
