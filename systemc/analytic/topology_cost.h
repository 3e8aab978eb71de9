// topology_cost.h: the closed-form cost, diameter and bisection model of cluster topologies
// (HammingMesh paper, Hoefler et al., SC22: sections III-A to III-C, Table II, appendix A-C/A-E).
//
// A topology is described by its parameters (TopologySpec) and evaluated into counts of the
// equipment one network plane needs -- switches, DAC cables, AoC cables -- and for all planes,
// dollars at the given Prices, the diameter in cables (endpoint cables included, as the paper's
// section III-B counts them) and the relative bisection bandwidth: the bandwidth of the minimal
// balanced cut over the injection bandwidth of half the endpoints. Every number comes from the
// formulas in docs/cost.md; nothing is tabulated per design point.
//
// The hardware being modelled:
//  - Fat tree: radix-k switches; leaves with `down` endpoint ports and `up` ports to the level
//    above (tapering when up < down); the levels above the leaves are nonblocking. One plane
//    per accelerator port (16 planes for the paper's accelerator). Endpoints attach by DAC,
//    switches connect by AoC.
//  - Dragonfly: groups of a virtual routers, each with p endpoints, a-1 local links (the group
//    is fully connected) and h global links; floor(k / (p + a - 1 + h)) virtual routers share
//    one physical switch, and local links between two virtual routers of the same switch are
//    internal (no cable). Endpoint and local cables DAC, global cables AoC. One plane per port.
//  - HammingMesh HaxbMesh: x x y boards of a x b accelerators; every accelerator has four ports
//    (N, E, S, W) per plane, and the board's PCB mesh is free. The E/W ports on a board's edges
//    go to fat trees along x, the N/S ports to fat trees along y: one tree per line of
//    accelerators (span Line), or one per row/column of boards (span Board). A tree with at most
//    k ports is one switch. x-dimension endpoint cables are DAC, y-dimension ones AoC, all
//    inter-switch cables AoC. Four ports per plane, so 4 planes for 16 ports. HyperX = Hx1Mesh.
//  - 2D torus of a x b boards (switchless): the board edges connect to the neighbouring boards
//    with wrap-around; one cable per edge port pair. Four ports per plane.
//  - Rail-optimized and rail-only GPU clusters (Wang et al., "How to build low-cost networks for
//    large language models", section 6.5, Table 2): N GPUs in HB domains of K; GPU i of every
//    domain has one NIC on rail i. Rail-optimized joins all N NICs in one full-bisection Clos
//    (a nonblocking fat tree of radix-k switches); rail-only builds one Clos per rail of N/K
//    NICs and no spine, and rails smaller than a switch share it (a switch partitioned into
//    floor(k / (N/K)) rails). Every link, the NIC-to-leaf links included, is optical with two
//    transceivers. Priced per transceiver and per switch port (docs/rail.md).
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <variant>
#include <vector>

namespace hx::cost {

/// Equipment prices in dollars (appendix A-E: Colfax, March 2022, 100 Gb/s parts). The rail
/// designs are priced per transceiver and per switch port instead (Wang et al., section 6.5,
/// footnote: $374 per transceiver, $748 per 400 Gb/s switch port); both default to 0 so that
/// the HammingMesh paper's prices stay as they were.
struct Prices {
  double switch_usd = 14280;   // one switch of the configured radix (Edgecore AS7816-64X)
  double aoc_usd = 603;        // one 20 m active optical cable
  double dac_usd = 272;        // one 5 m passive copper cable
  double transceiver_usd = 0;  // one optical transceiver (two per optical link)
  double switch_port_usd = 0;  // one switch port, on top of switch_usd per switch
};

enum class Cable { Dac, Aoc };
std::string cable_name(Cable c);  // "dac", "aoc"

/// Equipment of one plane, or of all planes.
struct Equipment {
  uint64_t switches = 0;
  uint64_t dac = 0;
  uint64_t aoc = 0;
  uint64_t transceivers = 0;  // pluggable optics of the rail designs (two per link)
  uint64_t switch_ports = 0;  // switches x radix, for a per-port switch price

  void add_cables(Cable type, uint64_t n) { (type == Cable::Dac ? dac : aoc) += n; }
  double cost_usd(const Prices& p) const;
  Equipment times(uint64_t n) const { return {switches * n, dac * n, aoc * n, transceivers * n, switch_ports * n}; }
};

// ---- fat trees (also the trees of a HammingMesh) ---------------------------------------------

/// One fat tree (one plane). A tree for at most `radix` endpoints is one switch. Otherwise:
/// L = ceil(endpoints / down) leaves with U = L * up uplinks; the fewest levels n >= 2 such that
/// L <= k * (k/2)^(n-2); each level strictly between leaves and top has ceil(U / (k/2)) switches
/// (k/2 ports down, k/2 up), the top ceil(U / k); there are U cables between every two levels.
struct FatTree {
  unsigned radix = 0, down = 0, up = 0;
  uint64_t endpoint_ports = 0;           // endpoints the tree can attach: L * down (or the asked
                                         // count, for one switch)
  std::vector<uint64_t> level_switches;  // [0] = leaves, back() = top
  uint64_t uplinks = 0;                  // U: cables between two adjacent levels

  unsigned levels() const { return static_cast<unsigned>(level_switches.size()); }
  uint64_t switches() const;
  uint64_t inter_switch_cables() const { return (levels() - 1) * uplinks; }
  /// Cables from one endpoint to any other through the tree: up to the top and down again.
  unsigned diameter() const { return 2 * levels(); }
  /// Bisection of the tree over the injection of half its endpoints: min(1, up/down); 1 for
  /// one switch (a crossbar).
  double relative_bisection() const;
};

/// Builds a fat tree for `endpoints` endpoints. down = up = radix/2 is the nonblocking tree.
/// Throws std::invalid_argument unless radix >= 4 is even, down >= 1, up >= 1, down + up <= radix
/// and endpoints >= 1.
/// `spine_per_up_port`: a two-level tree has `up` spines, one cable from every leaf to each
/// (TreeShape's topology.tree.spines: per_up_port), not ceil(leaves x up / radix).
FatTree build_fat_tree(uint64_t endpoints, unsigned radix, unsigned down, unsigned up, bool spine_per_up_port = false);

/// Section III-B's diameter of a nonblocking fat tree with q endpoints of radix-k switches,
/// 2 (ceil(log_{k/2}(q / k)) + 1), with log of values <= 1 taken as 0 (one switch level).
/// build_fat_tree(q, k, k/2, k/2).diameter() equals it; kept to check exactly that.
unsigned fat_tree_diameter_formula(uint64_t q, unsigned radix);

// ---- topology descriptions ---------------------------------------------------------------------

struct FatTreeParams {
  unsigned leaf_down = 0;  // 0 with leaf_up 0: nonblocking, radix/2 each
  unsigned leaf_up = 0;
  bool spine_per_up_port = false;  // two levels: one spine per leaf up port (topology.tree.spines)
};

struct DragonflyParams {
  unsigned a = 0;       // virtual routers per group
  unsigned p = 0;       // endpoints per virtual router
  unsigned h = 0;       // global links per virtual router
  uint64_t groups = 0;  // 0: ceil(target endpoints / (a p))
};

enum class TreeSpan { Line, Board };
std::string tree_span_name(TreeSpan s);  // "line", "board"

struct HxMeshParams {
  unsigned a = 1, b = 1;  // board: a accelerators along x, b along y
  uint64_t x = 0, y = 0;  // boards along x and y; 0 and 0: derived from the target endpoints
  TreeSpan span = TreeSpan::Line;
  unsigned tree_down = 0;  // leaf ports of the multi-level trees; 0 and 0: nonblocking
  unsigned tree_up = 0;
  Cable x_cable = Cable::Dac;  // endpoint cables of the x-dimension trees
  Cable y_cable = Cable::Aoc;  // endpoint cables of the y-dimension trees
};

struct TorusParams {
  unsigned a = 2, b = 2;     // board (PCB mesh, free)
  uint64_t x = 0, y = 0;     // boards; 0 and 0: derived from the target endpoints
  Cable cable = Cable::Aoc;  // inter-board cables (Table II prices them as AoC; see docs/cost.md)
};

/// A GPU cluster of HB domains (Wang et al.): N = the target endpoints, in domains of
/// hb_domain GPUs (K, dividing N). The network joins the GPUs' NICs; the HB domains (NVLink /
/// NVSwitch) are not part of the network's cost.
struct RailOptimizedParams {
  uint64_t hb_domain = 1;  // K: only the rail count; one full-bisection Clos joins every NIC
};
struct RailOnlyParams {
  uint64_t hb_domain = 1;  // K: K rails of N/K NICs, each its own Clos, no spine
};

enum class Kind { FatTree, Dragonfly, HammingMesh, Torus, RailOptimized, RailOnly };
std::string kind_name(Kind k);  // "fat_tree", "dragonfly", "hammingmesh", "torus", "rail_optimized", "rail_only"

/// Clos tiers a nonblocking fat tree of radix-k switches needs for n endpoints: 1 for n <= k,
/// else the levels of build_fat_tree (2 up to k^2/2, 3 up to k^3/4, ...).
unsigned clos_tiers(uint64_t n, unsigned radix);

/// Network ports one endpoint spends per plane: 1 for fat trees, Dragonflies and the rail
/// designs (one NIC), 4 (N, E, S, W) for HammingMesh and torus.
unsigned ports_per_plane(Kind k);

struct TopologySpec {
  std::string name;
  uint64_t target_endpoints = 0;  // the cluster size asked for
  unsigned radix = 64;            // switch ports
  unsigned planes = 1;
  std::variant<FatTreeParams, DragonflyParams, HxMeshParams, TorusParams, RailOptimizedParams, RailOnlyParams> params;

  Kind kind() const { return static_cast<Kind>(params.index()); }
};

/// Boards x by y for `endpoints` accelerators on a x b boards: x = ceil(sqrt(n / (a b))),
/// y = ceil(n / (a b x)), so x <= y, x y a b >= n, as square as possible.
std::pair<uint64_t, uint64_t> square_global(uint64_t endpoints, unsigned a, unsigned b);

// ---- results -------------------------------------------------------------------------------------

struct TopologyCost {
  std::string name;
  Kind kind = Kind::FatTree;
  uint64_t target_endpoints = 0;
  uint64_t endpoints = 0;  // what the design attaches (a fat tree's full leaves, g a p, a b x y)
  unsigned radix = 0;
  unsigned planes = 0;
  Equipment per_plane;
  Equipment total;      // per_plane times planes
  double cost_usd = 0;  // total
  double per_plane_cost_usd = 0;
  unsigned diameter = 0;  // cables on the longest minimal path, endpoint cables included

  /// Bisection, per plane, in links (each of the same bandwidth): the minimal balanced cut and
  /// the injection links of half the endpoints (endpoints/2 x ports_per_plane).
  double bisection_cut_links = 0;
  double half_injection_links = 0;
  double relative_bisection = 0;  // min(1, cut / half injection)

  /// The structure, for reports: {"leaves", 32}, {"spines", 16}, {"boards_x", 16}, ...
  std::vector<std::pair<std::string, uint64_t>> structure;
  /// How each number was obtained, one line each ("leaves L = ceil(1024 / 32) = 32").
  std::vector<std::string> derivation;
  /// Remarks a reader should not miss (fewer endpoints than asked, diameter assumptions).
  std::vector<std::string> notes;
};

/// Evaluates one topology. Throws std::invalid_argument for parameters that describe no network
/// (the config loader reports these with file positions before it gets here).
TopologyCost evaluate(const TopologySpec& spec, const Prices& prices);

}  // namespace hx::cost
