#include "topology_cost.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>
#include <tuple>
#include <type_traits>

namespace hx::cost {

namespace {

uint64_t ceil_div(uint64_t n, uint64_t d) { return n / d + (n % d != 0); }
uint64_t pairs(uint64_t n) { return n * (n - (n > 0)) / 2; }  // n choose 2
std::string str(uint64_t v) { return std::to_string(v); }

std::string ratio_text(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", v);
  return buf;
}

[[noreturn]] void invalid(const std::string& what) { throw std::invalid_argument(what); }

void set_totals(TopologyCost& r, const Prices& prices) {
  r.total = r.per_plane.times(r.planes);
  r.per_plane_cost_usd = r.per_plane.cost_usd(prices);
  r.cost_usd = r.total.cost_usd(prices);
  r.relative_bisection = r.half_injection_links > 0 ? std::min(1.0, r.bisection_cut_links / r.half_injection_links) : 0;
}

void endpoint_note(TopologyCost& r, const std::string& why) {
  if (r.endpoints == r.target_endpoints) return;
  const bool more = r.endpoints > r.target_endpoints;
  const uint64_t diff = more ? r.endpoints - r.target_endpoints : r.target_endpoints - r.endpoints;
  r.notes.push_back(str(r.endpoints) + " endpoints, " + str(diff) + (more ? " more" : " fewer") + " than the " +
                    str(r.target_endpoints) + " asked: " + why);
}

std::string levels_text(const FatTree& t) {
  std::string s;
  for (size_t i = 0; i < t.level_switches.size(); ++i) s += (i ? " + " : "") + str(t.level_switches[i]);
  return s;
}

// Derivation lines of one tree, prefixed with `who` ("tree", "x tree").
void describe_tree(const FatTree& t, uint64_t q, const std::string& who, std::vector<std::string>& d) {
  const unsigned k = t.radix;
  if (t.levels() == 1) {
    d.push_back(who + ": " + str(q) + " ports <= radix " + str(k) + ": one switch");
    return;
  }
  const uint64_t leaves = t.level_switches.front();
  d.push_back(who + ": leaves L = ceil(" + str(q) + " / " + str(t.down) + " down) = " + str(leaves) +
              ", uplinks U = L x " + str(t.up) + " = " + str(t.uplinks));
  std::string cap = str(k);
  for (unsigned i = 2; i < t.levels(); ++i) cap += " x " + str(k / 2);
  d.push_back(who + ": " + str(t.levels()) + " levels (L = " + str(leaves) + " <= " + cap + ")" +
              (t.levels() > 2 ? ", middle levels ceil(U / " + str(k / 2) + ") = " + str(t.level_switches[1]) : "") +
              ", top ceil(U / " + str(k) + ") = " + str(t.level_switches.back()) + ": " + levels_text(t) + " = " +
              str(t.switches()) + " switches, " + str(t.levels() - 1) + " x U = " + str(t.inter_switch_cables()) +
              " inter-switch cables");
}

// ---- fat tree ------------------------------------------------------------------------------------

TopologyCost eval_fat_tree(const TopologySpec& s, const FatTreeParams& p) {
  const unsigned k = s.radix;
  const bool nonblocking = p.leaf_down == 0 && p.leaf_up == 0;
  const unsigned down = nonblocking ? k / 2 : p.leaf_down, up = nonblocking ? k / 2 : p.leaf_up;
  const FatTree t = build_fat_tree(s.target_endpoints, k, down, up, p.spine_per_up_port);

  TopologyCost r;
  r.target_endpoints = s.target_endpoints;
  r.endpoints = t.endpoint_ports;
  r.per_plane.switches = t.switches();
  r.per_plane.dac = t.endpoint_ports;  // every leaf port cabled: the cluster has that many endpoints
  r.per_plane.aoc = t.inter_switch_cables();
  r.diameter = t.diameter();
  // Halving the leaves cuts half their uplinks, unless the endpoint links are fewer.
  r.bisection_cut_links = t.levels() == 1 ? r.endpoints / 2.0 : std::min(t.uplinks, t.endpoint_ports) / 2.0;
  r.half_injection_links = r.endpoints / 2.0;

  r.structure = {{"levels", t.levels()}, {"leaf_down", t.down}, {"leaf_up", t.up}};
  for (unsigned i = 0; i < t.levels(); ++i)
    r.structure.emplace_back("level" + str(i + 1) + "_switches", t.level_switches[i]);
  describe_tree(t, s.target_endpoints, "tree", r.derivation);
  r.derivation.push_back("endpoints = DAC = " + (t.levels() == 1
                                                     ? str(t.endpoint_ports)
                                                     : "L x " + str(t.down) + " = " + str(t.endpoint_ports)));
  r.derivation.push_back("diameter = 2 x " + str(t.levels()) + " levels = " + str(r.diameter) + " cables");
  r.derivation.push_back(t.levels() == 1 ? std::string("bisection: one switch, nonblocking")
                                         : "bisection: half the leaves' uplinks U/2 = " + ratio_text(t.uplinks / 2.0) +
                                               " over half the endpoints: min(1, up/down) = min(1, " + str(t.up) + "/" +
                                               str(t.down) + ")");
  endpoint_note(r, "every port of the last leaf is used (the leaves are full)");
  return r;
}

// ---- Dragonfly -------------------------------------------------------------------------------------

TopologyCost eval_dragonfly(const TopologySpec& s, const DragonflyParams& p) {
  const unsigned k = s.radix;
  if (p.a < 1 || p.p < 1 || p.h < 1) invalid("dragonfly: a, p and h must be >= 1");
  const uint64_t vr_radix = uint64_t{p.p} + p.a - 1 + p.h;
  if (vr_radix > k)
    invalid("dragonfly: a virtual router of radix p + a - 1 + h = " + str(vr_radix) + " does not fit a " + str(k) +
            "-port switch");
  const uint64_t vpp = k / vr_radix;  // virtual routers per physical switch
  const uint64_t per_group = uint64_t{p.a} * p.p;
  const uint64_t g = p.groups ? p.groups : ceil_div(s.target_endpoints, per_group);
  const uint64_t max_groups = uint64_t{p.a} * p.h + 1;
  if (g > max_groups)
    invalid("dragonfly: " + str(g) + " groups, but a group of a = " + str(p.a) + " routers with h = " + str(p.h) +
            " global links reaches at most " + str(max_groups - 1) + " others");

  const uint64_t spg = ceil_div(p.a, vpp);                                // physical switches per group
  const uint64_t internal = (p.a / vpp) * pairs(vpp) + pairs(p.a % vpp);  // local links inside a switch
  const uint64_t local_cables = pairs(p.a) - internal;                    // per group

  TopologyCost r;
  r.target_endpoints = s.target_endpoints;
  r.endpoints = g * per_group;
  r.per_plane.switches = g * spg;
  r.per_plane.dac = r.endpoints + g * local_cables;
  r.per_plane.aoc = g > 1 ? g * p.a * p.h / 2 : 0;

  // Diameter in cables. A local hop between two virtual routers of one physical switch is free;
  // the tiers assume the global links are spread so that each switch (or router) reaches what
  // the condition says, which the port counts allow.
  const unsigned local = spg > 1 ? 1 : 0;
  const uint64_t switch_globals = vpp * p.h;  // global ports of one physical switch
  std::string why;
  if (g == 1) {
    r.diameter = 2 + local;
    why = "one group: endpoint, local, endpoint";
  } else if (switch_globals >= (g - 1) * spg) {
    r.diameter = 3;
    why = "each physical switch has " + str(switch_globals) + " >= " + str((g - 1) * spg) +
          " global ports, one to every switch of every other group: endpoint, global, endpoint";
  } else if (switch_globals >= g - 1) {
    r.diameter = 2 + 1 + local;
    why = "each physical switch has " + str(switch_globals) + " >= " + str(g - 1) +
          " global ports, one to every other group, but fewer than the " + str((g - 1) * spg) +
          " switches of the other groups: endpoint, global, local, endpoint";
  } else {
    r.diameter = 2 + 1 + 2 * local;
    why = "a switch's " + str(switch_globals) + " global ports reach fewer than the " + str(g - 1) +
          " other groups: endpoint, local, global, local, endpoint";
  }

  // Bisection: split the groups in halves; the global links are spread evenly over the pairs of
  // groups (a h / (g - 1) per pair). One group: split the routers of the complete graph.
  if (g > 1) {
    const uint64_t g1 = g / 2, g2 = g - g1;
    r.bisection_cut_links = double(g1) * g2 * (double(p.a) * p.h / double(g - 1));
  } else {
    r.bisection_cut_links = double(p.a / 2) * (p.a - p.a / 2);
  }
  r.half_injection_links = r.endpoints / 2.0;

  r.structure = {{"groups", g},
                 {"virtual_router_radix", vr_radix},
                 {"virtual_routers_per_switch", vpp},
                 {"switches_per_group", spg},
                 {"internal_local_links_per_group", internal},
                 {"max_groups", max_groups}};
  r.derivation.push_back("virtual router radix p + a - 1 + h = " + str(p.p) + " + " + str(p.a - 1) + " + " + str(p.h) +
                         " = " + str(vr_radix) + ": floor(" + str(k) + " / " + str(vr_radix) + ") = " + str(vpp) +
                         " per physical switch");
  r.derivation.push_back(
      "groups g = " +
      (p.groups ? str(g) + " (given)" : "ceil(" + str(s.target_endpoints) + " / " + str(per_group) + ") = " + str(g)) +
      ", endpoints g a p = " + str(r.endpoints));
  r.derivation.push_back("switches = g x ceil(a / " + str(vpp) + ") = " + str(g) + " x " + str(spg) + " = " +
                         str(r.per_plane.switches));
  r.derivation.push_back("DAC = endpoints " + str(r.endpoints) + " + g x (a(a-1)/2 = " + str(pairs(p.a)) +
                         " local links - " + str(internal) + " inside a switch) = " + str(r.per_plane.dac));
  r.derivation.push_back("AoC = g a h / 2 = " + str(r.per_plane.aoc));
  r.derivation.push_back("diameter " + str(r.diameter) + ": " + why);
  r.derivation.push_back(g > 1 ? "bisection: " + str(g / 2) + " x " + str(g - g / 2) +
                                     " group pairs x a h / (g - 1) = " + ratio_text(r.bisection_cut_links) +
                                     " global links over " + ratio_text(r.half_injection_links) + " endpoint links"
                               : "bisection: the group's complete graph cut in halves");
  if (g > 1 && g % 2) r.notes.push_back("odd group count: the group split is off balance by one group");
  endpoint_note(r, p.groups ? "the group count is given" : "whole groups");
  return r;
}

// ---- HammingMesh -------------------------------------------------------------------------------------

TopologyCost eval_hxmesh(const TopologySpec& s, const HxMeshParams& p) {
  const unsigned k = s.radix;
  if (p.a < 1 || p.b < 1) invalid("hammingmesh: board sides must be >= 1");
  uint64_t x = p.x, y = p.y;
  const bool derived = x == 0 && y == 0;
  if (derived) std::tie(x, y) = square_global(s.target_endpoints, p.a, p.b);
  if (x < 1 || y < 1 || x * y < 2) invalid("hammingmesh: at least two boards");
  const bool nonblocking = p.tree_down == 0 && p.tree_up == 0;
  const unsigned down = nonblocking ? k / 2 : p.tree_down, up = nonblocking ? k / 2 : p.tree_up;

  const bool line = p.span == TreeSpan::Line;
  // x trees join the E and W edges of the boards of one board row: per accelerator row (line)
  // 2 ports per board, or all b rows of the board row in one tree (board).
  const uint64_t trees_x = line ? y * p.b : y, q_x = line ? 2 * x : 2 * p.b * x;
  const uint64_t trees_y = line ? x * p.a : x, q_y = line ? 2 * y : 2 * p.a * y;
  const FatTree tx = build_fat_tree(q_x, k, down, up);
  const FatTree ty = build_fat_tree(q_y, k, down, up);

  TopologyCost r;
  r.target_endpoints = s.target_endpoints;
  r.endpoints = uint64_t{p.a} * p.b * x * y;
  r.per_plane.switches = trees_x * tx.switches() + trees_y * ty.switches();
  r.per_plane.add_cables(p.x_cable, trees_x * q_x);
  r.per_plane.add_cables(p.y_cable, trees_y * q_y);
  r.per_plane.aoc += trees_x * tx.inter_switch_cables() + trees_y * ty.inter_switch_cables();
  // Section III-B: floor((a-1)/2) hops to the source board's E/W edge, as many on the
  // intermediate board to the destination's column and floor((b-1)/2) to its N/S edge, as many
  // on the destination board. A tree spanning the board (span board) delivers on the
  // destination's line whatever line the packet left from, so the intermediate board needs only
  // the move to the second tree's edge; either tree may come first: fa + fb + max(fa, fb).
  const unsigned fa = (p.a - 1) / 2, fb = (p.b - 1) / 2;
  const unsigned board_hops = line ? 2 * (fa + fb) : fa + fb + std::max(fa, fb);
  r.diameter = board_hops + tx.diameter() + ty.diameter();

  // Bisection: cut between the two halves of the board columns (x >= 2) or rows (y >= 2); each
  // tree of that dimension has half its ports on either side and carries min(1, up/down) of them.
  const double cut_x = x >= 2 ? double(x) * y * p.b * tx.relative_bisection() : std::numeric_limits<double>::infinity();
  const double cut_y = y >= 2 ? double(x) * y * p.a * ty.relative_bisection() : std::numeric_limits<double>::infinity();
  r.bisection_cut_links = std::min(cut_x, cut_y);
  r.half_injection_links = r.endpoints / 2.0 * ports_per_plane(Kind::HammingMesh);

  r.structure = {{"board_a", p.a},
                 {"board_b", p.b},
                 {"boards_x", x},
                 {"boards_y", y},
                 {"trees_x", trees_x},
                 {"tree_x_ports", q_x},
                 {"tree_x_levels", tx.levels()},
                 {"tree_x_switches", tx.switches()},
                 {"trees_y", trees_y},
                 {"tree_y_ports", q_y},
                 {"tree_y_levels", ty.levels()},
                 {"tree_y_switches", ty.switches()}};
  const std::string board = str(p.a) + "x" + str(p.b);
  r.derivation.push_back("boards " + str(x) + " x " + str(y) +
                         (derived ? " (derived: x = ceil(sqrt(" + str(s.target_endpoints) + " / " + str(p.a * p.b) +
                                        ")), y = ceil(N / (a b x)))"
                                  : " (given)") +
                         " of " + board + ": " + str(r.endpoints) + " accelerators");
  r.derivation.push_back("x trees (span " + tree_span_name(p.span) + "): " + str(trees_x) + " trees of " +
                         (line ? "2 x " + str(x) : "2 x " + str(p.b) + " x " + str(x)) + " = " + str(q_x) + " ports");
  describe_tree(tx, q_x, "x tree", r.derivation);
  r.derivation.push_back("y trees (span " + tree_span_name(p.span) + "): " + str(trees_y) + " trees of " +
                         (line ? "2 x " + str(y) : "2 x " + str(p.a) + " x " + str(y)) + " = " + str(q_y) + " ports");
  describe_tree(ty, q_y, "y tree", r.derivation);
  r.derivation.push_back("switches = " + str(trees_x) + " x " + str(tx.switches()) + " + " + str(trees_y) + " x " +
                         str(ty.switches()) + " = " + str(r.per_plane.switches));
  r.derivation.push_back("endpoint cables: x " + str(trees_x * q_x) + " " + cable_name(p.x_cable) + ", y " +
                         str(trees_y * q_y) + " " + cable_name(p.y_cable) + "; inter-switch AoC " +
                         str(trees_x * tx.inter_switch_cables()) + " + " + str(trees_y * ty.inter_switch_cables()));
  r.derivation.push_back(std::string("diameter = ") +
                         (line ? "2 (floor((a-1)/2) + floor((b-1)/2))"
                               : "floor((a-1)/2) + floor((b-1)/2) + max(floor((a-1)/2), floor((b-1)/2)) (span board)") +
                         " = " + str(board_hops) + " + x tree " + str(tx.diameter()) + " + y tree " +
                         str(ty.diameter()) + " = " + str(r.diameter));
  r.derivation.push_back("bisection: min(x y b t_x, x y a t_y) = " + ratio_text(r.bisection_cut_links) +
                         " links over 4 x endpoints / 2 = " + ratio_text(r.half_injection_links) +
                         (p.a == p.b && tx.relative_bisection() == 1 && ty.relative_bisection() == 1
                              ? " (= 1/(2a) for square boards)"
                              : ""));
  if ((x >= 2 && x % 2) || (y >= 2 && y % 2))
    r.notes.push_back("odd board count: the bisection halves are off by a board line");
  endpoint_note(r, "a b x y accelerators");
  return r;
}

// ---- 2D torus -----------------------------------------------------------------------------------

TopologyCost eval_torus(const TopologySpec& s, const TorusParams& p) {
  if (p.a < 1 || p.b < 1) invalid("torus: board sides must be >= 1");
  uint64_t x = p.x, y = p.y;
  const bool derived = x == 0 && y == 0;
  if (derived) std::tie(x, y) = square_global(s.target_endpoints, p.a, p.b);
  if (x < 1 || y < 1) invalid("torus: at least one board along each dimension");
  const uint64_t dim_x = p.a * x, dim_y = p.b * y;  // accelerators along each dimension

  TopologyCost r;
  r.target_endpoints = s.target_endpoints;
  r.endpoints = dim_x * dim_y;
  // Each board's b east ports cable to the next board's west ports (wrapping around), and its a
  // north ports to the next board's south ports.
  const uint64_t cables_x = x * y * p.b, cables_y = x * y * p.a;
  r.per_plane.add_cables(p.cable, cables_x + cables_y);
  r.diameter = static_cast<unsigned>(dim_x / 2 + dim_y / 2);
  const double cut_x = dim_x >= 2 ? 2.0 * dim_y : std::numeric_limits<double>::infinity();
  const double cut_y = dim_y >= 2 ? 2.0 * dim_x : std::numeric_limits<double>::infinity();
  r.bisection_cut_links = std::min(cut_x, cut_y);
  if (!std::isfinite(r.bisection_cut_links)) r.bisection_cut_links = 0;
  r.half_injection_links = r.endpoints / 2.0 * ports_per_plane(Kind::Torus);

  r.structure = {{"board_a", p.a}, {"board_b", p.b},   {"boards_x", x},
                 {"boards_y", y},  {"torus_x", dim_x}, {"torus_y", dim_y}};
  r.derivation.push_back("boards " + str(x) + " x " + str(y) + (derived ? " (derived)" : " (given)") + " of " +
                         str(p.a) + "x" + str(p.b) + ": a " + str(dim_x) + " x " + str(dim_y) + " torus");
  r.derivation.push_back("cables = x y (b + a) = " + str(cables_x) + " + " + str(cables_y) + " = " +
                         str(cables_x + cables_y) + " " + cable_name(p.cable) + ", no switches");
  r.derivation.push_back("diameter = floor(" + str(dim_x) + "/2) + floor(" + str(dim_y) + "/2) = " + str(r.diameter));
  r.derivation.push_back("bisection: cut one ring dimension twice per ring, 2 min(" + str(dim_x) + ", " + str(dim_y) +
                         ") = " + ratio_text(r.bisection_cut_links) +
                         " links over 4 x endpoints / 2 = " + ratio_text(r.half_injection_links));
  endpoint_note(r, "a b x y accelerators");
  return r;
}

// ---- rail-optimized and rail-only GPU clusters (Wang et al., section 6.5) -------------------------

// N and K as the rail designs need them: K divides N.
uint64_t rail_count(const TopologySpec& s, uint64_t k_domain, const char* kind) {
  if (k_domain < 1 || s.target_endpoints % k_domain)
    invalid(std::string(kind) + ": the HB domain size K = " + str(k_domain) +
            " must divide N = " + str(s.target_endpoints));
  return k_domain;
}

// Two transceivers per link, every link optical (the NIC-to-leaf links included).
void rail_links(TopologyCost& r, uint64_t nic_links, uint64_t switch_links) {
  r.per_plane.transceivers = 2 * (nic_links + switch_links);
  r.derivation.push_back("links = " + str(nic_links) + " NIC-to-leaf + " + str(switch_links) +
                         " between switches; transceivers = 2 x links = " + str(r.per_plane.transceivers));
}

TopologyCost eval_rail_optimized(const TopologySpec& s, const RailOptimizedParams& p) {
  const uint64_t n = s.target_endpoints, rails = rail_count(s, p.hb_domain, "rail_optimized");
  const unsigned k = s.radix;
  const FatTree t = build_fat_tree(n, k, k / 2, k / 2);

  TopologyCost r;
  r.target_endpoints = n;
  r.endpoints = n;
  r.per_plane.switches = t.switches();
  r.diameter = t.diameter();
  r.bisection_cut_links = t.levels() == 1 ? n / 2.0 : std::min(t.uplinks, n) / 2.0;
  r.half_injection_links = n / 2.0;
  r.structure = {{"hb_domain", rails},  {"rails", rails},  {"gpus_per_rail", n / rails},
                 {"tiers", t.levels()}, {"clos_count", 1}, {"switches_per_clos", t.switches()}};
  r.derivation.push_back("one full-bisection Clos of all N = " + str(n) + " NICs (" + str(rails) +
                         " rails of the same switches, joined by the spine)");
  describe_tree(t, n, "Clos", r.derivation);
  r.derivation.push_back("switches = " + str(t.switches()) + " (= (2 x " + str(t.levels()) + " tiers - 1) N/k = " +
                         ratio_text((2.0 * t.levels() - 1) * double(n) / k) + " when k/2 divides N)");
  rail_links(r, n, t.inter_switch_cables());
  return r;
}

TopologyCost eval_rail_only(const TopologySpec& s, const RailOnlyParams& p) {
  const uint64_t n = s.target_endpoints, rails = rail_count(s, p.hb_domain, "rail_only");
  const uint64_t per_rail = n / rails;
  const unsigned k = s.radix;

  TopologyCost r;
  r.target_endpoints = n;
  r.endpoints = n;
  r.half_injection_links = n / 2.0;
  r.derivation.push_back(str(rails) + " rails of N/K = " + str(n) + " / " + str(rails) + " = " + str(per_rail) +
                         " NICs, one Clos each, no spine");
  if (per_rail <= k) {
    // One switch tier: a switch holds floor(k / per_rail) whole rails, kept apart by its
    // configuration (the paper's N/k switches for one tier).
    const uint64_t rails_per_switch = k / per_rail;
    r.per_plane.switches = ceil_div(rails, rails_per_switch);
    r.diameter = 2;
    r.bisection_cut_links = double(rails) * (per_rail / 2);
    r.structure = {{"hb_domain", rails},
                   {"rails", rails},
                   {"gpus_per_rail", per_rail},
                   {"tiers", 1},
                   {"rails_per_switch", rails_per_switch}};
    r.derivation.push_back("a rail fits one " + str(k) + "-port switch: floor(" + str(k) + " / " + str(per_rail) +
                           ") = " + str(rails_per_switch) + " rails per switch, ceil(" + str(rails) + " / " +
                           str(rails_per_switch) + ") = " + str(r.per_plane.switches) +
                           " switches (= N/k = " + ratio_text(double(n) / k) + " when the rails fill the switches)");
    rail_links(r, n, 0);
  } else {
    const FatTree t = build_fat_tree(per_rail, k, k / 2, k / 2);
    r.per_plane.switches = rails * t.switches();
    r.diameter = t.diameter();
    r.bisection_cut_links = double(rails) * std::min(t.uplinks, per_rail) / 2.0;
    r.structure = {{"hb_domain", rails},  {"rails", rails},      {"gpus_per_rail", per_rail},
                   {"tiers", t.levels()}, {"clos_count", rails}, {"switches_per_clos", t.switches()}};
    describe_tree(t, per_rail, "rail Clos", r.derivation);
    r.derivation.push_back("switches = " + str(rails) + " rails x " + str(t.switches()) + " = " +
                           str(r.per_plane.switches) + " (= (2 x " + str(t.levels()) + " tiers - 1) N/k = " +
                           ratio_text((2.0 * t.levels() - 1) * double(n) / k) + " when k/2 divides N/K)");
    rail_links(r, n, rails * t.inter_switch_cables());
  }
  r.notes.push_back(
      "rail-only: the network joins GPUs of one rail only; traffic between rails is forwarded "
      "through the HB domain, which this cost leaves out; the bisection is that of halving every rail");
  return r;
}

}  // namespace

unsigned clos_tiers(uint64_t n, unsigned radix) { return build_fat_tree(n, radix, radix / 2, radix / 2).levels(); }

std::string cable_name(Cable c) { return c == Cable::Dac ? "dac" : "aoc"; }
std::string tree_span_name(TreeSpan s) { return s == TreeSpan::Line ? "line" : "board"; }

std::string kind_name(Kind k) {
  switch (k) {
    case Kind::FatTree: return "fat_tree";
    case Kind::Dragonfly: return "dragonfly";
    case Kind::HammingMesh: return "hammingmesh";
    case Kind::Torus: return "torus";
    case Kind::RailOptimized: return "rail_optimized";
    case Kind::RailOnly: return "rail_only";
  }
  return "?";
}

unsigned ports_per_plane(Kind k) { return k == Kind::HammingMesh || k == Kind::Torus ? 4 : 1; }

double Equipment::cost_usd(const Prices& p) const {
  return double(switches) * p.switch_usd + double(dac) * p.dac_usd + double(aoc) * p.aoc_usd +
         double(transceivers) * p.transceiver_usd + double(switch_ports) * p.switch_port_usd;
}

uint64_t FatTree::switches() const {
  uint64_t n = 0;
  for (uint64_t s : level_switches) n += s;
  return n;
}

double FatTree::relative_bisection() const { return levels() == 1 ? 1.0 : std::min(1.0, double(up) / down); }

FatTree build_fat_tree(uint64_t endpoints, unsigned radix, unsigned down, unsigned up, bool spine_per_up_port) {
  if (radix < 4 || radix % 2) invalid("fat tree: the radix must be even and >= 4, not " + str(radix));
  if (down < 1 || up < 1 || uint64_t{down} + up > radix)
    invalid("fat tree: leaf ports down " + str(down) + " + up " + str(up) + " must be >= 1 each and fit radix " +
            str(radix));
  if (endpoints < 1) invalid("fat tree: no endpoints");
  FatTree t;
  t.radix = radix;
  t.down = down;
  t.up = up;
  if (endpoints <= radix) {
    t.endpoint_ports = endpoints;
    t.level_switches = {1};
    return t;
  }
  const uint64_t leaves = ceil_div(endpoints, down);
  t.endpoint_ports = leaves * down;
  t.uplinks = leaves * up;
  const uint64_t half = radix / 2;
  // Leaves a tree of n levels holds: k (k/2)^(n-2). No overflow: leaves < 2^64 / 2.
  unsigned levels = 2;
  for (uint64_t capacity = radix; leaves > capacity; capacity *= half) ++levels;
  t.level_switches.assign(levels, ceil_div(t.uplinks, half));
  t.level_switches.front() = leaves;
  t.level_switches.back() = ceil_div(t.uplinks, radix);
  if (spine_per_up_port) {
    if (levels != 2) invalid("fat tree: one spine per up port needs two levels, not " + str(levels));
    t.level_switches.back() = up;
  }
  return t;
}

unsigned fat_tree_diameter_formula(uint64_t q, unsigned radix) {
  // ceil(log_{k/2}(q/k)) is the smallest m >= 0 with k (k/2)^m >= q: exact in integers.
  unsigned m = 0;
  for (uint64_t reach = radix; reach < q; reach *= radix / 2) ++m;
  return 2 * (m + 1);
}

std::pair<uint64_t, uint64_t> square_global(uint64_t endpoints, unsigned a, unsigned b) {
  const uint64_t boards = ceil_div(endpoints, uint64_t{a} * b);
  uint64_t x = static_cast<uint64_t>(std::sqrt(static_cast<double>(boards)));
  while (x * x < boards) ++x;  // ceil(sqrt), exact
  while (x > 1 && (x - 1) * (x - 1) >= boards) --x;
  return {x, ceil_div(boards, x)};
}

TopologyCost evaluate(const TopologySpec& spec, const Prices& prices) {
  if (spec.radix < 4 || spec.radix % 2) invalid("radix must be even and >= 4, not " + str(spec.radix));
  if (spec.planes < 1) invalid("at least one plane");
  if (spec.target_endpoints < 1) invalid("no endpoints");
  TopologyCost r = std::visit(
      [&spec](const auto& p) -> TopologyCost {
        using P = std::decay_t<decltype(p)>;
        if constexpr (std::is_same_v<P, FatTreeParams>) return eval_fat_tree(spec, p);
        if constexpr (std::is_same_v<P, DragonflyParams>) return eval_dragonfly(spec, p);
        if constexpr (std::is_same_v<P, HxMeshParams>) return eval_hxmesh(spec, p);
        if constexpr (std::is_same_v<P, TorusParams>) return eval_torus(spec, p);
        if constexpr (std::is_same_v<P, RailOptimizedParams>) return eval_rail_optimized(spec, p);
        if constexpr (std::is_same_v<P, RailOnlyParams>) return eval_rail_only(spec, p);
      },
      spec.params);
  r.name = spec.name;
  r.kind = spec.kind();
  r.target_endpoints = spec.target_endpoints;
  r.radix = spec.radix;
  r.planes = spec.planes;
  r.per_plane.switch_ports = r.per_plane.switches * spec.radix;
  set_totals(r, prices);
  r.derivation.push_back("per plane " + str(r.per_plane.switches) + " switches, " + str(r.per_plane.dac) + " DAC, " +
                         str(r.per_plane.aoc) + " AoC" +
                         (r.per_plane.transceivers ? ", " + str(r.per_plane.transceivers) + " transceivers" : "") +
                         "; x " + str(r.planes) + " planes = " + str(r.total.switches) + " switches, " +
                         str(r.total.dac) + " DAC, " + str(r.total.aoc) + " AoC" +
                         (r.total.transceivers ? ", " + str(r.total.transceivers) + " transceivers" : ""));
  return r;
}

}  // namespace hx::cost
