// verilated_ports.h: bit-slice access to the ports of a Verilated --cc model.
//
// Verilator maps a port of 1-8 bits to CData (uint8_t), 9-16 to SData, 17-32 to IData, 33-64 to
// QData and wider ports to VlWide<N> (N 32-bit words, bit 0 = word 0 bit 0). The RTL flattens its
// per-port vectors (flits, credits, valids) into such ports, port k owning bits
// [k*width, (k+1)*width). These helpers read and write one slice of up to 64 bits whatever the
// C++ type of the port, plus whole flits at flit index k. They allocate nothing and are cheap
// enough for the per-cycle path of a bench.
#pragma once

#include <algorithm>
#include <cassert>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "hx_flit.h"
#include "verilated.h"

class VerilatedFstC;

namespace hx {

namespace detail {
constexpr uint64_t low_mask(unsigned width) { return width >= 64 ? ~uint64_t{0} : ((uint64_t{1} << width) - 1); }
template <class M, class = void>
struct HasFstTrace : std::false_type {};
template <class M>
struct HasFstTrace<M, std::void_t<decltype(std::declval<M&>().trace(static_cast<VerilatedFstC*>(nullptr), 0))>>
    : std::true_type {};
}  // namespace detail

/// Whether the Verilated model M can write FST waveforms (it was Verilated with --trace-fst). The
/// model cache (model_cache.h) builds models without tracing unless a run writes a waveform:
/// the tracing code is half of a model's C++.
template <class M>
inline constexpr bool kHasFstTrace = detail::HasFstTrace<M>::value;

// lower_clock's fast path needs the model's root class complete: the model's __Syms.h included,
// as every file that builds a VerilatedPlane includes it (plane_registry.cpp, the model cache's
// wrappers). Where it is not, lower_clock evaluates. So the answer may differ between files, and
// these live in an unnamed namespace: each file has its own, and no two disagree at link time.
namespace {
template <class R, class = void>
struct HasClockHistory : std::false_type {};
template <class R>
struct HasClockHistory<R, std::void_t<decltype(std::declval<R&>().__Vtrigrprev__TOP__clk_i)>> : std::true_type {};

/// Whether lower_clock() can lower M's clk_i without an evaluation (see there).
template <class M>
inline constexpr bool kLowersClockUnevaluated =
    HasClockHistory<std::remove_pointer_t<decltype(std::declval<M&>().rootp)>>::value;

/// The falling edge of a model clocked on the rising edge of clk_i: clk_i = 0 and what an
/// eval() would do then, without the evaluation where that is exact.
///
/// A Verilated model (5.x) detects an edge by comparing clk_i with the value it saw at its last
/// evaluation (`__Vtrigrprev__TOP__clk_i` in 5.006). A falling-edge eval() runs no process of an
/// RTL with none sensitive to a falling clock (the router's and the plane's are `posedge clk_i`
/// and an asynchronous `negedge rst_ni`); it only re-runs the input-combinational region, which
/// the next eval() runs again, with the inputs of then, before any clocked process reads it. So
/// where the model shows that record, this clears it instead of evaluating: half the
/// evaluations of a cycle, with the same value in every register and output at the next rising
/// edge (the golden test runs with it). Where a Verilator version keeps it under another name,
/// it evaluates as before.
///
/// Conditions: no falling-edge or clock-gated logic in the RTL, rst_ni unchanged since the last
/// eval(), and nothing reads an output that depends combinationally on an input before the next
/// eval() (the router's and the plane's outputs are registered).
template <class M>
inline void lower_clock(M& m) {
  m.clk_i = 0;
  if constexpr (kLowersClockUnevaluated<M>) {
    m.rootp->__Vtrigrprev__TOP__clk_i = 0;
  } else {
    m.eval();
  }
}
}  // namespace

/// Number of bits the C++ object behind a port can hold.
template <class T, std::enable_if_t<std::is_integral_v<T>, int> = 0>
constexpr unsigned port_capacity_bits(const T&) {
  return 8 * sizeof(T);
}
template <std::size_t N>
constexpr unsigned port_capacity_bits(const VlWide<N>&) {
  return 32 * N;
}

/// Bits [lsb, lsb+width) of an integral port (width 1..64).
template <class T, std::enable_if_t<std::is_integral_v<T>, int> = 0>
inline uint64_t get_bits(const T& port, unsigned lsb, unsigned width) {
  assert(width >= 1 && width <= 64 && lsb + width <= 8 * sizeof(T));
  return (static_cast<uint64_t>(port) >> lsb) & detail::low_mask(width);
}

/// Bits [lsb, lsb+width) of a wide port (width 1..64).
template <std::size_t N>
inline uint64_t get_bits(const VlWide<N>& port, unsigned lsb, unsigned width) {
  assert(width >= 1 && width <= 64 && lsb + width <= 32 * N);
  uint64_t v = 0;
  unsigned got = 0;
  while (got < width) {
    const unsigned bit = lsb + got;
    const unsigned w = bit / 32;
    const unsigned b = bit % 32;
    const unsigned take = (32 - b) < (width - got) ? (32 - b) : (width - got);
    const uint64_t chunk = (static_cast<uint64_t>(port.m_storage[w]) >> b) & detail::low_mask(take);
    v |= chunk << got;
    got += take;
  }
  return v;
}

/// Set bits [lsb, lsb+width) of an integral port to `value` (width 1..64).
template <class T, std::enable_if_t<std::is_integral_v<T>, int> = 0>
inline void set_bits(T& port, unsigned lsb, unsigned width, uint64_t value) {
  assert(width >= 1 && width <= 64 && lsb + width <= 8 * sizeof(T));
  const uint64_t mask = detail::low_mask(width) << lsb;
  const uint64_t cur = static_cast<uint64_t>(port);
  port = static_cast<T>((cur & ~mask) | ((value << lsb) & mask));
}

/// Set bits [lsb, lsb+width) of a wide port to `value` (width 1..64).
template <std::size_t N>
inline void set_bits(VlWide<N>& port, unsigned lsb, unsigned width, uint64_t value) {
  assert(width >= 1 && width <= 64 && lsb + width <= 32 * N);
  unsigned done = 0;
  while (done < width) {
    const unsigned bit = lsb + done;
    const unsigned w = bit / 32;
    const unsigned b = bit % 32;
    const unsigned take = (32 - b) < (width - done) ? (32 - b) : (width - done);
    const uint32_t mask = static_cast<uint32_t>(detail::low_mask(take) << b);
    const uint32_t chunk = static_cast<uint32_t>(((value >> done) & detail::low_mask(take)) << b);
    port.m_storage[w] = (port.m_storage[w] & ~mask) | chunk;
    done += take;
  }
}

namespace detail {
/// Bits [from, from+32) of a flat word (bit 0 = word 0 bit 0); zero where `from` is negative.
inline uint32_t bits32(const LinkWord& v, int from) {
  if (from <= -32) return 0;
  if (from < 0) return static_cast<uint32_t>(v[0] << -from);
  const unsigned w = static_cast<unsigned>(from) / 64, b = static_cast<unsigned>(from) % 64;
  uint64_t x = w < v.size() ? v[w] >> b : 0;
  if (b > 32 && w + 1 < v.size()) x |= v[w + 1] << (64 - b);
  return static_cast<uint32_t>(x);
}
}  // namespace detail

/// A whole flit of a wide flit vector port at once: the 32-bit words it covers, each written
/// (read) once, instead of four field-by-field slices (the per-cycle path of the board planes).
template <std::size_t N>
inline void set_flit(VlWide<N>& port, unsigned index, const FlitFormat& fmt, const Flit& f) {
  const LinkWord v = f.pack(fmt);
  const unsigned width = fmt.flit_width(), lsb = index * width;
  const unsigned first = lsb / 32, last = (lsb + width - 1) / 32;
  assert(last < N);
  for (unsigned w = first; w <= last; ++w) {
    const int from = static_cast<int>(32 * w) - static_cast<int>(lsb);  // flit bit at word bit 0
    const unsigned lo = from < 0 ? static_cast<unsigned>(-from) : 0;    // word bits below the flit
    const unsigned hi = std::min(32u, lsb + width - 32 * w);            // ... and from its end
    const uint32_t mask = static_cast<uint32_t>(detail::low_mask(hi) & ~detail::low_mask(lo));
    port.m_storage[w] = (port.m_storage[w] & ~mask) | (detail::bits32(v, from) & mask);
  }
}

template <std::size_t N>
inline Flit get_flit(const VlWide<N>& port, unsigned index, const FlitFormat& fmt) {
  const unsigned width = fmt.flit_width(), lsb = index * width;
  const unsigned first = lsb / 32, b = lsb % 32;
  assert((lsb + width - 1) / 32 < N);
  // Gather the words from `first` on into 64-bit words shifted down by b, then cut at `width`.
  LinkWord v{};
  for (unsigned k = 0; k < v.size() * 2; ++k) {
    const unsigned w = first + k;
    if (32 * k >= width + b || w >= N) break;
    const uint64_t word = port.m_storage[w];
    const int at = static_cast<int>(32 * k) - static_cast<int>(b);  // flit bit of word bit 0
    if (at < 0) {
      v[0] |= word >> -at;
    } else {
      v[at / 64] |= word << (at % 64);
      if (at % 64 > 32 && at / 64 + 1 < static_cast<int>(v.size())) v[at / 64 + 1] |= word >> (64 - at % 64);
    }
  }
  if (width < 192) v[width / 64] &= detail::low_mask(width % 64);
  return Flit::unpack(fmt, v);
}

/// Flit number `index` of a flattened flit vector port ({type, vc, payload} per flit).
template <class P>
inline Flit get_flit(const P& port, unsigned index, const FlitFormat& fmt) {
  const unsigned lsb = index * fmt.flit_width();
  const unsigned pw = fmt.payload_width;
  Flit f;
  f.payload[0] = get_bits(port, lsb, pw < 64 ? pw : 64);
  f.payload[1] = pw > 64 ? get_bits(port, lsb + 64, pw - 64) : 0;
  f.vc = static_cast<unsigned>(get_bits(port, lsb + fmt.vc_lsb(), FlitFormat::kVcWidth));
  f.type = static_cast<FlitType>(get_bits(port, lsb + fmt.type_lsb(), FlitFormat::kTypeWidth));
  return f;
}

/// Write flit number `index` of a flattened flit vector port.
template <class P>
inline void set_flit(P& port, unsigned index, const FlitFormat& fmt, const Flit& f) {
  const unsigned lsb = index * fmt.flit_width();
  const unsigned pw = fmt.payload_width;
  set_bits(port, lsb, pw < 64 ? pw : 64, f.payload[0]);
  if (pw > 64) set_bits(port, lsb + 64, pw - 64, f.payload[1]);
  set_bits(port, lsb + fmt.vc_lsb(), FlitFormat::kVcWidth, f.vc);
  set_bits(port, lsb + fmt.type_lsb(), FlitFormat::kTypeWidth, static_cast<uint64_t>(f.type));
}

}  // namespace hx
