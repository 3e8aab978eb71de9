#include "sim_config.h"
#include "faults.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <regex>
#include <tuple>

#include "board_mesh.h"
#include "fabric_topology.h"
#include "link_rate.h"

namespace hx {

namespace {

// ---- enumerations: one table each, used for reading, naming and documentation ----------------

template <class E>
using Options = std::vector<std::pair<std::string, E>>;

// topology.kind: the registered builders (topology/registry.cpp).
const Options<std::string> kTopologyKinds = [] {
  Options<std::string> o;
  for (const FabricTopology* t : fabric_topologies()) o.emplace_back(t->kind(), t->kind());
  return o;
}();
const Options<TreeSpan> kTreeSpans = {{"line", TreeSpan::Line}, {"board", TreeSpan::Board}};
// topology.tree.spines: per_up_port is true (tree_shape).
const Options<bool> kTreeSpines = {{"fewest", false}, {"per_up_port", true}};
// rounds.relay: how A_1 relays (model/clex_rounds.h): true for request/acknowledge.
const Options<bool> kRelayModes = {{"request", true}, {"direct", false}};
const char* const kClexCapacityExpected =
    "plain (level-l link = k x clique link), hop_weighted (section III-A), or a list of one link bandwidth per "
    "level, level 1 first";
// routing.algorithm of a board or a HammingMesh: the board routing functions (routing/board_mesh.h).
const Options<RouteMode> kRouteModes = [] {
  Options<RouteMode> o;
  for (const BoardRouting& r : board_routings()) o.emplace_back(r.name, r.mode);
  return o;
}();
const Options<VcPolicy> kVcPolicies = {{"any", VcPolicy::Any}, {"keep", VcPolicy::Keep}};
// router.model: switch is true (SimConfig::Router::switch_model).
const Options<bool> kRouterModels = {{"rtl", false}, {"switch", true}};
const Options<CollectiveOp> kCollectiveOps = {{"allreduce", CollectiveOp::AllReduce},
                                              {"reduce_scatter", CollectiveOp::ReduceScatter},
                                              {"all_gather", CollectiveOp::AllGather},
                                              {"broadcast", CollectiveOp::Broadcast},
                                              {"all_to_all", CollectiveOp::AllToAll}};
const Options<CollectiveAlgorithm> kCollectiveAlgorithms = {
    {"ring", CollectiveAlgorithm::Ring},
    {"bidirectional_ring", CollectiveAlgorithm::BidirectionalRing},
    {"hamiltonian", CollectiveAlgorithm::Hamiltonian},
    {"torus2d", CollectiveAlgorithm::Torus2D},
    {"direct", CollectiveAlgorithm::Direct},
    {"hierarchical", CollectiveAlgorithm::Hierarchical}};
const Options<ChunkScheduler> kChunkSchedulers = {{"baseline", ChunkScheduler::Baseline},
                                                  {"themis", ChunkScheduler::Themis}};
const Options<IntraDimOrder> kIntraDimOrders = {{"fifo", IntraDimOrder::Fifo}, {"scf", IntraDimOrder::SmallestFirst}};
const Options<ThemisThreshold> kThemisThresholds = {{"chunk_per_npu", ThemisThreshold::ChunkPerNpu},
                                                    {"chunk", ThemisThreshold::Chunk}};
const Options<DimKind> kDimKinds = {
    {"ring", DimKind::Ring}, {"fully_connected", DimKind::FullyConnected}, {"switch", DimKind::Switch}};
const Options<bool> kDataTypes = {{"fp32", false}, {"int32", true}};
const Options<Pattern> kPatterns = {{"uniform", Pattern::Uniform},          {"permutation", Pattern::Permutation},
                                    {"transpose", Pattern::Transpose},      {"bit_complement", Pattern::BitComplement},
                                    {"bit_reversal", Pattern::BitReversal}, {"tornado", Pattern::Tornado},
                                    {"neighbor", Pattern::Neighbor},        {"hotspot", Pattern::Hotspot},
                                    {"alltoall", Pattern::AllToAll}};

template <class E>
std::string name_in(const Options<E>& options, E value) {
  for (const auto& o : options)
    if (o.second == value) return o.first;
  return "?";
}

template <class E>
std::string one_of(const Options<E>& options) {
  std::string s = "one of ";
  for (size_t i = 0; i < options.size(); ++i) s += (i ? ", " : "") + options[i].first;
  return s;
}

// ---- limits -------------------------------------------------------------------------------------

constexpr unsigned kMaxBoardSide = 16;
// Board coordinates travel in 8-bit header fields (hx_pkg BoardCoordWidth).
constexpr unsigned kMaxGlobalSide = 256;
constexpr double kMaxClockHz = 10e9;
constexpr unsigned kMinFlitBits = 80;
constexpr unsigned kMaxFlitBits = 128;
// Cycle counts stay exact in a double (and in JSON numbers) up to 2^53.
constexpr double kMaxCycles = 9007199254740992.0;
// Two physical rates are "equal" within this relative tolerance: decimal units are not exact
// in binary floating point (12.8 Gb/s is not exactly 12.8e9).
constexpr double kRelTolerance = 1e-9;

bool nearly_equal(double a, double b) {
  return std::fabs(a - b) <= kRelTolerance * std::max(std::fabs(a), std::fabs(b));
}

// ---- the schema -----------------------------------------------------------------------------------

// Values as the config states them (a rate as a bandwidth, a duration as a time), kept for the
// derivation lines; SimConfig holds only what the model uses.
struct Given {
  bool rate_is_bandwidth = false;
  double rate_bps = 0;
  Duration latency, global_latency, switch_latency, warmup, measure, drain, watchdog, timeout;
};

const char* const kRateExpected =
    "a number in [0, 4] in flits per node per cycle (at most router.local_ports: one flit per local lane), or a "
    "bandwidth per node such as '12.8 Gb/s'";
// An accelerator has at most 4 local lanes (router.local_ports), each one flit per cycle.
constexpr double kMaxInjectionRate = 4;
const char* const kFlitWidthExpected = "a data size of 80..128 whole bits, such as '128 bit'";

// What the traffic runs on, in the builder's words.
std::string system_text(const SimConfig& c) { return fabric_topology(c.topology.kind).describe(c); }

// "a x b" as a string or [a, b] as a list, each side in 1..max.
std::pair<unsigned, unsigned> read_size(const Field& f, const char* expected, unsigned max) {
  unsigned x = 0, y = 0;
  if (f.is_list()) {
    const std::vector<Field> sides = f.elements(expected);
    if (sides.size() != 2) f.fail_found(expected, "a list of " + std::to_string(sides.size()) + " elements");
    x = static_cast<unsigned>(sides[0].integer(1, max));
    y = static_cast<unsigned>(sides[1].integer(1, max));
  } else {
    static const std::regex re(R"(^\s*([0-9]{1,6})\s*x\s*([0-9]{1,6})\s*$)");
    std::smatch m;
    const std::string s = f.text(expected);
    if (!std::regex_match(s, m, re)) f.fail(expected);
    x = static_cast<unsigned>(std::stoul(m[1]));
    y = static_cast<unsigned>(std::stoul(m[2]));
    if (x < 1 || x > max || y < 1 || y > max) f.fail(expected);
  }
  return {x, y};
}

// topology.sides: "X x Y x Z" or [X, Y, Z], each side 1..64.
const char* const kSidesExpected = "the sides of a 3D torus such as '4x4x4' or [4, 4, 4], each 1..64";
void read_sides(const Field& f, SimConfig& c) {
  unsigned s[3] = {0, 0, 0};
  if (f.is_list()) {
    const std::vector<Field> e = f.elements(kSidesExpected);
    if (e.size() != 3) f.fail_found(kSidesExpected, "a list of " + std::to_string(e.size()) + " elements");
    for (int i = 0; i < 3; ++i) s[i] = static_cast<unsigned>(e[i].integer(1, 64));
  } else {
    static const std::regex re(R"(^\s*([0-9]{1,3})\s*x\s*([0-9]{1,3})\s*x\s*([0-9]{1,3})\s*$)");
    std::smatch m;
    const std::string text = f.text(kSidesExpected);
    if (!std::regex_match(text, m, re)) f.fail(kSidesExpected);
    for (int i = 0; i < 3; ++i) {
      s[i] = static_cast<unsigned>(std::stoul(m[i + 1]));
      if (s[i] < 1 || s[i] > 64) f.fail(kSidesExpected);
    }
  }
  c.topology.side_x = s[0];
  c.topology.side_y = s[1];
  c.topology.side_z = s[2];
}

// topology.clex.capacity: a mode, or one link bandwidth per level (checked against levels later).
void read_clex_capacity(const Field& f, SimConfig& c) {
  using Capacity = SimConfig::Topology::Clex::Capacity;
  if (f.is_list()) {
    c.topology.clex.capacity = Capacity::Given;
    c.topology.clex.level_bps.clear();
    for (const Field& e : f.elements(kClexCapacityExpected)) {
      const double bps = e.bandwidth();
      if (!(bps > 0)) e.fail("a bandwidth > 0");
      c.topology.clex.level_bps.push_back(bps);
    }
    return;
  }
  c.topology.clex.capacity =
      f.choice(Options<Capacity>{{"plain", Capacity::Plain}, {"hop_weighted", Capacity::HopWeighted}});
}

void read_board(const Field& f, SimConfig& c) {
  std::tie(c.topology.board_x, c.topology.board_y) = read_size(f, kBoardExpected, kMaxBoardSide);
}

void read_global(const Field& f, SimConfig& c) {
  std::tie(c.topology.global_x, c.topology.global_y) = read_size(f, kGlobalExpected, kMaxGlobalSide);
}

// Coordinate patterns that only exist on some node grids (core/node_grid.h: the builder's
// grid_extents). Topology is read before traffic (schema order).
void check_pattern_fits(const Field& f, const SimConfig& c) {
  const std::optional<GridMap> m = pattern_grid_map(c.traffic.pattern);
  if (!m) return;
  const std::vector<unsigned> extents = fabric_topology(c.topology.kind).grid_extents(c);
  if (extents.empty()) return;  // topology keys that make no network: the topology's check says why
  const std::string misfit = grid_misfit(*m, extents);
  if (!misfit.empty()) f.fail("a pattern valid on the " + system_text(c), misfit);
}

void read_flit_width(const Field& f, SimConfig& c) {
  const double bits = f.data_size();
  if (std::floor(bits) != bits || bits < kMinFlitBits || bits > kMaxFlitBits) f.fail(kFlitWidthExpected);
  c.router.flit_width_bits = static_cast<unsigned>(bits);
}

// One flit per cycle: the link must carry exactly flit_width x clock.
void read_local_bandwidth(const Field& f, SimConfig& c) {
  const double bps = f.bandwidth();
  const double flit_rate = c.router.flit_width_bits * c.router.clock_hz;
  if (!nearly_equal(bps, flit_rate)) {
    const double bits_per_cycle = bps / c.router.clock_hz;
    std::string hint = format_bandwidth(bps) + " is " + format_number(bits_per_cycle) + " bit per cycle at " +
                       format_frequency(c.router.clock_hz) +
                       "; it would match router.clock: " + format_frequency(bps / c.router.flit_width_bits);
    if (std::floor(bits_per_cycle) == bits_per_cycle && bits_per_cycle >= kMinFlitBits &&
        bits_per_cycle <= kMaxFlitBits)
      hint += " or router.flit_width: " + format_number(bits_per_cycle) + " bit";
    f.fail(format_bandwidth(flit_rate) + " = router.flit_width " + format_data_size(c.router.flit_width_bits) +
               " x router.clock " + format_frequency(c.router.clock_hz) + " (one flit per cycle)",
           hint);
  }
  c.local_link.bandwidth_bps = flit_rate;
}

// links.global.bandwidth: the cables may be slower or faster than a flit per cycle; their links
// then carry that many flits per cycle (credit_link.h).
void read_global_bandwidth(const Field& f, SimConfig& c) {
  const double bps = f.bandwidth();
  check_link_bandwidth(f, bps, c);
  c.global_link.bandwidth_bps = bps;
}

void read_injection_rate(const Field& f, SimConfig& c, Given& g) {
  if (!f.is_scalar()) f.fail(kRateExpected);
  if (f.is_number()) {
    c.traffic.injection_rate = f.number({0, kMaxInjectionRate});
    return;
  }
  double bps = 0;
  try {
    bps = parse_bandwidth(f.node().Scalar());
  } catch (const UnitError& e) {
    f.fail(kRateExpected, e.hint());
  }
  const double flit_rate = c.router.flit_width_bits * c.router.clock_hz;
  const double rate = bps / flit_rate;
  if (rate < 0 || (rate > kMaxInjectionRate && !nearly_equal(rate, kMaxInjectionRate)))
    f.fail("a bandwidth from 0 to " + format_bandwidth(kMaxInjectionRate * flit_rate) + " (one " +
               std::to_string(c.router.flit_width_bits) + "-bit flit per local lane and cycle at " +
               format_frequency(c.router.clock_hz) + ", at most 4 lanes)",
           format_bandwidth(bps) + " is " + format_number(rate) + " flits per cycle");
  c.traffic.injection_rate = std::min(rate, kMaxInjectionRate);
  g.rate_is_bandwidth = true;
  g.rate_bps = bps;
}

void read_hotspot_nodes(const Field& f, SimConfig& c) {
  const char* const expected = "a non-empty list of node indices such as [0, 5]";
  const std::vector<Field> nodes = f.elements(expected);
  if (nodes.empty()) f.fail_found(expected, "an empty list");
  const unsigned n = c.node_count();
  const std::string node_expected = "a node index in 0.." + std::to_string(n - 1) + " (the " + system_text(c) +
                                    " has " + std::to_string(n) + " nodes)";
  c.traffic.hotspot_nodes.clear();
  for (size_t i = 0; i < nodes.size(); ++i) {
    const auto v = static_cast<unsigned>(nodes[i].integer(0, n - 1, node_expected));
    const auto dup = std::find(c.traffic.hotspot_nodes.begin(), c.traffic.hotspot_nodes.end(), v);
    if (dup != c.traffic.hotspot_nodes.end())
      nodes[i].fail_found("each node listed once", nodes[i].found() + " again",
                          "first at " + f.path() + "[" + std::to_string(dup - c.traffic.hotspot_nodes.begin()) + "]");
    c.traffic.hotspot_nodes.push_back(v);
  }
}

const char* const kMessageExpected = "a data size of whole 4-byte elements, such as '16 MiB' (per accelerator)";
const char* const kSegmentExpected = "a data size of 1..254 whole flits, such as '1 KiB'";
// Collective messages: at most 2^34 segments are addressable; 64 GiB is far beyond what a run
// could simulate anyway.
constexpr double kMaxMessageBytes = 64.0 * (1ull << 30);

void read_message(const Field& f, SimConfig& c) {
  const double bits = f.data_size();
  const double bytes = bits / 8;
  if (bits <= 0 || std::floor(bytes) != bytes || std::fmod(bytes, 4) != 0 || bytes > kMaxMessageBytes)
    f.fail(kMessageExpected, bits > 0 && bytes <= kMaxMessageBytes ? "the elements are 4 bytes (fp32, int32)" : "");
  c.collective.message_bytes = static_cast<uint64_t>(bytes);
}

// A segment travels as one packet of whole flits (the router section is read first).
void read_segment(const Field& f, SimConfig& c) {
  const double bits = f.data_size();
  const unsigned flit = c.router.flit_width_bits;
  if (bits <= 0 || std::fmod(bits, flit) != 0 || bits / flit > 254 || std::fmod(bits, 32) != 0)
    f.fail(std::string(kSegmentExpected) + " of " + format_data_size(flit),
           bits > 0 ? format_data_size(bits) + " is " + format_number(bits / flit) + " flits" : "");
  c.collective.segment_bytes = static_cast<unsigned>(bits / 8);
}

const char* const kDimsExpected =
    "a list of 1..4 dimensions, each a map {size, kind, bandwidth, links, latency} (multidim only)";
// The largest platform: 2^16 NPUs, the endpoints a header can address (TreeAddressing).
constexpr uint64_t kMaxNpus = 65536;

// One dimension of a multidim platform (Rashidi et al., Table 2), checked on its own; what the
// cycle model needs of its bandwidth is checked with the kind (topology/multidim.cpp).
Dimension read_dimension(const Field& f) {
  const MapFields m(f, "a map {size, kind, bandwidth, links, latency}",
                    {"size", "kind", "bandwidth", "links", "latency"});
  Dimension d;
  d.kind = m.required("kind", one_of(kDimKinds)).choice(kDimKinds);
  const Field size = m.required("size", "an integer in 2..1024: the NPUs of the dimension");
  d.size = static_cast<unsigned>(size.integer(2, 1024, "an integer in 2..1024: the NPUs of the dimension"));
  if (d.kind == DimKind::Switch && (d.size & (d.size - 1)) != 0)
    size.fail("a power of two for a switch dimension", "its halving-doubling collective halves the NPUs each step");
  const Field bw = m.required("bandwidth", "a bandwidth per link such as '200 Gb/s'");
  d.link_bps = bw.bandwidth();
  if (!(d.link_bps > 0)) bw.fail("a positive bandwidth per link such as '200 Gb/s'");
  const Field links = m.required("links", "an integer in 1..64: links per NPU in this dimension");
  d.links = static_cast<unsigned>(links.integer(1, 64, "an integer in 1..64: links per NPU in this dimension"));
  // A ring's links come in pairs, one to each neighbour; a fully connected dimension has the
  // same number of links to every peer; a switch dimension has one switch plane per link.
  if (d.kind == DimKind::Ring && d.links % 2 != 0)
    links.fail("an even number for a ring: one link to each neighbour per ring");
  if (d.kind == DimKind::FullyConnected && d.links % (d.size - 1) != 0)
    links.fail("a multiple of size - 1 = " + std::to_string(d.size - 1) + " for a fully connected dimension",
               "every NPU has the same number of links to each peer");
  const Field latency = m.required("latency", "a time such as '700 ns': a minimum message's NPU-to-NPU latency");
  d.latency_s = latency.time();
  if (!(d.latency_s >= 0)) latency.fail("a time of at least 0 ns");
  return d;
}

void read_dims(const Field& f, SimConfig& c) {
  const std::vector<Field> items = f.elements(kDimsExpected);
  if (items.empty() || items.size() > 4) f.fail_found(kDimsExpected, "a list of " + std::to_string(items.size()));
  c.topology.dims.clear();
  uint64_t npus = 1;
  for (const Field& item : items) {
    c.topology.dims.push_back(read_dimension(item));
    npus *= c.topology.dims.back().size;
  }
  if (npus > kMaxNpus) f.fail("at most " + std::to_string(kMaxNpus) + " NPUs", std::to_string(npus) + " NPUs");
}

const char* const kJobsExpected =
    "a list of job sizes in boards, columns x rows, such as [2x2, 2x1] (hammingmesh; at most 64 jobs)";

void read_jobs(const Field& f, SimConfig& c) {
  const std::vector<Field> jobs = f.elements(kJobsExpected);
  if (jobs.empty() || jobs.size() > 64) f.fail_found(kJobsExpected, "a list of " + std::to_string(jobs.size()));
  c.collective.jobs.clear();
  for (const Field& j : jobs)
    c.collective.jobs.push_back(read_size(j, "a job size in boards such as '2x2'", kMaxGlobalSide));
}

// A duration converted to whole cycles at the router clock (the router section is read first).
// The bound is checked before converting: a huge time must not overflow the integer.
uint64_t read_cycles(const Field& f, const SimConfig& c, Duration& given, bool positive, double max_cycles) {
  given = f.duration();
  if (positive && given.value == 0) f.fail("a duration > 0 such as '1000 cycles' or '1 us'");
  const double clock = c.router.clock_hz;
  const double exact = given.unit == Duration::Unit::Cycles ? given.value : given.value * clock;
  if (!(exact <= max_cycles))
    f.fail("a duration of at most " + format_number(max_cycles) + " cycles (" + format_time(max_cycles / clock) +
           " at " + format_frequency(clock) + ")");
  return given.to_cycles(clock);
}

// The whole schema. Handlers store into `c` and `g`, so both must outlive the reader. Keys are
// read in this order, which is also the order of dependencies (config_reader.h): router before
// links, traffic and run (clock, flit width); topology before traffic (board size).
// routing.algorithm: its names depend on topology.kind, read before it; the kind's builder
// reads it.
void read_routing(const Field& f, SimConfig& c) {
  Options<std::string> names;
  for (const std::string& n : fabric_topology(c.topology.kind).routing_names()) names.emplace_back(n, n);
  c.routing.algorithm = f.choice(names);
}

// routing.algorithm's names, per kind (kinds with the same names together), for the schema's
// text: "one of xy, north_last, min_adaptive (board, hammingmesh); updown (fat_tree); ...".
std::string routing_expected() {
  std::vector<std::pair<std::string, std::string>> groups;  // names, kinds
  for (const FabricTopology* t : fabric_topologies()) {
    std::string names;
    for (const std::string& n : t->routing_names()) names += (names.empty() ? "" : ", ") + n;
    auto g = std::find_if(groups.begin(), groups.end(), [&](const auto& e) { return e.first == names; });
    if (g == groups.end())
      groups.emplace_back(names, t->kind());
    else
      g->second += std::string(", ") + t->kind();
  }
  std::string text;
  for (const auto& [names, kinds] : groups) text += (text.empty() ? "one of " : "; ") + names + " (" + kinds + ")";
  return text;
}

KeySpec make_schema(SimConfig& c, Given& g) {
  using P = Presence;
  const auto integer_key = [](std::string name, uint64_t lo, uint64_t hi, std::string dflt,
                              const std::function<void(uint64_t)>& set) {
    return leaf(std::move(name), P::Defaulted, integer_range_text(lo, hi), std::move(dflt),
                [lo, hi, set](const Field& f) { set(f.integer(lo, hi)); });
  };
  const auto duration_key = [&c](std::string name, std::string dflt, Duration& given, uint64_t& cycles, bool positive) {
    return leaf(std::move(name), P::Defaulted,
                positive ? "a duration > 0: a time or a number of cycles" : "a duration: a time or a number of cycles",
                std::move(dflt), [&c, &given, &cycles, positive](const Field& f) {
                  cycles = read_cycles(f, c, given, positive, kMaxCycles);
                });
  };

  // A delay in whole cycles (a time is rounded up), also kept in seconds for reports.
  const auto latency_key = [&c](std::string name, std::string dflt, Duration& given, unsigned& cycles,
                                double& seconds) {
    return leaf(std::move(name), P::Defaulted, "a duration: a time or a number of cycles", std::move(dflt),
                [&c, &given, &cycles, &seconds](const Field& f) {
                  cycles = static_cast<unsigned>(read_cycles(f, c, given, false, kMaxLatencyCycles));
                  seconds = given.to_seconds(c.router.clock_hz);
                });
  };
  // A link: one flit per cycle (the bandwidth key is a consistency check) and a latency; a cable
  // also a bit error rate (the PCB links of a board and the accelerator's own links do not fail).
  const auto link_section = [&c, &latency_key](std::string name, std::string latency_default, SimConfig::Link& link,
                                               Duration& given) {
    const bool cables = name == "global";  // the cables may run at another rate; local links may not
    std::vector<KeySpec> keys{
        leaf("bandwidth", P::Optional,
             cables ? "a bandwidth from 1/16 to 8 times flit_width x clock" : "a bandwidth equal to flit_width x clock",
             "",
             [&c, cables](const Field& f) {
               if (cables)
                 read_global_bandwidth(f, c);
               else
                 read_local_bandwidth(f, c);
             }),
        latency_key("latency", std::move(latency_default), given, link.latency_cycles, link.latency_s),
    };
    if (cables) {
      keys.push_back(leaf("bit_error_rate", P::Defaulted,
                          "a number in [0, 0.01]: errors per bit on a cable, recovered by link-level retry", "0",
                          [&link](const Field& f) {
                            link.bit_error_rate = f.number({0, 0.01});
                          }));
    }
    return section(std::move(name), P::Defaulted, std::move(keys));
  };

  return section(
      "", P::Required,
      {
          leaf("name", P::Optional, "a string", "", [&c](const Field& f) { c.name = f.text(); }),
          leaf("description", P::Defaulted, "a string", "\"\"", [&c](const Field& f) { c.description = f.text(); }),
          section(
              "topology", P::Defaulted,
              {
                  leaf("kind", P::Defaulted, one_of(kTopologyKinds), "board",
                       [&c](const Field& f) { c.topology.kind = f.choice(kTopologyKinds); }),
                  leaf("board", P::Optional, kBoardExpected + std::string(" (board, hammingmesh)"), "",
                       [&c](const Field& f) { read_board(f, c); }),
                  leaf("global", P::Optional, kGlobalExpected + std::string(" (hammingmesh only)"), "",
                       [&c](const Field& f) { read_global(f, c); }),
                  integer_key("planes", 1, 4, "1", [&c](uint64_t v) { c.topology.planes = static_cast<unsigned>(v); }),
                  leaf("endpoints", P::Optional, "an integer in 2..65536 (fat_tree only)", "",
                       [&c](const Field& f) { c.topology.endpoints = static_cast<unsigned>(f.integer(2, 65536)); }),
                  section("dragonfly", P::Optional,
                          {
                              leaf("a", P::Required, "an integer in 1..64: routers per group", "",
                                   [&c](const Field& f) {
                                     c.topology.dragonfly.a = static_cast<unsigned>(f.integer(1, 64));
                                   }),
                              leaf("p", P::Required, "an integer in 1..64: endpoints per router", "",
                                   [&c](const Field& f) {
                                     c.topology.dragonfly.p = static_cast<unsigned>(f.integer(1, 64));
                                   }),
                              leaf("h", P::Required, "an integer in 1..64: global links per router", "",
                                   [&c](const Field& f) {
                                     c.topology.dragonfly.h = static_cast<unsigned>(f.integer(1, 64));
                                   }),
                              leaf("groups", P::Required, "an integer in 2..4097", "",
                                   [&c](const Field& f) {
                                     c.topology.dragonfly.groups = static_cast<unsigned>(f.integer(2, 4097));
                                   }),
                              moved("routing", "routing.algorithm", "minimal is dragonfly_minimal"),
                          }),
                  leaf("dims", P::Optional, kDimsExpected, "", [&c](const Field& f) { read_dims(f, c); }),
                  leaf("sides", P::Optional, kSidesExpected + std::string(" (torus3d only)"), "",
                       [&c](const Field& f) { read_sides(f, c); }),
                  leaf("pitch", P::Defaulted, "a length > 0: the layout's node spacing (torus3d only)", "0.5 m",
                       [&c](const Field& f) {
                         c.topology.pitch_m = f.length();
                         if (!(c.topology.pitch_m > 0)) f.fail("a length > 0");
                       }),
                  section("clex", P::Optional,
                          {
                              leaf("k", P::Required, "an integer in 2..65535: the clique size", "",
                                   [&c](const Field& f) {
                                     c.topology.clex.k = static_cast<unsigned>(
                                         f.integer(2, 65535, "an integer in 2..65535: the clique size"));
                                   }),
                              leaf("levels", P::Required, "an integer in 1..32: L, the levels", "",
                                   [&c](const Field& f) {
                                     c.topology.clex.levels =
                                         static_cast<unsigned>(f.integer(1, 32, "an integer in 1..32: L, the levels"));
                                   }),
                              leaf("capacity", P::Defaulted, kClexCapacityExpected, "plain",
                                   [&c](const Field& f) { read_clex_capacity(f, c); }),
                              leaf("node_bandwidth", P::Optional, "a bandwidth > 0 (capacity hop_weighted only)", "",
                                   [&c](const Field& f) {
                                     c.topology.clex.node_bps = f.bandwidth();
                                     if (!(c.topology.clex.node_bps > 0)) f.fail("a bandwidth > 0");
                                   }),
                              leaf("pitch", P::Defaulted, "a length > 0: the layout's node spacing", "0.5 m",
                                   [&c](const Field& f) {
                                     c.topology.clex.pitch_m = f.length();
                                     if (!(c.topology.clex.pitch_m > 0)) f.fail("a length > 0");
                                   }),
                          }),
                  section("tree", P::Defaulted,
                          {
                              leaf("span", P::Defaulted, one_of(kTreeSpans), "line",
                                   [&c](const Field& f) { c.topology.tree_span = f.choice(kTreeSpans); }),
                              integer_key("radix", 4, 256, "64",
                                          [&c](uint64_t v) { c.topology.tree_radix = static_cast<unsigned>(v); }),
                              leaf("taper", P::Defaulted, "a number in (0, 1]: up ports per down port of a leaf", "1",
                                   [&c](const Field& f) {
                                     c.topology.tree_taper = f.number({0, 1, true});
                                   }),
                              leaf("spines", P::Defaulted, one_of(kTreeSpines), "fewest",
                                   [&c](const Field& f) { c.topology.tree_spine_per_up_port = f.choice(kTreeSpines); }),
                          }),
              }),
          // How packets find their way, for every kind: the RTL router's mode on boards, the
          // registered routing function of the C++ switches elsewhere (hxsim list).
          section("routing", P::Defaulted,
                  {
                      leaf("algorithm", P::Optional, routing_expected(), "north_last; ugal_l on a dragonfly",
                           [&c](const Field& f) { read_routing(f, c); }),
                  }),
          section("router", P::Defaulted,
                  {
                      leaf("clock", P::Defaulted, "a frequency in (0 Hz, 10 GHz]", "1 GHz",
                           [&c](const Field& f) {
                             const double hz = f.frequency();
                             if (!Interval{0, kMaxClockHz, true, false}.contains(hz))
                               f.fail("a frequency in (0 Hz, " + format_frequency(kMaxClockHz) + "]");
                             c.router.clock_hz = hz;
                           }),
                      moved("routing", "routing.algorithm"),
                      leaf("vc_policy", P::Defaulted, one_of(kVcPolicies), "keep",
                           [&c](const Field& f) { c.router.vc_policy = f.choice(kVcPolicies); }),
                      // Up to what a flit link's credits carry (credit_link.h); boards stop at 4 (below).
                      integer_key("vcs", 1, 8, "3", [&c](uint64_t v) { c.router.vcs = static_cast<unsigned>(v); }),
                      integer_key("buffer_depth", 2, 64, "8",
                                  [&c](uint64_t v) { c.router.buffer_depth = static_cast<unsigned>(v); }),
                      leaf("flit_width", P::Defaulted, kFlitWidthExpected, "128 bit",
                           [&c](const Field& f) { read_flit_width(f, c); }),
                      integer_key("local_ports", 1, 4, "1",
                                  [&c](uint64_t v) { c.router.local_ports = static_cast<unsigned>(v); }),
                      leaf("model", P::Defaulted, one_of(kRouterModels), "rtl",
                           [&c](const Field& f) { c.router.switch_model = f.choice(kRouterModels); }),
                  }),
          section("links", P::Defaulted,
                  {
                      link_section("local", "1 cycles", c.local_link, g.latency),        // accelerator <-> router
                      link_section("global", "20 ns", c.global_link, g.global_latency),  // hammingmesh cables
                  }),
          section("switch", P::Defaulted,
                  {
                      latency_key("latency", "80 ns", g.switch_latency, c.fabric_switch.latency_cycles,
                                  c.fabric_switch.latency_s),
                      integer_key("speedup", 1, 4, "2",
                                  [&c](uint64_t v) { c.fabric_switch.speedup = static_cast<unsigned>(v); }),
                      integer_key("output_buffer_depth", 2, 4096, "8",
                                  [&c](uint64_t v) { c.fabric_switch.output_depth = static_cast<unsigned>(v); }),
                      leaf("buffer_depth", P::Defaulted,
                           "auto (the cable's credit round trip) or an integer in 2..4096 (flits per VC)", "auto",
                           [&c](const Field& f) {
                             const char* const expected =
                                 "auto (the cable's credit round trip) or an integer in 2..4096 (flits per VC)";
                             if (f.is_number()) {
                               c.fabric_switch.buffer_depth = static_cast<unsigned>(f.integer(2, 4096, expected));
                               c.fabric_switch.buffer_auto = false;
                             } else {
                               if (f.text(expected) != "auto") f.fail(expected);
                               c.fabric_switch.buffer_auto = true;
                             }
                           }),
                  }),
          section(
              "traffic", P::Defaulted,
              {
                  leaf("pattern", P::Defaulted, one_of(kPatterns), "uniform",
                       [&c](const Field& f) {
                         c.traffic.pattern = f.choice(kPatterns);
                         check_pattern_fits(f, c);
                       }),
                  leaf("injection_rate", P::Optional, kRateExpected + std::string(" (required without a collective)"),
                       "", [&c, &g](const Field& f) { read_injection_rate(f, c, g); }),
                  integer_key("packet_length", 1, 255, "1",
                              [&c](uint64_t v) { c.traffic.packet_length = static_cast<unsigned>(v); }),
                  integer_key("message_packets", 1, 65535, "1",
                              [&c](uint64_t v) { c.traffic.message_packets = static_cast<unsigned>(v); }),
                  leaf("include_self", P::Defaulted, "true or false (uniform only)", "false",
                       [&c](const Field& f) { c.traffic.include_self = f.boolean(); }),
                  integer_key("source_queue", 0, 1u << 20, "0",
                              [&c](uint64_t v) { c.traffic.source_queue = static_cast<unsigned>(v); }),
                  section("hotspot", P::Optional,
                          {
                              leaf("nodes", P::Required, "a non-empty list of node indices", "",
                                   [&c](const Field& f) { read_hotspot_nodes(f, c); }),
                              leaf("fraction", P::Required, "a number in (0, 1]", "",
                                   [&c](const Field& f) {
                                     c.traffic.hotspot_fraction = f.number({0, 1, true});
                                   }),
                          }),
              }),
          section("collective", P::Optional,
                  {
                      leaf("operation", P::Defaulted, one_of(kCollectiveOps), "allreduce",
                           [&c](const Field& f) { c.collective.op = f.choice(kCollectiveOps); }),
                      leaf("algorithm", P::Required, one_of(kCollectiveAlgorithms), "",
                           [&c](const Field& f) { c.collective.algorithm = f.choice(kCollectiveAlgorithms); }),
                      leaf("message", P::Required, kMessageExpected, "", [&c](const Field& f) { read_message(f, c); }),
                      leaf("segment", P::Defaulted, kSegmentExpected, "1 KiB",
                           [&c](const Field& f) { read_segment(f, c); }),
                      leaf("datatype", P::Defaulted, one_of(kDataTypes), "fp32",
                           [&c](const Field& f) { c.collective.int32 = f.choice(kDataTypes); }),
                      integer_key("root", 0, 65535, "0",
                                  [&c](uint64_t v) { c.collective.root = static_cast<unsigned>(v); }),
                      duration_key("timeout", "100 ms", g.timeout, c.collective.timeout_cycles, true),
                      leaf("jobs", P::Optional, kJobsExpected, "", [&c](const Field& f) { read_jobs(f, c); }),
                      // algorithm hierarchical: how the chunks cross the dimensions (dim_schedule.h)
                      leaf("scheduler", P::Optional, one_of(kChunkSchedulers) + " (hierarchical only)", "baseline",
                           [&c](const Field& f) { c.collective.scheduler = f.choice(kChunkSchedulers); }),
                      leaf("intra", P::Optional, one_of(kIntraDimOrders) + " (hierarchical only)", "fifo",
                           [&c](const Field& f) { c.collective.intra = f.choice(kIntraDimOrders); }),
                      leaf("chunks", P::Optional, "an integer in 1..4096 (hierarchical only)", "64",
                           [&c](const Field& f) { c.collective.chunks = static_cast<unsigned>(f.integer(1, 4096)); }),
                      leaf("threshold", P::Optional, one_of(kThemisThresholds) + " (themis only)", "chunk_per_npu",
                           [&c](const Field& f) { c.collective.threshold = f.choice(kThemisThresholds); }),
                      leaf("only_job", P::Defaulted, "all, or a job's index in collective.jobs", "all",
                           [&c](const Field& f) {
                             if (f.is_number()) {
                               c.collective.only_job =
                                   static_cast<int>(f.integer(0, 63, "all, or a job's index in collective.jobs"));
                             } else if (f.text("all, or a job's index in collective.jobs") != "all") {
                               f.fail("all, or a job's index in collective.jobs");
                             }
                           }),
                  }),
          // CLEX's round-based model (`hxsim model`, model/clex_rounds.h): section III's experiments.
          section("rounds", P::Optional,
                  {
                      leaf("messages", P::Required, "an integer in 1..65535: messages each node sends and receives", "",
                           [&c](const Field& f) {
                             c.rounds.messages = static_cast<unsigned>(
                                 f.integer(1, 65535, "an integer in 1..65535: messages each node sends and receives"));
                           }),
                      leaf("relay", P::Defaulted, one_of(kRelayModes), "request",
                           [&c](const Field& f) { c.rounds.request = f.choice(kRelayModes); }),
                      integer_key("first_copies", 1, 64, "1",
                                  [&c](uint64_t v) { c.rounds.first_copies = static_cast<unsigned>(v); }),
                      leaf("memory", P::Defaulted, "a data size > 0: the most the model may hold", "8 GiB",
                           [&c](const Field& f) {
                             c.rounds.memory_bits = f.data_size();
                             if (!(c.rounds.memory_bits > 0)) f.fail("a data size > 0");
                           }),
                  }),
          // Failed links and switches (topology/faults.h, docs/reliability.md).
          fault_keys(c.faults),
          section("run", P::Defaulted,
                  {
                      duration_key("warmup", "1000 cycles", g.warmup, c.run.warmup_cycles, false),
                      duration_key("measure", "10000 cycles", g.measure, c.run.measure_cycles, true),
                      duration_key("drain", "50000 cycles", g.drain, c.run.drain_cycles, false),
                      duration_key("watchdog", "2000 cycles", g.watchdog, c.run.watchdog_cycles, true),
                      integer_key("seed", 0, std::numeric_limits<uint64_t>::max(), "1",
                                  [&c](uint64_t v) { c.run.seed = v; }),
                  }),
      });
}

// ---- after reading: conditional keys, derived defaults, the derivation report -------------------

void check_hotspot_section(const ConfigReader& reader, const SimConfig& c) {
  if (c.traffic.include_self && c.traffic.pattern != Pattern::Uniform)
    reader.field("traffic.include_self")
        .fail("false, since traffic.pattern is '" + pattern_name(c.traffic.pattern) + "'",
              "only uniform traffic draws its destination among all nodes");
  const bool hotspot = c.traffic.pattern == Pattern::Hotspot;
  if (hotspot && !reader.present("traffic.hotspot"))
    reader.field("traffic").fail_missing("hotspot", "a map with nodes and fraction, required when pattern is hotspot");
  // A stale hotspot section would be ignored silently, which is worse than an error.
  if (!hotspot && reader.present("traffic.hotspot"))
    reader.field("traffic.hotspot")
        .fail("no hotspot map, since traffic.pattern is '" + pattern_name(c.traffic.pattern) + "'",
              "remove it, or --set traffic.hotspot=~");
}

// The HammingMesh keys: required, forbidden or constrained by topology.kind.
// Keys required, forbidden or constrained by topology.kind: the kind's builder checks its own
// (FabricTopology::check), then what holds for every kind. The schema leaves topology.board
// optional, so the patterns that read it (traffic) run before this check; it reports what the
// kind needs in the schema's terms.
void check_topology(const ConfigReader& reader, SimConfig& c) {
  const FabricTopology& topo = fabric_topology(c.topology.kind);
  topo.check(reader, c);
  if (c.topology.planes > topo.max_planes())
    reader.field("topology.planes")
        .fail("at most " + std::to_string(topo.max_planes()) + " for a " + c.topology.kind,
              "only a hammingmesh simulates several planes");
  // A HammingMesh's boards may be built of C++ switches instead of the RTL routers; every other
  // kind has one kind of router.
  if (reader.present("router.model") && c.router.switch_model == topo.rtl_boards(c))
    reader.field("router.model")
        .fail(topo.rtl_boards(c) ? "rtl: a " + c.topology.kind + "'s routers are the RTL's"
                                 : "switch: a " + c.topology.kind + "'s routers are C++ switches",
              "only a hammingmesh's board routers can be either");
  // The RTL router's flit carries its VC in 2 bits; only the C++ switches have more.
  if (topo.rtl_boards(c) && c.router.vcs > 4)
    reader.field("router.vcs")
        .fail(
            "at most 4 on the boards' RTL routers (a flit's VC field is 2 bits; only systems of C++ switches have "
            "more)");
  // Full rate on one VC needs a credit for every flit of a round trip.
  if (c.fabric_switch.buffer_auto)
    c.fabric_switch.buffer_depth = std::max(8u, static_cast<unsigned>(std::ceil(topo.credit_round_trip(c).flits)));
  if (reader.present("topology.dims") && topo.dimensions(c).empty())
    reader.field("topology.dims")
        .fail("no dims, since topology.kind is '" + c.topology.kind + "'", "remove it, or change topology.kind");
}

// Failed links and switches must name the netlist's tree switches and leave a path between every
// two leaves of a tree: applied here to the netlist the run will build (topology/faults.h).
void check_faults(const ConfigReader& reader, const SimConfig& c) {
  if (c.faults.empty()) return;
  NetworkDescription net = fabric_topology(c.topology.kind).network(c);
  try {
    apply_faults(net, c.faults);
  } catch (const FaultError& e) {
    fail_at(reader, e);
  }
}

// A hierarchical collective runs over the platform's dimensions (dim_schedule.h), one job on
// every NPU.
void check_hierarchical(const ConfigReader& reader, const SimConfig& c, const FabricTopology& topo) {
  const SimConfig::Collective& k = c.collective;
  if (topo.dimensions(c).empty())
    reader.field("collective.algorithm")
        .fail("an algorithm for the " + system_text(c),
              "hierarchical runs over a platform's dimensions (topology.dims of a multidim)");
  if (k.op != CollectiveOp::AllReduce && k.op != CollectiveOp::ReduceScatter && k.op != CollectiveOp::AllGather &&
      k.op != CollectiveOp::AllToAll)
    reader.field("collective.operation")
        .fail("allreduce, reduce_scatter, all_gather or all_to_all for algorithm hierarchical");
  if (!k.jobs.empty()) reader.field("collective.jobs").fail("no jobs for algorithm hierarchical");
  if (k.op == CollectiveOp::AllToAll) {
    // Two phases, one per dimension (collective_plan.h: hierarchical_all_to_all_plan); no chunks.
    const std::vector<Dimension> dims = topo.dimensions(c);
    if (dims.size() != 2)
      reader.field("topology.dims")
          .fail_found("two dimensions for a hierarchical all_to_all (within dim1's groups, then across them)",
                      std::to_string(dims.size()));
    if (dims[1].size > 255)
      reader.field("topology.dims")
          .fail_found("at most 255 groups (dims[1].size) for a hierarchical all_to_all", std::to_string(dims[1].size));
    for (const char* key : {"collective.scheduler", "collective.intra", "collective.chunks", "collective.threshold"})
      if (reader.present(key))
        reader.field(key).fail("no " + std::string(key) + " for a hierarchical all_to_all",
                               "it sends whole blocks in two phases, with no chunks to schedule");
    return;
  }
  if (reader.present("collective.threshold") && k.scheduler != ChunkScheduler::Themis)
    reader.field("collective.threshold").fail("no threshold unless collective.scheduler is themis");
  // Every chunk gives every NPU at least one element of its own.
  const uint64_t most = k.elements() / c.node_count();
  if (k.chunks > most)
    reader.field(reader.present("collective.chunks") ? "collective.chunks" : "collective.message")
        .fail("at most message / (4 B x " + std::to_string(c.node_count()) + " NPUs) = " + std::to_string(most) +
                  " chunks",
              "every chunk holds at least one element per NPU");
}

// A collective replaces the synthetic traffic and the measurement window; it must fit the
// system (the plan's conditions, e.g. the Hamiltonian cycles' torus shape).
void check_collective(const ConfigReader& reader, SimConfig& c) {
  c.collective.enabled = reader.present("collective");
  const FabricTopology& topo = fabric_topology(c.topology.kind);
  if (c.router.local_ports > 1 && !topo.has_lanes())
    reader.field("router.local_ports")
        .fail("1 for a " + c.topology.kind, "several local ports exist on the RTL router (boards) and on NPU routers");
  if (c.rounds.enabled && !topo.has_round_model())
    reader.field("rounds").fail("no rounds section, since topology.kind is '" + c.topology.kind + "'",
                                "the round-based model is CLEX's (topology.kind clex)");
  if (c.rounds.enabled && c.collective.enabled)
    reader.field("rounds").fail("no rounds section in a collective run", "remove rounds or collective");
  if (!c.collective.enabled) {
    // The round model's messages replace the synthetic traffic.
    if (!reader.present("traffic.injection_rate") && !c.rounds.enabled)
      reader.field("traffic").fail_missing("injection_rate",
                                           std::string(kRateExpected) + ", required without a collective");
    // A node injects one flit per local lane and cycle, and starts at most one packet per cycle.
    // A rate at a limit up to rounding (a bandwidth of exactly the lanes' rate) is that limit.
    if (reader.present("traffic.injection_rate")) {
      const auto at_most = [&](double limit, const std::string& expected) {
        double& rate = c.traffic.injection_rate;
        if (rate > limit && !nearly_equal(rate, limit))
          reader.field("traffic.injection_rate")
              .fail_found(expected, format_number(rate) + " flits per node per cycle");
        rate = std::min(rate, limit);
      };
      const unsigned lanes = c.router.local_ports;
      at_most(lanes, "at most " + std::to_string(lanes) + " flit" + (lanes == 1 ? "" : "s") +
                         " per node per cycle (router.local_ports = " + std::to_string(lanes) +
                         ": one flit per local lane)");
      at_most(c.traffic.packet_length, "at most traffic.packet_length = " + std::to_string(c.traffic.packet_length) +
                                           " flits per node per cycle (a node starts at most one packet per cycle)");
    }
    return;
  }
  for (const char* key : {"traffic", "run.warmup", "run.measure", "run.drain"}) {
    if (reader.present(key))
      reader.field(key).fail("no " + std::string(key) + " in a collective run",
                             "a collective runs until it completes (collective.timeout bounds it)");
  }
  if (c.router.flit_width_bits != 128)
    reader.field("router.flit_width").fail("128 bit in a collective run", "a flit carries four 32-bit elements");
  if (c.topology.planes != 1)
    reader.field("topology.planes").fail("1 in a collective run", "a collective runs on one plane");
  const bool hierarchical = c.collective.algorithm == CollectiveAlgorithm::Hierarchical;
  for (const char* key : {"collective.scheduler", "collective.intra", "collective.chunks", "collective.threshold"}) {
    if (!hierarchical && reader.present(key))
      reader.field(key).fail("no " + std::string(key) + " unless collective.algorithm is hierarchical",
                             "it says how a hierarchical collective's chunks cross the dimensions");
  }
  if (hierarchical) {
    check_hierarchical(reader, c, topo);
    return;
  }
  // The torus of ranks each job sees: the whole system, or its boards.
  std::vector<std::pair<unsigned, unsigned>> grids;
  if (c.collective.jobs.empty()) {
    grids.emplace_back(c.system_x(), c.system_y());
    if (reader.present("collective.only_job"))
      reader.field("collective.only_job").fail("no only_job without collective.jobs");
  } else {
    if (!topo.has_boards() || !topo.board_grid(c))
      reader.field("collective.jobs")
          .fail("no jobs for a " + c.topology.kind, "jobs are placed on a HammingMesh's boards");
    // The tracker's check that no packet enters another job's board reads the RTL boards' edge
    // ports, which C++ switch routers do not have.
    if (!topo.rtl_boards(c))
      reader.field("collective.jobs")
          .fail("no jobs with router.model switch", "jobs need the RTL boards (router.model: rtl)");
    for (std::size_t k = 0; k < c.collective.jobs.size(); ++k) {
      const auto [cols, rows] = c.collective.jobs[k];
      const std::vector<Field> items = reader.field("collective.jobs").elements(kJobsExpected);
      if (cols > std::max(c.topology.global_x, c.topology.global_y) ||
          rows > std::max(c.topology.global_x, c.topology.global_y) || uint64_t{cols} * rows > c.board_count())
        items[k].fail("a job that fits the " + std::to_string(c.topology.global_x) + "x" +
                      std::to_string(c.topology.global_y) + " boards");
      grids.emplace_back(cols * c.topology.board_x, rows * c.topology.board_y);
    }
    if (c.collective.only_job >= static_cast<int>(c.collective.jobs.size()))
      reader.field("collective.only_job")
          .fail("all, or a job's index in 0.." + std::to_string(c.collective.jobs.size() - 1));
  }
  for (const auto& [cols, rows] : grids) {
    try {
      make_collective_plan(c.collective.op, c.collective.algorithm, cols, rows, c.collective.elements(),
                           c.collective.root);
    } catch (const std::invalid_argument& e) {
      // The reason names the grid (e.g. "4x6 has r mod c = 4"); a job's is its own.
      reader.field("collective.algorithm")
          .fail("an algorithm for " + collective_op_name(c.collective.op) + " on " +
                    (c.collective.jobs.empty()
                         ? "the " + system_text(c)
                         : "each job (" + std::to_string(cols) + " x " + std::to_string(rows) + " accelerators)"),
                e.what());
    }
    if (c.collective.root >= cols * rows)
      reader.field("collective.root").fail("a rank in 0.." + std::to_string(cols * rows - 1) + " of every job");
  }
}

std::string duration_line(const std::string& key, const Duration& given, uint64_t cycles, double clock_hz) {
  const std::string at = " at " + format_frequency(clock_hz);
  if (given.unit == Duration::Unit::Cycles)
    return key + " " + format_duration(given) + " = " + format_time(given.to_seconds(clock_hz)) + at;
  const double exact = given.value * clock_hz;
  const bool rounded = !nearly_equal(static_cast<double>(cycles), exact) && exact != 0;
  return key + " " + format_duration(given) + at + " = " +
         format_duration(Duration::cycles(static_cast<double>(cycles))) +
         (rounded ? " (rounded up from " + format_number(exact) + ")" : "");
}

void derive(SimConfig& c, const Given& g, const ConfigReader& reader) {
  const double clock = c.router.clock_hz;
  const double flit_rate = c.router.flit_width_bits * clock;
  std::vector<std::string>& d = c.derivations;
  d.push_back("router.clock " + format_frequency(clock) + ": one cycle = " + format_time(1 / clock));
  d.push_back("flit: " + format_data_size(c.router.flit_width_bits) + " payload + " + std::to_string(kFlitTypeBits) +
              " bit type + " + std::to_string(kFlitVcBits) + " bit VC = " + std::to_string(c.link_word_bits()) +
              "-bit link word");
  d.push_back("links.local.bandwidth " + format_bandwidth(c.local_link.bandwidth_bps) + " = " +
              format_data_size(c.router.flit_width_bits) + " x " + format_frequency(clock) + ": one flit per cycle" +
              (reader.present("links.local.bandwidth") ? "" : " (derived, not given)"));
  d.push_back(duration_line("links.local.latency", g.latency, c.local_link.latency_cycles, clock));
  const FabricTopology& topo = fabric_topology(c.topology.kind);
  if (topo.has_fabric()) {
    d.push_back("system: " + system_text(c) + " = " + std::to_string(c.node_count()) + " accelerators" +
                (topo.has_boards() ? " on " + std::to_string(c.board_count()) + " boards" : "") + ", " +
                (c.topology.planes == 1 ? std::string("one plane")
                                        : std::to_string(c.topology.planes) + " planes (independent networks)"));
    d.push_back("links.global.bandwidth " + format_bandwidth(c.global_link.bandwidth_bps) + " = " +
                format_number(c.global_rate()) + " flits per cycle" +
                (reader.present("links.global.bandwidth") ? "" : " (derived, not given)"));
    d.push_back(duration_line("links.global.latency", g.global_latency, c.global_link.latency_cycles, clock));
    d.push_back(duration_line("switch.latency", g.switch_latency, c.fabric_switch.latency_cycles, clock));
    topo.derivations(c, d);
    d.push_back(
        "switch.buffer_depth " + std::to_string(c.fabric_switch.buffer_depth) + " flits per VC" +
        (c.fabric_switch.buffer_auto ? " = " + topo.credit_round_trip(c).how + " (auto: the credit round trip)" : ""));
  }
  if (c.router.local_ports > 1)
    d.push_back("router.local_ports " + std::to_string(c.router.local_ports) + ": an accelerator injects up to " +
                format_bandwidth(c.router.local_ports * flit_rate) + " (" + std::to_string(c.router.local_ports) +
                " flits per cycle)");
  if (c.collective.enabled) {
    const SimConfig::Collective& k = c.collective;
    d.push_back("collective " + collective_op_name(k.op) + " by " + collective_algorithm_name(k.algorithm) + " of " +
                format_data_size(k.message_bytes * 8.0) + " = " + std::to_string(k.elements()) + " " +
                (k.int32 ? "int32" : "fp32") + " elements per accelerator");
    d.push_back("collective.segment " + format_data_size(k.segment_bytes * 8.0) + " = " +
                std::to_string(k.segment_flits(c.router.flit_width_bits)) + " body flits + 1 head flit per packet");
    d.push_back(duration_line("collective.timeout", g.timeout, k.timeout_cycles, clock));
    d.push_back(duration_line("run.watchdog", g.watchdog, c.run.watchdog_cycles, clock));
    return;
  }
  if (g.rate_is_bandwidth)
    d.push_back("traffic.injection_rate " + format_bandwidth(g.rate_bps) + " / " + format_bandwidth(flit_rate) +
                " per flit per cycle = " + format_number(c.traffic.injection_rate) + " flits per node per cycle");
  else
    d.push_back("traffic.injection_rate " + format_number(c.traffic.injection_rate) +
                " flits per node per cycle = " + format_bandwidth(c.injection_bps()) + " per node");
  d.push_back("offered load: " + std::to_string(c.node_count()) + " nodes x " + format_bandwidth(c.injection_bps()) +
              " = " + format_bandwidth(c.node_count() * c.injection_bps()));
  d.push_back("traffic.packet_length " + std::to_string(c.traffic.packet_length) +
              (c.traffic.packet_length == 1 ? " flit = " : " flits = ") +
              format_data_size(static_cast<double>(c.traffic.packet_length) * c.router.flit_width_bits) +
              " per packet (header included)");
  d.push_back(duration_line("run.warmup", g.warmup, c.run.warmup_cycles, clock));
  d.push_back(duration_line("run.measure", g.measure, c.run.measure_cycles, clock));
  d.push_back(duration_line("run.drain", g.drain, c.run.drain_cycles, clock));
  d.push_back(duration_line("run.watchdog", g.watchdog, c.run.watchdog_cycles, clock));
}

SimConfig load(const std::function<void(ConfigReader&)>& parse, const std::string& source,
               const std::vector<std::string>& overrides) {
  SimConfig c;
  Given g;
  ConfigReader reader(make_schema(c, g), source);
  reader.read_all(parse, overrides);
  if (!reader.present("routing.algorithm")) c.routing.algorithm = fabric_topology(c.topology.kind).default_routing();
  if (!reader.present("links.local.bandwidth"))
    c.local_link.bandwidth_bps = c.router.flit_width_bits * c.router.clock_hz;
  if (!reader.present("links.global.bandwidth")) c.global_link.bandwidth_bps = c.local_link.bandwidth_bps;
  check_hotspot_section(reader, c);
  c.rounds.enabled = reader.present("rounds");  // the kind's check reads it (clex: which model)
  check_topology(reader, c);
  check_collective(reader, c);
  check_faults(reader, c);
  c.source = source;
  reader.default_name(c.name);
  derive(c, g, reader);
  return c;
}

// A string as a YAML scalar, quoted only where YAML needs it.
std::string yaml_string(const std::string& s) {
  YAML::Emitter e;
  e << s;
  return e.c_str();
}

}  // namespace

void check_link_bandwidth(const Field& f, double bps, const SimConfig& c, const std::string& hint) {
  const double flit_rate = c.router.flit_width_bits * c.router.clock_hz;
  const double rate = bps / flit_rate;
  if (!(rate >= LinkRate::kMinFlitsPerCycle - 1e-9 && rate <= LinkRate::kMaxFlitsPerCycle + 1e-9))
    f.fail("a bandwidth in [" + format_bandwidth(flit_rate * LinkRate::kMinFlitsPerCycle) + ", " +
               format_bandwidth(flit_rate * LinkRate::kMaxFlitsPerCycle) +
               "]: 1/16 to 8 flits per cycle of router.flit_width " + format_data_size(c.router.flit_width_bits) +
               " x router.clock " + format_frequency(c.router.clock_hz),
           hint);
}

SimConfig load_config(const std::string& path, const std::vector<std::string>& overrides) {
  return load([&path](ConfigReader& r) { r.parse_file(path); }, path, overrides);
}

SimConfig load_config_text(const std::string& yaml_text, const std::string& source_name,
                           const std::vector<std::string>& overrides) {
  return load([&yaml_text](ConfigReader& r) { r.parse_text(yaml_text); }, source_name, overrides);
}

const char* default_config_yaml() {
  return R"(# The built-in config of `hxsim run` without a file (`make run`).
name: default
description: "4x4 board, north-last adaptive routing, uniform traffic at 0.2 flits/node/cycle"
topology:
  kind: board
  board: 4x4
routing:
  algorithm: north_last
router:
  clock: 1 GHz
  vc_policy: keep
  vcs: 3
  buffer_depth: 8
  flit_width: 128 bit
links:
  local:
    latency: 1 cycles
traffic:
  pattern: uniform
  injection_rate: 0.2
  packet_length: 4
run:
  warmup: 2000 cycles
  measure: 10000 cycles
  drain: 50000 cycles
  watchdog: 2000 cycles
  seed: 1
)";
}

namespace {
// faults.links and faults.switches, when the config has them, as YAML lists of quoted names.
void add_fault_values(const SimConfig& c, std::vector<std::pair<std::string, std::string>>& v) {
  const auto list = [](const std::vector<std::string>& names) {
    std::string s;
    for (const std::string& n : names) s += (s.empty() ? "'" : ", '") + n + "'";
    return "[" + s + "]";
  };
  if (!c.faults.links.empty()) v.emplace_back("faults.links", list(c.faults.links));
  if (!c.faults.switches.empty()) v.emplace_back("faults.switches", list(c.faults.switches));
}
}  // namespace

std::vector<std::pair<std::string, std::string>> effective_values(const SimConfig& c) {
  const auto cycles = [](uint64_t n) { return std::to_string(n) + " cycles"; };
  const FabricTopology& topo = fabric_topology(c.topology.kind);
  std::vector<std::pair<std::string, std::string>> v = {
      {"name", yaml_string(c.name)},
      {"description", yaml_string(c.description)},
      {"topology.kind", c.topology.kind},
  };
  topo.topology_values(c, v);
  v.emplace_back("routing.algorithm", c.routing.algorithm);
  v.insert(v.end(), {
                        {"router.clock", format_frequency(c.router.clock_hz)},
                        {"router.vc_policy", vc_policy_name(c.router.vc_policy)},
                        {"router.vcs", std::to_string(c.router.vcs)},
                        {"router.buffer_depth", std::to_string(c.router.buffer_depth)},
                        {"router.flit_width", format_data_size(c.router.flit_width_bits)},
                        {"router.local_ports", std::to_string(c.router.local_ports)},
                        {"links.local.bandwidth", format_bandwidth(c.local_link.bandwidth_bps)},
                        {"links.local.latency", cycles(c.local_link.latency_cycles)},
                    });
  if (c.router.switch_model) {
    const auto lanes =
        std::find_if(v.begin(), v.end(), [](const auto& kv) { return kv.first == "router.local_ports"; });
    v.insert(lanes + 1, {"router.model", "switch"});
  }
  if (topo.has_fabric()) {
    v.emplace_back("links.global.bandwidth", format_bandwidth(c.global_link.bandwidth_bps));
    v.emplace_back("links.global.latency", cycles(c.global_link.latency_cycles));
    if (c.global_link.bit_error_rate > 0)
      v.emplace_back("links.global.bit_error_rate", format_number(c.global_link.bit_error_rate));
    v.emplace_back("switch.latency", cycles(c.fabric_switch.latency_cycles));
    v.emplace_back("switch.speedup", std::to_string(c.fabric_switch.speedup));
    v.emplace_back("switch.buffer_depth", std::to_string(c.fabric_switch.buffer_depth));
    v.emplace_back("switch.output_buffer_depth", std::to_string(c.fabric_switch.output_depth));
  }
  if (c.collective.enabled) {
    const SimConfig::Collective& k = c.collective;
    v.emplace_back("collective.operation", collective_op_name(k.op));
    v.emplace_back("collective.algorithm", collective_algorithm_name(k.algorithm));
    v.emplace_back("collective.message", std::to_string(k.message_bytes) + " B");
    v.emplace_back("collective.segment", std::to_string(k.segment_bytes) + " B");
    v.emplace_back("collective.datatype", k.int32 ? "int32" : "fp32");
    v.emplace_back("collective.root", std::to_string(k.root));
    v.emplace_back("collective.timeout", cycles(k.timeout_cycles));
    if (k.algorithm == CollectiveAlgorithm::Hierarchical) {
      v.emplace_back("collective.scheduler", chunk_scheduler_name(k.scheduler));
      v.emplace_back("collective.intra", intra_dim_order_name(k.intra));
      v.emplace_back("collective.chunks", std::to_string(k.chunks));
      if (k.scheduler == ChunkScheduler::Themis)
        v.emplace_back("collective.threshold", themis_threshold_name(k.threshold));
    }
    if (!k.jobs.empty()) {
      std::string jobs;
      for (const auto& [cols, rows] : k.jobs)
        jobs += (jobs.empty() ? "" : ", ") + std::to_string(cols) + "x" + std::to_string(rows);
      v.emplace_back("collective.jobs", "[" + jobs + "]");
      v.emplace_back("collective.only_job", k.only_job < 0 ? "all" : std::to_string(k.only_job));
    }
    add_fault_values(c, v);
    v.emplace_back("run.watchdog", cycles(c.run.watchdog_cycles));
    v.emplace_back("run.seed", std::to_string(c.run.seed));
    return v;
  }
  if (c.rounds.enabled) {
    v.emplace_back("rounds.messages", std::to_string(c.rounds.messages));
    v.emplace_back("rounds.relay", c.rounds.request ? "request" : "direct");
    v.emplace_back("rounds.first_copies", std::to_string(c.rounds.first_copies));
    v.emplace_back("rounds.memory", format_number(c.rounds.memory_bits) + " bit");
  }
  v.insert(v.end(), {
                        {"traffic.pattern", pattern_name(c.traffic.pattern)},
                        {"traffic.injection_rate", format_number(c.traffic.injection_rate)},
                        {"traffic.packet_length", std::to_string(c.traffic.packet_length)},
                    });
  if (c.traffic.pattern == Pattern::Hotspot) {
    std::string nodes;
    for (unsigned n : c.traffic.hotspot_nodes) nodes += (nodes.empty() ? "" : ", ") + std::to_string(n);
    v.emplace_back("traffic.hotspot.nodes", "[" + nodes + "]");
    v.emplace_back("traffic.hotspot.fraction", format_number(c.traffic.hotspot_fraction));
  }
  v.emplace_back("traffic.message_packets", std::to_string(c.traffic.message_packets));
  v.emplace_back("traffic.include_self", c.traffic.include_self ? "true" : "false");
  v.emplace_back("traffic.source_queue", std::to_string(c.traffic.source_queue));
  add_fault_values(c, v);
  v.emplace_back("run.warmup", cycles(c.run.warmup_cycles));
  v.emplace_back("run.measure", cycles(c.run.measure_cycles));
  v.emplace_back("run.drain", cycles(c.run.drain_cycles));
  v.emplace_back("run.watchdog", cycles(c.run.watchdog_cycles));
  v.emplace_back("run.seed", std::to_string(c.run.seed));
  return v;
}

std::string to_yaml(const SimConfig& c) {
  YAML::Node root(YAML::NodeType::Map);
  for (const auto& [path, value] : effective_values(c)) {
    // Walk/create the maps along the path; reset() rebinds, plain assignment would copy into.
    YAML::Node cur = root;
    size_t begin = 0;
    for (size_t dot; (dot = path.find('.', begin)) != std::string::npos; begin = dot + 1) {
      YAML::Node next = cur[path.substr(begin, dot - begin)];
      cur.reset(next);
    }
    cur[path.substr(begin)] = YAML::Load(value);
  }
  YAML::Emitter out;
  out.SetSeqFormat(YAML::Flow);
  out << root;
  return std::string(out.c_str()) + "\n";
}

std::vector<KeyInfo> config_keys() {
  SimConfig c;
  Given g;
  return schema_keys(make_schema(c, g));
}

unsigned tree_lines(const SimConfig& c, bool rows) {
  if (c.topology.tree_span == TreeSpan::Line) return 1;
  return rows ? c.topology.board_y : c.topology.board_x;
}

unsigned tree_ports(const SimConfig& c, bool rows) {
  return 2 * (rows ? c.topology.global_x : c.topology.global_y) * tree_lines(c, rows);
}

unsigned tree_count(const SimConfig& c, bool rows) {
  const unsigned lines_total =
      rows ? c.topology.board_y * c.topology.global_y : c.topology.board_x * c.topology.global_x;
  return lines_total / tree_lines(c, rows);
}

unsigned SimConfig::system_x() const { return fabric_topology(topology.kind).size(*this).x; }
unsigned SimConfig::system_y() const { return fabric_topology(topology.kind).size(*this).y; }
unsigned SimConfig::board_count() const { return fabric_topology(topology.kind).size(*this).boards; }

TreeShape tree_shape(unsigned ports, unsigned radix, double taper, bool three_levels, bool spine_per_up_port) {
  TreeShape t;
  t.ports = ports;
  if (ports <= radix) return t;  // one switch
  // A leaf splits its radix into down and up ports in the ratio 1 : taper.
  t.down = static_cast<unsigned>(std::lround(radix / (1.0 + taper)));
  t.down = std::min(std::max(t.down, 1u), radix - 1);
  t.up = radix - t.down;
  t.leaves = (ports + t.down - 1) / t.down;
  // Spines: just enough ports for all the leaves' up links, dealt round-robin (TreeShape).
  const uint64_t uplinks = uint64_t{t.leaves} * t.up;
  t.spines = static_cast<unsigned>((uplinks + radix - 1) / radix);
  t.spine_ports = static_cast<unsigned>((uplinks + t.spines - 1) / t.spines);
  if (spine_per_up_port) {
    // Up link g = leaf l x up + j goes to spine g mod spines = j, its port g div spines = l.
    t.spines = t.up;
    t.spine_ports = t.leaves;
    if (t.leaves > radix) {
      t.valid = false;
      t.problem = std::to_string(ports) + " ports need " + std::to_string(t.leaves) + " leaves, more than a spine's " +
                  std::to_string(radix) + " ports: one spine per up port holds at most " + std::to_string(radix) +
                  " leaves (two levels)";
    }
    return t;
  }
  if (t.up >= t.spines) return t;  // two levels: every leaf reaches every spine
  const std::string need = std::to_string(ports) + " ports need " + std::to_string(t.leaves) + " leaves of " +
                           std::to_string(t.down) + " down ports and " + std::to_string(t.spines) +
                           " spines, more than a leaf's " + std::to_string(t.up) + " up ports can reach";
  t.valid = false;
  if (!three_levels) {
    t.problem = need + " (three-level trees are modelled for topology.kind fat_tree only)";
    return t;
  }
  // Three levels: pods of radix / 2 leaves under their middle switches, the tops above.
  t.pod_leaves = radix / 2;
  t.pods = (t.leaves + t.pod_leaves - 1) / t.pod_leaves;
  for (unsigned q = 0; q < t.pods; ++q) t.middle_total += t.middles(q);
  // Every pod must reach every other through some top: pod q's middles own the up links
  // [first(q), first(q) + pod_size(q) * up) in the round-robin deal over the tops.
  std::vector<std::vector<bool>> top_reaches(t.spines, std::vector<bool>(t.pods, false));
  uint64_t first = 0;
  for (unsigned q = 0; q < t.pods; ++q) {
    const uint64_t n = uint64_t{t.pod_size(q)} * t.up;
    for (uint64_t g = first; g < first + std::min<uint64_t>(n, t.spines); ++g) top_reaches[g % t.spines][q] = true;
    first += n;
  }
  for (unsigned a = 0; a < t.pods; ++a) {
    for (unsigned b = a + 1; b < t.pods; ++b) {
      bool common = false;
      for (unsigned s = 0; s < t.spines && !common; ++s) common = top_reaches[s][a] && top_reaches[s][b];
      if (!common) {
        t.problem = need + ", and a third level of " + std::to_string(t.pods) + " pods of " +
                    std::to_string(t.pod_leaves) + " leaves leaves pods " + std::to_string(a) + " and " +
                    std::to_string(b) + " without a common top switch (more pods than the radix)";
        return t;
      }
    }
  }
  t.valid = true;
  return t;
}

std::string route_mode_name(RouteMode mode) { return name_in(kRouteModes, mode); }
RouteMode route_mode_of(const std::string& name) {
  for (const auto& [n, mode] : kRouteModes)
    if (n == name) return mode;
  throw std::invalid_argument("no board routing rule '" + name + "'");
}
std::string vc_policy_name(VcPolicy policy) { return name_in(kVcPolicies, policy); }
std::string pattern_name(Pattern pattern) { return name_in(kPatterns, pattern); }

std::optional<GridMap> pattern_grid_map(Pattern kind) {
  switch (kind) {
    case Pattern::Transpose: return GridMap::Transpose;
    case Pattern::BitComplement: return GridMap::BitComplement;
    case Pattern::BitReversal: return GridMap::BitReversal;
    case Pattern::Tornado: return GridMap::Tornado;
    case Pattern::Neighbor: return GridMap::Neighbor;
    case Pattern::Uniform:
    case Pattern::Permutation:
    case Pattern::Hotspot:
    case Pattern::AllToAll: break;
  }
  return std::nullopt;
}
std::string tree_span_name(TreeSpan span) { return name_in(kTreeSpans, span); }

}  // namespace hx
