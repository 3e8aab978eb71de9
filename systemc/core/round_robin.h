// round_robin.h: the one round-robin arbiter of the C++ models, the counterpart of the RTL's
// hx_rr_arbiter: among n requesters, the first eligible one at or after the pointer wins, and a
// grant moves the pointer just past the winner, so a requester waits for at most n - 1 others.
//
// pick() only looks; the caller grants (grant()) when the winner really goes, which may be later
// in the cycle or not at all (a switch input's pick is a request that its output may refuse).
// The eligibility test is a template argument, inlined: the per-cycle path makes no call it does
// not need.
#pragma once

#include <cstdint>

namespace hx {

class RoundRobin {
 public:
  explicit RoundRobin(unsigned n = 1, unsigned start = 0) : n_(n), ptr_(n ? start % n : 0) {}

  unsigned size() const { return n_; }
  /// The requester served first at the next pick.
  unsigned pointer() const { return ptr_; }

  /// The first requester i, from the pointer on and wrapping round, for which eligible(i) is
  /// true; -1 if none. eligible is called in that order and not after the first true.
  template <class Eligible>
  int pick(Eligible&& eligible) const {
    for (unsigned k = 0; k < n_; ++k) {
      const unsigned i = ptr_ + k < n_ ? ptr_ + k : ptr_ + k - n_;
      if (eligible(i)) return static_cast<int>(i);
    }
    return -1;
  }
  /// `winner` was served: it goes last next time.
  void grant(unsigned winner) { ptr_ = winner + 1 < n_ ? winner + 1 : 0; }
  /// Rotate by one whoever was served (an order that changes every cycle).
  void rotate() { ptr_ = ptr_ + 1 < n_ ? ptr_ + 1 : 0; }
  /// How many requesters come before `i` in the next pick's order (0 for the pointer's).
  unsigned distance(unsigned i) const { return i >= ptr_ ? i - ptr_ : i + n_ - ptr_; }

 private:
  uint32_t n_, ptr_;
};

}  // namespace hx
