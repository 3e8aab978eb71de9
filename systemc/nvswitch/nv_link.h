// nv_link.h: the sending end of a fabric link, shared by switch output ports and GPU links.
//
// A link moves `rate` 16-B flits per cycle: 1 at the fabric clock's own bandwidth (25 GB/s), and
// any other positive rate for links of another bandwidth (topology.trunk_bandwidth), so links of
// different speeds coexist in one system. A packet of n flits holds the link for n / rate cycles;
// on a busy link the fraction of a cycle carries over to the next packet, so a link of rate 2
// sends two 9-flit packets in 9 cycles. The next hop sees the packet's head `latency` cycles after
// it starts; on a link slower than one flit per cycle, as late as a full-rate packet whose tail
// arrives with this one's, so that no faster link downstream forwards data that has not arrived
// yet (packets move whole: virtual cut-through at packet granularity). The sender keeps one queue
// per VC, bounded in flits, and credits for the receiver's input buffer of that VC. Flow control is
// virtual cut-through (IV-E2): a packet starts only when the receiver has room for all of it, and
// then holds the link for n / rate cycles. The VCs take turns packet by packet.
// The receiver returns the credits when the packet leaves its buffer; they arrive one link latency
// later.
#pragma once

#include <cmath>
#include <cstdint>
#include <deque>

#include "nv_packet.h"
#include "round_robin.h"

namespace hx::nv {

/// What a link delivers into: a switch input port or a GPU.
class PacketSink {
 public:
  virtual ~PacketSink() = default;
  /// The packet's head reaches input `port` at cycle `head_time`.
  virtual void accept(unsigned port, Packet&& pkt, uint64_t head_time) = 0;
};

class LinkTx {
 public:
  /// queue_flits: each VC queue's capacity. credits: the receiver's buffer per VC, in flits.
  /// rate: flits per cycle (> 0).
  void connect(PacketSink* sink, unsigned sink_port, unsigned latency, unsigned queue_flits, unsigned credits,
               double rate = 1.0) {
    sink_ = sink;
    sink_port_ = sink_port;
    latency_ = latency;
    capacity_ = queue_flits;
    rate_ = rate;
    for (unsigned v = 0; v < kVcs; ++v) credits_[v] = credits;
  }
  double rate() const { return rate_; }
  bool connected() const { return sink_ != nullptr; }
  unsigned latency() const { return latency_; }

  bool can_accept(unsigned vc, unsigned flits) const { return queued_[vc] + flits <= capacity_; }
  void push(Packet&& p) {
    const unsigned vc = p.vc();
    queued_[vc] += p.flits();
    queue_[vc].push_back(std::move(p));
  }
  /// The receiver freed `flits` of VC `vc` at cycle `now`.
  void return_credits(uint64_t now, unsigned vc, unsigned flits) { returns_.push_back({now + latency_, vc, flits}); }

  bool idle() const { return queue_[0].empty() && queue_[1].empty() && returns_.empty(); }
  size_t queued_packets(unsigned vc) const { return queue_[vc].size(); }
  /// Cycles the link was busy sending: flits sent / rate.
  double busy_cycles() const { return static_cast<double>(flits_sent_) / rate_; }
  uint64_t flits_sent() const { return flits_sent_; }

  /// One cycle: take the credits that have arrived; if the link is free, start the next packet.
  void step(uint64_t now) {
    while (!returns_.empty() && returns_.front().at <= now) {
      credits_[returns_.front().vc] += returns_.front().flits;
      returns_.pop_front();
    }
    if (static_cast<double>(now) < free_at_) return;
    // The VCs take turns, packet by packet, among those whose next packet fits the receiver.
    const int pick =
        next_vc_.pick([&](unsigned v) { return !queue_[v].empty() && credits_[v] >= queue_[v].front().flits(); });
    if (pick >= 0) {
      const unsigned vc = static_cast<unsigned>(pick);
      const unsigned flits = queue_[vc].front().flits();
      credits_[vc] -= flits;
      queued_[vc] -= flits;
      const double hold = flits / rate_;  // cycles on the wire
      // Back to back: start where the last packet ended, even within the last cycle.
      const double start = free_at_ > static_cast<double>(now) - 1.0 ? free_at_ : static_cast<double>(now);
      free_at_ = start + hold;
      flits_sent_ += flits;
      next_vc_.grant(vc);
      Packet p = std::move(queue_[vc].front());
      queue_[vc].pop_front();
      // A slow link delays the head so that the tail arrives when it really does.
      const uint64_t late = hold > flits ? static_cast<uint64_t>(std::ceil(hold - flits)) : 0;
      sink_->accept(sink_port_, std::move(p), now + latency_ + late);
    }
  }

 private:
  struct CreditReturn {
    uint64_t at;
    unsigned vc, flits;
  };
  PacketSink* sink_ = nullptr;
  unsigned sink_port_ = 0, latency_ = 1, capacity_ = 0;
  unsigned credits_[kVcs] = {0, 0};
  unsigned queued_[kVcs] = {0, 0};
  std::deque<Packet> queue_[kVcs];
  std::deque<CreditReturn> returns_;
  double free_at_ = 0, rate_ = 1;
  uint64_t flits_sent_ = 0;
  RoundRobin next_vc_{kVcs};
};

}  // namespace hx::nv
