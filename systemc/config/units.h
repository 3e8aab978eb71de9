// units.h: physical quantities in config files, and their formatting for reports.
//
// A quantity is a number followed by a unit, with optional whitespace between them: "1 GHz",
// "1.5GHz", "128 Gb/s", "16 GB/s", "2 us", "2000 cycles". Units are case-sensitive and use
// decimal prefixes (k = 1e3, M = 1e6, ...), except the binary data sizes KiB/MiB/GiB. B is a
// byte (8 bits), b a bit. The accepted spellings:
//
//   frequency  Hz kHz MHz GHz
//   bandwidth  b/s kb/s Mb/s Gb/s Tb/s B/s kB/s MB/s GB/s TB/s
//   time       s ms us ns ps
//   data size  bit bits B kB MB GB KiB MiB GiB
//   compute    FLOP/s kFLOP/s MFLOP/s GFLOP/s TFLOP/s PFLOP/s
//   length     m cm mm
//   duration   a time, or a whole number of cycles: "cycle" or "cycles"
//
// A bare number is never a quantity: "1" where a frequency is required is an error, because a
// silent default unit is exactly the kind of mistake that costs a week of wrong results.
// The parse functions accept a sign; the caller checks the range its key allows.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

namespace hx {

/// A quantity string that does not parse. The pieces are shaped for a ConfigError:
/// expected() completes "expected ...", found() is the offending text, hint() is an optional
/// suggestion ("did you mean 'GHz'?", "'Gb/s' is a bandwidth unit") or "".
class UnitError : public std::invalid_argument {
 public:
  UnitError(std::string expected, std::string found, std::string hint);
  const std::string& expected() const { return expected_; }
  const std::string& found() const { return found_; }
  const std::string& hint() const { return hint_; }

 private:
  std::string expected_, found_, hint_;
};

/// "1 GHz" -> 1e9 (Hz).
double parse_frequency(const std::string& text);
/// "128 Gb/s" -> 1.28e11, "16 GB/s" -> 1.28e11 (bit/s).
double parse_bandwidth(const std::string& text);
/// "1 ns" -> 1e-9 (s).
double parse_time(const std::string& text);
/// "128 bit" -> 128, "16 B" -> 128, "1 KiB" -> 8192 (bits).
double parse_data_size(const std::string& text);
/// "312 TFLOP/s" -> 3.12e14 (floating-point operations per second).
double parse_compute_rate(const std::string& text);
/// "50 cm" -> 0.5 (m).
double parse_length(const std::string& text);

/// A length of simulated time as the config states it: a whole number of cycles, or seconds
/// (converted to cycles once the clock is known). Never negative.
struct Duration {
  enum class Unit { Cycles, Seconds };
  Unit unit = Unit::Cycles;
  double value = 0;  // cycles (a whole number) or seconds

  static Duration cycles(double n) { return {Unit::Cycles, n}; }
  static Duration seconds(double s) { return {Unit::Seconds, s}; }
  /// Whole cycles at clock_hz: a count of cycles as is, a time rounded up (see cycles_for).
  uint64_t to_cycles(double clock_hz) const;
  /// Seconds at clock_hz: a time as is, cycles times the clock period.
  double to_seconds(double clock_hz) const;
};

/// "2000 cycles" -> Duration::cycles(2000), "2 us" -> Duration::seconds(2e-6).
/// Rejects negative durations and fractional cycle counts.
Duration parse_duration(const std::string& text);

/// Whole cycles needed to cover `seconds` at `clock_hz`: the ceiling, except that a product
/// within 1e-9 (relative) of an integer is that integer. Without the tolerance, 1 ns at 1 GHz
/// (1e-9 * 1e9 in floating point) could round up to 2 cycles.
uint64_t cycles_for(double seconds, double clock_hz);

/// The shortest decimal text (at most 15 significant digits) that reads back as v, so that
/// reports show "0.1" and "1.5", not "0.10000000000000001".
std::string format_number(double v);
/// "1 GHz", "781.25 MHz": the largest prefix that keeps the number >= 1.
std::string format_frequency(double hz);
/// "128 Gb/s": always in bits per second, decimal prefixes.
std::string format_bandwidth(double bits_per_s);
/// "1 ns", "2 us", "0 s".
std::string format_time(double seconds);
/// "128 bit" below 1 kB, else bytes with a decimal prefix ("16 kB").
std::string format_data_size(double bits);
/// "2000 cycles" or a time as format_time.
std::string format_duration(const Duration& d);

}  // namespace hx
