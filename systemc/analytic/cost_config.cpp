#include "cost_config.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <regex>
#include <stdexcept>

namespace hx::cost {

namespace {

constexpr uint64_t kMaxEndpoints = uint64_t{1} << 40;
constexpr unsigned kMaxRadix = 4096;
constexpr unsigned kMaxPorts = 1024;
constexpr unsigned kMaxBoardSide = 1024;
constexpr uint64_t kMaxGlobalSide = uint64_t{1} << 20;
constexpr double kMaxPrice = 1e9;

// ---- the keys of one topology ----------------------------------------------------------------------

// The kinds as written in a config: hyperx is a HammingMesh with 1x1 boards.
enum class KindText { FatTree, Dragonfly, HammingMesh, HyperX, Torus, RailOptimized, RailOnly };
const std::vector<std::pair<std::string, KindText>> kKinds = {
    {"fat_tree", KindText::FatTree},  {"dragonfly", KindText::Dragonfly}, {"hammingmesh", KindText::HammingMesh},
    {"hyperx", KindText::HyperX},     {"torus", KindText::Torus},         {"rail_optimized", KindText::RailOptimized},
    {"rail_only", KindText::RailOnly}};
const std::vector<std::pair<std::string, TreeSpan>> kSpans = {{"line", TreeSpan::Line}, {"board", TreeSpan::Board}};
const std::vector<std::pair<std::string, Cable>> kCables = {{"dac", Cable::Dac}, {"aoc", Cable::Aoc}};

const std::vector<std::string> kCommonKeys = {"name", "kind", "radix", "planes", "paper", "baseline"};
const std::map<KindText, std::vector<std::string>> kKindKeys = {
    {KindText::FatTree, {"leaf_down", "leaf_up"}},
    {KindText::Dragonfly, {"a", "p", "h", "groups"}},
    {KindText::HammingMesh, {"board", "global", "tree_span", "tree_down", "tree_up", "x_cable", "y_cable"}},
    {KindText::HyperX, {"global", "tree_down", "tree_up", "x_cable", "y_cable"}},
    {KindText::Torus, {"board", "global", "cable"}},
    {KindText::RailOptimized, {"hb_domain"}},
    {KindText::RailOnly, {"hb_domain"}},
};
const std::vector<std::string> kPaperKeys = {"cost_musd", "diameter", "switches", "transceivers",
                                             "cost_reduction_percent"};

std::string kind_text_name(KindText k) {
  for (const auto& o : kKinds)
    if (o.second == k) return o.first;
  return "?";
}

std::vector<std::string> keys_of(KindText k) {
  std::vector<std::string> keys = kCommonKeys;
  const auto& extra = kKindKeys.at(k);
  keys.insert(keys.end(), extra.begin(), extra.end());
  return keys;
}

const char* const kRadixExpected = "an even integer in 4..4096";

unsigned read_radix(const Field& f) {
  const auto k = static_cast<unsigned>(f.integer(4, kMaxRadix, kRadixExpected));
  if (k % 2) f.fail(kRadixExpected, "a fat tree's middle levels use radix/2 ports each way");
  return k;
}

// "<a>x<b>" or [a, b].
std::pair<uint64_t, uint64_t> read_size(const Field& f, uint64_t max_side, const std::string& what) {
  const std::string expected = what + " such as '16x16' or [16, 16], each side 1.." + std::to_string(max_side);
  if (f.is_list()) {
    const std::vector<Field> sides = f.elements(expected);
    if (sides.size() != 2) f.fail_found(expected, "a list of " + std::to_string(sides.size()) + " elements");
    return {sides[0].integer(1, max_side, expected), sides[1].integer(1, max_side, expected)};
  }
  static const std::regex re(R"(^\s*([0-9]{1,9})\s*x\s*([0-9]{1,9})\s*$)");
  std::smatch m;
  const std::string s = f.text(expected);
  if (!std::regex_match(s, m, re)) f.fail(expected);
  const uint64_t x = std::stoull(m[1]), y = std::stoull(m[2]);
  if (x < 1 || x > max_side || y < 1 || y > max_side) f.fail(expected);
  return {x, y};
}

// Leaf (or tree leaf) ports: both given or neither; down + up <= radix.
std::pair<unsigned, unsigned> read_taper(const MapFields& m, const std::string& down_key, const std::string& up_key,
                                         unsigned radix) {
  const std::optional<Field> down = m.get(down_key), up = m.get(up_key);
  if (!down && !up) return {0, 0};
  const std::string pair_text = "given together with " + (down ? up_key : down_key);
  if (!down) m.map().fail_missing(down_key, "an integer, " + pair_text);
  if (!up) m.map().fail_missing(up_key, "an integer, " + pair_text);
  const auto d = static_cast<unsigned>(down->integer(1, radix - 1));
  const auto u = static_cast<unsigned>(up->integer(1, radix - d,
                                                   "an integer in 1.." + std::to_string(radix - d) + " (" + down_key +
                                                       " + " + up_key + " <= radix " + std::to_string(radix) + ")"));
  return {d, u};
}

PaperReference read_paper(const Field& f) {
  const MapFields m(f, "a map with keys " + join_names(kPaperKeys));
  m.allow(kPaperKeys);
  PaperReference p;
  if (const auto c = m.get("cost_musd")) {
    p.has_cost = true;
    p.cost_musd = c->number({0, 1e9, true});
  }
  if (const auto d = m.get("diameter")) {
    p.has_diameter = true;
    p.diameter = static_cast<unsigned>(d->integer(1, 1000000));
  }
  if (const auto v = m.get("switches")) {
    p.has_switches = true;
    p.switches = v->integer(0, kMaxEndpoints * 8);
  }
  if (const auto v = m.get("transceivers")) {
    p.has_transceivers = true;
    p.transceivers = v->integer(0, kMaxEndpoints * 64);
  }
  if (const auto v = m.get("cost_reduction_percent")) {
    p.has_cost_reduction = true;
    p.cost_reduction_percent = static_cast<unsigned>(v->integer(0, 100));
  }
  return p;
}

// K of a rail design: it must divide N (cluster.endpoints).
uint64_t read_hb_domain(const MapFields& m, uint64_t endpoints) {
  const std::string expected = "an HB domain size K in 1.." + std::to_string(endpoints) +
                               " that divides cluster.endpoints N = " + std::to_string(endpoints);
  const Field f = m.required("hb_domain", expected);
  const uint64_t k = f.integer(1, endpoints, expected);
  if (endpoints % k) f.fail(expected);
  return k;
}

FatTreeParams read_fat_tree(const MapFields& m, unsigned radix) {
  FatTreeParams p;
  std::tie(p.leaf_down, p.leaf_up) = read_taper(m, "leaf_down", "leaf_up", radix);
  return p;
}

DragonflyParams read_dragonfly(const MapFields& m, unsigned radix, uint64_t endpoints) {
  DragonflyParams p;
  p.a = static_cast<unsigned>(m.required("a", "routers per group, an integer").integer(1, radix));
  p.p = static_cast<unsigned>(m.required("p", "endpoints per router, an integer").integer(1, radix));
  const Field h = m.required("h", "global links per router, an integer");
  const uint64_t used = uint64_t{p.p} + p.a - 1;
  if (used >= radix)
    m.map().fail_found(
        "a Dragonfly whose virtual router (p + a - 1 + h ports) fits a " + std::to_string(radix) + "-port switch",
        "p + a - 1 = " + std::to_string(used) + " ports before any global link");
  p.h = static_cast<unsigned>(h.integer(1, radix - used,
                                        "an integer in 1.." + std::to_string(radix - used) +
                                            " (a virtual router of p + a - 1 + h = " + std::to_string(p.p) + " + " +
                                            std::to_string(p.a - 1) + " + h ports must fit the " +
                                            std::to_string(radix) + "-port switch)"));
  const uint64_t max_groups = uint64_t{p.a} * p.h + 1;
  const std::string groups_expected =
      "a group count in 1.." + std::to_string(max_groups) + " (a group of a = " + std::to_string(p.a) +
      " routers with h = " + std::to_string(p.h) + " global links each reaches at most a h other groups)";
  if (const auto g = m.get("groups")) {
    p.groups = g->integer(1, max_groups, groups_expected);
  } else {
    const uint64_t per_group = uint64_t{p.a} * p.p;
    const uint64_t groups = endpoints / per_group + (endpoints % per_group != 0);
    if (groups > max_groups)
      m.map().fail_found(groups_expected, "ceil(" + std::to_string(endpoints) +
                                              " / (a p = " + std::to_string(per_group) +
                                              ")) = " + std::to_string(groups) + " groups for cluster.endpoints");
  }
  return p;
}

void read_global(const MapFields& m, uint64_t& x, uint64_t& y, bool at_least_two) {
  const auto f = m.get("global");
  if (!f) return;
  std::tie(x, y) = read_size(*f, kMaxGlobalSide, "boards x by y");
  if (at_least_two && x * y < 2) f->fail("at least two boards (x y >= 2)");
}

template <class E>
E choice_or(const MapFields& m, const std::string& key, const std::vector<std::pair<std::string, E>>& options,
            E fallback) {
  const auto f = m.get(key);
  return f ? f->choice(options) : fallback;
}

HxMeshParams read_hxmesh(const MapFields& m, unsigned radix, bool hyperx) {
  HxMeshParams p;
  if (!hyperx) {
    const auto board = read_size(m.required("board", "a board size such as '2x2'"), kMaxBoardSide, "a board a by b");
    p.a = static_cast<unsigned>(board.first);
    p.b = static_cast<unsigned>(board.second);
  }
  read_global(m, p.x, p.y, true);
  if (!hyperx) p.span = choice_or(m, "tree_span", kSpans, TreeSpan::Line);
  std::tie(p.tree_down, p.tree_up) = read_taper(m, "tree_down", "tree_up", radix);
  p.x_cable = choice_or(m, "x_cable", kCables, Cable::Dac);
  p.y_cable = choice_or(m, "y_cable", kCables, Cable::Aoc);
  return p;
}

TorusParams read_torus(const MapFields& m) {
  TorusParams p;
  if (const auto f = m.get("board")) {
    const auto board = read_size(*f, kMaxBoardSide, "a board a by b");
    p.a = static_cast<unsigned>(board.first);
    p.b = static_cast<unsigned>(board.second);
  }
  read_global(m, p.x, p.y, false);
  p.cable = choice_or(m, "cable", kCables, Cable::Aoc);
  return p;
}

CostConfig::Entry read_topology(const Field& f, const CostConfig& c, const std::vector<CostConfig::Entry>& earlier) {
  const MapFields m(f, "a map describing one topology, with keys name, kind and its parameters");
  CostConfig::Entry e;
  const KindText kind =
      m.required("kind", "one of fat_tree, dragonfly, hammingmesh, hyperx, torus, rail_optimized, rail_only")
          .choice(kKinds);
  e.kind_text = kind_text_name(kind);
  m.allow(keys_of(kind), [kind](const std::string& key) -> std::string {
    for (const auto& [other, keys] : kKindKeys)
      if (other != kind && std::find(keys.begin(), keys.end(), key) != keys.end())
        return "'" + key + "' is a key of " + kind_text_name(other) + " topologies, not of " + kind_text_name(kind);
    return "";
  });

  const Field name = m.required("name", "a string");
  e.spec.name = name.text();
  for (size_t i = 0; i < earlier.size(); ++i)
    if (earlier[i].spec.name == e.spec.name)
      name.fail_found("a name used by one topology only", quote_text(e.spec.name) + " again",
                      "first at topologies[" + std::to_string(i) + "]");
  e.spec.target_endpoints = c.endpoints;
  e.spec.radix = c.radix;
  if (const auto r = m.get("radix")) e.spec.radix = read_radix(*r);
  const unsigned k = e.spec.radix;

  switch (kind) {
    case KindText::FatTree: e.spec.params = read_fat_tree(m, k); break;
    case KindText::Dragonfly: e.spec.params = read_dragonfly(m, k, c.endpoints); break;
    case KindText::HammingMesh:
    case KindText::HyperX: e.spec.params = read_hxmesh(m, k, kind == KindText::HyperX); break;
    case KindText::Torus: e.spec.params = read_torus(m); break;
    case KindText::RailOptimized: e.spec.params = RailOptimizedParams{read_hb_domain(m, c.endpoints)}; break;
    case KindText::RailOnly: e.spec.params = RailOnlyParams{read_hb_domain(m, c.endpoints)}; break;
  }

  const unsigned per_plane = ports_per_plane(e.spec.kind());
  if (const auto planes = m.get("planes")) {
    e.spec.planes = static_cast<unsigned>(planes->integer(1, kMaxPorts));
  } else if (c.endpoint_ports % per_plane) {
    m.map().fail_missing("planes", "a plane count: cluster.endpoint_ports " + std::to_string(c.endpoint_ports) +
                                       " is not a multiple of the " + std::to_string(per_plane) + " ports a " +
                                       e.kind_text + " plane takes");
  } else {
    e.spec.planes = c.endpoint_ports / per_plane;
  }
  if (const auto p = m.get("paper")) e.paper = read_paper(*p);
  if (const auto b = m.get("baseline")) {
    std::string names;
    for (size_t i = 0; i < earlier.size(); ++i) {
      if (earlier[i].spec.name == b->text()) e.baseline = static_cast<int>(i);
      names += (i ? ", " : "") + quote_text(earlier[i].spec.name);
    }
    if (e.baseline < 0)
      b->fail("the name of an earlier topology" + (names.empty() ? std::string(" (there is none)") : ": " + names));
  }
  if (e.paper.has_cost_reduction && e.baseline < 0)
    m.map().fail_missing("baseline", "the topology paper.cost_reduction_percent is against");

  // Anything the checks above let through but the model rejects is still this topology's error.
  try {
    evaluate(e.spec, c.prices);
  } catch (const std::invalid_argument& err) {
    m.map().fail("a topology the cost model can build", err.what());
  }
  return e;
}

// ---- the schema -------------------------------------------------------------------------------------

KeySpec make_schema(CostConfig& c) {
  using P = Presence;
  const auto price = [](std::string name, std::string dflt, double& out) {
    return leaf(std::move(name), P::Defaulted, "a number of dollars in [0, 1000000000]", std::move(dflt),
                [&out](const Field& f) {
                  out = f.number({0, kMaxPrice});
                });
  };
  return section(
      "", P::Required,
      {
          leaf("name", P::Optional, "a string", "", [&c](const Field& f) { c.name = f.text(); }),
          leaf("description", P::Defaulted, "a string", "\"\"", [&c](const Field& f) { c.description = f.text(); }),
          section(
              "cluster", P::Required,
              {
                  leaf("endpoints", P::Required, "an integer in 1..2^40", "",
                       [&c](const Field& f) { c.endpoints = f.integer(1, kMaxEndpoints, "an integer in 1..2^40"); }),
                  leaf("radix", P::Defaulted, kRadixExpected, "64", [&c](const Field& f) { c.radix = read_radix(f); }),
                  leaf("endpoint_ports", P::Defaulted, integer_range_text(1, kMaxPorts), "16",
                       [&c](const Field& f) { c.endpoint_ports = static_cast<unsigned>(f.integer(1, kMaxPorts)); }),
              }),
          section("prices", P::Defaulted,
                  {
                      price("switch", "14280", c.prices.switch_usd),
                      price("aoc", "603", c.prices.aoc_usd),
                      price("dac", "272", c.prices.dac_usd),
                      price("transceiver", "0", c.prices.transceiver_usd),
                      price("switch_port", "0", c.prices.switch_port_usd),
                  }),
          leaf("topologies", P::Required, "a non-empty list of topologies", "",
               [&c](const Field& f) {
                 const char* const expected = "a non-empty list of topologies (maps with name, kind, ...)";
                 const std::vector<Field> items = f.elements(expected);
                 if (items.empty()) f.fail_found(expected, "an empty list");
                 c.topologies.clear();
                 for (const Field& item : items) c.topologies.push_back(read_topology(item, c, c.topologies));
               }),
      });
}

CostConfig load(const std::function<void(ConfigReader&)>& parse, const std::string& source,
                const std::vector<std::string>& overrides) {
  CostConfig c;
  ConfigReader reader(make_schema(c), source);
  reader.read_all(parse, overrides);
  c.source = source;
  reader.default_name(c.name);
  return c;
}

}  // namespace

CostConfig load_cost_config(const std::string& path, const std::vector<std::string>& overrides) {
  return load([&path](ConfigReader& r) { r.parse_file(path); }, path, overrides);
}

CostConfig load_cost_config_text(const std::string& yaml_text, const std::string& source_name,
                                 const std::vector<std::string>& overrides) {
  return load([&yaml_text](ConfigReader& r) { r.parse_text(yaml_text); }, source_name, overrides);
}

std::vector<std::string> cost_config_keys() {
  std::vector<std::string> keys = {
      "name",      "description",   "cluster",    "cluster.endpoints", "cluster.radix",      "cluster.endpoint_ports",
      "prices",    "prices.switch", "prices.aoc", "prices.dac",        "prices.transceiver", "prices.switch_port",
      "topologies"};
  std::vector<std::string> element = kCommonKeys;
  for (const auto& kind : kKinds)
    for (const std::string& k : kKindKeys.at(kind.second))
      if (std::find(element.begin(), element.end(), k) == element.end()) element.push_back(k);
  for (const std::string& k : element) keys.push_back("topologies[]." + k);
  for (const std::string& k : kPaperKeys) keys.push_back("topologies[].paper." + k);
  return keys;
}

}  // namespace hx::cost
