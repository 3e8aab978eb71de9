// rtl_assert_test.cpp: the RTL's assertions (rtl/hx_assert.svh, docs/formal.md) are compiled into
// the test models (Verilator --assert) and catch a broken contract.
//
// Each test resets a model, first shows that legal traffic raises nothing, then breaks one
// contract by driving the ports directly and expects exactly the check that guards it to report.
// The models' context is told to count failed checks instead of stopping (errorLimit), and the
// report ("<scope>: input contract <Name> broken") is read from stdout.
#include <gtest/gtest.h>

#include <cstdio>
#include <memory>
#include <string>

#include "Vhx_reduction_table_e2.h"
#include "Vhx_router.h"
#include "hx_flit.h"
#include "verilated_ports.h"

namespace {

using hx::FlitFormat;

/// A model with its own context, clocked by hand; failed checks are counted, not fatal.
template <class M>
struct Raw {
  Raw() : ctx(std::make_unique<VerilatedContext>()) {
    ctx->errorLimit(1000);
    m = std::make_unique<M>(ctx.get(), "TOP");
  }
  void tick() {
    m->clk_i = 0;
    m->eval();
    m->clk_i = 1;
    m->eval();
    m->clk_i = 0;
    m->eval();
  }
  /// Runs f with stdout captured; returns what the model printed.
  template <class F>
  std::string capture(F&& f) {
    std::fflush(stdout);
    testing::internal::CaptureStdout();
    f();
    std::fflush(stdout);
    return testing::internal::GetCapturedStdout();
  }
  std::unique_ptr<VerilatedContext> ctx;
  std::unique_ptr<M> m;
};

/// The router at node (1,1) of a 3x3 board, XY routing; reset for two cycles.
void reset_router(Raw<Vhx_router>& r) {
  Vhx_router& m = *r.m;
  m.node_x_i = 1;
  m.node_y_i = 1;
  m.last_x_i = 2;
  m.last_y_i = 2;
  m.board_x_i = 2;
  m.board_y_i = 3;
  m.route_mode_i = 0;
  m.vc_policy_i = 0;
  m.in_valid_i = 0;
  m.out_credit_i = 0;
  m.out_credit_vc_i = 0;
  m.rst_ni = 0;
  r.tick();
  r.tick();
  m.rst_ni = 1;
  r.tick();
}

/// A single-flit packet from the local port to node (2,1) of the same board: it leaves on E.
hx::Flit single_to_east(const FlitFormat& fmt, unsigned vc) {
  hx::Header h;
  h.dst_board_x = 2;
  h.dst_board_y = 3;
  h.dst_node_x = 2;
  h.dst_node_y = 1;
  h.length = 1;
  hx::Flit f;
  f.type = hx::FlitType::Single;
  f.vc = vc;
  h.encode(fmt, f.payload);
  return f;
}

constexpr unsigned kPortE = 1, kPortL = 4;

// A credit for an output VC whose counter is already full (the downstream returns a slot it
// never filled) breaks CreditReturnLegal; returning the credit of a flit that was sent does not.
TEST(RtlAssertTest, IllegalCreditReturnIsCaught) {
  Raw<Vhx_router> r;
  reset_router(r);
  const FlitFormat fmt;
  const std::string legal = r.capture([&] {
    hx::set_flit(r.m->in_flit_i, kPortL, fmt, single_to_east(fmt, 0));
    r.m->in_valid_i = 1u << kPortL;
    r.tick();
    r.m->in_valid_i = 0;
    for (int i = 0; i < 4; ++i) r.tick();  // the flit leaves on E, VC 0
    r.m->out_credit_i = 1u << kPortE;      // its credit comes back
    r.m->out_credit_vc_i = 0;
    r.tick();
    r.m->out_credit_i = 0;
    r.tick();
  });
  ASSERT_EQ(r.ctx->errorCount(), 0) << "legal traffic raised a check:\n" << legal;

  const std::string out = r.capture([&] {
    r.m->out_credit_i = 1u << kPortE;  // the counter of E, VC 0 is full again
    r.m->out_credit_vc_i = 0;
    r.tick();
    r.m->out_credit_i = 0;
    r.tick();
  });
  EXPECT_GE(r.ctx->errorCount(), 1);
  EXPECT_NE(out.find("CreditReturnLegal"), std::string::npos) << out;
  EXPECT_EQ(out.find("CreditsBounded"), std::string::npos) << "the counter itself stays bounded:\n" << out;
}

// A flit on a VC the router does not have (VC 3 of 3) breaks FlitVcExists.
TEST(RtlAssertTest, FlitOnMissingVcIsCaught) {
  Raw<Vhx_router> r;
  reset_router(r);
  const FlitFormat fmt;
  const std::string out = r.capture([&] {
    hx::set_flit(r.m->in_flit_i, kPortL, fmt, single_to_east(fmt, 3));
    r.m->in_valid_i = 1u << kPortL;
    r.tick();
    r.m->in_valid_i = 0;
    r.tick();
  });
  EXPECT_GE(r.ctx->errorCount(), 1);
  EXPECT_NE(out.find("FlitVcExists"), std::string::npos) << out;
}

// A flit sent without a credit into a full input buffer breaks BufNoPushWhenFull (the shared
// buffer's own contract): with E's downstream never returning credits, 8 flits leave (E's
// credits), 8 fill the buffer of L's VC 0, and the 17th overflows it.
TEST(RtlAssertTest, BufferOverflowIsCaught) {
  Raw<Vhx_router> r;
  reset_router(r);
  const FlitFormat fmt;
  std::string before, out;
  before = r.capture([&] {
    for (int i = 0; i < 16; ++i) {
      hx::set_flit(r.m->in_flit_i, kPortL, fmt, single_to_east(fmt, 0));
      r.m->in_valid_i = 1u << kPortL;
      r.tick();
    }
    r.m->in_valid_i = 0;
    for (int i = 0; i < 4; ++i) r.tick();
  });
  ASSERT_EQ(r.ctx->errorCount(), 0) << "16 flits fit (8 sent, 8 buffered):\n" << before;
  out = r.capture([&] {
    r.m->in_valid_i = 1u << kPortL;
    r.tick();
    r.m->in_valid_i = 0;
    r.tick();
  });
  EXPECT_GE(r.ctx->errorCount(), 1);
  EXPECT_NE(out.find("BufNoPushWhenFull"), std::string::npos) << out;
}

/// Reduction table header word 0/1 (hx_red_pkg): kind, nflits, count, expected, tag.
void set_header(Vhx_reduction_table_e2& m, unsigned kind, unsigned nflits, unsigned count, unsigned expected,
                uint32_t tag) {
  for (int w = 0; w < 4; ++w) m.in_flit_i[w] = 0;
  m.in_flit_i[0] = kind | (nflits << 8) | ((count & 0xffffu) << 12) | ((expected & 0xfu) << 28);
  m.in_flit_i[1] = ((expected >> 4) & 0xfffu) | ((tag & 0xfffffu) << 12);
  m.in_flit_i[2] = tag >> 20;
}

void send_packet(Raw<Vhx_reduction_table_e2>& r, unsigned count, unsigned expected, uint32_t tag) {
  set_header(*r.m, /*PUSH_WR*/ 3, 8, count, expected, tag);
  r.m->in_valid_i = 1;
  r.tick();
  for (int i = 0; i < 8; ++i) {
    for (int w = 0; w < 4; ++w) r.m->in_flit_i[w] = 0x3f800000u;  // 1.0f in every lane
    r.tick();
  }
  r.m->in_valid_i = 0;
  r.tick();
}

// A push write whose contributions would take its line past the expected count (3 of 4 held,
// 2 more arrive) breaks ContributionsWithinExpected; 1 + 2 of 4 does not.
TEST(RtlAssertTest, TooManyContributionsAreCaught) {
  Raw<Vhx_reduction_table_e2> r;
  Vhx_reduction_table_e2& m = *r.m;
  m.now_i = 0;
  m.timeout_i = 0;
  m.in_valid_i = 0;
  m.out_ready_i = 1;
  m.rst_ni = 0;
  r.tick();
  m.rst_ni = 1;
  r.tick();
  const std::string legal = r.capture([&] {
    send_packet(r, 1, 4, 0x40);
    send_packet(r, 2, 4, 0x40);  // the entry now holds 3 of 4
  });
  ASSERT_EQ(r.ctx->errorCount(), 0) << legal;
  const std::string out = r.capture([&] { send_packet(r, 2, 4, 0x40); });
  EXPECT_GE(r.ctx->errorCount(), 1);
  EXPECT_NE(out.find("ContributionsWithinExpected"), std::string::npos) << out;
}

}  // namespace
