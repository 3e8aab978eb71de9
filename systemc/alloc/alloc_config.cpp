#include "alloc_config.h"

#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <sstream>

#include "fabric_topology.h"

namespace hx::alloc {

namespace {

constexpr unsigned kMaxSide = 65536;                // boards along one side
constexpr uint64_t kMaxBoards = uint64_t{1} << 24;  // boards of one system
constexpr unsigned kMaxBoardSide = 64;              // accelerators along one side of a board
constexpr unsigned kMaxJobBoards = 1u << 20;
constexpr unsigned kMaxMixes = 1000000;

const char* const kHeuristicsExpected =
    "'greedy' or heuristics joined by '+' (transpose, aspect, sort, locality, restart), each at most once";

// ---- values ----------------------------------------------------------------------------------------

// "<a>x<b>" or [a, b], each side 1..max_side.
std::pair<unsigned, unsigned> read_size(const Field& f, unsigned max_side, const std::string& what) {
  const std::string expected = what + " such as '16x16' or [16, 16], each side 1.." + std::to_string(max_side);
  uint64_t p = 0, q = 0;
  if (f.is_list()) {
    const std::vector<Field> sides = f.elements(expected);
    if (sides.size() != 2) f.fail_found(expected, "a list of " + std::to_string(sides.size()) + " elements");
    p = sides[0].integer(1, max_side, expected);
    q = sides[1].integer(1, max_side, expected);
  } else {
    const std::string s = f.text(expected);
    const auto xpos = s.find_first_of("xX");
    const auto digits = [](const std::string& t) {
      return !t.empty() && t.size() <= 9 &&
             std::all_of(t.begin(), t.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
    };
    if (xpos == std::string::npos || !digits(s.substr(0, xpos)) || !digits(s.substr(xpos + 1))) f.fail(expected);
    p = std::stoull(s.substr(0, xpos));
    q = std::stoull(s.substr(xpos + 1));
    if (p < 1 || p > max_side || q < 1 || q > max_side) f.fail(expected);
  }
  return {static_cast<unsigned>(p), static_cast<unsigned>(q)};
}

Heuristics read_heuristics(const Field& f, double max_aspect) {
  const std::optional<Heuristics> h = parse_heuristics(f.text(kHeuristicsExpected));
  if (!h) f.fail(kHeuristicsExpected);
  Heuristics out = *h;
  out.max_aspect = max_aspect;
  return out;
}

std::vector<Heuristics> read_heuristics_list(const Field& f, double max_aspect) {
  const std::string expected = "a non-empty list of heuristic sets, each " + std::string(kHeuristicsExpected);
  const std::vector<Field> items = f.elements(expected);
  if (items.empty()) f.fail_found(expected, "an empty list");
  std::vector<Heuristics> out;
  for (const Field& i : items) {
    const Heuristics h = read_heuristics(i, max_aspect);
    if (std::find(out.begin(), out.end(), h) != out.end())
      i.fail_found("each heuristic set once", quote_text(heuristics_name(h)) + " again");
    out.push_back(h);
  }
  return out;
}

std::size_t read_system_ref(const Field& f, const std::vector<SystemConfig>& systems) {
  std::vector<std::string> names;
  for (const SystemConfig& s : systems) names.push_back(s.name);
  const std::string expected = "the name of a system: one of " + join_names(names);
  const std::string name = f.text(expected);
  for (std::size_t i = 0; i < systems.size(); ++i)
    if (systems[i].name == name) return i;
  const std::string close = closest_match(name, names);
  f.fail(expected, close.empty() ? "" : "did you mean '" + close + "'?");
}

// The boards of the smallest system, for range checks of failure counts.
unsigned fewest_boards(const std::vector<SystemConfig>& systems) {
  unsigned n = UINT32_MAX;
  for (const SystemConfig& s : systems) n = std::min(n, s.x * s.y);
  return n;
}

// ---- systems ---------------------------------------------------------------------------------------

const std::vector<std::string> kSystemKeys = {"name", "board", "global", "tree_span", "radix", "taper", "mixes"};
const std::vector<std::pair<std::string, hx::TreeSpan>> kSpans = {{"line", hx::TreeSpan::Line},
                                                                  {"board", hx::TreeSpan::Board}};

SystemConfig read_system(const Field& f, const std::vector<SystemConfig>& earlier) {
  const MapFields m(f, "a map describing one HammingMesh, with keys " + join_names(kSystemKeys), kSystemKeys);
  SystemConfig s;
  const Field name = m.required("name", "a string");
  s.name = name.text();
  for (std::size_t i = 0; i < earlier.size(); ++i)
    if (earlier[i].name == s.name)
      name.fail_found("a name used by one system only", quote_text(s.name) + " again",
                      "first at systems[" + std::to_string(i) + "]");
  std::tie(s.a, s.b) =
      read_size(m.required("board", "a board size such as '2x2'"), kMaxBoardSide, "accelerators a by b on a board");
  const Field global = m.required("global", "the boards such as '16x16'");
  std::tie(s.x, s.y) = read_size(global, kMaxSide, "boards x (columns) by y (rows)");
  if (uint64_t{s.x} * s.y > kMaxBoards) global.fail("at most 2^24 boards in all");
  if (const auto span = m.get("tree_span")) s.span = span->choice(kSpans);
  if (const auto radix = m.get("radix")) {
    const char* const expected = "an even integer in 4..4096";
    s.radix = static_cast<unsigned>(radix->integer(4, 4096, expected));
    if (s.radix % 2) radix->fail(expected);
  }
  if (const auto taper = m.get("taper")) s.taper = taper->number({0, 1, true, false});
  if (const auto mixes = m.get("mixes")) s.mixes = static_cast<unsigned>(mixes->integer(1, kMaxMixes));

  // The boards and trees as the cycle model's hammingmesh builder makes them (board_grid()).
  hx::SimConfig sys;
  sys.topology.kind = "hammingmesh";
  sys.topology.board_x = s.a;
  sys.topology.board_y = s.b;
  sys.topology.global_x = s.x;
  sys.topology.global_y = s.y;
  sys.topology.tree_span = s.span;
  sys.topology.tree_radix = s.radix;
  sys.topology.tree_taper = s.taper;
  s.grid = *hx::fabric_topology(sys.topology.kind).board_grid(sys);
  for (const hx::TreeShape* t : {&s.grid.rows.shape, &s.grid.cols.shape})
    if (!t->valid) f.fail_found("a HammingMesh whose row and column trees have at most two levels", t->problem);
  s.trees = trees_of(s.grid);
  return s;
}

// ---- place -----------------------------------------------------------------------------------------

const char* const kStepExpected = "a job 'UxV' (rows x columns of boards), a size in boards, or 'release ID'";

PlaceStep read_step(const Field& f) {
  PlaceStep st;
  st.origin = f.origin();
  st.path = f.path();
  st.text = f.text(kStepExpected);
  const std::string& s = st.text;
  const auto number = [&f](const std::string& t, unsigned hi) -> unsigned {
    if (t.empty() || t.size() > 9 ||
        !std::all_of(t.begin(), t.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
      f.fail(kStepExpected);
    const uint64_t n = std::stoull(t);
    if (n < 1 || n > hi) f.fail(kStepExpected);
    return static_cast<unsigned>(n);
  };
  if (s.rfind("release ", 0) == 0) {
    st.kind = PlaceStep::Kind::Release;
    st.job = number(s.substr(8), UINT32_MAX - 2);
  } else if (s.find_first_of("xX") != std::string::npos) {
    st.kind = PlaceStep::Kind::Shape;
    std::tie(st.u, st.v) = read_size(f, kMaxSide, "a job 'UxV'");
  } else {
    st.kind = PlaceStep::Kind::Size;
    st.boards = number(s, kMaxJobBoards);
  }
  return st;
}

std::vector<Board> read_failed(const Field& f, const SystemConfig& sys) {
  const std::string expected = "a list of failed boards [column, row], column in 0.." + std::to_string(sys.x - 1) +
                               ", row in 0.." + std::to_string(sys.y - 1);
  std::vector<Board> out;
  for (const Field& e : f.elements(expected)) {
    const std::vector<Field> cr = e.elements(expected);
    if (cr.size() != 2) e.fail(expected);
    const Board b{static_cast<unsigned>(cr[0].integer(0, sys.x - 1, expected)),
                  static_cast<unsigned>(cr[1].integer(0, sys.y - 1, expected))};
    if (std::find(out.begin(), out.end(), b) != out.end())
      e.fail_found("each board at most once", "[" + std::to_string(b.col) + ", " + std::to_string(b.row) + "] again");
    out.push_back(b);
  }
  return out;
}

// ---- the schema -------------------------------------------------------------------------------------

std::string resolve(const Field& f, const std::string& base_dir) {
  namespace fs = std::filesystem;
  const fs::path p(f.text("a file name"));
  if (p.empty()) f.fail("a file name");
  // A path written in the config is relative to the config; one from --set, to the caller.
  if (p.is_absolute() || !f.from_file()) return p.string();
  return (fs::path(base_dir) / p).lexically_normal().string();
}

KeySpec make_schema(AllocConfig& c, const std::string& base_dir) {
  using P = Presence;
  return section(
      "", P::Required,
      {
          leaf("name", P::Optional, "a string", "", [&c](const Field& f) { c.name = f.text(); }),
          leaf("description", P::Defaulted, "a string", "\"\"", [&c](const Field& f) { c.description = f.text(); }),
          leaf("seed", P::Defaulted, "an integer in 0..2^63", "1",
               [&c](const Field& f) { c.seed = f.integer(0, uint64_t{1} << 63, "an integer in 0..2^63"); }),
          leaf("max_aspect", P::Defaulted, "a number in [1, 1024]", "8",
               [&c](const Field& f) {
                 c.max_aspect = f.number({1, 1024});
               }),
          leaf("distribution", P::Optional, "a job-size file ('SIZE WEIGHT' lines)", "",
               [&c, base_dir](const Field& f) { c.distribution = load_job_sizes(resolve(f, base_dir), f.path()); }),
          leaf("systems", P::Required, "a non-empty list of HammingMeshes", "",
               [&c](const Field& f) {
                 const char* const expected = "a non-empty list of HammingMeshes (maps with name, board, global, ...)";
                 const std::vector<Field> items = f.elements(expected);
                 if (items.empty()) f.fail_found(expected, "an empty list");
                 c.systems.clear();
                 for (const Field& i : items) c.systems.push_back(read_system(i, c.systems));
               }),
          section(
              "experiments", P::Optional,
              {
                  leaf("mixes", P::Defaulted, integer_range_text(1, kMaxMixes), "1000",
                       [&c](const Field& f) { c.experiments.mixes = static_cast<unsigned>(f.integer(1, kMaxMixes)); }),
                  leaf("heuristics", P::Defaulted, "a non-empty list of heuristic sets",
                       "[greedy, transpose, transpose+aspect, transpose+aspect+sort, transpose+aspect+sort+locality]",
                       [&c](const Field& f) { c.experiments.heuristics = read_heuristics_list(f, c.max_aspect); }),
                  leaf("failures", P::Defaulted, "a list of failed-board counts", "[0, 10, 20, 30, 40]",
                       [&c](const Field& f) {
                         const unsigned most = fewest_boards(c.systems) - 1;
                         const std::string expected = "a list of distinct failed-board counts, each in 0.." +
                                                      std::to_string(most) +
                                                      " (fewer than the smallest system's boards)";
                         c.experiments.failures.clear();
                         for (const Field& e : f.elements(expected)) {
                           const auto n = static_cast<unsigned>(e.integer(0, most, expected));
                           if (std::find(c.experiments.failures.begin(), c.experiments.failures.end(), n) !=
                               c.experiments.failures.end())
                             e.fail_found(expected, e.found() + " again");
                           c.experiments.failures.push_back(n);
                         }
                       }),
                  leaf("failure_heuristics", P::Defaulted, "a non-empty list of heuristic sets",
                       "[transpose+aspect, transpose+aspect+sort]",
                       [&c](const Field& f) {
                         c.experiments.failure_heuristics = read_heuristics_list(f, c.max_aspect);
                       }),
              }),
          section("place", P::Optional,
                  {
                      leaf("system", P::Required, "the name of a system", "",
                           [&c](const Field& f) { c.place.system = read_system_ref(f, c.systems); }),
                      leaf("heuristics", P::Defaulted, kHeuristicsExpected, "greedy",
                           [&c](const Field& f) { c.place.heuristics = read_heuristics(f, c.max_aspect); }),
                      leaf("failed", P::Defaulted, "a list of failed boards [column, row]", "[]",
                           [&c](const Field& f) { c.place.failed = read_failed(f, c.systems[c.place.system]); }),
                      leaf("jobs", P::Required, "a non-empty list of jobs and releases", "",
                           [&c](const Field& f) {
                             const std::string expected =
                                 "a non-empty list, each element " + std::string(kStepExpected);
                             const std::vector<Field> items = f.elements(expected);
                             if (items.empty()) f.fail_found(expected, "an empty list");
                             c.place.steps.clear();
                             for (const Field& i : items) c.place.steps.push_back(read_step(i));
                           }),
                  }),
          section("timing", P::Optional,
                  {
                      leaf("system", P::Required, "the name of a system", "",
                           [&c](const Field& f) { c.timing.system = read_system_ref(f, c.systems); }),
                      leaf("heuristics", P::Defaulted, "a non-empty list of heuristic sets", "[greedy]",
                           [&c](const Field& f) { c.timing.heuristics = read_heuristics_list(f, c.max_aspect); }),
                      leaf("failures", P::Defaulted, "a failed-board count", "0",
                           [&c](const Field& f) {
                             const SystemConfig& s = c.systems[c.timing.system];
                             c.timing.failures = static_cast<unsigned>(f.integer(0, s.x * s.y - 1));
                           }),
                      leaf("shapes", P::Defaulted, "a list of job shapes 'UxV'", "[]",
                           [&c](const Field& f) {
                             c.timing.shapes.clear();
                             for (const Field& e : f.elements("a list of job shapes 'UxV'")) {
                               const auto uv = read_size(e, kMaxSide, "a job 'UxV' (rows x columns of boards)");
                               c.timing.shapes.push_back({uv.first, uv.second});
                             }
                           }),
                      leaf("fill", P::Defaulted, "true or false", "true",
                           [&c](const Field& f) { c.timing.fill = f.boolean(); }),
                      leaf("repeats", P::Defaulted, integer_range_text(1, 100), "3",
                           [&c](const Field& f) { c.timing.repeats = static_cast<unsigned>(f.integer(1, 100)); }),
                  }),
      });
}

AllocConfig load(const std::function<void(ConfigReader&)>& parse, const std::string& source,
                 const std::vector<std::string>& overrides, const std::string& base_dir) {
  AllocConfig c;
  ConfigReader reader(make_schema(c, base_dir), source);
  reader.read_all(parse, overrides);
  c.source = source;
  reader.default_name(c.name);
  c.experiments.enabled = reader.present("experiments");
  c.place.enabled = reader.present("place");
  c.timing.enabled = reader.present("timing");
  const Field& root = reader.field("");
  if (!c.experiments.enabled && !c.place.enabled && !c.timing.enabled)
    root.fail_missing("experiments", "at least one of the sections experiments, place, timing");
  if ((c.experiments.enabled || (c.timing.enabled && c.timing.fill)) && !reader.present("distribution"))
    root.fail_missing("distribution", "a job-size file, which experiments and timing.fill draw from");
  if (c.experiments.enabled && reader.present("distribution")) {
    // Every run draws only sizes that fit its working boards; at least one must.
    const unsigned smallest = *std::min_element(c.distribution.sizes.begin(), c.distribution.sizes.end());
    unsigned most_failed = 0;
    for (unsigned f : c.experiments.failures) most_failed = std::max(most_failed, f);
    for (const SystemConfig& s : c.systems)
      if (s.x * s.y - most_failed < smallest)
        reader.field("distribution")
            .fail_found("a distribution with a job size that fits every system",
                        "smallest size " + std::to_string(smallest) + " > the " +
                            std::to_string(s.x * s.y - most_failed) + " working boards of " + quote_text(s.name) +
                            " with " + std::to_string(most_failed) + " failed");
  }
  return c;
}

// Splits a line into whitespace-separated tokens with their 1-based columns.
std::vector<std::pair<std::string, int>> tokens(const std::string& line) {
  std::vector<std::pair<std::string, int>> out;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && std::isspace(static_cast<unsigned char>(line[i]))) ++i;
    if (i == line.size()) break;
    const std::size_t start = i;
    while (i < line.size() && !std::isspace(static_cast<unsigned char>(line[i]))) ++i;
    out.emplace_back(line.substr(start, i - start), static_cast<int>(start) + 1);
  }
  return out;
}

}  // namespace

// ---- the distribution file ---------------------------------------------------------------------------

JobSizeDistribution parse_job_sizes(const std::string& text, const std::string& source_name,
                                    const std::string& key_path) {
  JobSizeDistribution d;
  d.source = source_name;
  std::vector<int> first_line;  // where each size was given
  std::istringstream in(text);
  std::string line;
  int number = 0;
  while (std::getline(in, line)) {
    ++number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    const std::string body = line.substr(0, line.find('#'));
    const auto tok = tokens(body);
    if (tok.empty()) continue;
    const Origin at{source_name, number, tok[0].second};
    if (tok.size() != 2)
      throw ConfigError(at, key_path, "", "a line 'SIZE WEIGHT' (a job size in boards and its weight)",
                        quote_text(body.substr(tok[0].second - 1)));
    const std::string& size_text = tok[0].first;
    const std::string size_expected = "a job size in boards, an integer in 1.." + std::to_string(kMaxJobBoards);
    if (size_text.size() > 9 || !std::all_of(size_text.begin(), size_text.end(),
                                             [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
      throw ConfigError(at, key_path, "", size_expected, quote_text(size_text));
    const uint64_t size = std::stoull(size_text);
    if (size < 1 || size > kMaxJobBoards) throw ConfigError(at, key_path, "", size_expected, quote_text(size_text));
    const Origin wat{source_name, number, tok[1].second};
    const std::string& w_text = tok[1].first;
    char* end = nullptr;
    const double w = std::strtod(w_text.c_str(), &end);
    if (end != w_text.c_str() + w_text.size() || !std::isfinite(w) || !(w > 0))
      throw ConfigError(wat, key_path, "", "a positive, finite weight", quote_text(w_text));
    const auto seen = std::find(d.sizes.begin(), d.sizes.end(), static_cast<unsigned>(size));
    if (seen != d.sizes.end())
      throw ConfigError(at, key_path, "duplicate size", "each size on one line only", quote_text(size_text) + " again",
                        "first at line " + std::to_string(first_line[seen - d.sizes.begin()]));
    d.sizes.push_back(static_cast<unsigned>(size));
    d.weights.push_back(w);
    first_line.push_back(number);
  }
  if (d.sizes.empty())
    throw ConfigError(Origin{source_name}, key_path, "no job sizes", "at least one line 'SIZE WEIGHT'",
                      "only comments and blank lines");
  return d;
}

JobSizeDistribution load_job_sizes(const std::string& path, const std::string& key_path) {
  std::ifstream in(path);
  if (!in) throw ConfigError(Origin{path}, key_path, "cannot open: No such file or unreadable", "", "");
  std::ostringstream text;
  text << in.rdbuf();
  return parse_job_sizes(text.str(), path, key_path);
}

// ---- loading -----------------------------------------------------------------------------------------

AllocConfig load_alloc_config(const std::string& path, const std::vector<std::string>& overrides) {
  const std::string dir = std::filesystem::path(path).parent_path().string();
  return load([&path](ConfigReader& r) { r.parse_file(path); }, path, overrides, dir.empty() ? "." : dir);
}

AllocConfig load_alloc_config_text(const std::string& yaml_text, const std::string& source_name,
                                   const std::vector<std::string>& overrides, const std::string& base_dir) {
  return load([&yaml_text](ConfigReader& r) { r.parse_text(yaml_text); }, source_name, overrides, base_dir);
}

std::vector<std::string> alloc_config_keys() {
  std::vector<std::string> keys = {"name", "description", "seed", "max_aspect", "distribution", "systems"};
  for (const std::string& k : kSystemKeys) keys.push_back("systems[]." + k);
  for (const char* k : {"experiments", "experiments.mixes", "experiments.heuristics", "experiments.failures",
                        "experiments.failure_heuristics", "place", "place.system", "place.heuristics", "place.failed",
                        "place.jobs", "timing", "timing.system", "timing.heuristics", "timing.failures",
                        "timing.shapes", "timing.fill", "timing.repeats"})
    keys.push_back(k);
  return keys;
}

}  // namespace hx::alloc
