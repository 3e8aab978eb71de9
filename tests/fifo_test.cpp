// fifo_test.cpp: core/fifo.h, the one FIFO: order across the wrap, a full FIFO refusing, a
// growing one keeping its order while it doubles, against std::deque as the reference.
#include <gtest/gtest.h>

#include <deque>

#include "fifo.h"
#include "rng.h"

namespace hx {
namespace {

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
