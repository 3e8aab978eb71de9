// plane_model_test.cpp: the board-plane registry, the model cache and VerilatedPlane without a
// SystemC run: variants know their lanes, a model not compiled in is built on first use, and a
// four-lane plane moves flits between FlitLinks on every
// lane (the adapter drives and samples all NumNodes * LocalPorts local ports, lane-major).
#include <gtest/gtest.h>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

// <systemc.h> before Verilator's headers (they need ::sc_time_stamp).
#include <systemc.h>

#include "Vhx_board_plane_4x4.h"
#include "Vhx_board_plane_4x4__Syms.h"  // as plane_registry.cpp: lower_clock sees the root class
#include "board_geometry.h"
#include "flit_link.h"
#include "model_cache.h"
#include "plane_registry.h"
#include "verilated.h"
#include "verilated_ports.h"

int sc_main(int, char*[]) { return 0; }  // libsystemc needs one; gtest_main runs the tests

namespace hx {
namespace {

TEST(PlaneRegistry, VariantsCarryTheirLanes) {
  const PlaneVariant* one = find_plane_variant(4, 4, 3, 8, 128);
  ASSERT_NE(one, nullptr) << "the default run's plane is compiled in";
  EXPECT_EQ(one->name, "4x4");
  EXPECT_EQ(one->local_ports, 1u);
  EXPECT_EQ(find_plane_variant(4, 4, 3, 8, 128, 1), one);
  EXPECT_EQ(plane_variant(4, 4, 3, 8, 128, 1).name, "4x4");
  EXPECT_EQ(plane_variant_source(*one), "built in");
  // Any other variant is named by the parameters that differ from the RTL's defaults.
  const PlaneVariant four = plane_variant(4, 4, 3, 8, 128, 4);
  EXPECT_EQ(four.name, "4x4l4");
  EXPECT_EQ(four.local_ports, 4u);
  EXPECT_EQ(four.num_vcs, 3u);
  EXPECT_EQ(plane_variant(8, 8, 4, 8, 128, 1).name, "8x8v4");
  const PlaneVariant odd = plane_variant(3, 5, 2, 16, 96, 2);
  EXPECT_EQ(odd.name, "3x5v2d16w96l2");
  EXPECT_EQ(odd.buf_depth, 16u);
  EXPECT_EQ(odd.payload_width, 96u);
  EXPECT_EQ(plane_variant(1, 7, 3, 8, 128, 1).name, "1x7");
  // What the RTL does not take: node coordinates of 4 bits, a 2-bit VC field, 1..4 lanes.
  EXPECT_THROW(plane_variant(17, 1, 3, 8, 128, 1), std::invalid_argument);
  EXPECT_THROW(plane_variant(4, 4, 5, 8, 128, 1), std::invalid_argument);
  EXPECT_THROW(plane_variant(4, 4, 3, 8, 128, 0), std::invalid_argument);
}

// The model cache on a small RTL top (the round-robin arbiter): built on first use into an empty
// cache, loaded into this process (its wrapper calls the Verilator runtime this executable
// carries), found again without a build, and built anew when a parameter changes the key.
TEST(ModelCache, BuildsOnFirstUseAndReusesByContent) {
  const std::string cache = ::testing::TempDir() + "hx_model_cache_test_" + std::to_string(::getpid());
  std::filesystem::remove_all(cache);
  const char* before = std::getenv("HXSIM_CACHE");
  const std::string saved = before != nullptr ? before : "";
  ASSERT_EQ(::setenv("HXSIM_CACHE", cache.c_str(), 1), 0);
  auto build = [](unsigned n) {
    VerilatedBuild b;
    b.what = "arbiter of " + std::to_string(n);
    b.group = "router";
    b.top = "hx_rr_arbiter";
    b.prefix = "Vhx_rr_arbiter_n" + std::to_string(n);
    b.params = {"-GN=" + std::to_string(n)};
    b.args = {"-Wno-UNUSEDPARAM"};  // hx_pkg's constants, unused by the arbiter alone
    b.factory = "hx_test_grant";
    // Requests from the top two requesters after reset: the arbiter grants the lower of them.
    b.wrapper = "#include \"" + b.prefix +
                ".h\"\n#include \"verilated.h\"\n"
                "extern \"C\" __attribute__((visibility(\"default\"))) int hx_test_grant() {\n"
                "  VerilatedContext ctx;\n  " +
                b.prefix +
                " m(&ctx);\n"
                "  m.rst_ni = 0; m.clk_i = 0; m.eval(); m.clk_i = 1; m.eval(); m.rst_ni = 1; m.clk_i = 0;\n"
                "  m.req_i = 3u << (" +
                std::to_string(n) +
                " - 2); m.advance_i = 0; m.eval();\n"
                "  return m.valid_o ? m.idx_o : -1;\n}\n";
    return b;
  };
  using Grant = int (*)();
  const VerilatedBuild four = build(4);
  EXPECT_FALSE(model_cached(four));
  const auto grant4 = reinterpret_cast<Grant>(load_cached_model(four));
  ASSERT_NE(grant4, nullptr);
  EXPECT_EQ(grant4(), 2);
  EXPECT_TRUE(model_cached(four));
  const auto built_at = std::filesystem::last_write_time(model_cache_entry(four) + "/model.so");
  EXPECT_EQ(reinterpret_cast<Grant>(load_cached_model(four)), grant4) << "loaded once per process";

  // A simulator header the wrapper includes is part of what the entry was built from: an edit to
  // it makes the entry stale (built again on the next load), and undoing the edit makes it fresh.
  const std::string include = cache + "/include";
  std::filesystem::create_directories(include);
  std::ofstream(include + "/tag.h") << "#define HX_TAG 1\n";
  VerilatedBuild tagged = build(4);
  tagged.include = {include};
  tagged.wrapper = "#include \"tag.h\"\n" + tagged.wrapper;
  ASSERT_NE(load_cached_model(tagged), nullptr);
  EXPECT_TRUE(model_cached(tagged));
  std::ofstream(include + "/tag.h") << "#define HX_TAG 2\n";
  EXPECT_FALSE(model_cached(tagged)) << "an included header changed";
  std::ofstream(include + "/tag.h") << "#define HX_TAG 1\n";
  EXPECT_TRUE(model_cached(tagged));
  std::ofstream(include + "/other.h") << "#define HX_OTHER 1\n";
  EXPECT_TRUE(model_cached(tagged)) << "a header the wrapper does not include";

  const VerilatedBuild six = build(6);
  EXPECT_NE(model_cache_entry(six), model_cache_entry(four)) << "a parameter is part of the key";
  EXPECT_FALSE(model_cached(six));
  EXPECT_EQ(reinterpret_cast<Grant>(load_cached_model(six))(), 4);
  EXPECT_EQ(std::filesystem::last_write_time(model_cache_entry(four) + "/model.so"), built_at) << "not rebuilt";
  if (before != nullptr)
    ::setenv("HXSIM_CACHE", saved.c_str(), 1);
  else
    ::unsetenv("HXSIM_CACHE");
  std::filesystem::remove_all(cache);
}

// Node 0 = (0,0) of a 2x2 plane with four lanes sends one single-flit packet on each lane, all in
// the same cycle, to node 3 = (1,1). The receiving accelerator never returns a credit, so after
// each ejection the lane just used has one credit fewer than the others: the four packets, which
// cross the E link in lane order (round robin from the lowest input), leave on four different
// lanes, packet k on lane k. Each injecting lane gets its own credit back.
// The board planes evaluate once per cycle (lower_clock, verilated_ports.h) only while the
// Verilator in use keeps its clock record under the name lower_clock clears; with another
// Verilator the planes fall back to two evaluations per cycle, correct but slower, and this test
// says so. The results are the same either way (the golden test).
TEST(VerilatedPlane, FallingClockEdgeNeedsNoEvaluation) {
  EXPECT_TRUE(kLowersClockUnevaluated<Vhx_board_plane_4x4>)
      << "this Verilator keeps no __Vtrigrprev__TOP__clk_i: lower_clock evaluates at every falling edge";
  // Waveform code exactly where the build says so (HX_MODEL_WAVEFORMS sets both).
  EXPECT_EQ(kHasFstTrace<Vhx_board_plane_4x4>, VM_TRACE_FST != 0) << "the built-in plane's waveform code";
}

TEST(VerilatedPlane, FourLanePlaneUsesEveryLane) {
  VerilatedContext ctx;
  const PlaneVariant v = plane_variant(2, 2, 3, 8, 128, 4);  // from the model cache
  std::unique_ptr<PlaneModel> plane = make_plane(v, &ctx, "plane");
  EXPECT_EQ(plane->num_local_ports(), 4u);
  EXPECT_EQ(plane->num_ports(), 4u * 4 + 8);
  EXPECT_EQ(plane->local_port(3, 2), 11u);
  EXPECT_EQ(plane->local_port(3), 3u);
  EXPECT_EQ(plane->geometry().edge_port(kPortN, 0, 1), 16u) << "edges follow all lanes";
  EXPECT_EQ(plane->geometry().local_port(1, 1, 2), plane->local_port(3, 2));

  std::vector<std::unique_ptr<FlitLink>> in, out;
  for (unsigned p = 0; p < 16; ++p) {
    in.push_back(std::make_unique<FlitLink>(("in" + std::to_string(p)).c_str(), 0));
    out.push_back(std::make_unique<FlitLink>(("out" + std::to_string(p)).c_str(), 0));
    plane->connect(p, in.back().get(), out.back().get());
  }
  PlaneStraps straps;
  straps.route_mode = RouteMode::Xy;
  plane->reset(straps, 4);

  const FlitFormat fmt;
  for (unsigned k = 0; k < 4; ++k) {
    Header h;
    h.dst_node_x = 1;
    h.dst_node_y = 1;
    Flit f;
    f.type = FlitType::Single;
    h.encode(fmt, f.payload);
    f.payload[1] = 0xa0 + k;  // above the header: which lane sent it
    in[plane->local_port(0, k)]->send(0, f);
  }
  std::vector<int> lane_of(4, -1);
  std::vector<unsigned> credits(4, 0);
  unsigned arrivals = 0;
  for (uint64_t t = 0; t < 40; ++t) {
    plane->drive(t);
    plane->edge(t);
    for (unsigned p = 0; p < 16; ++p) {
      if (const Flit* f = out[p]->receive(t)) {
        ++arrivals;
        ASSERT_EQ(p % 4, 3u) << "a flit for node 3 left at port " << p;
        const uint64_t k = f->payload[1] - 0xa0;
        ASSERT_LT(k, 4u);
        EXPECT_EQ(lane_of[k], -1) << "packet from lane " << k << " twice";
        lane_of[k] = static_cast<int>(p / 4);
      }
      if (in[p]->credit(t) >= 0) {
        ASSERT_EQ(p % 4, 0u) << "credit to a port that sent nothing";
        ++credits[p / 4];
      }
    }
  }
  EXPECT_EQ(arrivals, 4u);
  for (unsigned k = 0; k < 4; ++k) {
    EXPECT_EQ(lane_of[k], static_cast<int>(k)) << "packet from lane " << k;
    EXPECT_EQ(credits[k], 1u) << "credits to lane " << k;
  }
  EXPECT_EQ(plane->error_bits(), 0u);
  EXPECT_EQ(plane->stray_flits(), 0u);
}

// The RTL's ports take one flit per cycle: a plane refuses a link of any other rate, by name.
TEST(VerilatedPlane, RefusesLinksThatAreNotOneFlitPerCycle) {
  VerilatedContext ctx;
  const PlaneVariant* v = find_plane_variant(4, 4, 3, 8, 128, 1);  // the built-in plane
  ASSERT_NE(v, nullptr);
  std::unique_ptr<PlaneModel> plane = make_plane(*v, &ctx, "plane");
  FlitLink full("full", 0), fast("fast", 0, LinkRate::per_cycle(2)), slow("slow", 0, LinkRate::per_cycle(0.5));
  EXPECT_NO_THROW(plane->connect(0, &full, &full));
  EXPECT_THROW(plane->connect(1, &fast, &full), std::invalid_argument);
  try {
    plane->connect(2, &full, &slow);
    ADD_FAILURE() << "a rate-1/2 link was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("slow"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace hx
