// link_bench.h: a cycle-driven test bench around a Verilated --cc network model.
//
// LinkBench<M> owns a VerilatedContext and one model of class M: either the router alone
// (Vhx_router, or its gate-level twin Vhx_router_gl: ports in_*/out_* with the router ports
// N, E, S, W and its BenchConfig::local_ports lanes L, L1, ...) or a board plane
// (Vhx_board_plane_AxB[lL]: ports loc_* for the a*b*L local ports, lane-major as BoardGeometry
// numbers them, then edge_* for the 2(a+b) edge ports). It exposes the model's ports as
// "external ports" 0..num_ports()-1 in that order and attaches to each:
//   * a PacketSource driving *_in_valid_i / *_in_flit_i with credits from *_in_credit_o /
//     *_in_credit_vc_o (one credit counter per VC, starting at buf_depth);
//   * a PacketSink taking *_out_valid_o / *_out_flit_o into buf_depth flits per VC and returning
//     credits on *_out_credit_i / *_out_credit_vc_i, one per drained flit;
// and checks everything with a Scoreboard, a ProgressWatchdog and the model's error_o.
//
// One call of step() is one clock cycle c of a synchronous model:
//   1. drive: sources put this cycle's flits on the input wires, sinks their credits;
//   2. clk_i = 0, eval; clk_i = 1, eval (the rising edge: the model registers its inputs); the
//      first eval only settles the inputs for a waveform, and without one the clock is lowered
//      unevaluated (lower_clock, verilated_ports.h: the rising edge's eval settles them first);
//   3. sample: the model's registered outputs now show what is on its output wires in cycle
//      c+1, so a flit sampled here is recorded as delivered in cycle c+1 and a credit sampled
//      here is usable by a source from cycle c+1 on.
// With this convention a flit injected in cycle t that the router's header promises "on the
// output wires in t+2" is recorded with a latency of exactly 2 cycles.
//
// Any bit of error_o outside the test's allowed mask, a sink overflow (the model sent a flit
// without a credit) or a credit beyond buf_depth stops the run with an error message. When no
// flit has been injected, delivered or drained on any external port for watchdog_cycles cycles
// while packets are outstanding, the watchdog declares a deadlock and the report names the
// undelivered packets and what every source and sink holds.
//
// The per-cycle path allocates nothing: sources and sinks use fixed ring buffers, and the
// scoreboard's packet table is reserved up front (config expected_packets).
#pragma once

#include <cstdint>
#include <cstdio>
#include <memory>
#include <sstream>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "bench_scoreboard.h"
#include "board_mesh.h"
#include "endpoints.h"
#include "hx_flit.h"
#include "verilated.h"
#include "verilated_ports.h"
#if VM_TRACE_FST
#include "verilated_fst_c.h"
#endif

namespace hx {

/// The router's input straps (a board plane uses board_*, route_mode, tree_span and vc_policy;
/// the node coordinates and board size of its routers are fixed by its parameters).
struct Straps {
  unsigned node_x = 0, node_y = 0;
  unsigned last_x = 0, last_y = 0;
  unsigned board_x = 0, board_y = 0;
  RouteMode route_mode = RouteMode::Xy;
  TreeSpan tree_span = TreeSpan::Line;  ///< span_board_i
  VcPolicy vc_policy = VcPolicy::Keep;

  RouterPlace place() const {
    RouterPlace p;
    p.node_x = node_x;
    p.node_y = node_y;
    p.last_x = last_x;
    p.last_y = last_y;
    p.board_x = board_x;
    p.board_y = board_y;
    return p;
  }
};

struct BenchConfig {
  FlitFormat fmt;
  unsigned num_vcs = 3;       ///< the model's NumVcs
  unsigned buf_depth = 8;     ///< the model's BufDepth (= every receiver's buffer)
  unsigned local_ports = 1;   ///< routers only: the model's LocalPorts
  BoardGeometry board{1, 1};  ///< board planes only: SizeX, SizeY, LocalPorts of the model
  Straps straps;
  uint64_t watchdog_cycles = 2000;  ///< 0 disables the watchdog
  unsigned reset_cycles = 4;
  uint64_t seed = 1;  ///< seeds the sinks' drain draws
  std::size_t source_queue_capacity = 4096;
  std::size_t expected_packets = 1u << 14;  ///< scoreboard reservation
  uint8_t allowed_error_mask = 0;           ///< error_o bits the test expects (others fail the run)
  std::string trace_file;                   ///< FST of the RTL if not empty
  /// Skip the clock edges the model's idle_o says change nothing (no flit or credit arrives and
  /// every router was idle), as hxsim does (systemc/board/verilated_plane.h). Off by default:
  /// the tests clock every edge, and one test checks that skipping changes no result.
  bool skip_idle_edges = false;
  /// The test breaks the RTL's input contracts on purpose: its assertions (Verilated with
  /// --assert) report and are counted (assertion_failures()) instead of stopping the run.
  bool contracts_broken = false;
};

namespace detail {

template <class M, class = void>
struct HasLocalPorts : std::false_type {};
template <class M>
struct HasLocalPorts<M, std::void_t<decltype(std::declval<M&>().loc_in_valid_i)>> : std::true_type {};

/// References to the eight signals of a group of external ports, whatever their C++ types.
template <class VI, class FI, class CO, class CVO, class VO, class FO, class CI, class CVI>
struct PortGroup {
  VI& in_valid;
  FI& in_flit;
  CO& in_credit;
  CVO& in_credit_vc;
  VO& out_valid;
  FO& out_flit;
  CI& out_credit;
  CVI& out_credit_vc;
  unsigned base;   ///< external index of the group's port 0
  unsigned count;  ///< ports in the group (<= 64)
};

template <class VI, class FI, class CO, class CVO, class VO, class FO, class CI, class CVI>
PortGroup<VI, FI, CO, CVO, VO, FO, CI, CVI> port_group(VI& a, FI& b, CO& c, CVO& d, VO& e, FO& f, CI& g, CVI& h,
                                                       unsigned base, unsigned count) {
  return {a, b, c, d, e, f, g, h, base, count};
}

inline unsigned ctz64(uint64_t v) { return static_cast<unsigned>(__builtin_ctzll(v)); }

}  // namespace detail

template <class M>
class LinkBench {
 public:
  /// True for a board plane (loc_* and edge_* ports), false for a router.
  static constexpr bool kBoardPlane = detail::HasLocalPorts<M>::value;

  explicit LinkBench(const BenchConfig& cfg)
      : cfg_(cfg),
        num_ports_(kBoardPlane ? cfg.board.num_external() : num_router_ports(cfg.local_ports)),
        sb_(cfg.fmt, num_ports_, cfg.num_vcs),
        watchdog_(cfg.watchdog_cycles) {
    if (!cfg.fmt.valid()) throw std::invalid_argument("LinkBench: unusable flit format");
    if (cfg.num_vcs < 1 || cfg.num_vcs > kMaxVcs) throw std::invalid_argument("LinkBench: VCs");
    if (cfg.local_ports < 1 || cfg.local_ports > kMaxLocalPorts || cfg.board.local_ports < 1 ||
        cfg.board.local_ports > kMaxLocalPorts) {
      throw std::invalid_argument("LinkBench: local ports (lanes) must be 1..4");
    }
    if (kBoardPlane && (cfg.board.num_local() > 64 || cfg.board.num_edges() > 64)) {
      throw std::invalid_argument("LinkBench: at most 64 local and 64 edge ports");
    }
    ctx_ = std::make_unique<VerilatedContext>();
    if (cfg.contracts_broken) ctx_->errorLimit(1 << 20);
    if (!cfg.trace_file.empty()) {
      Verilated::traceEverOn(true);
      ctx_->traceEverOn(true);
    }
    model_ = std::make_unique<M>(ctx_.get(), "TOP");
    check_port_widths();
    sources_.reserve(num_ports_);
    sinks_.reserve(num_ports_);
    for (unsigned p = 0; p < num_ports_; ++p) {
      sources_.emplace_back(p, cfg.num_vcs, cfg.buf_depth, cfg.source_queue_capacity);
      sinks_.emplace_back(p, cfg.num_vcs, cfg.buf_depth, cfg.seed * 0x9e3779b97f4a7c15ull + 0x1234567ull * (p + 1));
    }
    sb_.reserve(cfg.expected_packets);
    if (!cfg.trace_file.empty()) open_trace(cfg.trace_file);
    set_straps(cfg.straps);
    reset();
  }

  LinkBench(const LinkBench&) = delete;
  LinkBench& operator=(const LinkBench&) = delete;

  ~LinkBench() {
    model_->final();
#if VM_TRACE_FST
    if (trace_) trace_->close();
#endif
  }

  // ---- configuration ------------------------------------------------------------------------

  const BenchConfig& config() const { return cfg_; }
  unsigned num_ports() const { return num_ports_; }
  M& model() { return *model_; }
  const FlitFormat& fmt() const { return cfg_.fmt; }
  /// Failed RTL checks so far (only counted with BenchConfig::contracts_broken; otherwise the
  /// first one stops the run).
  int assertion_failures() const { return ctx_->errorCount(); }

  /// Drive the straps. Change them only while the model is idle: the router registers them, so
  /// a change takes effect at the next clock edge (reset() clocks them in).
  void set_straps(const Straps& s) {
    cfg_.straps = s;
    M& m = *model_;
    if constexpr (!kBoardPlane) {
      m.node_x_i = s.node_x;
      m.node_y_i = s.node_y;
      m.last_x_i = s.last_x;
      m.last_y_i = s.last_y;
    }
    m.board_x_i = s.board_x;
    m.board_y_i = s.board_y;
    m.route_mode_i = static_cast<unsigned>(s.route_mode);
    m.span_board_i = static_cast<unsigned>(s.tree_span);
    m.vc_policy_i = static_cast<unsigned>(s.vc_policy);
    idle_ = false;  // an idle model registers new straps at its next edge
  }
  const Straps& straps() const { return cfg_.straps; }

  void set_allowed_error_mask(uint8_t mask) { cfg_.allowed_error_mask = mask; }
  void set_watchdog(uint64_t cycles) { watchdog_.set_limit(cycles); }

  /// Apply reset for reset_cycles cycles with all inputs idle, and reset every source and sink
  /// (all credits back, buffers empty). Packets still outstanding are not delivered any more.
  void reset() {
    M& m = *model_;
    for_each_group([&](auto g) {
      set_bits(g.in_valid, 0, g.count, 0);
      set_bits(g.out_credit, 0, g.count, 0);
    });
    m.rst_ni = 0;
    m.clk_i = 0;
    m.eval();
    for (unsigned i = 0; i < cfg_.reset_cycles; ++i) {
      m.clk_i = 1;
      m.eval();
      m.clk_i = 0;
      m.eval();
    }
    m.rst_ni = 1;
    m.eval();
    idle_ = false;  // the next edge registers the straps
    for (auto& s : sources_) s.reset();
    for (auto& s : sinks_) s.reset();
    watchdog_.reset();
  }

  // ---- traffic --------------------------------------------------------------------------------

  /// External port of lane `lane` of local node (x, y) of a board plane.
  unsigned local_port(unsigned x, unsigned y, unsigned lane = 0) const { return cfg_.board.local_port(x, y, lane); }
  /// Local lanes of the model: of each router of a plane, or of the router.
  unsigned local_ports() const { return kBoardPlane ? cfg_.board.local_ports : cfg_.local_ports; }

  /// A packet from external port `src_port` to `dst` of `length` flits on `vc`, with the
  /// allowed exits computed by the reference routing function (routing/board_mesh.h) for the current
  /// straps, and the VC rule of the current vc_policy.
  PacketSpec make_packet(unsigned src_port, const Destination& dst, unsigned length, unsigned vc) const {
    PacketSpec spec;
    spec.src_port = src_port;
    spec.vc = vc;
    spec.header.dst_board_x = dst.board_x;
    spec.header.dst_board_y = dst.board_y;
    spec.header.dst_node_x = dst.node_x;
    spec.header.dst_node_y = dst.node_y;
    spec.header.length = length;
    const Straps& s = cfg_.straps;
    if constexpr (kBoardPlane) {
      unsigned x = 0, y = 0, port = 0;
      cfg_.board.router_of(src_port, x, y, port);
      spec.header.src_board_x = s.board_x;
      spec.header.src_board_y = s.board_y;
      spec.header.src_node_x = x;
      spec.header.src_node_y = y;
      if (port < kPortL) {  // it came from another board: name the neighbour (mod 2^bw)
        const unsigned mask = (1u << cfg_.fmt.board_coord_width) - 1;
        spec.header.src_board_x = (s.board_x + (port == kPortE) - (port == kPortW)) & mask;
        spec.header.src_board_y = (s.board_y + (port == kPortN) - (port == kPortS)) & mask;
      }
      const BoardRoutes r = board_routes(cfg_.board, s.board_x, s.board_y, s.route_mode, src_port, dst, s.tree_span);
      for (unsigned e : r.exits) spec.allowed_ports.set(e);
    } else {
      spec.header.src_board_x = s.board_x;
      spec.header.src_board_y = s.board_y;
      spec.header.src_node_x = s.node_x;
      spec.header.src_node_y = s.node_y;
      const PortMask ports = board_route_set(s.place(), src_port, s.route_mode, dst, cfg_.local_ports, s.tree_span);
      for (unsigned p = 0; p < num_ports_; ++p) {
        if (ports & (1u << p)) spec.allowed_ports.set(p);
      }
    }
    return spec;
  }

  /// Queue a packet at its source; returns its id, or kNoPacket if the source queue is full.
  uint32_t send(PacketSpec spec) {
    if (spec.src_port >= num_ports_) throw std::out_of_range("LinkBench::send: no such port");
    if (sources_[spec.src_port].queue_full()) return kNoPacket;
    if (spec.vc_rule == VcRule::Auto) {
      spec.vc_rule = cfg_.straps.vc_policy == VcPolicy::Any ? VcRule::Any : VcRule::Keep;
    }
    spec.increment_ports = board_exit_ports();
    const uint32_t id = sb_.add(spec, cycle_);
    sources_[spec.src_port].enqueue(id);
    return id;
  }

  /// Exits that leave the board: the edge ports of a plane, or the router's edge-facing ports.
  ExternalPortSet board_exit_ports() const {
    ExternalPortSet set;
    if constexpr (kBoardPlane) {
      for (unsigned e = cfg_.board.num_local(); e < num_ports_; ++e) set.set(e);
    } else {
      const PortMask m = edge_ports(cfg_.straps.place());
      for (unsigned p = 0; p < 4; ++p) {
        if (m & (1u << p)) set.set(p);
      }
    }
    return set;
  }

  // ---- running --------------------------------------------------------------------------------

  /// One clock cycle. Returns false once the run has stopped (error or deadlock).
  bool step() {
    if (stopped_) return false;
    bool moved = false;
    for_each_group([&](auto g) { moved |= drive(g); });
    if (idle_ && !moved && cfg_.skip_idle_edges && cfg_.trace_file.empty()) {
      // Quiet inputs into an idle model: the edge would change no register and the outputs
      // stay zero, so there is nothing to evaluate or sample.
      ++skipped_edges_;
    } else {
      clock_and_sample(moved);
    }
    if (moved) watchdog_.progress();
    if (watchdog_.tick(sb_.outstanding() != 0) && !stopped_) {
      deadlock_ = true;
      stopped_ = true;
      deadlock_report_ = build_deadlock_report();
      std::fprintf(stderr, "%s\n", deadlock_report_.c_str());
    }
    ++cycle_;
    return !stopped_;
  }

  /// Run `cycles` cycles (or until the run stops). Returns false if it stopped.
  bool run(uint64_t cycles) {
    for (uint64_t i = 0; i < cycles; ++i) {
      if (!step()) return false;
    }
    return true;
  }

  /// Run `cycles` cycles, calling each_cycle(*this) before each one (to generate traffic).
  template <class F>
  bool run(uint64_t cycles, F&& each_cycle) {
    for (uint64_t i = 0; i < cycles; ++i) {
      each_cycle(*this);
      if (!step()) return false;
    }
    return true;
  }

  /// Everything created was delivered, every sink is empty and every source has all credits.
  bool quiescent() const {
    if (sb_.outstanding() != 0) return false;
    for (const auto& s : sinks_) {
      if (!s.empty()) return false;
    }
    for (const auto& s : sources_) {
      if (s.has_work() || !s.credits_full()) return false;
    }
    return true;
  }

  /// Run until quiescent(), the run stops, or max_cycles pass. True if quiescent.
  bool drain(uint64_t max_cycles = 100000) {
    for (uint64_t i = 0; i < max_cycles; ++i) {
      if (quiescent()) return true;
      if (!step()) return false;
    }
    return quiescent();
  }

  /// Run until packet `id` is delivered (or max_cycles / the run stops).
  bool run_until_delivered(uint32_t id, uint64_t max_cycles = 1000) {
    for (uint64_t i = 0; i < max_cycles; ++i) {
      if (sb_.packet(id).state == PacketState::Delivered) return true;
      if (!step()) return false;
    }
    return sb_.packet(id).state == PacketState::Delivered;
  }

  // ---- results --------------------------------------------------------------------------------

  uint64_t cycle() const { return cycle_; }
  Scoreboard& scoreboard() { return sb_; }
  const Scoreboard& scoreboard() const { return sb_; }
  PacketSource& source(unsigned port) { return sources_.at(port); }
  PacketSink& sink(unsigned port) { return sinks_.at(port); }
  const PacketSource& source(unsigned port) const { return sources_.at(port); }
  const PacketSink& sink(unsigned port) const { return sinks_.at(port); }

  bool stopped() const { return stopped_; }
  /// Clock edges skipped because the model was idle and nothing arrived (skip_idle_edges).
  uint64_t skipped_edges() const { return skipped_edges_; }
  bool deadlocked() const { return deadlock_; }
  const std::string& deadlock_report() const { return deadlock_report_; }
  const std::vector<std::string>& errors() const { return errors_; }
  /// OR of every error_o value seen since construction.
  unsigned error_bits_seen() const { return errors_seen_; }

  /// No bench error, no deadlock, a clean scoreboard.
  bool ok() const { return errors_.empty() && !deadlock_ && sb_.summary().clean(); }

  std::string port_name(unsigned p) const {
    if constexpr (kBoardPlane) {
      return cfg_.board.external_name(p);
    } else {
      return hx::port_name(p);
    }
  }

  /// Human summary: scoreboard counts, bench errors, scoreboard messages, deadlock report.
  std::string report() const {
    std::ostringstream os;
    os << "cycle " << cycle_ << ": " << sb_.summary().to_string() << "\n";
    for (const auto& e : errors_) os << "  bench error: " << e << "\n";
    for (const auto& e : sb_.messages()) os << "  scoreboard: " << e << "\n";
    if (deadlock_) os << deadlock_report_ << "\n";
    return os.str();
  }

 private:
  // The clock edge of step(): both evaluations, then the registered outputs (flits to sinks,
  // credits to sources) and the error flags.
  void clock_and_sample(bool& moved) {
    M& m = *model_;
    if (tracing()) {  // settle the new inputs for the waveform's low half-cycle
      m.clk_i = 0;
      m.eval();
      dump(2 * cycle_);
    } else {  // the rising edge's eval() settles them first (lower_clock, verilated_ports.h)
      lower_clock(m);
    }
    m.clk_i = 1;
    m.eval();
    dump(2 * cycle_ + 1);
    for_each_group([&](auto g) { moved |= sample(g); });
    idle_ = m.idle_o != 0;
    const unsigned err = static_cast<unsigned>(m.error_o) & 0xfu;
    errors_seen_ |= err;
    if (err & ~static_cast<unsigned>(cfg_.allowed_error_mask)) {
      fail("error_o = 0x" + hex(err) + describe_error_bits(err));
    }
  }

  template <class F>
  void for_each_group(F&& f) {
    M& m = *model_;
    if constexpr (kBoardPlane) {
      f(detail::port_group(m.loc_in_valid_i, m.loc_in_flit_i, m.loc_in_credit_o, m.loc_in_credit_vc_o,
                           m.loc_out_valid_o, m.loc_out_flit_o, m.loc_out_credit_i, m.loc_out_credit_vc_i, 0u,
                           cfg_.board.num_local()));
      f(detail::port_group(m.edge_in_valid_i, m.edge_in_flit_i, m.edge_in_credit_o, m.edge_in_credit_vc_o,
                           m.edge_out_valid_o, m.edge_out_flit_o, m.edge_out_credit_i, m.edge_out_credit_vc_i,
                           cfg_.board.num_local(), cfg_.board.num_edges()));
    } else {
      f(detail::port_group(m.in_valid_i, m.in_flit_i, m.in_credit_o, m.in_credit_vc_o, m.out_valid_o, m.out_flit_o,
                           m.out_credit_i, m.out_credit_vc_i, 0u, num_ports_));
    }
  }

  template <class G>
  bool drive(G& g) {
    uint64_t valid = 0;
    uint64_t credit = 0;
    const FlitFormat& fmt = cfg_.fmt;
    for (unsigned i = 0; i < g.count; ++i) {
      const unsigned p = g.base + i;
      PacketSource& src = sources_[p];
      if (src.has_work()) {
        Flit f;
        if (src.next_flit(sb_, cycle_, f)) {
          valid |= uint64_t{1} << i;
          set_flit(g.in_flit, i, fmt, f);
        }
      }
      unsigned vc = 0;
      if (sinks_[p].drain(vc)) {
        credit |= uint64_t{1} << i;
        set_bits(g.out_credit_vc, 2 * i, 2, vc);
      }
    }
    set_bits(g.in_valid, 0, g.count, valid);
    set_bits(g.out_credit, 0, g.count, credit);
    return (valid | credit) != 0;
  }

  template <class G>
  bool sample(G& g) {
    uint64_t credits = get_bits(g.in_credit, 0, g.count);
    while (credits) {
      const unsigned i = detail::ctz64(credits);
      credits &= credits - 1;
      const unsigned vc = static_cast<unsigned>(get_bits(g.in_credit_vc, 2 * i, 2));
      if (!sources_[g.base + i].on_credit(vc)) {
        fail("port " + port_name(g.base + i) + ": credit for vc " + std::to_string(vc) +
             " beyond the buffer depth (the model returned more credits than flits)");
      }
    }
    uint64_t valid = get_bits(g.out_valid, 0, g.count);
    const bool any = valid != 0;
    while (valid) {
      const unsigned i = detail::ctz64(valid);
      valid &= valid - 1;
      const unsigned p = g.base + i;
      const Flit f = get_flit(g.out_flit, i, cfg_.fmt);
      const Delivery d = sb_.on_delivered(p, f, cycle_ + 1);
      if (!sinks_[p].accept(f, d)) {
        fail("port " + port_name(p) + ": flit arrived on vc " + std::to_string(f.vc) + " whose sink buffer is full (" +
             std::to_string(cfg_.buf_depth) + " flits): the model broke credit flow control");
      }
    }
    return any;
  }

  void fail(const std::string& msg) {
    const std::string full = "cycle " + std::to_string(cycle_) + ": " + msg;
    std::fprintf(stderr, "LinkBench FAILURE: %s\n", full.c_str());
    if (errors_.size() < 32) errors_.push_back(full);
    stopped_ = true;
  }

  static std::string hex(unsigned v) {
    char b[16];
    std::snprintf(b, sizeof b, "%x", v);
    return b;
  }

  static std::string describe_error_bits(unsigned err) {
    std::string s;
    if (err & 1) s += " [0] a flit arrived at a full input buffer;";
    if (err & 2) s += " [1] a credit overflowed an output VC counter;";
    if (err & 4) s += " [2] a head needs VC+1 at a board edge and there is none;";
    if (err & 8) s += " [3] a body/tail flit reached an unallocated input VC;";
    return s;
  }

  std::string build_deadlock_report() const {
    std::ostringstream os;
    const auto undelivered = sb_.undelivered();
    os << "DEADLOCK at cycle " << cycle_ << ": no flit moved on any external port for " << watchdog_.limit()
       << " cycles with " << undelivered.size() << " packets outstanding (" << to_string(cfg_.straps.route_mode) << ", "
       << to_string(cfg_.straps.vc_policy) << ")\n";
    os << "undelivered packets:\n";
    std::size_t shown = 0;
    for (uint32_t id : undelivered) {
      const PacketRecord& r = sb_.packet(id);
      if (r.state == PacketState::Queued) continue;  // listed with their sources below
      if (++shown > 40) {
        os << "  ...\n";
        break;
      }
      const Header& h = r.spec.header;
      os << "  packet " << id << ": from " << port_name(r.spec.src_port) << " vc " << r.spec.vc << " to board ("
         << h.dst_board_x << "," << h.dst_board_y << ") node (" << h.dst_node_x << "," << h.dst_node_y << "), "
         << h.length << " flits, injected " << r.flits_injected << ", delivered " << r.flits_delivered;
      if (r.delivered_port >= 0) os << " (arriving at " << port_name(r.delivered_port) << ")";
      os << ", head injected at cycle " << r.head_injected_cycle << "\n";
    }
    os << "sources with work or missing credits:\n";
    for (const auto& s : sources_) {
      if (s.has_work() || !s.credits_full()) {
        os << "  " << port_name(s.port()) << ": " << s.describe() << "\n";
      }
    }
    os << "sinks holding flits or with an open packet:\n";
    for (const auto& s : sinks_) {
      std::string open;
      for (unsigned v = 0; v < cfg_.num_vcs; ++v) {
        unsigned next = 0;
        const uint32_t pk = sb_.open_packet(s.port(), v, &next);
        if (pk != kNoPacket) {
          open += "; vc" + std::to_string(v) + " receiving packet " + std::to_string(pk) + " (next flit " +
                  std::to_string(next) + ")";
        }
      }
      if (!s.empty() || !open.empty()) {
        os << "  " << port_name(s.port()) << ": " << s.describe() << open << "\n";
      }
    }
    return os.str();
  }

  void check_port_widths() {
    const unsigned fw = cfg_.fmt.flit_width();
    auto check = [&](unsigned capacity, unsigned count, const char* what) {
      const unsigned need = count * fw;
      if (capacity < need || capacity >= need + 32) {
        throw std::invalid_argument(std::string("LinkBench: port ") + what + " holds " + std::to_string(capacity) +
                                    " bits, expected " + std::to_string(need) +
                                    " (wrong flit format, board size or lanes for this model?)");
      }
    };
    M& m = *model_;
    if constexpr (kBoardPlane) {
      check(port_capacity_bits(m.loc_in_flit_i), cfg_.board.num_local(), "loc_in_flit_i");
      check(port_capacity_bits(m.edge_in_flit_i), cfg_.board.num_edges(), "edge_in_flit_i");
    } else {
      check(port_capacity_bits(m.in_flit_i), num_ports_, "in_flit_i");
    }
  }

  void open_trace(const std::string& file) {
#if VM_TRACE_FST
    trace_ = std::make_unique<VerilatedFstC>();
    model_->trace(trace_.get(), 99);
    trace_->open(file.c_str());
#else
    (void)file;
    throw std::runtime_error(
        "LinkBench: this model was built without FST waveform code: configure the build with "
        "-DHX_MODEL_WAVEFORMS=ON for test-bench waveforms (HX_TRACE_DIR)");
#endif
  }

  bool tracing() const {
#if VM_TRACE_FST
    return trace_ != nullptr;
#else
    return false;
#endif
  }

  void dump(uint64_t half_cycle) {
#if VM_TRACE_FST
    if (trace_) {
      ctx_->time(half_cycle * 5);
      trace_->dump(half_cycle * 5);
    }
#else
    (void)half_cycle;
#endif
  }

  BenchConfig cfg_;
  unsigned num_ports_;
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<M> model_;
#if VM_TRACE_FST
  std::unique_ptr<VerilatedFstC> trace_;
#endif
  std::vector<PacketSource> sources_;
  std::vector<PacketSink> sinks_;
  Scoreboard sb_;
  ProgressWatchdog watchdog_;
  uint64_t cycle_ = 0;
  bool idle_ = false;  // the model's idle_o after the last evaluated edge
  uint64_t skipped_edges_ = 0;
  bool stopped_ = false;
  bool deadlock_ = false;
  unsigned errors_seen_ = 0;
  std::vector<std::string> errors_;
  std::string deadlock_report_;
};

}  // namespace hx
