// config_reader.h: a validating reader of YAML configs against a declarative schema.
//
// The schema is a tree of KeySpecs: sections (maps of keys) and leaves (values). ConfigReader
// parses a file or a string, applies `--set key.path=value` overrides to the YAML tree, then walks
// the schema in declaration order. For every map it rejects non-scalar keys, duplicate keys and
// unknown keys; for every key it finds the value, or a default, or reports it missing; for every
// leaf it calls the leaf's handler with a Field, whose typed accessors (integer, number, choice,
// frequency, ...) either return a valid value or throw a ConfigError. Nothing here knows the
// simulator's keys: sim_config.cpp declares them.
//
// Every error is a ConfigError that names where the bad value came from: file:line:column for
// values in a file (yaml-cpp marks, converted to 1-based), or the whole `--set ...` argument for
// values from an override (and for everything nested inside such a value).
#pragma once

#include <yaml-cpp/yaml.h>

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "units.h"

namespace hx {

/// Where a value came from. line and column are 1-based; 0 means "no position": the origin is
/// then a label only, e.g. "--set router.vcs=5", "<default>", or a file as a whole.
struct Origin {
  std::string file;
  int line = 0;
  int column = 0;
  /// "file:line:column", or just "file" without a position.
  std::string str() const;
};

/// Any bad config input: a file that cannot be read, YAML syntax, or a value the schema rejects.
/// what() is
///   <file>:<line>:<col>: <key.path>: [<problem>, ]expected <expected>, found <found>[ (<hint>)]
/// where ":<line>:<col>" is left out for origins without a position (overrides), "<key.path>: "
/// for errors not tied to a key (syntax), and "expected ..., found ..." for problems that have
/// no such pair (a file that cannot be opened). Examples:
///   t.yaml:7:9: router.vcs: expected an integer in 1..8, found '9'
///   t.yaml:3:3: traffic.injecton_rate: unknown key, expected one of pattern, injection_rate,
///     packet_length, hotspot, found 'injecton_rate' (did you mean 'injection_rate'?)
///   --set router.vcs=9: router.vcs: expected an integer in 1..8, found '9'
///   missing.yaml: cannot open: No such file or directory
class ConfigError : public std::runtime_error {
 public:
  ConfigError(Origin origin, std::string key_path, std::string problem, std::string expected, std::string found,
              std::string hint = {});

  const Origin& origin() const { return origin_; }
  const std::string& file() const { return origin_.file; }
  int line() const { return origin_.line; }                  // 1-based, 0 if none
  int column() const { return origin_.column; }              // 1-based, 0 if none
  const std::string& key_path() const { return key_path_; }  // "traffic.hotspot.nodes[2]", "" if none
  const std::string& problem() const { return problem_; }    // "unknown key", "duplicate key", ... or ""
  const std::string& expected() const { return expected_; }
  const std::string& found() const { return found_; }
  const std::string& hint() const { return hint_; }  // "did you mean 'injection_rate'?" or ""

 private:
  Origin origin_;
  std::string key_path_, problem_, expected_, found_, hint_;
};

/// A closed or open interval of real numbers, printed as "[0, 1]", "(0, 1]".
struct Interval {
  double lo, hi;
  bool lo_open = false, hi_open = false;
  bool contains(double v) const;
  std::string str() const;
};

/// "an integer in 1..4".
std::string integer_range_text(uint64_t lo, uint64_t hi);

/// The candidate closest to `word` if it is plausibly a typo of it: a case-insensitive edit
/// distance of at most max(1, length/3), or one name contained in the other ("rate" ->
/// "injection_rate"). "" if none is close.
std::string closest_match(const std::string& word, const std::vector<std::string>& candidates);

/// A value as an error message shows it: quoted, cut to one line of at most 60 characters ("...").
std::string quote_text(const std::string& s);

/// "a, b, c".
std::string join_names(const std::vector<std::string>& parts, const char* sep = ", ");

/// The default name of a config read from `source`: the file name without its directories and
/// extension, and without '<' and '>' ("<string>" -> "string").
std::string stem(const std::string& source);

/// One value of the config tree at a key path, as a leaf handler sees it. Each accessor returns a
/// value of the requested type and range or throws a ConfigError at this field.
class Field {
 public:
  /// from_file: the origin was computed from `node`'s yaml-cpp mark, so children and list
  /// elements get their own positions; otherwise they inherit `origin` (an override, a default).
  /// absent: the key is not in the input at all (a section read only for its defaults).
  Field(std::string path, const YAML::Node& node, Origin origin, bool from_file, bool absent = false);

  const std::string& path() const { return path_; }
  const YAML::Node& node() const { return node_; }
  const Origin& origin() const { return origin_; }
  bool from_file() const { return from_file_; }
  bool absent() const { return absent_; }

  bool is_scalar() const { return node_.IsScalar(); }
  bool is_list() const { return node_.IsSequence(); }
  bool is_map() const { return node_.IsMap(); }
  /// A scalar whose text is a decimal number ("0.1", "5", "1e-3"), quoted or not; number() and
  /// integer() accept only unquoted ones.
  bool is_number() const;

  /// How the value looks in an error message: "'5'", "a map", "a list", "an empty value".
  std::string found() const;
  [[noreturn]] void fail(const std::string& expected, const std::string& hint = {}) const;
  [[noreturn]] void fail_found(const std::string& expected, const std::string& found,
                               const std::string& hint = {}) const;
  /// For a section: key `name` is missing. The error is at this map, its path is the missing key's.
  [[noreturn]] void fail_missing(const std::string& name, const std::string& expected) const;

  /// Any scalar, quoted or not.
  std::string text(const std::string& expected = "a string") const;
  /// `true` or `false`.
  bool boolean() const;
  /// A plain scalar holding a whole decimal number in [lo, hi]; "2.5" and "4.0" are not integers.
  /// `expected` replaces the default "an integer in lo..hi" in the error.
  uint64_t integer(uint64_t lo, uint64_t hi, const std::string& expected = {}) const;
  /// A plain scalar holding a decimal number in `range`.
  double number(const Interval& range) const;
  /// One of the named options; the error lists them all.
  template <class E>
  E choice(const std::vector<std::pair<std::string, E>>& options) const;
  /// Physical quantities (units.h), quoted or not. Range checks are the caller's.
  double frequency() const;
  double bandwidth() const;
  double time() const;
  double data_size() const;
  double compute_rate() const;  // FLOP/s
  double length() const;
  Duration duration() const;
  /// The elements of a list, at paths "<path>[i]"; `expected` describes the list for the error
  /// if this value is not one.
  std::vector<Field> elements(const std::string& expected) const;

 private:
  template <class T>
  T quantity(const char* expected, T (*parse)(const std::string&)) const;
  std::string choice_name(const std::vector<std::string>& names) const;

  std::string path_;
  YAML::Node node_;
  Origin origin_;
  bool from_file_;
  bool absent_;
};

/// A map inside a list element, which the reader's schema does not descend into, checked as the
/// reader checks its sections: scalar keys, each at most once, only known ones (with a
/// did-you-mean hint). Its values become Fields with their own file positions.
class MapFields {
 public:
  /// Any keys; allow() names the known ones.
  MapFields(const Field& map, const std::string& expected);
  /// Only the keys in `allowed`, each checked as it is read.
  MapFields(const Field& map, const std::string& expected, const std::vector<std::string>& allowed);

  /// Rejects any key not in `allowed`; `elsewhere` names the owner of a key that belongs to
  /// another kind of map, for the hint.
  void allow(const std::vector<std::string>& allowed,
             const std::function<std::string(const std::string&)>& elsewhere = nullptr) const;

  std::optional<Field> get(const std::string& name) const;
  Field required(const std::string& name, const std::string& expected) const;
  const Field& map() const { return map_; }

 private:
  struct Entry {
    std::string name;
    YAML::Node key, value;
  };

  void read(const std::string& expected, const std::vector<std::string>* allowed);
  void check_allowed(const std::string& name, const YAML::Node& key, const std::vector<std::string>& allowed,
                     const std::function<std::string(const std::string&)>& elsewhere) const;
  Origin origin_of(const YAML::Node& n) const;
  std::string child(const std::string& name) const { return map_.path() + "." + name; }

  Field map_;
  std::vector<Entry> entries_;
};

/// How a key may be missing from the input.
enum class Presence {
  Required,   // missing -> ConfigError at the enclosing map
  Defaulted,  // missing -> a leaf reads its default_yaml; a section reads an empty map
  Optional,   // missing -> nothing is read; the caller derives a value (see ConfigReader::present)
};

/// Refuses two kinds of text on which yaml-cpp 0.7 does not return, looping and allocating
/// (both found by `make fuzz`, docs/reliability.md): what YAML 1.2 does not allow in a stream
/// (section 5.1: the C0 control characters but tab, line feed and carriage return, and DEL), and
/// a ',' where a node begins outside a flow collection (at a line's start, after "- ", "? ",
/// ": " or an anchor or tag; YAML never allows it there: ',' cannot start a plain scalar).
/// Quoted scalars, block scalars (| and >) and comments are skipped. One valid form is refused
/// with the rest: a plain scalar continued on a line that starts with ',' (quote such a text).
/// Every text hxsim hands to yaml-cpp passes here first. A ConfigError says what was found and,
/// unless `origin` has a position of its own, its line and column in `text`.
///
/// Pattern checks chase yaml-cpp's defects one at a time, and `make fuzz` found six more texts
/// they miss (tests/fuzz/regressions/yaml_hang_*). So a text that passes them is then parsed once
/// in a child process, with a time limit (yaml_parse_limit_seconds) and a memory limit (1 GiB more
/// than this process maps): only a text whose parse ends there, read or refused, is parsed here.
/// A text that timed out is remembered, so a second check of it fails at once.
void check_yaml_text(const std::string& text, const Origin& origin, const std::string& key_path = "");

/// The time limit of the child's parse (default 5 s: a config parses in milliseconds); tests
/// lower it so that the hang inputs replay fast. 0 turns the child parse off.
double yaml_parse_limit_seconds();
void set_yaml_parse_limit_seconds(double seconds);

/// A YAML text's top-level node, for choosing the loader that reads it (by its sections): a null
/// node if the text is not YAML (check_yaml_text included), so that the loader, not the peek,
/// reports where. Never hangs on what check_yaml_text refuses.
YAML::Node peek_yaml_text(const std::string& text);
/// The same for a file; a null node if it cannot be read.
YAML::Node peek_yaml_file(const std::string& path);

/// One key of the schema: a section (a map of keys) or a leaf (a value read by a handler).
struct KeySpec {
  std::string name;
  Presence presence = Presence::Defaulted;
  /// What a value looks like, for documentation and missing-key errors: "an integer in 1..4".
  std::string expected;
  /// Leaves with Presence::Defaulted: the YAML text read, by the same handler, when the key is
  /// missing ("3", "1 GHz"). Documented as the default.
  std::string default_yaml;
  /// Leaves: reads and stores the value. Empty for sections.
  std::function<void(const Field&)> read;
  /// Sections: the keys, in the order they are read.
  std::vector<KeySpec> keys;

  /// Keys that moved (moved()): the new key's path. Such a key is not documented as a key.
  std::string moved_to;
  bool is_section() const { return !read; }
  const KeySpec* find(const std::string& key) const;
  std::vector<std::string> key_names() const;
};

KeySpec leaf(std::string name, Presence presence, std::string expected, std::string default_yaml,
             std::function<void(const Field&)> read);
KeySpec section(std::string name, Presence presence, std::vector<KeySpec> keys);
/// A key of an older schema: any value of it is a ConfigError "renamed key" that names the key
/// that replaced it, e.g. moved("allreduce", "collective", "allreduce.method is collective.algorithm").
KeySpec moved(std::string name, std::string new_path, const std::string& detail = {});

/// One key of a schema, for documentation and tools.
struct KeyInfo {
  std::string path;  // "router.vcs"
  bool section;      // a map of keys rather than a value
  Presence presence;
  std::string expected;      // "an integer in 1..4"
  std::string default_yaml;  // "3", or "" if none
};
/// Every key of a schema, sections included, in schema order; old names (moved()) left out.
std::vector<KeyInfo> schema_keys(const KeySpec& root);
/// The keys of a schema as a Markdown table: key, what is expected, the default.
std::string keys_markdown(const std::vector<KeyInfo>& keys);

/// Reads one config: parse, then any overrides, then read() once.
///
/// Keys are read in schema order, depth first, whatever their order in the file. A handler may
/// therefore use the values of every key declared before it (its own section's earlier keys and
/// earlier sections): that is how cross-key checks (a hotspot node against the board size) report
/// the key that is wrong. A null value (`key:` or `key: ~`) of a section counts as a missing
/// section, so `router:` with every key commented out reads the defaults, and
/// `--set traffic.hotspot=~` removes the hotspot section. A null leaf is an error.
class ConfigReader {
 public:
  /// root: a section with name "". source: the file name used in error origins.
  ConfigReader(KeySpec root, std::string source);

  /// Reads and parses a file. A missing or unreadable file is a ConfigError "cannot open: ...".
  void parse_file(const std::string& path);
  /// Parses YAML text: a syntax error is a ConfigError at yaml-cpp's mark; more than one
  /// document is an error too.
  void parse_text(const std::string& text);

  /// Applies "key.path=value". The path must name a key of the schema (else "unknown key", with
  /// the override as origin). The value is parsed as YAML (so "[4, 4]", "{nodes: [1], fraction:
  /// 0.5}" and "~" work) and replaces the value at the path, creating intermediate maps as needed.
  /// Errors found later in that value name the override as origin.
  void apply_override(const std::string& assignment);

  /// Validates the whole tree and calls every leaf handler (see the class comment).
  void read();

  /// A whole config, the way every loader reads one: the text `parse` hands the reader
  /// (parse_file or parse_text), then the --set overrides in order, then read(). What spans
  /// several keys is the loader's to check after.
  void read_all(const std::function<void(ConfigReader&)>& parse, const std::vector<std::string>& overrides);
  /// A config's name: its `name` key if given, else the file name's stem (stem(source)).
  void default_name(std::string& name) const;

  /// True if `path` was given in the file or by an override (not defaulted, not missing).
  bool present(const std::string& path) const;
  /// The field read at `path` (a section, or a leaf that was present or defaulted). Throws
  /// std::out_of_range for paths not read.
  const Field& field(const std::string& path) const;

 private:
  void read_section(const KeySpec& spec, const Field& map);
  Field child_field(const Field& parent, const std::string& path, const YAML::Node& key, const YAML::Node& value) const;
  Origin key_origin(const Field& parent, const YAML::Node& key) const;

  KeySpec root_spec_;
  std::string source_;
  YAML::Node root_;
  /// Paths set by overrides, including intermediate maps they created, with their origins.
  std::map<std::string, Origin> overridden_;
  std::map<std::string, Field> fields_;
  std::set<std::string> present_;
};

// ---- template definitions -------------------------------------------------------------------

template <class E>
E Field::choice(const std::vector<std::pair<std::string, E>>& options) const {
  std::vector<std::string> names;
  for (const auto& o : options) names.push_back(o.first);
  const std::string name = choice_name(names);
  for (const auto& o : options)
    if (o.first == name) return o.second;
  return options.front().second;  // not reached: choice_name throws for unknown names
}

}  // namespace hx
