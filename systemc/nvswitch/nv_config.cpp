#include "nv_config.h"
#include "faults.h"

#include <algorithm>
#include <cmath>
#include <functional>

#include "config_reader.h"
#include "nv_routing.h"
#include "nv_system_builder.h"
#include "reduction_bank.h"

namespace hx::nv {

namespace {

// "table (routing and multicast tables, ...)": the registered routing functions.
std::string routings_text() {
  std::string t;
  for (const RegisteredNvRouting& r : nv_routings()) t += (t.empty() ? "" : ", ") + r.name + " (" + r.description + ")";
  return t;
}

// "dgx2 or nvswitch_tree": the registered kinds.
std::string kinds_text() {
  std::string t;
  const auto& all = nv_system_builders();
  for (std::size_t i = 0; i < all.size(); ++i)
    t += (i == 0 ? "" : i + 1 == all.size() ? " or " : ", ") + std::string(all[i]->kind());
  return t;
}
using P = Presence;
constexpr unsigned kDefaultBufferBytes = 32 * 1024;  // switch.buffer: per VC and port

// What switch.table takes: the RTL's range (the sizes not compiled in are built on first use).
std::string sizes_text() {
  return "a reduction table size per port: a multiple of " + std::to_string(kLineBytes) + " B from " +
         std::to_string(kMinTableBytes) + " B to " + std::to_string(kMaxTableBytes / 1024) + " KiB";
}

// A duration ("180 cycles", "100 ns") in whole fabric cycles within [lo, hi].
unsigned cycles_in(const Field& f, uint64_t lo, uint64_t hi, double clock_hz) {
  const uint64_t n = f.duration().to_cycles(clock_hz);
  if (n < lo || n > hi) f.fail("cycles in " + std::to_string(lo) + ".." + std::to_string(hi) + " of the fabric clock");
  return static_cast<unsigned>(n);
}

// A link's bandwidth, in bit/s, within [1 GB/s, 1 TB/s].
double link_bandwidth(const Field& f) {
  const double bps = f.bandwidth();
  if (bps < 8e9 || bps > 8e12) f.fail("a bandwidth in [1 GB/s, 1 TB/s]");
  return bps;
}

// A data size in whole 128-B lines, from `lowest` B (0 or 128) to 1 GiB; `expected` for the error.
uint64_t lines_size(const Field& f, double lowest, const std::string& expected) {
  const double bytes = f.data_size() / 8;
  if (bytes < lowest || bytes > 1073741824.0 || std::fmod(bytes, 128) != 0) f.fail(expected);
  return static_cast<uint64_t>(bytes);
}

// collective.message and traffic.message: data per GPU.
uint64_t message_size(const Field& f) {
  return lines_size(f, 128, "a data size, a multiple of 128 B in [128 B, 1 GiB]");
}

KeySpec schema(NvConfig& c) {
  return section(
      "", P::Required,
      {
          leaf("name", P::Optional, "a string", "", [&c](const Field& f) { c.name = f.text(); }),
          leaf("description", P::Defaulted, "a string", "\"\"", [&c](const Field& f) { c.description = f.text(); }),
          moved("system", "topology", "system.kind dgx2 is topology.kind dgx2, fat_tree is nvswitch_tree"),
          moved("allreduce", "collective",
                "allreduce.method ring/pull/push is collective.algorithm; method uniform is traffic.pattern uniform"),
          section("topology", P::Required,
                  {
                      leaf("kind", P::Required, kinds_text(), "",
                           [&c](const Field& f) {
                             std::vector<std::pair<std::string, std::string>> kinds;
                             for (const NvSystemBuilder* b : nv_system_builders())
                               kinds.emplace_back(b->kind(), b->kind());
                             c.kind = f.choice(kinds);
                           }),
                      leaf("groups", P::Optional,
                           "an integer in 2..16 (leaf groups of 8 GPUs; for a kind that comes in several sizes)", "",
                           [&c](const Field& f) {
                             const NvSystemBuilder& b = nv_system_builder(c.kind);
                             if (b.min_groups() == b.max_groups())
                               f.fail("no groups key for a " + c.kind + " (it has " + std::to_string(b.min_groups()) +
                                      " groups of 8 GPUs)");
                             c.groups = static_cast<unsigned>(f.integer(b.min_groups(), b.max_groups()));
                           }),
                      leaf("links", P::Defaulted, "an integer in 1..8 (links per GPU, one per plane)", "6",
                           [&c](const Field& f) { c.links = static_cast<unsigned>(f.integer(1, 8)); }),
                      leaf("link_bandwidth", P::Defaulted, "a bandwidth in [1 GB/s, 1 TB/s]", "25 GB/s",
                           [&c](const Field& f) { c.link_bandwidth = link_bandwidth(f); }),
                      leaf("trunk_bandwidth", P::Optional,
                           "a bandwidth in [1 GB/s, 1 TB/s] of the switch-to-switch links (DGX-2 trunks, "
                           "fat-tree leaf-spine links)",
                           "topology.link_bandwidth", [&c](const Field& f) { c.trunk_bandwidth = link_bandwidth(f); }),
                      leaf("link_latency", P::Defaulted, "a time in [0, 1 us]", "0 ns",
                           [&c](const Field& f) {
                             c.link_latency_s = f.time();
                             if (c.link_latency_s < 0 || c.link_latency_s > 1e-6) f.fail("a time in [0, 1 us]");
                           }),
                      leaf("link_bit_error_rate", P::Defaulted,
                           "a number in [0, 0.01]: errors per bit on every link, recovered by link-level retry", "0",
                           [&c](const Field& f) {
                             c.link_bit_error_rate = f.number({0, 0.01});
                           }),
                  }),
          // The common routing section: a registered routing function of the switch (nv_routing.h).
          section("routing", P::Defaulted,
                  {
                      leaf("algorithm", P::Defaulted, routings_text(), "table",
                           [&c](const Field& f) {
                             std::vector<std::pair<std::string, std::string>> names;
                             for (const RegisteredNvRouting& r : nv_routings()) names.emplace_back(r.name, r.name);
                             c.routing = f.choice(names);
                           }),
                  }),
          section(
              "switch", P::Defaulted,
              {
                  leaf("latency", P::Defaulted, "a time in [1 ns, 10 us]", "150 ns",
                       [&c](const Field& f) {
                         c.switch_latency_s = f.time();
                         if (c.switch_latency_s < 1e-9 || c.switch_latency_s > 1e-5) f.fail("a time in [1 ns, 10 us]");
                       }),
                  leaf("speedup", P::Defaulted, "a number in [1, 16] (crossbar flits per cycle per input)", "2",
                       [&c](const Field& f) {
                         c.speedup = f.number({1, 16});
                       }),
                  leaf("table", P::Defaulted, sizes_text(), "256 B",
                       [&c](const Field& f) {
                         const double bytes = f.data_size() / 8;
                         const double lines = std::round(bytes / kLineBytes);
                         if (std::fabs(bytes - lines * kLineBytes) > 1e-6 || lines * kLineBytes < kMinTableBytes ||
                             lines * kLineBytes > kMaxTableBytes)
                           f.fail(sizes_text());
                         c.table_bytes = static_cast<unsigned>(lines) * kLineBytes;
                       }),
                  leaf("buffer", P::Optional,
                       "a data size per VC, a multiple of 16 B in [288 B, 1 MiB] (input buffer, output queue and "
                       "table queue of each port)",
                       "32 KiB, or the hop's round trip + two packets if larger",
                       [&c](const Field& f) {
                         const double bytes = f.data_size() / 8;
                         if (bytes < 288 || bytes > 1048576.0 || std::fmod(bytes, 16) != 0)
                           f.fail(
                               "a data size per VC, a multiple of 16 B in [288 B, 1 MiB] (at least two 144-B packets)");
                         c.buffer_bytes = static_cast<unsigned>(bytes);
                       }),
                  leaf("timeout", P::Defaulted,
                       "a time in [0, 1 ms] (push entries idle this long are evicted; 0: never)", "1 us",
                       [&c](const Field& f) {
                         c.timeout_s = f.time();
                         if (c.timeout_s < 0 || c.timeout_s > 1e-3) f.fail("a time in [0, 1 ms]");
                       }),
              }),
          section("gpu", P::Defaulted,
                  {
                      leaf("memory_latency", P::Defaulted, "cycles in 1..100000 (fabric clock)", "180 cycles",
                           [&c](const Field& f) { c.mem_latency = cycles_in(f, 1, 100000, c.link_bandwidth / 128.0); }),
                      leaf("memory_jitter", P::Defaulted, "cycles in 0..100000: a random U[0, jitter) more per access",
                           "180 cycles",
                           [&c](const Field& f) { c.mem_jitter = cycles_in(f, 0, 100000, c.link_bandwidth / 128.0); }),
                      leaf("issue_order", P::Defaulted,
                           "address or random (the order in which a DMA engine injects the lines of a wave)", "address",
                           [&c](const Field& f) {
                             c.shuffle = f.choice<bool>({{"random", true}, {"address", false}});
                           }),
                  }),
          section(
              "collective", P::Optional,
              {
                  leaf("operation", P::Defaulted, "allreduce (the only operation of this fabric)", "allreduce",
                       [](const Field& f) {
                         f.choice<int>({{"allreduce", 0}});
                       }),
                  leaf("algorithm", P::Required, "ring, pull or push", "",
                       [&c](const Field& f) {
                         c.method =
                             f.choice<Method>({{"ring", Method::Ring}, {"pull", Method::Pull}, {"push", Method::Push}});
                       }),
                  leaf("message", P::Required, "a data size, a multiple of 128 B in [128 B, 1 GiB]", "",
                       [&c](const Field& f) { c.message_bytes = message_size(f); }),
                  leaf("datatype", P::Defaulted, "fp32 or int32", "fp32",
                       [&c](const Field& f) {
                         c.dtype = f.choice<DataType>({{"fp32", DataType::Fp32}, {"int32", DataType::Int32}});
                       }),
                  leaf("wave", P::Defaulted, "a data size, a multiple of 128 B (0: no wave control)", "0 B",
                       [&c](const Field& f) {
                         c.wave_bytes = lines_size(f, 0, "a data size, a multiple of 128 B (0: no wave control)");
                       }),
                  leaf("waves", P::Defaulted,
                       "an integer in 1..4096 (outstanding waves; ignored without collective.wave)", "1",
                       [&c](const Field& f) { c.waves = static_cast<unsigned>(f.integer(1, 4096)); }),
                  leaf("barrier", P::Defaulted, "true or false (pull: an initial barrier)", "false",
                       [&c](const Field& f) {
                         c.barrier = f.boolean();
                         if (c.barrier && c.method != Method::Pull)
                           f.fail("false: only the pull algorithm has a barrier");
                       }),
                  leaf("ring_slice", P::Defaulted, "a data size, a multiple of 128 B (ring: data per flag)", "64 KiB",
                       [&c](const Field& f) {
                         c.ring_slice_bytes = lines_size(f, 128, "a data size, a multiple of 128 B in [128 B, 1 GiB]");
                       }),
              }),
          section("traffic", P::Optional,
                  {
                      leaf("pattern", P::Required,
                           "uniform (every GPU writes each line to a GPU drawn at random; instead of a collective)", "",
                           [&c](const Field& f) {
                             c.method = f.choice<Method>({{"uniform", Method::Uniform}});
                           }),
                      leaf("message", P::Required, "a data size per GPU, a multiple of 128 B in [128 B, 1 GiB]", "",
                           [&c](const Field& f) { c.message_bytes = message_size(f); }),
                  }),
          // Failed links and switches (topology/faults.h, docs/reliability.md).
          fault_keys(c.faults),
          section("run", P::Defaulted,
                  {
                      leaf("seed", P::Defaulted, "an integer in 0..2^63", "1",
                           [&c](const Field& f) { c.seed = f.integer(0, uint64_t{1} << 63); }),
                      leaf("watchdog", P::Defaulted,
                           "cycles in 100..10^9 without progress before a deadlock is reported", "20000 cycles",
                           [&c](const Field& f) {
                             c.watchdog_cycles = cycles_in(f, 100, 1000000000, c.link_bandwidth / 128.0);
                           }),
                  }),
      });
}

NvConfig load(const std::function<void(ConfigReader&)>& parse, const std::string& source,
              const std::vector<std::string>& overrides) {
  NvConfig c;
  ConfigReader reader(schema(c), source);
  reader.read_all(parse, overrides);
  c.source = source;
  reader.default_name(c.name);
  const bool collective = reader.present("collective"), traffic = reader.present("traffic");
  if (collective && traffic)
    reader.field("traffic").fail("no traffic section beside a collective: a run is one or the other");
  if (!collective && !traffic)
    reader.field("").fail_missing("collective", "a ring, pull or push allreduce; or a traffic section instead");
  if (!reader.present("topology.groups")) c.groups = nv_system_builder(c.kind).default_groups();
  if (c.method != Method::Ring && c.gpus() > 0xFFFE)
    reader.field("topology.groups").fail("fewer GPUs than the unit's 16-bit source field holds");
  if (c.method == Method::Ring && c.wave_bytes != 0)
    reader.field("collective.wave").fail("0 B: the ring baseline has no wave control");
  c.clock_hz = c.link_bandwidth / 128.0;  // one 16-B flit per cycle
  // Switch-to-switch links of another bandwidth carry that many flits per fabric cycle.
  if (!reader.present("topology.trunk_bandwidth")) c.trunk_bandwidth = c.link_bandwidth;
  c.link_latency = std::max<unsigned>(1, static_cast<unsigned>(std::lround(c.link_latency_s * c.clock_hz)));
  c.switch_latency = static_cast<unsigned>(std::lround(c.switch_latency_s * c.clock_hz));
  c.timeout = static_cast<unsigned>(std::lround(c.timeout_s * c.clock_hz));
  // The credits must at least cover the round trip of a switch-to-switch hop (pipeline, both link
  // directions) plus two packets, or a link cannot stream even with nothing waiting at the
  // crossbar (section V: queues "sized to handle the round-trip latency"). The default is
  // kDefaultBufferBytes, or that floor if it is larger: with the round trip alone (4,064 B) the
  // DGX-2 carries only 90% of uniform random traffic, where section V's switch sustains more than
  // 95%; 32 KiB is the smallest power of two that does so for seeds 1-3
  // (docs/results/2026-11-24-nvswitch-in-network-reduction.md, "Switch buffers").
  const unsigned round_trip = c.switch_latency + 2 * c.link_latency + 2 * 9;
  c.input_buffer = c.buffer_bytes != 0 ? c.buffer_bytes / 16 : std::max(round_trip, kDefaultBufferBytes / 16);
  // Failed links: names of this netlist, and a trunk or spine left in every plane.
  if (!c.faults.empty()) {
    try {
      const NvTopology topo(nv_system_builder(c.kind), c.network());
    } catch (const FaultError& e) {
      fail_at(reader, e);
    }
  }
  return c;
}
}  // namespace

std::vector<std::string> NvConfig::derivations() const {
  const auto num = [](double v) { return format_number(v); };  // units.h: the configs' own number format
  return {"fabric clock = topology.link_bandwidth " + num(link_bandwidth / 8e9) +
              " GB/s / 16-B flit = " + num(clock_hz / 1e9) + " GHz (a GPU link carries one flit per cycle)",
          "switch-to-switch links: topology.trunk_bandwidth " + trunk_link_rate().describe(),
          "switch.latency " + num(switch_latency_s * 1e9) + " ns = " + std::to_string(switch_latency) +
              " cycles; topology.link_latency " + num(link_latency_s * 1e9) + " ns = " + std::to_string(link_latency) +
              " cycles (at least 1)",
          "switch buffer per VC and port: " + std::to_string(input_buffer) +
              " flits = " + std::to_string(input_buffer * 16) + " B"};
}

NetworkDescription NvConfig::network() const {
  NetworkDescription net = nv_system_builder(kind).network(network_params());
  apply_faults(net, faults);
  return net;
}

double NvConfig::payload_peak_bytes_per_s() const { return links * (link_bandwidth / 8) * 128.0 / 160.0; }

NvConfig load_nv_config(const std::string& path, const std::vector<std::string>& overrides) {
  return load([&path](ConfigReader& r) { r.parse_file(path); }, path, overrides);
}

NvConfig load_nv_config_text(const std::string& yaml, const std::string& source,
                             const std::vector<std::string>& overrides) {
  return load([&yaml](ConfigReader& r) { r.parse_text(yaml); }, source, overrides);
}

std::vector<KeyInfo> config_keys() {
  NvConfig c;
  return schema_keys(schema(c));
}

std::string method_name(Method m) {
  switch (m) {
    case Method::Ring: return "ring";
    case Method::Pull: return "pull";
    case Method::Push: return "push";
    case Method::Uniform: return "uniform";
  }
  return "?";
}

}  // namespace hx::nv
