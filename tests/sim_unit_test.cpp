// sim_unit_test.cpp: the simulator's building blocks without a kernel run: FlitLink timing,
// credits and faults; the traffic patterns; the PacketTracker's checks.
#include <gtest/gtest.h>

#include <cctype>
#include <cmath>
#include <set>
#include <sstream>
#include <systemc>

#include "fabric_topology.h"
#include "flit_link.h"
#include "network_models.h"
#include "packet_tracker.h"
#include "rng.h"
#include "sim_config.h"
#include "topology_builder.h"
#include "traffic_pattern.h"
#include "watchdog.h"

int sc_main(int, char*[]) { return 0; }  // libsystemc needs one; gtest_main runs the tests

namespace hx {
namespace {

Flit flit_with(uint64_t tag) {
  Flit f;
  f.type = FlitType::Single;
  f.payload = {tag, ~tag};
  return f;
}

TEST(FlitLink, FlitArrivesLatencyPlusOneCyclesAfterTheSenderHandlesIt) {
  for (unsigned lat : {0u, 1u, 3u, 20u}) {
    FlitLink link(("l" + std::to_string(lat)).c_str(), lat);
    // Sender and receiver advance in lockstep, as the clocked processes do.
    for (uint64_t t = 0; t < 40; ++t) {
      if (t == 10) link.send(t, flit_with(7));
      const Flit* f = link.receive(t);
      if (t == 11 + lat) {
        ASSERT_NE(f, nullptr) << "latency " << lat;
        EXPECT_EQ(f->payload[0], 7u);
      } else {
        EXPECT_EQ(f, nullptr) << "latency " << lat << " cycle " << t;
      }
    }
    EXPECT_EQ(link.flits_sent(), 1u);
    EXPECT_EQ(link.flits_delivered(), 1u);
  }
}

TEST(FlitLink, OneFlitPerCycleInOrderBackToBack) {
  FlitLink link("l", 2);
  for (uint64_t t = 0; t < 100; ++t) {
    link.send(t, flit_with(t));
    if (const Flit* f = link.receive(t)) {
      EXPECT_EQ(f->payload[0], t - 3);
    } else {
      EXPECT_LT(t, 3u);
    }
  }
  EXPECT_THROW(link.send(99, flit_with(0)), std::logic_error) << "two flits in one cycle";
}

TEST(FlitLink, CreditsTakeTheSameLatencyBack) {
  FlitLink link("l", 4);
  for (uint64_t t = 0; t < 20; ++t) {
    if (t == 5) link.return_credit(t, 2);
    EXPECT_EQ(link.credit(t), t == 10 ? 2 : -1) << t;
  }
}

TEST(FlitLink, WireViewDoesNotDependOnWhetherTheReceiverRanFirst) {
  FlitLink link("l", 1);
  link.send(3, flit_with(9));
  ASSERT_NE(link.wire_flit(5), nullptr);  // before the receiver consumed it
  ASSERT_NE(link.receive(5), nullptr);
  ASSERT_NE(link.wire_flit(5), nullptr);  // after
  EXPECT_EQ(link.wire_flit(5)->payload[0], 9u);
  EXPECT_EQ(link.wire_flit(6), nullptr);
}

TEST(FlitLink, ArmedFaultsDropOrCorruptExactlyOneFlit) {
  FlitLink drop("d", 0), corrupt("c", 0);
  drop.arm_fault(FlitLink::Fault::Drop, 2);
  corrupt.arm_fault(FlitLink::Fault::Corrupt, 2);
  unsigned got = 0, changed = 0;
  for (uint64_t t = 0; t < 4; ++t) {
    drop.send(t, flit_with(t));
    corrupt.send(t, flit_with(t));
    if (drop.receive(t + 1)) ++got;
    const Flit* f = corrupt.receive(t + 1);
    ASSERT_NE(f, nullptr);
    if (!(*f == flit_with(t))) ++changed;
  }
  EXPECT_EQ(got, 3u);
  EXPECT_EQ(drop.flits_dropped(), 1u);
  EXPECT_EQ(changed, 1u);
}

// ---- traffic patterns -------------------------------------------------------------------------

TEST(TrafficPattern, DeterministicPatternsMapAsDocumented) {
  TrafficPattern tr(Pattern::Transpose, 4, 4, {}, 0, 1);
  TrafficPattern bc(Pattern::BitComplement, 4, 4, {}, 0, 1);
  TrafficPattern nb(Pattern::Neighbor, 4, 2, {}, 0, 1);
  Rng rng(1);
  EXPECT_EQ(tr.destination(1, rng), 4u);   // (1,0) -> (0,1)
  EXPECT_EQ(tr.destination(7, rng), 13u);  // (3,1) -> (1,3)
  EXPECT_FALSE(tr.sends_traffic(5));       // (1,1) is on the diagonal
  EXPECT_EQ(bc.destination(0, rng), 15u);
  EXPECT_EQ(bc.destination(5, rng), 10u);
  EXPECT_EQ(nb.destination(3, rng), 0u);  // wraps within the row
  EXPECT_EQ(nb.destination(6, rng), 7u);
  EXPECT_THROW(TrafficPattern(Pattern::Transpose, 4, 2, {}, 0, 1), std::invalid_argument);
  EXPECT_THROW(TrafficPattern(Pattern::BitComplement, 3, 3, {}, 0, 1), std::invalid_argument);
}

// ---- the coordinate patterns on 2D and 3D node grids (core/node_grid.h) ----------------------

namespace {

// The destinations of a deterministic pattern, every source.
std::vector<unsigned> destinations(const TrafficPattern& p) {
  Rng rng(1);
  std::vector<unsigned> d(p.num_nodes());
  for (unsigned s = 0; s < d.size(); ++s) d[s] = p.destination(s, rng);
  return d;
}

bool is_permutation(const std::vector<unsigned>& d) {
  std::set<unsigned> seen(d.begin(), d.end());
  return seen.size() == d.size() && *seen.rbegin() == d.size() - 1;
}

unsigned fixed_points(const std::vector<unsigned>& d) {
  unsigned n = 0;
  for (unsigned s = 0; s < d.size(); ++s) n += d[s] == s;
  return n;
}

// The identity grid of X x Y x Z: node x + X (y + Y z) at (x, y, z).
NodeGrid grid3(unsigned x, unsigned y, unsigned z) {
  std::vector<unsigned> index(x * y * z);
  for (unsigned n = 0; n < index.size(); ++n) index[n] = n;
  return NodeGrid({x, y, z}, index);
}

}  // namespace

TEST(GridPattern, TransposeReversesTheCoordinates) {
  // 2D: the formula of the row-by-row grid before node grids existed, node for node.
  const std::vector<unsigned> t2 = destinations(TrafficPattern(Pattern::Transpose, 8, 8, {}, 0, 1));
  for (unsigned n = 0; n < 64; ++n) EXPECT_EQ(t2[n], (n % 8) * 8 + n / 8);
  EXPECT_TRUE(is_permutation(t2));
  EXPECT_EQ(fixed_points(t2), 8u);  // the diagonal
  // 3D: (x, y, z) -> (z, y, x), an involution whose fixed points are x == z: 4 x 4 of 64.
  const NodeGrid g = grid3(4, 4, 4);
  const TrafficPattern t3(Pattern::Transpose, g, {}, 0, 1);
  const std::vector<unsigned> d = destinations(t3);
  EXPECT_TRUE(is_permutation(d));
  EXPECT_EQ(fixed_points(d), 16u);
  for (unsigned n = 0; n < 64; ++n) {
    const NodeGrid::Coords c = g.coords(n), e = g.coords(d[n]);
    EXPECT_EQ(e, (NodeGrid::Coords{c[2], c[1], c[0]})) << n;
    EXPECT_EQ(d[d[n]], n);
    EXPECT_EQ(t3.sends_traffic(n), c[0] != c[2]);
  }
  // Unequal extents on the swapped axes: x and z (y may differ).
  EXPECT_NO_THROW(TrafficPattern(Pattern::Transpose, grid3(4, 2, 4), {}, 0, 1));
  EXPECT_THROW(TrafficPattern(Pattern::Transpose, grid3(4, 4, 2), {}, 0, 1), std::invalid_argument);
  EXPECT_EQ(grid_misfit(GridMap::Transpose, {4, 4, 2}),
            "transpose maps (x, y, z) to (z, y, x), so it needs equal extents along x and z; the node grid is 4x4x2");
}

TEST(GridPattern, BitReversalReversesTheGridNumbersBits) {
  const NodeGrid g = grid3(4, 4, 4);  // 64 nodes: 6 bits
  const std::vector<unsigned> d = destinations(TrafficPattern(Pattern::BitReversal, g, {}, 0, 1));
  EXPECT_TRUE(is_permutation(d));
  EXPECT_EQ(d[1], 32u);   // 000001 -> 100000
  EXPECT_EQ(d[6], 24u);   // 000110 -> 011000
  EXPECT_EQ(d[63], 63u);  // a palindrome
  // The fixed points are the 6-bit palindromes: 2^3.
  EXPECT_EQ(fixed_points(d), 8u);
  for (unsigned n = 0; n < 64; ++n) EXPECT_EQ(d[d[n]], n);
  // On 2D grids too: 8 x 8 = 6 bits, the same map.
  EXPECT_EQ(destinations(TrafficPattern(Pattern::BitReversal, 8, 8, {}, 0, 1)), d);
  EXPECT_THROW(TrafficPattern(Pattern::BitReversal, 3, 3, {}, 0, 1), std::invalid_argument);
  EXPECT_THROW(TrafficPattern(Pattern::BitReversal, grid3(4, 4, 3), {}, 0, 1), std::invalid_argument);
  EXPECT_EQ(grid_misfit(GridMap::BitReversal, {3, 3}),
            "bit_reversal needs a power-of-two node count; the node grid 3x3 has 9 nodes");
}

TEST(GridPattern, TornadoMovesEachCoordinateAlmostHalfWayRound) {
  EXPECT_EQ(tornado_offset(1), 0u);
  EXPECT_EQ(tornado_offset(2), 0u);
  EXPECT_EQ(tornado_offset(3), 1u);
  EXPECT_EQ(tornado_offset(4), 1u);
  EXPECT_EQ(tornado_offset(5), 2u);
  EXPECT_EQ(tornado_offset(8), 3u);
  for (const unsigned k : {4u, 8u}) {
    const NodeGrid g = grid3(k, k, k);
    const std::vector<unsigned> d = destinations(TrafficPattern(Pattern::Tornado, g, {}, 0, 1));
    EXPECT_TRUE(is_permutation(d));
    EXPECT_EQ(fixed_points(d), 0u);
    for (unsigned n = 0; n < d.size(); ++n) {
      const NodeGrid::Coords c = g.coords(n), e = g.coords(d[n]);
      for (unsigned a = 0; a < 3; ++a) EXPECT_EQ(e[a], (c[a] + (k + 1) / 2 - 1) % k) << n;
    }
  }
  // 2D 8 x 8: (x, y) -> (x + 3, y + 3); axes of extent 2 stay.
  const std::vector<unsigned> d2 = destinations(TrafficPattern(Pattern::Tornado, 8, 8, {}, 0, 1));
  EXPECT_EQ(d2[0], 3u + 8 * 3);
  EXPECT_EQ(d2[7 + 8 * 6], 2u + 8 * 1);
  EXPECT_EQ(fixed_points(destinations(TrafficPattern(Pattern::Tornado, 2, 2, {}, 0, 1))), 4u);
}

// A grid whose numbering is not the nodes' (a CLEX's cube-in-cube placement): the pattern maps
// node -> its grid number -> the pattern's grid number -> the node there.
TEST(GridPattern, MapsThroughTheGridsNumbering) {
  // 2 x 2 x 2, nodes placed in reverse: node n at grid number 7 - n.
  const NodeGrid g({2, 2, 2}, {7, 6, 5, 4, 3, 2, 1, 0});
  EXPECT_EQ(g.node(7), 0u);
  EXPECT_EQ(g.coords(0), (NodeGrid::Coords{1, 1, 1}));
  const std::vector<unsigned> br = destinations(TrafficPattern(Pattern::BitReversal, g, {}, 0, 1));
  // node 1 = grid 6 = 110b -> 011b = grid 3 = node 4
  EXPECT_EQ(br[1], 4u);
  const std::vector<unsigned> nb = destinations(TrafficPattern(Pattern::Neighbor, g, {}, 0, 1));
  EXPECT_EQ(nb[0], 1u);  // grid 7 = (1, 1, 1) -> (0, 1, 1) = grid 6 = node 1
  EXPECT_THROW(NodeGrid({2, 2}, {0, 1, 2, 2}), std::invalid_argument);  // two nodes on one point
  EXPECT_THROW(NodeGrid({2, 2}, {0, 1, 2}), std::invalid_argument);     // a point without a node
}

// The sources' Bernoulli trials take prepared odds (an integer compare): the same draws and the
// same answers as chance(p), so the traffic of every seed is what it was. Probabilities whose
// p * 2^53 is a whole number (0.5, 0.25), tiny ones, ones next to 0 and 1, and the edges that take
// no draw at all.
TEST(Rng, PreparedOddsDrawAndAnswerAsChance) {
  for (double p :
       {0.0, -0.5, 1e-300, 1e-17, 0x1.0p-53, 1e-4, 0.1, 1.0 / 3, 0.25, 0.5, 0.999999, 0x1.fffffffffffffp-1, 1.0, 2.0}) {
    Rng a(11), b(11);
    const Rng::Odds odds = Rng::odds(p);
    unsigned hits = 0;
    for (unsigned k = 0; k < 200000; ++k) {
      const bool x = a.chance(p);
      ASSERT_EQ(x, b.chance(odds)) << "p = " << p << ", trial " << k;
      hits += x;
    }
    EXPECT_EQ(a.next(), b.next()) << "p = " << p << ": the two took different numbers of draws";
    if (p >= 0.1 && p <= 1.0) {
      EXPECT_NEAR(hits / 200000.0, p, 0.01) << p;
    }
  }
  // Draws right at the boundary: x * 2^-53 < p exactly when x < ceil(p * 2^53).
  const double p = 0.1;
  const uint64_t edge = static_cast<uint64_t>(std::ceil(p * 0x1.0p53));
  EXPECT_LT(static_cast<double>(edge - 1) * 0x1.0p-53, p);
  EXPECT_GE(static_cast<double>(edge) * 0x1.0p-53, p);
  EXPECT_EQ(Rng::odds(p).below, edge);
}

// Uniform draws among the other nodes; with include_self (BookSim's uniform) among all of them,
// the source about 1 in N times.
TEST(TrafficPattern, UniformIncludesTheSourceOnlyWhenAsked) {
  const TrafficPattern others(Pattern::Uniform, 4, 4, {}, 0, 1);
  const TrafficPattern all(Pattern::Uniform, 4, 4, {}, 0, 1, 1, true);
  Rng a(7), b(7);
  unsigned self_others = 0, self_all = 0;
  std::set<unsigned> seen;
  for (unsigned k = 0; k < 16000; ++k) {
    self_others += others.destination(5, a) == 5;
    const unsigned d = all.destination(5, b);
    self_all += d == 5;
    seen.insert(d);
  }
  EXPECT_EQ(self_others, 0u);
  EXPECT_EQ(seen.size(), 16u);
  EXPECT_NEAR(self_all / 16000.0, 1.0 / 16, 0.01);
  // The expected cost averages over all 16 destinations, the source's 0 included.
  EXPECT_DOUBLE_EQ(all.expected(5, [](unsigned s, unsigned d) { return s == d ? 0.0 : 1.0; }), 15.0 / 16);
  EXPECT_DOUBLE_EQ(others.expected(5, [](unsigned s, unsigned d) { return s == d ? 0.0 : 1.0; }), 1.0);
}

TEST(TrafficPattern, PermutationIsABijectionWithoutFixedPointsAndFollowsTheSeed) {
  for (uint64_t seed : {1u, 2u, 3u}) {
    TrafficPattern p(Pattern::Permutation, 8, 8, {}, 0, seed);
    Rng rng(1);
    std::set<unsigned> seen;
    for (unsigned s = 0; s < 64; ++s) {
      const unsigned d = p.destination(s, rng);
      EXPECT_NE(d, s);
      seen.insert(d);
    }
    EXPECT_EQ(seen.size(), 64u);
  }
  Rng r1(1), r2(1);
  TrafficPattern a(Pattern::Permutation, 8, 8, {}, 0, 1), b(Pattern::Permutation, 8, 8, {}, 0, 2);
  unsigned same = 0;
  for (unsigned s = 0; s < 64; ++s) same += a.destination(s, r1) == b.destination(s, r2);
  EXPECT_LT(same, 64u);
}

TEST(TrafficPattern, UniformAndHotspotFrequencies) {
  TrafficPattern u(Pattern::Uniform, 4, 4, {}, 0, 1);
  TrafficPattern h(Pattern::Hotspot, 4, 4, {3}, 0.5, 1);
  Rng rng(42);
  std::vector<unsigned> cu(16), ch(16);
  const unsigned n = 160000;
  for (unsigned i = 0; i < n; ++i) {
    ++cu[u.destination(0, rng)];
    ++ch[h.destination(0, rng)];
  }
  EXPECT_EQ(cu[0], 0u);
  for (unsigned d = 1; d < 16; ++d) EXPECT_NEAR(cu[d], n / 15.0, 0.05 * n / 15.0) << d;
  // Node 3 gets half the packets plus its uniform share of the other half.
  EXPECT_NEAR(ch[3], n * (0.5 + 0.5 / 15), 0.02 * n);
  EXPECT_EQ(ch[0], 0u);
  // The expectation helper agrees with the sampled frequencies.
  EXPECT_NEAR(h.expected(0, [](unsigned, unsigned d) { return d == 3 ? 1.0 : 0.0; }), 0.5 + 0.5 / 15, 1e-12);
}

// ---- the tracker ------------------------------------------------------------------------------

std::vector<EndpointAddress> grid(unsigned a, unsigned b) {
  std::vector<EndpointAddress> v(a * b);
  for (unsigned n = 0; n < v.size(); ++n) {
    v[n].node_x = n % a;
    v[n].node_y = n / a;
  }
  return v;
}

TEST(PacketTracker, CleanDeliveryCountsLatencyAndHops) {
  PacketTracker t(FlitFormat{}, grid(4, 4));
  const uint32_t id = t.create(0, 15, 3, 100, true);
  for (unsigned i = 0; i < 3; ++i) t.on_injected(id, i, i == 2, 101 + i);
  PacketTracker::Arrival a;
  for (unsigned i = 0; i < 3; ++i) a = t.on_delivered(15, t.flit(id, i, 2), 120 + i);
  EXPECT_TRUE(a.packet_done);
  EXPECT_TRUE(a.measured);
  EXPECT_EQ(a.latency, 22u);
  EXPECT_EQ(t.counts().delivered, 1u);
  EXPECT_EQ(t.counts().flit_hops, 3u * 7u);  // 3 flits x (3 + 3 + 1) routers
  EXPECT_EQ(t.outstanding(), 0u);
  EXPECT_EQ(t.counts().corrupted + t.counts().duplicated + t.counts().misdelivered, 0u);
}

TEST(PacketTracker, FlagsDuplicatesMisroutesCorruptionAndReorder) {
  PacketTracker t(FlitFormat{}, grid(4, 4));
  const uint32_t a = t.create(0, 5, 1, 0, false);
  const uint32_t b = t.create(1, 6, 1, 0, false);
  const uint32_t c = t.create(2, 7, 3, 0, false);
  const uint32_t d = t.create(3, 8, 1, 0, false);
  for (uint32_t id : {a, b, d}) t.on_injected(id, 0, true, 1);
  for (unsigned i = 0; i < 3; ++i) t.on_injected(c, i, i == 2, 1 + i);
  const Flit fa = t.flit(a, 0, 0);
  t.on_delivered(5, fa, 10);
  t.on_delivered(5, fa, 11);  // again
  EXPECT_EQ(t.counts().duplicated, 1u);
  t.on_delivered(9, t.flit(b, 0, 0), 12);  // wrong endpoint
  EXPECT_EQ(t.counts().misdelivered, 1u);
  Flit bad = t.flit(d, 0, 0);
  bad.payload[1] ^= 1ull << 63;  // above the tag: attributable, but not intact
  t.on_delivered(8, bad, 13);
  EXPECT_EQ(t.counts().corrupted, 1u);
  t.on_delivered(7, t.flit(c, 0, 1), 14);  // head, then the tail before the body
  t.on_delivered(7, t.flit(c, 2, 1), 15);
  EXPECT_EQ(t.counts().corrupted, 2u);
  EXPECT_FALSE(t.messages().empty());
}

TEST(PacketTracker, DataPacketBodyIsCheckedByItsHashPerLane) {
  PacketTracker t(FlitFormat{}, grid(4, 1), 2);
  const Payload body[2] = {{1, 2}, {3, 4}};
  const uint32_t a = t.create_data(0, 3, 3, 0, 77, PacketTracker::data_hash(body, 2));
  const uint32_t b = t.create_data(1, 3, 3, 0, 78, PacketTracker::data_hash(body, 2));
  for (unsigned i = 0; i < 3; ++i) {
    t.on_injected(a, i, i == 2, i);
    t.on_injected(b, i, i == 2, i);
  }
  // Two packets on the same VC interleave at one endpoint through its two lanes.
  EXPECT_EQ(t.on_delivered(3, 0, t.flit(a, 0, 0), 10).user, 77u);
  EXPECT_EQ(t.on_delivered(3, 1, t.flit(b, 0, 0), 10).user, 78u);
  t.on_delivered(3, 0, Flit{FlitType::Body, 0, body[0]}, 11);
  t.on_delivered(3, 1, Flit{FlitType::Body, 0, body[0]}, 11);
  // b's body flit is counted in its assembly, which a report of b must read.
  EXPECT_NE(t.describe_packet(b).find("all 3 flits injected, 2 delivered"), std::string::npos) << t.describe_packet(b);
  const PacketTracker::Arrival ok = t.on_delivered(3, 0, Flit{FlitType::Tail, 0, body[1]}, 12);
  EXPECT_TRUE(ok.packet_done);
  EXPECT_EQ(ok.index, 2u);
  EXPECT_EQ(t.counts().corrupted, 0u);
  Payload changed = body[1];
  changed[0] ^= 1;  // one bit of data
  t.on_delivered(3, 1, Flit{FlitType::Tail, 0, changed}, 12);
  EXPECT_EQ(t.counts().corrupted, 1u);
  EXPECT_EQ(t.counts().delivered, 2u);
}

TEST(PacketTracker, CountsPacketsThatEnterABoardOfAnotherJob) {
  PacketTracker t(FlitFormat{}, grid(4, 1));
  t.set_jobs({0, 0, 1, -1}, {0, 0, 1, 1});  // boards 0, 1: job 0; board 2: job 1; board 3: none
  const uint32_t id = t.create(0, 1, 1, 0, false);
  t.on_injected(id, 0, true, 0);
  const Flit head = t.flit(id, 0, 0);
  t.on_board_entry(head, 1, 0, 0);  // its own job's board
  EXPECT_EQ(t.counts().foreign_boards, 0u);
  t.on_board_entry(head, 2, 0, 0);  // job 1's
  t.on_board_entry(head, 3, 0, 0);  // nobody's
  EXPECT_EQ(t.counts().foreign_boards, 2u);
}

TEST(PacketTracker, MemoryFollowsPacketsInFlightNotRunLength) {
  PacketTracker t(FlitFormat{}, grid(2, 1));
  for (unsigned i = 0; i < 200000; ++i) {  // far beyond the initial window
    const uint32_t id = t.create(0, 1, 1, i, false);
    t.on_injected(id, 0, true, i);
    t.on_delivered(1, t.flit(id, 0, 0), i + 5);
  }
  EXPECT_EQ(t.counts().delivered, 200000u);
  EXPECT_EQ(t.outstanding(), 0u);
}

}  // namespace
}  // namespace hx

// ---- the registry of network models (sim/network_models.h) ----------------------------------------

namespace hx {
namespace {

// Every registered kind (topology/registry.cpp) names a registered model, and exactly that
// model's config schema accepts it as topology.kind: the builder's model() and the models'
// schemas agree, and no kind is accepted by two models.
TEST(NetworkModels, EveryKindBelongsToOneModel) {
  for (const NetworkModel& m : network_models()) {
    EXPECT_NE(m.check, nullptr) << m.name;
    EXPECT_NE(m.run, nullptr) << m.name;
    ASSERT_NE(m.keys, nullptr) << m.name;
    // The words of its topology.kind's expected text ("one of board, hammingmesh, ...",
    // "dgx2 or nvswitch_tree").
    std::set<std::string> accepted;
    for (const KeyInfo& k : m.keys()) {
      if (k.path != "topology.kind") continue;
      std::string word;
      for (const char ch : k.expected + " ") {
        if (std::isalnum(static_cast<unsigned char>(ch)) || ch == '_') {
          word += ch;
        } else if (!word.empty()) {
          accepted.insert(word);
          word.clear();
        }
      }
    }
    for (const TopologyBuilder* t : topology_builders())
      EXPECT_EQ(accepted.count(t->kind()), std::string(t->model()) == m.name ? 1u : 0u)
          << t->kind() << " (model " << t->model() << ") in model " << m.name << "'s topology.kind";
  }
  std::set<std::string> kinds;
  for (const TopologyBuilder* t : topology_builders()) {
    EXPECT_NO_THROW(network_model(t->model())) << t->kind() << " names no model";
    kinds.insert(t->kind());
  }
  for (const char* kind : {"board", "hammingmesh", "fat_tree", "torus", "dragonfly", "dgx2", "nvswitch_tree"})
    EXPECT_EQ(kinds.count(kind), 1u) << kind;
}

// The one watchdog: fires after `limit` idle cycles with work outstanding, counted per cycle or
// in chunks, and never while nothing is outstanding or with a limit of 0.
TEST(ProgressWatchdog, FiresAfterTheLimitOnlyWithWorkOutstanding) {
  ProgressWatchdog w(5);
  for (int i = 0; i < 4; ++i) EXPECT_FALSE(w.advance(1, false, true));
  EXPECT_TRUE(w.advance(1, false, true));
  EXPECT_FALSE(w.advance(1, true, true)) << "a move starts the count again";
  EXPECT_EQ(w.idle_cycles(), 0u);
  for (int i = 0; i < 10; ++i) EXPECT_FALSE(w.advance(1, false, false)) << "nothing in flight: nothing stuck";
  EXPECT_FALSE(w.advance(3, false, true));
  EXPECT_TRUE(w.advance(3, false, true)) << "chunks add up";
  EXPECT_EQ(w.idle_cycles(), 6u);
  ProgressWatchdog off(0);
  for (int i = 0; i < 100; ++i) EXPECT_FALSE(off.advance(1000, false, true));
  ProgressWatchdog bench(2);  // the benches' style: moves reported before the cycle's tick
  bench.progress();
  EXPECT_FALSE(bench.tick(true));
  EXPECT_TRUE(bench.tick(true));
}

// The fabric model's builders: one per kind it registers, and a clear error for any other.
TEST(FabricTopologies, OneBuilderPerKind) {
  // Every kind the fabric config accepts ("one of board, hammingmesh, ...") has a builder.
  std::string accepted;
  for (const KeyInfo& k : config_keys())
    if (k.path == "topology.kind") accepted = k.expected;
  ASSERT_EQ(accepted.rfind("one of ", 0), 0u) << accepted;
  std::stringstream names(accepted.substr(7));
  unsigned kinds = 0;
  for (std::string kind; std::getline(names, kind, ',');) {
    kind.erase(0, kind.find_first_not_of(' '));
    EXPECT_NO_THROW(EXPECT_EQ(fabric_topology(kind).kind(), kind)) << kind;
    ++kinds;
  }
  EXPECT_EQ(kinds, fabric_topologies().size()) << "a builder of a kind the config does not accept";
  EXPECT_FALSE(fabric_topology("board").has_fabric());
  EXPECT_TRUE(fabric_topology("hammingmesh").has_boards());
  EXPECT_FALSE(fabric_topology("torus").has_boards());
  EXPECT_EQ(fabric_topology("torus").links_per_plane(), 4u);
  EXPECT_EQ(fabric_topology("fat_tree").links_per_plane(), 1u);
  try {
    fabric_topology("dgx2");
    FAIL() << "dgx2 is the nvswitch model's";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("registered: board, hammingmesh, fat_tree, torus, dragonfly"),
              std::string::npos)
        << e.what();
  }
}

TEST(NetworkModels, TheKindPicksTheModel) {
  RunRequest r;  // the built-in default: a board
  EXPECT_EQ(model_for(r).name, "fabric");
  r.overrides = {"topology.kind=dgx2"};
  EXPECT_EQ(model_for(r).name, "nvswitch");
  r.overrides = {"topology.kind=nvswitch_tree", "topology.kind=torus"};  // the last one wins
  EXPECT_EQ(model_for(r).name, "fabric");
  r.overrides = {"topology.kind=dgx3"};
  try {
    model_for(r);
    FAIL() << "an unknown kind must be refused";
  } catch (const ConfigError& e) {
    // Every kind of the one registry, whatever model builds it.
    std::string all;
    for (const TopologyBuilder* b : topology_builders()) all += (all.empty() ? "" : ", ") + std::string(b->kind());
    EXPECT_EQ(e.key_path(), "topology.kind");
    EXPECT_EQ(e.expected(), "one of " + all);
    EXPECT_EQ(e.found(), "'dgx3'");
    EXPECT_EQ(e.hint(), "did you mean 'dgx2'?");
  }
}

}  // namespace
}  // namespace hx
