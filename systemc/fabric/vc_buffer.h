// vc_buffer.h: the input buffers of one switch port: a FIFO of flits per virtual channel.
//
// Each VC owns `depth` slots, which is what the upstream sender's credit counter for that VC
// starts at; credit flow control therefore guarantees that push() never finds a full VC, and
// push() reports a violation instead of overwriting. Every flit carries the cycle from which it
// may leave (its arrival plus the port's pipeline latency), so one buffer models both storage
// and a fixed pipeline delay.
//
// The queues are core/fifo.h's FIFO: one Ring (head and count, the ring logic every FIFO of
// hxsim shares) per VC, over that VC's `depth`-slot slice of one vector allocated up front, so
// the per-cycle path neither allocates nor searches. The rings live in the object itself, 16-bit
// indices sharing the one depth (at most kMaxVcs VCs, as many as a flit link's credits carry:
// the C++ switches are not limited to the RTL router's 2-bit VC field), so a port's bookkeeping
// is one cache line rather than a heap block per VC.
#pragma once

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "credit_link.h"
#include "fifo.h"
#include "hx_flit.h"

namespace hx {

class VcBuffer {
 public:
  struct Entry {
    Flit flit;
    uint64_t ready = 0;  ///< first cycle in which the flit may leave
  };

  static constexpr unsigned kMaxVcs = CreditLink<Flit>::kMaxVcs;

  VcBuffer(unsigned vcs, unsigned depth) : depth_(depth), vcs_(vcs), slots_(static_cast<std::size_t>(vcs) * depth) {
    if (vcs > kMaxVcs) throw std::invalid_argument("VcBuffer: at most " + std::to_string(kMaxVcs) + " VCs");
    if (depth > UINT16_MAX) throw std::invalid_argument("VcBuffer: at most 65535 flits per VC");
  }

  unsigned vcs() const { return vcs_; }
  unsigned depth() const { return depth_; }
  unsigned size(unsigned vc) const { return ring_[vc].count; }
  bool empty(unsigned vc) const { return ring_[vc].empty(); }
  bool full(unsigned vc) const { return ring_[vc].full(depth_); }
  /// Flits held over all VCs.
  unsigned total() const { return total_; }

  /// Append a flit to its VC; false (and nothing stored) when that VC is full or does not exist.
  bool push(const Flit& f, uint64_t ready) {
    const unsigned vc = f.vc;
    if (vc >= vcs_ || ring_[vc].full(depth_)) return false;
    Entry& e = slots_[base(vc) + ring_[vc].push(depth_)];
    e.flit = f;
    e.ready = ready;
    ++total_;
    return true;
  }

  /// The oldest flit of a non-empty VC.
  const Entry& front(unsigned vc) const { return slots_[base(vc) + ring_[vc].head]; }
  /// Flit i of a VC counted from its front (0 = front; i < size(vc)).
  const Entry& at(unsigned vc, unsigned i) const { return slots_[base(vc) + ring_[vc].slot(i, depth_)]; }

  void pop(unsigned vc) {
    ring_[vc].pop(depth_);
    --total_;
  }

 private:
  /// First slot of a VC's slice.
  std::size_t base(unsigned vc) const { return static_cast<std::size_t>(vc) * depth_; }

  unsigned depth_, vcs_;
  unsigned total_ = 0;
  std::array<Ring<uint16_t>, kMaxVcs> ring_{};
  std::vector<Entry> slots_;
};

}  // namespace hx
