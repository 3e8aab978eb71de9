// collective_plan_test.cpp: the collective plans (systemc/collective/collective_plan.h) as pure
// data, without the simulator.
//
// The core is a reference executor written here from the header's description of the stages,
// independently of the DMA engine that runs plans in the simulator: it runs a plan on small
// integer vectors, one per rank, and the result must be the collective's (every rank holds the
// sum, its reduced block, everybody's blocks, the root's data). Around it: split_range, the
// plans' structure (every ring is a cycle of torus links, the Hamiltonian flows use every
// directed link once, the bidirectional ring's second flow is the first reversed), how the
// flows split the data, and the errors for algorithms that do not fit the op or the shape.
//
// Shapes are written cols x rows, as make_collective_plan takes them.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <ostream>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "collective_plan.h"
#include "hamiltonian.h"

namespace hx {

// gtest finds this by argument-dependent lookup, so it lives in hx itself: failures then print
// "[begin, end)" instead of the struct's bytes.
void PrintTo(const ElementRange& r, std::ostream* os) { *os << "[" << r.begin << ", " << r.end << ")"; }

namespace {

struct Shape {
  unsigned cols, rows;
  unsigned ranks() const { return cols * rows; }
};

std::string describe(Shape s) { return std::to_string(s.cols) + "x" + std::to_string(s.rows); }

std::string describe(CollectiveOp op, CollectiveAlgorithm alg, Shape s, uint64_t elements, unsigned root) {
  return collective_op_name(op) + " " + collective_algorithm_name(alg) + " on " + describe(s) +
         ", S = " + std::to_string(elements) + ", root " + std::to_string(root);
}

// True when the construction of the two edge-disjoint cycles applies in either orientation.
bool hamiltonian_fits(Shape s) {
  return has_hamiltonian_cycles(s.rows, s.cols) || has_hamiltonian_cycles(s.cols, s.rows);
}

// Shapes for the single-cycle algorithms: Hamiltonian-cycle shapes (both orientations), snakes
// (an even side), lines (one side 1) and a single rank.
const std::vector<Shape> kRingShapes = {{8, 8}, {4, 8}, {8, 4}, {4, 4}, {2, 2}, {3, 9}, {9, 3},
                                        {3, 3}, {3, 4}, {2, 3}, {6, 1}, {1, 5}, {5, 2}, {1, 1}};
// Shapes where the two edge-disjoint cycles exist: 8x8, 4x4, 2x2, 3x3 and 4x8, 3x9 in the
// construction's own orientation (r a multiple of c), 8x4, 9x3 transposed.
const std::vector<Shape> kHamiltonianShapes = {{8, 8}, {4, 8}, {8, 4}, {4, 4}, {2, 2}, {3, 9}, {9, 3}, {3, 3}};
// torus2d needs no cycle through all ranks, so both-odd shapes like 5x3 work too.
const std::vector<Shape> kTorus2dShapes = {{8, 8}, {4, 8}, {8, 4}, {4, 4}, {2, 2}, {3, 9},
                                           {5, 3}, {6, 1}, {1, 5}, {5, 2}, {1, 1}};
// Element counts that divide unevenly among the ranks and flows, down to fewer elements than ranks.
const std::vector<uint64_t> kElementCounts = {1000, 37, 3, 1};

const std::vector<CollectiveAlgorithm> kRingAlgorithms = {
    CollectiveAlgorithm::Ring, CollectiveAlgorithm::BidirectionalRing, CollectiveAlgorithm::Hamiltonian};

const std::vector<Shape>& shapes_for(CollectiveAlgorithm alg) {
  switch (alg) {
    case CollectiveAlgorithm::Hamiltonian: return kHamiltonianShapes;
    case CollectiveAlgorithm::Torus2D: return kTorus2dShapes;
    default: return kRingShapes;
  }
}

// ---- the reference executor ---------------------------------------------------------------------

using Values = std::vector<std::vector<int64_t>>;  // [rank][element]

// Rank r's input at element i. Distinct per rank and per element, so that a missing, doubled or
// misplaced contribution changes the result.
int64_t input(unsigned r, uint64_t i) { return int64_t{r} * 1000 + static_cast<int64_t>(i); }
// What an all_gather rank holds outside its own block before the collective: never a valid input.
constexpr int64_t kPoison = -1;

Values inputs(unsigned ranks, uint64_t elements) {
  Values v(ranks, std::vector<int64_t>(elements));
  for (unsigned r = 0; r < ranks; ++r)
    for (uint64_t i = 0; i < elements; ++i) v[r][i] = input(r, i);
  return v;
}

// Every rank is in exactly one ring of the stage, ring_of/position_of say where, and every ring
// has one chunk per position. The executor relies on it (sent_chunk indexes with these tables).
void check_stage_layout(const Stage& st, unsigned ranks) {
  ASSERT_EQ(st.ring_of.size(), ranks);
  ASSERT_EQ(st.position_of.size(), ranks);
  ASSERT_EQ(st.chunk.size(), st.rings.size());
  std::vector<unsigned> seen(ranks, 0);
  for (unsigned g = 0; g < st.rings.size(); ++g) {
    ASSERT_FALSE(st.rings[g].empty()) << "ring " << g;
    ASSERT_EQ(st.chunk[g].size(), st.rings[g].size()) << "ring " << g;
    for (unsigned i = 0; i < st.rings[g].size(); ++i) {
      const unsigned rank = st.rings[g][i];
      ASSERT_LT(rank, ranks);
      ++seen[rank];
      EXPECT_EQ(st.ring_of[rank], g) << "rank " << rank;
      EXPECT_EQ(st.position_of[rank], i) << "rank " << rank;
      EXPECT_EQ(st.ring_size(rank), st.rings[g].size()) << "rank " << rank;
    }
  }
  for (unsigned r = 0; r < ranks; ++r) EXPECT_EQ(seen[r], 1u) << "rank " << r << " is in " << seen[r] << " rings";
}

// The chunk index position i of an n-ring sends at step s, from the header: reduce_scatter
// (i - s - 1) mod n, all_gather (i - s) mod n. Computed here rather than taken from
// Stage::sent_chunk, which the executor checks against it.
unsigned sent_index(StageKind kind, unsigned i, unsigned s, unsigned n) {
  const unsigned back = (kind == StageKind::ReduceScatter ? s + 1 : s) % n;
  return (i + n - back) % n;
}

void copy_range(const std::vector<int64_t>& from, std::vector<int64_t>& to, ElementRange r) {
  std::copy(from.begin() + r.begin, from.begin() + r.end, to.begin() + r.begin);
}

// Runs one stage on `v` (one working vector of all S elements per rank).
void run_stage(const Stage& st, Values& v) {
  const uint64_t elements = v.empty() ? 0 : v[0].size();
  for (unsigned g = 0; g < st.rings.size(); ++g) {
    const std::vector<unsigned>& ring = st.rings[g];
    const unsigned n = static_cast<unsigned>(ring.size());
    // Chunks outside the message would be out-of-bounds accesses below: fail cleanly instead.
    for (unsigned i = 0; i < n; ++i)
      ASSERT_TRUE(st.chunk[g][i].begin <= st.chunk[g][i].end && st.chunk[g][i].end <= elements)
          << "ring " << g << " position " << i << " chunk [" << st.chunk[g][i].begin << ", " << st.chunk[g][i].end
          << ") is not inside the " << elements << " elements";
    if (st.kind == StageKind::Chain) {
      // Position k - 1 hands the root's range on to position k; n - 1 hops reach the last one.
      const ElementRange range = st.chunk[g][0];
      for (unsigned k = 1; k < n; ++k) copy_range(v[ring[k - 1]], v[ring[k]], range);
      continue;
    }
    for (unsigned s = 0; s + 1 < n; ++s) {
      // Lock-step: all messages of step s are taken from the state before the step ...
      std::vector<ElementRange> range(n);
      std::vector<std::vector<int64_t>> payload(n);
      for (unsigned i = 0; i < n; ++i) {
        range[i] = st.chunk[g][sent_index(st.kind, i, s, n)];
        ASSERT_EQ(st.sent_chunk(ring[i], s), range[i]) << "ring " << g << " position " << i << " step " << s;
        payload[i].assign(v[ring[i]].begin() + range[i].begin, v[ring[i]].begin() + range[i].end);
      }
      // ... and only then delivered to position i + 1, which adds (reduce_scatter) or keeps
      // (all_gather) them. The receiver's own bookkeeping must name the same chunk.
      for (unsigned i = 0; i < n; ++i) {
        const unsigned to = ring[(i + 1) % n];
        ASSERT_EQ(st.received_chunk(to, s), range[i]) << "ring " << g << " position " << (i + 1) % n << " step " << s;
        for (uint64_t k = 0; k < range[i].size(); ++k) {
          int64_t& x = v[to][range[i].begin + k];
          x = st.kind == StageKind::ReduceScatter ? x + payload[i][k] : payload[i][k];
        }
      }
    }
  }
}

// Runs every flow's stages in order. Flows run one after another here: they work on disjoint
// element ranges (checked separately), so the order between them does not matter.
void run_plan(const CollectivePlan& plan, Values& v) {
  for (unsigned f = 0; f < plan.flows.size(); ++f) {
    for (unsigned k = 0; k < plan.flows[f].stages.size(); ++k) {
      SCOPED_TRACE("flow " + std::to_string(f) + " stage " + std::to_string(k));
      const Stage& st = plan.flows[f].stages[k];
      ASSERT_NO_FATAL_FAILURE(check_stage_layout(st, plan.ranks()));
      ASSERT_NO_FATAL_FAILURE(run_stage(st, v));
    }
  }
}

// The rank whose block holds element i.
unsigned owner(const CollectivePlan& plan, uint64_t i) {
  for (unsigned r = 0; r < plan.ranks(); ++r)
    if (plan.block(r).begin <= i && i < plan.block(r).end) return r;
  ADD_FAILURE() << "element " << i << " is in no block";
  return 0;
}

// Builds the plan, runs it on the reference executor and checks the collective's result.
void check_result(CollectiveOp op, CollectiveAlgorithm alg, Shape shape, uint64_t elements, unsigned root = 0) {
  SCOPED_TRACE(describe(op, alg, shape, elements, root));
  const CollectivePlan plan = make_collective_plan(op, alg, shape.cols, shape.rows, elements, root);
  const unsigned p = shape.ranks();
  ASSERT_EQ(plan.ranks(), p);
  ASSERT_EQ(plan.elements, elements);

  Values v = inputs(p, elements);
  if (op == CollectiveOp::AllGather) {  // rank r contributes only its block
    for (unsigned r = 0; r < p; ++r)
      for (uint64_t i = 0; i < elements; ++i)
        if (i < plan.block(r).begin || i >= plan.block(r).end) v[r][i] = kPoison;
  }
  ASSERT_NO_FATAL_FAILURE(run_plan(plan, v));

  std::vector<int64_t> sum(elements, 0);
  for (unsigned r = 0; r < p; ++r)
    for (uint64_t i = 0; i < elements; ++i) sum[i] += input(r, i);
  std::vector<unsigned> owners(elements);
  for (uint64_t i = 0; i < elements; ++i) owners[i] = owner(plan, i);
  unsigned wrong = 0;  // report the first few wrong elements only
  const auto expect = [&](unsigned r, uint64_t i, int64_t want) {
    if (v[r][i] != want && ++wrong <= 5)
      ADD_FAILURE() << "rank " << r << " element " << i << ": " << v[r][i] << ", expected " << want;
  };
  for (unsigned r = 0; r < p; ++r) {
    switch (op) {
      case CollectiveOp::AllReduce:
        for (uint64_t i = 0; i < elements; ++i) expect(r, i, sum[i]);
        break;
      case CollectiveOp::ReduceScatter:
        for (uint64_t i = plan.block(r).begin; i < plan.block(r).end; ++i) expect(r, i, sum[i]);
        break;
      case CollectiveOp::AllGather:
        for (uint64_t i = 0; i < elements; ++i) expect(r, i, input(owners[i], i));
        break;
      case CollectiveOp::Broadcast:
        for (uint64_t i = 0; i < elements; ++i) expect(r, i, input(root, i));
        break;
      case CollectiveOp::AllToAll: FAIL() << "all_to_all has no flows to run";
    }
  }
  EXPECT_EQ(wrong, 0u) << "wrong elements in total";
}

// ---- torus geometry ---------------------------------------------------------------------------

enum class Dir { PlusX, MinusX, PlusY, MinusY, None };

// The torus link from rank a to rank b (rank = y * cols + x). On a 2-wide side +1 and -1 reach
// the same neighbour; that reports as the + direction.
Dir link_direction(unsigned a, unsigned b, Shape s) {
  const unsigned ax = a % s.cols, ay = a / s.cols, bx = b % s.cols, by = b / s.cols;
  if (a == b) return Dir::None;
  if (ay == by && bx == (ax + 1) % s.cols) return Dir::PlusX;
  if (ay == by && bx == (ax + s.cols - 1) % s.cols) return Dir::MinusX;
  if (ax == bx && by == (ay + 1) % s.rows) return Dir::PlusY;
  if (ax == bx && by == (ay + s.rows - 1) % s.rows) return Dir::MinusY;
  return Dir::None;
}

// Every consecutive pair of every ring (last -> first included) is a torus link.
void check_rings_on_torus_links(const CollectivePlan& plan, Shape s) {
  for (unsigned f = 0; f < plan.flows.size(); ++f) {
    for (unsigned k = 0; k < plan.flows[f].stages.size(); ++k) {
      const Stage& st = plan.flows[f].stages[k];
      for (unsigned g = 0; g < st.rings.size(); ++g) {
        const std::vector<unsigned>& ring = st.rings[g];
        if (ring.size() < 2) continue;
        for (unsigned i = 0; i < ring.size(); ++i) {
          const unsigned a = ring[i], b = ring[(i + 1) % ring.size()];
          EXPECT_NE(link_direction(a, b, s), Dir::None) << "flow " << f << " stage " << k << " ring " << g << ": ranks "
                                                        << a << " -> " << b << " are not torus neighbours";
        }
      }
    }
  }
}

// The chunks of `ranges` (in any order) tile `whole` exactly: no gap, no overlap.
void expect_tiles(std::vector<ElementRange> ranges, ElementRange whole, const std::string& what) {
  std::sort(ranges.begin(), ranges.end(), [](const ElementRange& a, const ElementRange& b) {
    return a.begin != b.begin ? a.begin < b.begin : a.end < b.end;
  });
  uint64_t cursor = whole.begin;
  for (const ElementRange& r : ranges) {
    EXPECT_EQ(r.begin, cursor) << what << ": gap or overlap at " << cursor;
    EXPECT_LE(r.begin, r.end) << what;
    cursor = r.end;
  }
  EXPECT_EQ(cursor, whole.end) << what;
}

// ---- split_range ------------------------------------------------------------------------------

TEST(CollectivePlanSplitRange, ExactParts) {
  EXPECT_EQ(split_range({10, 20}, 0, 3), (ElementRange{10, 14}));
  EXPECT_EQ(split_range({10, 20}, 1, 3), (ElementRange{14, 17}));
  EXPECT_EQ(split_range({10, 20}, 2, 3), (ElementRange{17, 20}));
  EXPECT_EQ(split_range({0, 1000}, 3, 4), (ElementRange{750, 1000}));
  EXPECT_EQ(split_range({0, 37}, 0, 4), (ElementRange{0, 10}));
  EXPECT_EQ(split_range({0, 37}, 1, 4), (ElementRange{10, 19}));
  EXPECT_EQ(split_range({0, 37}, 3, 4), (ElementRange{28, 37}));
  // More parts than elements: one element each, then empty parts at the end.
  EXPECT_EQ(split_range({5, 7}, 0, 4), (ElementRange{5, 6}));
  EXPECT_EQ(split_range({5, 7}, 1, 4), (ElementRange{6, 7}));
  EXPECT_EQ(split_range({5, 7}, 2, 4), (ElementRange{7, 7}));
  EXPECT_EQ(split_range({5, 7}, 3, 4), (ElementRange{7, 7}));
  EXPECT_EQ(split_range({3, 3}, 0, 2), (ElementRange{3, 3}));
}

TEST(CollectivePlanSplitRange, PartitionsInOrderBalancedFirstLarger) {
  for (const uint64_t begin : {0ull, 5ull, 1000003ull}) {
    for (const uint64_t size : {0ull, 1ull, 2ull, 3ull, 37ull, 64ull, 1000ull}) {
      for (const uint64_t m : {1ull, 2ull, 3ull, 4ull, 7ull, 64ull, 1001ull}) {
        SCOPED_TRACE("range [" + std::to_string(begin) + ", +" + std::to_string(size) + ") in " + std::to_string(m));
        const ElementRange whole{begin, begin + size};
        uint64_t cursor = begin;
        for (uint64_t k = 0; k < m; ++k) {
          const ElementRange part = split_range(whole, k, m);
          ASSERT_EQ(part.begin, cursor) << "part " << k;  // in order, no gap, no overlap
          // Sizes differ by at most one, the first size % m parts one larger.
          ASSERT_EQ(part.size(), size / m + (k < size % m ? 1 : 0)) << "part " << k;
          cursor = part.end;
        }
        EXPECT_EQ(cursor, whole.end);
        if (m > size) {  // every element in its own part, the rest empty at the end
          for (uint64_t k = size; k < m; ++k) EXPECT_EQ(split_range(whole, k, m), (ElementRange{whole.end, whole.end}));
        }
      }
    }
  }
}

// ---- the reference executor on every algorithm ------------------------------------------------

TEST(CollectivePlanReference, AllReduce) {
  for (const CollectiveAlgorithm alg : {CollectiveAlgorithm::Ring, CollectiveAlgorithm::BidirectionalRing,
                                        CollectiveAlgorithm::Hamiltonian, CollectiveAlgorithm::Torus2D})
    for (const Shape& s : shapes_for(alg))
      for (const uint64_t n : kElementCounts) check_result(CollectiveOp::AllReduce, alg, s, n);
}

TEST(CollectivePlanReference, ReduceScatter) {
  for (const CollectiveAlgorithm alg : kRingAlgorithms)
    for (const Shape& s : shapes_for(alg))
      for (const uint64_t n : kElementCounts) check_result(CollectiveOp::ReduceScatter, alg, s, n);
}

TEST(CollectivePlanReference, AllGather) {
  for (const CollectiveAlgorithm alg : kRingAlgorithms)
    for (const Shape& s : shapes_for(alg))
      for (const uint64_t n : kElementCounts) check_result(CollectiveOp::AllGather, alg, s, n);
}

TEST(CollectivePlanReference, Broadcast) {
  for (const CollectiveAlgorithm alg : kRingAlgorithms) {
    for (const Shape& s : shapes_for(alg)) {
      const unsigned p = s.ranks();
      // Roots other than 0: the last rank and one in the middle.
      for (const unsigned root : {p - 1, (p / 2 + 1) % p})
        for (const uint64_t n : kElementCounts) check_result(CollectiveOp::Broadcast, alg, s, n, root);
    }
  }
}

// The executor can fail: a plan that is consistent in its bookkeeping but gathers one chunk
// twice and another never leaves wrong values. Guards against an executor that, say, never
// moves data or checks the inputs instead of the results.
TEST(CollectivePlanReference, ExecutorCatchesABrokenPlan) {
  CollectivePlan plan = make_collective_plan(CollectiveOp::AllReduce, CollectiveAlgorithm::Ring, 4, 1, 8);
  const int64_t sum5 = input(0, 5) + input(1, 5) + input(2, 5) + input(3, 5);
  Values v = inputs(4, 8);
  ASSERT_NO_FATAL_FAILURE(run_plan(plan, v));
  for (unsigned r = 0; r < 4; ++r) EXPECT_EQ(v[r][5], sum5) << "rank " << r;

  // Ring 0,1,2,3 with chunks [0,2) [2,4) [4,6) [6,8): after the reduce-scatter, position 2
  // (rank 2) holds [4,6) reduced. Let it claim [2,4) in the all-gather instead: [4,6) then
  // stays partial everywhere but on rank 2.
  Stage& gather = plan.flows[0].stages[1];
  ASSERT_EQ(gather.rings[0], (std::vector<unsigned>{0, 1, 2, 3}));
  ASSERT_EQ(gather.chunk[0][2], (ElementRange{4, 6}));
  gather.chunk[0][2] = gather.chunk[0][1];
  v = inputs(4, 8);
  ASSERT_NO_FATAL_FAILURE(run_plan(plan, v));
  EXPECT_EQ(v[2][5], sum5);
  for (const unsigned r : {0u, 1u, 3u}) EXPECT_NE(v[r][5], sum5) << "rank " << r;
}

// ---- structure --------------------------------------------------------------------------------

// Flow and stage counts and kinds, exactly as the header describes each algorithm.
TEST(CollectivePlanStructure, FlowsAndStages) {
  using K = StageKind;
  const auto kinds = [](const Flow& f) {
    std::vector<K> k;
    for (const Stage& s : f.stages) k.push_back(s.kind);
    return k;
  };
  const struct {
    CollectiveOp op;
    CollectiveAlgorithm alg;
    size_t flows;
    std::vector<K> stages;
  } cases[] = {
      {CollectiveOp::AllReduce, CollectiveAlgorithm::Ring, 1, {K::ReduceScatter, K::AllGather}},
      {CollectiveOp::AllReduce, CollectiveAlgorithm::BidirectionalRing, 2, {K::ReduceScatter, K::AllGather}},
      {CollectiveOp::AllReduce, CollectiveAlgorithm::Hamiltonian, 4, {K::ReduceScatter, K::AllGather}},
      {CollectiveOp::AllReduce,
       CollectiveAlgorithm::Torus2D,
       4,
       {K::ReduceScatter, K::ReduceScatter, K::AllGather, K::AllGather}},
      {CollectiveOp::ReduceScatter, CollectiveAlgorithm::Hamiltonian, 4, {K::ReduceScatter}},
      {CollectiveOp::AllGather, CollectiveAlgorithm::BidirectionalRing, 2, {K::AllGather}},
      {CollectiveOp::Broadcast, CollectiveAlgorithm::Ring, 1, {K::Chain}},
      {CollectiveOp::Broadcast, CollectiveAlgorithm::Hamiltonian, 4, {K::Chain}},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(collective_op_name(c.op) + " " + collective_algorithm_name(c.alg));
    const CollectivePlan plan = make_collective_plan(c.op, c.alg, 4, 4, 100, 5);
    EXPECT_EQ(plan.op, c.op);
    EXPECT_EQ(plan.algorithm, c.alg);
    EXPECT_EQ(plan.root, 5u);
    ASSERT_EQ(plan.flows.size(), c.flows);
    for (const Flow& f : plan.flows) EXPECT_EQ(kinds(f), c.stages);
  }
}

// Every stage of every plan puts each rank in exactly one ring, where ring_of/position_of say.
TEST(CollectivePlanStructure, EveryRankOncePerStage) {
  for (const CollectiveOp op :
       {CollectiveOp::AllReduce, CollectiveOp::ReduceScatter, CollectiveOp::AllGather, CollectiveOp::Broadcast}) {
    for (const CollectiveAlgorithm alg : {CollectiveAlgorithm::Ring, CollectiveAlgorithm::BidirectionalRing,
                                          CollectiveAlgorithm::Hamiltonian, CollectiveAlgorithm::Torus2D}) {
      if (alg == CollectiveAlgorithm::Torus2D && op != CollectiveOp::AllReduce) continue;
      for (const Shape& s : shapes_for(alg)) {
        SCOPED_TRACE(describe(op, alg, s, 37, 0));
        const CollectivePlan plan = make_collective_plan(op, alg, s.cols, s.rows, 37);
        for (const Flow& f : plan.flows)
          for (const Stage& st : f.stages) ASSERT_NO_FATAL_FAILURE(check_stage_layout(st, s.ranks()));
      }
    }
  }
}

TEST(CollectivePlanStructure, RingsFollowTorusLinks) {
  for (const CollectiveOp op : {CollectiveOp::AllReduce, CollectiveOp::Broadcast}) {
    for (const CollectiveAlgorithm alg : {CollectiveAlgorithm::Ring, CollectiveAlgorithm::BidirectionalRing,
                                          CollectiveAlgorithm::Hamiltonian, CollectiveAlgorithm::Torus2D}) {
      if (alg == CollectiveAlgorithm::Torus2D && op != CollectiveOp::AllReduce) continue;
      for (const Shape& s : shapes_for(alg)) {
        SCOPED_TRACE(describe(op, alg, s, 1000, s.ranks() - 1));
        check_rings_on_torus_links(make_collective_plan(op, alg, s.cols, s.rows, 1000, s.ranks() - 1), s);
      }
    }
  }
  // torus_ring itself, on shapes of every kind: both cycle orientations, snakes along either
  // side, lines.
  for (const Shape& s : {Shape{8, 8}, Shape{8, 4}, Shape{4, 8}, Shape{3, 4}, Shape{4, 3}, Shape{2, 5}, Shape{5, 2},
                         Shape{7, 1}, Shape{1, 7}, Shape{6, 6}}) {
    SCOPED_TRACE(describe(s));
    const std::vector<unsigned> ring = torus_ring(s.cols, s.rows);
    ASSERT_EQ(ring.size(), s.ranks());
    EXPECT_EQ(std::set<unsigned>(ring.begin(), ring.end()).size(), s.ranks()) << "not Hamiltonian";
    for (unsigned i = 0; i < ring.size(); ++i)
      EXPECT_NE(link_direction(ring[i], ring[(i + 1) % ring.size()], s), Dir::None) << "step " << i;
  }
}

// The cycles are hamiltonian.h's, renumbered to ranks when the construction applies to the
// transposed torus (its node x * rows + y is rank y * cols + x); without the cycles torus_ring
// is the boustrophedon.
TEST(CollectivePlanStructure, CyclesAreTheConstructionsOrTheSnake) {
  for (const Shape& s : {Shape{4, 8}, Shape{3, 9}, Shape{8, 4}, Shape{9, 3}, Shape{16, 8}}) {
    SCOPED_TRACE(describe(s));
    const bool transposed = !has_hamiltonian_cycles(s.rows, s.cols);
    const TorusCycles t = transposed ? hamiltonian_cycles(s.cols, s.rows) : hamiltonian_cycles(s.rows, s.cols);
    std::array<std::vector<unsigned>, 2> want = t.cycle;
    if (transposed)
      for (auto& cycle : want)
        for (unsigned& id : cycle) id = (id % s.rows) * s.cols + id / s.rows;
    EXPECT_EQ(torus_ring(s.cols, s.rows), want[0]);
    const CollectivePlan plan =
        make_collective_plan(CollectiveOp::AllReduce, CollectiveAlgorithm::Hamiltonian, s.cols, s.rows, 100);
    ASSERT_EQ(plan.flows.size(), 4u);
    EXPECT_EQ(plan.flows[0].stages[0].rings.at(0), want[0]);
    EXPECT_EQ(plan.flows[2].stages[0].rings.at(0), want[1]);
  }
  // 3x4: rows 0 and 2 left to right, rows 1 and 3 back, closing through the wrap of column 0.
  EXPECT_EQ(torus_ring(3, 4), (std::vector<unsigned>{0, 1, 2, 5, 4, 3, 6, 7, 8, 11, 10, 9}));
  // 4x3 (odd rows): the same along the columns.
  EXPECT_EQ(torus_ring(4, 3), (std::vector<unsigned>{0, 4, 8, 9, 5, 1, 2, 6, 10, 11, 7, 3}));
  EXPECT_EQ(torus_ring(1, 5), (std::vector<unsigned>{0, 1, 2, 3, 4}));
  EXPECT_EQ(torus_ring(5, 1), (std::vector<unsigned>{0, 1, 2, 3, 4}));
  EXPECT_EQ(torus_ring(1, 1), (std::vector<unsigned>{0}));
}

// The four Hamiltonian flows leave every rank in four different directions and use each of the
// torus's 4p directed links exactly once: every accelerator drives all four ports.
TEST(CollectivePlanStructure, HamiltonianUsesEveryDirectedLinkOnce) {
  // 8x8 and 4x8 in the construction's own orientation, 16x8 and 9x3 transposed.
  for (const Shape& s : {Shape{8, 8}, Shape{16, 8}, Shape{4, 8}, Shape{9, 3}}) {
    SCOPED_TRACE(describe(s));
    ASSERT_TRUE(hamiltonian_fits(s));
    const CollectivePlan plan =
        make_collective_plan(CollectiveOp::AllReduce, CollectiveAlgorithm::Hamiltonian, s.cols, s.rows, 1000);
    ASSERT_EQ(plan.flows.size(), 4u);
    const unsigned p = s.ranks();
    std::set<std::pair<unsigned, Dir>> links;
    std::vector<std::set<Dir>> out(p);
    for (unsigned f = 0; f < 4; ++f) {
      const Stage& st = plan.flows[f].stages[0];
      ASSERT_EQ(st.rings.size(), 1u);
      const std::vector<unsigned>& ring = st.rings[0];
      ASSERT_EQ(ring.size(), p);
      for (unsigned i = 0; i < p; ++i) {
        const Dir d = link_direction(ring[i], ring[(i + 1) % p], s);
        ASSERT_NE(d, Dir::None) << "flow " << f << " position " << i;
        EXPECT_TRUE(links.insert({ring[i], d}).second)
            << "flow " << f << ": the link out of rank " << ring[i] << " is used twice";
        out[ring[i]].insert(d);
      }
      // The all-gather stage runs on the same ring.
      EXPECT_EQ(plan.flows[f].stages[1].rings, st.rings) << "flow " << f;
    }
    EXPECT_EQ(links.size(), 4u * p);
    for (unsigned r = 0; r < p; ++r) EXPECT_EQ(out[r].size(), 4u) << "rank " << r;
  }
}

// torus2d: in every one of its four stages the four flows run on +x, -x, +y and -y rings (rows
// first: +x, -x; columns first: +y, -y; then the other dimension), so that every phase drives
// all four links of every accelerator: each stage index uses every directed link exactly once.
TEST(CollectivePlanStructure, Torus2dEveryPhaseUsesEveryDirectedLinkOnce) {
  for (const Shape& s : {Shape{8, 8}, Shape{4, 8}, Shape{8, 4}, Shape{3, 5}}) {
    SCOPED_TRACE(describe(s));
    const CollectivePlan plan =
        make_collective_plan(CollectiveOp::AllReduce, CollectiveAlgorithm::Torus2D, s.cols, s.rows, 1000);
    ASSERT_EQ(plan.flows.size(), 4u);
    const Dir first[4] = {Dir::PlusX, Dir::MinusX, Dir::PlusY, Dir::MinusY};
    const Dir second[4] = {Dir::PlusY, Dir::MinusY, Dir::PlusX, Dir::MinusX};
    for (unsigned k = 0; k < 4; ++k) {
      std::set<std::pair<unsigned, Dir>> links;
      for (unsigned f = 0; f < 4; ++f) {
        const Stage& st = plan.flows[f].stages.at(k);
        // Stages 0 and 3 along the flow's first dimension, 1 and 2 along the second.
        const Dir want = (k == 0 || k == 3) ? first[f] : second[f];
        for (const std::vector<unsigned>& ring : st.rings) {
          for (unsigned i = 0; i < ring.size(); ++i) {
            const Dir d = link_direction(ring[i], ring[(i + 1) % ring.size()], s);
            EXPECT_EQ(d, want) << "flow " << f << " stage " << k << ": " << ring[i] << " -> "
                               << ring[(i + 1) % ring.size()];
            links.insert({ring[i], d});
          }
        }
      }
      EXPECT_EQ(links.size(), 4u * s.ranks()) << "stage " << k;
    }
  }
}

// Position i of the reversed ring is position (n - i) mod n of the forward one: the same cycle,
// same start, the other way round.
void expect_reversed(const std::vector<unsigned>& fwd, const std::vector<unsigned>& bwd, const std::string& what) {
  ASSERT_EQ(bwd.size(), fwd.size()) << what;
  const size_t n = fwd.size();
  for (size_t i = 0; i < n; ++i) EXPECT_EQ(bwd[i], fwd[(n - i) % n]) << what << " position " << i;
}

TEST(CollectivePlanStructure, SecondFlowIsTheFirstReversed) {
  for (const Shape& s : kRingShapes) {
    SCOPED_TRACE(describe(s));
    const CollectivePlan plan =
        make_collective_plan(CollectiveOp::AllReduce, CollectiveAlgorithm::BidirectionalRing, s.cols, s.rows, 1000);
    ASSERT_EQ(plan.flows.size(), 2u);
    for (unsigned k = 0; k < 2; ++k)
      expect_reversed(plan.flows[0].stages[k].rings.at(0), plan.flows[1].stages[k].rings.at(0),
                      "stage " + std::to_string(k));
    // The forward ring is torus_ring's.
    EXPECT_EQ(plan.flows[0].stages[0].rings[0], torus_ring(s.cols, s.rows));
  }
  // Hamiltonian: flows 1 and 3 run flows 0 and 2 backwards.
  for (const Shape& s : kHamiltonianShapes) {
    SCOPED_TRACE("hamiltonian " + describe(s));
    const CollectivePlan plan =
        make_collective_plan(CollectiveOp::AllReduce, CollectiveAlgorithm::Hamiltonian, s.cols, s.rows, 1000);
    ASSERT_EQ(plan.flows.size(), 4u);
    expect_reversed(plan.flows[0].stages[0].rings.at(0), plan.flows[1].stages[0].rings.at(0), "flows 0/1");
    expect_reversed(plan.flows[2].stages[0].rings.at(0), plan.flows[3].stages[0].rings.at(0), "flows 2/3");
  }
}

TEST(CollectivePlanStructure, BroadcastChainStartsAtTheRoot) {
  for (const CollectiveAlgorithm alg : kRingAlgorithms) {
    for (const Shape& s : shapes_for(alg)) {
      for (const unsigned root : {0u, s.ranks() - 1, s.ranks() / 2}) {
        SCOPED_TRACE(describe(CollectiveOp::Broadcast, alg, s, 37, root));
        const CollectivePlan plan = make_collective_plan(CollectiveOp::Broadcast, alg, s.cols, s.rows, 37, root);
        for (unsigned f = 0; f < plan.flows.size(); ++f) {
          const Stage& st = plan.flows[f].stages.at(0);
          ASSERT_EQ(st.rings.size(), 1u);
          EXPECT_EQ(st.rings[0].at(0), root) << "flow " << f;
          EXPECT_EQ(st.chunk[0].at(0), split_range({0, 37}, f, plan.flows.size())) << "flow " << f;
        }
      }
    }
  }
}

// ---- how the flows split the data -------------------------------------------------------------

TEST(CollectivePlanDataSplit, AllReduceFlowsPartitionTheElements) {
  for (const CollectiveAlgorithm alg : {CollectiveAlgorithm::Ring, CollectiveAlgorithm::BidirectionalRing,
                                        CollectiveAlgorithm::Hamiltonian, CollectiveAlgorithm::Torus2D}) {
    for (const Shape& s : shapes_for(alg)) {
      for (const uint64_t n : kElementCounts) {
        SCOPED_TRACE(describe(CollectiveOp::AllReduce, alg, s, n, 0));
        const CollectivePlan plan = make_collective_plan(CollectiveOp::AllReduce, alg, s.cols, s.rows, n);
        const uint64_t flows = plan.flows.size();
        for (uint64_t f = 0; f < flows; ++f) {
          const ElementRange range = split_range({0, n}, f, flows);
          for (unsigned k = 0; k < plan.flows[f].stages.size(); ++k) {
            const Stage& st = plan.flows[f].stages[k];
            const std::string what = "flow " + std::to_string(f) + " stage " + std::to_string(k);
            if (alg == CollectiveAlgorithm::Torus2D && (k == 1 || k == 2)) {
              // The column (row) stages work on the chunk the rank owns after the first stage:
              // all of their rings together tile the flow's range.
              std::vector<ElementRange> all;
              for (const auto& ring_chunks : st.chunk) all.insert(all.end(), ring_chunks.begin(), ring_chunks.end());
              expect_tiles(all, range, what);
            } else {
              // Every ring's chunks tile the flow's range (ring algorithms: the one ring).
              for (unsigned g = 0; g < st.chunk.size(); ++g)
                expect_tiles(st.chunk[g], range, what + " ring " + std::to_string(g));
            }
          }
        }
      }
    }
  }
}

// reduce_scatter / all_gather: the chunks a rank owns over all flows are exactly its block.
TEST(CollectivePlanDataSplit, BlockOpsCoverEachRanksBlock) {
  for (const CollectiveOp op : {CollectiveOp::ReduceScatter, CollectiveOp::AllGather}) {
    for (const CollectiveAlgorithm alg : kRingAlgorithms) {
      for (const Shape& s : shapes_for(alg)) {
        for (const uint64_t n : kElementCounts) {
          SCOPED_TRACE(describe(op, alg, s, n, 0));
          const CollectivePlan plan = make_collective_plan(op, alg, s.cols, s.rows, n);
          for (unsigned r = 0; r < s.ranks(); ++r) {
            std::vector<ElementRange> mine;
            for (const Flow& f : plan.flows) {
              const Stage& st = f.stages.at(0);
              mine.push_back(st.chunk[st.ring_of[r]][st.position_of[r]]);
            }
            expect_tiles(mine, plan.block(r), "rank " + std::to_string(r));
          }
        }
      }
    }
  }
}

// ---- all_to_all -------------------------------------------------------------------------------

TEST(CollectivePlanAllToAll, DirectHasNoFlowsAndBlocksPartition) {
  for (const Shape& s : {Shape{4, 4}, Shape{5, 3}, Shape{8, 8}, Shape{1, 1}}) {
    for (const uint64_t n : {1000ull, 37ull, 3ull, 1ull, 0ull}) {
      SCOPED_TRACE(describe(CollectiveOp::AllToAll, CollectiveAlgorithm::Direct, s, n, 0));
      const CollectivePlan plan =
          make_collective_plan(CollectiveOp::AllToAll, CollectiveAlgorithm::Direct, s.cols, s.rows, n);
      EXPECT_TRUE(plan.flows.empty());
      uint64_t cursor = 0;
      for (unsigned r = 0; r < s.ranks(); ++r) {
        EXPECT_EQ(plan.block(r).begin, cursor) << "block " << r;  // in rank order, no gap
        EXPECT_EQ(plan.block(r).size(), n / s.ranks() + (r < n % s.ranks() ? 1 : 0)) << "block " << r;
        cursor = plan.block(r).end;
      }
      EXPECT_EQ(cursor, n);
    }
  }
}

// ---- errors -----------------------------------------------------------------------------------

// Runs `f`, which must throw std::invalid_argument whose message contains `needle`.
template <class F>
void expect_invalid(F f, const std::string& needle) {
  try {
    f();
    ADD_FAILURE() << "no error; expected one mentioning \"" << needle << "\"";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
  }
}

TEST(CollectivePlanErrors, AlgorithmDoesNotFitTheOp) {
  using Op = CollectiveOp;
  using Alg = CollectiveAlgorithm;
  expect_invalid([] { make_collective_plan(Op::ReduceScatter, Alg::Torus2D, 4, 4, 100); },
                 "algorithm torus2d is an allreduce; reduce_scatter runs on ring, bidirectional_ring or hamiltonian");
  expect_invalid([] { make_collective_plan(Op::Broadcast, Alg::Torus2D, 4, 4, 100); }, "torus2d is an allreduce");
  expect_invalid(
      [] { make_collective_plan(Op::AllReduce, Alg::Direct, 4, 4, 100); },
      "algorithm direct is for all_to_all; allreduce runs on ring, bidirectional_ring, hamiltonian or torus2d");
  expect_invalid([] { make_collective_plan(Op::AllToAll, Alg::Ring, 4, 4, 100); },
                 "all_to_all runs with algorithm direct");
  expect_invalid([] { make_collective_plan(Op::AllToAll, Alg::Hamiltonian, 4, 4, 100); },
                 "all_to_all runs with algorithm direct");
}

TEST(CollectivePlanErrors, BadRootOrEmptyJob) {
  expect_invalid([] { make_collective_plan(CollectiveOp::Broadcast, CollectiveAlgorithm::Ring, 4, 4, 100, 16); },
                 "broadcast root 16 is not a rank of the 16-rank job");
  expect_invalid([] { make_collective_plan(CollectiveOp::AllReduce, CollectiveAlgorithm::Ring, 0, 4, 100); },
                 "at least one accelerator");
  expect_invalid([] { torus_ring(3, 0); }, "at least one accelerator");
  // The last rank is a valid root.
  EXPECT_NO_THROW(make_collective_plan(CollectiveOp::Broadcast, CollectiveAlgorithm::Ring, 4, 4, 100, 15));
}

// Shapes without the two cycles in either orientation: the error names the condition.
TEST(CollectivePlanErrors, HamiltonianShapes) {
  // 3x6 (cols x rows): r = 6 is a multiple of c = 3 but gcd(6, 2) = 2; the transposed 6x3 torus
  // fails the multiple condition.
  ASSERT_FALSE(hamiltonian_fits({3, 6}));
  expect_invalid([] { make_collective_plan(CollectiveOp::AllReduce, CollectiveAlgorithm::Hamiltonian, 3, 6, 100); },
                 "gcd(r, c - 1) = 1; 6x3 has gcd(6, 2) = 2");
  // 5x3 and 2x1: no orientation has r a multiple of c.
  ASSERT_FALSE(hamiltonian_fits({5, 3}));
  expect_invalid([] { make_collective_plan(CollectiveOp::AllReduce, CollectiveAlgorithm::Hamiltonian, 5, 3, 100); },
                 "multiple of c");
  ASSERT_FALSE(hamiltonian_fits({2, 1}));
  expect_invalid([] { make_collective_plan(CollectiveOp::AllReduce, CollectiveAlgorithm::Hamiltonian, 2, 1, 100); },
                 "Hamiltonian cycles");
}

// The job 6x3 (cols x rows) is a 3x6 torus (r mod c = 3) or, turned round, a 6x3 one, which
// has r a multiple of c and fails only gcd(6, 2) = 2: the message must name that condition, as
// it does for the mirror image 3x6 above.
TEST(CollectivePlanErrors, HamiltonianTransposedShapeNamesGcd) {
  ASSERT_FALSE(hamiltonian_fits({6, 3}));
  expect_invalid([] { make_collective_plan(CollectiveOp::AllReduce, CollectiveAlgorithm::Hamiltonian, 6, 3, 100); },
                 "gcd");
}

TEST(CollectivePlanErrors, NoRingOnOddByOddTorus) {
  // Both sides odd and > 1, and no Hamiltonian-cycle construction in either orientation (3x3 and
  // 9x3 have one, so they are not errors).
  for (const Shape& s : {Shape{5, 3}, Shape{9, 5}, Shape{3, 5}}) {
    SCOPED_TRACE(describe(s));
    ASSERT_FALSE(hamiltonian_fits(s));
    const std::string want = "no ring of torus links for a " + describe(s) + " job";
    expect_invalid([&] { torus_ring(s.cols, s.rows); }, want);
    expect_invalid(
        [&] { make_collective_plan(CollectiveOp::AllReduce, CollectiveAlgorithm::Ring, s.cols, s.rows, 10); }, want);
    expect_invalid(
        [&] {
          make_collective_plan(CollectiveOp::Broadcast, CollectiveAlgorithm::BidirectionalRing, s.cols, s.rows, 10);
        },
        "a snake needs an even side");
    // torus2d needs no such ring.
    EXPECT_NO_THROW(make_collective_plan(CollectiveOp::AllReduce, CollectiveAlgorithm::Torus2D, s.cols, s.rows, 10));
  }
  EXPECT_NO_THROW(torus_ring(3, 3));
  EXPECT_NO_THROW(torus_ring(9, 3));
}

TEST(CollectivePlanNames, OpsAndAlgorithms) {
  EXPECT_EQ(collective_op_name(CollectiveOp::AllReduce), "allreduce");
  EXPECT_EQ(collective_op_name(CollectiveOp::ReduceScatter), "reduce_scatter");
  EXPECT_EQ(collective_op_name(CollectiveOp::AllGather), "all_gather");
  EXPECT_EQ(collective_op_name(CollectiveOp::Broadcast), "broadcast");
  EXPECT_EQ(collective_op_name(CollectiveOp::AllToAll), "all_to_all");
  EXPECT_EQ(collective_algorithm_name(CollectiveAlgorithm::Ring), "ring");
  EXPECT_EQ(collective_algorithm_name(CollectiveAlgorithm::BidirectionalRing), "bidirectional_ring");
  EXPECT_EQ(collective_algorithm_name(CollectiveAlgorithm::Hamiltonian), "hamiltonian");
  EXPECT_EQ(collective_algorithm_name(CollectiveAlgorithm::Torus2D), "torus2d");
  EXPECT_EQ(collective_algorithm_name(CollectiveAlgorithm::Direct), "direct");
}

}  // namespace
}  // namespace hx
