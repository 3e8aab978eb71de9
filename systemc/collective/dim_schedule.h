// dim_schedule.h: hierarchical collectives on a multi-dimensional platform, and the order in
// which their chunks cross the dimensions: the baseline and Themis (Rashidi et al., ISCA 2022,
// sections 2.3 and 4). Plain C++; the analytical backend (`hxsim model`) times the schedule with
// an alpha-beta model of each dimension, and the cycle model runs the same schedule.
//
// The platform. Dimension K has P_K NPUs on one of three kinds of network, each with the
// topology-aware algorithm of the paper's Table 1 (recovered from section 2.3):
//   ring              ring algorithm, P - 1 steps
//   fully_connected   direct: every NPU sends to every peer at once, 1 step
//   switch            halving-doubling, log2 P steps (so P must be a power of two)
// An NPU has `links` links of `bandwidth` each in the dimension and uses them all, so the
// dimension's bandwidth per NPU is links x bandwidth (Table 2's "Aggr BW/NPU").
//
// A chunk of a reduce-scatter (RS) on dimension K holding s bytes per NPU sends s (P - 1) / P
// bytes per NPU and leaves s / P; an all-gather (AG) of s bytes sends s (P - 1) and leaves P s
// (section 2.3: "the size of each chunk in each stage [is] the size of the corresponding chunk
// data residing on each NPU before the stage begins"). Every algorithm of Table 1 moves that
// much; they differ in their steps. The time of a stage is
//   steps x step_latency + bytes sent / (links x bandwidth)
// The first term is the paper's fixed delay A_K (section 4.4), the second its beta x D term,
// which is all the Themis Latency Model predicts (section 4.4: "the Latency Model only considers
// beta x D as the latency of chunk #i on dimK").
//
// A collective of S bytes per NPU (NCCL's convention: an allreduce's and a reduce-scatter's input,
// an all-gather's output) is split into C chunks of S / C. An allreduce is RS on every dimension,
// then AG on every dimension; the only ordering rule is that a chunk finishes its RS stages
// before its AG stages (section 4.1, Observation 1).
//   baseline  every chunk: RS dim1 .. dimD, then AG dimD .. dim1 (an all-gather alone: AG dimD
//             .. dim1, the second half of the allreduce's order)
//   themis    Algorithm 1: the Dim Load Tracker starts at each dimension's fixed delay for the
//             collective; for each chunk, if max load - min load is below the threshold the chunk
//             takes the baseline order, else its RS stages go over the dimensions from the least
//             loaded to the most (an all-gather alone: most to least), and an allreduce's AG
//             stages reverse its RS order. The tracker then adds the Latency Model's time of
//             each of the chunk's stages.
//
// The threshold. Section 5.3 sets it to "the estimated runtime (predicted by the Latency Model)
// when running an RS/AG of size [lost in the text] on the dimension with the lowest current
// load". Read as one chunk (S / C, an all-gather's S / (C N)), it contradicts the paper's own example (Figs. 5 and 7:
// after the first chunk dim1 carries 2 units and dim2 1, one chunk on dim2 costs 2, so the second chunk would follow
// the baseline, where the figure sends it through dim2 first). Algorithm 1 takes the NPU count N among its inputs and
// nothing else in it needs N; a chunk's share of one NPU, S / (C N) (an all-gather's S / (C N^2)), reproduces the
// figure. Both readings are offered (ThemisThreshold); the default is the one that agrees with the paper's example, and
// docs/themis.md shows the difference.
//
// Within a dimension chunks wait in a queue, served FIFO (by the time they became ready) or
// smallest chunk first (SCF, section 4.3). SCF's "smallest" is the stage's bytes sent, its time
// on the dimension: section 4.3's reason for SCF is that "processing smaller chunks takes a
// shorter time", and an AG of s bytes sends as much as an RS of P s. (By the bytes held before
// the stage, the paper example's last chunk waits behind an AG four times its transfer time and
// Themis+SCF is no faster than the baseline there.) The order is fixed offline (section 4.6.2) by
// simulating the schedule: simulate_schedule() does that, and returns each dimension's order.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "collective_plan.h"

namespace hx {

enum class DimKind : uint8_t { Ring, FullyConnected, Switch };
enum class ChunkScheduler : uint8_t { Baseline, Themis };
enum class IntraDimOrder : uint8_t { Fifo, SmallestFirst };
enum class ThemisThreshold : uint8_t { ChunkPerNpu, Chunk };

std::string dim_kind_name(DimKind k);                  // "ring", "fully_connected", "switch"
std::string chunk_scheduler_name(ChunkScheduler s);    // "baseline", "themis"
std::string intra_dim_order_name(IntraDimOrder o);     // "fifo", "scf"
std::string themis_threshold_name(ThemisThreshold t);  // "chunk_per_npu", "chunk"

/// One dimension of a platform (Rashidi et al., Table 2).
struct Dimension {
  unsigned size = 2;  ///< NPUs that talk in it (P), 2..
  DimKind kind = DimKind::Ring;
  double link_bps = 0;   ///< one link's bandwidth, bit/s
  unsigned links = 1;    ///< links per NPU in this dimension
  double latency_s = 0;  ///< step latency: a minimum-size message between two NPUs
  /// The dimension's bandwidth per NPU, bytes/s: every link of the NPU.
  double bytes_per_s() const { return link_bps * links / 8; }
};

/// The algorithm of Table 1 for a dimension of kind k: "ring", "direct", "halving_doubling".
std::string dim_algorithm_name(DimKind k);
/// The algorithm's steps for one stage on `d` (Table 1): ring P - 1, direct 1, halving-doubling
/// log2 P.
unsigned stage_steps(const Dimension& d);

/// What an NPU can send over every dimension at once, bytes/s: the peak of a hierarchical
/// collective's busbw (every NPU sends S (N - 1) / N per RS or AG half, whatever the order).
double platform_bytes_per_s(const std::vector<Dimension>& dims);
/// The paper's average bandwidth utilisation: each dimension's busy fraction weighted by its
/// bandwidth.
double bandwidth_utilization(const std::vector<Dimension>& dims, const std::vector<double>& busy);
/// What the results' fraction_of_peak of a hierarchical collective is.
constexpr const char* kHierarchicalPeakDefinition =
    "busbw / the NPU's bandwidth summed over every dimension (links x link bandwidth)";
/// Bytes one NPU sends in an RS (or AG) stage on `d` that starts with `bytes_in` per NPU.
double stage_bytes_sent(const Dimension& d, StageKind op, double bytes_in);
/// Bytes per NPU after the stage: bytes_in / P (RS) or bytes_in x P (AG).
double stage_bytes_out(const Dimension& d, StageKind op, double bytes_in);
/// The Latency Model (beta x D): the stage's transfer time, seconds.
double stage_transfer_s(const Dimension& d, StageKind op, double bytes_in);
/// The fixed delay A_K of the stage: steps x step latency.
double stage_fixed_s(const Dimension& d);

/// One stage of one chunk: an RS or AG on a dimension, with the chunk's bytes per NPU before it.
struct ChunkStage {
  unsigned dim = 0;
  StageKind op = StageKind::ReduceScatter;
  double bytes_in = 0;
};

struct ScheduleRequest {
  std::vector<Dimension> dims;
  CollectiveOp op = CollectiveOp::AllReduce;  ///< allreduce, reduce_scatter or all_gather
  double message_bytes = 0;                   ///< S per NPU (see the header comment)
  unsigned chunks = 64;                       ///< C (section 5.3: 64)
  ChunkScheduler scheduler = ChunkScheduler::Themis;
  IntraDimOrder intra = IntraDimOrder::SmallestFirst;
  ThemisThreshold threshold = ThemisThreshold::ChunkPerNpu;
  unsigned npus() const;
};

/// Every chunk's stages, in the order it runs them.
struct ChunkSchedule {
  std::vector<std::vector<ChunkStage>> chunks;
  /// Themis: the chunks that took the baseline order because the load gap was below the threshold.
  unsigned fallbacks = 0;
};

/// The inter-dimension schedule of every chunk (Algorithm 1, or the baseline). Throws
/// std::invalid_argument for an op other than allreduce, reduce_scatter and all_gather, no
/// dimensions, or zero chunks.
ChunkSchedule schedule_chunks(const ScheduleRequest& r);

/// A stage as it ran: when it got its dimension's bandwidth, when its last byte left and when it
/// was done (the fixed delay after that).
struct StageRun {
  unsigned chunk = 0, stage = 0;
  double start_s = 0, sent_s = 0, end_s = 0;
};

struct ScheduleTimeline {
  double time_s = 0;                          ///< the collective's time: its last stage done
  std::vector<double> dim_busy_s;             ///< per dimension: time its bandwidth was in use
  std::vector<double> dim_bytes;              ///< per dimension: bytes one NPU sent in it
  std::vector<std::vector<StageRun>> by_dim;  ///< per dimension: its stages in the order it ran them
  /// Each dimension's time busy / the collective's time.
  double busy_fraction(unsigned d) const { return time_s > 0 ? dim_busy_s[d] / time_s : 0; }
};

/// Runs the schedule on the alpha-beta model of the dimensions. A dimension sends one stage's
/// bytes at a time, at its full bandwidth per NPU, in the queue's order (FIFO: the order stages
/// became ready, ties by chunk; SCF: the fewest bytes in first, ties FIFO); a stage is done its
/// fixed delay after its last byte, and its chunk's next stage is then ready. The fixed delays of
/// stages on one dimension overlap (the dimension runs several chunks at once when one cannot
/// fill it, section 4.3); its bandwidth does not.
ScheduleTimeline simulate_schedule(const ScheduleRequest& r, const ChunkSchedule& s);

/// A hierarchical all_to_all on a platform of two dimensions, x = dims[0].size, y = dims[1].size
/// (collective_plan.h: hierarchical_all_to_all_plan; Wang et al., Appendix D): a direct exchange
/// in dim1 of shards y D to each of its x - 1 peers, then one in dim2 of shards x D to each of
/// y - 1 peers, with D = S / (x y). Each phase takes its dimension's latency and its bytes at the
/// dimension's bandwidth, one after the other (Eq. 21 plus the two latencies):
///   T = latency1 + (x - 1) y D / B1 + latency2 + (y - 1) x D / B2
/// by_dim holds one stage per dimension. Throws std::invalid_argument unless there are two
/// dimensions.
ScheduleTimeline hierarchical_all_to_all_time(const ScheduleRequest& r);

/// The schedule as the cycle model's plan (collective_plan.h) for a collective of `elements` on
/// the platform's N NPUs (rank n = NPU n): chunk c is elements split_range(0..S, c, C); its
/// stages, in the schedule's order, are rings along their dimension (the NPUs that differ only
/// in that coordinate, in coordinate order), each on its dimension's lane (stage.lane = dim).
/// An RS splits what the ring holds by coordinate, an AG gathers it back, so every range stays
/// contiguous. With a ring dimension of more than two NPUs each chunk is two
/// flows, half its elements each: one sends forward round every ring, the other backward, so
/// both directions of a ring's links carry data, as the ring algorithm on a bidirectional ring
/// does (a ring of two has one neighbour both ways; dim_order spreads over all its links). A fully connected dimension
/// runs Table 1's direct algorithm (Stage::direct). A switch dimension runs the ring algorithm
/// through its switches (P - 1 steps where Table 1's halving-doubling takes log2 P; the bytes
/// are the same). A reduce_scatter leaves each rank a piece of every chunk, an all_gather starts
/// from those pieces: plan.pieces says which (not the blocks of the torus plans). Throws
/// std::invalid_argument for more flows or stages than the collective engine tags (256, 8).
/// The stages of a dimension take their turns on its lane in the order `order` ran them
/// (simulate_schedule: FIFO or SCF, the intra-dimension order fixed offline, section 4.6.2); a
/// stage whose turn has not come still sends when the lane is free (the order is a priority,
/// not a gate).
CollectivePlan hierarchical_plan(const ScheduleRequest& r, const ChunkSchedule& s, const ScheduleTimeline& order,
                                 uint64_t elements);

}  // namespace hx
