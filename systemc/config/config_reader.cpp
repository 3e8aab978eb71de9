#include "config_reader.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <memory>
#include <regex>
#include <unordered_set>

#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

namespace hx {

namespace {

double g_yaml_parse_limit = 5.0;

/// Does yaml-cpp's parse of `text` end (with a tree or a ParserException) within the limit?
/// Parsed in a forked child (check_yaml_text says why). Empty: yes, or the child could not be
/// made (then the parse runs unguarded, as before); else what went wrong, for the error.
std::string yaml_parse_fails(const std::string& text) {
  if (g_yaml_parse_limit <= 0) return "";            // the guard is off (the fuzzer: see config_fuzz.cpp)
  static std::unordered_set<std::size_t> timed_out;  // hashes of texts that did not finish
  const std::size_t h = std::hash<std::string>{}(text);
  const std::string too_slow = "a text on which the YAML parser (yaml-cpp) did not finish within " +
                               std::to_string(g_yaml_parse_limit).substr(0, 4) + " s (a yaml-cpp defect)";
  if (timed_out.count(h) != 0) return too_slow;

  // The child may map 1 GiB more than this process does now.
  long pages = 0;
  if (std::FILE* f = std::fopen("/proc/self/statm", "r")) {
    if (std::fscanf(f, "%ld", &pages) != 1) pages = 0;
    std::fclose(f);
  }
  const rlim_t limit = static_cast<rlim_t>(pages) * static_cast<rlim_t>(sysconf(_SC_PAGESIZE)) + (rlim_t{1} << 30);

  std::fflush(nullptr);  // the child must not write this process's buffered output again
  const pid_t pid = fork();
  if (pid < 0) return "";
  if (pid == 0) {
    // The child: its result is only its exit status. _exit: no atexit handlers, no flushes.
    if (pages > 0) {
      const rlimit as{limit, limit};
      setrlimit(RLIMIT_AS, &as);
    }
    std::signal(SIGALRM, SIG_DFL);  // not a handler this process installed (libFuzzer has one)
    itimerval timer{};
    timer.it_value.tv_sec = static_cast<time_t>(g_yaml_parse_limit);
    timer.it_value.tv_usec = static_cast<suseconds_t>((g_yaml_parse_limit - std::floor(g_yaml_parse_limit)) * 1e6);
    setitimer(ITIMER_REAL, &timer, nullptr);  // SIGALRM's default action ends the child
    int code = 0;
    try {
      (void)YAML::LoadAll(text);
    } catch (const std::bad_alloc&) {
      code = 3;
    } catch (...) {
      // refused: the parent's own parse reports it, with its position
    }
    _exit(code);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return "";
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return "";
  if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM) {
    timed_out.insert(h);
    return too_slow;
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 3) return "a text on which the YAML parser needed more than 1 GiB";
  return "a text on which the YAML parser crashed (child status " + std::to_string(status) + ")";
}

std::string child_path(const std::string& parent, const std::string& key) {
  return parent.empty() ? key : parent + "." + key;
}

Origin mark_origin(const std::string& file, const YAML::Mark& mark) {
  if (mark.is_null()) return {file, 0, 0};
  return {file, mark.line + 1, mark.column + 1};
}

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
  for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    cur[0] = i;
    for (size_t j = 1; j <= b.size(); ++j)
      cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
    std::swap(prev, cur);
  }
  return prev[b.size()];
}

// yaml-cpp tags a quoted scalar "!" (and an explicit !!str the long form); plain scalars "?".
bool is_quoted(const YAML::Node& n) { return n.Tag() == "!" || n.Tag() == "tag:yaml.org,2002:str"; }

const char* kQuotedHint = "it is quoted, so it is a string: remove the quotes";

bool numeric_text(const std::string& s) {
  static const std::regex re(R"(^[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$)");
  return std::regex_match(s, re);
}

// "3" quoted where a number is expected: say why it is rejected.
std::string quoted_number_hint(const YAML::Node& n) {
  return is_quoted(n) && numeric_text(n.Scalar()) ? kQuotedHint : "";
}

std::string section_expected(const KeySpec& s) { return "a map with keys " + join_names(s.key_names()); }

// Names `name` as a key of some other section, for a key written at the wrong level ("vcs"
// at the top instead of under "router").
std::string find_elsewhere(const KeySpec& spec, const std::string& name, const std::string& path) {
  for (const KeySpec& k : spec.keys) {
    const std::string p = child_path(path, k.name);
    if (k.name == name) return p;
    if (k.is_section()) {
      std::string found = find_elsewhere(k, name, p);
      if (!found.empty()) return found;
    }
  }
  return "";
}

[[noreturn]] void unknown_key(const KeySpec& root, const KeySpec& section, const Origin& where, const std::string& path,
                              const std::string& name) {
  std::string hint;
  const std::string close = closest_match(name, section.key_names());
  if (!close.empty()) {
    hint = "did you mean '" + close + "'?";
  } else {
    const std::string elsewhere = find_elsewhere(root, name, "");
    if (!elsewhere.empty()) hint = "did you mean '" + elsewhere + "'?";
  }
  throw ConfigError(where, path, "unknown key", "one of " + join_names(section.key_names()), quote_text(name), hint);
}

// Key `name` at `at` again, first at `first`.
[[noreturn]] void duplicate_key(const Origin& at, const std::string& path, const std::string& name,
                                const Origin& first) {
  throw ConfigError(
      at, path, "duplicate key", "each key at most once per map", quote_text(name) + " again",
      first.line > 0 ? "first at line " + std::to_string(first.line) + ", column " + std::to_string(first.column) : "");
}

}  // namespace

std::string quote_text(const std::string& s) {
  // Keep messages one line and short, whatever the value.
  std::string q = s.substr(0, std::min(s.find('\n'), std::string::size_type{60}));
  if (q.size() < s.size()) q += "...";
  return "'" + q + "'";
}

std::string join_names(const std::vector<std::string>& parts, const char* sep) {
  std::string s;
  for (const auto& p : parts) s += (s.empty() ? "" : sep) + p;
  return s;
}

std::string stem(const std::string& source) {
  std::string s = source.substr(source.find_last_of('/') + 1);
  const auto dot = s.find_last_of('.');
  if (dot != std::string::npos && dot > 0) s.erase(dot);
  s.erase(std::remove_if(s.begin(), s.end(), [](char ch) { return ch == '<' || ch == '>'; }), s.end());
  return s;
}

// ---- Origin, ConfigError ------------------------------------------------------------------------

std::string Origin::str() const {
  if (line <= 0) return file;
  return file + ":" + std::to_string(line) + ":" + std::to_string(column);
}

static std::string format_error(const Origin& o, const std::string& path, const std::string& problem,
                                const std::string& expected, const std::string& found, const std::string& hint) {
  std::string s = o.str() + ": ";
  if (!path.empty()) s += path + ": ";
  s += problem;
  if (!expected.empty()) s += (problem.empty() ? "" : ", ") + ("expected " + expected + ", found " + found);
  if (!hint.empty()) s += " (" + hint + ")";
  return s;
}

ConfigError::ConfigError(Origin origin, std::string key_path, std::string problem, std::string expected,
                         std::string found, std::string hint)
    : std::runtime_error(format_error(origin, key_path, problem, expected, found, hint)),
      origin_(std::move(origin)),
      key_path_(std::move(key_path)),
      problem_(std::move(problem)),
      expected_(std::move(expected)),
      found_(std::move(found)),
      hint_(std::move(hint)) {}

// ---- helpers --------------------------------------------------------------------------------------

bool Interval::contains(double v) const { return (lo_open ? v > lo : v >= lo) && (hi_open ? v < hi : v <= hi); }

std::string Interval::str() const {
  return std::string(lo_open ? "(" : "[") + format_number(lo) + ", " + format_number(hi) + (hi_open ? ")" : "]");
}

std::string integer_range_text(uint64_t lo, uint64_t hi) {
  return "an integer in " + std::to_string(lo) + ".." + std::to_string(hi);
}

std::string closest_match(const std::string& word, const std::vector<std::string>& candidates) {
  const std::string w = lower(word);
  std::string best;
  size_t best_distance = std::max<size_t>(1, w.size() / 3) + 1;
  for (const auto& c : candidates) {
    const size_t d = edit_distance(w, lower(c));
    if (d < best_distance) {
      best = c;
      best_distance = d;
    }
  }
  if (!best.empty() || w.size() < 3) return best;
  // A fragment of a longer name ("rate" for "injection_rate"), or the other way round. Only
  // when unambiguous.
  std::vector<std::string> contained;
  for (const auto& c : candidates) {
    const std::string lc = lower(c);
    if (lc.find(w) != std::string::npos || (lc.size() >= 3 && w.find(lc) != std::string::npos)) contained.push_back(c);
  }
  return contained.size() == 1 ? contained.front() : "";
}

// ---- Field ----------------------------------------------------------------------------------------

Field::Field(std::string path, const YAML::Node& node, Origin origin, bool from_file, bool absent)
    : path_(std::move(path)), node_(node), origin_(std::move(origin)), from_file_(from_file), absent_(absent) {}

bool Field::is_number() const { return node_.IsScalar() && numeric_text(node_.Scalar()); }

std::string Field::found() const {
  if (absent_) return "nothing";
  if (node_.IsScalar()) return quote_text(node_.Scalar());
  if (node_.IsSequence()) return "a list";
  if (node_.IsMap()) return "a map";
  return "an empty value";
}

void Field::fail(const std::string& expected, const std::string& hint) const { fail_found(expected, found(), hint); }

void Field::fail_found(const std::string& expected, const std::string& found, const std::string& hint) const {
  throw ConfigError(origin_, path_, "", expected, found, hint);
}

void Field::fail_missing(const std::string& name, const std::string& expected) const {
  std::string found;
  if (absent_) {
    found = path_.empty() ? "an empty document" : "no '" + path_ + "' map";
  } else if (node_.IsMap() && node_.size() > 0) {
    std::vector<std::string> keys;
    for (const auto& kv : node_) keys.push_back(kv.first.IsScalar() ? kv.first.Scalar() : "?");
    found = "a map with keys " + join_names(keys);
  } else {
    found = path_.empty() ? "an empty document" : "an empty map";
  }
  throw ConfigError(origin_, child_path(path_, name), "missing required key", "key '" + name + "' (" + expected + ")",
                    found);
}

std::string Field::text(const std::string& expected) const {
  if (!node_.IsScalar()) fail(expected);
  return node_.Scalar();
}

bool Field::boolean() const {
  const std::string t = text("true or false");
  if (t != "true" && t != "false") fail("true or false");
  return t == "true";
}

uint64_t Field::integer(uint64_t lo, uint64_t hi, const std::string& expected_text) const {
  static const std::regex re(R"(^[+-]?[0-9]+$)");
  const std::string expected = expected_text.empty() ? integer_range_text(lo, hi) : expected_text;
  if (!node_.IsScalar()) fail(expected);
  if (is_quoted(node_)) fail(expected, quoted_number_hint(node_));
  const std::string& s = node_.Scalar();
  if (!std::regex_match(s, re)) fail(expected);
  if (s[0] == '-') {
    if (s.find_first_not_of("-0") != std::string::npos) fail(expected);  // -0 is 0
    if (lo > 0) fail(expected);
    return 0;
  }
  errno = 0;
  const unsigned long long v = std::strtoull(s.c_str(), nullptr, 10);
  if (errno == ERANGE || v < lo || v > hi) fail(expected);
  return v;
}

double Field::number(const Interval& range) const {
  const std::string expected = "a number in " + range.str();
  if (!node_.IsScalar()) fail(expected);
  if (!is_number() || is_quoted(node_)) fail(expected, quoted_number_hint(node_));
  const double v = std::strtod(node_.Scalar().c_str(), nullptr);
  if (!std::isfinite(v) || !range.contains(v)) fail(expected);
  return v;
}

std::string Field::choice_name(const std::vector<std::string>& names) const {
  const std::string expected = "one of " + join_names(names);
  if (!node_.IsScalar()) fail(expected);
  const std::string& s = node_.Scalar();
  if (std::find(names.begin(), names.end(), s) != names.end()) return s;
  const std::string close = closest_match(s, names);
  fail(expected, close.empty() ? "" : "did you mean '" + close + "'?");
}

template <class T>
T Field::quantity(const char* expected, T (*parse)(const std::string&)) const {
  if (!node_.IsScalar()) fail(expected);
  try {
    return parse(node_.Scalar());
  } catch (const UnitError& e) {
    fail_found(e.expected(), e.found(), e.hint());
  }
}

double Field::frequency() const { return quantity("a frequency such as '1 GHz'", parse_frequency); }
double Field::bandwidth() const { return quantity("a bandwidth such as '128 Gb/s'", parse_bandwidth); }
double Field::time() const { return quantity("a time such as '1 ns'", parse_time); }
double Field::data_size() const { return quantity("a data size such as '128 bit'", parse_data_size); }
double Field::compute_rate() const { return quantity("a compute rate such as '312 TFLOP/s'", parse_compute_rate); }
double Field::length() const { return quantity("a length such as '0.5 m'", parse_length); }
Duration Field::duration() const { return quantity("a duration such as '1 ns' or '2000 cycles'", parse_duration); }

std::vector<Field> Field::elements(const std::string& expected) const {
  if (!node_.IsSequence()) fail(expected);
  std::vector<Field> out;
  for (size_t i = 0; i < node_.size(); ++i) {
    const YAML::Node e = node_[i];
    const Origin o = from_file_ ? mark_origin(origin_.file, e.Mark()) : origin_;
    out.emplace_back(path_ + "[" + std::to_string(i) + "]", e, o, from_file_);
  }
  return out;
}

// ---- KeySpec ------------------------------------------------------------------------------------

const KeySpec* KeySpec::find(const std::string& key) const {
  for (const KeySpec& k : keys)
    if (k.name == key) return &k;
  return nullptr;
}

std::vector<std::string> KeySpec::key_names() const {
  std::vector<std::string> names;
  for (const KeySpec& k : keys)
    if (k.moved_to.empty()) names.push_back(k.name);  // an old name is not offered as a key
  return names;
}

KeySpec leaf(std::string name, Presence presence, std::string expected, std::string default_yaml,
             std::function<void(const Field&)> read) {
  KeySpec k;
  k.name = std::move(name);
  k.presence = presence;
  k.expected = std::move(expected);
  k.default_yaml = std::move(default_yaml);
  k.read = std::move(read);
  return k;
}

KeySpec moved(std::string name, std::string new_path, const std::string& detail) {
  const std::string expected = "'" + new_path + "'" + (detail.empty() ? "" : " (" + detail + ")");
  KeySpec k = leaf(std::move(name), Presence::Optional, "", "", [expected](const Field& f) {
    throw ConfigError(f.origin(), f.path(), "renamed key", expected, f.found());
  });
  k.moved_to = std::move(new_path);
  return k;
}

KeySpec section(std::string name, Presence presence, std::vector<KeySpec> keys) {
  KeySpec k;
  k.name = std::move(name);
  k.presence = presence;
  k.keys = std::move(keys);
  k.expected = section_expected(k);
  return k;
}

namespace {
void collect_keys(const KeySpec& spec, const std::string& prefix, std::vector<KeyInfo>& out) {
  for (const KeySpec& k : spec.keys) {
    if (!k.moved_to.empty()) continue;
    const std::string path = prefix.empty() ? k.name : prefix + "." + k.name;
    out.push_back({path, k.is_section(), k.presence, k.expected, k.default_yaml});
    if (k.is_section()) collect_keys(k, path, out);
  }
}
}  // namespace

std::vector<KeyInfo> schema_keys(const KeySpec& root) {
  std::vector<KeyInfo> out;
  collect_keys(root, "", out);
  return out;
}

std::string keys_markdown(const std::vector<KeyInfo>& keys) {
  // A table cell may not hold '|' or a line break.
  const auto cell = [](std::string s) {
    for (char& c : s)
      if (c == '|' || c == '\n') c = c == '|' ? '/' : ' ';
    return s;
  };
  std::string md = "| key | expected | default |\n|---|---|---|\n";
  for (const KeyInfo& k : keys) {
    std::string dflt;
    switch (k.presence) {
      case Presence::Required: dflt = "**required**"; break;
      case Presence::Defaulted: dflt = k.section ? "" : "`" + cell(k.default_yaml) + "`"; break;
      case Presence::Optional: dflt = k.default_yaml.empty() ? "optional" : "optional: " + cell(k.default_yaml); break;
    }
    md += "| `" + k.path + "` | " + (k.section ? "a section" : cell(k.expected)) + " | " + dflt + " |\n";
  }
  return md;
}

// ---- ConfigReader -------------------------------------------------------------------------------

ConfigReader::ConfigReader(KeySpec root, std::string source)
    : root_spec_(std::move(root)), source_(std::move(source)) {}

void ConfigReader::parse_file(const std::string& path) {
  // stdio rather than iostreams: errno after fopen/fread is what strerror should describe.
  std::unique_ptr<FILE, int (*)(FILE*)> f(std::fopen(path.c_str(), "rb"), std::fclose);
  if (!f) throw ConfigError({path}, "", "cannot open: " + std::string(std::strerror(errno)), "", "");
  std::string text;
  char buf[65536];
  size_t n;
  while ((n = std::fread(buf, 1, sizeof buf, f.get())) > 0) text.append(buf, n);
  if (std::ferror(f.get())) throw ConfigError({path}, "", "cannot open: " + std::string(std::strerror(errno)), "", "");
  source_ = path;
  parse_text(text);
}

namespace {

// The state of check_yaml_text's line scanner that carries from one line to the next.
struct YamlLineState {
  int flow = 0;           // depth of flow collections ([ or {) open
  char quote = 0;         // a quoted scalar ('"' or '\'') open across lines
  int block_indent = -1;  // in a block scalar (| or >): its lines are indented more than this
};

bool yaml_blank(char c) { return c == ' ' || c == '\t'; }

// Past the blanks, block indicators ("- ", "? ", ": ", "--- ") and node properties (&anchor,
// !tag) from i: where the node of a block line starts.
std::size_t yaml_node_start(const std::string& line, std::size_t i) {
  for (;;) {
    while (i < line.size() && yaml_blank(line[i])) ++i;
    if (i >= line.size()) return i;
    const char c = line[i];
    const bool ends = i + 1 == line.size() || yaml_blank(line[i + 1]);
    if ((c == '-' || c == '?' || c == ':') && ends) {
      ++i;
    } else if (line.compare(i, 3, "---") == 0 && (i + 3 == line.size() || yaml_blank(line[i + 3]))) {
      i += 3;
    } else if (c == '&' || c == '!') {
      while (i < line.size() && !yaml_blank(line[i])) ++i;
    } else {
      return i;
    }
  }
}

// Where quoted scalar `q` that is open at line[i] closes: the index after its closing quote, or
// npos if it goes on past the line.
std::size_t yaml_quote_end(const std::string& line, std::size_t i, char q) {
  for (; i < line.size(); ++i) {
    if (q == '"' && line[i] == '\\') {
      ++i;
    } else if (line[i] == q) {
      if (q == '\'' && i + 1 < line.size() && line[i + 1] == '\'') {
        ++i;  // '' inside '...' is a quote
      } else {
        return i + 1;
      }
    }
  }
  return std::string::npos;
}

// Scans one line of YAML (no line break) for a ',' where a node begins outside a flow
// collection; returns its index, or npos. Updates the state the next line starts in.
std::size_t yaml_stray_comma(const std::string& line, YamlLineState& st) {
  std::size_t indent = 0;
  while (indent < line.size() && line[indent] == ' ') ++indent;
  if (st.block_indent >= 0) {
    if (indent == line.size() || static_cast<int>(indent) > st.block_indent) return std::string::npos;
    st.block_indent = -1;  // the block scalar ended before this line
  }
  std::size_t i = 0;
  if (st.quote != 0) {
    i = yaml_quote_end(line, 0, st.quote);
    if (i == std::string::npos) return i;
    st.quote = 0;
  }
  bool token_start = i == 0;
  if (token_start && st.flow == 0) {
    i = yaml_node_start(line, 0);
    if (i < line.size() && line[i] == ',') return i;
  }
  for (; i < line.size(); ++i) {
    const char c = line[i];
    if (yaml_blank(c)) continue;
    if (c == '#' && (i == 0 || yaml_blank(line[i - 1]))) break;  // a comment
    if (token_start && (c == '"' || c == '\'')) {
      const std::size_t e = yaml_quote_end(line, i + 1, c);
      if (e == std::string::npos) {
        st.quote = c;
        return e;
      }
      i = e - 1;
      token_start = false;
      continue;
    }
    if (token_start && st.flow == 0 && (c == '|' || c == '>')) {
      std::size_t k = i + 1;  // a block scalar header: |, >, with chomping and indentation
      while (k < line.size() && (line[k] == '+' || line[k] == '-' || (line[k] >= '0' && line[k] <= '9'))) ++k;
      while (k < line.size() && yaml_blank(line[k])) ++k;
      if (k == line.size() || line[k] == '#') {
        st.block_indent = static_cast<int>(indent);
        return std::string::npos;
      }
    }
    if (token_start && st.flow == 0 && c == ',') return i;
    if ((c == '[' || c == '{') && (token_start || st.flow > 0)) {
      ++st.flow;
      token_start = true;
      continue;
    }
    if ((c == ']' || c == '}') && st.flow > 0) {
      --st.flow;
      token_start = false;
      continue;
    }
    if (c == ',' && st.flow > 0) {
      token_start = true;
      continue;
    }
    if (c == ':' && (i + 1 == line.size() || yaml_blank(line[i + 1]) || st.flow > 0)) {
      token_start = true;  // a value begins
      continue;
    }
    token_start = false;
  }
  return std::string::npos;
}

}  // namespace

void check_yaml_text(const std::string& text, const Origin& origin, const std::string& key_path) {
  const auto at = [&](int line, int column) { return origin.line > 0 ? origin : Origin{origin.file, line, column}; };
  int line = 1, column = 1;
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f) {
      char found[48];
      std::snprintf(found, sizeof found, "the control character 0x%02x", c);
      throw ConfigError(at(line, column), key_path, "not YAML text",
                        "printable characters, tabs and line breaks (YAML 1.2, section 5.1)", found);
    }
    if (c == '\n') {
      ++line;
      column = 1;
    } else if ((c & 0xc0) != 0x80) {  // a column per character, not per UTF-8 byte
      ++column;
    }
  }
  YamlLineState st;
  std::size_t begin = 0;
  for (int n = 1; begin <= text.size(); ++n) {
    std::size_t end = text.find('\n', begin);
    if (end == std::string::npos) end = text.size();
    std::string l = text.substr(begin, end - begin);
    if (!l.empty() && l.back() == '\r') l.pop_back();
    const std::size_t comma = yaml_stray_comma(l, st);
    if (comma != std::string::npos)
      throw ConfigError(at(n, static_cast<int>(comma) + 1), key_path, "not valid YAML",
                        "a value, or ',' only between the items of a [...] or {...} collection",
                        "a ',' where a value begins");
    begin = end + 1;
  }
  const std::string failed = yaml_parse_fails(text);
  if (!failed.empty())
    throw ConfigError(origin, key_path, "not valid YAML", "a text the YAML parser reads to its end", failed);
}

double yaml_parse_limit_seconds() { return g_yaml_parse_limit; }
void set_yaml_parse_limit_seconds(double seconds) { g_yaml_parse_limit = seconds; }

YAML::Node peek_yaml_text(const std::string& text) {
  try {
    check_yaml_text(text, Origin{});
    return YAML::Load(text);
  } catch (const std::exception&) {
    return YAML::Node();
  }
}

YAML::Node peek_yaml_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return YAML::Node();
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return in.bad() ? YAML::Node() : peek_yaml_text(text);
}

void ConfigReader::read_all(const std::function<void(ConfigReader&)>& parse,
                            const std::vector<std::string>& overrides) {
  parse(*this);
  for (const std::string& o : overrides) apply_override(o);
  read();
}

void ConfigReader::default_name(std::string& name) const {
  if (!present("name")) name = stem(source_);
}

void ConfigReader::parse_text(const std::string& text) {
  check_yaml_text(text, Origin{source_});
  std::vector<YAML::Node> docs;
  try {
    docs = YAML::LoadAll(text);
  } catch (const YAML::ParserException& e) {
    throw ConfigError(mark_origin(source_, e.mark), "", "YAML syntax error: " + e.msg, "", "");
  }
  if (docs.size() > 1)
    throw ConfigError(mark_origin(source_, docs[1].Mark()), "", "", "one YAML document",
                      std::to_string(docs.size()) + " documents");
  root_ = docs.empty() ? YAML::Node() : docs.front();
}

void ConfigReader::apply_override(const std::string& assignment) {
  const Origin origin{"--set " + assignment};
  const auto eq = assignment.find('=');
  const std::string path = assignment.substr(0, eq);
  std::vector<std::string> parts;
  for (size_t begin = 0;;) {
    const size_t dot = path.find('.', begin);
    parts.push_back(path.substr(begin, dot == std::string::npos ? std::string::npos : dot - begin));
    if (dot == std::string::npos) break;
    begin = dot + 1;
  }
  const bool empty_part = std::any_of(parts.begin(), parts.end(), [](const std::string& p) { return p.empty(); });
  if (eq == std::string::npos || empty_part)
    throw ConfigError(origin, "", "", "key.path=value (e.g. router.vcs=4)", quote_text(assignment));

  // The path must exist in the schema, whatever the file holds.
  const KeySpec* spec = &root_spec_;
  std::string prefix;
  for (const std::string& part : parts) {
    const std::string p = child_path(prefix, part);
    if (!spec->is_section())
      throw ConfigError(origin, p, "unknown key", "nothing below '" + prefix + "', which holds " + spec->expected,
                        quote_text(part));
    const KeySpec* next = spec->find(part);
    if (!next) unknown_key(root_spec_, *spec, origin, p, part);
    spec = next;
    prefix = p;
  }

  YAML::Node value;
  check_yaml_text(assignment.substr(eq + 1), origin, path);
  try {
    value = YAML::Load(assignment.substr(eq + 1));
  } catch (const YAML::ParserException& e) {
    throw ConfigError(origin, path, "YAML syntax error in the value: " + e.msg, "", "");
  }

  // Walk the tree along the path, creating missing (or null) maps.
  if (!root_.IsDefined() || root_.IsNull()) root_ = YAML::Node(YAML::NodeType::Map);
  if (!root_.IsMap()) Field("", root_, mark_origin(source_, root_.Mark()), true).fail(root_spec_.expected);
  YAML::Node cur = root_;
  const KeySpec* cur_spec = &root_spec_;
  prefix.clear();
  for (size_t i = 0; i + 1 < parts.size(); ++i) {
    cur_spec = cur_spec->find(parts[i]);
    prefix = child_path(prefix, parts[i]);
    YAML::Node next;
    for (const auto& kv : cur)
      if (kv.first.IsScalar() && kv.first.Scalar() == parts[i]) {
        next.reset(kv.second);
        break;
      }
    if (!next.IsDefined() || next.IsNull()) {
      next.reset(YAML::Node(YAML::NodeType::Map));
      cur[parts[i]] = next;
      overridden_[prefix] = origin;
    } else if (!next.IsMap()) {
      // The file has a scalar or list where the override needs a map: report the file's value,
      // which is wrong whatever the override says.
      const auto o = overridden_.find(prefix);
      Field(prefix, next, o != overridden_.end() ? o->second : mark_origin(source_, next.Mark()),
            o == overridden_.end())
          .fail(cur_spec->expected);
    }
    cur.reset(next);
  }
  cur[parts.back()] = value;
  // A later override replaces everything an earlier one set below the same path.
  for (auto it = overridden_.lower_bound(path); it != overridden_.end();) {
    const std::string& p = it->first;
    if (p.compare(0, path.size(), path) != 0) break;
    if (p.size() > path.size() && p[path.size()] != '.' && p[path.size()] != '[') {
      ++it;
      continue;
    }
    it = overridden_.erase(it);
  }
  overridden_[path] = origin;
}

Origin ConfigReader::key_origin(const Field& parent, const YAML::Node& key) const {
  return parent.from_file() ? mark_origin(source_, key.Mark()) : parent.origin();
}

Field ConfigReader::child_field(const Field& parent, const std::string& path, const YAML::Node& key,
                                const YAML::Node& value) const {
  const auto o = overridden_.find(path);
  if (o != overridden_.end()) return Field(path, value, o->second, false);
  if (!parent.from_file()) return Field(path, value, parent.origin(), false);
  // A null value's mark is wherever the next token starts (often the next line), so point at the key.
  return Field(path, value, mark_origin(source_, (value.IsNull() ? key : value).Mark()), true);
}

void ConfigReader::read() {
  const bool empty = !root_.IsDefined() || root_.IsNull();
  read_section(root_spec_, Field("", root_, mark_origin(source_, root_.Mark()), true, empty));
}

void ConfigReader::read_section(const KeySpec& spec, const Field& map) {
  fields_.emplace(map.path(), map);

  // Index the map's keys, rejecting what can never be valid before reading any value.
  std::map<std::string, std::pair<YAML::Node, YAML::Node>> entries;
  if (!map.absent() && !map.node().IsNull()) {
    if (!map.is_map()) map.fail(spec.expected);
    for (const auto& kv : map.node()) {
      const Origin at = key_origin(map, kv.first);
      if (!kv.first.IsScalar())
        throw ConfigError(at, map.path(), "", "a key name (one of " + join_names(spec.key_names()) + ")",
                          Field("", kv.first, at, false).found());
      const std::string& name = kv.first.Scalar();
      const std::string path = child_path(map.path(), name);
      if (!spec.find(name)) unknown_key(root_spec_, spec, at, path, name);
      const auto seen = entries.find(name);
      if (seen != entries.end()) {
        const Origin first = key_origin(map, seen->second.first);
        duplicate_key(at, path, name, first);
      }
      entries.emplace(name, std::make_pair(kv.first, kv.second));
    }
  }

  for (const KeySpec& key : spec.keys) {
    const std::string path = child_path(map.path(), key.name);
    const auto e = entries.find(key.name);
    // A null section is a missing section (see the class comment).
    if (e != entries.end() && !(key.is_section() && e->second.second.IsNull())) {
      const Field f = child_field(map, path, e->second.first, e->second.second);
      present_.insert(path);
      if (key.is_section()) {
        read_section(key, f);
      } else {
        fields_.emplace(path, f);
        key.read(f);
      }
      continue;
    }
    switch (key.presence) {
      case Presence::Required: map.fail_missing(key.name, key.expected);
      case Presence::Optional: break;
      case Presence::Defaulted:
        if (key.is_section()) {
          read_section(key, Field(path, YAML::Node(), map.origin(), false, true));
        } else {
          const Field f(path, YAML::Load(key.default_yaml), {"<default>"}, false);
          fields_.emplace(path, f);
          key.read(f);
        }
        break;
    }
  }
}

bool ConfigReader::present(const std::string& path) const { return present_.count(path) > 0; }

const Field& ConfigReader::field(const std::string& path) const { return fields_.at(path); }

// ---- MapFields ---------------------------------------------------------------------------------------

MapFields::MapFields(const Field& map, const std::string& expected) : map_(map) { read(expected, nullptr); }

MapFields::MapFields(const Field& map, const std::string& expected, const std::vector<std::string>& allowed)
    : map_(map) {
  read(expected, &allowed);
}

void MapFields::read(const std::string& expected, const std::vector<std::string>* allowed) {
  if (!map_.is_map()) map_.fail(expected);
  for (const auto& kv : map_.node()) {
    const Origin at = origin_of(kv.first);
    if (!kv.first.IsScalar())
      throw ConfigError(at, map_.path(), "",
                        allowed ? "a key name (one of " + join_names(*allowed) + ")" : "a key name",
                        Field("", kv.first, at, false).found());
    const std::string name = kv.first.Scalar();
    if (allowed) check_allowed(name, kv.first, *allowed, nullptr);
    for (const Entry& e : entries_)
      if (e.name == name) duplicate_key(at, child(name), name, origin_of(e.key));
    entries_.push_back({name, kv.first, kv.second});
  }
}

void MapFields::allow(const std::vector<std::string>& allowed,
                      const std::function<std::string(const std::string&)>& elsewhere) const {
  for (const Entry& e : entries_) check_allowed(e.name, e.key, allowed, elsewhere);
}

void MapFields::check_allowed(const std::string& name, const YAML::Node& key, const std::vector<std::string>& allowed,
                              const std::function<std::string(const std::string&)>& elsewhere) const {
  if (std::find(allowed.begin(), allowed.end(), name) != allowed.end()) return;
  std::string hint;
  const std::string close = closest_match(name, allowed);
  if (!close.empty()) {
    hint = "did you mean '" + close + "'?";
  } else if (elsewhere) {
    hint = elsewhere(name);
  }
  throw ConfigError(origin_of(key), child(name), "unknown key", "one of " + join_names(allowed), quote_text(name),
                    hint);
}

std::optional<Field> MapFields::get(const std::string& name) const {
  for (const Entry& e : entries_) {
    if (e.name != name) continue;
    // A null value's mark is where the next token starts: point at the key instead.
    return Field(child(name), e.value, origin_of(e.value.IsNull() ? e.key : e.value), map_.from_file());
  }
  return std::nullopt;
}

Field MapFields::required(const std::string& name, const std::string& expected) const {
  std::optional<Field> f = get(name);
  if (!f) map_.fail_missing(name, expected);
  return *f;
}

Origin MapFields::origin_of(const YAML::Node& n) const {
  if (!map_.from_file() || n.Mark().is_null()) return map_.origin();
  return {map_.origin().file, n.Mark().line + 1, n.Mark().column + 1};
}

}  // namespace hx
