// alloc_test: the job allocator of the HammingMesh paper's section IV-A (systemc/alloc,
// docs/allocation.md) -- the greedy on hand-made meshes with exact expected placements, each
// heuristic in a case where it must change the outcome, virtual sub-HxMeshes, release, the
// invariants over random allocate/release sequences, the experiments' mixes and determinism, the
// locality metric against brute force, and the config and distribution-file errors.
//
// No timing assertions: the speed of the allocator is measured by `make bench`
// (configs/alloc_timing.yaml).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "alloc_config.h"
#include "alloc_report.h"
#include "config_test_support.h"
#include "hxmesh_allocator.h"
#include "job_mix.h"

namespace hx::alloc {
namespace {

namespace fs = std::filesystem;
const std::string kConfigDir = HX_CONFIG_DIR;

std::vector<unsigned> seq(unsigned from, unsigned to) {  // [from, to)
  std::vector<unsigned> v;
  for (unsigned i = from; i < to; ++i) v.push_back(i);
  return v;
}

Heuristics H(const std::string& name) {
  const auto h = parse_heuristics(name);
  EXPECT_TRUE(h.has_value()) << name;
  return h.value_or(Heuristics{});
}

// ---- the greedy of IV-A -----------------------------------------------------------------------------

TEST(AllocGreedy, EmptyMeshTakesTheFirstRowsAndLowestColumns) {
  HxMeshAllocator m(8, 6);
  EXPECT_EQ(m.working_boards(), 48u);
  const auto a = m.allocate(2, 3);
  ASSERT_TRUE(a);
  EXPECT_EQ(a->job, 1u);
  EXPECT_EQ(a->rows, (std::vector<unsigned>{0, 1}));
  EXPECT_EQ(a->cols, (std::vector<unsigned>{0, 1, 2}));
  // Row 0 has columns 3..7 free: the next job of the same shape goes right beside.
  const auto b = m.allocate(2, 3);
  ASSERT_TRUE(b);
  EXPECT_EQ(b->rows, (std::vector<unsigned>{0, 1}));
  EXPECT_EQ(b->cols, (std::vector<unsigned>{3, 4, 5}));
  // A 3x2 job: row 0 has exactly columns 6 and 7 left, rows 1 and 2 share them.
  const auto c = m.allocate(3, 2);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->rows, (std::vector<unsigned>{0, 1, 2}));
  EXPECT_EQ(c->cols, (std::vector<unsigned>{6, 7}));
  // A 4x8 job needs 4 whole rows: rows 2..5 are not whole (row 2 lost 6 and 7), rows 3..5 are.
  EXPECT_FALSE(m.allocate(4, 8));
  const auto d = m.allocate(3, 8);
  ASSERT_TRUE(d);
  EXPECT_EQ(d->rows, (std::vector<unsigned>{3, 4, 5}));
  EXPECT_EQ(d->cols, seq(0, 8));
  EXPECT_EQ(m.used_boards(), 6u + 6 + 6 + 24);
  EXPECT_EQ(m.check(), "");
}

TEST(AllocGreedy, SkipsARowThatWouldShrinkTheIntersectionBelowV) {
  // Failed boards (column, row): (1, 1) and (2, 2). A 3x3 job: row 0 gives {0,1,2,3}, row 1
  // keeps {0,2,3}, row 2 would leave {0,3}: skipped; row 3 keeps {0,2,3}.
  HxMeshAllocator m(4, 4, {{1, 1}, {2, 2}});
  EXPECT_EQ(m.working_boards(), 14u);
  const auto a = m.allocate(3, 3);
  ASSERT_TRUE(a);
  EXPECT_EQ(a->rows, (std::vector<unsigned>{0, 1, 3}));
  EXPECT_EQ(a->cols, (std::vector<unsigned>{0, 2, 3}));
  EXPECT_EQ(m.check(), "");
}

TEST(AllocGreedy, StartsOnlyFromTheFirstRowWithVFreeBoardsUnlessRestart) {
  // Row 0: columns 0, 1 free; rows 1 and 2: columns 2, 3 free. A 2x2 job must start at row 0
  // (the first row with 2 free boards) and nothing shares its columns.
  const std::vector<Board> failed = {{2, 0}, {3, 0}, {0, 1}, {1, 1}, {0, 2}, {1, 2}};
  HxMeshAllocator plain(4, 3, failed);
  EXPECT_FALSE(plain.allocate(2, 2));
  EXPECT_EQ(plain.used_boards(), 0u);
  HxMeshAllocator restart(4, 3, failed, H("restart"));
  const auto a = restart.allocate(2, 2);
  ASSERT_TRUE(a);
  EXPECT_EQ(a->rows, (std::vector<unsigned>{1, 2}));
  EXPECT_EQ(a->cols, (std::vector<unsigned>{2, 3}));
}

TEST(AllocGreedy, FailedBoardsAreNeverUsed) {
  std::vector<Board> failed;
  for (unsigned i = 0; i < 6; ++i) failed.push_back({i, i});  // the diagonal
  HxMeshAllocator m(6, 6, failed, H("transpose+aspect+restart"));
  EXPECT_EQ(m.working_boards(), 30u);
  while (m.allocate(1)) {
  }
  EXPECT_EQ(m.used_boards(), 30u);
  for (const Board& b : failed) {
    EXPECT_TRUE(m.is_failed(b));
    EXPECT_FALSE(m.owner(b));
  }
  EXPECT_EQ(m.check(), "");
}

TEST(AllocGreedy, RejectsBadArguments) {
  EXPECT_THROW(HxMeshAllocator(0, 4), std::invalid_argument);
  EXPECT_THROW(HxMeshAllocator(4, 4, {{4, 0}}), std::invalid_argument);
  EXPECT_THROW(HxMeshAllocator(4, 4, {}, {}, Trees{TreeLeaves(5, 2, 4), {}}), std::invalid_argument);
  HxMeshAllocator m(4, 4);
  EXPECT_THROW(m.allocate(0, 2), std::invalid_argument);
  EXPECT_THROW(m.allocate(0), std::invalid_argument);
  EXPECT_FALSE(m.allocate(5, 1));  // taller than the mesh
  EXPECT_FALSE(m.allocate(17));    // more boards than the mesh
}

TEST(AllocGreedy, PlacesAHalfMeshJobOnAThousandByThousandMesh) {
  // The size of the paper's timing claim; the time itself is measured by make bench.
  HxMeshAllocator m(1000, 1000);
  const auto a = m.allocate(500, 500);
  ASSERT_TRUE(a);
  EXPECT_EQ(a->rows, seq(0, 500));
  EXPECT_EQ(a->cols, seq(0, 500));
  // 1000 rows: every row has columns 500..999 free.
  const auto b = m.allocate(1000, 500);
  ASSERT_TRUE(b);
  EXPECT_EQ(b->rows, seq(0, 1000));
  EXPECT_EQ(b->cols, seq(500, 1000));
  const auto c = m.allocate(500, 500);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->rows, seq(500, 1000));
  EXPECT_EQ(c->cols, seq(0, 500));
  EXPECT_EQ(m.free_boards(), 0u);
  EXPECT_FALSE(m.allocate(1));
}

// ---- heuristics -------------------------------------------------------------------------------------

TEST(AllocHeuristics, NamesParseAndPrint) {
  EXPECT_EQ(heuristics_name(H("greedy")), "greedy");
  const Heuristics all = H("locality+sort+restart+aspect+transpose");
  EXPECT_TRUE(all.transpose && all.aspect && all.sort && all.locality && all.restart);
  EXPECT_EQ(heuristics_name(all), "transpose+aspect+sort+locality+restart");
  for (const char* bad : {"", "greedy+sort", "transpose+transpose", "transpose+", "+sort", "Sort", "aspect ratio"})
    EXPECT_FALSE(parse_heuristics(bad)) << bad;
}

TEST(AllocHeuristics, SquareShapes) {
  EXPECT_EQ(square_shape(1), (Shape{1, 1}));
  EXPECT_EQ(square_shape(2), (Shape{1, 2}));
  EXPECT_EQ(square_shape(7), (Shape{1, 7}));
  EXPECT_EQ(square_shape(12), (Shape{3, 4}));
  EXPECT_EQ(square_shape(48), (Shape{6, 8}));
  EXPECT_EQ(square_shape(256), (Shape{16, 16}));
  EXPECT_EQ(square_shape(1000000), (Shape{1000, 1000}));
}

TEST(AllocHeuristics, CandidateShapesInOrder) {
  using V = std::vector<Shape>;
  EXPECT_EQ(HxMeshAllocator(64, 64).candidate_shapes(4, 16), (V{{4, 16}}));
  EXPECT_EQ(HxMeshAllocator(64, 64, {}, H("transpose")).candidate_shapes(4, 16), (V{{4, 16}, {16, 4}}));
  // 64 boards: 4x16 asked; 8x8 is squarer; 2x32 has ratio 16 > 8.
  EXPECT_EQ(HxMeshAllocator(64, 64, {}, H("aspect")).candidate_shapes(4, 16), (V{{4, 16}, {8, 8}}));
  EXPECT_EQ(HxMeshAllocator(64, 64, {}, H("transpose+aspect")).candidate_shapes(4, 16), (V{{4, 16}, {16, 4}, {8, 8}}));
  // A tall request keeps tall alternatives: 24 = 6x4 asked, then 8x3 (ratio 2.7), 12x2 (6);
  // 24x1 has ratio 24.
  EXPECT_EQ(HxMeshAllocator(64, 64, {}, H("aspect")).candidate_shapes(6, 4), (V{{6, 4}, {8, 3}, {12, 2}}));
  Heuristics wide = H("aspect");
  wide.max_aspect = 24;
  EXPECT_EQ(HxMeshAllocator(64, 64, {}, wide).candidate_shapes(6, 4), (V{{6, 4}, {8, 3}, {12, 2}, {24, 1}}));
}

TEST(AllocHeuristics, TransposeRetriesVByU) {
  // 2 columns by 4 rows: a 2x4 job (4 columns) cannot fit, its transpose 4x2 can.
  HxMeshAllocator plain(2, 4);
  EXPECT_FALSE(plain.allocate(2, 4));
  HxMeshAllocator t(2, 4, {}, H("transpose"));
  const auto a = t.allocate(2, 4);
  ASSERT_TRUE(a);
  EXPECT_EQ(a->shape(), (Shape{4, 2}));
  EXPECT_EQ(a->rows, seq(0, 4));
  EXPECT_EQ(a->cols, seq(0, 2));
}

TEST(AllocHeuristics, TransposeUsesFreeRowsWhenColumnsAreFragmented) {
  // 4x4 with failed boards (column, row) (3, 0), (3, 1), (2, 2), (2, 3). A 2x3 job takes rows 0
  // and 1 on columns 0-2; then only rows 2 and 3 have free boards (columns 0, 1, 3), too few for
  // a 3x1 job. Its transpose 1x3 fits in row 2.
  const std::vector<Board> failed = {{3, 0}, {3, 1}, {2, 2}, {2, 3}};
  for (const bool transpose : {false, true}) {
    SCOPED_TRACE(transpose);
    HxMeshAllocator m(4, 4, failed, transpose ? H("transpose") : H("greedy"));
    const auto a = m.allocate(2, 3);
    ASSERT_TRUE(a);
    EXPECT_EQ(a->rows, (std::vector<unsigned>{0, 1}));
    EXPECT_EQ(a->cols, (std::vector<unsigned>{0, 1, 2}));
    const auto b = m.allocate(3, 1);
    if (!transpose) {
      EXPECT_FALSE(b);
      continue;
    }
    ASSERT_TRUE(b);
    EXPECT_EQ(b->shape(), (Shape{1, 3}));
    EXPECT_EQ(b->rows, (std::vector<unsigned>{2}));
    EXPECT_EQ(b->cols, (std::vector<unsigned>{0, 1, 3}));
    EXPECT_EQ(m.check(), "");
  }
}

TEST(AllocHeuristics, AspectRatioReshapesUpToTheLimit) {
  // 8 columns by 2 rows: 16 boards do not fit as 4x4 (nor transposed) but as 2x8.
  HxMeshAllocator plain(8, 2, {}, H("transpose"));
  EXPECT_FALSE(plain.allocate(16));
  HxMeshAllocator a(8, 2, {}, H("aspect"));
  const auto p = a.allocate(16);
  ASSERT_TRUE(p);
  EXPECT_EQ(p->shape(), (Shape{2, 8}));
  EXPECT_EQ(a.free_boards(), 0u);
  // One row of 16: 1x16 has aspect ratio 16, beyond the default 8.
  HxMeshAllocator row(16, 1, {}, H("aspect"));
  EXPECT_FALSE(row.allocate(16));
  Heuristics h16 = H("aspect");
  h16.max_aspect = 16;
  HxMeshAllocator row16(16, 1, {}, h16);
  const auto q = row16.allocate(16);
  ASSERT_TRUE(q);
  EXPECT_EQ(q->shape(), (Shape{1, 16}));
}

TEST(AllocHeuristics, SortingPlacesTheLargestJobFirst) {
  // A 2x2 mesh and the jobs [1, 4] in that order: arrival order places the 1 and then has no
  // room for the 4; largest first places the 4.
  HxMeshAllocator arrival(2, 2);
  const auto r1 = arrival.allocate_jobs({1, 4});
  ASSERT_EQ(r1.size(), 2u);
  EXPECT_TRUE(r1[0]);
  EXPECT_FALSE(r1[1]);
  EXPECT_EQ(arrival.used_boards(), 1u);
  HxMeshAllocator sorted(2, 2, {}, H("sort"));
  const auto r2 = sorted.allocate_jobs({1, 4});
  EXPECT_FALSE(r2[0]);
  ASSERT_TRUE(r2[1]);
  EXPECT_EQ(r2[1]->shape(), (Shape{2, 2}));
  EXPECT_EQ(sorted.used_boards(), 4u);
}

TEST(AllocHeuristics, SortingIsStableForEqualSizes) {
  HxMeshAllocator m(4, 1, {}, H("sort"));
  const auto r = m.allocate_jobs({1, 2, 1});
  ASSERT_TRUE(r[0] && r[1] && r[2]);
  EXPECT_EQ(r[1]->cols, (std::vector<unsigned>{0, 1}));  // the 2 first
  EXPECT_EQ(r[0]->cols, (std::vector<unsigned>{2}));     // then the 1s in list order
  EXPECT_EQ(r[2]->cols, (std::vector<unsigned>{3}));
}

// Row trees with leaves of 2 boards (2 ports per board, 4 down ports per leaf): columns {0,1},
// {2,3}, {4,5}, {6,7}; column trees one switch.
Trees two_board_leaves(unsigned x) { return Trees{TreeLeaves(x, 2, 4), TreeLeaves()}; }

TEST(AllocHeuristics, LocalityPacksColumnsIntoOneLeaf) {
  // Row 0 has columns 1, 2, 4, 5 free. A 1x2 job: the greedy takes the lowest, 1 and 2, under
  // two leaves; locality takes 4 and 5, under one.
  const std::vector<Board> failed = {{0, 0}, {3, 0}, {6, 0}, {7, 0}};
  HxMeshAllocator greedy(8, 1, failed, H("greedy"), two_board_leaves(8));
  const auto g = greedy.allocate(1, 2);
  ASSERT_TRUE(g);
  EXPECT_EQ(g->cols, (std::vector<unsigned>{1, 2}));
  EXPECT_DOUBLE_EQ(tree_traffic(*g, greedy.trees().row_trees, greedy.trees().col_trees).fraction(), 1.0);
  HxMeshAllocator local(8, 1, failed, H("locality"), two_board_leaves(8));
  const auto l = local.allocate(1, 2);
  ASSERT_TRUE(l);
  EXPECT_EQ(l->cols, (std::vector<unsigned>{4, 5}));
  EXPECT_DOUBLE_EQ(tree_traffic(*l, local.trees().row_trees, local.trees().col_trees).fraction(), 0.0);
}

TEST(AllocHeuristics, LocalityPicksTheShapeWithLeastUpperTraffic) {
  // A 1x4 job spans two row-tree leaves; its transpose 4x1 uses one column and the column trees
  // are single switches. Transpose alone keeps 1x4 (it fits); with locality 4x1 wins.
  HxMeshAllocator t(8, 8, {}, H("transpose"), two_board_leaves(8));
  const auto a = t.allocate(1, 4);
  ASSERT_TRUE(a);
  EXPECT_EQ(a->shape(), (Shape{1, 4}));
  HxMeshAllocator tl(8, 8, {}, H("transpose+locality"), two_board_leaves(8));
  const auto b = tl.allocate(1, 4);
  ASSERT_TRUE(b);
  EXPECT_EQ(b->shape(), (Shape{4, 1}));
  EXPECT_EQ(b->rows, seq(0, 4));
  EXPECT_EQ(b->cols, (std::vector<unsigned>{0}));
}

TEST(AllocHeuristics, LocalityBreaksTiesByShapeOrder) {
  // Leaves of 2 columns and of 2 rows: 1x4 and 4x1 both put 8 of their 12 ordered pairs under
  // different leaves. The tie goes to the shape tried first, the request.
  const Trees trees{TreeLeaves(8, 2, 4), TreeLeaves(8, 2, 4)};
  HxMeshAllocator m(8, 8, {}, H("transpose+locality"), trees);
  const auto a = m.allocate(1, 4);
  ASSERT_TRUE(a);
  EXPECT_EQ(a->shape(), (Shape{1, 4}));
  EXPECT_NEAR(tree_traffic(*a, trees.row_trees, trees.col_trees).fraction(), 8.0 / 12, 1e-12);
  // With aspect, 2x2 fits under one leaf each way: no upper-level traffic.
  HxMeshAllocator ma(8, 8, {}, H("transpose+aspect+locality"), trees);
  const auto b = ma.allocate(1, 4);
  ASSERT_TRUE(b);
  EXPECT_EQ(b->shape(), (Shape{2, 2}));
}

TEST(AllocHeuristics, LocalityWithRestartTriesEveryStartRow) {
  // One column; column trees with leaves of 2 rows ({0,1}, {2,3}, ...). A 2x1 job.
  // Rows 0, 2, 3 free: the single start (row 0) gives rows {0, 2} on two leaves; with restart,
  // start row 2 gives {2, 3} under one leaf.
  const Trees four{TreeLeaves(), TreeLeaves(4, 2, 4)};
  HxMeshAllocator single(1, 4, {{0, 1}}, H("locality"), four);
  const auto a = single.allocate(2, 1);
  ASSERT_TRUE(a);
  EXPECT_EQ(a->rows, (std::vector<unsigned>{0, 2}));
  HxMeshAllocator every(1, 4, {{0, 1}}, H("locality+restart"), four);
  const auto b = every.allocate(2, 1);
  ASSERT_TRUE(b);
  EXPECT_EQ(b->rows, (std::vector<unsigned>{2, 3}));
  // Rows 0, 2, 4 free of 6: every start crosses leaves; a tie goes to the earliest start.
  HxMeshAllocator tie(1, 6, {{0, 1}, {0, 3}, {0, 5}}, H("locality+restart"), Trees{TreeLeaves(), TreeLeaves(6, 2, 4)});
  const auto c = tie.allocate(2, 1);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->rows, (std::vector<unsigned>{0, 2}));
}

// ---- the locality metric ----------------------------------------------------------------------------

TEST(AllocTreeLeaves, SharesAndCrossingsWithStraddlingBoards) {
  // 3 boards of 2 ports on leaves of 3 ports: board 1's ports 2 and 3 sit on leaves 0 and 1.
  const TreeLeaves t(3, 2, 3);
  EXPECT_FALSE(t.single_switch());
  EXPECT_EQ(t.leaves(), 2u);
  EXPECT_DOUBLE_EQ(t.share(0, 0), 1.0);
  EXPECT_DOUBLE_EQ(t.share(1, 0), 0.5);
  EXPECT_DOUBLE_EQ(t.share(1, 1), 0.5);
  EXPECT_DOUBLE_EQ(t.share(2, 0), 0.0);
  EXPECT_DOUBLE_EQ(t.cross(0, 1), 0.5);
  EXPECT_DOUBLE_EQ(t.cross(0, 2), 1.0);
  EXPECT_DOUBLE_EQ(t.cross(1, 2), 0.5);
  EXPECT_DOUBLE_EQ(t.cross(1, 1), 0.0);
  EXPECT_DOUBLE_EQ(t.crossing_pairs({0, 1, 2}), 4.0);
  EXPECT_EQ(t.main_leaf(1), 0u);  // a tie goes to the lower leaf
  // A tree whose leaves hold all ports is one switch.
  EXPECT_TRUE(TreeLeaves(16, 4, 64).single_switch());
  EXPECT_DOUBLE_EQ(TreeLeaves().crossing_pairs({0, 5, 9}), 0.0);
}

TEST(AllocTreeLeaves, TreeTrafficMatchesBruteForce) {
  // Every ordered pair of distinct boards: one row-tree traversal if the columns differ, one
  // column-tree traversal if the rows differ (both for a pair in different rows and columns).
  const TreeLeaves rows_t(12, 2, 6);   // 3 boards a leaf
  const TreeLeaves cols_t(10, 6, 16);  // boards straddle leaves
  Placement p;
  p.rows = {0, 2, 3, 7, 9};
  p.cols = {1, 2, 3, 5, 8, 11};
  double traversals = 0, upper = 0;
  for (const Board& s : p.physical_boards()) {
    for (const Board& d : p.physical_boards()) {
      if (s == d) continue;
      if (s.col != d.col) {
        traversals += 1;
        upper += rows_t.cross(s.col, d.col);
      }
      if (s.row != d.row) {
        traversals += 1;
        upper += cols_t.cross(s.row, d.row);
      }
    }
  }
  const TreeTraffic t = tree_traffic(p, rows_t, cols_t);
  EXPECT_DOUBLE_EQ(t.traversals, traversals);
  EXPECT_NEAR(t.upper, upper, 1e-9);
  EXPECT_GT(t.fraction(), 0.0);
  EXPECT_LT(t.fraction(), 1.0);
  Placement one;
  one.rows = {3};
  one.cols = {4};
  EXPECT_EQ(tree_traffic(one, rows_t, cols_t).fraction(), 0.0);
}

// ---- virtual sub-HxMeshes ---------------------------------------------------------------------------

TEST(AllocVirtualMesh, MapsBothWays) {
  Placement p;
  p.rows = {0, 2, 3};
  p.cols = {1, 4};
  EXPECT_EQ(p.shape(), (Shape{3, 2}));
  EXPECT_EQ(p.physical(1, 1), (Board{4, 2}));
  EXPECT_EQ(p.physical(2, 0), (Board{1, 3}));
  EXPECT_THROW(p.physical(3, 0), std::out_of_range);
  EXPECT_THROW(p.physical(0, 2), std::out_of_range);
  for (unsigned i = 0; i < p.u(); ++i)
    for (unsigned j = 0; j < p.v(); ++j) EXPECT_EQ(p.virtual_of(p.physical(i, j)), std::make_pair(i, j));
  EXPECT_FALSE(p.virtual_of({0, 0}));  // column 0 is not the job's
  EXPECT_FALSE(p.virtual_of({1, 1}));  // row 1 is not the job's
  EXPECT_EQ(p.physical_boards().size(), 6u);
}

TEST(AllocVirtualMesh, FigureFiveSubnetworks) {
  // The paper's Figure 5 (1-based (row, column) there): around failed boards, a 2x4 subnetwork on
  // columns 1 and 4 and a 3x3 on rows 1, 2, 4 and columns 1, 2, 4. Here: 4 rows by 2 columns,
  // and 3x3, 0-based, with three failed boards consistent with both.
  const std::vector<Board> failed = {{1, 2}, {2, 0}, {2, 3}};
  HxMeshAllocator m(4, 4, failed);
  const auto blue = m.allocate(4, 2);
  ASSERT_TRUE(blue);
  EXPECT_EQ(blue->rows, seq(0, 4));
  EXPECT_EQ(blue->cols, (std::vector<unsigned>{0, 3}));
  m.release(blue->job);
  const auto yellow = m.allocate(3, 3);
  ASSERT_TRUE(yellow);
  EXPECT_EQ(yellow->rows, (std::vector<unsigned>{0, 1, 3}));
  EXPECT_EQ(yellow->cols, (std::vector<unsigned>{0, 1, 3}));
  EXPECT_EQ(yellow->physical(2, 2), (Board{3, 3}));
}

// ---- release and random sequences ---------------------------------------------------------------------

TEST(AllocRelease, FreesTheBoardsForTheNextJob) {
  HxMeshAllocator m(4, 4);
  const auto a = m.allocate(2, 2);
  const auto b = m.allocate(2, 2);
  ASSERT_TRUE(a && b);
  EXPECT_EQ(m.free_boards(), 8u);
  EXPECT_EQ(m.jobs().size(), 2u);
  m.release(a->job);
  EXPECT_EQ(m.free_boards(), 12u);
  EXPECT_FALSE(m.owner({0, 0}));
  EXPECT_TRUE(m.is_free({0, 0}));
  EXPECT_EQ(m.owner({2, 0}), b->job);
  EXPECT_THROW(m.release(a->job), std::invalid_argument);
  EXPECT_THROW(m.release(99), std::invalid_argument);
  const auto c = m.allocate(2, 2);
  ASSERT_TRUE(c);
  EXPECT_NE(c->job, a->job);  // ids are not reused
  EXPECT_EQ(c->rows, a->rows);
  EXPECT_EQ(c->cols, a->cols);
  EXPECT_EQ(m.check(), "");
}

// Random allocate/release sequences under every heuristic set: after each step the invariants
// hold -- no overlap, failed boards unused, every row of a job on the same column set -- and
// every placement matches the owner grid.
TEST(AllocRelease, RandomSequencesKeepTheInvariants) {
  const Trees trees{TreeLeaves(12, 2, 8), TreeLeaves(10, 4, 8)};
  for (const char* hn :
       {"greedy", "transpose+aspect", "transpose+aspect+locality", "restart", "transpose+aspect+locality+restart"}) {
    SCOPED_TRACE(hn);
    Rng rng(7);
    HxMeshAllocator m(12, 10, random_failures(12, 10, 9, rng), H(hn), trees);
    unsigned placed = 0;
    for (int step = 0; step < 400; ++step) {
      if (!m.jobs().empty() && rng.below(3) == 0) {
        auto it = m.jobs().begin();
        std::advance(it, static_cast<long>(rng.below(m.jobs().size())));
        m.release(it->first);
      } else {
        const auto u = static_cast<unsigned>(1 + rng.below(4)), v = static_cast<unsigned>(1 + rng.below(5));
        const auto p = m.allocate(u, v);
        if (p) {
          ++placed;
          EXPECT_EQ(p->boards(), u * v);
          for (const Board& b : p->physical_boards()) {
            EXPECT_FALSE(m.is_failed(b));
            EXPECT_EQ(m.owner(b), p->job);
          }
        }
      }
      const std::string problem = m.check();
      ASSERT_EQ(problem, "") << "after step " << step;
    }
    EXPECT_GT(placed, 50u);
    // Every board belongs to at most one job.
    std::set<std::pair<unsigned, unsigned>> seen;
    for (const auto& kv : m.jobs())
      for (const Board& b : kv.second.physical_boards()) EXPECT_TRUE(seen.insert({b.col, b.row}).second);
  }
}

// ---- job mixes and runs -------------------------------------------------------------------------------

JobSizeDistribution dist(std::vector<unsigned> sizes, std::vector<double> weights) {
  JobSizeDistribution d;
  d.sizes = std::move(sizes);
  d.weights = std::move(weights);
  return d;
}

TEST(AllocMixes, FillTheCapacityAndCarryOverWhatDoesNotFit) {
  const JobSizeDistribution d = dist({1, 3, 8, 100}, {1, 1, 1, 1});
  MixGenerator g(d, 10);
  EXPECT_EQ(g.min_size(), 1u);
  EXPECT_EQ(g.max_size(), 8u);  // 100 never fits 10 boards
  Rng rng(3);
  uint64_t carried_total = 0;
  for (int i = 0; i < 200; ++i) {
    const std::size_t carried_before = g.carried();
    const std::vector<unsigned> mix = g.next(rng);
    unsigned sum = 0;
    for (unsigned s : mix) {
      EXPECT_TRUE(s == 1 || s == 3 || s == 8) << s;
      sum += s;
    }
    EXPECT_EQ(sum, 10u);  // size 1 exists, so every mix is full
    carried_total += carried_before;
  }
  EXPECT_GT(carried_total, 0u);  // with 8 and 3 in a 10-board mix, some draws must wait
}

TEST(AllocMixes, EndWhenTheRestIsBelowTheSmallestSize) {
  MixGenerator g(dist({4, 6}, {1, 1}), 11);
  Rng rng(5);
  for (int i = 0; i < 50; ++i) {
    unsigned sum = 0;
    for (unsigned s : g.next(rng)) sum += s;
    EXPECT_LE(sum, 11u);
    EXPECT_GT(sum + 4, 11u);
  }
  EXPECT_THROW(MixGenerator(dist({20}, {1}), 10), std::invalid_argument);
}

TEST(AllocMixes, RandomFailuresAreDistinctBoards) {
  Rng rng(11);
  const std::vector<Board> f = random_failures(5, 4, 20, rng);
  EXPECT_EQ(f.size(), 20u);
  std::set<std::pair<unsigned, unsigned>> s;
  for (const Board& b : f) {
    EXPECT_LT(b.col, 5u);
    EXPECT_LT(b.row, 4u);
    s.insert({b.col, b.row});
  }
  EXPECT_EQ(s.size(), 20u);
  EXPECT_THROW(random_failures(2, 2, 5, rng), std::invalid_argument);
}

TEST(AllocMixes, RngIsPortable) {
  // The allocator draws from hxsim's one generator, xoshiro256**: its reference implementation
  // gives these first outputs from the state {1, 2, 3, 4}, on any platform.
  Rng r = Rng::from_state(1, 2, 3, 4);
  EXPECT_EQ(r.next(), 11520u);
  EXPECT_EQ(r.next(), 0u);
  EXPECT_EQ(r.next(), 1509978240u);
  EXPECT_EQ(r.next(), 1215971899390074240ull);
  Rng a(1), b(1);
  for (int i = 0; i < 100; ++i) {
    const uint64_t n = a.below_exact(7);
    EXPECT_LT(n, 7u);
    EXPECT_EQ(n, b.below_exact(7));
    const double u = a.uniform();
    EXPECT_GE(u, 0.0);
    EXPECT_LT(u, 1.0);
    EXPECT_EQ(u, b.uniform());
  }
  // The shuffle is a permutation, and the same one for the same stream.
  std::vector<unsigned> x(50), y;
  for (unsigned i = 0; i < x.size(); ++i) x[i] = i;
  y = x;
  const std::vector<unsigned> identity = x;
  Rng::stream(9, 3).shuffle(x.begin(), x.end());
  Rng::stream(9, 3).shuffle(y.begin(), y.end());
  EXPECT_EQ(x, y);
  EXPECT_NE(x, identity);
  std::vector<unsigned> sorted = x;
  std::sort(sorted.begin(), sorted.end());
  for (unsigned i = 0; i < sorted.size(); ++i) EXPECT_EQ(sorted[i], i);
  // Streams of one seed differ from each other.
  EXPECT_NE(Rng::stream(9, 3).next(), Rng::stream(9, 4).next());
}

TEST(AllocRuns, DeterministicForASeed) {
  const JobSizeDistribution d = dist({1, 2, 4, 6, 9, 16}, {8, 4, 2, 2, 1, 1});
  const MeshSpec mesh{"m", 8, 8, Trees{TreeLeaves(8, 2, 8), TreeLeaves(8, 2, 8)}};
  RunSpec spec;
  spec.heuristics = H("transpose+aspect+locality");
  spec.failures = 5;
  spec.mixes = 40;
  spec.seed = 42;
  const RunResult a = run_mixes(mesh, d, spec), b = run_mixes(mesh, d, spec);
  EXPECT_EQ(a.utilisation, b.utilisation);
  EXPECT_EQ(a.upper_fraction, b.upper_fraction);
  EXPECT_EQ(a.jobs, b.jobs);
  EXPECT_EQ(a.working_boards, 59u);
  ASSERT_EQ(a.utilisation.size(), 40u);
  for (double u : a.utilisation) {
    EXPECT_GT(u, 0.0);
    EXPECT_LE(u, 1.0);
  }
  spec.seed = 43;
  EXPECT_NE(run_mixes(mesh, d, spec).utilisation, a.utilisation);
  // Runs that differ only in heuristics see the same traces: sorting cannot lose boards here.
  spec.seed = 42;
  spec.heuristics = H("transpose+aspect+sort+locality");
  const RunResult s = run_mixes(mesh, d, spec);
  EXPECT_EQ(s.jobs, a.jobs);
}

TEST(AllocRuns, SummaryQuantilesInterpolate) {
  const Summary s = summarize({4, 1, 3, 2});
  EXPECT_EQ(s.count, 4u);
  EXPECT_DOUBLE_EQ(s.mean, 2.5);
  EXPECT_DOUBLE_EQ(s.median, 2.5);
  EXPECT_DOUBLE_EQ(s.p25, 1.75);
  EXPECT_DOUBLE_EQ(s.min, 1);
  EXPECT_DOUBLE_EQ(s.max, 4);
  EXPECT_DOUBLE_EQ(s.p99, 3.97);
  EXPECT_EQ(summarize({}).count, 0u);
}

// ---- the distribution file ----------------------------------------------------------------------------

ConfigError sizes_error(const std::string& text) {
  try {
    parse_job_sizes(text, "d.txt");
  } catch (const ConfigError& e) {
    return e;
  }
  ADD_FAILURE() << "no error for:\n" << text;
  return ConfigError({"(none)"}, "", "", "", "");
}

#define EXPECT_SIZES_ERROR(text, line_, col_, expected_, found_) \
  do {                                                           \
    const ConfigError e_ = sizes_error(text);                    \
    SCOPED_TRACE(e_.what());                                     \
    EXPECT_EQ(e_.file(), "d.txt");                               \
    EXPECT_EQ(e_.line(), (line_));                               \
    EXPECT_EQ(e_.column(), (col_));                              \
    EXPECT_EQ(e_.key_path(), "distribution");                    \
    EXPECT_EQ(e_.expected(), (expected_));                       \
    EXPECT_EQ(e_.found(), (found_));                             \
  } while (0)

TEST(AllocDistributionFile, ReadsPairsCommentsAndBlankLines) {
  const JobSizeDistribution d = parse_job_sizes("# sizes\n\n1 10\n  4\t2.5   # four\n16 1e-1\r\n", "d.txt");
  EXPECT_EQ(d.sizes, (std::vector<unsigned>{1, 4, 16}));
  EXPECT_EQ(d.weights, (std::vector<double>{10, 2.5, 0.1}));
  EXPECT_NEAR(d.mean(), (10 + 10 + 1.6) / 12.6, 1e-12);
}

TEST(AllocDistributionFile, ErrorsNameFileLineAndColumn) {
  const std::string pair = "a line 'SIZE WEIGHT' (a job size in boards and its weight)";
  const std::string size = "a job size in boards, an integer in 1..1048576";
  const std::string weight = "a positive, finite weight";
  EXPECT_SIZES_ERROR("1 1\n2 1 3\n", 2, 1, pair, "'2 1 3'");
  EXPECT_SIZES_ERROR("# x\n  7\n", 2, 3, pair, "'7'");
  EXPECT_SIZES_ERROR("0 1\n", 1, 1, size, "'0'");
  EXPECT_SIZES_ERROR("-3 1\n", 1, 1, size, "'-3'");
  EXPECT_SIZES_ERROR("2.5 1\n", 1, 1, size, "'2.5'");
  EXPECT_SIZES_ERROR("2000000 1\n", 1, 1, size, "'2000000'");
  EXPECT_SIZES_ERROR("1 1\n\n4   0\n", 3, 5, weight, "'0'");
  EXPECT_SIZES_ERROR("4 -1\n", 1, 3, weight, "'-1'");
  EXPECT_SIZES_ERROR("4 lots\n", 1, 3, weight, "'lots'");
  EXPECT_SIZES_ERROR("4 inf\n", 1, 3, weight, "'inf'");
  const ConfigError dup = sizes_error("4 1\n8 1\n4 2\n");
  EXPECT_EQ(dup.line(), 3);
  EXPECT_EQ(dup.problem(), "duplicate size");
  EXPECT_EQ(dup.hint(), "first at line 1");
  const ConfigError empty = sizes_error("# nothing\n\n   \n");
  EXPECT_EQ(empty.file(), "d.txt");
  EXPECT_EQ(empty.line(), 0);
  EXPECT_EQ(empty.problem(), "no job sizes");
  EXPECT_EQ(std::string(empty.what()),
            "d.txt: distribution: no job sizes, expected at least one line 'SIZE WEIGHT', "
            "found only comments and blank lines");
  EXPECT_THROW(load_job_sizes("/nonexistent/sizes.txt"), ConfigError);
}

TEST(AllocDistributionFile, TheDefaultIsSyntheticAndSaysSo) {
  const JobSizeDistribution d = load_job_sizes(kConfigDir + "/job_sizes_default.txt");
  EXPECT_EQ(d.sizes.size(), 16u);
  EXPECT_EQ(d.sizes.front(), 1u);
  EXPECT_EQ(d.sizes.back(), 256u);
  for (std::size_t i = 0; i < d.sizes.size(); ++i) EXPECT_DOUBLE_EQ(d.sizes[i] * d.weights[i], 96.0);
  std::ifstream in(kConfigDir + "/job_sizes_default.txt");
  std::stringstream ss;
  ss << in.rdbuf();
  EXPECT_NE(ss.str().find("SYNTHETIC"), std::string::npos);
  EXPECT_NE(ss.str().find("NOT the Alibaba"), std::string::npos);
}

// ---- the config ---------------------------------------------------------------------------------------

// A valid config, lines 1-7; tests append from line 8.
const std::string kBase =
    "systems:\n"
    "  - name: hx\n"
    "    board: 2x2\n"
    "    global: 8x4\n"
    "place:\n"
    "  system: hx\n"
    "  jobs: [2x2, 3]\n";

AllocConfig load_text(const std::string& yaml, const std::vector<std::string>& sets = {}) {
  return load_alloc_config_text(yaml, "t.yaml", sets, kConfigDir);
}

ConfigError error_of(const std::string& yaml, const std::vector<std::string>& sets = {}) {
  return hx::test::config_error_of([&] { load_text(yaml, sets); }, yaml);
}

TEST(AllocConfigTest, MinimalPlaceConfig) {
  const AllocConfig c = load_text(kBase);
  EXPECT_EQ(c.name, "t");
  ASSERT_EQ(c.systems.size(), 1u);
  EXPECT_EQ(c.systems[0].x, 8u);
  EXPECT_EQ(c.systems[0].y, 4u);
  EXPECT_TRUE(c.place.enabled);
  EXPECT_FALSE(c.experiments.enabled);
  ASSERT_EQ(c.place.steps.size(), 2u);
  EXPECT_EQ(c.place.steps[0].kind, PlaceStep::Kind::Shape);
  EXPECT_EQ(c.place.steps[1].kind, PlaceStep::Kind::Size);
  EXPECT_EQ(c.place.steps[1].boards, 3u);
  EXPECT_TRUE(c.systems[0].trees.row_trees.single_switch());
}

// kBase with 256 boards, enough for the default failure counts (up to 40).
std::string big_base() {
  std::string s = kBase;
  s.replace(s.find("8x4"), 3, "16x16");
  return s;
}

TEST(AllocConfigTest, ExperimentDefaultsAreThePapers) {
  const AllocConfig c = load_text(big_base() + "distribution: job_sizes_default.txt\nexperiments:\n  mixes: 10\n");
  EXPECT_TRUE(c.experiments.enabled);
  EXPECT_EQ(c.experiments.mixes, 10u);
  std::vector<std::string> names;
  for (const Heuristics& h : c.experiments.heuristics) names.push_back(heuristics_name(h));
  EXPECT_EQ(names, (std::vector<std::string>{"greedy", "transpose", "transpose+aspect", "transpose+aspect+sort",
                                             "transpose+aspect+sort+locality"}));
  EXPECT_EQ(c.experiments.failures, (std::vector<unsigned>{0, 10, 20, 30, 40}));
  EXPECT_EQ(c.experiments.failure_heuristics.size(), 2u);
  EXPECT_EQ(c.distribution.sizes.size(), 16u);
  // The runs: 5 sets at 0 failures, then (0, 10, ..., 40) x 2 sets, the two at 0 shared.
  const std::vector<RunRecord> runs = planned_runs(c);
  ASSERT_EQ(runs.size(), 5u + 8u);
  EXPECT_TRUE(runs[2].heuristics_experiment && runs[2].failures_experiment);
  EXPECT_FALSE(runs[0].failures_experiment);
  EXPECT_EQ(runs.back().failures, 40u);
}

TEST(AllocConfigTest, ErrorsNameFileLineKeyExpectedFound) {
  using hx::test::config_error_of;
  EXPECT_CONFIG_ERROR(error_of(kBase + "seed: -1\n"), 8, 7, "seed", "an integer in 0..2^63", "'-1'");
  EXPECT_CONFIG_ERROR(error_of("systems:\n  - name: hx\n    board: 2x2\n    globl: 8x4\n"), 4, 5, "systems[0].globl",
                      "one of name, board, global, tree_span, radix, taper, mixes", "'globl'");
  EXPECT_EQ(error_of("systems:\n  - name: hx\n    board: 2x2\n    globl: 8x4\n").hint(), "did you mean 'global'?");
  EXPECT_CONFIG_ERROR(error_of("systems:\n  - name: hx\n    board: 2x2\n    global: 0x4\n"), 4, 13, "systems[0].global",
                      "boards x (columns) by y (rows) such as '16x16' or [16, 16], each side 1..65536", "'0x4'");
  EXPECT_CONFIG_ERROR(error_of("systems:\n  - name: hx\n    board: 2x2\n    global: 8x4\n    radix: 63\n"), 5, 12,
                      "systems[0].radix", "an even integer in 4..4096", "'63'");
  EXPECT_CONFIG_ERROR(error_of(kBase + "experiments:\n  heuristics: [greedy, tranpose]\n"), 9, 24,
                      "experiments.heuristics[1]",
                      "'greedy' or heuristics joined by '+' (transpose, aspect, sort, locality, restart), each at "
                      "most once",
                      "'tranpose'");
  EXPECT_CONFIG_ERROR(error_of(kBase + "distribution: job_sizes_default.txt\nexperiments:\n  failures: [0, 32]\n"), 10,
                      17, "experiments.failures[1]",
                      "a list of distinct failed-board counts, each in 0..31 (fewer than the smallest system's boards)",
                      "'32'");
  const std::string other =
      "systems:\n  - name: hx\n    board: 2x2\n    global: 8x4\nplace:\n  system: hy\n  jobs: [1]\n";
  EXPECT_CONFIG_ERROR(error_of(other), 6, 11, "place.system", "the name of a system: one of hx", "'hy'");
  EXPECT_CONFIG_ERROR(error_of(kBase + "  failed: [[8, 0]]\n"), 8, 13, "place.failed[0][0]",
                      "a list of failed boards [column, row], column in 0..7, row in 0..3", "'8'");
  EXPECT_CONFIG_ERROR(error_of(kBase + "  failed: [[1, 2], [1, 2]]\n"), 8, 20, "place.failed[1]",
                      "each board at most once", "[1, 2] again");
  EXPECT_CONFIG_ERROR(error_of("systems:\n  - name: hx\n    board: 2x2\n    global: 8x4\nplace:\n  system: hx\n  "
                               "jobs: [2x2, 'free 1']\n"),
                      7, 15, "place.jobs[1]",
                      "a job 'UxV' (rows x columns of boards), a size in boards, or 'release ID'", "'free 1'");
  // Nothing to do; experiments without a distribution; a distribution no system can draw from.
  const ConfigError none = error_of("systems:\n  - name: hx\n    board: 2x2\n    global: 8x4\n");
  EXPECT_EQ(none.key_path(), "experiments");
  EXPECT_NE(none.expected().find("at least one of the sections experiments, place, timing"), std::string::npos);
  EXPECT_EQ(error_of(big_base() + "experiments: {mixes: 5}\n").key_path(), "distribution");
  // A relative distribution path is relative to the config's directory (here configs/).
  const ConfigError dist_err = error_of(big_base() + "distribution: no_such_sizes.txt\nexperiments: {}\n");
  EXPECT_EQ(dist_err.file(), kConfigDir + "/no_such_sizes.txt");
  EXPECT_EQ(dist_err.key_path(), "distribution");
}

TEST(AllocConfigTest, DistributionErrorsPointIntoTheDistributionFile) {
  const fs::path d = fs::temp_directory_path() / "alloc_test";
  fs::create_directories(d);
  std::ofstream(d / "bad_sizes.txt") << "# sizes\n1 1\n4 zero\n";
  const ConfigError e =
      error_of(big_base() + "distribution: " + (d / "bad_sizes.txt").string() + "\nexperiments: {}\n");
  EXPECT_EQ(e.file(), (d / "bad_sizes.txt").string());
  EXPECT_EQ(e.line(), 3);
  EXPECT_EQ(e.column(), 3);
  EXPECT_EQ(e.key_path(), "distribution");
  // Sizes larger than a system's working boards: nothing to draw.
  std::ofstream(d / "big_sizes.txt") << "250 1\n";
  const ConfigError big =
      error_of(big_base() + "distribution: " + (d / "big_sizes.txt").string() + "\nexperiments: {}\n");
  EXPECT_EQ(big.key_path(), "distribution");
  EXPECT_EQ(big.line(), 8);
}

TEST(AllocConfigTest, ReleasingAnUnknownJobIsAnInputError) {
  const AllocConfig c = load_text(
      "systems:\n  - name: hx\n    board: 2x2\n    global: 8x4\nplace:\n  system: hx\n  jobs: [2x2, release 2]\n");
  try {
    run_alloc(c, nullptr);
    ADD_FAILURE() << "no error";
  } catch (const ConfigError& e) {
    EXPECT_EQ(e.line(), 7);
    EXPECT_EQ(e.column(), 15);
    EXPECT_EQ(e.key_path(), "place.jobs[1]");
    EXPECT_EQ(e.problem(), "no such job");
  }
}

TEST(AllocConfigTest, TreesFollowTheSimulatorsShapes) {
  const AllocConfig c = load_alloc_config(kConfigDir + "/alloc_large.yaml");
  ASSERT_EQ(c.systems.size(), 2u);
  const SystemConfig& hx2 = c.systems[0];
  EXPECT_EQ(hx2.x * hx2.y, 4096u);  // appendix A-C2: 64x64 boards of 2x2
  EXPECT_EQ(hx2.a, 2u);
  EXPECT_EQ(hx2.grid.rows.shape.ports, 128u);
  EXPECT_EQ(hx2.grid.rows.shape.leaves, 4u);
  EXPECT_EQ(hx2.grid.rows.shape.spines, 2u);
  EXPECT_EQ(hx2.trees.row_trees.leaves(), 4u);
  EXPECT_EQ(hx2.trees.row_trees.main_leaf(15), 0u);  // 16 boards under a leaf
  EXPECT_EQ(hx2.trees.row_trees.main_leaf(16), 1u);
  const SystemConfig& hx4 = c.systems[1];
  EXPECT_EQ(hx4.x * hx4.y, 1024u);  // 32x32 boards of 4x4
  EXPECT_TRUE(hx4.trees.row_trees.single_switch());
  EXPECT_TRUE(hx4.trees.col_trees.single_switch());
}

TEST(AllocConfigTest, ShippedConfigsLoadAndMatchTableII) {
  struct Expect {
    std::string file;
    std::vector<std::pair<unsigned, unsigned>> board_and_side;  // (a, x) per system, square
  };
  for (const Expect& e : {Expect{"alloc_small.yaml", {{2, 16}, {4, 8}}}, Expect{"alloc_large.yaml", {{2, 64}, {4, 32}}},
                          Expect{"alloc_place_example.yaml", {{2, 4}}}, Expect{"alloc_timing.yaml", {{2, 1000}}}}) {
    SCOPED_TRACE(e.file);
    const AllocConfig c = load_alloc_config(kConfigDir + "/" + e.file);
    EXPECT_EQ(c.name + ".yaml", e.file);
    EXPECT_FALSE(c.description.empty());
    ASSERT_EQ(c.systems.size(), e.board_and_side.size());
    for (std::size_t i = 0; i < c.systems.size(); ++i) {
      EXPECT_EQ(c.systems[i].a, e.board_and_side[i].first);
      EXPECT_EQ(c.systems[i].b, e.board_and_side[i].first);
      EXPECT_EQ(c.systems[i].x, e.board_and_side[i].second);
      EXPECT_EQ(c.systems[i].y, e.board_and_side[i].second);
      // 1,024 (small) or 16,384 (large) accelerators.
      if (e.file == "alloc_small.yaml") {
        EXPECT_EQ(c.systems[i].a * c.systems[i].a * c.systems[i].x * c.systems[i].x, 1024u);
      }
      if (e.file == "alloc_large.yaml") {
        EXPECT_EQ(c.systems[i].a * c.systems[i].a * c.systems[i].x * c.systems[i].x, 16384u);
      }
    }
  }
}

TEST(AllocConfigTest, DocsDescribeEveryKey) {
  std::ifstream in(HX_DOCS_DIR "/allocation.md");
  ASSERT_TRUE(in) << HX_DOCS_DIR "/allocation.md";
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string docs = ss.str();
  const std::string element = "systems[].";
  for (std::string k : alloc_config_keys()) {
    if (k.compare(0, element.size(), element) == 0) k = k.substr(element.size());
    EXPECT_NE(docs.find("`" + k + "`"), std::string::npos) << k << " is not in docs/allocation.md";
  }
}

}  // namespace
}  // namespace hx::alloc
