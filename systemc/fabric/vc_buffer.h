// vc_buffer.h: the input buffers of one switch port: a FIFO of flits per virtual channel.
//
// Each VC owns `depth` slots, which is what the upstream sender's credit counter for that VC
// starts at; credit flow control therefore guarantees that push() never finds a full VC, and
// push() reports a violation instead of overwriting. Every flit carries the cycle from which it
// may leave (its arrival plus the port's pipeline latency), so one buffer models both storage
// and a fixed pipeline delay. Storage is one vector allocated up front: the per-cycle path
// neither allocates nor searches. The per-VC pointers and counts live in the object itself (at
// most kMaxVcs VCs, as many as a flit link's credits carry: the C++ switches are not limited to
// the RTL router's 2-bit VC field), so a port's bookkeeping is one cache line rather than three
// heap blocks.
#pragma once

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "credit_link.h"
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
  unsigned size(unsigned vc) const { return count_[vc]; }
  bool empty(unsigned vc) const { return count_[vc] == 0; }
  bool full(unsigned vc) const { return count_[vc] == depth_; }
  /// Flits held over all VCs.
  unsigned total() const { return total_; }

  /// Append a flit to its VC; false (and nothing stored) when that VC is full.
  bool push(const Flit& f, uint64_t ready) {
    const unsigned vc = f.vc;
    if (vc >= vcs_ || count_[vc] == depth_) return false;
    unsigned slot = head_[vc] + count_[vc];
    if (slot >= depth_) slot -= depth_;
    Entry& e = slots_[static_cast<std::size_t>(vc) * depth_ + slot];
    e.flit = f;
    e.ready = ready;
    ++count_[vc];
    ++total_;
    return true;
  }

  /// The oldest flit of a non-empty VC.
  const Entry& front(unsigned vc) const { return slots_[static_cast<std::size_t>(vc) * depth_ + head_[vc]]; }

  void pop(unsigned vc) {
    if (++head_[vc] == depth_) head_[vc] = 0;
    --count_[vc];
    --total_;
  }

 private:
  unsigned depth_, vcs_;
  unsigned total_ = 0;
  std::array<uint16_t, kMaxVcs> head_{}, count_{};
  std::vector<Entry> slots_;
};

}  // namespace hx
