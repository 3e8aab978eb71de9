// endpoints.h: what a bench attaches to each external port of a network model.
//
// PacketSource models the upstream side of an input link: the sender of a credit-flow-
// controlled, wormhole link. It holds one credit counter per VC, starting at the receiver's
// buffer depth, sends at most one flit per cycle, and only on a VC that has a credit; each
// credit the receiver returns (at most one per cycle, tagged with its VC) adds one back.
// It injects one packet at a time, all its flits in order on the packet's VC.
//
// PacketSink models the downstream side of an output link: an endpoint with one buffer of
// buf_depth flits per VC. A flit that arrives is stored; a drained flit frees its slot and
// returns one credit for its VC on the next cycle's credit wires (at most one per cycle, as the
// router expects). A stalled sink drains nothing, so its credits run out and back-pressure
// builds up into the network; a drain probability below 1 makes it slow at random (seeded).
// A flit that arrives on a VC whose buffer is full means the model broke credit flow control:
// accept() reports it and the bench fails.
//
// ProgressWatchdog turns "no flit moved on any external port for N cycles while packets are
// outstanding" into a deadlock verdict.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "bench_scoreboard.h"
#include "fifo.h"
#include "hx_flit.h"
#include "rng.h"
#include "watchdog.h"

namespace hx {

constexpr unsigned kMaxVcs = 4;

class PacketSource {
 public:
  PacketSource(unsigned port, unsigned num_vcs, unsigned buf_depth, std::size_t queue_capacity);

  /// Back to the state after reset: all credits, nothing queued, nothing in progress.
  void reset();

  /// Queue packet `id` (from the scoreboard); false when the queue is full.
  bool enqueue(uint32_t id) { return queue_.push(id); }

  /// Drive phase: the flit to put on the link this cycle, if any (consumes a credit and tells
  /// the scoreboard). `cycle` is the cycle the flit is on the input wires.
  bool next_flit(Scoreboard& sb, uint64_t cycle, Flit& out);

  /// A credit came back for `vc`; false if it overflows the counter (a receiver bug).
  bool on_credit(unsigned vc);

  /// A paused source sends nothing (its queue and credits are kept).
  void set_paused(bool paused) { paused_ = paused; }
  bool paused() const { return paused_; }

  unsigned port() const { return port_; }
  unsigned credits(unsigned vc) const { return credits_[vc]; }
  unsigned buf_depth() const { return buf_depth_; }
  bool credits_full() const;
  std::size_t queued() const { return queue_.size(); }
  bool queue_full() const { return queue_.full(); }
  bool active() const { return current_ != kNoPacket; }
  /// Packet being injected (kNoPacket if none) and the index of its next flit.
  uint32_t current() const { return current_; }
  unsigned current_index() const { return index_; }
  uint32_t queued_at(std::size_t i) const { return queue_.at(i); }
  bool has_work() const { return current_ != kNoPacket || !queue_.empty(); }

  uint64_t flits_sent() const { return flits_sent_; }
  uint64_t credits_received() const { return credits_received_; }

  std::string describe() const;

 private:
  unsigned port_;
  unsigned num_vcs_;
  unsigned buf_depth_;
  Fifo<uint32_t> queue_;
  std::array<unsigned, kMaxVcs> credits_{};
  uint32_t current_ = kNoPacket;
  unsigned index_ = 0;
  unsigned length_ = 0;
  unsigned vc_ = 0;
  bool paused_ = false;
  uint64_t flits_sent_ = 0;
  uint64_t credits_received_ = 0;
};

class PacketSink {
 public:
  PacketSink(unsigned port, unsigned num_vcs, unsigned buf_depth, uint64_t seed);

  void reset();

  /// Sample phase: a flit arrived (already checked by the scoreboard, which attributed it to
  /// `d.packet`/`d.index`). Returns false on a buffer overflow (the flit is then not stored).
  bool accept(const Flit& flit, const Delivery& d);

  /// Drive phase: drain at most one flit (round robin over the VCs that hold one) unless
  /// stalled or unlucky; returns true with the VC whose credit goes back this cycle.
  bool drain(unsigned& vc);

  void set_stalled(bool stalled) { stalled_ = stalled; }
  bool stalled() const { return stalled_; }
  /// Probability of draining in a cycle (1 = always, the default).
  void set_drain_probability(double p) { drain_prob_ = p; }
  double drain_probability() const { return drain_prob_; }

  unsigned port() const { return port_; }
  unsigned occupancy(unsigned vc) const { return static_cast<unsigned>(buffers_[vc].size()); }
  bool empty() const;
  uint64_t flits_received() const { return flits_received_; }
  uint64_t flits_received(unsigned vc) const { return received_vc_[vc]; }
  uint64_t flits_drained() const { return flits_drained_; }
  uint64_t credits_returned() const { return flits_drained_; }

  std::string describe() const;

 private:
  struct Slot {
    uint32_t packet = kNoPacket;
    unsigned index = 0;
  };
  unsigned port_;
  unsigned num_vcs_;
  unsigned buf_depth_;
  std::array<Fifo<Slot>, kMaxVcs> buffers_;
  std::array<uint64_t, kMaxVcs> received_vc_{};
  Rng rng_;
  uint64_t seed_;
  bool stalled_ = false;
  double drain_prob_ = 1.0;
  unsigned rr_ = 0;
  uint64_t flits_received_ = 0;
  uint64_t flits_drained_ = 0;
};

}  // namespace hx
