// arrival_horizon.h: the last cycle in which anything a group of links carries toward one
// component can arrive, so that the component need not poll those links in the cycles after it.
//
// Every end of a CreditLink polls its links every cycle (credit_link.h). At light load almost every
// poll finds nothing: on the 8x8 mesh at an offered 0.0001 flits per node and cycle, the planes and
// the accelerators poll 256 local links per cycle, and most cycles carry no flit and no credit
// anywhere. A horizon lets a group of links say so at once: each sender into the group, when it
// puts a flit or a credit on one of them in cycle t, raises the horizon to the cycle it arrives in
// (t + latency + 1, credit_link.h); the receiver skips the group's polls in every cycle t after the
// horizon, where a poll would find nothing. The results are the same, cycle for cycle.
//
// Threads. One thread raises a horizon at a time, any thread reads it (relaxed atomics: plain
// moves on x86). A reader in cycle t needs every raise for an arrival in cycle t, which its writer
// made in cycle t - latency - 1 or before; the step that separates cycles (the clock, the worker
// pool's barrier, board.h) orders those before the read. A raise made in cycle t itself may or may
// not be seen: either way the reader's answer for cycle t is right, since that raise is for a
// later cycle.
#pragma once

#include <atomic>
#include <cstdint>

namespace hx {

class ArrivalHorizon {
 public:
  /// A sender put a flit or a credit on a link of the group that arrives in cycle `arrival`.
  void raise(uint64_t arrival) {
    if (arrival > until_.load(std::memory_order_relaxed)) until_.store(arrival, std::memory_order_relaxed);
  }
  /// Nothing arrives in cycle t on any link of the group (true until the first raise, from cycle 1).
  bool quiet(uint64_t t) const { return t > until_.load(std::memory_order_relaxed); }

 private:
  std::atomic<uint64_t> until_{0};
};

}  // namespace hx
