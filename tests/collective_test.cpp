// collective_test.cpp: collectives end to end on HammingMeshes of RTL boards, through hxsim.
//
// Every run dumps every rank's output buffer (--dump-buffers), and the test compares each
// element with a reference it computes itself from the input formula (rank r's input element i
// is ((7 r + i) mod 31) - 15, collective_engine.h), by the operation's definition:
//   allreduce       out_r[i] = sum over ranks q of in_q[i]
//   reduce_scatter  out_r[k] = sum over q of in_q[block(r).begin + k]
//   all_gather      out_r[i] = in_owner(i)[i], owner(i) = the rank whose block holds i
//   broadcast       out_r[i] = in_root[i]
//   all_to_all      out_r[q * |block(r)| + k] = in_q[block(r).begin + k]
// Blocks split the S elements into p consecutive parts whose sizes differ by at most one, the
// first ones larger. The simulator's own check must agree (checks.passed), and a corrupted flit
// must be caught by both the packet check and the data check.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "cli_support.h"
#include "nlohmann/json.hpp"

namespace {

namespace fs = std::filesystem;
using nlohmann::json;

fs::path scratch() { return hx::test::scratch_dir("collective_test"); }
std::string config(const std::string& name) { return std::string(HX_CONFIG_DIR) + "/" + name; }

int64_t input(uint64_t rank, uint64_t i) { return static_cast<int64_t>((7 * rank + i) % 31) - 15; }

struct Block {
  uint64_t begin, size;
};
Block block(uint64_t elements, uint64_t p, uint64_t r) {
  const uint64_t base = elements / p, extra = elements % p;
  return {r * base + std::min(r, extra), base + (r < extra ? 1 : 0)};
}

using Buffers = std::vector<std::vector<uint32_t>>;  // [rank][element] as stored bits

Buffers read_dump(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  char magic[8];
  in.read(magic, 8);
  EXPECT_EQ(std::string(magic, 8), "HXCOLL01");
  uint32_t ranks = 0;
  in.read(reinterpret_cast<char*>(&ranks), sizeof ranks);
  Buffers b(ranks);
  for (auto& out : b) {
    uint64_t n = 0;
    in.read(reinterpret_cast<char*>(&n), sizeof n);
    out.resize(n);
    in.read(reinterpret_cast<char*>(out.data()), static_cast<std::streamsize>(n * sizeof(uint32_t)));
  }
  EXPECT_TRUE(in) << "truncated dump " << path;
  return b;
}

double value(uint32_t bits, bool int32) {
  if (int32) return static_cast<int32_t>(bits);
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

struct Case {
  const char* op;
  const char* algorithm;
  uint64_t bytes;
  const char* datatype;
  unsigned root;
};

void PrintTo(const Case& c, std::ostream* os) {
  *os << c.op << " by " << c.algorithm << ", " << c.bytes << " B " << c.datatype << ", root " << c.root;
}

// The reference value of output element `k` of rank r, from the operation's definition.
int64_t reference(const Case& c, uint64_t p, uint64_t r, uint64_t k) {
  const uint64_t s = c.bytes / 4;
  const std::string op = c.op;
  if (op == "allreduce" || op == "reduce_scatter") {
    const uint64_t i = op == "allreduce" ? k : block(s, p, r).begin + k;
    int64_t sum = 0;
    for (uint64_t q = 0; q < p; ++q) sum += input(q, i);
    return sum;
  }
  if (op == "all_gather") {
    for (uint64_t q = 0; q < p; ++q) {
      const Block b = block(s, p, q);
      if (k >= b.begin && k < b.begin + b.size) return input(q, k);
    }
    ADD_FAILURE() << "element " << k << " in no block";
    return 0;
  }
  if (op == "broadcast") return input(c.root, k);
  const Block mine = block(s, p, r);  // all_to_all
  return input(k / mine.size, mine.begin + k % mine.size);
}

uint64_t output_size(const Case& c, uint64_t p, uint64_t r) {
  const std::string op = c.op;
  if (op == "reduce_scatter") return block(c.bytes / 4, p, r).size;
  if (op == "all_to_all") return block(c.bytes / 4, p, r).size * p;
  return c.bytes / 4;
}

json run_case(const Case& c, const std::string& cfg, const std::string& extra, const fs::path& dump) {
  const fs::path out = dump.parent_path() / "r.json";
  const std::string args =
      "run " + config(cfg) + " --quiet --out " + out.string() + " --dump-buffers " + dump.string() +
      " --set collective.operation=" + c.op + " --set collective.algorithm=" + c.algorithm +
      " --set 'collective.message=" + std::to_string(c.bytes) + " B' --set collective.datatype=" + c.datatype +
      " --set collective.root=" + std::to_string(c.root) + " " + extra;
  const hx::test::CliResult r = hx::test::hxsim(args);
  EXPECT_EQ(r.exit_code, 0) << args << "\n" << r.output;
  std::ifstream in(out);
  return in ? json::parse(in) : json::object();
}

// ---- every operation and algorithm on the 64-accelerator Hx2Mesh: exact results -----------

class CollectiveData : public ::testing::TestWithParam<Case> {};

TEST_P(CollectiveData, EveryRankHoldsTheReferenceResult) {
  const Case c = GetParam();
  const fs::path dump = scratch() / "buffers.bin";
  const json j = run_case(c, "hx2mesh_4x4_allreduce.yaml", "", dump);
  ASSERT_TRUE(j.contains("checks"));
  EXPECT_TRUE(j["checks"]["passed"].get<bool>()) << j["check_details"]["report"].get<std::string>();
  EXPECT_EQ(j["check_details"]["collective_wrong_elements"], 0);
  const json& job = j["collective"]["jobs"][0];
  EXPECT_TRUE(job["complete"].get<bool>());
  EXPECT_GT(job["time_cycles"].get<uint64_t>(), 0u);

  const Buffers b = read_dump(dump);
  const uint64_t p = 64;
  ASSERT_EQ(b.size(), p);
  const bool int32 = std::string(c.datatype) == "int32";
  uint64_t wrong = 0;
  for (uint64_t r = 0; r < p; ++r) {
    ASSERT_EQ(b[r].size(), output_size(c, p, r)) << "rank " << r;
    for (uint64_t k = 0; k < b[r].size(); ++k) {
      const double want = static_cast<double>(reference(c, p, r, k));
      if (value(b[r][k], int32) != want && ++wrong <= 5)
        ADD_FAILURE() << "rank " << r << " element " << k << ": " << value(b[r][k], int32) << ", expected " << want;
    }
  }
  EXPECT_EQ(wrong, 0u);
}

// Sizes that split unevenly (S / p / flows is not whole, and not whole segments) as well as
// sizes of many segments per chunk.
INSTANTIATE_TEST_SUITE_P(
    Hx2Mesh4x4, CollectiveData,
    ::testing::Values(
        Case{"allreduce", "ring", 12300, "fp32", 0}, Case{"allreduce", "bidirectional_ring", 12300, "fp32", 0},
        Case{"allreduce", "hamiltonian", 12300, "fp32", 0}, Case{"allreduce", "torus2d", 12300, "fp32", 0},
        Case{"allreduce", "hamiltonian", 262144, "int32", 0}, Case{"allreduce", "torus2d", 200000, "int32", 0},
        Case{"allreduce", "ring", 40, "fp32", 0}, Case{"reduce_scatter", "hamiltonian", 40964, "fp32", 0},
        Case{"reduce_scatter", "ring", 12300, "int32", 0}, Case{"all_gather", "hamiltonian", 40964, "fp32", 0},
        Case{"all_gather", "bidirectional_ring", 12300, "fp32", 0}, Case{"broadcast", "hamiltonian", 70000, "fp32", 37},
        Case{"broadcast", "ring", 12300, "int32", 5}, Case{"all_to_all", "direct", 65540, "fp32", 0}),
    [](const ::testing::TestParamInfo<Case>& info) {
      return std::string(info.param.op) + "_" + info.param.algorithm + "_" + std::to_string(info.param.bytes) + "B_" +
             info.param.datatype;
    });

// ---- the Hx4Mesh (4x4 boards) too ------------------------------------------------------------

// On the RTL routers and on C++ switches as the board routers (router.model switch).
TEST(CollectiveSystems, Hx4MeshAllreduceByEveryAlgorithm) {
  for (const char* model : {"rtl", "switch"}) {
    for (const char* alg : {"ring", "bidirectional_ring", "hamiltonian", "torus2d"}) {
      const std::string what = std::string(alg) + " on " + model + " routers";
      const fs::path dump = scratch() / (std::string(alg) + ".bin");
      const Case c{"allreduce", alg, 32768, "fp32", 0};
      const json j = run_case(c, "hx4mesh_2x2_allreduce.yaml", std::string("--set router.model=") + model, dump);
      ASSERT_TRUE(j.contains("checks")) << what;
      EXPECT_TRUE(j["checks"]["passed"].get<bool>()) << what << ": " << j["check_details"]["report"].get<std::string>();
      EXPECT_EQ(j["check_details"]["collective_wrong_elements"], 0) << what;
      const Buffers b = read_dump(dump);
      ASSERT_EQ(b.size(), 64u);
      for (uint64_t r = 0; r < 64; r += 9)
        for (uint64_t k = 0; k < b[r].size(); k += 97)
          ASSERT_EQ(value(b[r][k], false), reference(c, 64, r, k)) << what << " rank " << r << " element " << k;
    }
  }
}

// ---- faults: a flipped bit in a data flit is caught twice ------------------------------------

TEST(CollectiveChecks, CorruptedDataFlitFailsTheRun) {
  const fs::path d = scratch();
  const fs::path out = d / "r.json";
  // Accelerator 9's 40th arriving flit gets its top payload bit flipped: the sign of a data
  // element of a body flit (or, rarely, a head's tag bits).
  const hx::test::CliResult r =
      hx::test::hxsim("run " + config("hx2mesh_4x4_allreduce.yaml") +
                      " --quiet --set 'collective.message=64 KiB' --inject-fault corrupt:9:40 --out " + out.string());
  EXPECT_NE(r.exit_code, 0) << r.output;
  std::ifstream in(out);
  ASSERT_TRUE(in);
  const json j = json::parse(in);
  EXPECT_FALSE(j["checks"]["passed"].get<bool>());
  EXPECT_GE(j["checks"]["corrupted"].get<uint64_t>(), 1u);
  // The flipped element propagates through the reduction to other ranks' results.
  EXPECT_GE(j["check_details"]["collective_wrong_elements"].get<uint64_t>(), 1u);
}

TEST(CollectiveChecks, DroppedFlitIsReportedNotHung) {
  const fs::path d = scratch();
  const fs::path out = d / "r.json";
  const hx::test::CliResult r =
      hx::test::hxsim("run " + config("hx2mesh_4x4_allreduce.yaml") +
                      " --quiet --set 'collective.message=64 KiB' --inject-fault drop:3:10 --out " + out.string());
  EXPECT_NE(r.exit_code, 0) << r.output;
  std::ifstream in(out);
  ASSERT_TRUE(in);
  const json j = json::parse(in);
  // The packet that lost a flit is reported (lost or corrupted), and its data is missing or
  // wrong at its destination.
  EXPECT_FALSE(j["checks"]["passed"].get<bool>());
  EXPECT_GE(j["checks"]["lost"].get<uint64_t>() + j["checks"]["corrupted"].get<uint64_t>(), 1u);
}

// ---- concurrent jobs --------------------------------------------------------------------------

// Two jobs placed by the allocator on one HammingMesh run at once; each must finish within 3% of
// the time it takes alone (the same placement, the other job idle), and no packet may enter a
// board of the other job.
TEST(CollectiveJobs, ConcurrentJobsRunAsFastAsAloneOnTheirOwnBoards) {
  const fs::path d = scratch();
  const auto run = [&](const std::string& only) {
    const fs::path out = d / ("r_" + only + ".json");
    const hx::test::CliResult r = hx::test::hxsim(
        "run " + config("hx2mesh_4x4_two_jobs.yaml") +
        " --quiet --set 'collective.message=256 KiB' --set collective.only_job=" + only + " --out " + out.string());
    EXPECT_EQ(r.exit_code, 0) << r.output;
    std::ifstream in(out);
    return in ? json::parse(in) : json::object();
  };
  const json both = run("all");
  ASSERT_TRUE(both.contains("collective"));
  EXPECT_TRUE(both["checks"]["passed"].get<bool>()) << both["check_details"]["report"].get<std::string>();
  EXPECT_EQ(both["check_details"]["foreign_board_entries"], 0);
  const json& jobs = both["collective"]["jobs"];
  ASSERT_EQ(jobs.size(), 2u);
  EXPECT_NE(jobs[0]["placement"], jobs[1]["placement"]);
  for (unsigned k = 0; k < 2; ++k) {
    const json alone = run(std::to_string(k));
    ASSERT_TRUE(alone.contains("collective"));
    EXPECT_TRUE(alone["checks"]["passed"].get<bool>());
    const json& solo = alone["collective"]["jobs"][0];
    EXPECT_EQ(solo["placement"], jobs[k]["placement"]);
    const double together = jobs[k]["algbw_GBps"].get<double>(), by_itself = solo["algbw_GBps"].get<double>();
    EXPECT_GT(together, 0.97 * by_itself)
        << "job " << k << ": " << together << " GB/s with the other, " << by_itself << " alone";
  }
}

// ---- bandwidth definitions -------------------------------------------------------------------

TEST(CollectiveResults, AlgbwBusbwAndPeakFollowTheirDefinitions) {
  const fs::path dump = scratch() / "b.bin";
  const Case c{"allreduce", "ring", 1 << 18, "fp32", 0};
  const json j = run_case(c, "hx2mesh_4x4_allreduce.yaml", "", dump);
  const json& job = j["collective"]["jobs"][0];
  const double t = job["time_cycles"].get<double>() * 1e-9;  // 1 GHz
  const double algbw = (1 << 18) / t / 1e9;
  EXPECT_NEAR(job["algbw_GBps"].get<double>(), algbw, 1e-9 * algbw);
  EXPECT_NEAR(job["busbw_GBps"].get<double>(), algbw * 2 * 63 / 64, 1e-9 * algbw);
  const double injection = j["collective"]["injection_GBps"].get<double>();
  EXPECT_NEAR(job["fraction_of_peak"].get<double>(), algbw / (injection / 2), 1e-9);
}

}  // namespace
