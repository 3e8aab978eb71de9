// sim_config.h: the configuration of one `hxsim run`, loaded from YAML and validated.
//
// The keys, their types, units, defaults and ranges are documented in docs/config.md; the schema
// in sim_config.cpp is the single definition that both reading and `--set` overrides use. A
// config states physical quantities (GHz, Gb/s, ns); loading derives what the hardware model
// needs (cycles, bits per flit, flits per cycle) and records each derivation in
// SimConfig::derivations, so that a run can report how its numbers were obtained.
//
// Every invalid input throws hx::ConfigError (config_reader.h) naming the file, line, column, key
// path, what was expected and what was found. A SimConfig returned by a load function is valid.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "collective_plan.h"
#include "config_reader.h"
#include "dim_schedule.h"
#include "fault_set.h"
#include "node_grid.h"
#include "router_straps.h"
#include "units.h"

namespace hx {

/// The longest link latency a config may give, in router cycles: a link's latency is a delay line
/// in the model, bounded, and far below this in any real system.
constexpr double kMaxLatencyCycles = 1e6;

// RouteMode, TreeSpan and VcPolicy (the router's straps, codes equal to the RTL's) come from
// core/router_straps.h, shared with the benches.

/// Synthetic traffic pattern: how a source picks each packet's destination (docs/config.md).
/// alltoall is the HammingMesh paper's balanced shift: in round i = 1..p-1 rank j sends to rank
/// (j + i) mod p, traffic.message_packets packets per round, and the rounds repeat. transpose,
/// bit_complement, bit_reversal, tornado and neighbor map the endpoints' grid coordinates
/// (core/node_grid.h, endpoint/traffic_pattern.h).
enum class Pattern : uint8_t {
  Uniform,
  Permutation,
  Transpose,
  BitComplement,
  BitReversal,
  Tornado,
  Neighbor,
  Hotspot,
  AllToAll
};
/// The coordinate map of a pattern, or none for uniform, permutation, hotspot and alltoall,
/// which work on endpoint numbers.
std::optional<GridMap> pattern_grid_map(Pattern kind);

/// Bits a link word adds to the flit payload: 2 bits of flit type and 2 bits of VC
/// (docs/flit-format.md).
constexpr unsigned kFlitTypeBits = 2;
constexpr unsigned kFlitVcBits = 2;

/// What topology.board and topology.global take, for errors.
constexpr const char* kBoardExpected = "a board size such as '4x4' or [4, 4], each side 1..16";
constexpr const char* kGlobalExpected = "a size in boards such as '4x4' or [4, 4], each side 1..256";

struct SimConfig {
  /// A Dragonfly (dragonfly_plan.h): groups of a routers with p endpoints and h global links.
  struct Dragonfly {
    unsigned a = 0, p = 0, h = 0, groups = 0;
    bool ugal = false;  // UGAL-L, else minimal routing
  };

  std::string source;  // the file path, or the source name given to load_config_text
  std::string name;    // defaults to the file name without directory and extension
  std::string description;

  struct Topology {
    std::string kind = "board";  // a registered topology builder (topology/registry.cpp)
    unsigned board_x = 0;        // routers per row (a), 1..16
    unsigned board_y = 0;        // rows (b), 1..16
    unsigned global_x = 1;       // boards per row (x); 1 for kind board
    unsigned global_y = 1;       // boards per column (y); 1 for kind board
    unsigned endpoints = 0;      // fat_tree: endpoints on the leaves; dragonfly: groups * a * p
    unsigned planes = 1;         // hammingmesh: independent router planes per board
    Dragonfly dragonfly;
    TreeSpan tree_span = TreeSpan::Line;
    unsigned tree_radix = 64;             // ports per fat-tree switch
    double tree_taper = 1;                // up/down port ratio of a two-level tree's leaves, (0, 1]
    bool tree_spine_per_up_port = false;  // fat_tree: one spine per leaf up port (TreeShape)
    /// multidim: the platform's dimensions, dim1 first (NPU n's coordinate in dimension K is
    /// (n / (P_1 ... P_{K-1})) mod P_K).
    std::vector<Dimension> dims;
    /// torus3d: the sides X x Y x Z of a 3D torus of accelerator routers (node n at
    /// (n mod X, (n div X) mod Y, n div XY)).
    unsigned side_x = 0, side_y = 0, side_z = 0;
    double pitch_m = 0.5;  // torus3d: the layout's node spacing (a folded torus: topology/torus3d.cpp)
    /// clex (topology/clex_graph.h, docs/clex.md): k^L nodes, cliques of k, L levels.
    struct Clex {
      enum class Capacity : uint8_t { Plain, HopWeighted, Given };
      unsigned k = 0, levels = 0;
      Capacity capacity = Capacity::Plain;
      double node_bps = 0;            // hop_weighted: a node's total bandwidth over all its links
      std::vector<double> level_bps;  // given: one link's bandwidth per level, level 1 first
      double pitch_m = 0.5;           // the layout's node spacing
    } clex;
  } topology;

  /// The round-based model of CLEX routing (`hxsim model`, model/clex_rounds.h): section III's
  /// experiments. Its messages replace the synthetic traffic.
  struct Rounds {
    bool enabled = false;       ///< the config has a rounds section
    unsigned messages = 0;      ///< messages each node sends (and receives)
    bool request = true;        ///< A_1's relays after a request and acknowledgement; else copies
    unsigned first_copies = 1;  ///< offers per message in A_1's phase 2, doubling per phase
    double memory_bits = 0;     ///< the most memory the model may hold
  } rounds;

  /// The fat-tree switches of a HammingMesh (Table III of the paper: 40 ns input plus 40 ns
  /// output buffer latency).
  struct Switch {
    double latency_s = 0;
    unsigned latency_cycles = 0;  // pipeline: a flit may leave this many cycles after arriving
    unsigned buffer_depth = 0;    // flits per VC and input port; 0 until derived ("auto")
    unsigned speedup = 2;         // crossbar rounds per cycle (Table III: 800 Gb/s for 400 Gb/s links)
    /// Flits per VC of each output queue (between the crossbar and the link). The default, 8,
    /// takes a crossbar's `speedup` flits while the link sends one; deep output queues hold
    /// what contends for an output, as Table III's 32 MB per port do.
    unsigned output_depth = 8;
    bool buffer_auto = true;
  } fabric_switch;

  /// routing.algorithm: one of the kind's builder's routing_names(), its default_routing() when
  /// not given. The builder turns it into what its switches use (router.routing on boards,
  /// topology.dragonfly.ugal).
  struct Routing {
    std::string algorithm;
  } routing;

  struct Router {
    double clock_hz = 0;
    RouteMode routing = RouteMode::NorthLast;
    VcPolicy vc_policy = VcPolicy::Keep;
    unsigned vcs = 0;              // 1..4
    unsigned buffer_depth = 0;     // flits per VC, 2..64
    unsigned flit_width_bits = 0;  // payload bits per flit, 80..128
    /// Local ports per accelerator (1..4): the paper's network interfaces per plane; with 4 an
    /// accelerator injects into N, E, S and W at once.
    unsigned local_ports = 1;
    /// router.model switch: a HammingMesh's board routers are C++ switches (the switch model
    /// with the board routing functions) instead of the Verilated RTL planes.
    bool switch_model = false;
  } router;

  /// The accelerator <-> router link, each direction.
  struct Link {
    double bandwidth_bps = 0;     // local: flit_width_bits * clock_hz (one flit per cycle)
    double latency_s = 0;         // as configured: the time, or the cycles times the clock period
    unsigned latency_cycles = 0;  // what the model uses: the time rounded up to whole cycles
    double bit_error_rate = 0;    // global only: errors per bit on a cable (link-level retry)
  } local_link;
  /// The cables between boards and switches and between switches (links.global). Their bandwidth
  /// may differ from the local link's: they then carry global_rate() flits per cycle.
  Link global_link;
  double global_rate() const { return global_link.bandwidth_bps / local_link.bandwidth_bps; }

  struct Traffic {
    Pattern pattern = Pattern::Uniform;
    double injection_rate = 0;            // flits per node per cycle, [0, router.local_ports]
    unsigned packet_length = 0;           // flits, 1..255
    std::vector<unsigned> hotspot_nodes;  // node indices y * board_x + x; empty unless Hotspot
    double hotspot_fraction = 0;          // (0, 1]; 0 unless Hotspot
    unsigned message_packets = 1;         // alltoall: packets to one destination per round
    bool include_self = false;            // uniform: a source may draw itself (BookSim's uniform)
    unsigned source_queue = 0;            // packets a source may queue; 0 = unbounded
  } traffic;

  /// A collective operation on every accelerator instead of synthetic traffic (docs/collectives.md).
  struct Collective {
    bool enabled = false;  ///< the config has a collective section
    CollectiveOp op = CollectiveOp::AllReduce;
    CollectiveAlgorithm algorithm = CollectiveAlgorithm::Ring;
    uint64_t message_bytes = 0;   ///< S per accelerator, NCCL's convention (docs/collectives.md)
    unsigned segment_bytes = 0;   ///< payload of one packet: the pipelining unit
    bool int32 = false;           ///< else fp32
    unsigned root = 0;            ///< broadcast root (an accelerator index)
    uint64_t timeout_cycles = 0;  ///< the longest the collective may take
    /// Concurrent jobs (hammingmesh): each job's size in boards, columns x rows, placed by the
    /// allocator (docs/allocation.md) in this order; empty: one job on every accelerator.
    std::vector<std::pair<unsigned, unsigned>> jobs;
    int only_job = -1;  ///< run only this job (the others' boards stay idle); -1: all
    // algorithm hierarchical (dim_schedule.h): how its chunks cross the dimensions
    ChunkScheduler scheduler = ChunkScheduler::Baseline;
    IntraDimOrder intra = IntraDimOrder::Fifo;
    unsigned chunks = 64;  ///< C (Rashidi et al., section 5.3)
    ThemisThreshold threshold = ThemisThreshold::ChunkPerNpu;
    uint64_t elements() const { return message_bytes / 4; }
    unsigned segment_flits(unsigned flit_bits) const { return segment_bytes * 8 / flit_bits; }
  } collective;

  /// Failed links and switches of the fabric (topology/faults.h): names in the netlist.
  FaultSet faults;

  struct Run {
    uint64_t warmup_cycles = 0;
    uint64_t measure_cycles = 0;
    uint64_t drain_cycles = 0;
    uint64_t watchdog_cycles = 0;
    uint64_t seed = 0;
  } run;

  /// How the derived numbers were obtained, one line each, e.g.
  /// "links.local.latency 1.5 ns at 1 GHz = 2 cycles (rounded up)".
  std::vector<std::string> derivations;

  // Derived quantities, for reports.
  /// Accelerators along x and y of the whole system (board times global size; the endpoints of
  /// a fat tree or Dragonfly are one row) and the boards of RTL routers, as the builder of the
  /// kind computes them from the topology keys (FabricTopology::size).
  unsigned system_x() const;
  unsigned system_y() const;
  unsigned board_count() const;
  /// Accelerators (= routers) of the system; node n sits at (n mod system_x, n div system_x).
  unsigned node_count() const { return system_x() * system_y(); }
  double cycle_s() const { return 1.0 / router.clock_hz; }
  /// Payload plus flit type and VC bits: the width of one link word (132 at the default 128).
  unsigned link_word_bits() const { return router.flit_width_bits + kFlitTypeBits + kFlitVcBits; }
  /// Offered load per node in payload bits per second.
  double injection_bps() const { return traffic.injection_rate * router.flit_width_bits * router.clock_hz; }
};

/// A link of `bps` carries bps / (router.flit_width x router.clock) flits per cycle, which the
/// cycle model takes from 1/16 to 8 (core/link_rate.h); fails `f` otherwise, `hint` saying what
/// to do about it.
void check_link_bandwidth(const Field& f, double bps, const SimConfig& c, const std::string& hint = "");

/// Loads `path`, applies the overrides ("key.path=value", in order; a later one wins) and
/// validates the result. Throws ConfigError.
SimConfig load_config(const std::string& path, const std::vector<std::string>& overrides = {});

/// The same for YAML text; `source_name` stands for the file name in errors and in the default
/// name (its stem). For the built-in default config and for tests.
SimConfig load_config_text(const std::string& yaml_text, const std::string& source_name,
                           const std::vector<std::string>& overrides = {});

/// The built-in config used when no file is given (`make run`): a 4x4 board, north_last, keep,
/// 3 VCs, uniform traffic at 0.2 flits/node/cycle in 4-flit packets, 2000 warmup and 10000
/// measured cycles. Load it with load_config_text(default_config_yaml(), "<built-in>").
const char* default_config_yaml();

/// Every key of the effective config with its value in config syntax, in schema order:
/// {"router.clock", "1 GHz"}, {"traffic.hotspot.nodes", "[0, 5]"}, ... Durations are given in
/// the cycles the model runs, so the list describes exactly what was simulated. Keys without
/// meaning for this config (traffic.hotspot unless the pattern is hotspot) are left out.
std::vector<std::pair<std::string, std::string>> effective_values(const SimConfig& config);

/// effective_values as a YAML document that loads back to the same SimConfig.
std::string to_yaml(const SimConfig& config);

/// Every key of the schema, sections included, in schema order.
std::vector<KeyInfo> config_keys();

/// The shape of one fat tree: one switch (leaves == 0) when its ports fit the radix, else leaves
/// with `down` terminal ports and `up` up ports (the taper: down : up = 1 : taper), and above them
/// either
///   - two levels: `spines` spines, the up links dealt round-robin: link g = l * up + j (leaf l's
///     up port j) goes to spine g mod spines, as that spine's port g div spines. Every leaf
///     reaches every spine (else the tree needs three levels);
///   - three levels (`pods` > 0; only where allowed, see tree_shape): pods of radix / 2 leaves
///     (the last may hold fewer), each with middles(q) middle switches; inside pod q the up links
///     are dealt round-robin over its middles as above (local link g = i * up + j of the pod's
///     leaf i). A middle switch has as many up ports as down ports (the tree is tapered at the
///     leaves only, as the HammingMesh paper's appendix A-C builds it), and all middle up links,
///     pod by pod and middle by middle, are dealt round-robin over the `spines` top switches
///     (link G to top G mod spines, its port G div spines). Switch counts are those of appendix
///     A-C2: ceil(U / (radix / 2)) middles (full pods) and ceil(U / radix) tops, U = leaves x up.
/// Up/down routing needs tables on three levels (a top need not reach a short last pod):
/// topology/tree_routes.h.
struct TreeShape {
  unsigned ports = 0;
  unsigned leaves = 0, down = 0, up = 0, spines = 0;
  unsigned spine_ports = 0;                             // ports a spine (top) uses: ceil(leaves * up / spines)
  unsigned pod_leaves = 0, pods = 0, middle_total = 0;  // three levels only
  bool valid = true;
  std::string problem;  // why not valid
  unsigned levels() const { return leaves == 0 ? 1 : pods == 0 ? 2 : 3; }
  unsigned switches() const { return leaves == 0 ? 1 : leaves + middle_total + spines; }
  /// Three levels: the leaves of pod q, its middle switches, and the down (= up) ports of its
  /// middle m.
  unsigned pod_size(unsigned q) const { return std::min(pod_leaves, leaves - q * pod_leaves); }
  unsigned middles(unsigned q) const { return (pod_size(q) * up + pod_leaves - 1) / pod_leaves; }
  unsigned middle_ports(unsigned q, unsigned m) const {
    const unsigned links = pod_size(q) * up, mq = middles(q);
    return links / mq + (m < links % mq ? 1 : 0);
  }
};
/// `three_levels`: a tree too large for two levels gets a third (the fat_tree system); otherwise
/// it is not valid (a HammingMesh's row and column trees, which the allocator models on two).
/// `spine_per_up_port`: a two-level tree gets one spine per leaf up port, and every leaf one cable
/// to every spine (topology.tree.spines: per_up_port), instead of the fewest spines that hold the
/// leaves' up cables, dealt round-robin: where a leaf's up ports are no multiple of the spines
/// (22 over 9), that deal gives a spine 2 or 3 cables to each leaf, which routing that spreads by
/// the leaf's own ports cannot use evenly (docs/table2.md, "The tapered trees"). Not valid with
/// more leaves than the radix.
TreeShape tree_shape(unsigned ports, unsigned radix, double taper, bool three_levels = false,
                     bool spine_per_up_port = false);
/// A HammingMesh's trees: lines of accelerators one tree serves (1, or a board's rows/columns
/// for span board), the tree's ports (two per line and board: both edges) and the number of
/// trees, for the row trees (rows = true) or the column trees.
unsigned tree_lines(const SimConfig& c, bool rows);
unsigned tree_ports(const SimConfig& c, bool rows);
unsigned tree_count(const SimConfig& c, bool rows);

std::string route_mode_name(RouteMode mode);  // "xy", "north_last", "min_adaptive"
/// The board routing rule of a routing.algorithm name route_mode_name() gives; throws
/// std::invalid_argument for any other.
RouteMode route_mode_of(const std::string& name);
std::string vc_policy_name(VcPolicy policy);  // "keep", "any"
std::string pattern_name(Pattern pattern);    // "uniform", ..., "bit_complement", ...
std::string tree_span_name(TreeSpan span);    // "line", "board"

}  // namespace hx
