#include "nv_gpu_nic.h"

#include "nv_gpu.h"

namespace hx::nv {

GpuNic::GpuNic(unsigned id, unsigned links, const GpuParams& params, PacketBoard* board)
    : id_(id),
      p_(params),
      board_(board),
      tx_(links),
      in_(links, nullptr),
      pending_(links * kVcs, Fifo<Packet>::growing()),
      rx_(links, Fifo<std::pair<uint64_t, Packet>>::growing()) {}

void GpuNic::inject(unsigned, unsigned port, unsigned queue, Packet&& pkt) {
  track(*board_, pkt, p_.gpus, now_);  // whatever a GPU sends is a new packet
  auto& pend = pending_[port * kVcs + queue];
  if (pend.empty() && tx_[port].can_accept(queue, pkt.flits()))
    tx_[port].push(std::move(pkt));
  else
    pend.push(std::move(pkt));
}

// A packet whose head arrived on link `port`: it is ejected when its tail has arrived too.
void GpuNic::accept(unsigned port, Packet&& pkt, uint64_t head_time) {
  const uint64_t tail = head_time + pkt.flits() - 1;
  if (p_.fault != GpuParams::Fault::None && id_ == p_.fault_gpu && carries_line(kind_of(pkt)) &&
      ++data_packets_in_ == p_.fault_n) {
    if (p_.fault == GpuParams::Fault::Drop) return;
    pkt.body[0][0] ^= 1u << 3;  // one bit of the first element
  }
  rx_[port].push(std::pair<uint64_t, Packet>(tail, std::move(pkt)));
}

void GpuNic::receive(uint64_t now) {
  now_ = now;
  for (unsigned j = 0; j < in_.size(); ++j)
    if (in_[j] != nullptr) in_[j]->receive_all(now, [&](Packet& p) { accept(j, std::move(p), now); });
  for (unsigned j = 0; j < rx_.size(); ++j) {
    auto& q = rx_[j];
    while (!q.empty() && q.front().first <= now) {
      Packet p = std::move(q.front().second);
      q.pop();
      // The scoreboard first: the packet arrives once, here, as it was sent (a push write never
      // ends at a GPU).
      const bool for_me = kind_of(p) != Kind::PushWr && (p.dst == static_cast<NodeId>(id_) ||
                                                         (p.dst == kAllGpus && p.exclude != static_cast<int32_t>(id_)));
      if (ends_here(*board_, p, static_cast<NodeId>(id_), for_me, now)) dma_->eject(id_, j, p, now);
    }
  }
}

void GpuNic::transmit(uint64_t now) {
  for (unsigned j = 0; j < tx_.size(); ++j) {
    for (unsigned v = 0; v < kVcs; ++v) {
      auto& pend = pending_[j * kVcs + v];
      while (!pend.empty() && tx_[j].can_accept(v, pend.front().flits())) {
        tx_[j].push(std::move(pend.front()));
        pend.pop();
      }
    }
    tx_[j].step(now, [&](const Packet& p) { dma_->sent(id_, j, p, now); });
  }
}

bool GpuNic::idle() const {
  for (const auto& q : rx_)
    if (!q.empty()) return false;
  for (const auto& q : pending_)
    if (!q.empty()) return false;
  for (const auto& t : tx_)
    if (!t.idle()) return false;
  return true;
}

uint64_t GpuNic::packets_on_links() const {
  uint64_t n = 0;
  for (const auto& t : tx_) n += t.packets_on_wire();
  return n;
}

}  // namespace hx::nv
