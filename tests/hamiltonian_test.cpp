// hamiltonian_test.cpp: the two edge-disjoint Hamiltonian cycles of an r x c torus
// (systemc/collective/hamiltonian.h), for every shape up to 48 x 16: where the construction
// applies, both cycles visit every node once, every step is the torus link it claims, the two
// share no link and together use every link; elsewhere the error names the failed condition.
#include <gtest/gtest.h>

#include <numeric>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>

#include "hamiltonian.h"

namespace hx {
namespace {

// A torus link: the node it leaves and whether it goes east (else south).
using Link = std::pair<unsigned, bool>;

void check_cycles(unsigned r, unsigned c) {
  SCOPED_TRACE(std::to_string(r) + "x" + std::to_string(c));
  const TorusCycles t = hamiltonian_cycles(r, c);
  const unsigned n = r * c;
  std::set<Link> used;
  for (unsigned k = 0; k < 2; ++k) {
    ASSERT_EQ(t.cycle[k].size(), n);
    std::set<unsigned> seen(t.cycle[k].begin(), t.cycle[k].end());
    EXPECT_EQ(seen.size(), n) << "cycle " << k << " is not Hamiltonian";
    for (unsigned i = 0; i < n; ++i) {
      const unsigned node = t.cycle[k][i], row = node / c, col = node % c;
      const bool east = t.step_east[k][i];
      const unsigned next = east ? row * c + (col + 1) % c : ((row + 1) % r) * c + col;
      ASSERT_EQ(t.cycle[k][(i + 1) % n], next) << "cycle " << k << " step " << i << " is not a torus link";
      EXPECT_TRUE(used.insert({node, east}).second)
          << "link (" << row << "," << col << ") " << (east ? "east" : "south") << " used twice";
    }
  }
  // 2 rc steps, no link twice: every one of the torus's 2 rc links is used exactly once.
  EXPECT_EQ(used.size(), 2u * n);
}

TEST(HamiltonianCycles, ThePapersExamples) {
  // Appendix A-D, Figure 16: 4x4, 8x4, 9x3, 16x8.
  for (const auto& [r, c] : {std::pair{4u, 4u}, {8u, 4u}, {9u, 3u}, {16u, 8u}}) check_cycles(r, c);
}

TEST(HamiltonianCycles, EveryShapeUpTo48x16) {
  unsigned built = 0, refused = 0;
  for (unsigned r = 1; r <= 48; ++r) {
    for (unsigned c = 1; c <= 16; ++c) {
      if (has_hamiltonian_cycles(r, c)) {
        check_cycles(r, c);
        ++built;
        continue;
      }
      try {
        hamiltonian_cycles(r, c);
        ADD_FAILURE() << r << "x" << c << ": no error";
      } catch (const std::invalid_argument& e) {
        const std::string what = e.what();
        const bool names_condition = what.find("multiple of c") != std::string::npos ||
                                     what.find("gcd(r, c - 1) = 1") != std::string::npos ||
                                     what.find("at least 1x2") != std::string::npos;
        EXPECT_TRUE(names_condition) << what;
        ++refused;
      }
    }
  }
  EXPECT_GT(built, 50u);
  EXPECT_GT(refused, 500u);
}

TEST(HamiltonianCycles, ErrorsNameTheCondition) {
  try {
    hamiltonian_cycles(6, 4);
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(),
                 "two edge-disjoint Hamiltonian cycles of an r x c torus need r to be a multiple of c; "
                 "6x4 has r mod c = 2");
  }
  try {
    hamiltonian_cycles(6, 3);  // gcd(6, 2) = 2
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_STREQ(e.what(),
                 "two edge-disjoint Hamiltonian cycles of an r x c torus need gcd(r, c - 1) = 1; "
                 "6x3 has gcd(6, 2) = 2");
  }
}

}  // namespace
}  // namespace hx
