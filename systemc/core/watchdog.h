// watchdog.h: the one deadlock watchdog of hxsim: "no progress for N cycles while work is in
// flight" becomes an error, never a hang. The fabric model's run control (AcceleratorArray), the
// NVSwitch model (NvSystem, which looks every few thousand cycles) and the RTL test benches
// (LinkBench) all count with it; each names where the stuck packets sit in its own report.
#pragma once

#include <cstdint>

namespace hx {

class ProgressWatchdog {
 public:
  explicit ProgressWatchdog(uint64_t limit = 0) : limit_(limit) {}
  void set_limit(uint64_t limit) { limit_ = limit; }
  uint64_t limit() const { return limit_; }

  /// `cycles` more cycles passed. `progressed`: something moved in them (the idle count starts
  /// again); `outstanding`: work is in flight (without it nothing can be stuck). True when work
  /// is outstanding and nothing has moved for `limit` cycles; a limit of 0 never fires.
  bool advance(uint64_t cycles, bool progressed, bool outstanding) {
    if (progressed || !outstanding) {
      idle_ = 0;
      return false;
    }
    idle_ += cycles;
    return limit_ != 0 && idle_ >= limit_;
  }
  /// Something moved in this cycle, before tick() counts it (benches that learn of moves one by
  /// one).
  void progress() { idle_ = 0; }
  /// One cycle passed; moves were reported through progress().
  bool tick(bool outstanding) { return advance(1, false, outstanding); }

  uint64_t idle_cycles() const { return idle_; }
  void reset() { idle_ = 0; }

 private:
  uint64_t limit_;
  uint64_t idle_ = 0;
};

}  // namespace hx
