// endpoint.h: the one endpoint interface, which both network models' endpoints implement: the
// fabric's accelerators (endpoint/accelerator_array.h with endpoint/collective_engine.h) and the
// NVSwitch GPUs (nvswitch/nv_gpu.h).
//
// An endpoint is two parts, as in hardware:
//   - its network interface (Nic): the ports into the network (an accelerator's lanes into its
//     router, a GPU's links, one per plane), each with its queues, under its link's credits; it
//     checks every packet it receives on the scoreboard (a packet's record is made when it is
//     made: by the GPU's NIC as it is injected, by the fabric's DMA engine or synthetic source);
//   - its DMA engine (Dma): what moves data between memory and packets and runs the endpoint's
//     work (a collective, a traffic pattern), with its memory behind it.
// They meet in three calls, whatever the model:
//   inject  DMA -> NIC  queue a packet on a port; the NIC sends it when the link's credits allow
//   eject   NIC -> DMA  a packet has arrived at a port (on the flit-by-flit fabric: each flit of
//                       it, whose payload the DMA writes straight to memory): the NIC has taken
//                       it off the link, returned its credits and checked it on the scoreboard
//   sent    NIC -> DMA  a packet has left a port: its buffer may be reused
// and the DMA engine's run control (DmaControl), which a system's run loop asks: start, done,
// how far, what is left.
//
// What a port moves is the model's own unit: a descriptor of a packet whose body flits the NIC
// reads from the DMA's buffer as it sends them (the fabric, flit by flit), or a whole Packet
// (core/packet.h; the NVSwitch model moves packets as a unit). So Nic and Dma are templates on
// it; DmaControl is one class for both.
//
// Calls through these interfaces are per packet or per flit; the per-cycle loops stay inside the
// NIC (accelerator_array.cpp, nv_gpu_nic.cpp). Where a NIC reads its DMA engine every cycle (the
// fabric's body flits and cache hints), it reads the memory the engine's base holds (FlitDma,
// accelerator_array.h), without a call.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace hx {

/// A DMA engine's run control: what a system's run loop asks of it.
class DmaControl {
 public:
  virtual ~DmaControl() = default;
  /// The run starts at cycle t: the engine may inject from now on.
  virtual void start(uint64_t t) = 0;
  /// Its work is complete (every result in memory and checked).
  virtual bool done() const = 0;
  /// The share of its work done, 0..1, for progress lines.
  virtual double fraction_done() const = 0;
  /// What is left, in words, for timeout and deadlock reports.
  virtual std::string progress() const = 0;
};

/// A DMA engine as its NIC sees it. Arrival: what a port delivers; Sent: what the NIC reports as
/// gone.
template <class Arrival, class Sent>
class Dma : public DmaControl {
 public:
  /// eject: `a` arrived at `port` of `endpoint` in cycle t.
  virtual void eject(unsigned endpoint, unsigned port, Arrival& a, uint64_t t) = 0;
  /// sent: `s` has left `port` of `endpoint` in cycle t.
  virtual void sent(unsigned endpoint, unsigned port, const Sent& s, uint64_t t) = 0;
};

/// A NIC as its DMA engine sees it: the network ports of one or more endpoints.
template <class Out>
class Nic {
 public:
  virtual ~Nic() = default;
  /// Ports per endpoint: lanes, or links.
  virtual unsigned ports() const = 0;
  /// inject: queue `p` on `port` of `endpoint`, in its queue `queue` (a DMA queue of the lane, or
  /// the packet's VC).
  virtual void inject(unsigned endpoint, unsigned port, unsigned queue, Out&& p) = 0;
  /// Packets waiting in `queue` of `port` of `endpoint` for the link: what a DMA engine that
  /// keeps only a few packets ahead of its links watches.
  virtual std::size_t backlog(unsigned endpoint, unsigned port, unsigned queue) const = 0;
};

}  // namespace hx
