// credit_link_test.cpp: core's CreditLink (systemc/core/credit_link.h) on its own, both ends
// played by the test: latency, rates above and below one flit per cycle, the fractional carry of
// a busy wire, the late head of a slow link, credits in flits, the logic errors a sender gets
// for sending on a busy wire, and the rate-1 calls of RateHint::One.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <vector>

#include "credit_link.h"
#include "hx_flit.h"
#include "packet.h"

namespace hx {
namespace {

// A packet-granular unit of 1..9 flits, as the NVSwitch model's packets.
struct Pkt {
  unsigned n = 1;
  unsigned id = 0;
  unsigned flits() const { return n; }
  static constexpr unsigned kMaxFlits = 9;
};
[[maybe_unused]] void corrupt(Pkt& p) { p.id ^= 0x8000u; }
// Link-level retry's view of it: 128 bits per flit, a CRC over its fields, a bit error in its id.
[[maybe_unused]] unsigned link_bits(const Pkt& p) { return 128 * p.n; }
[[maybe_unused]] uint32_t link_crc(const Pkt& p) { return Crc32().add(p.n).add(p.id).value(); }
[[maybe_unused]] void flip_link_bit(Pkt& p, unsigned bit) { p.id ^= 1u << (bit % 32); }

Flit flit_with(uint64_t tag) {
  Flit f;
  f.payload = {tag, ~tag};
  return f;
}

// Sends a single-flit unit whenever the link allows (as many as its budget), receives every
// cycle; returns, per flit, (send cycle, arrival cycle).
struct Stream {
  std::vector<uint64_t> sent_at, arrived_at;
};
Stream stream(CreditLink<Flit>& link, uint64_t cycles) {
  Stream r;
  for (uint64_t t = 0; t < cycles; ++t) {
    for (unsigned n = link.budget(t); n != 0; --n) {
      link.send(t, flit_with(r.sent_at.size()));
      r.sent_at.push_back(t);
    }
    while (const Flit* f = link.receive(t)) {
      EXPECT_EQ(f->payload[0], r.arrived_at.size()) << "in order";
      r.arrived_at.push_back(t);
    }
  }
  return r;
}

TEST(CreditLink, UnitArrivesLatencyPlusOneCyclesAfterTheSenderHandlesIt) {
  for (unsigned lat : {0u, 1u, 3u, 20u}) {
    CreditLink<Flit> link("l", lat);
    for (uint64_t t = 0; t < 40; ++t) {
      if (t == 10) {
        ASSERT_TRUE(link.can_send(t));
        link.send(t, flit_with(7));
        EXPECT_FALSE(link.can_send(t)) << "one flit per cycle at rate 1";
      }
      const Flit* f = link.receive(t);
      EXPECT_EQ(f != nullptr, t == 11 + lat) << "latency " << lat << " cycle " << t;
    }
    EXPECT_EQ(link.units_sent(), 1u);
    EXPECT_EQ(link.units_delivered(), 1u);
    EXPECT_EQ(link.units_on_wire(), 0u);
  }
}

TEST(CreditLink, RateTwoCarriesTwoFlitsPerCycle) {
  CreditLink<Flit> link("fast", 1, LinkRate::per_cycle(2));
  const Stream r = stream(link, 100);
  // From idle the first cycle starts one flit (the wire was free only from that cycle on), every
  // later cycle two: one where the last ended, half a cycle earlier, and one at the cycle.
  EXPECT_EQ(r.sent_at.size(), 199u);
  EXPECT_EQ(link.budget(100), 2u);
  for (std::size_t i = 0; i < r.arrived_at.size(); ++i) EXPECT_EQ(r.arrived_at[i], r.sent_at[i] + 2) << i;
  EXPECT_DOUBLE_EQ(link.busy_cycles(), 199 / 2.0);
  // A third flit in a cycle is more than the wire carries.
  link.send(100, flit_with(0));
  link.send(100, flit_with(1));
  EXPECT_FALSE(link.can_send(100));
  EXPECT_THROW(link.send(100, flit_with(2)), std::logic_error);
}

TEST(CreditLink, RateOneThirdCarriesAFlitEveryThreeCycles) {
  const unsigned lat = 2;
  CreditLink<Flit> link("slow", lat, LinkRate::per_cycle(1.0 / 3));
  const Stream r = stream(link, 300);
  ASSERT_EQ(r.sent_at.size(), 100u);
  for (std::size_t i = 0; i < r.sent_at.size(); ++i) {
    EXPECT_EQ(r.sent_at[i], 3 * i);
    // The flit holds the wire three cycles: it is complete two cycles later than at rate 1.
    if (i < r.arrived_at.size()) {
      EXPECT_EQ(r.arrived_at[i], r.sent_at[i] + 1 + lat + 2) << i;
    }
  }
  // The last flit started in cycle 297 and holds the wire until 300.
  EXPECT_FALSE(link.can_send(299));
  EXPECT_THROW(link.send(299, flit_with(0)), std::logic_error);
  EXPECT_TRUE(link.can_send(300));
}

// 9-flit units at half a flit per cycle: each holds the wire 18 cycles, and its head arrives 9
// cycles late, when a full-rate unit ending with it would have; a 1-flit unit after it is 1 late.
TEST(CreditLink, HalfRateNineFlitUnitsHaveALateHead) {
  const unsigned lat = 3;
  CreditLink<Pkt> link("half", lat, LinkRate::per_cycle(0.5));
  std::vector<unsigned> sizes = {9, 9, 1, 9};
  std::vector<uint64_t> starts, arrivals;
  std::size_t next = 0;
  for (uint64_t t = 0; t < 200; ++t) {
    if (next < sizes.size() && link.can_send(t)) {
      link.send(t, Pkt{sizes[next], static_cast<unsigned>(next)});
      starts.push_back(t);
      ++next;
    }
    while (Pkt* p = link.receive(t)) {
      EXPECT_EQ(p->id, arrivals.size());
      arrivals.push_back(t);
    }
  }
  EXPECT_EQ(starts, (std::vector<uint64_t>{0, 18, 36, 38}));
  EXPECT_EQ(arrivals, (std::vector<uint64_t>{0 + 4 + 9, 18 + 4 + 9, 36 + 4 + 1, 38 + 4 + 9}));
  EXPECT_EQ(link.flits_sent(), 28u);
  EXPECT_DOUBLE_EQ(link.busy_cycles(), 56.0);
}

// At rate 2 a 9-flit unit takes 4.5 cycles: the next starts where it ended, so two take 9 cycles.
TEST(CreditLink, FractionsCarryOverOnABusyWire) {
  CreditLink<Pkt> link("carry", 0, LinkRate::per_cycle(2));
  std::vector<uint64_t> starts;
  for (uint64_t t = 0; t < 40 && starts.size() < 5; ++t) {
    if (link.can_send(t)) {
      link.send(t, Pkt{9, 0});
      starts.push_back(t);
    }
    while (link.receive(t)) {
    }
  }
  EXPECT_EQ(starts, (std::vector<uint64_t>{0, 5, 9, 14, 18}));
}

TEST(CreditLink, CreditsInFlitsReturnAfterTheLatency) {
  CreditLink<Pkt> link("c", 4);
  // Both ends in lockstep: the receiver returns a 9-flit and a 2-flit packet's credits in cycle
  // 5 and a 1-flit packet's in cycle 6.
  for (uint64_t t = 0; t < 20; ++t) {
    if (t == 5) {
      link.return_credit(t, 1, 9);
      link.return_credit(t, 0, 2);
      EXPECT_EQ(link.credits_on_wire(), 11u);
    }
    if (t == 6) link.return_credit(t, 1, 1);
    unsigned c0 = 0, c1 = 0;
    link.take_credits(t, [&](unsigned vc, unsigned n) { (vc == 0 ? c0 : c1) += n; });
    EXPECT_EQ(c0, t == 10 ? 2u : 0u) << t;
    EXPECT_EQ(c1, t == 10 ? 9u : t == 11 ? 1u : 0u) << t;
  }
  EXPECT_EQ(link.credits_on_wire(), 0u);

  // Flit links take them one at a time, by VC.
  CreditLink<Flit> f("f", 0, LinkRate::per_cycle(2));
  f.return_credit(3, 2);
  f.return_credit(3, 0);
  EXPECT_EQ(f.credit(3), -1) << "not before t + 1";
  EXPECT_EQ(f.credit(4), 0);
  EXPECT_EQ(f.credit(4), 2);
  EXPECT_EQ(f.credit(4), -1);
}

TEST(CreditLink, ViolationsAreLogicErrors) {
  CreditLink<Flit> full("full", 1);
  full.send(0, flit_with(0));
  EXPECT_THROW(full.send(0, flit_with(1)), std::logic_error) << "two flits in one cycle";
  full.return_credit(0, 1);
  EXPECT_THROW(full.return_credit(0, 0), std::logic_error) << "two credits in one cycle";

  CreditLink<Pkt> slow("slow", 0, LinkRate::per_cycle(0.25));
  slow.send(0, Pkt{1, 0});  // holds the wire 4 cycles
  for (uint64_t t = 1; t < 4; ++t) EXPECT_THROW(slow.send(t, Pkt{1, 0}), std::logic_error) << t;
  EXPECT_NO_THROW(slow.send(4, Pkt{1, 0}));
  EXPECT_THROW(slow.return_credit(0, 4), std::logic_error) << "no VC 4";

  EXPECT_THROW(CreditLink<Flit>("zero", 0, LinkRate{0}), std::invalid_argument);
}

// An end that checked unit_rate() calls with RateHint::One: the same link, without the per-call
// test of its rate. Both ways, the same traffic gives the same units, credits and counts.
TEST(CreditLink, RateHintOneBehavesAsAnyOnARateOneLink) {
  EXPECT_TRUE(CreditLink<Flit>("one", 2).unit_rate());
  EXPECT_FALSE(CreditLink<Flit>("two", 2, LinkRate::per_cycle(2)).unit_rate());
  EXPECT_FALSE(CreditLink<Flit>("half", 2, LinkRate::per_cycle(0.5)).unit_rate());
  EXPECT_FALSE(CreditLink<Pkt>("packets", 2).unit_rate());

  CreditLink<Flit> any("any", 2), one("one", 2);
  std::vector<uint64_t> got_any, got_one;
  std::vector<int> credits_any, credits_one;
  uint64_t x = 12345;  // xorshift: which cycles send, return a credit, and on which VC
  for (uint64_t t = 0; t < 2000; ++t) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    const bool send = (x & 3) != 0, give = (x & 12) != 0;
    const unsigned vc = static_cast<unsigned>(x >> 8) % CreditLink<Flit>::kMaxVcs;
    ASSERT_EQ(any.budget(t), one.budget<RateHint::One>(t)) << t;
    if (send && any.can_send(t)) any.send(t, flit_with(t));
    if (send && one.can_send<RateHint::One>(t)) one.send<RateHint::One>(t, flit_with(t));
    if (give) any.return_credit(t, vc);
    if (give) one.return_credit<RateHint::One>(t, vc);
    // Alternate the two ways of taking what arrives.
    if (t % 2 == 0) {
      while (const Flit* f = any.receive(t)) got_any.push_back(f->payload[0]);
      while (const Flit* f = one.receive<RateHint::One>(t)) got_one.push_back(f->payload[0]);
      for (int c; (c = any.credit(t)) >= 0;) credits_any.push_back(c);
      for (int c; (c = one.credit<RateHint::One>(t)) >= 0;) credits_one.push_back(c);
    } else {
      any.receive_all(t, [&](const Flit& f) { got_any.push_back(f.payload[0]); });
      one.receive_all<RateHint::One>(t, [&](const Flit& f) { got_one.push_back(f.payload[0]); });
      any.take_credits(t,
                       [&](unsigned v, unsigned n) { credits_any.insert(credits_any.end(), n, static_cast<int>(v)); });
      one.take_credits<RateHint::One>(
          t, [&](unsigned v, unsigned n) { credits_one.insert(credits_one.end(), n, static_cast<int>(v)); });
    }
  }
  EXPECT_GT(got_any.size(), 1000u);
  EXPECT_EQ(got_any, got_one);
  EXPECT_EQ(credits_any, credits_one);
  EXPECT_EQ(any.units_sent(), one.units_sent());
  EXPECT_EQ(any.units_on_wire(), one.units_on_wire());
  EXPECT_EQ(any.credits_on_wire(), one.credits_on_wire());
  // The same logic errors.
  one.send<RateHint::One>(5000, flit_with(0));
  EXPECT_THROW(one.send<RateHint::One>(5000, flit_with(1)), std::logic_error) << "two flits in one cycle";
  one.return_credit<RateHint::One>(5000, 1);
  EXPECT_THROW(one.return_credit<RateHint::One>(5000, 0), std::logic_error) << "two credits in one cycle";
}

TEST(LinkRate, DerivedFromBandwidths) {
  const LinkRate r = LinkRate::from_bandwidth(100e9 * 8, 25e9 * 8);
  EXPECT_DOUBLE_EQ(r.flits_per_cycle, 4.0);
  EXPECT_EQ(r.describe(), "100 GB/s / 25 GB/s per flit-cycle = 4 flits per cycle");
  EXPECT_EQ(LinkRate::per_cycle(0.5).describe(), "0.5 flits per cycle");
  EXPECT_THROW(LinkRate::from_bandwidth(0, 1), std::invalid_argument);
}

// ---- link-level retry (bit errors, CRC, go-back-N replay) ------------------------------------

// Sends numbered units whenever the link allows (a random 1..9 flits each for packets), receives
// every cycle, the receiver first or the sender first; then drains. Every unit must arrive once,
// intact, in order. Returns the arrival cycles.
template <class U, class Make>
std::vector<uint64_t> replay_stream(CreditLink<U>& link, uint64_t cycles, bool receiver_first, Make make,
                                    uint64_t* sent = nullptr) {
  std::vector<uint64_t> arrived;
  uint64_t n = 0;
  const auto receive = [&](uint64_t t) {
    while (const U* u = link.receive(t)) {
      EXPECT_TRUE(make(arrived.size()) == *u) << "unit " << arrived.size() << " intact and in order";
      arrived.push_back(t);
    }
  };
  uint64_t t = 0;
  for (; t < cycles; ++t) {
    if (receiver_first) receive(t);
    for (unsigned b = link.budget(t); b != 0 && link.can_send(t); --b) link.send(t, make(n++));
    if (!receiver_first) receive(t);
  }
  for (uint64_t end = t + 100000; t < end && link.units_on_wire() != 0; ++t) receive(t);
  EXPECT_EQ(link.units_on_wire(), 0u) << "drained";
  EXPECT_EQ(arrived.size(), n) << "every unit once";
  if (sent != nullptr) *sent = n;
  return arrived;
}

bool operator==(const Pkt& a, const Pkt& b) { return a.n == b.n && a.id == b.id; }

TEST(CreditLinkRetry, EveryFlitArrivesOnceInOrderIntactAndTheCrcCatchesEveryError) {
  // 1e-3 per bit: 12% of 132-bit flits are hit.
  CreditLink<Flit> link("l", 3, LinkRate{}, LinkErrors{1e-3, 7});
  EXPECT_TRUE(link.has_errors());
  EXPECT_FALSE(link.unit_rate()) << "a link with errors never takes the fast path";
  uint64_t sent = 0;
  const std::vector<uint64_t> arrived = replay_stream(link, 20000, false, flit_with, &sent);
  const RetryCounts c = link.retry_counts();
  EXPECT_GT(c.corrupted, 1000u);
  EXPECT_EQ(c.detected, c.corrupted) << "CRC-32 catches every single-bit error";
  EXPECT_GT(c.naks, 0u);
  EXPECT_LE(c.naks, c.detected);
  EXPECT_GE(c.replayed, c.naks);
  EXPECT_EQ(c.replayed_flits, c.replayed);
  EXPECT_EQ(link.flits_sent(), sent + c.replayed) << "the replays hold the wire";
  // Each error costs the wire about a round trip (2 x (latency + 1) = 8 cycles): with ~12% of the
  // transmissions hit, about half the cycles carry new flits.
  const double goodput = static_cast<double>(sent) / 20000;
  EXPECT_GT(goodput, 0.3);
  EXPECT_LT(goodput, 0.8);
}

TEST(CreditLinkRetry, HandlingOrderWithinACycleDoesNotMatter) {
  for (double rate : {1.0, 0.5, 2.0}) {
    const auto make = [](uint64_t i) { return Pkt{1u + static_cast<unsigned>(i * 7 % 9), static_cast<unsigned>(i)}; };
    CreditLink<Pkt> a("a", 2, LinkRate{rate}, LinkErrors{2e-4, 3});
    CreditLink<Pkt> b("b", 2, LinkRate{rate}, LinkErrors{2e-4, 3});
    const std::vector<uint64_t> x = replay_stream(a, 5000, false, make);
    const std::vector<uint64_t> y = replay_stream(b, 5000, true, make);
    EXPECT_EQ(x, y) << "rate " << rate;
    EXPECT_GT(a.retry_counts().detected, 10u) << "rate " << rate;
    EXPECT_EQ(a.retry_counts().detected, a.retry_counts().corrupted);
  }
}

// The packet-granular model's packet is a head flit and up to 8 payload flits of the one flit
// type: flit(i) is what is on the wire, its data elements sit in the flits as the fabric's DMA
// puts them (flit_word), and a link's bit error lands in the flit it falls in.
TEST(Packet, IsAHeadAndPayloadFlitsOfTheOneFlitType) {
  Packet p;
  p.channel = 1;
  p.length = 9;
  p.address = 0x1234;
  p.user = 0xabcd;
  for (unsigned i = 0; i < Packet::kWords; ++i) p.set_word(i, 0x1000u + i);
  const Flit head = p.flit(0);
  EXPECT_EQ(head.type, FlitType::Head);
  EXPECT_EQ(head.vc, 1u);
  EXPECT_EQ(head.payload, (Payload{0x1234, 0xabcd}));
  for (unsigned f = 1; f < 9; ++f) {
    const Flit b = p.flit(f);
    EXPECT_EQ(b.type, f == 8 ? FlitType::Tail : FlitType::Body) << f;
    EXPECT_EQ(b.vc, 1u);
    for (unsigned j = 0; j < kWordsPerFlit; ++j)
      EXPECT_EQ(flit_word(b.payload, j), 0x1000u + (f - 1) * kWordsPerFlit + j) << f << " " << j;
  }
  EXPECT_EQ(p.words()[17], 0x1011u);
  Packet one;
  one.length = 1;
  EXPECT_EQ(one.flit(0).type, FlitType::Single);

  // A bit error at wire bit 128 + 32k + j (flit 1 + k / 4) flips bit j of element k, and the CRC
  // over the flits sees it; one in the head lands in the address or user word.
  const uint32_t crc = link_crc(p);
  for (unsigned k : {0u, 5u, 31u}) {
    for (unsigned j : {0u, 17u, 31u}) {
      Packet q = p;
      flip_link_bit(q, 128 + 32 * k + j);
      for (unsigned i = 0; i < Packet::kWords; ++i) EXPECT_EQ(q.word(i), p.word(i) ^ (i == k ? 1u << j : 0u));
      EXPECT_NE(link_crc(q), crc);
    }
  }
  Packet q = p;
  flip_link_bit(q, 70);
  EXPECT_EQ(q.user, p.user ^ (uint64_t{1} << 6));
  EXPECT_NE(link_crc(q), crc);
  // The fault hook's corruption changes the data's checksum, which the receiver checks.
  q = p;
  corrupt(q);
  EXPECT_NE(payload_checksum(q), payload_checksum(p));
}

TEST(CreditLinkRetry, NoErrorsNoRetry) {
  CreditLink<Flit> clean("c", 3);
  CreditLink<Flit> zero("z", 3, LinkRate{}, LinkErrors{0, 1});
  EXPECT_FALSE(zero.has_errors());
  EXPECT_TRUE(zero.unit_rate());
  EXPECT_EQ(replay_stream(clean, 1000, false, flit_with), replay_stream(zero, 1000, false, flit_with));
  EXPECT_THROW(CreditLink<Flit>("bad", 1, LinkRate{}, LinkErrors{1.5, 1}), std::invalid_argument);
}

}  // namespace
}  // namespace hx
