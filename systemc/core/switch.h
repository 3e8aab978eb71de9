// switch.h: the one switch interface, behind which both switch microarchitectures sit:
//   - the fabric model's input-buffered VC switch (fabric/network_switch.h), flit by flit;
//   - the NVSwitch-like output-queued switch with its reduction units (nvswitch/nv_switch.h),
//     packet by packet.
// Both are built from the core's parts (credit_link.h, fifo.h, round_robin.h) and ask their
// routing function the one question of routing.h. What a system needs of a switch, whatever its
// kind: step it once per cycle, know whether it holds anything (the run's end, the watchdog), and
// say what it holds (deadlock reports, held_report below).
//
// Both switch classes are final, and each system keeps its switches by their own type, so the
// per-cycle step is a direct call: the interface serves the code that is the same for every kind.
#pragma once

#include <cstdint>
#include <string>

namespace hx {

class Switch {
 public:
  virtual ~Switch() = default;
  /// Its name in reports ("leaf3", "switch 7").
  virtual std::string name() const = 0;
  virtual unsigned ports() const = 0;
  /// One cycle.
  virtual void step(uint64_t t) = 0;
  /// It holds nothing: no flit or packet buffered, queued, in a reduction table or being sent.
  virtual bool idle() const = 0;
  /// What it holds, one line per place ("  leaf3 in 2 vc 0: 4 flits, ..."), "" when idle.
  virtual std::string describe() const = 0;
};

/// The switches of `switches` (a range of pointers to Switch or its derived classes) that hold
/// something, described for a deadlock report: at most `max_lines` lines, then "  ...".
template <class Range>
std::string held_report(const Range& switches, unsigned max_lines) {
  std::string out;
  unsigned lines = 0;
  for (const auto& p : switches) {
    const Switch& s = *p;
    if (s.idle()) continue;
    if (lines >= max_lines) {
      out += "  ...\n";
      break;
    }
    const std::string d = s.describe();
    out += d;
    for (const char ch : d) lines += ch == '\n';
  }
  return out;
}

}  // namespace hx
