#include "collective_plan.h"

#include <algorithm>
#include <array>
#include <stdexcept>

#include "hamiltonian.h"

namespace hx {

std::string collective_op_name(CollectiveOp op) {
  switch (op) {
    case CollectiveOp::AllReduce: return "allreduce";
    case CollectiveOp::ReduceScatter: return "reduce_scatter";
    case CollectiveOp::AllGather: return "all_gather";
    case CollectiveOp::Broadcast: return "broadcast";
    case CollectiveOp::AllToAll: return "all_to_all";
  }
  return "?";
}

std::string collective_algorithm_name(CollectiveAlgorithm alg) {
  switch (alg) {
    case CollectiveAlgorithm::Ring: return "ring";
    case CollectiveAlgorithm::BidirectionalRing: return "bidirectional_ring";
    case CollectiveAlgorithm::Hamiltonian: return "hamiltonian";
    case CollectiveAlgorithm::Torus2D: return "torus2d";
    case CollectiveAlgorithm::Direct: return "direct";
    case CollectiveAlgorithm::Hierarchical: return "hierarchical";
  }
  return "?";
}

double busbw_factor(CollectiveOp op, unsigned ranks) {
  const double p = ranks;
  switch (op) {
    case CollectiveOp::AllReduce: return 2 * (p - 1) / p;
    case CollectiveOp::Broadcast: return 1;
    default: return (p - 1) / p;
  }
}

ElementRange split_range(ElementRange r, uint64_t k, uint64_t m) {
  const uint64_t n = r.size(), base = n / m, extra = n % m;
  const uint64_t begin = r.begin + k * base + std::min(k, extra);
  return {begin, begin + base + (k < extra ? 1 : 0)};
}

const ElementRange& Stage::sent_chunk(unsigned rank, unsigned step) const {
  const unsigned ring = ring_of[rank], n = static_cast<unsigned>(rings[ring].size()), i = position_of[rank];
  const unsigned back = (kind == StageKind::ReduceScatter ? step + 1 : step) % n;
  return chunk[ring][(i + n - back) % n];
}

const ElementRange& Stage::received_chunk(unsigned rank, unsigned step) const {
  const unsigned ring = ring_of[rank], n = static_cast<unsigned>(rings[ring].size()), i = position_of[rank];
  const unsigned back = (kind == StageKind::ReduceScatter ? step + 2 : step + 1) % n;
  return chunk[ring][(i + n - back) % n];
}

namespace {
const CollectivePlan::Piece& piece_of(const std::vector<CollectivePlan::Piece>& pieces, uint64_t i) {
  auto it = std::upper_bound(pieces.begin(), pieces.end(), i,
                             [](uint64_t v, const CollectivePlan::Piece& p) { return v < p.range.begin; });
  return *(it - 1);  // pieces cover [0, S) from 0
}
}  // namespace

unsigned CollectivePlan::owner(uint64_t i) const {
  if (!pieces.empty()) return piece_of(pieces, i).rank;
  const uint64_t p = ranks(), base = elements / p, extra = elements % p;
  return static_cast<unsigned>(i < extra * (base + 1) ? i / (base + 1) : extra + (i - extra * (base + 1)) / base);
}

uint64_t CollectivePlan::output_index(unsigned rank, uint64_t i) const {
  if (pieces.empty()) return i - block(rank).begin;
  const Piece& p = piece_of(pieces, i);
  return p.out + (i - p.range.begin);
}

uint64_t CollectivePlan::owned(unsigned rank) const {
  if (pieces.empty()) return block(rank).size();
  uint64_t n = 0;
  for (const Piece& p : pieces) n += p.rank == rank ? p.range.size() : 0;
  return n;
}

const ElementRange& Stage::arriving_chunk(unsigned rank, unsigned step) const {
  const unsigned ring = ring_of[rank];
  if (kind == StageKind::Chain) return chunk[ring][0];
  if (direct) return chunk[ring][kind == StageKind::ReduceScatter ? position_of[rank] : step];
  return received_chunk(rank, step);
}

namespace {

// Ranks of a rows x cols torus as the transposed torus numbers them (node x * rows + y).
unsigned from_transposed(unsigned id, unsigned cols, unsigned rows) { return (id % rows) * cols + id / rows; }

std::vector<unsigned> reversed_ring(const std::vector<unsigned>& ring) {
  std::vector<unsigned> r{ring.front()};
  r.insert(r.end(), ring.rbegin(), ring.rend() - 1);
  return r;
}

// The two edge-disjoint cycles, in either orientation of the torus.
std::array<std::vector<unsigned>, 2> two_cycles(unsigned cols, unsigned rows) {
  if (has_hamiltonian_cycles(rows, cols)) return hamiltonian_cycles(rows, cols).cycle;
  if (has_hamiltonian_cycles(cols, rows)) {
    std::array<std::vector<unsigned>, 2> c = hamiltonian_cycles(cols, rows).cycle;
    for (auto& cycle : c)
      for (unsigned& id : cycle) id = from_transposed(id, cols, rows);
    return c;
  }
  // Neither orientation works: name the condition that fails in the orientation closer to it
  // (the one where r is a multiple of c, if any).
  if (rows % cols != 0 && cols % rows == 0) hamiltonian_cycles(cols, rows);  // throws
  hamiltonian_cycles(rows, cols);                                            // throws
  return {};
}

// A stage with one ring per entry of `rings`; chunk[ring][pos] = chunk_of(ring, pos, rank).
template <class ChunkOf>
Stage make_stage(StageKind kind, std::vector<std::vector<unsigned>> rings, unsigned ranks, ChunkOf chunk_of) {
  Stage s;
  s.kind = kind;
  s.ring_of.assign(ranks, 0);
  s.position_of.assign(ranks, 0);
  for (unsigned g = 0; g < rings.size(); ++g) {
    s.chunk.emplace_back();
    for (unsigned i = 0; i < rings[g].size(); ++i) {
      s.ring_of[rings[g][i]] = g;
      s.position_of[rings[g][i]] = i;
      s.chunk[g].push_back(chunk_of(g, i, rings[g][i]));
    }
  }
  s.rings = std::move(rings);
  return s;
}

// The rings of every row (along x) or every column (along y), in the + or - direction, each
// starting at coordinate 0.
std::vector<std::vector<unsigned>> line_rings(unsigned cols, unsigned rows, bool along_x, bool plus) {
  std::vector<std::vector<unsigned>> rings;
  const unsigned lines = along_x ? rows : cols, len = along_x ? cols : rows;
  for (unsigned l = 0; l < lines; ++l) {
    std::vector<unsigned> ring;
    for (unsigned k = 0; k < len; ++k) ring.push_back(along_x ? l * cols + k : k * cols + l);
    rings.push_back(plus ? ring : reversed_ring(ring));
  }
  return rings;
}

// One quarter of a 2D-torus allreduce: reduce-scatter along the first dimension, allreduce
// along the second on the chunk each rank then owns, all-gather along the first. Chunks follow
// the ranks' coordinates, so that the ranks of a column (row) own the same chunk after the
// first stage.
Flow torus2d_flow(unsigned cols, unsigned rows, ElementRange range, bool rows_first, bool plus) {
  const unsigned p = cols * rows;
  const auto first_coord = [&](unsigned r) { return rows_first ? r % cols : r / cols; };
  const auto second_coord = [&](unsigned r) { return rows_first ? r / cols : r % cols; };
  const unsigned first_len = rows_first ? cols : rows, second_len = rows_first ? rows : cols;
  const auto first_chunk = [&](unsigned, unsigned, unsigned r) {
    return split_range(range, first_coord(r), first_len);
  };
  const auto second_chunk = [&](unsigned, unsigned, unsigned r) {
    return split_range(split_range(range, first_coord(r), first_len), second_coord(r), second_len);
  };
  Flow f;
  f.stages.push_back(make_stage(StageKind::ReduceScatter, line_rings(cols, rows, rows_first, plus), p, first_chunk));
  f.stages.push_back(make_stage(StageKind::ReduceScatter, line_rings(cols, rows, !rows_first, plus), p, second_chunk));
  f.stages.push_back(make_stage(StageKind::AllGather, line_rings(cols, rows, !rows_first, plus), p, second_chunk));
  f.stages.push_back(make_stage(StageKind::AllGather, line_rings(cols, rows, rows_first, plus), p, first_chunk));
  return f;
}

}  // namespace

std::vector<unsigned> torus_ring(unsigned cols, unsigned rows) {
  if (cols == 0 || rows == 0) throw std::invalid_argument("a job needs at least one accelerator");
  if (has_hamiltonian_cycles(rows, cols) || has_hamiltonian_cycles(cols, rows)) return two_cycles(cols, rows)[0];
  std::vector<unsigned> ring;
  if (rows % 2 == 0 || cols == 1) {  // snake along x, back down column 0 through the wrap
    for (unsigned y = 0; y < rows; ++y)
      for (unsigned k = 0; k < cols; ++k) ring.push_back(y * cols + (y % 2 == 0 ? k : cols - 1 - k));
  } else if (cols % 2 == 0 || rows == 1) {  // the same along y
    for (unsigned x = 0; x < cols; ++x)
      for (unsigned k = 0; k < rows; ++k) ring.push_back((x % 2 == 0 ? k : rows - 1 - k) * cols + x);
  } else {
    throw std::invalid_argument("no ring of torus links for a " + std::to_string(cols) + "x" + std::to_string(rows) +
                                " job: a snake needs an even side, and the Hamiltonian cycles need r a multiple "
                                "of c and gcd(r, c - 1) = 1");
  }
  return ring;
}

CollectivePlan make_collective_plan(CollectiveOp op, CollectiveAlgorithm alg, unsigned cols, unsigned rows,
                                    uint64_t elements, unsigned root) {
  CollectivePlan plan;
  plan.op = op;
  plan.algorithm = alg;
  plan.cols = cols;
  plan.rows = rows;
  plan.root = root;
  plan.elements = elements;
  const unsigned p = cols * rows;
  if (p == 0) throw std::invalid_argument("a job needs at least one accelerator");
  if (alg == CollectiveAlgorithm::Hierarchical)
    throw std::invalid_argument("algorithm hierarchical runs over a platform's dimensions (topology.dims)");
  if (op == CollectiveOp::Broadcast && root >= p)
    throw std::invalid_argument("broadcast root " + std::to_string(root) + " is not a rank of the " +
                                std::to_string(p) + "-rank job");
  const bool direct = alg == CollectiveAlgorithm::Direct, a2a = op == CollectiveOp::AllToAll;
  if (direct != a2a)
    throw std::invalid_argument(a2a ? "all_to_all runs with algorithm direct"
                                    : "algorithm direct is for all_to_all; " + collective_op_name(op) +
                                          " runs on ring, bidirectional_ring, hamiltonian or torus2d");
  if (alg == CollectiveAlgorithm::Torus2D && op != CollectiveOp::AllReduce)
    throw std::invalid_argument("algorithm torus2d is an allreduce; " + collective_op_name(op) +
                                " runs on ring, bidirectional_ring or hamiltonian");
  if (a2a) return plan;

  if (alg == CollectiveAlgorithm::Torus2D) {
    for (unsigned f = 0; f < 4; ++f)
      plan.flows.push_back(torus2d_flow(cols, rows, split_range({0, elements}, f, 4), f < 2, f % 2 == 0));
    return plan;
  }

  // Ring algorithms: one cycle per flow (forward and backward, one or two cycles).
  std::vector<std::vector<unsigned>> cycles;
  if (alg == CollectiveAlgorithm::Hamiltonian) {
    const auto two = two_cycles(cols, rows);
    cycles = {two[0], reversed_ring(two[0]), two[1], reversed_ring(two[1])};
  } else {
    const std::vector<unsigned> ring = torus_ring(cols, rows);
    cycles = {ring};
    if (alg == CollectiveAlgorithm::BidirectionalRing) cycles.push_back(reversed_ring(ring));
  }
  const unsigned flows = static_cast<unsigned>(cycles.size());
  for (unsigned f = 0; f < flows; ++f) {
    const ElementRange range = split_range({0, elements}, f, flows);
    Flow flow;
    std::vector<unsigned> ring = cycles[f];
    switch (op) {
      case CollectiveOp::AllReduce: {
        const auto by_position = [&](unsigned, unsigned i, unsigned) { return split_range(range, i, p); };
        flow.stages.push_back(make_stage(StageKind::ReduceScatter, {ring}, p, by_position));
        flow.stages.push_back(make_stage(StageKind::AllGather, {ring}, p, by_position));
        break;
      }
      case CollectiveOp::ReduceScatter:
      case CollectiveOp::AllGather: {
        // Part f of rank r's block: rank r ends up with (or starts from) its whole block.
        const auto by_rank = [&](unsigned, unsigned, unsigned r) { return split_range(plan.block(r), f, flows); };
        flow.stages.push_back(make_stage(
            op == CollectiveOp::ReduceScatter ? StageKind::ReduceScatter : StageKind::AllGather, {ring}, p, by_rank));
        break;
      }
      case CollectiveOp::Broadcast: {
        std::rotate(ring.begin(), std::find(ring.begin(), ring.end(), root), ring.end());
        flow.stages.push_back(
            make_stage(StageKind::Chain, {ring}, p, [&](unsigned, unsigned, unsigned) { return range; }));
        break;
      }
      case CollectiveOp::AllToAll: break;
    }
    plan.flows.push_back(std::move(flow));
  }
  return plan;
}

CollectivePlan hierarchical_all_to_all_plan(unsigned group, unsigned groups, uint64_t elements) {
  if (group * groups < 2) throw std::invalid_argument("a hierarchical all_to_all needs two ranks or more");
  if (groups > 255) throw std::invalid_argument("a hierarchical all_to_all has at most 255 groups");
  CollectivePlan plan;
  plan.op = CollectiveOp::AllToAll;
  plan.algorithm = CollectiveAlgorithm::Hierarchical;
  plan.cols = group * groups;
  plan.rows = 1;
  plan.elements = elements;
  plan.a2a_group = group;
  return plan;
}

}  // namespace hx
