// The chunk schedules of hierarchical collectives (collective/dim_schedule.h): the baseline, Themis
// (Rashidi et al., ISCA 2022, Algorithm 1) with its paper example, and the alpha-beta timeline.
#include "dim_schedule.h"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

namespace hx {
namespace {

constexpr double kMB = 1 << 20;

Dimension dim(unsigned size, DimKind kind, double gbps, unsigned links, double latency_ns) {
  Dimension d;
  d.size = size;
  d.kind = kind;
  d.link_bps = gbps * 1e9;
  d.links = links;
  d.latency_s = latency_ns * 1e-9;
  return d;
}

std::vector<unsigned> dims_of(const std::vector<ChunkStage>& stages) {
  std::vector<unsigned> v;
  for (const ChunkStage& s : stages) v.push_back(s.dim);
  return v;
}

// Figs. 5 and 7: a 256 MB allreduce in 4 chunks on two dimensions of 4 NPUs, dim2 at half dim1's
// bandwidth, no fixed delay.
ScheduleRequest paper_example(ChunkScheduler s) {
  ScheduleRequest r;
  r.dims = {dim(4, DimKind::Ring, 400, 2, 0), dim(4, DimKind::Ring, 200, 2, 0)};
  r.op = CollectiveOp::AllReduce;
  r.message_bytes = 256 * kMB;
  r.chunks = 4;
  r.scheduler = s;
  r.intra = IntraDimOrder::Fifo;
  return r;
}

TEST(DimSchedule, StepsAndBytesFollowTableOne) {
  const Dimension ring = dim(8, DimKind::Ring, 100, 2, 10), fc = dim(8, DimKind::FullyConnected, 100, 7, 10),
                  sw = dim(16, DimKind::Switch, 100, 4, 10);
  EXPECT_EQ(stage_steps(ring), 7u);
  EXPECT_EQ(stage_steps(fc), 1u);
  EXPECT_EQ(stage_steps(sw), 4u);
  EXPECT_DOUBLE_EQ(stage_bytes_sent(ring, StageKind::ReduceScatter, 800), 700);
  EXPECT_DOUBLE_EQ(stage_bytes_out(ring, StageKind::ReduceScatter, 800), 100);
  EXPECT_DOUBLE_EQ(stage_bytes_sent(ring, StageKind::AllGather, 100), 700);
  EXPECT_DOUBLE_EQ(stage_bytes_out(ring, StageKind::AllGather, 100), 800);
  // 7 links of 100 Gb/s: 87.5 GB/s per NPU.
  EXPECT_DOUBLE_EQ(stage_transfer_s(fc, StageKind::ReduceScatter, 8e9), 7e9 / 87.5e9);
  EXPECT_DOUBLE_EQ(stage_fixed_s(sw), 40e-9);
}

TEST(DimSchedule, BaselineRunsEveryChunkDim1ToDimDAndBack) {
  ScheduleRequest r = paper_example(ChunkScheduler::Baseline);
  const ChunkSchedule s = schedule_chunks(r);
  ASSERT_EQ(s.chunks.size(), 4u);
  for (const auto& c : s.chunks) {
    EXPECT_EQ(dims_of(c), (std::vector<unsigned>{0, 1, 1, 0}));
    EXPECT_EQ(c[0].op, StageKind::ReduceScatter);
    EXPECT_EQ(c[2].op, StageKind::AllGather);
    EXPECT_DOUBLE_EQ(c[0].bytes_in, 64 * kMB);
    EXPECT_DOUBLE_EQ(c[1].bytes_in, 16 * kMB);
    EXPECT_DOUBLE_EQ(c[2].bytes_in, 4 * kMB);
    EXPECT_DOUBLE_EQ(c[3].bytes_in, 16 * kMB);
  }
  r.op = CollectiveOp::AllGather;
  for (const auto& c : schedule_chunks(r).chunks) {
    EXPECT_EQ(dims_of(c), (std::vector<unsigned>{1, 0}));
    EXPECT_DOUBLE_EQ(c[0].bytes_in, 64 * kMB / 16);  // an all-gather's chunk starts at 1/N
  }
}

// Fig. 7(b): the first chunk takes the baseline order (the loads are equal), the second goes
// through dim2 first to fill its gap, the last two start on dim1 again.
TEST(DimSchedule, ThemisReproducesThePapersExample) {
  const ChunkSchedule s = schedule_chunks(paper_example(ChunkScheduler::Themis));
  EXPECT_EQ(dims_of(s.chunks[0]), (std::vector<unsigned>{0, 1, 1, 0}));
  EXPECT_EQ(dims_of(s.chunks[1]), (std::vector<unsigned>{1, 0, 0, 1}));
  EXPECT_EQ(dims_of(s.chunks[2]), (std::vector<unsigned>{0, 1, 1, 0}));
  EXPECT_EQ(dims_of(s.chunks[3]), (std::vector<unsigned>{0, 1, 1, 0}));
  EXPECT_EQ(s.fallbacks, 1u);  // only the first chunk
  // Fig. 5: Themis finishes sooner. In units of a 64 MB RS on dim1, the baseline's dim1 carries
  // 8 and Themis's most loaded dimension 7; with SCF the collective ends when dim2 is done.
  const ScheduleRequest base = paper_example(ChunkScheduler::Baseline);
  ScheduleRequest themis = paper_example(ChunkScheduler::Themis);
  themis.intra = IntraDimOrder::SmallestFirst;
  const double unit = stage_transfer_s(base.dims[0], StageKind::ReduceScatter, 64 * kMB);
  const ScheduleTimeline tb = simulate_schedule(base, schedule_chunks(base));
  const ScheduleTimeline tt = simulate_schedule(themis, schedule_chunks(themis));
  EXPECT_NEAR(tb.dim_busy_s[0] / unit, 8, 1e-9);
  EXPECT_NEAR(tt.dim_busy_s[1] / unit, 7, 1e-9);
  EXPECT_NEAR(tb.time_s / unit, 8, 1e-9);
  EXPECT_NEAR(tt.time_s / unit, 7, 1e-9);
}

// The other reading of the threshold (one whole chunk) keeps the second chunk on the baseline
// order: the gap after the first chunk (1 unit) is below one chunk's RS on dim2 (2 units).
TEST(DimSchedule, AWholeChunkThresholdContradictsTheExample) {
  ScheduleRequest r = paper_example(ChunkScheduler::Themis);
  r.threshold = ThemisThreshold::Chunk;
  const ChunkSchedule s = schedule_chunks(r);
  EXPECT_EQ(dims_of(s.chunks[1]), (std::vector<unsigned>{0, 1, 1, 0}));
  EXPECT_GE(s.fallbacks, 2u);
}

TEST(DimSchedule, ThemisAllGatherStartsOnTheMostLoadedDimension) {
  ScheduleRequest r = paper_example(ChunkScheduler::Themis);
  r.op = CollectiveOp::AllGather;
  r.dims[0].latency_s = 1e-3;  // dim1 starts more loaded: its fixed delay (3 ms) is larger
  const ChunkSchedule s = schedule_chunks(r);
  EXPECT_EQ(s.chunks[0][0].dim, 0u);
}

TEST(DimSchedule, TimelineOfOneChunkIsTheSumOfItsStages) {
  ScheduleRequest r;
  r.dims = {dim(4, DimKind::Ring, 100, 2, 500), dim(8, DimKind::Switch, 100, 1, 1000)};
  r.message_bytes = 8 * kMB;
  r.chunks = 1;
  r.scheduler = ChunkScheduler::Baseline;
  const ChunkSchedule s = schedule_chunks(r);
  double expected = 0;
  for (const ChunkStage& st : s.chunks[0])
    expected += stage_transfer_s(r.dims[st.dim], st.op, st.bytes_in) + stage_fixed_s(r.dims[st.dim]);
  const ScheduleTimeline tl = simulate_schedule(r, s);
  EXPECT_NEAR(tl.time_s, expected, 1e-15);
  // Every NPU sends 2 S (N - 1) / N over all dimensions, whatever the order.
  EXPECT_NEAR(tl.dim_bytes[0] + tl.dim_bytes[1], 2 * 8 * kMB * 31 / 32, 1e-3);
}

TEST(DimSchedule, BytesPerNpuDoNotDependOnTheOrder) {
  ScheduleRequest r;
  r.dims = {dim(4, DimKind::Ring, 1000, 2, 20), dim(8, DimKind::FullyConnected, 200, 7, 700),
            dim(4, DimKind::Ring, 200, 6, 700), dim(8, DimKind::Switch, 800, 1, 1700)};
  r.message_bytes = 512 * kMB;
  for (ChunkScheduler sched : {ChunkScheduler::Baseline, ChunkScheduler::Themis}) {
    r.scheduler = sched;
    const ScheduleTimeline tl = simulate_schedule(r, schedule_chunks(r));
    double total = 0;
    for (double b : tl.dim_bytes) total += b;
    EXPECT_NEAR(total / (2 * 512 * kMB * 1023 / 1024), 1, 1e-12);
  }
}

// Intra-dimension order on the paper example under Themis: at 2 units (a unit is a 64 MB RS on
// dim1) dim1 frees, with chunk 3's 64 MB RS (48 MB to send) waiting since 0 and, ready just then,
// chunk 1's RS of 16 MB (12 MB to send). FIFO serves chunk 3, SCF chunk 1.
TEST(DimSchedule, SmallestChunkFirstOvertakesAnOlderLargerChunk) {
  ScheduleRequest r = paper_example(ChunkScheduler::Themis);
  const double unit = stage_transfer_s(r.dims[0], StageKind::ReduceScatter, 64 * kMB);
  for (IntraDimOrder order : {IntraDimOrder::Fifo, IntraDimOrder::SmallestFirst}) {
    r.intra = order;
    const ScheduleTimeline tl = simulate_schedule(r, schedule_chunks(r));
    ASSERT_GE(tl.by_dim[0].size(), 3u);
    const StageRun& third = tl.by_dim[0][2];
    EXPECT_NEAR(third.start_s / unit, 2, 1e-9);
    EXPECT_EQ(third.chunk, order == IntraDimOrder::Fifo ? 3u : 1u) << intra_dim_order_name(order);
    std::size_t n = 0;
    for (const auto& runs : tl.by_dim) n += runs.size();
    EXPECT_EQ(n, 16u);
  }
}

TEST(DimSchedule, RefusesWhatItCannotSchedule) {
  ScheduleRequest r = paper_example(ChunkScheduler::Themis);
  r.chunks = 0;
  EXPECT_THROW(schedule_chunks(r), std::invalid_argument);
  r.chunks = 4;
  r.op = CollectiveOp::AllToAll;
  EXPECT_THROW(schedule_chunks(r), std::invalid_argument);
  r.op = CollectiveOp::AllReduce;
  r.dims.clear();
  EXPECT_THROW(schedule_chunks(r), std::invalid_argument);
}

// Appendix D's hierarchical all-to-all on x = 4 HB GPUs and y = 2 domains, 8 MiB per GPU: shards of
// D = 1 MiB; phase 1 sends (x - 1) y D = 6 MiB at 16 GB/s, phase 2 (y - 1) x D = 4 MiB at 2 GB/s,
// each after its latency (Eq. 21 plus 100 ns and 500 ns).
TEST(HierarchicalAllToAll, TwoPhasesOfEq21EachWithItsLatency) {
  ScheduleRequest r;
  r.op = CollectiveOp::AllToAll;
  r.message_bytes = 8 * kMB;
  r.dims = {dim(4, DimKind::Switch, 32, 4, 100), dim(2, DimKind::Switch, 16, 1, 500)};
  const ScheduleTimeline tl = hierarchical_all_to_all_time(r);
  const double p1 = 6 * kMB / 16e9, p2 = 4 * kMB / 2e9;
  EXPECT_DOUBLE_EQ(tl.dim_bytes[0], 6 * kMB);
  EXPECT_DOUBLE_EQ(tl.dim_bytes[1], 4 * kMB);
  EXPECT_NEAR(tl.time_s, 100e-9 + p1 + 500e-9 + p2, 1e-15);
  EXPECT_NEAR(tl.busy_fraction(1), p2 / tl.time_s, 1e-12);
  EXPECT_NEAR(tl.by_dim[1][0].start_s, 100e-9 + p1, 1e-15);
  r.dims.pop_back();
  EXPECT_THROW(hierarchical_all_to_all_time(r), std::invalid_argument);
}

}  // namespace
}  // namespace hx
