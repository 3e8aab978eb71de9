#include "nv_system.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <sstream>

#include "netlist_instance.h"
#include "network_cost.h"
#include "nv_gpu.h"
#include "nv_routing.h"
#include "nv_switch.h"
#include "nv_system_builder.h"
#include "process_stats.h"
#include "watchdog.h"

namespace hx::nv {

namespace {
constexpr unsigned kGpuInputCredits = 1u << 30;  // a GPU sinks whatever arrives
constexpr uint64_t kChunk = 1000;                // cycles per sc_start call

GpuParams gpu_params(const NvConfig& c) {
  GpuParams g;
  g.method = c.method;
  g.dtype = c.dtype;
  g.gpus = c.gpus();
  g.lines = c.message_bytes / kLineBytes;
  g.wave_lines = c.wave_bytes / kLineBytes;
  g.waves = c.waves;
  g.barrier = c.barrier;
  g.ring_slice_lines = c.ring_slice_bytes / kLineBytes;
  g.mem_latency = c.mem_latency;
  g.mem_jitter = c.mem_jitter;
  g.shuffle = c.shuffle;
  g.seed = c.seed;
  g.fault = c.fault;
  g.fault_gpu = c.fault_gpu;
  g.fault_n = c.fault_n;
  return g;
}
}  // namespace

NvSystem::NvSystem(sc_core::sc_module_name name, const NvConfig& cfg, bool traced)
    : sc_core::sc_module(name),
      cfg_(cfg),
      topo_(nv_system_builder(cfg.kind), cfg.network()),
      routing_(make_nv_routing(cfg.routing, topo_)),
      clock_("clk", sc_core::sc_time(1e12 / cfg.clock_hz, sc_core::SC_PS)) {
  SwitchParams sp;
  sp.latency = cfg.switch_latency;
  sp.input_buffer = cfg.input_buffer;
  // Output queues and the queues in front of the tables are sized for the round trip of a hop
  // too (section V: "the output queues are sized to handle the round-trip latency").
  sp.output_queue = cfg.input_buffer;
  sp.table_queue = cfg.input_buffer;
  sp.speedup = cfg.speedup;
  sp.op = cfg.dtype == DataType::Fp32 ? AluOp::FAdd : AluOp::IAdd;
  const GpuParams gp = gpu_params(cfg);
  for (unsigned g = 0; g < topo_.gpus(); ++g) gpus_.push_back(std::make_unique<Gpu>(g, topo_, gp, &board_));
  board_.set_namer(node_name);

  // The netlist, instantiated as every model instantiates it (netlist_instance.h): an NvSwitch
  // per switch node in netlist order, then every working link, both directions, at the link's
  // latency and rate and with the config's bit errors (each direction of each link its own
  // stream of draws).
  struct Model {
    NvSystem& sys;
    const SwitchParams& sp;
    bool traced;
    LinkErrors errors(unsigned link, unsigned direction) const {
      return LinkErrors{sys.cfg_.link_bit_error_rate,
                        Rng::stream(sys.cfg_.seed, 0x6c696e6bu + 2 * uint64_t{link} + direction).next()};
    }
    void make_switch(unsigned s, const NodeDescription&) {
      sys.switches_.push_back(std::make_unique<NvSwitch>(
          s, sys.topo_, *sys.routing_, sp,
          make_reduction_bank(sys.cfg_.table_bytes, sys.cfg_.timeout, traced && s == 0), &sys.board_));
    }
    // Both directions of link l: a -> b on the lower end's link (a GPU's NIC link or a switch
    // output), b -> a on the switch's output. A GPU sinks whatever arrives, so the link into it
    // counts no credits to speak of.
    void connect(unsigned l, const LinkDescription& link, const NetlistEnd& a, const NetlistEnd& b) {
      NvSwitch& sw = *sys.switches_[b.index];
      const bool gpu = a.kind == NodeDescription::Kind::Endpoint;
      const std::string an =
          (gpu ? "gpu" : "switch") + std::to_string(a.index) + (gpu ? ".link" : ".port") + std::to_string(a.port);
      const std::string bn = "switch" + std::to_string(b.index) + ".port" + std::to_string(b.port);
      LinkTx& up = gpu ? sys.gpus_[a.index]->nic().link(a.port) : sys.switches_[a.index]->output(a.port);
      LinkTx& down = sw.output(b.port);
      up.connect(an + "->" + bn, link.latency, sp.output_queue, sp.input_buffer, link.rate, errors(l, 0));
      sw.set_input(b.port, up.wire());
      down.connect(bn + "->" + an, link.latency, sp.output_queue, gpu ? kGpuInputCredits : sp.input_buffer, link.rate,
                   errors(l, 1));
      if (gpu)
        sys.gpus_[a.index]->nic().set_input(a.port, down.wire());
      else
        sys.switches_[a.index]->set_input(a.port, down.wire());
    }
  } model{*this, sp, traced};
  instantiate(topo_.network(), model);
  SC_METHOD(on_clock);
  sensitive << clock_.posedge_event();
  dont_initialize();
}

NvSystem::~NvSystem() = default;

void NvSystem::on_clock() {
  if (!failure_.empty()) return;
  try {
    for (auto& g : gpus_) g->step(cycle_);
    for (auto& s : switches_) s->step(cycle_);
  } catch (const std::exception& e) {
    failure_ = "cycle " + std::to_string(cycle_) + ": " + e.what();
  }
  ++cycle_;
}

bool NvSystem::all_done() const {
  for (const auto& g : gpus_)
    if (!g->dma().done()) return false;
  return true;
}

bool NvSystem::network_idle() const {
  for (const auto& g : gpus_)
    if (!g->idle()) return false;
  for (const auto& s : switches_)
    if (!s->idle()) return false;
  return true;
}

std::string NvSystem::where() const {
  std::ostringstream os;
  // At most 4 GPUs and 8 switches, counted separately: a fat tree has 128 unfinished GPUs.
  unsigned gpus_shown = 0;
  for (const auto& g : gpus_)
    if (!g->dma().done() && gpus_shown++ < 4) os << "\n  " << g->where();
  const std::string held = held_report(switches_, 8);  // a line per switch that holds something
  if (!held.empty()) os << "\n" << held.substr(0, held.size() - 1);
  return os.str();
}

NvResults NvSystem::run(ProgressMode progress_mode, const std::string& trace) {
  if (!trace.empty()) switches_[0]->bank().trace(trace);
  const auto t0 = std::chrono::steady_clock::now();
  ProgressLine progress(progress_mode);
  const sc_core::sc_time period = clock_.period();
  NvResults r;
  uint64_t done_at = 0;
  ProgressWatchdog watchdog(cfg_.watchdog_cycles);
  uint64_t last_activity = 0, last_cycle = 0;
  for (auto& g : gpus_) g->dma().start(cycle_);
  for (;;) {
    sc_core::sc_start(period * static_cast<double>(kChunk));
    if (!failure_.empty()) {
      r.error = failure_;
      break;
    }
    // Progress for the watchdog: lines finalised and flits moved on GPU links.
    uint64_t activity = 0;
    for (const auto& g : gpus_) {
      activity += g->dma().lines_final();
      for (unsigned j = 0; j < topo_.links(); ++j) activity += g->nic().link(j).flits_sent();
    }
    for (const auto& s : switches_)
      for (unsigned q = 0; q < NvTopology::kPorts; ++q) activity += s->output(q).flits_sent();
    const bool progressed = activity != last_activity;
    last_activity = activity;
    const uint64_t cycles = cycle_ - last_cycle;
    last_cycle = cycle_;
    const bool done = all_done();
    if (done && network_idle()) break;
    // Work remains until every GPU is done and the network is empty.
    if (watchdog.advance(cycles, progressed, true)) {
      std::ostringstream os;
      os << "deadlock: no progress for " << watchdog.idle_cycles() << " cycles (run.watchdog) at cycle " << cycle_
         << (done ? "; every GPU has its result but the network is not empty" : "") << ":" << where();
      r.error = os.str();
      r.deadlock = true;
      break;
    }
    // How far: the DMA engines' shares of their work (every GPU has the same number of lines).
    double share = 0;
    for (const auto& g : gpus_) share += g->dma().fraction_done();
    share /= static_cast<double>(gpus_.size());
    const ScoreboardCounts& sc = board_.counts();
    char what[64];
    std::snprintf(what, sizeof what, "%.1f%% of lines final", 100 * share);
    progress.update(cycle_, share, sc.injected - sc.delivered, what);
  }
  progress.finish();
  r.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();

  uint64_t lat_sum = 0, lat_n = 0, writes_received = 0;
  for (const auto& g : gpus_) {
    writes_received += g->dma().writes_received();
    lat_sum += g->dma().latency_sum();
    lat_n += g->dma().latency_count();
    if (cfg_.method == Method::Pull) {
      const uint64_t f = g->dma().owned_done_at();
      r.pull_owner_finish_first = r.pull_owner_finish_first == 0 ? f : std::min(r.pull_owner_finish_first, f);
      r.pull_owner_finish_last = std::max(r.pull_owner_finish_last, f);
    }
    const GpuChecks& c = g->dma().checks();
    r.wrong_elements += c.wrong_elements;
    r.duplicate_lines += c.duplicate_lines;
    r.wrong_writer += c.wrong_writer;
    r.bad_checksums += c.bad_checksums;
    r.bad_counts += c.bad_counts;
    r.lines_final += g->dma().lines_final();
    r.partials_merged += g->dma().partials_merged();
    if (r.error.empty() && !c.ok()) r.error = c.first_error;
    done_at = std::max(done_at, g->dma().done_at());
    for (unsigned j = 0; j < topo_.links(); ++j) {
      r.injection.add(g->nic().link(j));
      if (g->nic().link(j).wire() != nullptr) r.link_errors.add(*g->nic().link(j).wire());
    }
  }
  unsigned leftover = 0;
  for (const auto& s : switches_) {
    for (unsigned q = 0; q < NvTopology::kPorts; ++q) {
      const PortPeer::Kind k = topo_.peer(s->id(), q).kind;
      if (k == PortPeer::Kind::Gpu) r.ejection.add(s->output(q));
      if (k == PortPeer::Kind::Switch) r.fabric.add(s->output(q));
      if (k != PortPeer::Kind::None && s->output(q).wire() != nullptr) r.link_errors.add(*s->output(q).wire());
    }
    const SwitchStats& st = s->stats();
    r.results += st.results;
    r.evictions += st.evictions;
    r.bypassed += st.bypassed;
    r.pull_stall_cycles += st.pull_stall_cycles;
    r.max_table_occupancy = std::max(r.max_table_occupancy, st.max_occupancy);
    leftover += s->table_entries_in_use();
  }
  if (r.error.empty() && leftover != 0)
    r.error = std::to_string(leftover) + " reduction table entries still in use after the allreduce";
  // Uniform traffic: every acknowledged write was received, checked and counted exactly once.
  if (r.error.empty() && cfg_.method == Method::Uniform && writes_received != r.lines_final)
    r.error =
        std::to_string(r.lines_final) + " writes acknowledged but " + std::to_string(writes_received) + " received";
  r.packets = board_.counts();
  r.packet_messages = board_.messages();
  if (r.error.empty() && !r.packet_messages.empty()) r.error = r.packet_messages.front();
  if (r.error.empty() && board_.outstanding() != 0)
    r.error = std::to_string(board_.outstanding()) + " packets never reached their end";
  r.cycles = done_at;
  r.seconds = static_cast<double>(done_at) / cfg_.clock_hz;
  if (r.seconds > 0) r.bandwidth = static_cast<double>(cfg_.message_bytes) / r.seconds;
  r.fraction_of_peak = r.bandwidth / cfg_.payload_peak_bytes_per_s();
  if (lat_n) r.reduction_latency_cycles = static_cast<double>(lat_sum) / static_cast<double>(lat_n);
  r.ok = r.error.empty();
  r.writes_received = writes_received;
  return r;
}

void NvResults::LinkClass::add(const LinkTx& link) {
  ++links;
  flits += link.flits_sent();
  busy_cycles += link.busy_cycles();
  max_busy_cycles = std::max(max_busy_cycles, link.busy_cycles());
}

nlohmann::ordered_json nv_network_json(const NvTopology& topo) {
  const NetworkDescription& net = topo.network();
  // No analytical spec: the cost model has no closed form of an NVSwitch system.
  return network_cost_json(net.equipment(), net.link_groups(), std::nullopt, topo.links());
}

nlohmann::ordered_json nv_results(const NvConfig& c, const NvTopology& topo, const NvResults& r) {
  using nlohmann::ordered_json;
  const bool reduces = c.method == Method::Pull || c.method == Method::Push;
  ordered_json j;
  j["hxsim"] = {{"command", "run"}, {"config", c.source}, {"name", c.name}, {"model", "nvswitch"}};

  ordered_json cfg;
  cfg["kind"] = c.kind;
  cfg["system"] = topo.name().substr(0, topo.name().find(" ("));  // "DGX-2": the counts follow
  cfg["description"] = c.description;
  cfg["endpoints"] = topo.gpus();
  cfg["switches"] = topo.switches();
  cfg["network"] = nv_network_json(topo);
  cfg["routing_summary"] = "routing and multicast (MCR) tables";
  // Failed links and switches (faults.*): the tables route around them.
  cfg["failed_links"] = c.faults.links;
  cfg["failed_switches"] = c.faults.switches;
  cfg["links_per_gpu"] = topo.links();
  cfg["link_bandwidth_GBps"] = c.link_bandwidth / 8e9;
  cfg["trunk_bandwidth_GBps"] = c.trunk_bandwidth / 8e9;
  cfg["trunk_flits_per_cycle"] = c.trunk_rate();
  cfg["clock_hz"] = c.clock_hz;
  cfg["cycle_ns"] = 1e9 / c.clock_hz;
  cfg["switch_latency_cycles"] = c.switch_latency;
  cfg["link_latency_cycles"] = c.link_latency;
  cfg["input_buffer_flits_per_vc"] = c.input_buffer;
  cfg["input_buffer_bytes_per_vc"] = c.input_buffer * 16;
  cfg["table_bytes_per_port"] = c.table_bytes;
  cfg["table_entries_per_port"] = c.table_bytes / kLineBytes;
  cfg["push_timeout_cycles"] = c.timeout;
  cfg["memory_latency_cycles"] = c.mem_latency;
  cfg["memory_jitter_cycles"] = c.mem_jitter;
  cfg["issue_order"] = c.shuffle ? "random" : "address";
  cfg["payload_peak_GBps"] = c.payload_peak_bytes_per_s() / 1e9;
  cfg["derivations"] = c.derivations();
  j["config"] = cfg;

  // The checks count packets, as the scoreboard saw them (every packet a GPU or a switch sent,
  // each copy of a multicast at its GPU); the GPUs' checks of the collective's data add to them:
  // a wrong final element is corrupted data, a line finalised twice a duplicate.
  const ScoreboardCounts& p = r.packets;
  RunChecks rc;
  rc.injected = p.injected;
  rc.delivered = p.delivered;
  rc.lost = p.created - p.delivered;
  rc.duplicated = p.duplicated + r.duplicate_lines;
  rc.corrupted = p.corrupted + r.wrong_elements + r.bad_checksums + r.bad_counts;
  rc.misdelivered = p.misdelivered + r.wrong_writer;
  rc.deadlock = r.deadlock;
  rc.passed = r.ok;
  ordered_json checks;
  write_checks(checks, rc);
  j["checks"] = checks;
  if (c.link_bit_error_rate > 0) {
    ordered_json e;
    RetryTotals rt = r.link_errors;
    rt.bit_error_rate = c.link_bit_error_rate;
    write_link_errors(e, rt);
    j["link_errors"] = e;
  }
  // Every GPU ends with every line of the result (uniform traffic: receives as many writes as
  // it sends, on average; in total, one per line of every GPU).
  const uint64_t expected_lines = static_cast<uint64_t>(topo.gpus()) * (c.message_bytes / kLineBytes);
  j["check_details"] = {{"unit", "packets, each checked end to end by the scoreboard (core/scoreboard.h)"},
                        {"lines_expected", expected_lines},
                        {"lines_final", c.method == Method::Uniform ? r.writes_received : r.lines_final},
                        {"lines_unit", c.method == Method::Uniform ? "writes received, each checked once"
                                                                   : "128-B result lines the GPUs hold, checked"},
                        {"wrong_elements", r.wrong_elements},
                        {"duplicate_lines", r.duplicate_lines},
                        {"wrong_writer", r.wrong_writer},
                        {"bad_checksums", r.bad_checksums},
                        {"bad_counts", r.bad_counts},
                        {"messages", r.packet_messages},
                        {"report", r.error}};

  // Per class of link: the busy fraction on average and of the busiest link, the bandwidth the
  // class's links carried on average (16-B flits, headers included) and the bandwidth each has.
  const auto link_class = [&r](const NvResults::LinkClass& l, double link_bits_per_s) {
    const double cycles = static_cast<double>(r.cycles), links = l.links;
    const bool ran = r.cycles > 0 && l.links > 0;
    return ordered_json{{"mean", ran ? l.busy_cycles / (cycles * links) : 0.0},
                        {"max", ran ? l.max_busy_cycles / cycles : 0.0},
                        {"GBps_per_link", ran ? static_cast<double>(l.flits) * 16 / r.seconds / links / 1e9 : 0.0},
                        {"link_GBps", link_bits_per_s / 8e9},
                        {"links", l.links}};
  };
  const ordered_json links = {
      {"injection", link_class(r.injection, c.link_bandwidth)},
      {"ejection", link_class(r.ejection, c.link_bandwidth)},
      {"fabric", link_class(r.fabric, c.trunk_bandwidth)},
      {"unit",
       "mean, max: busy fraction of the links over the run, on average and of the busiest; GBps_per_link: flits "
       "(headers included) carried per link; link_GBps: each link's bandwidth"}};
  const double time_us = r.seconds * 1e6;
  if (c.method == Method::Uniform) {
    ordered_json t;
    t["pattern"] = "uniform";
    t["message_bytes"] = c.message_bytes;
    t["time_cycles"] = r.cycles;
    t["time_us"] = time_us;
    t["bandwidth_GBps"] = r.bandwidth / 1e9;
    t["fraction_of_peak"] = r.fraction_of_peak;
    t["link_utilisation"] = links;
    j["traffic"] = t;
  } else {
    const double n = topo.gpus();
    ordered_json job;
    job["name"] = "job0";
    job["operation"] = "allreduce";
    job["algorithm"] = method_name(c.method);
    job["ranks"] = topo.gpus();
    job["message_bytes"] = c.message_bytes;
    job["datatype"] = c.dtype == DataType::Fp32 ? "fp32" : "int32";
    job["wave_bytes"] = c.wave_bytes;
    job["waves"] = c.waves;
    job["barrier"] = c.barrier;
    job["ring_slice_bytes"] = c.ring_slice_bytes;
    job["complete"] = r.lines_final == expected_lines;
    job["time_cycles"] = r.cycles;
    job["time_us"] = time_us;
    job["algbw_GBps"] = r.bandwidth / 1e9;
    job["busbw_GBps"] = r.bandwidth / 1e9 * 2 * (n - 1) / n;
    job["peak_algbw_GBps"] = c.payload_peak_bytes_per_s() / 1e9;
    job["fraction_of_peak"] = r.fraction_of_peak;
    job["peak_definition"] =
        "allreduce: the payload a GPU's links carry, 128 B of every 144-B write plus its 16-B ack (Klenk et al.)";
    job["output_elements"] = r.lines_final * kLineWords;
    job["wrong_elements"] = r.wrong_elements;
    ordered_json coll;
    coll["jobs"] = ordered_json::array({job});
    coll["link_utilisation"] = links;
    j["collective"] = coll;
  }
  if (reduces) {
    ordered_json sw;
    sw["table_results"] = r.results;
    sw["table_evictions"] = r.evictions;
    sw["table_bypasses"] = r.bypassed;
    sw["home_gpu_partials"] = r.partials_merged;
    sw["pull_first_hop_stall_cycles"] = r.pull_stall_cycles;
    sw["max_table_occupancy"] = r.max_table_occupancy;
    sw["reduction_latency_cycles"] = r.reduction_latency_cycles;
    sw["pull_owner_finish_cycles"] = c.method == Method::Pull ? ordered_json{{"first", r.pull_owner_finish_first},
                                                                             {"last", r.pull_owner_finish_last}}
                                                              : ordered_json(nullptr);
    j["in_network"] = sw;
  }

  ordered_json sim;
  sim["cycles"] = r.cycles;
  sim["simulated_seconds"] = r.seconds;
  sim["switches"] = topo.switches();
  sim["wall_seconds"] = r.wall_seconds;
  sim["cycles_per_second"] = r.wall_seconds > 0 ? static_cast<double>(r.cycles) / r.wall_seconds : 0.0;
  sim["peak_rss_mb"] = peak_rss_mb();
  sim["seed"] = c.seed;
  j["sim"] = sim;
  return j;
}

}  // namespace hx::nv
