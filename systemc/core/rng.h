// rng.h: the one seeded random number generator of hxsim: traffic sources, UGAL, GPU memory
// jitter and DMA issue order, job mixes and failed boards, and the test benches.
//
// xoshiro256** seeded through splitmix64, with its own integer and probability mappings and its
// own shuffle, so a seed gives the same draws on every platform and standard library
// (std:: distributions and std::shuffle are implementation-defined). Components that draw
// independently (one per endpoint) take their own stream, Rng::stream(seed, id), so that adding
// or reordering components does not shift anyone else's numbers.
#pragma once

#include <cmath>
#include <cstdint>
#include <stdexcept>
#include <utility>

namespace hx {

class Rng {
 public:
  explicit Rng(uint64_t seed = 1) { reseed(seed); }

  /// A generator in a given state (xoshiro256**'s reference test vectors start from {1, 2, 3, 4}).
  static Rng from_state(uint64_t s0, uint64_t s1, uint64_t s2, uint64_t s3) {
    Rng r;
    r.s_[0] = s0;
    r.s_[1] = s1;
    r.s_[2] = s2;
    r.s_[3] = s3;
    return r;
  }

  /// Stream `id` of a run seeded with `seed`: an independent generator per endpoint.
  static Rng stream(uint64_t seed, uint64_t id) {
    uint64_t x = seed ^ 0x6a09e667f3bcc909ull;
    const uint64_t a = splitmix(x);
    x = id ^ 0xbb67ae8584caa73bull;
    return Rng(a ^ splitmix(x));
  }

  void reseed(uint64_t seed) {
    uint64_t x = seed;
    for (auto& s : s_) s = splitmix(x);
  }

  uint64_t next() {
    const uint64_t result = rotl(s_[1] * 5, 7) * 9;
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = rotl(s_[3], 45);
    return result;
  }

  /// Uniform integer in [0, n) (n >= 1), by Lemire's multiply-shift (bias < 2^-32 for small n).
  uint32_t below(uint32_t n) { return static_cast<uint32_t>(((next() >> 32) * static_cast<uint64_t>(n)) >> 32); }

  /// Uniform integer in [0, n) (n >= 1), exactly: draws in the top partial range are rejected.
  /// For draws whose bias would show (large n, or many draws of one distribution).
  uint64_t below_exact(uint64_t n) {
    if (n == 0) throw std::invalid_argument("Rng::below_exact(0)");
    const uint64_t limit = UINT64_MAX - UINT64_MAX % n;
    uint64_t r;
    do {
      r = next();
    } while (r >= limit);
    return r % n;
  }

  /// Fisher-Yates shuffle of [first, last) (random-access iterators), the same on every platform.
  template <class It>
  void shuffle(It first, It last) {
    const auto n = last - first;
    for (decltype(last - first) i = n - 1; i > 0; --i) {
      const auto j = static_cast<decltype(i)>(below_exact(static_cast<uint64_t>(i) + 1));
      std::swap(first[i], first[j]);
    }
  }

  /// Uniform integer in [lo, hi].
  uint32_t range(uint32_t lo, uint32_t hi) { return lo + below(hi - lo + 1); }

  /// Uniform double in [0, 1).
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

  /// True with probability p.
  bool chance(double p) { return p >= 1.0 || (p > 0.0 && uniform() < p); }

  /// A probability prepared once for many trials: chance(odds(p)) makes the same draws and gives
  /// the same answers as chance(p), with an integer compare instead of a conversion to double.
  /// uniform() < p is (next() >> 11) * 2^-53 < p, both sides exact, which is (next() >> 11) <
  /// p * 2^53 and, the left side an integer, (next() >> 11) < ceil(p * 2^53).
  struct Odds {
    uint64_t below = 0;   ///< a draw's top 53 bits below this: true (0: p <= 0, never, no draw)
    bool always = false;  ///< p >= 1: true, no draw
  };
  static Odds odds(double p) {
    Odds o;
    if (p >= 1.0) {
      o.always = true;
    } else if (p > 0.0) {
      o.below = static_cast<uint64_t>(std::ceil(p * 0x1.0p53));
    }
    return o;
  }
  bool chance(const Odds& o) { return o.always || (o.below != 0 && (next() >> 11) < o.below); }

 private:
  static uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  static uint64_t splitmix(uint64_t& x) {
    uint64_t z = (x += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  uint64_t s_[4];
};

}  // namespace hx
