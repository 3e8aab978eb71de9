// nv_link.h: the sending end of a fabric link, shared by switch output ports and GPU links.
//
// A link moves one 16-B flit per cycle (25 GB/s at the fabric clock). The sender keeps one queue
// per VC, bounded in flits, and credits for the receiver's input buffer of that VC. Flow control is
// virtual cut-through (IV-E2): a packet starts only when the receiver has room for all of it, and
// then holds the link for as many cycles as it has flits. The VCs take turns packet by packet.
// The receiver returns the credits when the packet leaves its buffer; they arrive one link latency
// later.
#pragma once

#include <cstdint>
#include <deque>

#include "nv_packet.h"

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
  void connect(PacketSink* sink, unsigned sink_port, unsigned latency, unsigned queue_flits, unsigned credits) {
    sink_ = sink;
    sink_port_ = sink_port;
    latency_ = latency;
    capacity_ = queue_flits;
    for (unsigned v = 0; v < kVcs; ++v) credits_[v] = credits;
  }
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
  uint64_t busy_cycles() const { return busy_cycles_; }

  /// One cycle: take the credits that have arrived; if the link is free, start the next packet.
  void step(uint64_t now) {
    while (!returns_.empty() && returns_.front().at <= now) {
      credits_[returns_.front().vc] += returns_.front().flits;
      returns_.pop_front();
    }
    if (now < free_at_) return;
    for (unsigned i = 0; i < kVcs; ++i) {
      const unsigned vc = (next_vc_ + i) % kVcs;
      if (queue_[vc].empty()) continue;
      const unsigned flits = queue_[vc].front().flits();
      if (credits_[vc] < flits) continue;
      credits_[vc] -= flits;
      queued_[vc] -= flits;
      free_at_ = now + flits;
      busy_cycles_ += flits;
      next_vc_ = (vc + 1) % kVcs;
      Packet p = std::move(queue_[vc].front());
      queue_[vc].pop_front();
      sink_->accept(sink_port_, std::move(p), now + latency_);
      return;
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
  uint64_t free_at_ = 0, busy_cycles_ = 0;
  unsigned next_vc_ = 0;
};

}  // namespace hx::nv
