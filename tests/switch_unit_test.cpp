// switch_unit_test.cpp: the switch model (systemc/fabric/network_switch.h) on its
// own, driven cycle by cycle through its links: pipeline latency and credits, adaptive up
// routing by load, wormhole switching without interleaving, and the Dragonfly router's VC + 1
// on a global link, a flit that finds its input VC full reported, what it holds said through the
// one switch interface (core/switch.h); and the input buffer
// (systemc/fabric/vc_buffer.h) on its own: per-VC order across the wrap, full and empty per VC,
// VCs that do not disturb each other. (Crossbar speedup shows in throughput: see
// docs/hammingmesh.md.)
#include <gtest/gtest.h>

#include <array>
#include <deque>
#include <memory>
#include <stdexcept>
#include <string>
#include <systemc>
#include <vector>

#include "dragonfly_plan.h"
#include "flit_link.h"
#include "network_switch.h"
#include "rng.h"
#include "tree_routes.h"
#include "vc_buffer.h"

int sc_main(int, char*[]) { return 0; }  // libsystemc needs one; gtest_main runs the tests

namespace hx {
namespace {

// A switch with a link pair per port. Flits sent into port p arrive on in[p]; what the switch
// sends on port p comes out of out[p], and the test plays the receivers.
struct Bench {
  static constexpr unsigned kVcs = 3, kDepth = 16, kLatency = 4;
  std::vector<std::unique_ptr<FlitLink>> in, out;
  std::unique_ptr<NetworkSwitch> sw;
  std::vector<std::string> errors;
  uint64_t t = 0;

  /// A switch routed by the registered function `routing`, built for `ctx`.
  Bench(const std::string& name, unsigned ports, const std::string& routing, RoutingContext ctx, unsigned out_credits,
        unsigned speedup = 2, unsigned output_depth = NetworkSwitch::kOutputQueueDepth) {
    ctx.switch_name = name;
    ctx.addressing.endpoints = true;  // terminal = the destination endpoint number
    sw = std::make_unique<NetworkSwitch>(
        name, ports, kVcs, kDepth, kLatency, speedup, make_routing(routing, ctx), nullptr,
        [this](const std::string& e) { errors.push_back(e); }, NetworkSwitch::OwnPorts{}, output_depth);
    for (unsigned p = 0; p < ports; ++p) {
      in.push_back(std::make_unique<FlitLink>((name + "_in" + std::to_string(p)).c_str(), 0));
      out.push_back(std::make_unique<FlitLink>((name + "_out" + std::to_string(p)).c_str(), 0));
      sw->connect(p, in[p].get(), out[p].get(), out_credits);
    }
  }

  /// One cycle of the switch; then the senders take their credits off the in links (a link
  /// holds one credit per cycle slot, so an unread credit would block the next).
  std::vector<unsigned> credits_back;
  int last_credit_cycle = -1;
  void step() {
    sw->step(t);
    credits_back.resize(in.size(), 0);
    for (unsigned p = 0; p < in.size(); ++p) {
      if (in[p]->credit(t) >= 0) {
        ++credits_back[p];
        last_credit_cycle = static_cast<int>(t);
      }
    }
  }

  /// Flit `index` of a packet of `length` flits for endpoint `dst` on `vc`, tagged with `id`.
  static Flit flit(unsigned dst, unsigned length, unsigned index, unsigned vc, uint32_t id) {
    Header h;
    h.dst_board_x = dst % TreeAddressing::kEndpointsPerBoardRow;
    h.dst_board_y = dst / TreeAddressing::kEndpointsPerBoardRow;
    h.length = length;
    return make_packet_flit(FlitFormat{}, h, id, index, vc);
  }
};

TEST(NetworkSwitch, PipelineLatencyAndCredits) {
  Bench b("single", 4, "updown", RoutingContext{}, 8);
  b.in[0]->send(0, Bench::flit(3, 1, 0, 1, 42));  // arrives in cycle 1
  int arrived = -1;
  for (b.t = 1; b.t < 30; ++b.t) {
    b.step();
    if (const Flit* f = b.out[3]->receive(b.t)) {
      arrived = static_cast<int>(b.t);
      EXPECT_EQ(f->vc, 1u);  // a tree keeps the VC
      EXPECT_EQ(read_tag(FlitFormat{}, f->payload).packet_id, 42u);
    }
    for (unsigned p = 0; p < 4; ++p) {
      if (p != 3) {
        EXPECT_EQ(b.out[p]->receive(b.t), nullptr) << "port " << p;
      }
    }
  }
  // In at cycle 1, eligible kLatency cycles later, crossbar and output in that cycle, on the
  // wire for one more cycle.
  EXPECT_EQ(arrived, 1 + static_cast<int>(Bench::kLatency) + 1);
  // The credit leaves when the flit leaves the input buffer and arrives a cycle later.
  EXPECT_EQ(b.last_credit_cycle, 1 + static_cast<int>(Bench::kLatency) + 1);
  EXPECT_EQ(b.credits_back[0], 1u);
  EXPECT_TRUE(b.errors.empty());
}

// The one switch interface (core/switch.h): idle, what the switch holds, and the deadlock report
// of every model (held_report), asked through Switch alone.
TEST(NetworkSwitch, SaysWhatItHoldsThroughTheOneSwitchInterface) {
  Bench b("held", 4, "updown", RoutingContext{}, 0);  // no credits downstream: nothing leaves
  Switch& s = *b.sw;
  EXPECT_EQ(s.name(), "held");
  EXPECT_EQ(s.ports(), 4u);
  EXPECT_TRUE(s.idle());
  EXPECT_EQ(s.describe(), "");
  const std::vector<Switch*> all{&s};
  EXPECT_EQ(held_report(all, 10), "");
  b.in[0]->send(0, Bench::flit(3, 1, 0, 1, 42));
  for (b.t = 1; b.t < 10; ++b.t) b.step();
  EXPECT_FALSE(s.idle());
  const std::string d = s.describe();
  EXPECT_EQ(d, "  held out 3 vc 1: 1 flits queued, credits 0\n");  // crossed, waiting for a credit
  EXPECT_EQ(held_report(all, 10), d);
  EXPECT_EQ(held_report(all, 0), "  ...\n");  // over the budget: only the mark
}

TEST(NetworkSwitch, LeafSendsUpToTheLeastLoadedUpPort) {
  // A leaf with 2 down ports (terminals 0, 1) and 2 up ports (2, 3). Up port 2's receiver
  // never returns credits, so once it holds some flits, heads for other leaves go to port 3.
  RoutingContext leaf;
  leaf.tree_place = RoutingContext::TreePlace::Leaf;
  leaf.index = 0;
  leaf.down = 2;
  leaf.up_first = 2;
  leaf.up = 2;
  // Its table (topology/tree_routes.h) for a tree of 3 leaves: both up ports reach every leaf.
  auto routes = std::make_shared<TreeRoutes>();
  routes->up_bits.assign(3, 0x3);
  routes->down_first.assign(4, 0);
  leaf.tree_routes = routes;
  Bench b("leaf", 4, "updown", leaf, 4);
  unsigned up2 = 0, up3 = 0;
  uint32_t id = 0;
  for (b.t = 0; b.t < 200; ++b.t) {
    if (b.t % 2 == 0 && b.t < 120) b.in[0]->send(b.t, Bench::flit(5, 1, 0, 0, id++));  // terminal 5: not here
    b.step();
    if (b.out[2]->receive(b.t)) ++up2;  // no credit returned
    if (const Flit* f = b.out[3]->receive(b.t)) {
      ++up3;
      b.out[3]->return_credit(b.t, f->vc);
    }
  }
  EXPECT_EQ(up2 + up3, 60u);  // every packet went up
  EXPECT_LE(up2, 4u);         // port 2 took no more than its receiver's credits
  EXPECT_GE(up3, 56u);
  EXPECT_TRUE(b.errors.empty());
}

TEST(NetworkSwitch, WormholePacketsDoNotInterleaveOnAnOutputVc) {
  // Two 4-flit packets from inputs 0 and 1 to terminal 2, on the same VC: the output carries
  // one whole packet, then the other.
  Bench b("worm", 3, "updown", RoutingContext{}, 16);
  std::vector<uint32_t> order;
  for (b.t = 0; b.t < 60; ++b.t) {
    if (b.t < 4) {
      b.in[0]->send(b.t, Bench::flit(2, 4, static_cast<unsigned>(b.t), 0, 100));
      b.in[1]->send(b.t, Bench::flit(2, 4, static_cast<unsigned>(b.t), 0, 200));
    }
    b.step();
    if (const Flit* f = b.out[2]->receive(b.t)) {
      order.push_back(is_head(f->type) ? read_tag(FlitFormat{}, f->payload).packet_id : 0);
      b.out[2]->return_credit(b.t, f->vc);
    }
  }
  ASSERT_EQ(order.size(), 8u);
  // A head, three body/tail flits, the other head, three more.
  EXPECT_NE(order[0], 0u);
  EXPECT_EQ(order[1] + order[2] + order[3], 0u);
  EXPECT_NE(order[4], 0u);
  EXPECT_NE(order[4], order[0]);
  EXPECT_EQ(order[5] + order[6] + order[7], 0u);
  EXPECT_TRUE(b.errors.empty());
}

TEST(NetworkSwitch, DragonflyRouterTakesVcPlusOneOnAGlobalLink) {
  // Dragonfly a=2, p=1, h=1, 3 groups: router 0 of group 0 has port 0 (endpoint), port 1
  // (local, to router 1) and port 2 (global). A packet for an endpoint in another group that
  // this router links to leaves on the global port with VC + 1.
  DragonflyPlan plan(2, 1, 1, 3, false);
  const auto& exits = plan.exits[0][1];
  ASSERT_FALSE(exits.empty());
  const unsigned router = exits.front().first;
  RoutingContext ctx;
  ctx.group = 0;
  ctx.index = router;
  ctx.plan = &plan;
  Bench b("df", plan.radix(), "dragonfly_minimal", ctx, 8);
  const unsigned dst = 1 * plan.a * plan.p;  // endpoint 0 of group 1
  b.in[0]->send(0, Bench::flit(dst, 1, 0, 0, 7));
  int vc = -1;
  for (b.t = 1; b.t < 30; ++b.t) {
    b.step();
    if (const Flit* f = b.out[exits.front().second]->receive(b.t)) vc = static_cast<int>(f->vc);
  }
  EXPECT_EQ(vc, 1);
  EXPECT_TRUE(b.errors.empty());
}

// Links of two rates in one system of three switches. Switch s0 takes three saturating sources
// (rate-1 links, one flit per cycle each whenever they hold a credit): two for endpoint 3, whose
// port leads over a rate-2 link to switch s2, and one for endpoint 2, whose port leads over a
// rate-1/2 link to switch s1; s1 and s2 pass the flits on to sinks of the same rates. Each link
// then carries exactly its rate: the slow one because the switch waits for it (sending early
// would be a logic error), the fast one because it sends two flits per cycle.
TEST(NetworkSwitch, LinksOfTwoRatesEachCarryTheirRate) {
  constexpr unsigned kVcs = 2, kDepth = 16, kLatency = 2, kPorts = 4;
  std::vector<std::string> errors;
  auto on_error = [&errors](const std::string& e) { errors.push_back(e); };
  auto make_switch = [&](const std::string& name) {
    RoutingContext ctx;
    ctx.switch_name = name;
    ctx.addressing.endpoints = true;  // endpoint d leaves by port d
    return std::make_unique<NetworkSwitch>(name, kPorts, kVcs, kDepth, kLatency, 2, make_routing("updown", ctx),
                                           nullptr, on_error);
  };
  auto s0 = make_switch("s0"), s1 = make_switch("s1"), s2 = make_switch("s2");
  std::vector<std::unique_ptr<FlitLink>> links;
  auto link = [&links](const std::string& name, double rate) {
    links.push_back(std::make_unique<FlitLink>(name.c_str(), 1, LinkRate::per_cycle(rate)));
    return links.back().get();
  };
  FlitLink* src[3] = {link("src0", 1), link("src1", 1), link("src2", 1)};
  FlitLink* slow = link("s0_s1", 0.5);  // s0 port 2 -> s1 port 0
  FlitLink* fast = link("s0_s2", 2);    // s0 port 3 -> s2 port 0
  FlitLink* sink_slow = link("s1_sink", 0.5);
  FlitLink* sink_fast = link("s2_sink", 2);
  FlitLink* unused[4] = {link("u0", 1), link("u1", 1), link("u2", 1), link("u3", 1)};
  s0->connect(0, src[0], unused[0], kDepth);
  s0->connect(1, src[1], unused[1], kDepth);
  s0->connect(2, src[2], slow, kDepth);
  s0->connect(3, link("in3", 1), fast, kDepth);
  s1->connect(0, slow, unused[2], kDepth);
  s1->connect(2, link("s1_in2", 1), sink_slow, kDepth);
  s2->connect(0, fast, unused[3], kDepth);
  s2->connect(3, link("s2_in3", 1), sink_fast, kDepth);

  const unsigned dst[3] = {3, 3, 2};
  unsigned credits[3] = {kDepth, kDepth, kDepth};  // VC 0 of s0's inputs
  uint32_t id = 0;
  constexpr uint64_t kWarmup = 200, kCycles = 5000;
  uint64_t slow_at_warmup = 0, fast_at_warmup = 0, sunk_slow = 0, sunk_fast = 0;
  for (uint64_t t = 0; t < kCycles; ++t) {
    if (t == kWarmup) {
      slow_at_warmup = slow->units_sent();
      fast_at_warmup = fast->units_sent();
      sunk_slow = sunk_fast = 0;
    }
    for (unsigned k = 0; k < 3; ++k) {
      for (int c; (c = src[k]->credit(t)) >= 0;) ++credits[k];
      if (credits[k] == 0) continue;
      src[k]->send(t, Bench::flit(dst[k], 1, 0, 0, ++id));
      --credits[k];
    }
    s0->step(t);
    s1->step(t);
    s2->step(t);
    // The sinks take everything and return the credits at once.
    while (const Flit* f = sink_slow->receive(t)) {
      sink_slow->return_credit(t, f->vc);
      ++sunk_slow;
    }
    while (const Flit* f = sink_fast->receive(t)) {
      sink_fast->return_credit(t, f->vc);
      ++sunk_fast;
    }
  }
  const double cycles = static_cast<double>(kCycles - kWarmup);
  EXPECT_NEAR(static_cast<double>(slow->units_sent() - slow_at_warmup) / cycles, 0.5, 0.5 * 0.02);
  EXPECT_NEAR(static_cast<double>(fast->units_sent() - fast_at_warmup) / cycles, 2.0, 2.0 * 0.02);
  EXPECT_NEAR(static_cast<double>(sunk_slow) / cycles, 0.5, 0.5 * 0.02);
  EXPECT_NEAR(static_cast<double>(sunk_fast) / cycles, 2.0, 2.0 * 0.02);
  EXPECT_TRUE(errors.empty()) << errors.front();
}

TEST(RoutingRegistry, EveryFunctionByNameAndAClearErrorOtherwise) {
  std::vector<std::string> names;
  for (const RegisteredRouting& r : routing_functions()) names.push_back(r.name);
  EXPECT_EQ(names, (std::vector<std::string>{"updown", "dor_dateline", "torus_adaptive", "dragonfly_minimal", "ugal_l",
                                             "dim_order", "rail_clos", "clex_minimal", "clex_balanced", "xy",
                                             "north_last", "min_adaptive"}));
  try {
    make_routing("xyz", RoutingContext{});
    FAIL() << "an unknown routing function must be refused";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("registered: updown, dor_dateline"), std::string::npos) << e.what();
  }
}

TEST(NetworkSwitch, EightVirtualChannelsBeyondTheRtlsTwoBits) {
  // The C++ switch is not limited to the RTL router's 2-bit VC field: one switch of 8 VCs, a
  // single-flit packet on each VC from port 0 to terminal 3. Each leaves on its own VC (a tree
  // keeps the VC), and each VC's credit comes back to port 0's sender.
  constexpr unsigned kWide = 8;
  std::vector<std::string> errors;
  RoutingContext ctx;
  ctx.switch_name = "wide";
  ctx.addressing.endpoints = true;
  NetworkSwitch sw("wide", 4, kWide, 4, 1, 2, make_routing("updown", ctx), nullptr,
                   [&errors](const std::string& e) { errors.push_back(e); });
  std::vector<std::unique_ptr<FlitLink>> in, out;
  for (unsigned p = 0; p < 4; ++p) {
    in.push_back(std::make_unique<FlitLink>(("wide_in" + std::to_string(p)).c_str(), 0));
    out.push_back(std::make_unique<FlitLink>(("wide_out" + std::to_string(p)).c_str(), 0));
    sw.connect(p, in[p].get(), out[p].get(), 4);
  }
  std::vector<unsigned> arrived, credited;
  for (uint64_t t = 0; t < 60; ++t) {
    if (t < kWide) in[0]->send(t, Bench::flit(3, 1, 0, static_cast<unsigned>(t), static_cast<uint32_t>(t)));
    sw.step(t);
    const int c = in[0]->credit(t);
    if (c >= 0) credited.push_back(static_cast<unsigned>(c));
    if (const Flit* f = out[3]->receive(t)) {
      arrived.push_back(f->vc);
      out[3]->return_credit(t, f->vc);
    }
  }
  const std::vector<unsigned> all = {0, 1, 2, 3, 4, 5, 6, 7};
  EXPECT_EQ(arrived, all);
  EXPECT_EQ(credited, all);
  EXPECT_TRUE(errors.empty()) << errors.front();
}

// A sender that ignores credits overfills an input VC: the switch reports the flit that finds
// its VC full, naming the port and the VC, rather than overwriting a buffered flit.
TEST(NetworkSwitch, AFlitOnAFullInputVcIsReported) {
  // No credits towards the receiver: nothing leaves port 3, so a long packet to terminal 3 fills
  // the output queue and then port 0's input VC 2.
  Bench b("overfill", 4, "updown", RoutingContext{}, 0);
  constexpr unsigned kLength = 40;
  for (b.t = 0; b.t < 60; ++b.t) {
    if (b.t < kLength) b.in[0]->send(b.t, Bench::flit(3, kLength, static_cast<unsigned>(b.t), 2, 5));
    b.step();
  }
  ASSERT_FALSE(b.errors.empty());
  EXPECT_NE(b.errors.front().find("overfill port 0: a flit arrived on a full VC 2"), std::string::npos)
      << b.errors.front();
  // What the switch holds: a full input VC and a full output queue, no more.
  EXPECT_EQ(b.sw->held(), Bench::kDepth + NetworkSwitch::kOutputQueueDepth);
  EXPECT_EQ(b.errors.size(), kLength - b.sw->held());
}

// switch.output_buffer_depth: with no credit towards the receiver, a packet fills the output
// queue of its VC, `output_depth` flits, and then its input VC; the switch holds both and no
// more, and the flits behind them find a full input VC.
TEST(NetworkSwitch, OutputQueueHoldsItsConfiguredDepth) {
  for (const unsigned depth : {2u, 8u, 40u}) {
    Bench b("oq" + std::to_string(depth), 4, "updown", RoutingContext{}, 0, 2, depth);
    constexpr unsigned kLength = 80;
    for (b.t = 0; b.t < 100; ++b.t) {
      if (b.t < kLength) b.in[0]->send(b.t, Bench::flit(3, kLength, static_cast<unsigned>(b.t), 1, 5));
      b.step();
    }
    EXPECT_EQ(b.sw->held(), Bench::kDepth + depth) << "output depth " << depth;
    EXPECT_EQ(b.errors.size(), kLength - Bench::kDepth - depth) << "output depth " << depth;
  }
}

/// A flit of VC vc whose payload word 0 is `tag`.
Flit tagged(unsigned vc, uint64_t tag) {
  Flit f;
  f.vc = vc;
  f.payload[0] = tag;
  return f;
}

// Per VC: empty, filling up to full, a push on the full VC refused and nothing stored, order
// and ready cycles kept across the wrap; meanwhile the other VCs stay as they were.
TEST(VcBuffer, EachVcFillsWrapsAndEmptiesOnItsOwn) {
  VcBuffer b(3, 4);
  EXPECT_EQ(b.vcs(), 3u);
  EXPECT_EQ(b.depth(), 4u);
  for (unsigned v = 0; v < 3; ++v) {
    EXPECT_TRUE(b.empty(v));
    EXPECT_FALSE(b.full(v));
  }
  EXPECT_TRUE(b.push(tagged(0, 100), 7));
  for (uint64_t k = 1; k <= 4; ++k) EXPECT_TRUE(b.push(tagged(1, k), 10 + k));
  EXPECT_TRUE(b.full(1));
  EXPECT_FALSE(b.full(0));
  EXPECT_TRUE(b.empty(2));
  EXPECT_FALSE(b.push(tagged(1, 99), 0)) << "VC 1 is full";
  EXPECT_EQ(b.size(1), 4u);
  EXPECT_EQ(b.total(), 5u);
  EXPECT_TRUE(b.push(tagged(2, 200), 8)) << "a full VC 1 does not block VC 2";
  EXPECT_EQ(b.total(), 6u);

  // VC 1 laps its slots several times while VCs 0 and 2 hold one flit each.
  uint64_t next = 5, oldest = 1;
  for (int lap = 0; lap < 10; ++lap) {
    for (int i = 0; i < 3; ++i) {
      ASSERT_EQ(b.front(1).flit.payload[0], oldest);
      ASSERT_EQ(b.front(1).ready, 10 + oldest);
      b.pop(1);
      ++oldest;
    }
    for (int i = 0; i < 3; ++i) {
      ASSERT_TRUE(b.push(tagged(1, next), 10 + next));
      ++next;
    }
    ASSERT_TRUE(b.full(1));
    for (unsigned i = 0; i < 4; ++i) ASSERT_EQ(b.at(1, i).flit.payload[0], oldest + i);
    ASSERT_EQ(b.front(0).flit.payload[0], 100u);
    ASSERT_EQ(b.front(0).ready, 7u);
    ASSERT_EQ(b.front(2).flit.payload[0], 200u);
    ASSERT_EQ(b.size(0), 1u);
    ASSERT_EQ(b.size(2), 1u);
  }
  while (!b.empty(1)) {
    EXPECT_EQ(b.front(1).flit.payload[0], oldest++);
    b.pop(1);
  }
  EXPECT_EQ(oldest, next);
  b.pop(0);
  b.pop(2);
  EXPECT_EQ(b.total(), 0u);
  for (unsigned v = 0; v < 3; ++v) EXPECT_TRUE(b.empty(v));
}

// Random traffic on the most VCs a buffer may have: each VC matches its own deque at every
// step, in every entry (so a VC writing into a neighbour's slots would show), full VCs refuse.
TEST(VcBuffer, RandomTrafficOnEveryVcMatchesOneDequePerVc) {
  constexpr unsigned kVcs = VcBuffer::kMaxVcs, kDepth = 3;
  VcBuffer b(kVcs, kDepth);
  std::array<std::deque<uint64_t>, kVcs> ref;
  Rng rng(5);
  uint64_t next = 1;
  unsigned refused = 0, total = 0;
  for (int step = 0; step < 20000; ++step) {
    const unsigned v = static_cast<unsigned>(rng.below(kVcs));
    if (rng.below(100) < (v % 2 == 0 ? 70u : 45u)) {
      const bool was_full = ref[v].size() == kDepth;
      ASSERT_EQ(b.push(tagged(v, next), next + 1), !was_full) << "VC " << v;
      if (was_full) {
        ++refused;
      } else {
        ref[v].push_back(next++);
        ++total;
      }
    } else if (!ref[v].empty()) {
      ASSERT_EQ(b.front(v).flit.payload[0], ref[v].front());
      ASSERT_EQ(b.front(v).flit.vc, v);
      b.pop(v);
      ref[v].pop_front();
      --total;
    }
    ASSERT_EQ(b.total(), total);
    for (unsigned u = 0; u < kVcs; ++u) {
      ASSERT_EQ(b.size(u), ref[u].size()) << "VC " << u << " at step " << step;
      ASSERT_EQ(b.empty(u), ref[u].empty());
      ASSERT_EQ(b.full(u), ref[u].size() == kDepth);
      for (unsigned i = 0; i < ref[u].size(); ++i) {
        ASSERT_EQ(b.at(u, i).flit.payload[0], ref[u][i]) << "VC " << u << " entry " << i;
        ASSERT_EQ(b.at(u, i).ready, ref[u][i] + 1);
      }
    }
  }
  EXPECT_GT(refused, 0u) << "some VC must have been full";
}

TEST(VcBuffer, RefusesAVcItDoesNotHaveAndTooManyVcs) {
  VcBuffer b(2, 4);
  EXPECT_FALSE(b.push(tagged(2, 1), 0));
  EXPECT_EQ(b.total(), 0u);
  EXPECT_THROW(VcBuffer(VcBuffer::kMaxVcs + 1, 4), std::invalid_argument);
  EXPECT_THROW(VcBuffer(2, 65536), std::invalid_argument);
}

}  // namespace
}  // namespace hx
