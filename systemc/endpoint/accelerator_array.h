// accelerator_array.h: the accelerators of a board as traffic endpoints, and the run control.
//
// Each accelerator owns the two links of its local router port. As a source it creates
// packets by Bernoulli trials (probability injection_rate / packet_length per cycle, so the
// offered load is injection_rate flits per cycle), queues them without bound (so the offered
// load is honest and latency includes source queueing; a waiting packet is 8 bytes, its
// destination and creation cycle, and gets its scoreboard record and flits when the lane takes
// it, so that a source far above saturation costs little memory) and injects them flit by flit under
// credit flow control: one credit per VC, starting at the router's buffer depth. A head takes
// VC 0 under the `keep` VC policy, or the VC with the most credits under `any`. As a sink it
// consumes every arriving flit at once and returns its credit, and hands the flit to the
// PacketTracker.
//
// All accelerators of a board are handled by one clocked process: per cycle that is one pass
// over plain C++ objects rather than one SystemC process per accelerator.
//
// An accelerator may have several local ports into its router (`lanes`, the paper's network
// interfaces: four per plane let it inject into N, E, S and W at once). Each lane is a link pair
// with its own packet queue and credits. Synthetic packets take the lanes in turn.
//
// The array is the accelerators' NIC in the one endpoint interface (core/endpoint.h). Collective
// runs: with a DMA engine attached (set_engine, a CollectiveEngine) the synthetic sources are off.
// The engine injects data packets into the lanes' queues (inject), gets every arriving flit
// ejected (its DMA writes the payload to memory), and hears when a packet has left (sent: to free
// its buffer); the lane reads a data packet's body flits from the engine's buffer as it sends.
// The run ends when the engine reports the collective complete and every packet has arrived,
// or, as not drained, after `collective_timeout` cycles.
//
// With source_queue > 0 a source holds at most that many packets (queued or being injected)
// and skips its Bernoulli trials while full: offered load above what the network accepts then
// saturates the sources instead of growing their queues without bound, which is how the
// saturation throughput (e.g. the global bandwidth of all-to-all) is measured. Saturating
// sources stop at the end of the measurement window (no drain phase under load): under
// saturation an arbiter that is fair per hop can delay a far flow almost without bound (the
// parking-lot effect), and the measured quantity is the accepted rate, not those latencies.
//
// The run, in cycles:
//   warm-up     [0, W)             traffic on, nothing measured
//   measurement [W, W+M)           packets created here are measured; accepted throughput is
//                                  the flits delivered here
//   drain       [W+M, ...)         traffic stays on until every measured packet has arrived
//   flush       after that         no new packets; the run ends when every packet has arrived
// A drain and flush longer than `drain` cycles ends the run as not drained. The watchdog ends
// it when packets are outstanding and no flit has entered or left the network for `watchdog`
// cycles; its report says whether flits are stuck in the network (deadlock) or the network is
// empty and packets are missing (loss).
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include <systemc>

#include "arrival_horizon.h"
#include "endpoint.h"
#include "fifo.h"
#include "flit_link.h"
#include "packet_tracker.h"
#include "rng.h"
#include "traffic_pattern.h"
#include "watchdog.h"

namespace hx {

/// A packet waiting in a lane's queue: its tracker id and, for a data packet, the engine's
/// buffer holding its body flits.
struct OutPacket {
  static constexpr uint32_t kNoBuffer = UINT32_MAX;
  uint32_t id = 0;
  uint32_t buffer = kNoBuffer;
  uint16_t length = 0;
  uint16_t priority = 0;  ///< among a lane's DMA queues: the lowest goes first
};

/// A flit's arrival at an accelerator, as its NIC ejects it to the DMA engine: the flit and the
/// scoreboard's verdict (only flits in sequence, a.ok, are ejected).
struct FlitArrival {
  const Flit& flit;
  const PacketTracker::Arrival& tracked;
};

/// The DMA engine behind the fabric's accelerators (core/endpoint.h, flit by flit): it gets every
/// flit as it arrives and writes its payload into its buffer memory, and the NIC reads the body
/// flits of the packets it injected from that memory as it sends them (the DMA read). The memory
/// and the receive slots are this base's, so that the NIC's reads and cache hints, which run per
/// flit and per endpoint and cycle, are plain loads rather than calls.
class FlitDma : public Dma<FlitArrival, OutPacket> {
 public:
  /// DMA read: body flit `index` (1 = the first after the head) of the packet in `buffer`.
  const Payload& body_flit(uint32_t buffer, unsigned index) const {
    return pool_[std::size_t{buffer} * stride_ + index - 1];
  }
  // Cache hints for the NIC's loop over its endpoints (no effect on state), in the order it
  // issues them: the receive slots of an endpoint, then (reading those) where its next arriving
  // body flits go; and where the next body flit a lane sends comes from. At a thousand
  // accelerators the buffers of one cycle's flits are long gone from the cache by the next.
  void prefetch_rx_slots(unsigned endpoint) const {
    const RxSlot* s = &rx_[std::size_t{endpoint} * slots_per_endpoint_];
    constexpr unsigned kPerLine = 64 / sizeof(RxSlot);
    for (unsigned k = 0; k < slots_per_endpoint_; k += kPerLine) __builtin_prefetch(s + k, 1);
  }
  void prefetch_rx_data(unsigned endpoint) const {
    const RxSlot* s = &rx_[std::size_t{endpoint} * slots_per_endpoint_];
    for (unsigned k = 0; k < slots_per_endpoint_; ++k) {
      if (s[k].buffer != RxSlot::kNone) __builtin_prefetch(&pool_[std::size_t{s[k].buffer} * stride_ + s[k].next], 1);
    }
  }
  /// What body_flit(buffer, index) reads (index 0, the head, reads no buffer: its first flit).
  void prefetch_body(uint32_t buffer, unsigned index) const {
    __builtin_prefetch(&pool_[std::size_t{buffer} * stride_ + (index > 0 ? index - 1 : 0)]);
  }

 protected:
  /// Buffers of `stride` body flits; a receive slot per endpoint, lane and VC.
  FlitDma(std::size_t stride, unsigned endpoints, unsigned lanes, unsigned vcs)
      : stride_(stride), vcs_(vcs), slots_per_endpoint_(lanes * vcs), rx_(std::size_t{endpoints} * lanes * vcs) {}

  /// The packet arriving at an (endpoint, lane, VC): the buffer its body goes to, and where.
  struct RxSlot {
    static constexpr uint32_t kNone = UINT32_MAX;
    uint32_t buffer = kNone;  ///< kNone: no data packet open there
    uint32_t next = 0;        ///< the flit of the buffer its next body flit fills
  };
  RxSlot& rx_slot(unsigned endpoint, unsigned lane, unsigned vc) {
    return rx_[std::size_t{endpoint} * slots_per_endpoint_ + std::size_t{lane} * vcs_ + vc];
  }

  std::vector<Payload> pool_;  ///< the buffer memory: buffers of stride_ body flits
  std::size_t stride_;         ///< body flits per buffer

 private:
  unsigned vcs_, slots_per_endpoint_;
  std::vector<RxSlot> rx_;  // [(endpoint * lanes + lane) * vcs + vc]
};

struct AcceleratorArrayConfig {
  unsigned num_vcs = 3;
  unsigned buf_depth = 8;       ///< the router's input buffer per VC: the initial credits
  bool any_vc = false;          ///< vc_policy any: a head may take any VC
  double injection_rate = 0.1;  ///< flits per node per cycle
  unsigned packet_length = 1;   ///< flits
  unsigned source_queue = 0;    ///< packets a source may hold (queued or injecting); 0: no bound
  int only_source = -1;         ///< test hook: only this node sends; -1: all
  /// Independent network planes: endpoint e is accelerator e mod N's port in plane e div N
  /// (N = the pattern's nodes); its traffic stays in its plane.
  unsigned planes = 1;
  unsigned lanes = 1;  ///< local ports per accelerator and plane (1..4)
  /// DMA queues per lane (a collective whose flows share a lane gives each flow its own, so that
  /// one flow's packets waiting for a busy link do not hold up another's), served a packet at a
  /// time: the head of lowest priority, round robin among equals; 1: one FIFO per lane.
  unsigned queues = 1;
  uint64_t collective_timeout = 0;  ///< cycles a collective may take (with an engine)
  uint64_t warmup = 1000, measure = 10000, drain = 50000, watchdog = 2000;
  uint64_t seed = 1;
};

/// What the run measured (cycles; rates per node per cycle).
struct TrafficResults {
  uint64_t window_cycles = 0;
  unsigned sending_nodes = 0, nodes = 0;
  uint64_t window_generated_flits = 0;  ///< flits of packets created in the window
  uint64_t window_accepted_flits = 0;   ///< flits delivered in the window
  uint64_t measured_packets = 0;        ///< measured packets delivered
  /// Node-cycles of the window in which a sending source's bounded queue (source_queue) was full,
  /// so that it skipped its Bernoulli trial: the load it could not offer.
  uint64_t source_full_cycles = 0;
  std::vector<uint64_t> node_accepted_flits;  ///< per node: flits it received in the window
  /// Per sending node: flits it put into the network in the window. In a saturated run the
  /// sources need not share the network fairly; this shows how unevenly they did.
  std::vector<uint64_t> node_sent_flits;
  double avg_latency = 0, p50_latency = 0, p99_latency = 0, max_latency = 0;
};

enum class RunEnd : uint8_t { Running, Drained, DrainTimeout, Deadlock, Loss, ModelError };
const char* to_string(RunEnd e);

class AcceleratorArray final : public sc_core::sc_module, public Nic<OutPacket> {
 public:
  sc_core::sc_in<bool> clk;

  AcceleratorArray(sc_core::sc_module_name name, const AcceleratorArrayConfig& cfg, const TrafficPattern& pattern,
                   PacketTracker& tracker);

  /// Node n's links of lane `lane`: `to_router` carries its flits into the board,
  /// `from_router` out of it.
  void connect(unsigned node, unsigned lane, FlitLink* to_router, FlitLink* from_router);
  void connect(unsigned node, FlitLink* to_router, FlitLink* from_router) { connect(node, 0, to_router, from_router); }

  /// Run a collective: the engine drives the sources (see the header comment).
  void set_engine(FlitDma* engine) { engine_ = engine; }

  // ---- the endpoint interface (core/endpoint.h) -------------------------------------------
  unsigned ports() const override { return cfg_.lanes; }
  /// The engine's DMA queues a data packet on a lane of `node`, in its queue `queue`.
  void inject(unsigned node, unsigned lane, unsigned queue, OutPacket&& p) override {
    push_queue(nodes_[node].lanes[lane], queue, p);
  }
  std::size_t backlog(unsigned node, unsigned lane, unsigned queue) const override {
    return nodes_[node].lanes[lane].queues[queue].size();
  }

  unsigned num_nodes() const { return static_cast<unsigned>(nodes_.size()); }

  RunEnd end() const { return end_; }
  uint64_t end_cycle() const { return end_cycle_; }
  uint64_t cycle() const { return cycle_; }
  const std::string& end_report() const { return end_report_; }
  /// Stop the run from outside (a model error); the report says why.
  void stop(RunEnd why, const std::string& report);

  TrafficResults results() const;
  /// Flits injected into / delivered out of the network by the accelerators.
  uint64_t flits_sent() const { return flits_sent_; }
  uint64_t flits_received() const { return flits_received_; }
  /// Every accelerator got back every credit (the network holds nothing of theirs).
  bool all_credits_home() const;
  /// Where flits sit beyond the accelerators' own links (the fabric), for deadlock reports.
  void set_network_report(std::function<std::string()> f) { network_report_ = std::move(f); }
  /// Progress line for long runs.
  std::string phase_name() const;

 private:
  // A synthetic packet waiting at its source, in 8 bytes: its destination (the low kDstBits) and
  // the cycle it was created in (the rest). It gets its scoreboard record and its flits when the
  // lane takes it (PacketTracker::queue_at_source says why).
  static constexpr unsigned kDstBits = 24;
  static constexpr uint64_t kMaxQueuedCycle = (uint64_t{1} << (64 - kDstBits)) - 1;
  struct Lane {
    FlitLink* tx = nullptr;               // to the router
    FlitLink* rx = nullptr;               // from the router
    std::vector<Fifo<OutPacket>> queues;  // the DMA's: cfg.queues, served by priority, round robin among equals
    Fifo<uint64_t> waiting;               // synthetic packets, packed as above
    std::size_t q_size = 0;               // packets in all of them
    unsigned next_queue = 0;              // where the round robin looks first
    OutPacket cur;                        // the packet being injected (valid while injecting)
    bool injecting = false;
    unsigned index = 0, vc = 0;
    std::array<unsigned, FlitLink::kMaxVcs> credits{};
  };
  struct Node {
    Rng rng;
    ArrivalHorizon arrivals;   // what its links bring: a flit from the router, a credit back
    bool poll_always = false;  // a link refused the horizon (bit errors): poll every cycle
    bool sends = false;
    unsigned next_lane = 0;        // the lane of the next synthetic packet
    uint64_t created = 0;          // packets created (the all-to-all round counter)
    uint64_t window_received = 0;  // flits received in the measurement window
    uint64_t window_sent = 0;      // flits injected in the measurement window
    std::array<Lane, 4> lanes;     // last: a node's cycle touches only the first cfg.lanes of them
  };

  void on_clock();
  void push_queue(Lane& l, unsigned queue, const OutPacket& p);
  static unsigned pick_queue(const Lane& l);
  bool inject(Node& n, unsigned node, unsigned lane, bool in_window, uint64_t t);
  /// Nothing arrives at node n's lanes in cycle t (its horizon says so).
  static bool quiet(const Node& n, uint64_t t) { return !n.poll_always && n.arrivals.quiet(t); }
  bool receive(Node& n, unsigned node, unsigned lane, bool in_window, uint64_t t);
  std::size_t packets_held(const Node& n) const;
  void drain_timeout();  // ends the run as not drained, with the report
  void fire_watchdog(uint64_t t);
  std::string describe_nodes() const;

  AcceleratorArrayConfig cfg_;
  const TrafficPattern& pattern_;
  PacketTracker& tracker_;
  std::vector<Node> nodes_;
  Rng::Odds p_packet_;  // a source's chance of a new packet per cycle: injection_rate / packet_length
  uint64_t cycle_ = 0;
  bool flushing_ = false;
  RunEnd end_ = RunEnd::Running;
  uint64_t end_cycle_ = 0;
  std::string end_report_;
  ProgressWatchdog watchdog_;  // no flit in or out for cfg_.watchdog cycles with packets in flight
  uint64_t flits_sent_ = 0, flits_received_ = 0;
  uint64_t window_generated_ = 0, window_accepted_ = 0;
  uint64_t window_source_full_ = 0;     // node-cycles in the window a bounded source was full
  std::vector<uint64_t> latency_hist_;  // measured packets, by latency in cycles
  std::function<std::string()> network_report_;
  FlitDma* engine_ = nullptr;
};

}  // namespace hx
