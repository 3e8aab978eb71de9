// nv_link.h: the sending end of a fabric link, shared by switch output ports and GPU links.
//
// A link moves `rate` 16-B flits per cycle: 1 at the fabric clock's own bandwidth (25 GB/s), and
// any other positive rate for links of another bandwidth (topology.trunk_bandwidth), so links of
// different speeds coexist in one system. The wire is core's CreditLink (credit_link.h), carrying
// whole packets: a packet of n flits holds it for n / rate cycles, fractions carry over on a busy
// link (a link of rate 2 sends two 9-flit packets in 9 cycles), and on a link slower than one flit
// per cycle the head arrives as late as a full-rate packet whose tail arrives with this one's
// (packets move whole: virtual cut-through at packet granularity). The receiver (a switch input
// or a GPU) polls the wire every cycle and takes a packet in the cycle its head arrives, `latency`
// cycles after the packet started (plus the late head); `latency` counts the sender's output
// register, so the wire's own delay line is latency - 1 cycles and `latency` is at least 1.
//
// The sender keeps one queue per VC, bounded in flits, and credits for the receiver's input
// buffer of that VC. Flow control is virtual cut-through (IV-E2): a packet starts only when the
// receiver has room for all of it. The VCs take turns packet by packet, and at most one packet
// starts per cycle. The receiver returns a packet's credits, in flits, when it leaves its buffer;
// they arrive one link latency later.
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>

#include "credit_link.h"
#include "fifo.h"
#include "nv_packet.h"
#include "round_robin.h"

namespace hx::nv {

class LinkTx {
 public:
  using Wire = CreditLink<Packet>;

  /// latency: cycles from a packet's start to its head's arrival (>= 1). queue_flits: each VC
  /// queue's capacity. credits: the receiver's buffer per VC, in flits.
  /// errors: the wire's bit errors, recovered by its link-level retry (credit_link.h).
  void connect(std::string name, unsigned latency, unsigned queue_flits, unsigned credits, LinkRate rate = LinkRate{},
               LinkErrors errors = {}) {
    if (latency < 1) throw std::invalid_argument(name + ": a link's latency is at least 1 cycle");
    wire_ = std::make_unique<Wire>(std::move(name), latency - 1, rate, errors);
    capacity_ = queue_flits;
    for (unsigned v = 0; v < kVcs; ++v) {
      credits_[v] = credits;
      queue_[v] = Fifo<Packet>::growing();
    }
  }
  bool connected() const { return wire_ != nullptr; }
  /// What the receiver polls and returns credits on.
  Wire* wire() { return wire_.get(); }
  double rate() const { return wire_->rate(); }
  unsigned latency() const { return wire_->latency() + 1; }

  bool can_accept(unsigned vc, unsigned flits) const { return queued_[vc] + flits <= capacity_; }
  void push(Packet&& p) {
    const unsigned vc = p.vc();
    queued_[vc] += p.flits();
    queue_[vc].push(std::move(p));
  }

  /// Nothing queued, nothing on the wire either way.
  bool idle() const {
    return queue_[0].empty() && queue_[1].empty() &&
           (!wire_ || (wire_->units_on_wire() == 0 && wire_->credits_on_wire() == 0));
  }
  size_t queued_packets(unsigned vc) const { return queue_[vc].size(); }
  /// Packets sent and not yet taken by the receiver.
  uint64_t packets_on_wire() const { return wire_ ? wire_->units_on_wire() : 0; }
  /// Cycles the link was busy sending: flits sent / rate.
  double busy_cycles() const { return wire_ ? wire_->busy_cycles() : 0.0; }
  uint64_t flits_sent() const { return wire_ ? wire_->flits_sent() : 0; }

  /// One cycle: take the credits that have arrived; if the wire is free, start the next packet,
  /// and tell `sent` (a GPU's NIC tells its DMA engine) before it goes.
  void step(uint64_t now) {
    step(now, [](const Packet&) {});
  }
  template <class Sent>
  void step(uint64_t now, Sent&& sent) {
    if (!wire_) return;
    wire_->take_credits(now, [this](unsigned vc, unsigned flits) { credits_[vc] += flits; });
    if (!wire_->can_send(now)) return;
    // The VCs take turns, packet by packet, among those whose next packet fits the receiver.
    const int pick =
        next_vc_.pick([&](unsigned v) { return !queue_[v].empty() && credits_[v] >= queue_[v].front().flits(); });
    if (pick >= 0) {
      const unsigned vc = static_cast<unsigned>(pick);
      const unsigned flits = queue_[vc].front().flits();
      credits_[vc] -= flits;
      queued_[vc] -= flits;
      next_vc_.grant(vc);
      sent(static_cast<const Packet&>(queue_[vc].front()));
      wire_->send(now, std::move(queue_[vc].front()));
      queue_[vc].pop();
    }
  }

 private:
  std::unique_ptr<Wire> wire_;
  unsigned capacity_ = 0;
  unsigned credits_[kVcs] = {0, 0};
  unsigned queued_[kVcs] = {0, 0};
  Fifo<Packet> queue_[kVcs];  // growing: what the sender queues is not bounded here
  RoundRobin next_vc_{kVcs};
};

}  // namespace hx::nv
