#include "hxmesh_allocator.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>

namespace hx::alloc {

namespace {

constexpr uint32_t kFree = std::numeric_limits<uint32_t>::max();
constexpr uint32_t kFailed = kFree - 1;
constexpr unsigned kMaxSide = 1u << 20;
constexpr uint64_t kMaxBoards = uint64_t{1} << 26;

unsigned popcount(uint64_t w) { return static_cast<unsigned>(__builtin_popcountll(w)); }

struct HeuristicName {
  const char* name;
  bool Heuristics::*flag;
};
// The canonical order of heuristics_name().
const HeuristicName kNames[] = {{"transpose", &Heuristics::transpose},
                                {"aspect", &Heuristics::aspect},
                                {"sort", &Heuristics::sort},
                                {"locality", &Heuristics::locality},
                                {"restart", &Heuristics::restart}};

}  // namespace

// ---- Placement --------------------------------------------------------------------------------------

Board Placement::physical(unsigned i, unsigned j) const {
  if (i >= rows.size() || j >= cols.size())
    throw std::out_of_range("virtual board (" + std::to_string(i) + ", " + std::to_string(j) + ") outside a " +
                            std::to_string(rows.size()) + " x " + std::to_string(cols.size()) + " job");
  return {cols[j], rows[i]};
}

std::optional<std::pair<unsigned, unsigned>> Placement::virtual_of(Board b) const {
  // Both lists are ascending: binary search.
  const auto r = std::lower_bound(rows.begin(), rows.end(), b.row);
  const auto c = std::lower_bound(cols.begin(), cols.end(), b.col);
  if (r == rows.end() || *r != b.row || c == cols.end() || *c != b.col) return std::nullopt;
  return std::make_pair(static_cast<unsigned>(r - rows.begin()), static_cast<unsigned>(c - cols.begin()));
}

std::vector<Board> Placement::physical_boards() const {
  std::vector<Board> out;
  out.reserve(rows.size() * cols.size());
  for (unsigned r : rows)
    for (unsigned c : cols) out.push_back({c, r});
  return out;
}

// ---- heuristics and shapes --------------------------------------------------------------------------

std::optional<Heuristics> parse_heuristics(const std::string& text) {
  Heuristics h;
  if (text == "greedy") return h;
  std::size_t start = 0;
  while (true) {
    const std::size_t plus = text.find('+', start);
    const std::string part = text.substr(start, plus == std::string::npos ? std::string::npos : plus - start);
    bool known = false;
    for (const HeuristicName& n : kNames) {
      if (part != n.name) continue;
      if (h.*n.flag) return std::nullopt;  // repeated
      h.*n.flag = true;
      known = true;
    }
    if (!known) return std::nullopt;
    if (plus == std::string::npos) break;
    start = plus + 1;
  }
  return h;
}

std::string heuristics_name(const Heuristics& h) {
  std::string s;
  for (const HeuristicName& n : kNames)
    if (h.*n.flag) s += (s.empty() ? "" : "+") + std::string(n.name);
  return s.empty() ? "greedy" : s;
}

Shape square_shape(unsigned boards) {
  if (boards == 0) throw std::invalid_argument("a job needs at least one board");
  auto u = static_cast<unsigned>(std::sqrt(static_cast<double>(boards)));
  while (u * u > boards) --u;  // guard against rounding up
  while (boards % u) --u;
  return {u, boards / u};
}

// ---- TreeLeaves ---------------------------------------------------------------------------------------

TreeLeaves::TreeLeaves(unsigned positions, unsigned ports, unsigned down)
    : positions_(positions), ports_(ports), down_(down) {
  if (positions == 0 || ports == 0) throw std::invalid_argument("a tree needs positions and ports");
  if (uint64_t{down} >= uint64_t{positions} * ports) down_ = 0;  // all ports on one switch
}

unsigned TreeLeaves::leaves() const {
  if (down_ == 0) return 1;
  const uint64_t ports = uint64_t{positions_} * ports_;
  return static_cast<unsigned>((ports + down_ - 1) / down_);
}

double TreeLeaves::share(unsigned p, unsigned l) const {
  if (down_ == 0) return l == 0 ? 1.0 : 0.0;
  const uint64_t lo = std::max(uint64_t{p} * ports_, uint64_t{l} * down_);
  const uint64_t hi = std::min(uint64_t{p + 1} * ports_, uint64_t{l + 1} * down_);
  return hi > lo ? static_cast<double>(hi - lo) / ports_ : 0.0;
}

unsigned TreeLeaves::main_leaf(unsigned p) const {
  if (down_ == 0) return 0;
  const auto first = static_cast<unsigned>(uint64_t{p} * ports_ / down_);
  const auto last = static_cast<unsigned>((uint64_t{p + 1} * ports_ - 1) / down_);
  unsigned best = first;
  for (unsigned l = first + 1; l <= last; ++l)
    if (share(p, l) > share(p, best)) best = l;
  return best;
}

double TreeLeaves::cross(unsigned p, unsigned q) const {
  if (down_ == 0 || p == q) return 0;
  const auto first = static_cast<unsigned>(uint64_t{p} * ports_ / down_);
  const auto last = static_cast<unsigned>((uint64_t{p + 1} * ports_ - 1) / down_);
  double same = 0;
  for (unsigned l = first; l <= last; ++l) same += share(p, l) * share(q, l);
  return 1 - same;
}

double TreeLeaves::crossing_pairs(const std::vector<unsigned>& set) const {
  if (down_ == 0 || set.size() < 2) return 0;
  // sum_{p != q} (1 - sum_l s_pl s_ql) = n (n - 1) - (sum_l (sum_p s_pl)^2 - sum_p sum_l s_pl^2):
  // linear in the set size instead of quadratic.
  std::vector<double> per_leaf(leaves(), 0.0);
  double self = 0;
  for (unsigned p : set) {
    const auto first = static_cast<unsigned>(uint64_t{p} * ports_ / down_);
    const auto last = static_cast<unsigned>((uint64_t{p + 1} * ports_ - 1) / down_);
    for (unsigned l = first; l <= last; ++l) {
      const double s = share(p, l);
      per_leaf[l] += s;
      self += s * s;
    }
  }
  double together = 0;
  for (double s : per_leaf) together += s * s;
  const double n = static_cast<double>(set.size());
  return n * (n - 1) - (together - self);
}

TreeTraffic tree_traffic(const Placement& p, const TreeLeaves& row_trees, const TreeLeaves& col_trees) {
  const double u = p.u(), v = p.v();
  TreeTraffic t;
  // u^2 ordered board pairs for each ordered pair of distinct columns (one row-tree traversal
  // each), v^2 for each ordered pair of distinct rows (one column-tree traversal each); a pair
  // in different rows and columns is in both sets, as it crosses one tree of each dimension.
  t.traversals = u * u * v * (v - 1) + v * v * u * (u - 1);
  t.upper = u * u * row_trees.crossing_pairs(p.cols) + v * v * col_trees.crossing_pairs(p.rows);
  return t;
}

// ---- HxMeshAllocator --------------------------------------------------------------------------------

Trees trees_of(const BoardGrid& grid) {
  const auto leaves = [](const TreeLayout& l) {
    return l.positions == 0 ? TreeLeaves() : TreeLeaves(l.positions, l.ports, l.leaf_down());
  };
  return Trees{leaves(grid.rows), leaves(grid.cols)};
}

HxMeshAllocator::HxMeshAllocator(unsigned x, unsigned y, const std::vector<Board>& failed, Heuristics heuristics,
                                 Trees trees)
    : x_(x), y_(y), words_((x + 63) / 64), heuristics_(heuristics), trees_(std::move(trees)) {
  if (x == 0 || y == 0 || x > kMaxSide || y > kMaxSide || uint64_t{x} * y > kMaxBoards)
    throw std::invalid_argument("a HammingMesh of " + std::to_string(x) + " x " + std::to_string(y) +
                                " boards: expected 1..2^20 boards a side and at most 2^26 boards");
  if (!(heuristics.max_aspect >= 1)) throw std::invalid_argument("max_aspect must be at least 1");
  if (!trees_.row_trees.single_switch() && trees_.row_trees.positions() != x)
    throw std::invalid_argument("the row trees must have one position per column");
  if (!trees_.col_trees.single_switch() && trees_.col_trees.positions() != y)
    throw std::invalid_argument("the column trees must have one position per row");
  free_.assign(static_cast<std::size_t>(y_) * words_, 0);
  row_free_.assign(y_, x_);
  owner_.assign(static_cast<std::size_t>(x_) * y_, kFree);
  for (unsigned r = 0; r < y_; ++r)
    for (unsigned c = 0; c < x_; ++c) free_[std::size_t{r} * words_ + c / 64] |= uint64_t{1} << (c % 64);
  working_ = x_ * y_;
  for (const Board& b : failed) {
    if (b.col >= x_ || b.row >= y_)
      throw std::invalid_argument("failed board (" + std::to_string(b.col) + ", " + std::to_string(b.row) +
                                  ") outside the " + std::to_string(x_) + " x " + std::to_string(y_) + " mesh");
    uint32_t& o = owner_[std::size_t{b.row} * x_ + b.col];
    if (o == kFailed) continue;
    o = kFailed;
    free_[std::size_t{b.row} * words_ + b.col / 64] &= ~(uint64_t{1} << (b.col % 64));
    --row_free_[b.row];
    --working_;
  }
}

bool HxMeshAllocator::bit(const std::vector<uint64_t>& bits, unsigned row, unsigned col) const {
  return (bits[std::size_t{row} * words_ + col / 64] >> (col % 64)) & 1u;
}

bool HxMeshAllocator::is_failed(Board b) const {
  return b.col < x_ && b.row < y_ && owner_[std::size_t{b.row} * x_ + b.col] == kFailed;
}

bool HxMeshAllocator::is_free(Board b) const {
  return b.col < x_ && b.row < y_ && owner_[std::size_t{b.row} * x_ + b.col] == kFree;
}

std::optional<unsigned> HxMeshAllocator::owner(Board b) const {
  if (b.col >= x_ || b.row >= y_) return std::nullopt;
  const uint32_t o = owner_[std::size_t{b.row} * x_ + b.col];
  if (o == kFree || o == kFailed) return std::nullopt;
  return o;
}

std::vector<Shape> HxMeshAllocator::candidate_shapes(unsigned u, unsigned v) const {
  std::vector<Shape> out;
  const auto add = [&out](Shape s) {
    if (std::find(out.begin(), out.end(), s) == out.end()) out.push_back(s);
  };
  const auto add_with_transpose = [&](Shape s) {
    add(s);
    if (heuristics_.transpose) add({s.v, s.u});
  };
  add_with_transpose({u, v});
  if (heuristics_.aspect) {
    // Factorisations p x q = u v with p <= q and q / p <= max_aspect, most square first (largest
    // p first), in the orientation of the request (wide if u <= v, tall otherwise).
    const uint64_t s = uint64_t{u} * v;
    for (auto p = static_cast<unsigned>(std::sqrt(static_cast<double>(s))) + 1; p >= 1; --p) {
      if (uint64_t{p} * p > s || s % p) continue;
      const auto q = static_cast<unsigned>(s / p);
      if (static_cast<double>(q) > heuristics_.max_aspect * p) break;  // only less square below
      add_with_transpose(u <= v ? Shape{p, q} : Shape{q, p});
    }
  }
  return out;
}

std::vector<unsigned> HxMeshAllocator::pick_columns(const std::vector<uint64_t>& inter, unsigned v) const {
  std::vector<unsigned> cols;
  cols.reserve(v);
  const TreeLeaves& leaves = trees_.row_trees;
  if (!heuristics_.locality || leaves.single_switch()) {
    // The lowest v columns: the free boards left over stay at the high end of the rows.
    for (unsigned w = 0; w < words_ && cols.size() < v; ++w) {
      for (uint64_t bits = inter[w]; bits && cols.size() < v; bits &= bits - 1)
        cols.push_back(w * 64 + static_cast<unsigned>(__builtin_ctzll(bits)));
    }
    return cols;
  }
  // Locality: fill the leaves with the most candidate columns first (ties: the lower leaf). For
  // boards that do not straddle leaves this maximises sum_l n_l^2 over the leaves' column counts
  // n_l, i.e. minimises the row-tree pairs on different leaves.
  std::vector<std::vector<unsigned>> by_leaf(leaves.leaves());
  for (unsigned w = 0; w < words_; ++w) {
    for (uint64_t bits = inter[w]; bits; bits &= bits - 1) {
      const unsigned c = w * 64 + static_cast<unsigned>(__builtin_ctzll(bits));
      by_leaf[leaves.main_leaf(c)].push_back(c);
    }
  }
  std::vector<unsigned> order(by_leaf.size());
  for (unsigned l = 0; l < order.size(); ++l) order[l] = l;
  std::stable_sort(order.begin(), order.end(),
                   [&by_leaf](unsigned a, unsigned b) { return by_leaf[a].size() > by_leaf[b].size(); });
  for (unsigned l : order) {
    for (unsigned c : by_leaf[l]) {
      if (cols.size() == v) break;
      cols.push_back(c);
    }
  }
  std::sort(cols.begin(), cols.end());
  return cols;
}

std::optional<HxMeshAllocator::Candidate> HxMeshAllocator::place_shape(Shape s) const {
  const unsigned u = s.u, v = s.v;
  if (u == 0 || v == 0 || u > y_ || v > x_) return std::nullopt;
  // Only rows with at least v free boards can ever be in S.
  std::vector<unsigned> eligible;
  for (unsigned r = 0; r < y_; ++r)
    if (row_free_[r] >= v) eligible.push_back(r);
  const auto n = static_cast<unsigned>(eligible.size());
  if (n < u) return std::nullopt;

  std::optional<Candidate> best;
  std::vector<uint64_t> cur(words_), next(words_);
  std::vector<unsigned> rows;
  rows.reserve(u);
  // IV-A's greedy has one start: the first row with v free boards. restart tries the others too.
  const unsigned starts = heuristics_.restart ? n : 1;
  for (unsigned si = 0; si < starts; ++si) {
    const unsigned r0 = eligible[si];
    std::copy_n(free_.begin() + std::size_t{r0} * words_, words_, cur.begin());
    rows.assign(1, r0);
    for (unsigned k = 1; k < n && rows.size() < u; ++k) {
      if (rows.size() + (n - k) < u) break;  // too few rows left to scan
      const unsigned r = eligible[(si + k) % n];
      const uint64_t* row = &free_[std::size_t{r} * words_];
      unsigned count = 0;
      for (unsigned w = 0; w < words_; ++w) count += popcount(next[w] = cur[w] & row[w]);
      if (count >= v) {
        cur.swap(next);
        rows.push_back(r);
      }
    }
    if (rows.size() < u) continue;
    Candidate c;
    c.rows = rows;
    std::sort(c.rows.begin(), c.rows.end());
    c.cols = pick_columns(cur, v);
    if (!heuristics_.locality) return c;
    c.fraction = traffic_fraction(c.rows, c.cols);
    if (!best || c.fraction < best->fraction) best = std::move(c);
    if (best->fraction == 0) break;  // nothing can beat it
  }
  return best;
}

double HxMeshAllocator::traffic_fraction(const std::vector<unsigned>& rows, const std::vector<unsigned>& cols) const {
  Placement p;
  p.rows = rows;
  p.cols = cols;
  return tree_traffic(p, trees_.row_trees, trees_.col_trees).fraction();
}

void HxMeshAllocator::take(const Candidate& c, unsigned job) {
  for (unsigned r : c.rows) {
    for (unsigned col : c.cols) {
      owner_[std::size_t{r} * x_ + col] = job;
      free_[std::size_t{r} * words_ + col / 64] &= ~(uint64_t{1} << (col % 64));
    }
    row_free_[r] -= static_cast<unsigned>(c.cols.size());
  }
  used_ += static_cast<unsigned>(c.rows.size() * c.cols.size());
}

std::optional<Placement> HxMeshAllocator::allocate(unsigned u, unsigned v) {
  if (u == 0 || v == 0) throw std::invalid_argument("a job needs at least one row and one column of boards");
  if (uint64_t{u} * v > free_boards()) return std::nullopt;
  std::optional<Candidate> chosen;
  for (const Shape& s : candidate_shapes(u, v)) {
    std::optional<Candidate> c = place_shape(s);
    if (!c) continue;
    if (!heuristics_.locality) {
      chosen = std::move(c);
      break;
    }
    if (!chosen || c->fraction < chosen->fraction) chosen = std::move(c);
    if (chosen->fraction == 0) break;  // no other shape can beat it
  }
  if (!chosen) return std::nullopt;
  const unsigned id = next_job_++;
  take(*chosen, id);
  Placement p;
  p.job = id;
  p.rows = std::move(chosen->rows);
  p.cols = std::move(chosen->cols);
  return jobs_.emplace(id, std::move(p)).first->second;
}

std::optional<Placement> HxMeshAllocator::allocate(unsigned boards) {
  const Shape s = square_shape(boards);
  return allocate(s.u, s.v);
}

std::vector<std::optional<Placement>> HxMeshAllocator::allocate_jobs(const std::vector<unsigned>& sizes) {
  std::vector<std::size_t> order(sizes.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  if (heuristics_.sort)
    std::stable_sort(order.begin(), order.end(),
                     [&sizes](std::size_t a, std::size_t b) { return sizes[a] > sizes[b]; });
  std::vector<std::optional<Placement>> out(sizes.size());
  for (std::size_t i : order) out[i] = allocate(sizes[i]);
  return out;
}

void HxMeshAllocator::release(unsigned job) {
  const auto it = jobs_.find(job);
  if (it == jobs_.end()) throw std::invalid_argument("release: no job " + std::to_string(job));
  const Placement& p = it->second;
  for (unsigned r : p.rows) {
    for (unsigned c : p.cols) {
      owner_[std::size_t{r} * x_ + c] = kFree;
      free_[std::size_t{r} * words_ + c / 64] |= uint64_t{1} << (c % 64);
    }
    row_free_[r] += p.v();
  }
  used_ -= p.boards();
  jobs_.erase(it);
}

std::string HxMeshAllocator::check() const {
  std::ostringstream err;
  // The bitsets and counts against the owner grid.
  unsigned used = 0, working = 0;
  for (unsigned r = 0; r < y_; ++r) {
    unsigned count = 0;
    for (unsigned c = 0; c < x_; ++c) {
      const uint32_t o = owner_[std::size_t{r} * x_ + c];
      const bool is_free = bit(free_, r, c);
      if (is_free != (o == kFree))
        err << "board (" << c << ", " << r << "): free bit " << is_free << " but owner " << o << "\n";
      if (o != kFailed) ++working;
      if (o != kFree && o != kFailed) {
        ++used;
        if (!jobs_.count(o)) err << "board (" << c << ", " << r << ") owned by unknown job " << o << "\n";
      }
      count += is_free;
    }
    for (unsigned c = x_; c < words_ * 64; ++c)
      if (bit(free_, r, c)) err << "row " << r << ": bit " << c << " beyond the mesh is set\n";
    if (count != row_free_[r])
      err << "row " << r << ": free count " << row_free_[r] << ", bitset has " << count << "\n";
  }
  if (used != used_) err << "used boards " << used_ << ", owner grid has " << used << "\n";
  if (working != working_) err << "working boards " << working_ << ", owner grid has " << working << "\n";

  // Each job against the grid: the boards it owns, row by row, are exactly its columns in each
  // of its rows -- so every row of the job has the same column set (III-E).
  std::map<unsigned, std::map<unsigned, std::vector<unsigned>>> found;  // job -> row -> columns
  for (unsigned r = 0; r < y_; ++r)
    for (unsigned c = 0; c < x_; ++c) {
      const uint32_t o = owner_[std::size_t{r} * x_ + c];
      if (o != kFree && o != kFailed) found[o][r].push_back(c);
    }
  unsigned total = 0;
  for (const auto& [id, p] : jobs_) {
    total += p.boards();
    if (p.job != id) err << "job " << id << " records id " << p.job << "\n";
    if (p.rows.empty() || p.cols.empty()) err << "job " << id << " is empty\n";
    if (!std::is_sorted(p.rows.begin(), p.rows.end()) ||
        std::adjacent_find(p.rows.begin(), p.rows.end()) != p.rows.end())
      err << "job " << id << ": rows not strictly ascending\n";
    if (!std::is_sorted(p.cols.begin(), p.cols.end()) ||
        std::adjacent_find(p.cols.begin(), p.cols.end()) != p.cols.end())
      err << "job " << id << ": columns not strictly ascending\n";
    const auto f = found.find(id);
    if (f == found.end()) {
      err << "job " << id << " owns no board\n";
      continue;
    }
    std::vector<unsigned> rows;
    for (const auto& [r, cols] : f->second) {
      rows.push_back(r);
      if (cols != p.cols) err << "job " << id << ": row " << r << " uses a different column set\n";
    }
    if (rows != p.rows) err << "job " << id << ": owns boards in other rows than its own\n";
  }
  if (total != used_) err << "jobs hold " << total << " boards, used count is " << used_ << "\n";
  return err.str();
}

}  // namespace hx::alloc
