// reduction_alu_test.cpp: the ALU array (rtl/hx_reduce_alu.sv, Vhx_reduce_alu) bit-exact against
// the C++ lane functions of systemc/nvswitch/reduction_ref.h, and both against hand-computed
// fp32 edge cases.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <random>
#include <vector>

#include "Vhx_reduce_alu.h"
#include "reduction_ref.h"
#include "verilated.h"

namespace {

using hx::AluOp;

class AluModel {
 public:
  AluModel() : ctx_(std::make_unique<VerilatedContext>()), m_(std::make_unique<Vhx_reduce_alu>(ctx_.get())) {}
  // Four lanes at once.
  std::array<uint32_t, 4> run(AluOp op, const std::array<uint32_t, 4>& a, const std::array<uint32_t, 4>& b) {
    m_->op_i = static_cast<uint8_t>(op);
    for (int k = 0; k < 4; ++k) {
      m_->a_i.m_storage[k] = a[k];
      m_->b_i.m_storage[k] = b[k];
    }
    m_->eval();
    std::array<uint32_t, 4> y;
    for (int k = 0; k < 4; ++k) y[k] = m_->y_o.m_storage[k];
    return y;
  }
  uint32_t run1(AluOp op, uint32_t a, uint32_t b) { return run(op, {a, 0, 0, 0}, {b, 0, 0, 0})[0]; }

 private:
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Vhx_reduce_alu> m_;
};

struct Case {
  uint32_t a, b, y;
};

void check_cases(AluOp op, const std::vector<Case>& cases) {
  AluModel m;
  for (const Case& c : cases) {
    EXPECT_EQ(hx::reduce_lane(op, c.a, c.b), c.y) << std::hex << "ref op " << int(op) << " a=" << c.a << " b=" << c.b;
    EXPECT_EQ(m.run1(op, c.a, c.b), c.y) << std::hex << "rtl op " << int(op) << " a=" << c.a << " b=" << c.b;
    // Every op is commutative, bit for bit (NaNs are canonical, -0 < +0).
    EXPECT_EQ(m.run1(op, c.b, c.a), c.y) << std::hex << "rtl swapped op " << int(op) << " a=" << c.a << " b=" << c.b;
  }
}

TEST(ReductionAlu, Fp32AddZerosInfNan) {
  check_cases(AluOp::FAdd, {
                               {0x00000000, 0x00000000, 0x00000000},
                               {0x80000000, 0x80000000, 0x80000000},
                               {0x00000000, 0x80000000, 0x00000000},
                               {0x3F800000, 0xBF800000, 0x00000000},
                               {0xC1200000, 0x41200000, 0x00000000},
                               {0x3F800000, 0x80000000, 0x3F800000},
                               {0x7F800000, 0x3F800000, 0x7F800000},
                               {0xFF800000, 0x7F7FFFFF, 0xFF800000},
                               {0x7F800000, 0xFF800000, 0x7FC00000},
                               {0xFF800000, 0xFF800000, 0xFF800000},
                               {0x7F800000, 0x7F800000, 0x7F800000},
                               {0x7F800001, 0x3F800000, 0x7FC00000},
                               {0xFFC00000, 0x00000000, 0x7FC00000},
                               {0x7FFFFFFF, 0x7F800000, 0x7FC00000},
                               {0x7FC00000, 0x7FC00000, 0x7FC00000},
                               {0xFF800001, 0x00000001, 0x7FC00000},
                           });
}

TEST(ReductionAlu, Fp32AddSubnormalsInAndOut) {
  check_cases(AluOp::FAdd, {
                               {0x00000001, 0x00000000, 0x00000000},  // DAZ
                               {0x80000001, 0x80000000, 0x80000000},  // -sub + -0 = -0 + -0
                               {0x80000001, 0x00000000, 0x00000000},  // -0 + +0
                               {0x807FFFFF, 0x807FFFFF, 0x80000000},  // two subnormals: -0
                               {0x00400000, 0x3F800000, 0x3F800000},
                               {0x00400000, 0x00800000, 0x00800000},  // sub + min normal = min normal
                               {0x00800001, 0x80800000, 0x00000000},  // 2^-149 out: flushed, sign +
                               {0x80800001, 0x00800000, 0x80000000},  // flushed, sign -
                               {0x00C00000, 0x80800000, 0x00000000},  // 2^-127 out
                               {0x01000000, 0x80800001, 0x00000000},  // 2^-126 - 2^-149 out: flushed
                               {0x01000001, 0x80800000, 0x00800002},  // 2^-126 + 2^-148: normal, exact
                               {0x00800000, 0x00800000, 0x01000000},
                           });
}

TEST(ReductionAlu, Fp32AddRoundingAndCarries) {
  check_cases(AluOp::FAdd, {
                               {0x3F800000, 0x33800000, 0x3F800000},  // 1 + 2^-24: tie, to even (1.0)
                               {0x3F800001, 0x33800000, 0x3F800002},  // tie, to even (up)
                               {0x3F800000, 0x33800001, 0x3F800001},  // just above the tie
                               {0x3F800000, 0x337FFFFF, 0x3F800000},  // just below the tie
                               {0x3F800000, 0xB3000000, 0x3F800000},  // 1 - 2^-25: tie below 1.0, to even (1.0)
                               {0x3F800000, 0xB3000001, 0x3F7FFFFF},  // 1 - (2^-25 + e): down
                               {0x3F800001, 0xBF800000, 0x34000000},  // cancellation, exact 2^-23
                               {0x3FFFFFFF, 0x34000000, 0x40000000},  // mantissa carry into the exponent
                               {0x3FFFFFFF, 0x33800000, 0x40000000},  // carry by rounding (tie to even)
                               {0x3F800000, 0x0DA24260, 0x3F800000},  // 1 + 1e-30
                               {0x4B7FFFFF, 0x3F800000, 0x4B800000},  // 2^24 - 1 + 1
                               {0x4B800000, 0x3F800000, 0x4B800000},  // 2^24 + 1: tie, to even
                               {0x4B800001, 0x3F800000, 0x4B800002},  // 2^24 + 2 + 1: tie, to even (up)
                               {0x7F7FFFFF, 0x7F7FFFFF, 0x7F800000},  // overflow
                               {0xFF7FFFFF, 0xFF7FFFFF, 0xFF800000},  // overflow, negative
                               {0x7F000000, 0x7F000000, 0x7F800000},  // 2^254 * 2
                               {0x7F7FFFFF, 0x73000000, 0x7F800000},  // max + half ulp: tie, odd: rounds up to inf
                               {0x7F7FFFFF, 0x72FFFFFF, 0x7F7FFFFF},  // below the tie
                               {0x7F7FFFFE, 0x73000000, 0x7F7FFFFE},  // tie, even: stays
                               {0x7F7FFFFF, 0xF3800000, 0x7F7FFFFE},  // max - ulp
                           });
}

TEST(ReductionAlu, MinMaxAndInt) {
  check_cases(AluOp::FMin, {
                               {0x80000000, 0x00000000, 0x80000000},
                               {0x7FC00001, 0x3F800000, 0x7FC00000},
                               {0x3F800000, 0xFF800001, 0x7FC00000},
                               {0x00000001, 0x00000000, 0x00000000},
                               {0x80000001, 0x00000000, 0x80000000},
                               {0xFF800000, 0x3F800000, 0xFF800000},
                               {0x3F800000, 0x40000000, 0x3F800000},
                               {0xBF800000, 0xC0000000, 0xC0000000},
                               {0x7F800000, 0x7F7FFFFF, 0x7F7FFFFF},
                           });
  check_cases(AluOp::FMax, {
                               {0x80000000, 0x00000000, 0x00000000},
                               {0x7F800001, 0x7F800000, 0x7FC00000},
                               {0x80000001, 0xBF800000, 0x80000000},
                               {0x00000001, 0x3F800000, 0x3F800000},
                               {0x7F800000, 0x7F7FFFFF, 0x7F800000},
                               {0xBF800000, 0xC0000000, 0xBF800000},
                           });
  check_cases(AluOp::IAdd, {{0xFFFFFFFF, 0x00000001, 0x00000000}, {0x7FFFFFFF, 1, 0x80000000}, {5, 7, 12}});
  check_cases(AluOp::IMin, {{0x80000000, 1, 0x80000000}, {0xFFFFFFFF, 0, 0xFFFFFFFF}, {3, 2, 2}});
  check_cases(AluOp::IMax, {{0x80000000, 1, 1}, {0xFFFFFFFF, 0, 0}, {0x7FFFFFFF, 0x80000000, 0x7FFFFFFF}});
}

// Operand generator: uniform bit patterns, edge values, and pairs with close exponents and near
// cancellation (where normalisation shifts far and rounding is delicate).
class OperandGen {
 public:
  explicit OperandGen(uint64_t seed) : rng_(seed) {}
  uint32_t bits() { return static_cast<uint32_t>(rng_()); }
  uint32_t edge() {
    static const uint32_t kEdges[] = {0x00000000, 0x80000000, 0x7F800000, 0xFF800000, 0x7FC00000, 0x7F800001,
                                      0xFFFFFFFF, 0x00000001, 0x807FFFFF, 0x00800000, 0x80800000, 0x7F7FFFFF,
                                      0xFF7FFFFF, 0x3F800000, 0xBF800000, 0x00800001, 0x33800000, 0x4B800000};
    return kEdges[rng_() % (sizeof kEdges / sizeof kEdges[0])];
  }
  std::pair<uint32_t, uint32_t> pair() {
    const unsigned kind = rng_() % 8;
    uint32_t a = bits();
    uint32_t b = bits();
    switch (kind) {
      case 0:
      case 1:
      case 2: break;  // uniform
      case 3: a = edge(); break;
      case 4: b = edge(); break;
      case 5: {  // close exponents, any signs
        const int d = static_cast<int>(rng_() % 5) - 2;
        int e = static_cast<int>((a >> 23) & 0xFF) + d;
        e = e < 0 ? 0 : (e > 255 ? 255 : e);
        b = (b & 0x807FFFFFu) | (static_cast<uint32_t>(e) << 23);
        break;
      }
      case 6: {  // near cancellation
        const int32_t delta = static_cast<int32_t>(rng_() % 9) - 4;
        b = ((a ^ 0x80000000u) & 0x80000000u) | ((a & 0x7FFFFFFFu) + static_cast<uint32_t>(delta));
        break;
      }
      default: {  // small exponents: FTZ region
        a = (a & 0x80FFFFFFu) | ((rng_() % 3) << 24);
        b = (b & 0x80FFFFFFu) | ((rng_() % 3) << 24);
        break;
      }
    }
    return {a, b};
  }

 private:
  std::mt19937_64 rng_;
};

void random_compare(AluOp op, uint64_t seed, unsigned pairs) {
  AluModel m;
  OperandGen g(seed);
  unsigned failures = 0;
  for (unsigned n = 0; n < pairs; n += 4) {
    std::array<uint32_t, 4> a, b;
    for (int k = 0; k < 4; ++k) std::tie(a[k], b[k]) = g.pair();
    const auto y = m.run(op, a, b);
    for (int k = 0; k < 4; ++k) {
      const uint32_t want = hx::reduce_lane(op, a[k], b[k]);
      if (y[k] != want && failures++ < 10) {
        ADD_FAILURE() << std::hex << "op " << int(op) << " a=" << a[k] << " b=" << b[k] << " rtl=" << y[k]
                      << " ref=" << want;
      }
    }
  }
  EXPECT_EQ(failures, 0u);
}

TEST(ReductionAlu, Fp32AddRandomMillion) { random_compare(AluOp::FAdd, 1, 1200000); }
TEST(ReductionAlu, Fp32MinMaxRandom) {
  random_compare(AluOp::FMin, 2, 200000);
  random_compare(AluOp::FMax, 3, 200000);
}
TEST(ReductionAlu, Int32Random) {
  random_compare(AluOp::IAdd, 4, 200000);
  random_compare(AluOp::IMin, 5, 200000);
  random_compare(AluOp::IMax, 6, 200000);
}
TEST(ReductionAlu, UndefinedOpsReturnA) {
  AluModel m;
  EXPECT_EQ(m.run1(static_cast<AluOp>(6), 0x12345678, 1), 0x12345678u);
  EXPECT_EQ(m.run1(static_cast<AluOp>(7), 0x12345678, 1), 0x12345678u);
  EXPECT_EQ(hx::reduce_lane(static_cast<AluOp>(7), 0x12345678, 1), 0x12345678u);
}

}  // namespace
