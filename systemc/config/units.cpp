#include "units.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <regex>
#include <utility>
#include <vector>

namespace hx {

UnitError::UnitError(std::string expected, std::string found, std::string hint)
    : std::invalid_argument("expected " + expected + ", found " + found + (hint.empty() ? "" : " (" + hint + ")")),
      expected_(std::move(expected)),
      found_(std::move(found)),
      hint_(std::move(hint)) {}

namespace {

// value = number * mult * 10^exp10. Scaling by an exact power of ten (multiplying for exp10 > 0,
// dividing for exp10 < 0) keeps "1.5 ns" the correctly rounded 1.5e-9.
struct Unit {
  const char* name;
  double mult;
  int exp10;
};

struct Kind {
  const char* noun;     // "a frequency"
  const char* example;  // "'1 GHz'"
  std::vector<Unit> units;
};

const Kind kFrequency{"a frequency", "'1 GHz'", {{"Hz", 1, 0}, {"kHz", 1, 3}, {"MHz", 1, 6}, {"GHz", 1, 9}}};
const Kind kBandwidth{"a bandwidth",
                      "'128 Gb/s'",
                      {{"b/s", 1, 0},
                       {"kb/s", 1, 3},
                       {"Mb/s", 1, 6},
                       {"Gb/s", 1, 9},
                       {"Tb/s", 1, 12},
                       {"B/s", 8, 0},
                       {"kB/s", 8, 3},
                       {"MB/s", 8, 6},
                       {"GB/s", 8, 9},
                       {"TB/s", 8, 12}}};
const Kind kTime{"a time", "'1 ns'", {{"s", 1, 0}, {"ms", 1, -3}, {"us", 1, -6}, {"ns", 1, -9}, {"ps", 1, -12}}};
const Kind kDataSize{"a data size",
                     "'128 bit'",
                     {{"bit", 1, 0},
                      {"bits", 1, 0},
                      {"B", 8, 0},
                      {"kB", 8, 3},
                      {"MB", 8, 6},
                      {"GB", 8, 9},
                      {"KiB", 8.0 * 1024, 0},
                      {"MiB", 8.0 * 1024 * 1024, 0},
                      {"GiB", 8.0 * 1024 * 1024 * 1024, 0}}};
// Arithmetic throughput of a processor (a GPU's peak, e.g. A100's 312 TFLOP/s dense BF16).
const Kind kComputeRate{"a compute rate",
                        "'312 TFLOP/s'",
                        {{"FLOP/s", 1, 0},
                         {"kFLOP/s", 1, 3},
                         {"MFLOP/s", 1, 6},
                         {"GFLOP/s", 1, 9},
                         {"TFLOP/s", 1, 12},
                         {"PFLOP/s", 1, 15}}};
// A physical distance (a CLEX layout's node pitch).
const Kind kLength{"a length", "'0.5 m'", {{"m", 1, 0}, {"cm", 1, -2}, {"mm", 1, -3}}};
// A duration is a time or a cycle count; the cycle units have mult 0 as a marker.
const Kind kDuration{
    "a duration",
    "'1 ns' or '2000 cycles'",
    {{"s", 1, 0}, {"ms", 1, -3}, {"us", 1, -6}, {"ns", 1, -9}, {"ps", 1, -12}, {"cycle", 0, 0}, {"cycles", 0, 0}}};

const Kind* const kAllKinds[] = {&kFrequency, &kBandwidth, &kTime, &kDataSize, &kComputeRate, &kLength};

double pow10(int e) {
  double p = 1;
  for (int i = 0; i < std::abs(e); ++i) p *= 10;
  return p;
}

double scale(double v, const Unit& u) {
  v *= u.mult;
  return u.exp10 >= 0 ? v * pow10(u.exp10) : v / pow10(-u.exp10);
}

std::string quote(const std::string& s) { return "'" + s + "'"; }

std::string unit_list(const Kind& k) {
  std::string s;
  for (const Unit& u : k.units) s += (s.empty() ? "" : ", ") + std::string(u.name);
  return s;
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// Why an unknown unit is unknown: a case slip ("GHZ"), or a unit of another quantity ("Gb/s"
// given as a clock). Both are common and worth naming.
std::string unit_hint(const Kind& k, const std::string& unit) {
  for (const Unit& u : k.units)
    if (lower(u.name) == lower(unit)) return "did you mean '" + std::string(u.name) + "'?";
  for (const Kind* other : kAllKinds) {
    if (other == &k) continue;
    for (const Unit& u : other->units)
      if (unit == u.name) return "'" + unit + "' is " + std::string(other->noun) + " unit";
  }
  return "";
}

struct Parsed {
  double number;  // as written, before scaling
  const Unit* unit;
};

Parsed parse_quantity(const Kind& k, const std::string& text) {
  static const std::regex re(R"(^\s*([+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?)\s*(.*?)\s*$)");
  const std::string example = std::string(k.noun) + " such as " + k.example;
  std::smatch m;
  if (!std::regex_match(text, m, re)) throw UnitError(example, quote(text), "");
  const double number = std::strtod(m[1].str().c_str(), nullptr);
  if (!std::isfinite(number)) throw UnitError(example, quote(text), "the number is too large");
  const std::string unit = m[2].str();
  if (unit.empty()) throw UnitError(example, quote(text), "the unit is missing: one of " + unit_list(k));
  for (const Unit& u : k.units)
    if (unit == u.name) return {number, &u};
  throw UnitError(std::string(k.noun) + " unit: one of " + unit_list(k), quote(text), unit_hint(k, unit));
}

double parse_scaled(const Kind& k, const std::string& text) {
  const Parsed p = parse_quantity(k, text);
  return scale(p.number, *p.unit);
}

// Picks the largest unit (of those listed, in increasing size) that keeps the number >= 1.
std::string format_scaled(double v, const std::vector<Unit>& units) {
  const Unit* best = &units.front();
  for (const Unit& u : units)
    if (std::fabs(v) >= scale(1, u)) best = &u;
  const double n = best->exp10 >= 0 ? v / best->mult / pow10(best->exp10) : v / best->mult * pow10(-best->exp10);
  return format_number(n) + " " + best->name;
}

}  // namespace

double parse_frequency(const std::string& text) { return parse_scaled(kFrequency, text); }
double parse_bandwidth(const std::string& text) { return parse_scaled(kBandwidth, text); }
double parse_time(const std::string& text) { return parse_scaled(kTime, text); }
double parse_data_size(const std::string& text) { return parse_scaled(kDataSize, text); }
double parse_compute_rate(const std::string& text) { return parse_scaled(kComputeRate, text); }
double parse_length(const std::string& text) { return parse_scaled(kLength, text); }

Duration parse_duration(const std::string& text) {
  const Parsed p = parse_quantity(kDuration, text);
  if (p.number < 0) throw UnitError("a duration >= 0 such as " + std::string(kDuration.example), quote(text), "");
  if (p.unit->mult != 0) return Duration::seconds(scale(p.number, *p.unit));
  if (std::floor(p.number) != p.number) throw UnitError("a whole number of cycles", quote(text), "");
  return Duration::cycles(p.number);
}

uint64_t cycles_for(double seconds, double clock_hz) {
  const double x = seconds * clock_hz;
  const double nearest = std::nearbyint(x);
  if (std::fabs(x - nearest) <= 1e-9 * std::max(1.0, std::fabs(x))) return static_cast<uint64_t>(nearest);
  return static_cast<uint64_t>(std::ceil(x));
}

uint64_t Duration::to_cycles(double clock_hz) const {
  return unit == Unit::Cycles ? static_cast<uint64_t>(value) : cycles_for(value, clock_hz);
}

double Duration::to_seconds(double clock_hz) const { return unit == Unit::Cycles ? value / clock_hz : value; }

std::string format_number(double v) {
  char buf[64];
  // Whole numbers print in full: "%g" would turn 50000 into "5e+04".
  if (std::floor(v) == v && std::fabs(v) < 1e16) {
    std::snprintf(buf, sizeof buf, "%.0f", v);
    return buf;
  }
  for (int digits = 1; digits <= 15; ++digits) {
    std::snprintf(buf, sizeof buf, "%.*g", digits, v);
    if (std::strtod(buf, nullptr) == v) return buf;
  }
  return buf;  // 15 digits: drops binary noise such as 1.0000000000000002
}

std::string format_frequency(double hz) { return format_scaled(hz, kFrequency.units); }

std::string format_bandwidth(double bits_per_s) {
  static const std::vector<Unit> bits(kBandwidth.units.begin(), kBandwidth.units.begin() + 5);
  return format_scaled(bits_per_s, bits);
}

std::string format_time(double seconds) {
  // Smallest first, as format_scaled expects.
  static const std::vector<Unit> units(kTime.units.rbegin(), kTime.units.rend());
  if (seconds == 0) return "0 s";
  return format_scaled(seconds, units);
}

std::string format_data_size(double bits) {
  if (std::fabs(bits) < 8000) return format_number(bits) + " bit";
  static const std::vector<Unit> bytes{{"B", 8, 0}, {"kB", 8, 3}, {"MB", 8, 6}, {"GB", 8, 9}};
  return format_scaled(bits, bytes);
}

std::string format_duration(const Duration& d) {
  if (d.unit == Duration::Unit::Seconds) return format_time(d.value);
  return format_number(d.value) + (d.value == 1 ? " cycle" : " cycles");
}

}  // namespace hx
