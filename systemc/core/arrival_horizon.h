// arrival_horizon.h: the last cycle in which anything a component's links carry toward it can
// arrive, so that the component need not poll them in the cycles after it.
//
// Every end of a CreditLink polls its links every cycle (credit_link.h). At light load almost every
// poll finds nothing: on the 8x8 mesh at an offered 0.0001 flits per node and cycle, the planes and
// the accelerators poll 256 local links per cycle, and most cycles carry no flit and no credit
// anywhere; a fat-tree switch polls each of its ports. A horizon lets a component see at once that
// nothing can come: each of its links raises it, when a unit is sent on it in cycle t (the
// component receives) or a credit is returned on it (the component sends), to the cycle that
// arrives in (t + latency + 1, credit_link.h, set_receiver_horizon and set_sender_horizon). In
// every cycle t after the horizon a poll would find nothing, so the component skips its polls, and
// a component that also holds nothing skips the whole cycle. The results are the same, cycle for
// cycle. A link with bit errors takes no horizon: its replays run from its receiver's poll.
//
// Threads. One thread raises a horizon at a time, any thread reads it (relaxed atomics: plain
// moves on x86): a component's links must have their senders on one thread, which holds for each
// component that takes one (an accelerator: its plane or its switch; a plane's local ports: the
// accelerators; a C++ switch: its neighbours, all on the main thread). A reader in cycle t needs
// every raise for an arrival in cycle t, which its writer made in cycle t - latency - 1 or before;
// the step that separates cycles (the clock, the worker pool's barrier, board.h) orders those
// before the read. A raise made in cycle t itself may or may not be seen: either way the reader's
// answer for cycle t is right, since that raise is for a later cycle.
#pragma once

#include <atomic>
#include <cstdint>

namespace hx {

class ArrivalHorizon {
 public:
  /// A flit or a credit for the component was put on one of its links; it arrives in `arrival`.
  void raise(uint64_t arrival) {
    if (arrival > until_.load(std::memory_order_relaxed)) {
      until_.store(arrival, std::memory_order_relaxed);
      if (whole_ != nullptr) whole_->raise(arrival);
    }
  }
  /// This horizon is one part's (a switch port's) of `whole` (the switch's): every raise of it
  /// raises `whole` too, which so stays the latest of its parts. Same writing thread.
  void part_of(ArrivalHorizon* whole) { whole_ = whole; }
  /// Nothing arrives in cycle t on any of the component's links (until the first raise: from cycle 1).
  bool quiet(uint64_t t) const { return t > until_.load(std::memory_order_relaxed); }

 private:
  std::atomic<uint64_t> until_{0};
  ArrivalHorizon* whole_ = nullptr;
};

}  // namespace hx
