// progress_line.h: the one progress report of a long run, for every network model.
//
// Nothing for the first 2 s (short runs stay quiet). Then, on a terminal, one line rewritten in
// place every 0.5 s; elsewhere (a batch job's log) a full line every 30 s, so that a long run
// shows signs of life without flooding the log. A line says the cycle, what the run is doing,
// the packets in the network, the simulation rate, the seconds since the start and, when the model knows how far it is
// (fraction > 0), the estimated time left. `hxsim --quiet` turns it off.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>

namespace hx {

enum class ProgressMode : uint8_t { Off, Terminal, Log };

class ProgressLine {
 public:
  explicit ProgressLine(ProgressMode mode) : mode_(mode), t0_(Clock::now()), last_(t0_) {}

  /// Called often (every chunk of cycles); prints when it is time. `fraction` of the run done
  /// (0: unknown), `what` the model's words for its state.
  void update(uint64_t cycle, double fraction, uint64_t in_flight, const std::string& what) {
    if (mode_ == ProgressMode::Off) return;
    const auto now = Clock::now();
    const double elapsed = seconds(now - t0_);
    if (elapsed < 2.0 || seconds(now - last_) < (mode_ == ProgressMode::Terminal ? 0.5 : 30.0)) return;
    last_ = now;
    char left[48] = "";
    if (fraction > 0 && fraction < 1)
      std::snprintf(left, sizeof left, ", about %.0f s left", elapsed * (1 - fraction) / fraction);
    std::fprintf(stderr, "%s  cycle %llu  %s  %llu packets in flight  %s cycles/s  %.0f s%s%s",
                 mode_ == ProgressMode::Terminal ? "\r" : "", static_cast<unsigned long long>(cycle), what.c_str(),
                 static_cast<unsigned long long>(in_flight), rate(static_cast<double>(cycle) / elapsed).c_str(),
                 elapsed, left, mode_ == ProgressMode::Terminal ? "   " : "\n");
    std::fflush(stderr);
    shown_ = true;
  }

  /// Clears a terminal's line at the end of the run.
  void finish() {
    if (shown_ && mode_ == ProgressMode::Terminal) std::fprintf(stderr, "\r%120s\r", "");
    shown_ = false;
  }

 private:
  using Clock = std::chrono::steady_clock;
  static double seconds(Clock::duration d) { return std::chrono::duration<double>(d).count(); }
  // A 1,024-accelerator run on RTL boards makes about a hundred cycles a second, a small switch
  // system millions: three digits in the unit that fits.
  static std::string rate(double r) {
    char s[32];
    if (r >= 1e6) {
      std::snprintf(s, sizeof s, "%.2f M", r / 1e6);
    } else if (r >= 1e3) {
      std::snprintf(s, sizeof s, "%.1f k", r / 1e3);
    } else {
      std::snprintf(s, sizeof s, "%.0f", r);
    }
    return s;
  }

  ProgressMode mode_;
  Clock::time_point t0_, last_;
  bool shown_ = false;
};

}  // namespace hx
