// clex_test.cpp: the CLEX graph (systemc/topology/clex_graph.h), its routes (clex_paths.h) and
// the properties issue 21 lists: node and link counts, degrees, the diameter bound of section
// II-B, valid paths for both schemes, determinism from a seed. Expected figures are hand-derived
// (the derivation beside each) or the paper's.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <map>
#include <set>

#include "clex_graph.h"
#include "clex_model.h"
#include "clex_paths.h"
#include "clex_rounds.h"
#include "clex_topology.h"
#include "config_reader.h"
#include "fabric_topology.h"
#include "sim_config.h"

namespace hx::clex {
namespace {

uint64_t choose(unsigned n, unsigned r) {
  uint64_t c = 1;
  for (unsigned i = 0; i < r; ++i) c = c * (n - i) / (i + 1);
  return c;
}

TEST(ClexGraph, NodeAndLinkCounts) {
  // k=4, L=3: 4^3 = 64 nodes. Level 1: 16 cliques of 4, 6 links each = 96. Levels 2 and 3: the
  // 64 * 3/4 = 48 nodes with d_{l-1} != d_0 pair up: 24 links each.
  const ClexGraph g(4, 3);
  EXPECT_EQ(g.nodes(), 64u);
  EXPECT_EQ(g.link_count(1), 96u);
  EXPECT_EQ(g.link_count(2), 24u);
  EXPECT_EQ(g.link_count(3), 24u);
  // The same counts by enumerating every node's neighbours (each link seen from both ends).
  for (unsigned k : {2u, 3u, 4u, 5u, 8u}) {
    for (unsigned L : {1u, 2u, 3u}) {
      const ClexGraph h(k, L);
      std::vector<uint64_t> per_level(L + 1, 0);
      for (Node n = 0; n < h.nodes(); ++n)
        for (Node m : h.neighbours(n)) {
          const unsigned l = h.link_level(n, m);
          ASSERT_GE(l, 1u);
          ASSERT_EQ(h.link_level(m, n), l) << "links are bidirectional";
          ++per_level[l];
        }
      for (unsigned l = 1; l <= L; ++l) EXPECT_EQ(per_level[l], 2 * h.link_count(l)) << k << "^" << L << " level " << l;
    }
  }
}

TEST(ClexGraph, DegreesFollowTheOmittedSelfLinks) {
  // Degree k-1+j where j counts levels l in 2..L with d_{l-1} != d_0: for each d_0 (k values)
  // the L-1 higher digits each differ from it in k-1 of k values, so C(L-1, j) (k-1)^j k nodes
  // have degree k-1+j.
  const unsigned k = 5, L = 4;
  const ClexGraph g(k, L);
  std::map<unsigned, uint64_t> hist;
  for (Node n = 0; n < g.nodes(); ++n) {
    EXPECT_EQ(g.degree(n), g.neighbours(n).size());
    ++hist[g.degree(n)];
  }
  for (unsigned j = 0; j < L; ++j) {
    uint64_t expect = choose(L - 1, j) * k;
    for (unsigned i = 0; i < j; ++i) expect *= k - 1;
    EXPECT_EQ(hist[k - 1 + j], expect) << "degree " << k - 1 + j;
  }
  EXPECT_EQ(g.degree(0), k - 1);  // 0.0.0.0: every level's link would be a self link
  EXPECT_EQ(g.degree(1 + 2 * 5 + 3 * 25 + 4 * 125), k - 1 + L - 1);
}

TEST(ClexGraph, LevelsAreBalanced) {
  // Between any two level-(l-1) copies of a level-l copy run exactly k^{l-2} level-l links.
  const unsigned k = 4, L = 3;
  const ClexGraph g(k, L);
  for (unsigned l = 2; l <= L; ++l) {
    std::map<std::pair<Node, Node>, unsigned> between;
    for (Node n = 0; n < g.nodes(); ++n)
      if (g.has_partner(n, l)) ++between[{n / g.power(l - 1), g.partner(n, l) / g.power(l - 1)}];
    for (const auto& [pair, count] : between) EXPECT_EQ(count, g.power(l - 2));
    // every ordered pair of distinct sub-copies inside each level-l copy
    EXPECT_EQ(between.size(), g.nodes() / g.power(l) * k * (k - 1));
  }
}

TEST(ClexGraph, DiameterWithinTheBound) {
  // Section II-B's footnote: D(l) <= 2 D(l-1) + 1, D(1) = 1, so D(L) <= 2^L - 1. clex_minimal
  // shows the tighter 2(L-1)+1.
  for (auto [k, L] : {std::pair{4u, 3u}, std::pair{3u, 4u}, std::pair{2u, 5u}}) {
    const ClexGraph g(k, L);
    uint32_t diameter = 0;
    for (Node s = 0; s < g.nodes(); ++s)
      for (uint32_t d : bfs_distances(g, s)) {
        ASSERT_NE(d, UINT32_MAX) << "connected";
        diameter = std::max(diameter, d);
      }
    EXPECT_LE(diameter, (1u << L) - 1);
    EXPECT_LE(diameter, 2 * (L - 1) + 1);
  }
}

TEST(ClexPaths, BothSchemesDeliverOnLinks) {
  const ClexGraph g(4, 3);
  Rng rng(7);
  for (Node s = 0; s < g.nodes(); ++s)
    for (Node d = 0; d < g.nodes(); ++d) {
      for (int scheme = 0; scheme < 2; ++scheme) {
        const std::vector<Node> p = scheme == 0 ? minimal_path(g, s, d) : balanced_path(g, s, d, rng);
        ASSERT_EQ(p.front(), s);
        ASSERT_EQ(p.back(), d);
        for (std::size_t i = 1; i < p.size(); ++i) ASSERT_GE(g.link_level(p[i - 1], p[i]), 1u) << g.label(p[i - 1]);
        const Scheme sc = scheme == 0 ? Scheme::Minimal : Scheme::Balanced;
        ASSERT_LT(long_range_hops(g, p), vcs_needed(sc, g.levels())) << "a VC for every long-range hop";
        if (scheme == 0) {
          ASSERT_LE(p.size() - 1, 2 * (g.levels() - 1) + 1);
        }
      }
    }
}

TEST(ClexPaths, SameSeedSamePath) {
  const ClexGraph g(8, 3);
  Rng a(42), b(42), c(43);
  bool differs = false;
  for (Node s = 0; s < 512; s += 37)
    for (Node d = 0; d < 512; d += 29) {
      const auto pa = balanced_path(g, s, d, a);
      EXPECT_EQ(pa, balanced_path(g, s, d, b));
      differs |= pa != balanced_path(g, s, d, c);
    }
  EXPECT_TRUE(differs) << "another seed draws other links";
}

TEST(ClexPaths, BalancedHopsMatchTheRecursion) {
  // balanced_hops() is the expectation of clex_balanced's hops per level; sampled paths agree.
  const ClexGraph g(4, 3);
  Rng rng(3);
  std::vector<double> sum(4, 0);
  const unsigned n = 200000;
  for (unsigned i = 0; i < n; ++i) {
    const std::vector<Node> p = balanced_path(g, rng.below(64), rng.below(64), rng);
    for (std::size_t h = 1; h < p.size(); ++h) sum[g.link_level(p[h - 1], p[h])] += 1;
  }
  const std::vector<double> e = balanced_hops(4, 3);
  // Hand-derived: c_3 = 1, c_2 = 1.75, c_1 = 3.0625; h_l = 3/4 c_l.
  EXPECT_NEAR(e[3], 0.75, 1e-12);
  EXPECT_NEAR(e[2], 1.3125, 1e-12);
  EXPECT_NEAR(e[1], 2.296875, 1e-12);
  for (unsigned l = 1; l <= 3; ++l) EXPECT_NEAR(sum[l] / n, e[l], 0.02) << "level " << l;
}

TEST(ClexPaths, MinimalAgainstBfs) {
  const ClexGraph g(4, 3);
  std::vector<Node> all(g.nodes());
  for (Node n = 0; n < g.nodes(); ++n) all[n] = n;
  const MinimalVsShortest r = compare_minimal(g, all);
  EXPECT_EQ(r.pairs, 64u * 63u);
  EXPECT_GT(r.shortest_fraction(), 0.5);
  EXPECT_LE(r.mean_extra_hops, 1.0);
  EXPECT_GE(r.mean_minimal_hops, r.mean_shortest_hops);
}

TEST(ClexLayout, CubeInCube) {
  EXPECT_EQ(cubic_factors(64), (std::array<uint32_t, 3>{4, 4, 4}));
  EXPECT_EQ(cubic_factors(32), (std::array<uint32_t, 3>{2, 4, 4}));
  EXPECT_EQ(cubic_factors(8), (std::array<uint32_t, 3>{2, 2, 2}));
  const ClexGraph g(8, 3, 0.5);
  // 512 nodes on an 8x8x8 grid, each place once.
  EXPECT_EQ(g.extent(), (std::array<uint32_t, 3>{8, 8, 8}));
  std::set<std::array<uint32_t, 3>> seen;
  for (Node n = 0; n < g.nodes(); ++n) seen.insert(g.grid(n));
  EXPECT_EQ(seen.size(), 512u);
  // A clique is a 2x2x2 cube of pitch 0.5 m: its longest link is the space diagonal.
  EXPECT_NEAR(g.max_length_m(1), 0.5 * std::sqrt(3.0), 1e-12);
  // A level-l link joins (a at digit l-1, b at digit 0) to (b, a): its ends differ by the digit
  // offset times (side of a level-(l-1) cube - 1), the side being 2^{l-1} here. So the longest
  // level-2 link is (2-1) sqrt(3) pitch, level 3's (4-1) sqrt(3) pitch: longer cables on higher
  // levels, growing with the side of the cube they span.
  EXPECT_NEAR(g.max_length_m(2), 0.5 * std::sqrt(3.0), 1e-12);
  EXPECT_NEAR(g.max_length_m(3), 3 * 0.5 * std::sqrt(3.0), 1e-12);
  EXPECT_LT(g.mean_length_m(2), g.mean_length_m(3));
  // k=32, L=4 (the paper's): 2^20 nodes in 64 x 128 x 128.
  const ClexGraph p(32, 4);
  EXPECT_EQ(p.extent()[0] * p.extent()[1] * p.extent()[2], p.nodes());
}

TEST(ClexCapacity, PlainAndHopWeighted) {
  const LevelCapacities plain = plain_capacities(32, 4, 1.0);
  EXPECT_EQ(plain[1], 1.0);
  EXPECT_EQ(plain[4], 32.0);
  // Section III-A with Table I's hops (10.63, 4, 2, 1): a node's total bandwidth B splits
  // 10.63 : 4 : 2 : 1 over the levels; level 1's share over its 31 clique links.
  const double B = 1000;
  const LevelCapacities c = hop_weighted_capacities(32, 4, B, {0, 10.63, 4, 2, 1});
  const double sum = 17.63;
  EXPECT_NEAR(c[1], B * 10.63 / sum / 31, 1e-9);
  EXPECT_NEAR(c[4], B / sum, 1e-9);
  EXPECT_NEAR(31 * c[1] + c[2] + c[3] + c[4], B, 1e-9);
}

TEST(ClexGraph, BadSizes) {
  EXPECT_THROW(ClexGraph(1, 3), std::invalid_argument);
  EXPECT_THROW(ClexGraph(4, 0), std::invalid_argument);
  EXPECT_THROW(ClexGraph(1024, 4), std::invalid_argument);  // 2^40 nodes
  EXPECT_EQ(node_count(1024, 4), 0u);
  EXPECT_EQ(node_count(64, 3), 262144u);
}

// ---- the round-based model (model/clex_rounds.h) --------------------------------------------

RoundParams small(RelayMode relay, uint64_t seed = 1) {
  RoundParams p;
  p.k = 4;
  p.levels = 3;
  p.messages_per_node = 3;
  p.relay = relay;
  p.capacity = plain_capacities(4, 3, 1.0);
  p.seed = seed;
  return p;
}

TEST(ClexRounds, DeliversEveryMessageOnce) {
  for (RelayMode m : {RelayMode::Request, RelayMode::Direct})
    for (auto [k, L, msgs] :
         {std::tuple{4u, 3u, 3u}, std::tuple{2u, 4u, 5u}, std::tuple{8u, 1u, 20u}, std::tuple{5u, 2u, 9u}}) {
      RoundParams p;
      p.k = k;
      p.levels = L;
      p.messages_per_node = msgs;
      p.relay = m;
      p.capacity = plain_capacities(k, L, 1.0);
      const RoundResults r = run_rounds(p);
      EXPECT_TRUE(r.delivered) << k << "^" << L;
      EXPECT_EQ(r.messages, uint64_t{node_count(k, L)} * msgs);
    }
}

TEST(ClexRounds, TopLevelFacts) {
  const RoundResults r = run_rounds(small(RelayMode::Request));
  // The top call holds every message: its average load is exactly the messages per node, and
  // no deeper call can hold more than all the messages of its copy, which is also 3 per node
  // in step 3 (destinations are a permutation of each node 3 times).
  EXPECT_DOUBLE_EQ(r.levels[3].max_avg_load, 3.0);
  EXPECT_EQ(r.levels[3].instances, 1u);
  // A message crosses each level at most once per call of it: level-L hops <= 1 per message,
  // and the level-L link carries k = 4 per round while an owner gets far fewer than 8 here.
  EXPECT_LE(r.levels[3].avg_hops, 1.0);
  EXPECT_LE(r.levels[3].max_rounds, 2u);
  // Every message makes at least one level-1 hop (its last call, possibly over the loop).
  EXPECT_GE(r.levels[1].avg_hops, 1.0);
  // Request mode: a relayed message's handshake adds exactly 2 rounds, so the two averages
  // differ by twice the relayed share, never negative.
  EXPECT_GE(r.levels[1].avg_rounds_with_handshake, r.levels[1].avg_rounds);
}

TEST(ClexRounds, CliqueAloneMatchesHandCount) {
  // One clique of k = 3, one message per node: a uniform permutation of {0, 1, 2}; every
  // (source, destination) pair is distinct, so all go directly in round 1: 1 hop, 1 round.
  RoundParams p;
  p.k = 3;
  p.levels = 1;
  p.messages_per_node = 1;
  p.capacity = {0, 1};
  const RoundResults r = run_rounds(p);
  EXPECT_EQ(r.levels[1].max_rounds, 1u);
  EXPECT_DOUBLE_EQ(r.levels[1].avg_hops, 1.0);
  EXPECT_DOUBLE_EQ(r.levels[1].avg_rounds, 1.0);
}

TEST(ClexRounds, SameSeedSameResults) {
  const RoundResults a = run_rounds(small(RelayMode::Direct, 9)), b = run_rounds(small(RelayMode::Direct, 9));
  bool other = false;
  for (uint64_t seed = 10; seed < 14; ++seed) {
    const RoundResults c = run_rounds(small(RelayMode::Direct, seed));
    other |= c.levels[1].avg_hops != a.levels[1].avg_hops || c.levels[1].avg_rounds != a.levels[1].avg_rounds;
  }
  for (unsigned l = 1; l <= 3; ++l) {
    EXPECT_EQ(a.levels[l].max_rounds, b.levels[l].max_rounds);
    EXPECT_EQ(a.levels[l].avg_rounds, b.levels[l].avg_rounds);
    EXPECT_EQ(a.levels[l].avg_hops, b.levels[l].avg_hops);
    EXPECT_EQ(a.levels[l].max_avg_load, b.levels[l].max_avg_load);
  }
  EXPECT_TRUE(other) << "other seeds give other draws";
}

TEST(ClexRounds, WiderLinksTakeFewerRounds) {
  // A level-l link of capacity >= the most any owner holds crosses in one round.
  RoundParams p = small(RelayMode::Request);
  p.messages_per_node = 12;
  p.capacity = {0, 1, 1000, 1000};
  const RoundResults r = run_rounds(p);
  EXPECT_EQ(r.levels[2].max_rounds, 1u);
  EXPECT_EQ(r.levels[3].max_rounds, 1u);
  p.capacity = {0, 1, 1, 1};  // 12 x 64 messages, 3/4 crossing over 48 owners: queues of ~12
  EXPECT_GT(run_rounds(p).levels[3].max_rounds, 4u);
}

// Section III-A's k=64, L=3 with 57 messages per node (Table II), about 15 s: the figures that
// follow from the construction, derived by hand, not from a run.
TEST(ClexRoundsPaper, TableTwoFollowsTheConstruction) {
  RoundParams p;
  p.k = 64;
  p.levels = 3;
  p.messages_per_node = 57;
  p.capacity = plain_capacities(64, 3, 1.0);
  const RoundResults r = run_rounds(p);
  ASSERT_TRUE(r.delivered);
  // The top call holds every message: 57 per node exactly.
  EXPECT_DOUBLE_EQ(r.levels[3].max_avg_load, 57.0);
  // Level-3 hops: the share of messages whose destination is in another level-2 copy; with a
  // random permutation of each node 57 times that is 63/64 = 0.984 up to sampling noise.
  EXPECT_NEAR(r.levels[3].avg_hops, 63.0 / 64, 0.002);
  // Level-1 calls per message: c_1 = (1 + 63/64)^2 = 3.938 (clex::balanced_hops' recursion).
  // Per call, a message goes directly unless another message of its node already took that
  // link: with m = 57 messages to u.i.r. destinations among k = 64 (the loop included) a node
  // reaches k (1 - (1 - 1/k)^m) = 37.9 distinct ones, so a share 1 - 37.9 / 57 = 0.335 needs one
  // relay hop more: 1.335 hops per call (the paper: 5.34 / 4 = 1.335).
  const double calls = (1 + 63.0 / 64) * (1 + 63.0 / 64);
  const double direct = 64 * (1 - std::pow(63.0 / 64, 57)) / 57;
  EXPECT_NEAR(r.levels[1].avg_hops / calls, 2 - direct, 0.01);
  // The paper's worst clique took 9 rounds (4 phases) here, and 11 in Table I.
  EXPECT_LE(r.levels[1].max_rounds, 11u);
  // A level-l link carries k = 64 per round and an owner gets 57 on average: 1 or 2 rounds.
  EXPECT_LE(r.levels[3].max_rounds, 2u);
  EXPECT_LE(r.levels[2].max_rounds, 2u);
}

// ---- the config (item 5: bad input) ---------------------------------------------------------

std::string clex_yaml(const std::string& k, const std::string& levels, const std::string& extra = "") {
  return "topology:\n  kind: clex\n  clex:\n    k: " + k + "\n    levels: " + levels + "\n" + extra +
         "rounds:\n  messages: 2\n";
}

ConfigError error_of(const std::string& yaml) {
  try {
    load_config_text(yaml, "t.yaml");
  } catch (const ConfigError& e) {
    return e;
  }
  ADD_FAILURE() << "no error for:\n" << yaml;
  throw std::runtime_error("no error");
}

TEST(ClexConfig, LoadsAndDerives) {
  const SimConfig c = load_config_text(clex_yaml("4", "3"), "t.yaml");
  EXPECT_EQ(c.topology.clex.k, 4u);
  EXPECT_EQ(c.node_count(), 64u);
  EXPECT_TRUE(c.rounds.enabled);
  EXPECT_EQ(c.routing.algorithm, "clex_minimal");
}

TEST(ClexConfig, BadSizesNameFileLineAndKey) {
  ConfigError e = error_of(clex_yaml("1", "3"));
  EXPECT_EQ(e.key_path(), "topology.clex.k");
  EXPECT_EQ(e.line(), 4);
  EXPECT_EQ(e.found(), "'1'");
  e = error_of(clex_yaml("4", "0"));
  EXPECT_EQ(e.key_path(), "topology.clex.levels");
  EXPECT_EQ(e.line(), 5);
  // 65535^32 nodes: too many for 32-bit node numbers, known from k^L alone.
  e = error_of(clex_yaml("65535", "32"));
  EXPECT_EQ(e.key_path(), "topology.clex.levels");
  EXPECT_NE(e.found().find("65535^32"), std::string::npos) << e.what();
  // 1024^3 = 2^30 nodes x 2 messages x 8 B = 16 GiB > rounds.memory 8 GiB.
  e = error_of(clex_yaml("1024", "3"));
  EXPECT_EQ(e.key_path(), "topology.clex.levels");
  EXPECT_NE(e.expected().find("rounds.memory"), std::string::npos) << e.what();
  EXPECT_NE(std::string(e.what()).find("t.yaml:5"), std::string::npos) << e.what();
}

TEST(ClexConfig, UnknownRoutingListsTheRegisteredOnes) {
  const ConfigError e = error_of(clex_yaml("4", "3") + "routing:\n  algorithm: clex_fastest\n");
  EXPECT_EQ(e.key_path(), "routing.algorithm");
  EXPECT_NE(e.expected().find("clex_minimal"), std::string::npos) << e.what();
  EXPECT_NE(e.expected().find("clex_balanced"), std::string::npos) << e.what();
}

TEST(ClexConfig, CapacityForms) {
  ConfigError e = error_of(clex_yaml("4", "3", "    capacity: [10 Gb/s, 40 Gb/s]\n"));
  EXPECT_EQ(e.key_path(), "topology.clex.capacity");
  e = error_of(clex_yaml("4", "3", "    capacity: hop_weighted\n"));
  EXPECT_EQ(e.key_path(), "topology.clex.node_bandwidth");
  const SimConfig c = load_config_text(clex_yaml("4", "3", "    capacity: [10 Gb/s, 40 Gb/s, 40 Gb/s]\n"), "t.yaml");
  EXPECT_EQ(c.topology.clex.level_bps.size(), 3u);
  EXPECT_TRUE(error_of("topology:\n  kind: torus\n  board: 2x2\n  global: 2x2\nrounds:\n  messages: 2\n").key_path() ==
              "rounds");
}

TEST(ClexConfig, EffectiveValuesLoadBack) {
  for (const char* name : {"clex_4x3_rounds.yaml", "clex_4x3_saturation.yaml", "torus3d_4x4x4_uniform.yaml"}) {
    const SimConfig c = load_config(std::string(HX_CONFIG_DIR) + "/clex/" + name);
    const SimConfig back = load_config_text(to_yaml(c), "effective.yaml");
    EXPECT_EQ(effective_values(back), effective_values(c)) << name;
  }
}

// ---- coordinates for the coordinate traffic patterns, and the torus's layout ------------------

// The CLEX's cube-in-cube grid and the 3D torus it is compared with have the same extents, so
// transpose, bit_reversal and tornado mean the same on both (docs/clex.md). Hand-derived: k = 4
// factors as 1 x 2 x 2, rotated per level: (1,2,2) (2,2,1) (2,1,2) multiply to 4 x 4 x 4; k = 8
// is 2 x 2 x 2 per level: 8 x 8 x 8.
TEST(ClexGrid, ExtentsEqualTheTorusOfTheSameSize) {
  const std::string cycle = "router:\n  vcs: 4\ntraffic:\n  injection_rate: 0.1\n";
  for (const unsigned k : {4u, 8u}) {
    const SimConfig clex = load_config_text(
        "topology:\n  kind: clex\n  clex:\n    k: " + std::to_string(k) + "\n    levels: 3\n" + cycle, "c.yaml");
    const std::string side = std::to_string(k);
    const SimConfig torus = load_config_text(
        "topology:\n  kind: torus3d\n  sides: " + side + "x" + side + "x" + side + "\n" + cycle, "t.yaml");
    const FabricTopology& ct = fabric_topology("clex");
    const FabricTopology& tt = fabric_topology("torus3d");
    EXPECT_EQ(ct.grid_extents(clex), (std::vector<unsigned>{k, k, k}));
    EXPECT_EQ(ct.grid_extents(clex), tt.grid_extents(torus));
    // One node per grid point (the NodeGrid constructor checks the bijection), each at the
    // layout's place: its position in metres is its grid point times the pitch.
    const NodeGrid g = ct.node_grid(clex);
    const ClexGraph graph(k, 3, 0.5);
    for (Node n = 0; n < graph.nodes(); ++n) {
      const NodeGrid::Coords c = g.coords(n);
      const std::array<uint32_t, 3> p = graph.grid(n);
      EXPECT_EQ((std::array<uint32_t, 3>{c[0], c[1], c[2]}), p) << n;
    }
    // The torus's grid is its own numbering.
    const NodeGrid tg = tt.node_grid(torus);
    for (unsigned n = 0; n < tg.nodes(); ++n) EXPECT_EQ(tg.index(n), n);
  }
  // A pattern the grid cannot take is the config's error, on traffic.pattern.
  const ConfigError e = error_of(
      "topology:\n  kind: torus3d\n  sides: 4x4x2\nrouter:\n  vcs: 2\ntraffic:\n  pattern: transpose\n"
      "  injection_rate: 0.1\n");
  EXPECT_EQ(e.key_path(), "traffic.pattern");
  EXPECT_EQ(e.found(), "'transpose'");
  EXPECT_NE(e.hint().find("equal extents along x and z; the node grid is 4x4x2"), std::string::npos) << e.what();
  const ConfigError b = error_of(
      "topology:\n  kind: torus3d\n  sides: 4x3x4\nrouter:\n  vcs: 2\ntraffic:\n  pattern: bit_reversal\n"
      "  injection_rate: 0.1\n");
  EXPECT_EQ(b.key_path(), "traffic.pattern");
  EXPECT_NE(b.hint().find("power-of-two node count; the node grid 4x3x4 has 48 nodes"), std::string::npos) << b.what();
}

// The folded torus: ring neighbours 2 pitches apart except at the two folds of each ring (1
// pitch), so a ring of k >= 3 has k - 2 cables of 2 pitches and 2 of 1; every cable's latency is
// links.global.latency plus its length at 2e8 m/s, as the CLEX's.
TEST(Torus3dLayout, FoldedCablesAndTheirLatency) {
  const SimConfig c = load_config_text(
      "topology:\n  kind: torus3d\n  sides: 4x4x4\n  pitch: 1 m\nrouter:\n  vcs: 2\n"
      "links:\n  global:\n    latency: 5 ns\ntraffic:\n  injection_rate: 0.1\n",
      "t.yaml");
  const NetworkDescription net = fabric_topology("torus3d").network(c);
  std::map<double, unsigned> by_length;
  for (const LinkDescription& l : net.links) {
    if (l.medium == Medium::Internal) continue;  // an accelerator's own port
    ++by_length[l.length_m];
    EXPECT_EQ(l.latency, clex_cable_cycles(c, l.length_m));
  }
  // 3 axes x 16 rings x 4 cables: half 2 m, half 1 m.
  EXPECT_EQ(by_length, (std::map<double, unsigned>{{1.0, 96u}, {2.0, 96u}}));
  // 2 m at 2e8 m/s is 10 ns on top of the 5 ns.
  EXPECT_EQ(clex_cable_cycles(c, 2.0), clex_cable_cycles(c, 0.0) + cycles_for(10e-9, c.router.clock_hz));
}

TEST(ClexModel, ResultsOfTheSmallConfig) {
  const SimConfig c = load_config(std::string(HX_CONFIG_DIR) + "/clex/clex_4x3_rounds.yaml");
  const auto j = hx::clex_model_results(c);
  EXPECT_TRUE(j["rounds"]["delivered"].get<bool>());
  EXPECT_EQ(j["rounds"]["levels"].size(), 3u);
  EXPECT_EQ(j["config"]["clex"]["links"].get<uint64_t>(), 144u);  // 96 + 24 + 24
}

}  // namespace
}  // namespace hx::clex
