// collective_plan.h: what each accelerator of a job sends, to whom, and in which order, for one
// collective operation: the algorithm as data, independent of the network that carries it.
//
// A job's p accelerators are ranks 0..p-1 on a virtual cols x rows torus (rank r at column
// r mod cols, row r div cols). A plan splits the data into flows that run concurrently, each on
// its own network interface of an accelerator (flow f uses local port f mod L), and a flow is a
// sequence of stages. A stage partitions the ranks into rings; every ring works on its own
// element ranges:
//
//   reduce_scatter  ring of n positions, n - 1 steps: at step s position i sends chunk
//                   (i - s - 1) mod n to position i + 1, which adds its own data to it. After
//                   step n - 2 position i holds chunk i reduced over the ring.
//   all_gather      n - 1 steps: at step s position i sends chunk (i - s) mod n; the receiver
//                   keeps it and forwards it in the next step. Position i starts with chunk i.
//   chain           a broadcast pipeline: position 0 (the root) sends the ring's range to
//                   position 1, which forwards it, ..., to position n - 1.
// A direct stage (Stage::direct: a clique's algorithm, every member linked to every other)
// takes one step instead of n - 1: in a reduce_scatter position i sends chunk j straight to
// position j, which adds the n - 1 contributions to its own; in an all_gather position i sends
// chunk i to every other position.
//
// Every chunk travels in segments (one packet each), and a segment's step s + 1 depends only on
// its own step s: the rings are pipelined at segment granularity. A rank starts stage k + 1 of a
// flow once it has received everything of stage k; stage k + 1 works on what stage k left it
// (its reduced chunk, or the range it gathered).
//
// Algorithms (HammingMesh paper, sec. V-A2 and appendix A-D):
//   ring                one flow: a Hamiltonian cycle of the job torus, one direction
//   bidirectional_ring  two flows: the same cycle in both directions, half of the data each
//   hamiltonian         four flows: two edge-disjoint Hamiltonian cycles, both directions, a
//                       quarter of the data each; every accelerator uses all four links
//   torus2d             four flows of a quarter each: reduce-scatter along rows, allreduce along
//                       columns, all-gather along rows (+x/+y and -x/-y), and the transposed pair
//                       (columns first), so that every phase uses all four links
//   direct              all-to-all: rank s sends block d of its buffer straight to rank d, in the
//                       balanced order d = s + 1, s + 2, ... (mod p)
//   hierarchical        a multi-dimensional platform's RS and AG stages per dimension, chunk by
//                       chunk (dim_schedule.h); it is scheduled over the platform's dimensions,
//                       not planned on a torus of ranks, so make_collective_plan refuses it.
//                       An all_to_all on two dimensions (hierarchical_all_to_all_plan): a local
//                       all-to-all within each dim1 group that leaves every rank holding what its
//                       group sends to the ranks of its own dim1 coordinate, then one all-to-all
//                       among those (Wang et al., Appendix D: the HB domain, then the rail)
//
// Data: an allreduce of S elements gives every rank all S elements; reduce_scatter leaves rank r
// with block r of the S elements (blocks partition 0..S-1 in rank order); all_gather gives every
// rank all S elements, of which rank r contributed block r; broadcast copies the root's S
// elements; all_to_all moves block d of rank s's S elements to rank d, which stores it as its
// block s.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace hx {

enum class CollectiveOp : uint8_t { AllReduce, ReduceScatter, AllGather, Broadcast, AllToAll };
enum class CollectiveAlgorithm : uint8_t { Ring, BidirectionalRing, Hamiltonian, Torus2D, Direct, Hierarchical };

std::string collective_op_name(CollectiveOp op);                 // "allreduce", ...
std::string collective_algorithm_name(CollectiveAlgorithm alg);  // "ring", ...

/// Element indices [begin, end).
struct ElementRange {
  uint64_t begin = 0, end = 0;
  uint64_t size() const { return end - begin; }
  bool operator==(const ElementRange& o) const { return begin == o.begin && end == o.end; }
};

/// NCCL's bus-bandwidth factor: busbw = algbw x factor for `op` on `ranks` ranks (allreduce
/// 2 (p - 1) / p, broadcast 1, the others (p - 1) / p).
double busbw_factor(CollectiveOp op, unsigned ranks);

/// Part k of m of `r`, sizes differing by at most one element (the first ones larger).
ElementRange split_range(ElementRange r, uint64_t k, uint64_t m);

enum class StageKind : uint8_t { ReduceScatter, AllGather, Chain };

struct Stage {
  StageKind kind = StageKind::ReduceScatter;
  /// Rings of ranks, in send order: position i sends to position (i + 1) mod n.
  std::vector<std::vector<unsigned>> rings;
  /// Per rank: its ring and its position in it.
  std::vector<unsigned> ring_of, position_of;
  /// chunk[ring][position]: the chunk that position owns (reduce_scatter, all_gather); for a
  /// chain, chunk[ring][0] is the range the root sends.
  std::vector<std::vector<ElementRange>> chunk;
  /// Direct instead of round the ring (see the header comment); the "ring" is then just the group.
  bool direct = false;
  /// The local port its packets take: -1 for the flow's own (flow mod local ports); a
  /// hierarchical stage takes its dimension's lane (dim_schedule.h).
  int lane = -1;
  /// Its packets' turn on the lane's DMA queues (plan.queue_per_flow): the lowest goes first,
  /// equal ones take turns. A hierarchical stage's place in its dimension's order.
  unsigned priority = 0;

  unsigned ring_size(unsigned rank) const { return static_cast<unsigned>(rings[ring_of[rank]].size()); }
  /// The chunk rank `rank` sends at step s (reduce_scatter: (i - s - 1) mod n; all_gather:
  /// (i - s) mod n), and the one it receives at step s (what its predecessor sends).
  const ElementRange& sent_chunk(unsigned rank, unsigned step) const;
  const ElementRange& received_chunk(unsigned rank, unsigned step) const;
  /// The chunk a segment arriving at `rank` with `step` belongs to, for every kind of stage
  /// (a chain's range; a direct stage's: the receiver's own in a reduce_scatter, the sender's,
  /// whose position `step` carries, in an all_gather).
  const ElementRange& arriving_chunk(unsigned rank, unsigned step) const;
};

struct Flow {
  std::vector<Stage> stages;
};

struct CollectivePlan {
  CollectiveOp op = CollectiveOp::AllReduce;
  CollectiveAlgorithm algorithm = CollectiveAlgorithm::Ring;
  unsigned cols = 0, rows = 0;  ///< the job's virtual torus
  unsigned root = 0;            ///< broadcast
  uint64_t elements = 0;        ///< S: the message in elements (see the header comment)
  std::vector<Flow> flows;      ///< empty for an all-to-all
  /// A hierarchical all-to-all's dim1 group size x (ranks r with equal r div x form a group);
  /// 0 for any other plan.
  unsigned a2a_group = 0;
  /// Each flow has its own DMA queue on its lane, served by its stages' priority and round robin
  /// among equals (a hierarchical plan's flows share their dimension's lane); else one FIFO per
  /// lane.
  bool queue_per_flow = false;
  unsigned ranks() const { return cols * rows; }
  /// Block r of the S elements (reduce_scatter output, all_gather input, all_to_all blocks).
  ElementRange block(unsigned r) const { return split_range({0, elements}, r, ranks()); }

  /// Who owns which elements of a reduce_scatter's output or an all_gather's input, when it is
  /// not block r for rank r: pieces of [0, S), sorted by begin, each owned by a rank, which
  /// holds its pieces in its output in the order of `out` (a hierarchical collective's ranks
  /// own a piece of every chunk). Empty: the blocks.
  struct Piece {
    ElementRange range;
    unsigned rank = 0;
    uint64_t out = 0;  ///< where the piece starts in its rank's output
  };
  std::vector<Piece> pieces;
  /// The rank that owns element i, where it sits in that rank's output, and how many elements
  /// rank r owns.
  unsigned owner(uint64_t i) const;
  uint64_t output_index(unsigned rank, uint64_t i) const;
  uint64_t owned(unsigned rank) const;
};

/// The plan of `op` with `alg` for a cols x rows job and S = `elements`. Throws
/// std::invalid_argument when the algorithm does not fit the op or the job's shape (the message
/// names the condition, e.g. the Hamiltonian cycles' r multiple of c and gcd(r, c - 1) = 1).
CollectivePlan make_collective_plan(CollectiveOp op, CollectiveAlgorithm alg, unsigned cols, unsigned rows,
                                    uint64_t elements, unsigned root = 0);

/// The hierarchical all-to-all of `groups` groups of `group` ranks (rank r in group r div group,
/// at r mod group in it), S = `elements` per rank. Throws std::invalid_argument for fewer than two
/// ranks or more than 255 groups (its packets name the destination's group in 8 bits).
CollectivePlan hierarchical_all_to_all_plan(unsigned group, unsigned groups, uint64_t elements);

/// A Hamiltonian cycle of a cols x rows torus as a rank sequence: the first of the two
/// edge-disjoint cycles when the shape has them, else a boustrophedon ("snake") cycle, which
/// exists when rows or cols is even or one of them is 1. Throws std::invalid_argument otherwise.
std::vector<unsigned> torus_ring(unsigned cols, unsigned rows);

/// A collective's peak against the accelerators' injection bandwidth (bytes/s), into a results
/// job `j` (any JSON type with operator[]): an allreduce's algbw against half the injection (the
/// HammingMesh paper's Table II "share of the theoretical optimum"), any other operation's busbw
/// against the injection. One definition for the cycle model's report and the flow model, so that
/// their fraction_of_peak compare.
template <class Json>
void write_injection_peak(Json& j, CollectiveOp op, double algbw, double busbw, double injection) {
  if (op == CollectiveOp::AllReduce) {
    j["peak_algbw_GBps"] = injection / 2 / 1e9;
    j["fraction_of_peak"] = algbw / (injection / 2);
    j["peak_definition"] = "allreduce: half the injection bandwidth (HammingMesh paper, Table II)";
  } else {
    j["peak_busbw_GBps"] = injection / 1e9;
    j["fraction_of_peak"] = busbw / injection;
    j["peak_definition"] = "busbw / injection bandwidth";
  }
}

}  // namespace hx
