// config_test.cpp: the config layer (systemc/config): units, the validating reader, the hxsim
// schema, --set overrides and the shipped configs.
//
// Error tests check every part of the ConfigError (line, column, key path, expected, found, and
// the hint where there is one), not just that something throws. Most use inline YAML through
// load_config_text, so that positions are easy to read off the test: each YAML line is one
// string literal line, and kBase takes lines 1-4.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "config_reader.h"
#include "config_test_support.h"
#include "sim_config.h"
#include "topology_builder.h"
#include "units.h"

namespace hx {
namespace {

// The smallest valid config: lines 1-4. Tests append from line 5 on.
const std::string kBase =
    "topology:\n"
    "  board: 4x4\n"
    "traffic:\n"
    "  injection_rate: 0.1\n";

// The ConfigError that loading throws; a test failure if there is none.
ConfigError error_of(const std::string& yaml, const std::vector<std::string>& overrides = {}) {
  return test::config_error_of([&] { load_config_text(yaml, "t.yaml", overrides); }, yaml);
}

SimConfig load_ok(const std::string& yaml, const std::vector<std::string>& overrides = {}) {
  try {
    return load_config_text(yaml, "t.yaml", overrides);
  } catch (const ConfigError& e) {
    ADD_FAILURE() << "unexpected error: " << e.what();
    throw;
  }
}

bool has_line(const SimConfig& c, const std::string& line) {
  for (const auto& d : c.derivations)
    if (d == line) return true;
  return false;
}

// ---- files and YAML syntax ------------------------------------------------------------------------

TEST(ConfigFile, MissingFileIsAConfigError) {
  try {
    load_config("/nonexistent/dir/run.yaml");
    FAIL() << "no error";
  } catch (const ConfigError& e) {
    EXPECT_EQ(e.file(), "/nonexistent/dir/run.yaml");
    EXPECT_EQ(e.line(), 0);
    EXPECT_EQ(e.key_path(), "");
    EXPECT_STREQ(e.what(), "/nonexistent/dir/run.yaml: cannot open: No such file or directory");
  }
}

TEST(ConfigFile, YamlSyntaxErrorHasYamlCppPosition) {
  // The flow map opened on line 3 is never closed; yaml-cpp reports where it gave up.
  const ConfigError e = error_of(
      "topology:\n"
      "  board: 4x4\n"
      "traffic: {injection_rate: 0.1\n"
      "run:\n");
  EXPECT_EQ(e.line(), 4);
  EXPECT_EQ(e.column(), 4);
  EXPECT_EQ(e.key_path(), "");
  EXPECT_STREQ(e.what(), "t.yaml:4:4: YAML syntax error: end of map flow not found");
}

// Texts on which yaml-cpp 0.7 loops without end (found by make fuzz) are refused first, with
// the position; YAML that only looks similar still loads (check_yaml_text skips quoted and block
// scalars and comments, and allows ',' between the items of a flow collection).
TEST(ConfigFile, TextsYamlCppWouldHangOnAreRefused) {
  EXPECT_CONFIG_ERROR(error_of("name: x\n\x03\n"), 2, 1, "",
                      "printable characters, tabs and line breaks (YAML 1.2, section 5.1)",
                      "the control character 0x03");
  const std::string comma_expected = "a value, or ',' only between the items of a [...] or {...} collection";
  EXPECT_CONFIG_ERROR(error_of("# a comment\n, name: x\n"), 2, 1, "", comma_expected, "a ',' where a value begins");
  EXPECT_CONFIG_ERROR(error_of("- a\n, b\n"), 2, 1, "", comma_expected, "a ',' where a value begins");
  EXPECT_CONFIG_ERROR(error_of("&anchor ,\n"), 1, 9, "", comma_expected, "a ',' where a value begins");
  EXPECT_CONFIG_ERROR(error_of("name: [a]\n---\n,\n"), 3, 1, "", comma_expected, "a ',' where a value begins");
  EXPECT_CONFIG_ERROR(error_of("name: ,\n"), 1, 7, "", comma_expected, "a ',' where a value begins");
}

TEST(ConfigFile, CommasInsideScalarsAndFlowCollectionsAreYaml) {
  const std::vector<std::string> fine = {
      "description: |\n  , starts a line of a block scalar\n  and, another\n",
      "description: >-\n  , folded\n",
      "description: \"a quoted scalar\n  , over two lines\"\n",
      "description: 'it''s\n  , fine'\n",
      "description: a, b, c  # , in a comment\n",
      "description: [a,\n  b\n  , c]\n",
      "# , a comment\ndescription: x\n",
  };
  for (const std::string& yaml : fine) {
    try {
      check_yaml_text(yaml, Origin{"t.yaml"});
    } catch (const ConfigError& e) {
      ADD_FAILURE() << yaml << "\n -> " << e.what();
    }
  }
}

TEST(ConfigFile, MoreThanOneDocument) {
  const ConfigError e = error_of(kBase + "---\nname: second\n");
  EXPECT_CONFIG_ERROR(e, 6, 1, "", "one YAML document", "2 documents");
}

TEST(ConfigFile, TopLevelMustBeAMap) {
  const ConfigError e = error_of("- 1\n- 2\n");
  EXPECT_CONFIG_ERROR(e, 1, 1, "",
                      "a map with keys name, description, topology, routing, router, links, switch, traffic, "
                      "collective, rounds, faults, run",
                      "a list");
}

TEST(ConfigFile, EmptyDocumentMissesRequiredKeys) {
  // The default kind, board, needs topology.board (checked after the schema's own required keys,
  // since it depends on the kind).
  const ConfigError e = error_of("");
  EXPECT_EQ(e.line(), 0);  // no position in an empty file
  EXPECT_EQ(e.key_path(), "topology.board");
  EXPECT_EQ(e.problem(), "missing required key");
  EXPECT_EQ(e.found(), "no 'topology' map");
}

// ---- keys: unknown, duplicate, missing ---------------------------------------------------------------

TEST(ConfigKeys, UnknownTopLevelKeySuggestsClosest) {
  const ConfigError e = error_of(kBase + "routr:\n  vcs: 3\n");
  EXPECT_CONFIG_ERROR(
      e, 5, 1, "routr",
      "one of name, description, topology, routing, router, links, switch, traffic, collective, rounds, faults, run",
      "'routr'");
  EXPECT_EQ(e.problem(), "unknown key");
  EXPECT_EQ(e.hint(), "did you mean 'router'?");
}

TEST(ConfigKeys, UnknownNestedKeySuggestsClosest) {
  const ConfigError e = error_of(
      "topology:\n"
      "  board: 4x4\n"
      "traffic:\n"
      "  injecton_rate: 0.1\n");
  EXPECT_CONFIG_ERROR(
      e, 4, 3, "traffic.injecton_rate",
      "one of pattern, injection_rate, packet_length, message_packets, include_self, source_queue, hotspot",
      "'injecton_rate'");
  EXPECT_STREQ(
      e.what(),
      "t.yaml:4:3: traffic.injecton_rate: unknown key, expected one of pattern, injection_rate, "
      "packet_length, message_packets, include_self, source_queue, hotspot, found 'injecton_rate' (did you mean "
      "'injection_rate'?)");
}

TEST(ConfigKeys, UnknownKeyAtTheWrongLevelNamesItsPlace) {
  const ConfigError e = error_of(kBase + "vcs: 3\n");
  EXPECT_CONFIG_ERROR(
      e, 5, 1, "vcs",
      "one of name, description, topology, routing, router, links, switch, traffic, collective, rounds, faults, run",
      "'vcs'");
  EXPECT_EQ(e.hint(), "did you mean 'router.vcs'?");
}

TEST(ConfigKeys, UnknownKeyWithoutCloseMatchHasNoHint) {
  const ConfigError e = error_of(kBase + "router:\n  zzz: 1\n");
  EXPECT_CONFIG_ERROR(e, 6, 3, "router.zzz",
                      "one of clock, vc_policy, vcs, buffer_depth, flit_width, local_ports, model", "'zzz'");
  EXPECT_EQ(e.hint(), "");
}

TEST(ConfigKeys, DuplicateKey) {
  const ConfigError e = error_of(kBase +
                                 "router:\n"
                                 "  vcs: 2\n"
                                 "  clock: 1 GHz\n"
                                 "  vcs: 3\n");
  EXPECT_CONFIG_ERROR(e, 8, 3, "router.vcs", "each key at most once per map", "'vcs' again");
  EXPECT_EQ(e.problem(), "duplicate key");
  EXPECT_EQ(e.hint(), "first at line 6, column 3");
}

TEST(ConfigKeys, DuplicateTopLevelSection) {
  const ConfigError e = error_of(kBase + "topology:\n  board: 2x2\n");
  EXPECT_CONFIG_ERROR(e, 5, 1, "topology", "each key at most once per map", "'topology' again");
  EXPECT_EQ(e.hint(), "first at line 1, column 1");
}

TEST(ConfigKeys, KeyMustBeAScalar) {
  const ConfigError e = error_of(kBase + "router:\n  [vcs]: 3\n");
  EXPECT_CONFIG_ERROR(e, 6, 3, "router",
                      "a key name (one of clock, vc_policy, vcs, buffer_depth, flit_width, local_ports, model)",
                      "a list");
}

TEST(ConfigKeys, MissingRequiredKeyIsReportedAtTheParentMap) {
  // traffic's map starts at line 4, column 3 (its first key).
  const ConfigError e = error_of(
      "topology:\n"
      "  board: 4x4\n"
      "traffic:\n"
      "  pattern: uniform\n"
      "  packet_length: 2\n");
  EXPECT_CONFIG_ERROR(e, 4, 3, "traffic.injection_rate",
                      "key 'injection_rate' (a number in [0, 4] in flits per node per cycle (at most "
                      "router.local_ports: one flit per local lane), or a bandwidth per node such as '12.8 Gb/s', "
                      "required without a collective)",
                      "a map with keys pattern, packet_length");
  EXPECT_EQ(e.problem(), "missing required key");
}

TEST(ConfigKeys, MissingRequiredKeyInAMissingSection) {
  const ConfigError e = error_of(
      "name: x\n"
      "traffic:\n"
      "  injection_rate: 0.1\n");
  EXPECT_CONFIG_ERROR(e, 1, 1, "topology.board",
                      "key 'board' (a board size such as '4x4' or [4, 4], each side 1..16, required for a board)",
                      "no 'topology' map");
}

// ---- wrong types -------------------------------------------------------------------------------------

TEST(ConfigTypes, MapWhereScalarExpected) {
  const ConfigError e = error_of(kBase + "router:\n  vcs: {n: 3}\n");
  EXPECT_CONFIG_ERROR(e, 6, 8, "router.vcs", "an integer in 1..8", "a map");
}

TEST(ConfigTypes, ListWhereMapExpected) {
  const ConfigError e = error_of(kBase + "router: [vcs, 3]\n");
  EXPECT_CONFIG_ERROR(e, 5, 9, "router",
                      "a map with keys clock, vc_policy, vcs, buffer_depth, flit_width, local_ports, model", "a list");
}

TEST(ConfigTypes, ScalarWhereMapExpected) {
  const ConfigError e = error_of(kBase + "links:\n  local: fast\n");
  EXPECT_CONFIG_ERROR(e, 6, 10, "links.local", "a map with keys bandwidth, latency", "'fast'");
}

TEST(ConfigTypes, StringWhereNumberExpected) {
  const ConfigError e = error_of(
      "topology:\n"
      "  board: 4x4\n"
      "traffic:\n"
      "  injection_rate: high\n");
  EXPECT_CONFIG_ERROR(e, 4, 19, "traffic.injection_rate",
                      "a number in [0, 4] in flits per node per cycle (at most router.local_ports: one flit per "
                      "local lane), or a bandwidth per node such as '12.8 Gb/s'",
                      "'high'");
}

TEST(ConfigTypes, StringWhereIntegerExpected) {
  const ConfigError e = error_of(kBase + "router:\n  vcs: four\n");
  EXPECT_CONFIG_ERROR(e, 6, 8, "router.vcs", "an integer in 1..8", "'four'");
}

TEST(ConfigTypes, QuotedNumberIsAString) {
  const ConfigError e = error_of(kBase + "router:\n  vcs: \"3\"\n");
  EXPECT_CONFIG_ERROR(e, 6, 8, "router.vcs", "an integer in 1..8", "'3'");
  EXPECT_EQ(e.hint(), "it is quoted, so it is a string: remove the quotes");
}

TEST(ConfigTypes, QuotedTextIsNotCalledAQuotedNumber) {
  EXPECT_EQ(error_of(kBase + "router:\n  vcs: \"four\"\n").hint(), "");
  const ConfigError e = error_of("topology: {board: 4x4}\ntraffic: {injection_rate: '0.1'}\n");
  EXPECT_CONFIG_ERROR(e, 2, 27, "traffic.injection_rate", "a number in [0, 4]", "'0.1'");
  EXPECT_EQ(e.hint(), "it is quoted, so it is a string: remove the quotes");
}

TEST(ConfigTypes, FractionWhereIntegerExpected) {
  const ConfigError e = error_of(kBase + "router:\n  buffer_depth: 2.5\n");
  EXPECT_CONFIG_ERROR(e, 6, 17, "router.buffer_depth", "an integer in 2..64", "'2.5'");
}

TEST(ConfigTypes, BoolWhereIntegerExpected) {
  const ConfigError b = error_of(kBase + "run:\n  seed: true\n");
  EXPECT_CONFIG_ERROR(b, 6, 9, "run.seed", "an integer in 0..18446744073709551615", "'true'");
}

TEST(ConfigTypes, ListWhereStringExpected) {
  const ConfigError e = error_of(kBase + "name: [a, b]\n");
  EXPECT_CONFIG_ERROR(e, 5, 7, "name", "a string", "a list");
}

TEST(ConfigTypes, EmptyLeafIsAnErrorAtItsKey) {
  // A null value's own mark is the next token; the error points at the key instead.
  const ConfigError e = error_of(kBase + "router:\n  vcs:\n  clock: 1 GHz\n");
  EXPECT_CONFIG_ERROR(e, 6, 3, "router.vcs", "an integer in 1..8", "an empty value");
}

TEST(ConfigTypes, EmptySectionMeansDefaults) {
  const SimConfig c = load_ok(kBase + "router:\nlinks:\n  local: ~\n");
  EXPECT_EQ(c.router.vcs, 3u);
  EXPECT_EQ(c.local_link.latency_cycles, 1u);
}

// ---- ranges ------------------------------------------------------------------------------------------

TEST(ConfigRange, Vcs) {
  EXPECT_CONFIG_ERROR(error_of(kBase + "router:\n  vcs: 9\n"), 6, 8, "router.vcs", "an integer in 1..8", "'9'");
  // A board's RTL routers carry the VC in 2 bits; the C++ switches take up to 8.
  EXPECT_CONFIG_ERROR(error_of(kBase + "router:\n  vcs: 5\n"), 6, 8, "router.vcs",
                      "at most 4 on the boards' RTL routers (a flit's VC field is 2 bits; only systems of C++ "
                      "switches have more)",
                      "'5'");
  EXPECT_CONFIG_ERROR(error_of(kBase + "router:\n  vcs: 0\n"), 6, 8, "router.vcs", "an integer in 1..8", "'0'");
}

TEST(ConfigRange, BufferDepth) {
  EXPECT_CONFIG_ERROR(error_of(kBase + "router:\n  buffer_depth: 1\n"), 6, 17, "router.buffer_depth",
                      "an integer in 2..64", "'1'");
}

TEST(ConfigRange, InjectionRate) {
  const ConfigError e = error_of(
      "topology:\n"
      "  board: 4x4\n"
      "traffic:\n"
      "  injection_rate: 5\n");
  EXPECT_CONFIG_ERROR(e, 4, 19, "traffic.injection_rate", "a number in [0, 4]", "'5'");
  EXPECT_STREQ(e.what(), "t.yaml:4:19: traffic.injection_rate: expected a number in [0, 4], found '5'");
}

// One flit per local lane and cycle, and at most one new packet per cycle: a node with four lanes
// may be offered up to four flits per cycle in packets of four or more flits.
TEST(ConfigConsistency, InjectionRateWithinTheLanesAndOnePacketPerCycle) {
  const ConfigError one_lane = error_of("topology:\n  board: 4x4\ntraffic:\n  injection_rate: 1.5\n");
  EXPECT_CONFIG_ERROR(one_lane, 4, 19, "traffic.injection_rate",
                      "at most 1 flit per node per cycle (router.local_ports = 1: one flit per local lane)",
                      "1.5 flits per node per cycle");
  const SimConfig four = load_ok(
      "topology:\n  board: 4x4\nrouter:\n  local_ports: 4\ntraffic:\n  injection_rate: 4\n  packet_length: 4\n");
  EXPECT_DOUBLE_EQ(four.traffic.injection_rate, 4.0);
  const ConfigError short_packets = error_of(
      "topology:\n  board: 4x4\nrouter:\n  local_ports: 4\ntraffic:\n  injection_rate: 4\n  packet_length: 2\n");
  EXPECT_EQ(short_packets.key_path(), "traffic.injection_rate");
  EXPECT_NE(std::string(short_packets.what()).find("at most traffic.packet_length = 2 flits per node per cycle"),
            std::string::npos)
      << short_packets.what();
}

TEST(ConfigRange, NegativeInjectionRate) {
  EXPECT_CONFIG_ERROR(error_of("topology: {board: 4x4}\ntraffic: {injection_rate: -0.1}\n"), 2, 27,
                      "traffic.injection_rate", "a number in [0, 4]", "'-0.1'");
}

TEST(ConfigRange, PacketLength) {
  EXPECT_CONFIG_ERROR(error_of(kBase + "  packet_length: 0\n"), 5, 18, "traffic.packet_length", "an integer in 1..255",
                      "'0'");
}

TEST(ConfigRange, BoardSideAsString) {
  const ConfigError e = error_of(
      "topology:\n"
      "  board: 17x1\n"
      "traffic:\n"
      "  injection_rate: 0.1\n");
  EXPECT_CONFIG_ERROR(e, 2, 10, "topology.board", "a board size such as '4x4' or [4, 4], each side 1..16", "'17x1'");
}

TEST(ConfigRange, BoardSideAsList) {
  const ConfigError e = error_of(
      "topology:\n"
      "  board: [4, 17]\n"
      "traffic:\n"
      "  injection_rate: 0.1\n");
  EXPECT_CONFIG_ERROR(e, 2, 14, "topology.board[1]", "an integer in 1..16", "'17'");
}

TEST(ConfigRange, BoardListOfThree) {
  const ConfigError e = error_of("topology:\n  board: [4, 4, 4]\ntraffic:\n  injection_rate: 0.1\n");
  EXPECT_CONFIG_ERROR(e, 2, 10, "topology.board", "a board size such as '4x4' or [4, 4], each side 1..16",
                      "a list of 3 elements");
}

TEST(ConfigRange, Clock) {
  EXPECT_CONFIG_ERROR(error_of(kBase + "router:\n  clock: 20 GHz\n"), 6, 10, "router.clock",
                      "a frequency in (0 Hz, 10 GHz]", "'20 GHz'");
  EXPECT_CONFIG_ERROR(error_of(kBase + "router:\n  clock: 0 Hz\n"), 6, 10, "router.clock",
                      "a frequency in (0 Hz, 10 GHz]", "'0 Hz'");
}

TEST(ConfigRange, FlitWidth) {
  EXPECT_CONFIG_ERROR(error_of(kBase + "router:\n  flit_width: 64 bit\n"), 6, 15, "router.flit_width",
                      "a data size of 80..128 whole bits, such as '128 bit'", "'64 bit'");
  EXPECT_CONFIG_ERROR(error_of(kBase + "router:\n  flit_width: 100.5 bit\n"), 6, 15, "router.flit_width",
                      "a data size of 80..128 whole bits, such as '128 bit'", "'100.5 bit'");
}

TEST(ConfigRange, Seed) {
  EXPECT_CONFIG_ERROR(error_of(kBase + "run:\n  seed: -1\n"), 6, 9, "run.seed", "an integer in 0..18446744073709551615",
                      "'-1'");
  EXPECT_CONFIG_ERROR(error_of(kBase + "run:\n  seed: 18446744073709551616\n"), 6, 9, "run.seed",
                      "an integer in 0..18446744073709551615", "'18446744073709551616'");
  EXPECT_EQ(load_ok(kBase + "run:\n  seed: 18446744073709551615\n").run.seed, 18446744073709551615ull);
}

TEST(ConfigRange, MeasureAndWatchdogMustBePositive) {
  EXPECT_CONFIG_ERROR(error_of(kBase + "run:\n  measure: 0 cycles\n"), 6, 12, "run.measure",
                      "a duration > 0 such as '1000 cycles' or '1 us'", "'0 cycles'");
  EXPECT_CONFIG_ERROR(error_of(kBase + "run:\n  watchdog: 0 ns\n"), 6, 13, "run.watchdog",
                      "a duration > 0 such as '1000 cycles' or '1 us'", "'0 ns'");
  EXPECT_EQ(load_ok(kBase + "run:\n  warmup: 0 cycles\n").run.warmup_cycles, 0u);
}

TEST(ConfigRange, HugeDurationDoesNotOverflow) {
  EXPECT_CONFIG_ERROR(error_of(kBase + "run:\n  drain: 1e300 s\n"), 6, 10, "run.drain",
                      "a duration of at most 9007199254740992 cycles (9007199.25474099 s at 1 GHz)", "'1e300 s'");
}

TEST(ConfigRange, HotspotFraction) {
  const ConfigError e = error_of(kBase +
                                 "  pattern: hotspot\n"
                                 "  hotspot:\n"
                                 "    nodes: [1]\n"
                                 "    fraction: 0\n");
  EXPECT_CONFIG_ERROR(e, 8, 15, "traffic.hotspot.fraction", "a number in (0, 1]", "'0'");
}

// ---- units -------------------------------------------------------------------------------------------

TEST(ConfigUnits, MissingUnit) {
  const ConfigError e = error_of(kBase + "router:\n  clock: 1\n");
  EXPECT_CONFIG_ERROR(e, 6, 10, "router.clock", "a frequency such as '1 GHz'", "'1'");
  EXPECT_EQ(e.hint(), "the unit is missing: one of Hz, kHz, MHz, GHz");
}

TEST(ConfigUnits, UnknownUnitWithCaseSlip) {
  const ConfigError e = error_of(kBase + "router:\n  clock: 1 GHZ\n");
  EXPECT_CONFIG_ERROR(e, 6, 10, "router.clock", "a frequency unit: one of Hz, kHz, MHz, GHz", "'1 GHZ'");
  EXPECT_EQ(e.hint(), "did you mean 'GHz'?");
}

TEST(ConfigUnits, UnitOfAnotherQuantity) {
  const ConfigError e = error_of(kBase + "router:\n  clock: 128 Gb/s\n");
  EXPECT_CONFIG_ERROR(e, 6, 10, "router.clock", "a frequency unit: one of Hz, kHz, MHz, GHz", "'128 Gb/s'");
  EXPECT_EQ(e.hint(), "'Gb/s' is a bandwidth unit");
}

TEST(ConfigUnits, NotAQuantity) {
  EXPECT_CONFIG_ERROR(error_of(kBase + "router:\n  clock: fast\n"), 6, 10, "router.clock",
                      "a frequency such as '1 GHz'", "'fast'");
  EXPECT_CONFIG_ERROR(error_of(kBase + "router:\n  clock: [1, GHz]\n"), 6, 10, "router.clock",
                      "a frequency such as '1 GHz'", "a list");
}

TEST(ConfigUnits, BadDurations) {
  EXPECT_CONFIG_ERROR(error_of(kBase + "run:\n  warmup: 2.5 cycles\n"), 6, 11, "run.warmup", "a whole number of cycles",
                      "'2.5 cycles'");
  EXPECT_CONFIG_ERROR(error_of(kBase + "links:\n  local:\n    latency: -1 ns\n"), 7, 14, "links.local.latency",
                      "a duration >= 0 such as '1 ns' or '2000 cycles'", "'-1 ns'");
  const ConfigError e = error_of(kBase + "run:\n  warmup: 1000\n");
  EXPECT_CONFIG_ERROR(e, 6, 11, "run.warmup", "a duration such as '1 ns' or '2000 cycles'", "'1000'");
  EXPECT_EQ(e.hint(), "the unit is missing: one of s, ms, us, ns, ps, cycle, cycles");
}

TEST(ConfigUnits, ParseFunctions) {
  EXPECT_EQ(parse_frequency("1 GHz"), 1e9);
  EXPECT_EQ(parse_frequency("1.5GHz"), 1.5e9);
  EXPECT_EQ(parse_frequency("781.25 MHz"), 781.25e6);
  EXPECT_EQ(parse_bandwidth("128 Gb/s"), 128e9);
  EXPECT_EQ(parse_bandwidth("16 GB/s"), 128e9);
  EXPECT_EQ(parse_bandwidth("1 TB/s"), 8e12);
  EXPECT_EQ(parse_bandwidth("100 kb/s"), 1e5);
  EXPECT_EQ(parse_time("1 ns"), 1e-9);
  EXPECT_EQ(parse_time("2 us"), 2e-6);
  EXPECT_EQ(parse_time("1.5ns"), 1.5e-9);
  EXPECT_EQ(parse_time("3 ps"), 3e-12);
  EXPECT_EQ(parse_data_size("128 bit"), 128);
  EXPECT_EQ(parse_data_size("1 bits"), 1);
  EXPECT_EQ(parse_data_size("16 B"), 128);
  EXPECT_EQ(parse_data_size("1 KiB"), 8192);
  EXPECT_EQ(parse_data_size("1 kB"), 8000);
  EXPECT_EQ(parse_data_size("2 GiB"), 2.0 * 8 * 1024 * 1024 * 1024);

  const Duration cycles = parse_duration("2000 cycles");
  EXPECT_EQ(cycles.unit, Duration::Unit::Cycles);
  EXPECT_EQ(cycles.value, 2000);
  EXPECT_EQ(parse_duration("1 cycle").value, 1);
  const Duration time = parse_duration("2 us");
  EXPECT_EQ(time.unit, Duration::Unit::Seconds);
  EXPECT_EQ(time.value, 2e-6);
  EXPECT_EQ(time.to_cycles(1e9), 2000u);

  EXPECT_THROW(parse_bandwidth("16 Gbyte/s"), UnitError);  // only the listed spellings
  EXPECT_THROW(parse_time("1 NS"), UnitError);             // case-sensitive
  EXPECT_THROW(parse_frequency("GHz"), UnitError);
}

TEST(ConfigUnits, CyclesRoundUpWithTolerance) {
  EXPECT_EQ(cycles_for(1e-9, 1e9), 1u);
  EXPECT_EQ(cycles_for(1.5e-9, 1e9), 2u);
  EXPECT_EQ(cycles_for(0.3e-9 * 10, 1e9), 3u);  // 2.9999999999999996 is 3, not 4 or 2
  EXPECT_EQ(cycles_for(0, 1e9), 0u);
  EXPECT_EQ(cycles_for(1e-9, 1.5e9), 2u);        // 1.5 cycles
  EXPECT_EQ(cycles_for(1e-9 + 1e-12, 1e9), 2u);  // 1.001 cycles: a real fraction rounds up
}

TEST(ConfigUnits, Formatting) {
  EXPECT_EQ(format_frequency(1e9), "1 GHz");
  EXPECT_EQ(format_frequency(781.25e6), "781.25 MHz");
  EXPECT_EQ(format_frequency(500), "500 Hz");
  EXPECT_EQ(format_bandwidth(128e9), "128 Gb/s");
  EXPECT_EQ(format_bandwidth(12.8e9), "12.8 Gb/s");
  EXPECT_EQ(format_bandwidth(2e12), "2 Tb/s");
  EXPECT_EQ(format_time(1e-9), "1 ns");
  EXPECT_EQ(format_time(2e-6), "2 us");
  EXPECT_EQ(format_time(1.5), "1.5 s");
  EXPECT_EQ(format_time(0), "0 s");
  EXPECT_EQ(format_data_size(128), "128 bit");
  EXPECT_EQ(format_data_size(8 * 16000), "16 kB");
  EXPECT_EQ(format_duration(Duration::cycles(2000)), "2000 cycles");
  EXPECT_EQ(format_duration(Duration::cycles(1)), "1 cycle");
  EXPECT_EQ(format_duration(Duration::seconds(1e-9)), "1 ns");
  EXPECT_EQ(format_number(0.1), "0.1");
  EXPECT_EQ(format_number(50000), "50000");
  EXPECT_EQ(format_number(0.1 + 0.2), "0.3");
}

// ---- enumerations ------------------------------------------------------------------------------------

TEST(ConfigEnums, BadValueListsTheAllowedOnes) {
  const ConfigError e = error_of(kBase + "routing:\n  algorithm: north-last\n");
  EXPECT_CONFIG_ERROR(e, 6, 14, "routing.algorithm", "one of xy, north_last, min_adaptive", "'north-last'");
  EXPECT_EQ(e.hint(), "did you mean 'north_last'?");
  const ConfigError p = error_of(kBase + "  pattern: cyclone\n");
  EXPECT_CONFIG_ERROR(p, 5, 12, "traffic.pattern",
                      "one of uniform, permutation, transpose, bit_complement, bit_reversal, tornado, neighbor, "
                      "hotspot, alltoall",
                      "'cyclone'");
  EXPECT_EQ(p.hint(), "");
  EXPECT_CONFIG_ERROR(error_of(kBase + "router:\n  vc_policy: [any]\n"), 6, 14, "router.vc_policy", "one of any, keep",
                      "a list");
  EXPECT_CONFIG_ERROR(
      error_of("topology:\n  kind: ring\n  board: 4x4\ntraffic:\n  injection_rate: 0.1\n"), 2, 9, "topology.kind",
      "one of board, hammingmesh, fat_tree, torus, dragonfly, multidim, clex, torus3d, rail_only, rail_optimized",
      "'ring'");
}

TEST(ConfigEnums, CodesMatchTheRtlStraps) {
  // rtl/hx_pkg.sv: RouteXy = 0, RouteNorthLast = 1, RouteMinAdaptive = 2; VcKeep = 0, VcAny = 1.
  static_assert(static_cast<int>(RouteMode::Xy) == 0);
  static_assert(static_cast<int>(RouteMode::NorthLast) == 1);
  static_assert(static_cast<int>(RouteMode::MinAdaptive) == 2);
  static_assert(static_cast<int>(VcPolicy::Keep) == 0);
  static_assert(static_cast<int>(VcPolicy::Any) == 1);
  EXPECT_EQ(route_mode_name(RouteMode::MinAdaptive), "min_adaptive");
  EXPECT_EQ(vc_policy_name(VcPolicy::Any), "any");
  EXPECT_EQ(pattern_name(Pattern::BitComplement), "bit_complement");
  EXPECT_EQ(load_ok(kBase + "routing: {algorithm: xy}\nrouter: {vc_policy: any}\n").router.routing, RouteMode::Xy);
}

// ---- cross-key checks --------------------------------------------------------------------------------

TEST(ConfigConsistency, HotspotPatternWithoutHotspotSection) {
  const ConfigError e = error_of(kBase + "  pattern: hotspot\n");
  EXPECT_CONFIG_ERROR(e, 4, 3, "traffic.hotspot",
                      "key 'hotspot' (a map with nodes and fraction, required when pattern is hotspot)",
                      "a map with keys injection_rate, pattern");
  EXPECT_EQ(e.problem(), "missing required key");
}

TEST(ConfigConsistency, HotspotSectionWithAnotherPattern) {
  const ConfigError e = error_of(kBase +
                                 "  hotspot:\n"
                                 "    nodes: [1]\n"
                                 "    fraction: 0.5\n");
  EXPECT_CONFIG_ERROR(e, 6, 5, "traffic.hotspot", "no hotspot map, since traffic.pattern is 'uniform'", "a map");
  EXPECT_EQ(e.hint(), "remove it, or --set traffic.hotspot=~");
}

TEST(ConfigConsistency, IncludeSelfOnlyForUniform) {
  EXPECT_TRUE(load_config_text(kBase + "  include_self: true\n", "t.yaml").traffic.include_self);
  const ConfigError e = error_of(kBase + "  include_self: true\n  pattern: neighbor\n");
  EXPECT_EQ(e.key_path(), "traffic.include_self");
  EXPECT_EQ(e.expected(), "false, since traffic.pattern is 'neighbor'");
  const ConfigError bad = error_of(kBase + "  include_self: yes please\n");
  EXPECT_EQ(bad.key_path(), "traffic.include_self");
}

TEST(ConfigConsistency, BitErrorsOnlyOnCablesAndInRange) {
  const std::string hxmesh = "topology: {kind: hammingmesh, board: 2x2, global: 2x2}\ntraffic: {injection_rate: 0.1}\n";
  EXPECT_EQ(load_config_text(hxmesh + "links: {global: {bit_error_rate: 1e-4}}\n", "t.yaml").global_link.bit_error_rate,
            1e-4);
  const ConfigError high = error_of(hxmesh + "links: {global: {bit_error_rate: 0.5}}\n");
  EXPECT_EQ(high.key_path(), "links.global.bit_error_rate");
  EXPECT_EQ(high.expected(), "a number in [0, 0.01]");
  // A board has no cables (its links are PCB traces): links.global is refused there.
  const ConfigError board = error_of(kBase + "links: {global: {bit_error_rate: 1e-4}}\n");
  EXPECT_EQ(board.key_path(), "links.global");
  const ConfigError local = error_of(hxmesh + "links: {local: {bit_error_rate: 1e-4}}\n");
  EXPECT_EQ(local.key_path(), "links.local.bit_error_rate") << "only cables have the key";
}

TEST(ConfigConsistency, HotspotSectionMissesFraction) {
  const ConfigError e = error_of(kBase +
                                 "  pattern: hotspot\n"
                                 "  hotspot:\n"
                                 "    nodes: [1]\n");
  EXPECT_CONFIG_ERROR(e, 7, 5, "traffic.hotspot.fraction", "key 'fraction' (a number in (0, 1])",
                      "a map with keys nodes");
}

TEST(ConfigConsistency, HotspotNodeOutOfRange) {
  const ConfigError e = error_of(kBase +
                                 "  pattern: hotspot\n"
                                 "  hotspot:\n"
                                 "    nodes: [0, 5, 16]\n"
                                 "    fraction: 0.2\n");
  EXPECT_CONFIG_ERROR(e, 7, 19, "traffic.hotspot.nodes[2]", "a node index in 0..15 (the 4x4 board has 16 nodes)",
                      "'16'");
}

TEST(ConfigConsistency, HotspotNodesInBlockList) {
  const ConfigError e = error_of(kBase +
                                 "  pattern: hotspot\n"
                                 "  hotspot:\n"
                                 "    fraction: 0.2\n"
                                 "    nodes:\n"
                                 "      - 3\n"
                                 "      - 3\n");
  EXPECT_CONFIG_ERROR(e, 10, 9, "traffic.hotspot.nodes[1]", "each node listed once", "'3' again");
  EXPECT_EQ(e.hint(), "first at traffic.hotspot.nodes[0]");
}

TEST(ConfigConsistency, HotspotNodesEmpty) {
  const ConfigError e = error_of(kBase + "  pattern: hotspot\n  hotspot: {nodes: [], fraction: 0.2}\n");
  EXPECT_CONFIG_ERROR(e, 6, 20, "traffic.hotspot.nodes", "a non-empty list of node indices such as [0, 5]",
                      "an empty list");
}

TEST(ConfigConsistency, HotspotLoads) {
  const SimConfig c = load_ok(kBase + "  pattern: hotspot\n  hotspot: {nodes: [15, 0], fraction: 0.25}\n");
  EXPECT_EQ(c.traffic.pattern, Pattern::Hotspot);
  EXPECT_EQ(c.traffic.hotspot_nodes, (std::vector<unsigned>{15, 0}));
  EXPECT_EQ(c.traffic.hotspot_fraction, 0.25);
}

TEST(ConfigConsistency, TransposeNeedsSquareBoard) {
  const ConfigError e = error_of(
      "topology:\n"
      "  board: 3x4\n"
      "traffic:\n"
      "  pattern: transpose\n"
      "  injection_rate: 0.1\n");
  EXPECT_CONFIG_ERROR(e, 4, 12, "traffic.pattern", "a pattern valid on the 3x4 board", "'transpose'");
  EXPECT_EQ(e.hint(), "transpose maps (x, y) to (y, x), so it needs equal extents along x and y; the node grid is 3x4");
}

TEST(ConfigConsistency, BitComplementNeedsPowerOfTwoNodes) {
  const ConfigError e = error_of(
      "topology:\n"
      "  board: 3x3\n"
      "traffic:\n"
      "  pattern: bit_complement\n"
      "  injection_rate: 0.1\n");
  EXPECT_CONFIG_ERROR(e, 4, 12, "traffic.pattern", "a pattern valid on the 3x3 board", "'bit_complement'");
  EXPECT_EQ(e.hint(), "bit_complement needs a power-of-two node count; the node grid 3x3 has 9 nodes");
  EXPECT_EQ(
      load_ok("topology: {board: 2x8}\ntraffic: {pattern: bit_complement, injection_rate: 0.1}\n").traffic.pattern,
      Pattern::BitComplement);
}

TEST(ConfigConsistency, NeighborAndPermutationOnAnyBoard) {
  EXPECT_EQ(load_ok("topology: {board: 3x5}\ntraffic: {pattern: neighbor, injection_rate: 0.1}\n").traffic.pattern,
            Pattern::Neighbor);
  EXPECT_EQ(load_ok("topology: {board: 1x1}\ntraffic: {pattern: permutation, injection_rate: 0.1}\n").traffic.pattern,
            Pattern::Permutation);
}

TEST(ConfigConsistency, BandwidthMustBeOneFlitPerCycle) {
  const ConfigError e = error_of(kBase +
                                 "links:\n"
                                 "  local:\n"
                                 "    bandwidth: 100 Gb/s\n");
  EXPECT_CONFIG_ERROR(e, 7, 16, "links.local.bandwidth",
                      "128 Gb/s = router.flit_width 128 bit x router.clock 1 GHz (one flit per cycle)", "'100 Gb/s'");
  EXPECT_EQ(e.hint(),
            "100 Gb/s is 100 bit per cycle at 1 GHz; it would match router.clock: 781.25 MHz or router.flit_width: "
            "100 bit");
}

TEST(ConfigConsistency, BandwidthFollowsClockAndFlitWidth) {
  const SimConfig c =
      load_ok(kBase + "router: {clock: 2 GHz, flit_width: 96 bit}\nlinks: {local: {bandwidth: 24 GB/s}}\n");
  EXPECT_EQ(c.local_link.bandwidth_bps, 192e9);
  EXPECT_EQ(c.link_word_bits(), 100u);
}

TEST(ConfigConsistency, InjectionBandwidthAboveOneFlitPerCycle) {
  const ConfigError e = error_of(
      "topology:\n"
      "  board: 4x4\n"
      "traffic:\n"
      "  injection_rate: 200 Gb/s\n");
  EXPECT_CONFIG_ERROR(e, 4, 19, "traffic.injection_rate",
                      "at most 1 flit per node per cycle (router.local_ports = 1: one flit per local lane)",
                      "1.5625 flits per node per cycle");
  const ConfigError beyond = error_of("topology:\n  board: 4x4\ntraffic:\n  injection_rate: 600 Gb/s\n");
  EXPECT_CONFIG_ERROR(beyond, 4, 19, "traffic.injection_rate",
                      "a bandwidth from 0 to 512 Gb/s (one 128-bit flit per local lane and cycle at 1 GHz, at most 4 "
                      "lanes)",
                      "'600 Gb/s'");
}

// ---- conversions and defaults ---------------------------------------------------------------------

TEST(ConfigConvert, LatencyInTimeAndCycles) {
  SimConfig c = load_ok(kBase + "links:\n  local:\n    latency: 1 ns\n");
  EXPECT_EQ(c.local_link.latency_cycles, 1u);
  EXPECT_TRUE(has_line(c, "links.local.latency 1 ns at 1 GHz = 1 cycle"));

  c = load_ok(kBase + "links:\n  local:\n    latency: 1.5 ns\n");
  EXPECT_EQ(c.local_link.latency_cycles, 2u);
  EXPECT_EQ(c.local_link.latency_s, 1.5e-9);
  EXPECT_TRUE(has_line(c, "links.local.latency 1.5 ns at 1 GHz = 2 cycles (rounded up from 1.5)"));

  c = load_ok(kBase + "links:\n  local:\n    latency: 0 cycles\n");
  EXPECT_EQ(c.local_link.latency_cycles, 0u);

  c = load_ok(kBase + "router:\n  clock: 500 MHz\nlinks:\n  local:\n    latency: 3 cycles\n");
  EXPECT_EQ(c.local_link.latency_cycles, 3u);
  EXPECT_DOUBLE_EQ(c.local_link.latency_s, 6e-9);
}

TEST(ConfigConvert, RunDurationsInTime) {
  const SimConfig c = load_ok(kBase + "run:\n  warmup: 2 us\n  measure: 10 us\n  drain: 1 ms\n  watchdog: 500 ns\n");
  EXPECT_EQ(c.run.warmup_cycles, 2000u);
  EXPECT_EQ(c.run.measure_cycles, 10000u);
  EXPECT_EQ(c.run.drain_cycles, 1000000u);
  EXPECT_EQ(c.run.watchdog_cycles, 500u);
  EXPECT_TRUE(has_line(c, "run.warmup 2 us at 1 GHz = 2000 cycles"));
}

TEST(ConfigConvert, BandwidthInBytes) {
  const SimConfig c = load_ok(kBase + "links:\n  local:\n    bandwidth: 16 GB/s\n");
  EXPECT_EQ(c.local_link.bandwidth_bps, 128e9);
}

TEST(ConfigConvert, InjectionRateAsBandwidth) {
  SimConfig c = load_ok("topology: {board: 4x4}\ntraffic: {injection_rate: 12.8 Gb/s}\n");
  EXPECT_NEAR(c.traffic.injection_rate, 0.1, 1e-12);
  EXPECT_TRUE(
      has_line(c, "traffic.injection_rate 12.8 Gb/s / 128 Gb/s per flit per cycle = 0.1 flits per node per cycle"));
  c = load_ok("topology: {board: 4x4}\ntraffic: {injection_rate: 16 GB/s}\n");
  EXPECT_EQ(c.traffic.injection_rate, 1.0);
  c = load_ok("topology: {board: 4x4}\nrouter: {clock: 2 GHz}\ntraffic: {injection_rate: 64 Gb/s}\n");
  EXPECT_EQ(c.traffic.injection_rate, 0.25);
}

TEST(ConfigConvert, DefaultsWhenKeysAreAbsent) {
  const SimConfig c = load_ok(kBase);
  EXPECT_EQ(c.source, "t.yaml");
  EXPECT_EQ(c.name, "t");
  EXPECT_EQ(c.description, "");
  EXPECT_EQ(c.topology.kind, "board");
  EXPECT_EQ(c.topology.board_x, 4u);
  EXPECT_EQ(c.topology.board_y, 4u);
  EXPECT_EQ(c.router.clock_hz, 1e9);
  EXPECT_EQ(c.router.routing, RouteMode::NorthLast);
  EXPECT_EQ(c.router.vc_policy, VcPolicy::Keep);
  EXPECT_EQ(c.router.vcs, 3u);
  EXPECT_EQ(c.router.buffer_depth, 8u);
  EXPECT_EQ(c.router.flit_width_bits, 128u);
  EXPECT_EQ(c.local_link.bandwidth_bps, 128e9);
  EXPECT_EQ(c.local_link.latency_cycles, 1u);
  EXPECT_EQ(c.local_link.latency_s, 1e-9);
  EXPECT_EQ(c.traffic.pattern, Pattern::Uniform);
  EXPECT_EQ(c.traffic.injection_rate, 0.1);
  EXPECT_EQ(c.traffic.packet_length, 1u);
  EXPECT_TRUE(c.traffic.hotspot_nodes.empty());
  EXPECT_EQ(c.run.warmup_cycles, 1000u);
  EXPECT_EQ(c.run.measure_cycles, 10000u);
  EXPECT_EQ(c.run.drain_cycles, 50000u);
  EXPECT_EQ(c.run.watchdog_cycles, 2000u);
  EXPECT_EQ(c.run.seed, 1u);
  EXPECT_TRUE(has_line(c, "flit: 128 bit payload + 2 bit type + 2 bit VC = 132-bit link word"));
  EXPECT_TRUE(has_line(c, "links.local.bandwidth 128 Gb/s = 128 bit x 1 GHz: one flit per cycle (derived, not given)"));
}

TEST(ConfigConvert, NameDefaultsToTheFileStem) {
  EXPECT_EQ(load_config_text(kBase, "some/dir/my_run.yaml").name, "my_run");
  EXPECT_EQ(load_config_text(kBase, "<built-in>").name, "built-in");
  EXPECT_EQ(load_config_text(kBase + "name: explicit\n", "x.yaml").name, "explicit");
}

TEST(ConfigConvert, BoardAsList) {
  const SimConfig c = load_ok("topology: {board: [2, 8]}\ntraffic: {injection_rate: 0}\n");
  EXPECT_EQ(c.topology.board_x, 2u);
  EXPECT_EQ(c.topology.board_y, 8u);
  EXPECT_EQ(c.node_count(), 16u);
}

// ---- --set overrides ---------------------------------------------------------------------------------

TEST(ConfigOverride, GoodOverrides) {
  const SimConfig c = load_ok(kBase, {"router.vcs=4", "topology.board=[2, 2]", "traffic.pattern=transpose",
                                      "router.clock=2 GHz", "run.warmup=3 us", "name=from_cli"});
  EXPECT_EQ(c.router.vcs, 4u);
  EXPECT_EQ(c.topology.board_x, 2u);
  EXPECT_EQ(c.topology.board_y, 2u);
  EXPECT_EQ(c.traffic.pattern, Pattern::Transpose);
  EXPECT_EQ(c.router.clock_hz, 2e9);
  EXPECT_EQ(c.local_link.bandwidth_bps, 256e9);  // derived from the overridden clock
  EXPECT_EQ(c.run.warmup_cycles, 6000u);
  EXPECT_EQ(c.name, "from_cli");
}

TEST(ConfigOverride, OverrideFixesABadFileValue) {
  EXPECT_EQ(load_ok(kBase + "router:\n  vcs: 9\n", {"router.vcs=2"}).router.vcs, 2u);
}

TEST(ConfigOverride, LaterOverrideWins) { EXPECT_EQ(load_ok(kBase, {"router.vcs=1", "router.vcs=2"}).router.vcs, 2u); }

TEST(ConfigOverride, CreatesMissingSections) {
  const SimConfig c = load_ok("topology:\n  board: 4x4\n", {"traffic.injection_rate=0.3", "links.local.latency=4 ns"});
  EXPECT_EQ(c.traffic.injection_rate, 0.3);
  EXPECT_EQ(c.local_link.latency_cycles, 4u);
  EXPECT_EQ(load_ok("", {"topology.board=2x2", "traffic.injection_rate=0"}).node_count(), 4u);
}

TEST(ConfigOverride, WholeSectionAndRemoval) {
  const std::string hotspot = kBase + "  pattern: hotspot\n  hotspot: {nodes: [1], fraction: 0.5}\n";
  EXPECT_EQ(load_ok(hotspot, {"traffic.hotspot={nodes: [2, 3], fraction: 0.1}"}).traffic.hotspot_nodes,
            (std::vector<unsigned>{2, 3}));
  const SimConfig c = load_ok(hotspot, {"traffic.pattern=uniform", "traffic.hotspot=~"});
  EXPECT_EQ(c.traffic.pattern, Pattern::Uniform);
  EXPECT_TRUE(c.traffic.hotspot_nodes.empty());
}

TEST(ConfigOverride, UnknownKey) {
  const ConfigError e = error_of(kBase, {"traffic.rate=0.2"});
  EXPECT_EQ(e.file(), "--set traffic.rate=0.2");
  EXPECT_EQ(e.line(), 0);
  EXPECT_EQ(e.key_path(), "traffic.rate");
  EXPECT_STREQ(e.what(),
               "--set traffic.rate=0.2: traffic.rate: unknown key, expected one of pattern, injection_rate, "
               "packet_length, message_packets, include_self, source_queue, hotspot, found 'rate' (did you mean "
               "'injection_rate'?)");
}

TEST(ConfigOverride, UnknownTopLevelKey) {
  const ConfigError e = error_of(kBase, {"board.size=[4,4]"});
  EXPECT_EQ(e.key_path(), "board");
  EXPECT_EQ(e.found(), "'board'");
  EXPECT_EQ(e.hint(), "did you mean 'topology.board'?");
}

TEST(ConfigOverride, KeyBelowAValue) {
  const ConfigError e = error_of(kBase, {"router.vcs.max=4"});
  EXPECT_EQ(e.file(), "--set router.vcs.max=4");
  EXPECT_EQ(e.key_path(), "router.vcs.max");
  EXPECT_EQ(e.expected(), "nothing below 'router.vcs', which holds an integer in 1..8");
}

TEST(ConfigOverride, BadValueReportsTheOverride) {
  const ConfigError e = error_of(kBase + "router:\n  vcs: 2\n", {"router.vcs=9"});
  EXPECT_EQ(e.file(), "--set router.vcs=9");
  EXPECT_EQ(e.line(), 0);
  EXPECT_EQ(e.column(), 0);
  EXPECT_STREQ(e.what(), "--set router.vcs=9: router.vcs: expected an integer in 1..8, found '9'");
}

TEST(ConfigOverride, BadValueNestedInAnOverriddenMap) {
  const ConfigError e = error_of(
      kBase, {"topology.board=[2,2]", "traffic.pattern=hotspot", "traffic.hotspot={nodes: [1, 7], fraction: 0.5}"});
  EXPECT_EQ(e.file(), "--set traffic.hotspot={nodes: [1, 7], fraction: 0.5}");
  EXPECT_EQ(e.key_path(), "traffic.hotspot.nodes[1]");
  EXPECT_EQ(e.expected(), "a node index in 0..3 (the 2x2 board has 4 nodes)");
  EXPECT_EQ(e.found(), "'7'");
}

TEST(ConfigOverride, ReplacedOverrideNoLongerOwnsItsPath) {
  // router.vcs is set by the first override, then the whole router map by the second: the bad
  // value belongs to the second.
  const ConfigError e = error_of(kBase, {"router.vcs=2", "router={vcs: 9}"});
  EXPECT_EQ(e.file(), "--set router={vcs: 9}");
  EXPECT_EQ(e.key_path(), "router.vcs");
}

TEST(ConfigOverride, CrossKeyErrorStaysAtTheFileValue) {
  // The override is valid on its own; the file's bandwidth no longer matches the new clock.
  const ConfigError e = error_of(kBase + "links:\n  local:\n    bandwidth: 128 Gb/s\n", {"router.clock=2 GHz"});
  EXPECT_CONFIG_ERROR(e, 7, 16, "links.local.bandwidth",
                      "256 Gb/s = router.flit_width 128 bit x router.clock 2 GHz (one flit per cycle)", "'128 Gb/s'");
}

TEST(ConfigOverride, NeedsAMapAlongThePath) {
  const ConfigError e = error_of(kBase + "router: 5\n", {"router.vcs=3"});
  EXPECT_CONFIG_ERROR(e, 5, 9, "router",
                      "a map with keys clock, vc_policy, vcs, buffer_depth, flit_width, local_ports, model", "'5'");
}

TEST(ConfigOverride, MissingEquals) {
  const ConfigError e = error_of(kBase, {"router.vcs"});
  EXPECT_EQ(e.file(), "--set router.vcs");
  EXPECT_EQ(e.key_path(), "");
  EXPECT_STREQ(e.what(), "--set router.vcs: expected key.path=value (e.g. router.vcs=4), found 'router.vcs'");
}

TEST(ConfigOverride, EmptyPathPart) {
  EXPECT_EQ(error_of(kBase, {"router..vcs=3"}).expected(), "key.path=value (e.g. router.vcs=4)");
  EXPECT_EQ(error_of(kBase, {"=3"}).expected(), "key.path=value (e.g. router.vcs=4)");
}

TEST(ConfigOverride, ValueSyntaxError) {
  const ConfigError e = error_of(kBase, {"topology.board=[4,4"});
  EXPECT_EQ(e.file(), "--set topology.board=[4,4");
  EXPECT_EQ(e.key_path(), "topology.board");
  EXPECT_EQ(e.problem(), "YAML syntax error in the value: end of sequence flow not found");
}

TEST(ConfigOverride, EmptyValueForALeaf) {
  const ConfigError e = error_of(kBase, {"router.vcs="});
  EXPECT_EQ(e.file(), "--set router.vcs=");
  EXPECT_EQ(e.found(), "an empty value");
}

// ---- the reader's helpers ------------------------------------------------------------------------

TEST(ConfigReaderHelpers, ClosestMatch) {
  const std::vector<std::string> keys = {"pattern", "injection_rate", "packet_length", "hotspot"};
  EXPECT_EQ(closest_match("injecton_rate", keys), "injection_rate");
  EXPECT_EQ(closest_match("Pattern", keys), "pattern");
  EXPECT_EQ(closest_match("rate", keys), "injection_rate");
  EXPECT_EQ(closest_match("length", keys), "packet_length");
  EXPECT_EQ(closest_match("zzz", keys), "");
  EXPECT_EQ(closest_match("p", keys), "");
}

TEST(ConfigReaderHelpers, Intervals) {
  EXPECT_EQ((Interval{0, 1}).str(), "[0, 1]");
  EXPECT_EQ((Interval{0, 1, true}).str(), "(0, 1]");
  EXPECT_FALSE((Interval{0, 1, true}).contains(0));
  EXPECT_TRUE((Interval{0, 1, true}).contains(1));
}

// ---- shipped and built-in configs ---------------------------------------------------------------

// A cost config (`hxsim cost`, a top-level `topologies` list), an alloc config (`hxsim alloc`,
// a top-level `systems` list) or a config of another model's kind (dgx2, nvswitch_tree: its
// builder names the nvswitch model) is no fabric config: cost_model_test, alloc_test and
// nv_topology_test load those.
bool is_cost_config(const std::string& file) {
  const auto other_model = [](const YAML::Node& kind) {
    if (!kind.IsScalar()) return false;
    for (const TopologyBuilder* b : topology_builders())
      if (b->kind() == kind.Scalar()) return std::string(b->model()) != "fabric";
    return false;
  };
  try {
    const YAML::Node root = YAML::LoadFile(file);
    return root.IsMap() && (root["topologies"].IsDefined() || root["systems"].IsDefined() ||
                            (root["topology"].IsMap() && other_model(root["topology"]["kind"])));
  } catch (const YAML::Exception&) {
    return false;  // AllLoadCleanly reports it
  }
}

std::vector<std::string> shipped_configs() {
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(HX_CONFIG_DIR))
    if (entry.path().extension() == ".yaml" && !is_cost_config(entry.path().string()))
      files.push_back(entry.path().string());
  return files;
}

TEST(ConfigShipped, AllLoadCleanly) {
  const auto files = shipped_configs();
  EXPECT_GE(files.size(), 2u);
  for (const std::string& f : files) {
    SCOPED_TRACE(f);
    try {
      const SimConfig c = load_config(f);
      EXPECT_EQ(c.name, std::filesystem::path(f).stem().string()) << "name should match the file";
      EXPECT_FALSE(c.description.empty());
    } catch (const ConfigError& e) {
      ADD_FAILURE() << e.what();
    }
  }
}

TEST(ConfigShipped, Mesh8x8Uniform) {
  const SimConfig c = load_config(std::string(HX_CONFIG_DIR) + "/mesh8x8_uniform.yaml");
  EXPECT_EQ(c.node_count(), 64u);
  EXPECT_EQ(c.router.routing, RouteMode::Xy);
  EXPECT_EQ(c.router.vc_policy, VcPolicy::Any);
  EXPECT_EQ(c.local_link.latency_cycles, 1u);
  EXPECT_EQ(c.traffic.pattern, Pattern::Uniform);
  EXPECT_EQ(c.traffic.packet_length, 1u);
}

TEST(ConfigShipped, Board4x4Adaptive) {
  const SimConfig c = load_config(std::string(HX_CONFIG_DIR) + "/board4x4_adaptive.yaml");
  EXPECT_EQ(c.router.routing, RouteMode::NorthLast);
  EXPECT_EQ(c.router.flit_width_bits, 128u);
  EXPECT_EQ(c.local_link.bandwidth_bps, 128e9);
  EXPECT_EQ(c.local_link.latency_cycles, 2u);
  EXPECT_NEAR(c.traffic.injection_rate, 0.2, 1e-12);
  EXPECT_EQ(c.run.warmup_cycles, 2000u);
  EXPECT_EQ(c.run.measure_cycles, 10000u);
}

TEST(ConfigShipped, OverrideErrorInAFileConfig) {
  try {
    load_config(std::string(HX_CONFIG_DIR) + "/mesh8x8_uniform.yaml", {"routing.algorithm=adaptive"});
    FAIL() << "no error";
  } catch (const ConfigError& e) {
    EXPECT_STREQ(e.what(),
                 "--set routing.algorithm=adaptive: routing.algorithm: expected one of xy, north_last, min_adaptive, "
                 "found 'adaptive' (did you mean 'min_adaptive'?)");
  }
}

// The routing keys of before the common `routing` section name their new place; a routing
// function of another kind of topology is refused.
TEST(ConfigRouting, OldKeysAndOtherKindsAreRefused) {
  const ConfigError old = error_of(kBase + "router:\n  routing: xy\n");
  EXPECT_EQ(old.key_path(), "router.routing");
  EXPECT_EQ(old.problem(), "renamed key");
  EXPECT_EQ(old.expected(), "'routing.algorithm'");
  const ConfigError ft = error_of(
      "topology: {kind: fat_tree, endpoints: 16}\nrouting: {algorithm: north_last}\ntraffic: {injection_rate: 0.1}\n");
  EXPECT_EQ(ft.key_path(), "routing.algorithm");
  EXPECT_EQ(ft.expected(), "one of updown");
  const SimConfig df = load_ok(
      "topology: {kind: dragonfly, dragonfly: {a: 4, p: 2, h: 2, groups: 9}}\nrouter: {vcs: 3}\n"
      "traffic: {injection_rate: 0.1}\n");
  EXPECT_TRUE(df.topology.dragonfly.ugal) << "UGAL-L is the default";
  const SimConfig min = load_ok(
      "topology: {kind: dragonfly, dragonfly: {a: 4, p: 2, h: 2, groups: 9}}\nrouter: {vcs: 3}\n"
      "routing: {algorithm: dragonfly_minimal}\ntraffic: {injection_rate: 0.1}\n");
  EXPECT_FALSE(min.topology.dragonfly.ugal);
}

TEST(ConfigShipped, BuiltInDefault) {
  const SimConfig c = load_config_text(default_config_yaml(), "<built-in>");
  EXPECT_EQ(c.name, "default");
  EXPECT_EQ(c.node_count(), 16u);
  EXPECT_EQ(c.router.routing, RouteMode::NorthLast);
  EXPECT_EQ(c.router.vc_policy, VcPolicy::Keep);
  EXPECT_EQ(c.router.vcs, 3u);
  EXPECT_EQ(c.traffic.pattern, Pattern::Uniform);
  EXPECT_EQ(c.traffic.injection_rate, 0.2);
  EXPECT_EQ(c.traffic.packet_length, 4u);
  EXPECT_EQ(c.run.warmup_cycles, 2000u);
  EXPECT_EQ(c.run.measure_cycles, 10000u);
}

TEST(ConfigShipped, EffectiveConfigRoundTrips) {
  std::vector<std::string> sources = {default_config_yaml(),
                                      kBase + "  pattern: hotspot\n  hotspot: {nodes: [3, 1], fraction: 0.3}\n"};
  for (const std::string& f : shipped_configs()) {
    std::ifstream in(f);
    std::stringstream ss;
    ss << in.rdbuf();
    sources.push_back(ss.str());
  }
  for (const std::string& yaml : sources) {
    const SimConfig a = load_ok(yaml);
    const std::string text = to_yaml(a);
    SCOPED_TRACE(text);
    const SimConfig b = load_ok(text);
    EXPECT_EQ(effective_values(a), effective_values(b));
    EXPECT_EQ(text, to_yaml(b));
  }
}

TEST(ConfigShipped, DocsDescribeEveryKey) {
  std::ifstream in(HX_DOCS_DIR "/config.md");
  ASSERT_TRUE(in) << HX_DOCS_DIR "/config.md";
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string docs = ss.str();
  const auto keys = config_keys();
  EXPECT_EQ(keys.size(), 88u);  // update docs/config.md when the schema changes
  for (const KeyInfo& k : keys)
    EXPECT_NE(docs.find("`" + k.path + "`"), std::string::npos) << k.path << " is not in docs/config.md";
}

// ---- hammingmesh: keys that depend on topology.kind ----------------------------------------------

const std::string kHxBase =
    "topology:\n"
    "  kind: hammingmesh\n"
    "  board: 2x2\n"
    "  global: 4x4\n"
    "traffic:\n"
    "  injection_rate: 0.1\n";

TEST(ConfigHammingMesh, LoadsWithTableIIIDefaults) {
  const SimConfig c = load_ok(kHxBase);
  EXPECT_EQ(c.topology.kind, "hammingmesh");
  EXPECT_EQ(c.node_count(), 64u);
  EXPECT_EQ(c.board_count(), 16u);
  EXPECT_EQ(c.global_link.latency_cycles, 20u);    // 20 ns at 1 GHz
  EXPECT_EQ(c.fabric_switch.latency_cycles, 80u);  // 40 ns in + 40 ns out
  EXPECT_EQ(c.fabric_switch.buffer_depth, 2u * 21u + 80u + 2u);
  EXPECT_EQ(tree_ports(c, true), 8u);  // 4 boards x 2 edges, one line
  EXPECT_EQ(tree_count(c, true), 8u);  // 4 board rows x 2 lines
}

TEST(ConfigHammingMesh, GlobalIsRequired) {
  const ConfigError e = error_of("topology:\n  kind: hammingmesh\n  board: 2x2\ntraffic:\n  injection_rate: 0.1\n");
  EXPECT_EQ(e.key_path(), "topology.global");
  EXPECT_EQ(e.problem(), "missing required key");
}

TEST(ConfigHammingMesh, HammingMeshKeysAreErrorsForABoard) {
  for (const char* extra : {"switch:\n  latency: 10 ns\n", "links:\n  global:\n    latency: 5 ns\n"}) {
    const ConfigError e = error_of(kBase + extra);
    EXPECT_NE(std::string(e.what()).find("since topology.kind is 'board'"), std::string::npos) << e.what();
  }
  const ConfigError g = error_of("topology:\n  board: 2x2\n  global: 4x4\ntraffic:\n  injection_rate: 0.1\n");
  EXPECT_EQ(g.key_path(), "topology.global");
  EXPECT_EQ(g.line(), 3);
}

TEST(ConfigHammingMesh, NeedsThreeVcsAndTheKeepPolicy) {
  const ConfigError v = error_of(kHxBase + "router:\n  vcs: 2\n");
  EXPECT_EQ(v.key_path(), "router.vcs");
  EXPECT_EQ(v.expected(), "at least 3 in a hammingmesh");
  const ConfigError p = error_of(kHxBase + "router:\n  vc_policy: any\n");
  EXPECT_EQ(p.key_path(), "router.vc_policy");
}

TEST(ConfigHammingMesh, TreeMustFitTwoLevels) {
  // 256 boards per row with radix 8: 512 ports need 128 leaves, more than a spine reaches.
  const ConfigError e = error_of(
      "topology:\n  kind: hammingmesh\n  board: 1x1\n  global: 256x2\n  tree:\n    radix: 8\n"
      "traffic:\n  injection_rate: 0.1\n");
  EXPECT_EQ(e.key_path(), "topology.tree.radix");
  EXPECT_NE(e.hint().find("three-level trees are modelled for topology.kind fat_tree only"), std::string::npos)
      << e.what();
}

TEST(ConfigHammingMesh, TreeShapes) {
  // Appendix A-C, large cluster: a 128-port tree of 64-port switches is 4 leaves + 2 spines,
  // a 256-port tree 8 + 4.
  const TreeShape t128 = tree_shape(128, 64, 1.0);
  EXPECT_EQ(t128.leaves, 4u);
  EXPECT_EQ(t128.spines, 2u);
  EXPECT_EQ(t128.spine_ports, 64u);
  // Appendix A-C's 50% tapered tree: 25 leaves of 42 down and 22 up, 9 spines.
  const TreeShape t50 = tree_shape(1024, 64, 22.0 / 42.0);
  EXPECT_EQ(t50.leaves, 25u);
  EXPECT_EQ(t50.down, 42u);
  EXPECT_EQ(t50.spines, 9u);
  EXPECT_LE(t50.spine_ports, 64u);
  const TreeShape t256 = tree_shape(256, 64, 1.0);
  EXPECT_EQ(t256.switches(), 12u);
  EXPECT_EQ(tree_shape(64, 64, 1.0).switches(), 1u);
  const TreeShape tapered = tree_shape(128, 64, 0.5);  // 43 down, 21 up
  EXPECT_EQ(tapered.down + tapered.up, 64u);
  EXPECT_EQ(tapered.leaves, 3u);
}

TEST(ConfigFatTree, ThreeLevelsAsAppendixAC2) {
  // Appendix A-C2, large cluster: "the first two levels have 512 switches each and the third
  // level would have 256"; the 50% and 75% tapered trees of 390 leaves (42 down, 22 up) and 322
  // leaves (51 down, 13 up) need 794 and 519 switches per plane (the paper's 8,304 for the 75%
  // tree is 519 x 16 planes).
  const TreeShape full = tree_shape(16384, 64, 1.0, true);
  ASSERT_TRUE(full.valid) << full.problem;
  EXPECT_EQ(full.levels(), 3u);
  EXPECT_EQ(full.leaves, 512u);
  EXPECT_EQ(full.middle_total, 512u);
  EXPECT_EQ(full.spines, 256u);
  EXPECT_EQ(full.pods, 16u);
  const TreeShape t50 = tree_shape(16380, 64, 0.5238, true);
  EXPECT_EQ(t50.leaves, 390u);
  EXPECT_EQ(t50.up, 22u);
  EXPECT_EQ(t50.switches(), 794u);
  const TreeShape t75 = tree_shape(16384, 64, 0.2549, true);
  EXPECT_EQ(t75.leaves, 322u);
  EXPECT_EQ(t75.up, 13u);
  EXPECT_EQ(t75.switches(), 519u);
  // The last pod of the 75% tree holds 2 leaves and one middle switch of 26 down and 26 up ports.
  EXPECT_EQ(t75.pod_size(t75.pods - 1), 2u);
  EXPECT_EQ(t75.middles(t75.pods - 1), 1u);
  EXPECT_EQ(t75.middle_ports(t75.pods - 1, 0), 26u);
  // Two levels where they suffice, and not three where they are not allowed.
  EXPECT_EQ(tree_shape(1024, 64, 1.0, true).levels(), 2u);
  EXPECT_FALSE(tree_shape(16384, 64, 1.0).valid);
  // More pods than a top has ports: no common top for some two pods.
  const TreeShape over = tree_shape(32, 4, 1.0, true);
  EXPECT_FALSE(over.valid);
  EXPECT_NE(over.problem.find("without a common top switch"), std::string::npos) << over.problem;
  const ConfigError e = error_of(
      "topology:\n  kind: fat_tree\n  endpoints: 32\n  tree: {radix: 4}\n"
      "traffic:\n  injection_rate: 0.1\n");
  EXPECT_EQ(e.key_path(), "topology.tree.radix");
  EXPECT_NE(std::string(e.what()).find("two- or three-level fat tree reaches 32 ports"), std::string::npos) << e.what();
}

TEST(ConfigFatTree, OneSpinePerUpPort) {
  // Appendix A-C's 50% tree: 25 leaves of 42 down and 22 up ports. The fewest spines hold the 550
  // up cables in 9 spines of 64 ports (2 or 3 cables to each leaf); one spine per up port gives 22
  // spines of 25 used ports, one cable to each leaf.
  const TreeShape fewest = tree_shape(1024, 64, 0.5238);
  EXPECT_EQ(fewest.spines, 9u);
  const TreeShape even = tree_shape(1024, 64, 0.5238, false, true);
  ASSERT_TRUE(even.valid) << even.problem;
  EXPECT_EQ(even.leaves, 25u);
  EXPECT_EQ(even.spines, 22u);
  EXPECT_EQ(even.spine_ports, 25u);
  EXPECT_EQ(even.levels(), 2u);
  const SimConfig c = load_ok(
      "topology:\n  kind: fat_tree\n  endpoints: 1024\n  tree: {taper: 0.5238, spines: per_up_port}\n"
      "traffic:\n  injection_rate: 0.1\n");
  EXPECT_TRUE(c.topology.tree_spine_per_up_port);
  // More leaves than a spine's ports: an error at the key, with the count.
  const ConfigError many = error_of(
      "topology:\n  kind: fat_tree\n  endpoints: 4096\n  tree: {spines: per_up_port}\n"
      "traffic:\n  injection_rate: 0.1\n");
  EXPECT_EQ(many.key_path(), "topology.tree.spines");
  EXPECT_NE(std::string(many.what()).find("128 leaves"), std::string::npos) << many.what();
  const ConfigError word = error_of(
      "topology:\n  kind: fat_tree\n  endpoints: 1024\n  tree: {spines: even}\ntraffic:\n  injection_rate: 0.1\n");
  EXPECT_EQ(word.key_path(), "topology.tree.spines");
  // The HammingMesh trees keep the fewest spines: the key is refused there.
  const ConfigError hx = error_of(
      "topology:\n  kind: hammingmesh\n  board: 2x2\n  global: 4x4\n  tree: {spines: per_up_port}\n"
      "traffic:\n  injection_rate: 0.1\n");
  EXPECT_EQ(hx.key_path(), "topology.tree.spines");
}

TEST(ConfigRouterModel, SwitchRoutersOnlyOnAHammingMesh) {
  const std::string hx =
      "topology:\n  kind: hammingmesh\n  board: 2x2\n  global: 4x4\ntraffic:\n  injection_rate: 0.1\n";
  EXPECT_FALSE(load_ok(hx).router.switch_model);
  const SimConfig c = load_ok(hx + "router:\n  model: switch\n  vcs: 6\n");
  EXPECT_TRUE(c.router.switch_model);
  // The RTL's 2-bit VC field does not bind C++ switch routers.
  EXPECT_EQ(c.router.vcs, 6u);
  EXPECT_EQ(error_of(hx + "router:\n  vcs: 6\n").key_path(), "router.vcs");
  const ConfigError word = error_of(hx + "router:\n  model: behavioural\n");
  EXPECT_EQ(word.key_path(), "router.model");
  // A lone board is RTL, a torus's routers are C++ switches: each kind has one.
  const ConfigError board = error_of(
      "topology:\n  kind: board\n  board: 4x4\nrouter:\n  model: switch\n"
      "traffic:\n  injection_rate: 0.1\n");
  EXPECT_EQ(board.key_path(), "router.model");
  EXPECT_NE(std::string(board.what()).find("only a hammingmesh"), std::string::npos) << board.what();
  const ConfigError torus = error_of(
      "topology:\n  kind: torus\n  board: 2x2\n  global: 4x4\nrouter:\n  model: rtl\n"
      "traffic:\n  injection_rate: 0.1\n");
  EXPECT_EQ(torus.key_path(), "router.model");
  // Jobs are checked against the RTL boards' entries.
  const ConfigError jobs = error_of(
      "topology:\n  kind: hammingmesh\n  board: 2x2\n  global: 4x4\nrouter:\n  model: switch\n"
      "collective:\n  operation: allreduce\n  algorithm: ring\n  message: 64 KiB\n  jobs: [2x2, 2x2]\n");
  EXPECT_EQ(jobs.key_path(), "collective.jobs");
}

TEST(ConfigFatTree, EndpointsInsteadOfABoard) {
  const SimConfig c = load_ok("topology:\n  kind: fat_tree\n  endpoints: 1024\ntraffic:\n  injection_rate: 0.1\n");
  EXPECT_EQ(c.topology.kind, "fat_tree");
  EXPECT_EQ(c.node_count(), 1024u);
  EXPECT_EQ(c.board_count(), 0u);
  const TreeShape t = tree_shape(1024, 64, 1.0);  // appendix A-C: 32 leaves + 16 spines
  EXPECT_EQ(t.leaves, 32u);
  EXPECT_EQ(t.spines, 16u);
  const ConfigError missing = error_of("topology:\n  kind: fat_tree\ntraffic:\n  injection_rate: 0.1\n");
  EXPECT_EQ(missing.key_path(), "topology.endpoints");
  EXPECT_EQ(missing.problem(), "missing required key");
  const ConfigError board =
      error_of("topology:\n  kind: fat_tree\n  endpoints: 64\n  board: 4x4\ntraffic:\n  injection_rate: 0.1\n");
  EXPECT_EQ(board.key_path(), "topology.board");
  EXPECT_EQ(board.line(), 4);
  const ConfigError endpoints = error_of(kBase + "topology:\n  endpoints: 64\n");
  EXPECT_NE(std::string(endpoints.what()).find("duplicate key"), std::string::npos) << endpoints.what();
  const ConfigError stray = error_of("topology:\n  board: 4x4\n  endpoints: 64\ntraffic:\n  injection_rate: 0.1\n");
  EXPECT_EQ(stray.key_path(), "topology.endpoints");
}

TEST(ConfigDragonfly, EndpointsFromGroupsAndErrors) {
  const std::string df =
      "topology:\n  kind: dragonfly\n  dragonfly: {a: 16, p: 8, h: 8, groups: 8}\n"
      "traffic:\n  injection_rate: 0.1\n";
  const SimConfig c = load_ok(df);
  EXPECT_EQ(c.topology.kind, "dragonfly");
  EXPECT_EQ(c.node_count(), 1024u);
  EXPECT_TRUE(c.topology.dragonfly.ugal);
  const ConfigError groups = error_of(df, {"topology.dragonfly.groups=130"});
  EXPECT_EQ(groups.key_path(), "topology.dragonfly.groups");
  EXPECT_EQ(groups.expected(), "at most a * h + 1 = 129 groups");
  const ConfigError missing = error_of("topology:\n  kind: dragonfly\ntraffic:\n  injection_rate: 0.1\n");
  EXPECT_EQ(missing.key_path(), "topology.dragonfly");
  const ConfigError vcs = error_of(df, {"router.vcs=2"});
  EXPECT_EQ(vcs.key_path(), "router.vcs");
  const ConfigError board = error_of(df, {"topology.board=4x4"});
  EXPECT_EQ(board.key_path(), "topology.board");
}

TEST(ConfigTorus, BoardsAndGlobalRequiredTwoVcs) {
  const std::string t = "topology:\n  kind: torus\n  board: 2x2\n  global: 16x16\ntraffic:\n  injection_rate: 0.1\n";
  const SimConfig c = load_ok(t);
  EXPECT_EQ(c.topology.kind, "torus");
  EXPECT_EQ(c.system_x(), 32u);
  EXPECT_EQ(c.node_count(), 1024u);
  // The routers are accelerators' routers (one-cycle pipeline): auto buffers cover a cable.
  EXPECT_EQ(c.fabric_switch.buffer_depth, 2u * 21u + 1u + 2u);
  EXPECT_EQ(error_of(t, {"router.vcs=1"}).key_path(), "router.vcs");
  EXPECT_EQ(error_of("topology:\n  kind: torus\n  board: 2x2\ntraffic:\n  injection_rate: 0.1\n").key_path(),
            "topology.global");
  EXPECT_EQ(error_of(t, {"topology.tree.radix=32"}).key_path(), "topology.tree");
}

TEST(ConfigHammingMesh, PlanesOnlyForAHammingMesh) {
  EXPECT_EQ(load_ok(kHxBase, {"topology.planes=4"}).topology.planes, 4u);
  const ConfigError e = error_of(kBase, {"topology.planes=2"});
  EXPECT_EQ(e.key_path(), "topology.planes");
  EXPECT_EQ(e.expected(), "at most 1 for a board");
}

TEST(ConfigHammingMesh, SpanBoardServesAllLinesOfABoardRow) {
  const SimConfig c = load_ok(kHxBase, {"topology.tree.span=board"});
  EXPECT_EQ(tree_ports(c, true), 16u);  // 4 boards x 2 lines x 2 edges
  EXPECT_EQ(tree_count(c, false), 4u);
}

}  // namespace
}  // namespace hx
