// nv_gpu_nic.h: a GPU's network interface in the NVSwitch-like fabric: one link per plane, the
// queues in front of them, and the scoreboard's records and checks. It is the NIC half of the one
// endpoint interface (core/endpoint.h); the GPU's DMA engine (nv_gpu.h) injects into it and gets
// every packet it ejects.
//
// Per cycle: receive() takes what the links brought (a packet waits until its tail has arrived,
// then it is checked on the scoreboard and ejected to the DMA engine); the DMA engine runs and
// injects; transmit() moves waiting packets onto the links as their credits allow and steps them,
// telling the DMA engine of each packet that leaves (sent).
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "endpoint.h"
#include "fifo.h"
#include "nv_link.h"
#include "nv_packet.h"

namespace hx::nv {

struct GpuParams;

class GpuNic final : public Nic<Packet> {
 public:
  /// board: the system's scoreboard, where every packet this NIC sends gets its record and every
  /// packet it receives is checked. params: the GPU count and the fault-injection test hook.
  GpuNic(unsigned id, unsigned links, const GpuParams& params, PacketBoard* board);

  /// The DMA engine that ejected packets go to.
  void attach(Dma<Packet, Packet>* dma) { dma_ = dma; }
  LinkTx& link(unsigned j) { return tx_[j]; }
  const LinkTx& link(unsigned j) const { return tx_[j]; }
  /// The link from the switch on plane j: polled every cycle.
  void set_input(unsigned j, LinkTx::Wire* link) { in_[j] = link; }

  unsigned ports() const override { return static_cast<unsigned>(tx_.size()); }
  /// A packet the GPU sends on link `port` (its line's plane), VC `queue`: a new packet for the
  /// scoreboard. endpoint: this GPU.
  void inject(unsigned endpoint, unsigned port, unsigned queue, Packet&& p) override;
  /// Packets waiting on link `port`, VC `queue`, for room in the link's queue.
  std::size_t backlog(unsigned, unsigned port, unsigned queue) const override {
    return pending_[port * kVcs + queue].size();
  }

  void receive(uint64_t now);
  void transmit(uint64_t now);
  bool idle() const;
  uint64_t packets_on_links() const;

 private:
  void accept(unsigned port, Packet&& pkt, uint64_t head_time);

  unsigned id_;
  const GpuParams& p_;  // the GPU count, the fault hook
  PacketBoard* board_;
  Dma<Packet, Packet>* dma_ = nullptr;
  uint64_t now_ = 0;  // the cycle being handled (for the records of the packets it sends)
  std::vector<LinkTx> tx_;
  std::vector<LinkTx::Wire*> in_;  // per link: from the switch
  // Growing FIFOs (fifo.h): the DMA engine's queues are not sized in hardware terms here.
  std::vector<Fifo<Packet>> pending_;                  // per link and VC: waiting for room in the link queue
  std::vector<Fifo<std::pair<uint64_t, Packet>>> rx_;  // per link: (tail arrival, packet)
  uint64_t data_packets_in_ = 0;                       // for the fault hook
};

}  // namespace hx::nv
