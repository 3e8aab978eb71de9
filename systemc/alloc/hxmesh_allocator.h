// hxmesh_allocator.h: placing jobs on the boards of a HammingMesh (HammingMesh paper, Hoefler
// et al., SC22, sections III-E and IV-A; docs/allocation.md).
//
// The hardware: x columns by y rows of boards. A board is the unit of allocation and of failure
// (III-E: any failed accelerator or on-board link takes its whole board out). Boards in one row
// share the row's fat trees, boards in one column the column's trees. A job asks for u rows by v
// columns of boards and sees them as a u x v HammingMesh of its own, a *virtual sub-HxMesh*: it
// may get any u physical rows and any v physical columns, consecutive or not, as long as every
// one of its rows uses the same v columns. Then two of its boards in different rows and columns
// are joined through a third board of the job (in the row of one and the column of the other),
// so its packets never cross another job's boards (IV-A, "Job interference"), and the remapping
// is invisible to the job (III-E, Figure 5).
//
// The allocator keeps, per row, a bitset of the free boards (std::vector<uint64_t>, x bits a
// row), so the greedy of IV-A is a sequence of word-wide ANDs and popcounts: see allocate().
//
// Use from a simulation that places several concurrent jobs on one HammingMesh:
//
//   hx::alloc::HxMeshAllocator mesh(16, 16, {{3, 5}}, *hx::alloc::parse_heuristics("transpose"));
//   std::optional<hx::alloc::Placement> a = mesh.allocate(4, 8);   // 4 rows x 8 columns
//   if (a) {
//     hx::alloc::Board b = a->physical(i, j);   // virtual (row i, column j) -> physical board
//     ... run the job on the boards; then
//     mesh.release(a->job);
//   }
//
// Pure C++17: no SystemC, no YAML.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "network_description.h"

namespace hx::alloc {

/// A physical board: column `col` in [0, x), row `row` in [0, y).
struct Board {
  unsigned col = 0;
  unsigned row = 0;
  bool operator==(const Board& o) const { return col == o.col && row == o.row; }
  bool operator!=(const Board& o) const { return !(*this == o); }
  bool operator<(const Board& o) const { return row != o.row ? row < o.row : col < o.col; }
};

/// A job's shape in boards: u rows by v columns.
struct Shape {
  unsigned u = 0;
  unsigned v = 0;
  unsigned boards() const { return u * v; }
  bool operator==(const Shape& o) const { return u == o.u && v == o.v; }
  bool operator!=(const Shape& o) const { return !(*this == o); }
};

/// Where a job runs: a virtual u x v HammingMesh on physical rows `rows` and columns `cols`.
/// Virtual board (i, j) -- virtual row i, virtual column j -- is physical board
/// (column cols[j], row rows[i]). Both lists are strictly ascending, so virtual neighbours keep
/// their physical order (consecutive slices stay adjacent, III-E).
struct Placement {
  unsigned job = 0;            // the allocator's id for release()
  std::vector<unsigned> rows;  // virtual row i -> physical row rows[i]
  std::vector<unsigned> cols;  // virtual column j -> physical column cols[j]

  Shape shape() const { return {static_cast<unsigned>(rows.size()), static_cast<unsigned>(cols.size())}; }
  unsigned u() const { return static_cast<unsigned>(rows.size()); }
  unsigned v() const { return static_cast<unsigned>(cols.size()); }
  unsigned boards() const { return u() * v(); }
  /// Virtual (i, j) -> physical board. Throws std::out_of_range outside the u x v job.
  Board physical(unsigned i, unsigned j) const;
  /// Physical board -> virtual {i, j}; nullopt if the board is not the job's.
  std::optional<std::pair<unsigned, unsigned>> virtual_of(Board b) const;
  /// Every board of the job, virtual row-major: physical(0, 0), physical(0, 1), ...
  std::vector<Board> physical_boards() const;
};

/// The optimisation heuristics of IV-A, each switchable. All off is the plain greedy.
struct Heuristics {
  bool transpose = false;  // a u x v job that does not fit may run as v x u
  bool aspect = false;     // a job of s boards may take any factorisation u' x v' = s with
                           // max/min <= max_aspect
  bool sort = false;       // allocate_jobs(): largest job first
  bool locality = false;   // among all allowed shapes and greedy placements, the one with the
                           // least all-to-all traffic over the trees' upper level
  bool restart = false;    // not in the paper: when the greedy from the first row with v free
                           // boards fails, start again from the next such row, and so on
  double max_aspect = 8;   // IV-B: "up to eight"

  bool operator==(const Heuristics& o) const {
    return transpose == o.transpose && aspect == o.aspect && sort == o.sort && locality == o.locality &&
           restart == o.restart && max_aspect == o.max_aspect;
  }
};

/// "greedy", or heuristic names joined by '+' in any order: "transpose+aspect+sort+locality".
/// nullopt for anything else (an unknown or repeated name).
std::optional<Heuristics> parse_heuristics(const std::string& text);
/// The canonical name: "greedy" or the enabled heuristics in the order transpose, aspect, sort,
/// locality, restart, joined by '+'.
std::string heuristics_name(const Heuristics& h);

/// The most square factorisation u x v = boards with u <= v: IV-B's default job shape ("as square
/// as possible"). boards must be positive.
Shape square_shape(unsigned boards);

/// How the board positions along one dimension attach to the leaf switches of that dimension's
/// fat trees (every row tree has the same layout, and every column tree). Board position p owns
/// the `ports` consecutive tree ports [p ports, (p + 1) ports) -- a board's ports on one tree:
/// two per accelerator line, both edges -- and port t sits on leaf t / down, as
/// systemc/fabric/switch_fabric.cpp wires the trees. A tree of one switch has no upper level.
class TreeLeaves {
 public:
  /// One switch: nothing ever crosses an upper level.
  TreeLeaves() = default;
  /// `positions` boards with `ports` ports each on leaves of `down` ports; down == 0 (or down >=
  /// positions * ports) is one switch. Throws std::invalid_argument for positions or ports 0.
  TreeLeaves(unsigned positions, unsigned ports, unsigned down);

  bool single_switch() const { return down_ == 0; }
  unsigned positions() const { return positions_; }
  unsigned leaves() const;
  /// The leaf holding most of position p's ports (the lowest on a tie): the group that locality
  /// packs columns (rows) into.
  unsigned main_leaf(unsigned p) const;
  /// The share of position p's ports on leaf l.
  double share(unsigned p, unsigned l) const;
  /// The probability that one tree traversal between boards at positions p != q goes through the
  /// upper level: 1 - sum over leaves l of share(p, l) share(q, l) (source and destination port
  /// picked uniformly among each board's ports); 0 or 1 when boards do not straddle leaves.
  double cross(unsigned p, unsigned q) const;
  /// The sum of cross(p, q) over ordered pairs of distinct positions of `set`.
  double crossing_pairs(const std::vector<unsigned>& set) const;

 private:
  unsigned positions_ = 0, ports_ = 0, down_ = 0;
};

/// The all-to-all traffic of one job, counted in tree traversals (docs/allocation.md, "The
/// locality metric"). Every ordered pair of the job's boards exchanges the same amount. A pair in
/// one row crosses that row's tree once, a pair in one column the column's tree once, and any
/// other pair crosses one row tree and one column tree (through an intermediate board, IV-C2).
/// `upper` counts the traversals that pass the upper level of their tree.
struct TreeTraffic {
  double traversals = 0;
  double upper = 0;
  /// upper / traversals; 0 for a job without inter-board traffic (one board).
  double fraction() const { return traversals > 0 ? upper / traversals : 0; }
};
TreeTraffic tree_traffic(const Placement& p, const TreeLeaves& row_trees, const TreeLeaves& col_trees);

/// The leaf layouts of a HammingMesh's trees, for the locality heuristic and its metric:
/// `row_trees` over the x column positions, `col_trees` over the y row positions.
struct Trees {
  TreeLeaves row_trees;
  TreeLeaves col_trees;
};

/// The leaf layouts of a topology builder's board grid (topology/network_description.h).
Trees trees_of(const BoardGrid& grid);

/// One HammingMesh's boards and the jobs on them.
class HxMeshAllocator {
 public:
  /// x columns by y rows of boards (each 1..2^20, x y <= 2^26); `failed` boards are never
  /// allocated (duplicates allowed). Throws std::invalid_argument for a size out of range or a
  /// failed board outside the mesh; `trees` must then have x row-tree and y column-tree positions
  /// (or be single switches).
  HxMeshAllocator(unsigned x, unsigned y, const std::vector<Board>& failed = {}, Heuristics heuristics = {},
                  Trees trees = {});

  unsigned x() const { return x_; }
  unsigned y() const { return y_; }
  const Heuristics& heuristics() const { return heuristics_; }
  const Trees& trees() const { return trees_; }
  unsigned working_boards() const { return working_; }
  unsigned used_boards() const { return used_; }
  unsigned free_boards() const { return working_ - used_; }
  bool is_failed(Board b) const;
  bool is_free(Board b) const;
  /// The job on board b, if any.
  std::optional<unsigned> owner(Board b) const;
  /// The jobs placed and not released, by id.
  const std::map<unsigned, Placement>& jobs() const { return jobs_; }

  /// Places a job of u rows by v columns of boards, or returns nullopt (and changes nothing).
  ///
  /// The greedy of IV-A for one shape u x v, with F(r) the free columns of row r:
  ///  1. S = {r0}, r0 the first row with |F(r0)| >= v;
  ///  2. scan the other rows with |F(r)| >= v in cyclic order after r0, and add row r to S if
  ///     |F(r) & (AND of F over S)| >= v;
  ///  3. once |S| = u the job gets rows S and the first v (lowest) columns of the intersection
  ///     (with locality: the v columns that fill the fewest leaf switches); if the scan ends with
  ///     |S| < u the shape fails.
  /// The greedy never backtracks. With `restart` (not in the paper) a failed scan starts again
  /// from the next row with |F| >= v, until one succeeds or every such row was a start.
  ///
  /// The heuristics choose which shapes to try, in this order: u x v; v x u (transpose); then,
  /// with aspect, the other factorisations u' x v' of u v with max/min <= max_aspect, most square
  /// first, each followed by its transpose if transpose is on. Without locality the first shape
  /// that fits wins. With locality every shape (and with restart every start row) is tried and
  /// the placement with the smallest tree_traffic().fraction() wins (ties: the earlier shape,
  /// then the earlier start; the search stops at a fraction of 0). The returned placement's
  /// shape may therefore differ from u x v.
  std::optional<Placement> allocate(unsigned u, unsigned v);
  /// Places a job of `boards` boards in its square_shape() (and the shapes the heuristics allow).
  std::optional<Placement> allocate(unsigned boards);
  /// Places a list of jobs given by their sizes in boards, in list order, or largest first (a
  /// stable sort) if heuristics().sort is on. The result is in list order; nullopt for a job
  /// that did not fit (the others are still tried).
  std::vector<std::optional<Placement>> allocate_jobs(const std::vector<unsigned>& sizes);
  /// Frees the boards of job `job`. Throws std::invalid_argument for an unknown id.
  void release(unsigned job);

  /// The shapes allocate(u, v) tries, in order (see allocate()).
  std::vector<Shape> candidate_shapes(unsigned u, unsigned v) const;

  /// Checks the invariants, for tests: each job's boards are exactly rows x cols, owned by it
  /// and only by it (no overlap); no failed board is used; the free bitsets and counts match;
  /// every row of a job uses the same column set. "" if all hold, else what is wrong.
  std::string check() const;

 private:
  struct Candidate {
    std::vector<unsigned> rows;  // ascending
    std::vector<unsigned> cols;  // ascending
    double fraction = 0;
  };

  bool bit(const std::vector<uint64_t>& bits, unsigned row, unsigned col) const;
  /// The greedy for one shape (see allocate()): the first placement found, or with locality the
  /// best over the start rows tried.
  std::optional<Candidate> place_shape(Shape s) const;
  double traffic_fraction(const std::vector<unsigned>& rows, const std::vector<unsigned>& cols) const;
  /// v columns of the intersection `inter` (words_ words): the lowest, or leaf-packed.
  std::vector<unsigned> pick_columns(const std::vector<uint64_t>& inter, unsigned v) const;
  void take(const Candidate& c, unsigned job);

  unsigned x_, y_, words_;
  Heuristics heuristics_;
  Trees trees_;
  std::vector<uint64_t> free_;      // y_ rows of words_ words: bit c of row r = board (c, r) free
  std::vector<unsigned> row_free_;  // popcount of each row
  std::vector<uint32_t> owner_;     // x_ y_ entries: job id, kFree or kFailed
  std::map<unsigned, Placement> jobs_;
  unsigned next_job_ = 1;
  unsigned working_ = 0, used_ = 0;
};

}  // namespace hx::alloc
