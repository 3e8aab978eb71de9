// fifo_test.cpp: core/fifo.h, the one FIFO: the Ring arithmetic on its own (the slots it hands
// out across the wrap, and a bank of rings sharing one slot array without disturbing each
// other), order across the wrap, a full FIFO refusing, a growing one keeping its order while it
// doubles, against std::deque as the reference.
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <deque>
#include <vector>

#include "fifo.h"
#include "rng.h"

namespace hx {
namespace {

// The slots a ring of capacity 3 hands out: push takes the slot behind the last entry, pop frees
// the front one, and both wrap from 2 to 0.
TEST(Ring, HandsOutSlotsInOrderAcrossTheWrap) {
  Ring<uint16_t> r;
  constexpr std::size_t kCap = 3;
  EXPECT_TRUE(r.empty());
  EXPECT_FALSE(r.full(kCap));
  EXPECT_EQ(r.push(kCap), 0u);
  EXPECT_EQ(r.push(kCap), 1u);
  EXPECT_EQ(r.push(kCap), 2u);
  EXPECT_TRUE(r.full(kCap));
  EXPECT_FALSE(r.empty());
  r.pop(kCap);
  EXPECT_EQ(r.head, 1u);
  EXPECT_EQ(r.push(kCap), 0u);  // wraps
  EXPECT_EQ(r.slot(0, kCap), 1u);
  EXPECT_EQ(r.slot(1, kCap), 2u);
  EXPECT_EQ(r.slot(2, kCap), 0u);
  r.pop(kCap);
  r.pop(kCap);
  EXPECT_EQ(r.head, 0u);  // wrapped
  EXPECT_EQ(r.count, 1u);
  r.pop(kCap);
  EXPECT_TRUE(r.empty());
  EXPECT_EQ(r.head, 1u);  // emptying does not move the head back
  // Many laps: the slot handed out always follows the previous one, modulo the capacity.
  std::size_t want = 1;
  for (int i = 0; i < 100; ++i) {
    EXPECT_EQ(r.push(kCap), want);
    want = (want + 1) % kCap;
    if (i % 2 == 1) r.pop(kCap);
    if (r.full(kCap)) r.pop(kCap);
  }
  r.clear();
  EXPECT_TRUE(r.empty());
  EXPECT_EQ(r.head, 0u);
}

// Capacity 1: every push and pop wraps.
TEST(Ring, CapacityOneWrapsOnEveryOperation) {
  Ring<std::size_t> r;
  for (int i = 0; i < 5; ++i) {
    EXPECT_EQ(r.push(1), 0u);
    EXPECT_TRUE(r.full(1));
    r.pop(1);
    EXPECT_TRUE(r.empty());
    EXPECT_EQ(r.head, 0u);
  }
}

// A bank of rings over one slot array, each owning a slice (what fabric/vc_buffer.h does per
// VC): random pushes and pops on every ring match one deque per ring, full rings refuse, and
// no ring writes into or reads from another's slice.
TEST(Ring, BankOverOneArrayKeepsEachRingToItsSlice) {
  constexpr std::size_t kRings = 4, kCap = 5;
  std::vector<uint64_t> slots(kRings * kCap, 0);
  std::array<Ring<uint16_t>, kRings> bank{};
  std::array<std::deque<uint64_t>, kRings> ref;
  Rng rng(11);
  uint64_t next = 1;
  int refused = 0;
  for (int step = 0; step < 20000; ++step) {
    const std::size_t q = rng.below(kRings);
    Ring<uint16_t>& r = bank[q];
    // Ring 0 mostly fills, ring 3 mostly drains: some rings sit full while others wrap.
    const unsigned push_percent = q == 0 ? 80 : q == 3 ? 30 : 55;
    if (rng.below(100) < push_percent) {
      if (r.full(kCap)) {
        ASSERT_EQ(ref[q].size(), kCap);
        ++refused;
      } else {
        const std::size_t k = r.push(kCap);
        ASSERT_LT(k, kCap);
        slots[q * kCap + k] = next;
        ref[q].push_back(next++);
      }
    } else if (!r.empty()) {
      ASSERT_EQ(slots[q * kCap + r.head], ref[q].front());
      r.pop(kCap);
      ref[q].pop_front();
    }
    for (std::size_t p = 0; p < kRings; ++p) {
      ASSERT_EQ(bank[p].count, ref[p].size()) << "ring " << p << " at step " << step;
      for (std::size_t i = 0; i < ref[p].size(); ++i) {
        ASSERT_EQ(slots[p * kCap + bank[p].slot(i, kCap)], ref[p][i]) << "ring " << p << " entry " << i;
      }
    }
  }
  EXPECT_GT(refused, 0) << "some ring must have been full";
}

TEST(Fifo, RefusesWhenFullAndKeepsOrderAcrossTheWrap) {
  Fifo<int> f(3);
  EXPECT_TRUE(f.push(1));
  EXPECT_TRUE(f.push(2));
  EXPECT_TRUE(f.push(3));
  EXPECT_TRUE(f.full());
  EXPECT_FALSE(f.push(4));
  EXPECT_EQ(f.size(), 3u);
  f.pop();
  EXPECT_TRUE(f.push(4));  // wraps to slot 0
  EXPECT_EQ(f.at(0), 2);
  EXPECT_EQ(f.at(2), 4);
  for (int want : {2, 3, 4}) {
    EXPECT_EQ(f.front(), want);
    f.pop();
  }
  EXPECT_TRUE(f.empty());
  EXPECT_EQ(f.capacity(), 3u);
}

TEST(Fifo, ZeroCapacityRefusesEverything) {
  Fifo<int> f;
  EXPECT_FALSE(f.push(1));
  EXPECT_TRUE(f.empty());
}

// Random pushes and pops on a growing FIFO give what a deque gives, including when it grows
// while its contents wrap around the end of the slots.
TEST(Fifo, GrowingMatchesADeque) {
  Fifo<uint64_t> f = Fifo<uint64_t>::growing();
  std::deque<uint64_t> ref;
  Rng rng(7);
  uint64_t next = 0;
  for (int step = 0; step < 20000; ++step) {
    if (rng.below(100) < 55 || ref.empty()) {
      ASSERT_TRUE(f.push(next));
      ref.push_back(next++);
    } else {
      ASSERT_EQ(f.front(), ref.front());
      f.pop();
      ref.pop_front();
    }
    ASSERT_EQ(f.size(), ref.size());
    if (!ref.empty()) {
      ASSERT_EQ(f.at(ref.size() - 1), ref.back());
    }
  }
  EXPECT_EQ(f.capacity() & (f.capacity() - 1), 0u) << "doubles from 4";
}

TEST(Fifo, ResetCapacityEmptiesIt) {
  Fifo<int> f(2);
  EXPECT_TRUE(f.push(1));
  f.reset_capacity(5);
  EXPECT_TRUE(f.empty());
  EXPECT_EQ(f.capacity(), 5u);
}

}  // namespace
}  // namespace hx
