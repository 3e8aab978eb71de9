// test_support.h: small helpers shared by the GoogleTest suites that drive Verilated models.
//
// Environment knobs (all optional, for debugging a failing test):
//   HX_TRACE_DIR=DIR   every bench writes an FST of the RTL to DIR/<suite>.<test>.fst in a build
//                      configured with -DHX_MODEL_WAVEFORMS=ON (the models have no waveform
//                      code otherwise: rtl/CMakeLists.txt)
//   HX_SEED=N          overrides the fixed seed of the random tests (printed either way)
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace hx::test {

/// FST file for the current test if HX_TRACE_DIR is set, else "".
inline std::string trace_path() {
  const char* dir = std::getenv("HX_TRACE_DIR");
  if (!dir || !*dir) return "";
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  std::string name = std::string(info->test_suite_name()) + "." + info->name();
  for (char& c : name) {
    if (c == '/') c = '_';
  }
  return std::string(dir) + "/" + name + ".fst";
}

/// The seed of a random test: HX_SEED if set, else `fixed`. Printed so a failure can be rerun.
inline uint64_t test_seed(uint64_t fixed) {
  uint64_t seed = fixed;
  if (const char* s = std::getenv("HX_SEED")) seed = std::strtoull(s, nullptr, 0);
  std::printf("[ seed     ] %llu (rerun with HX_SEED=%llu)\n", static_cast<unsigned long long>(seed),
              static_cast<unsigned long long>(seed));
  ::testing::Test::RecordProperty("seed", std::to_string(seed));
  return seed;
}

/// A LinkBench's scoreboard is clean: everything delivered, exactly once, intact, on an allowed
/// port and VC, and no bench error. Shared by the router and board-plane suites.
template <class Bench>
void expect_scoreboard_clean(const Bench& b) {
  const auto s = b.scoreboard().summary();
  EXPECT_TRUE(b.ok()) << b.report();
  EXPECT_TRUE(s.all_delivered()) << b.report();
  EXPECT_EQ(s.lost, 0u);
  EXPECT_EQ(s.duplicated, 0u);
  EXPECT_EQ(s.corrupted, 0u);
  EXPECT_EQ(s.misrouted, 0u);
  EXPECT_EQ(s.bad_vc, 0u);
}

}  // namespace hx::test
