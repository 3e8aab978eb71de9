// network_switch.h: the network switch model of hxsim, a C++ cycle model: the switches of the
// fat trees (HammingMesh row and column trees, the comparison fat trees), and, with their own
// routing, the routers of the comparison Dragonfly and torus.
//
// Radix k ports. Each input has a buffer of `depth` flits per VC (VcBuffer), each output a
// small output queue per VC and, towards its receiver, one credit counter per VC. A flit may
// cross the crossbar `latency` cycles after it arrived: the switch's pipeline (Table III of the
// paper: 40 ns input plus 40 ns output buffer latency). The crossbar runs `speedup` times faster
// than a link (Table III: 800 Gb/s crossbar for 400 Gb/s links, speedup 2): per cycle an input
// may move up to `speedup` flits into output queues and an output may take up to `speedup`,
// while each output link sends one (and each input's credit wire returns one credit). Speedup
// lets a backed-up input drain faster than its link fills it; it does not remove head-of-line
// blocking within one VC FIFO (docs/hammingmesh.md measures both).
// Flow control is credit based and wormhole per VC: a head reserves an output VC until its
// tail has entered the output queue. A flit keeps its VC through the tree; the boards change
// VCs.
//
// A Dragonfly router is the same switch with the Dragonfly's routing (dragonfly_plan.h), which
// moves a packet to VC + 1 on every global link. A torus router is the same switch with port 0
// to its accelerator and ports 1..4 to N, E, S, W: dimension-order routing (x first) the short
// way round, on VC 0 in each dimension until the packet crosses that dimension's wrap-around
// link (the dateline), then on VC 1, which breaks the ring's cycle of channel waits.
//
// Tree routing is up/down. Every tree port that faces a board is a terminal, numbered by
// TreeAddressing from the destination in the packet's header. A single-switch tree sends a
// packet straight to its terminal. In a two-level tree a leaf sends it down when the terminal
// is its own, else up, adaptively, to the up port with the most room for the packet's VC
// (downstream credits plus free output queue, among those whose output VC is free); a spine
// sends it down, deterministically, to the leaf of the terminal. Up/down routes have no cycles, so the tree cannot
// deadlock by itself.
//
// Allocation is separable, input first, once per crossbar round (`speedup` rounds a cycle):
// each input picks, round-robin over its VCs, one VC whose front flit is ready and can go (room
// in the output queue of its VC, and for a head a free output VC); each output grants one of
// the inputs that picked it, round-robin. A grant moves the flit into the output queue and
// returns its credit upstream. Each output link then sends one queued flit that has a credit,
// VCs served round-robin.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "dragonfly_plan.h"
#include "flit_link.h"
#include "hx_flit.h"
#include "packet_tracker.h"
#include "rng.h"
#include "vc_buffer.h"

namespace hx {

/// Where a packet leaves a tree: its terminal, from the destination in the head's header.
/// Terminal t = ((position * lines) + line) * 2 + side, where position is the destination
/// board's place along the tree (its x in a row tree, its y in a column tree), line the row
/// (column) of the board the packet enters on, and side 0 for the W (S) edge, 1 for the E (N)
/// edge: the edge nearer the destination node, so the packet enters as close to it as it can.
/// A tree of one line per tree takes every packet in on its own line; a tree spanning a whole
/// board row (column) takes it in on the destination node's row (column).
///
/// A fat-tree system's tree (`endpoints`) has one terminal per endpoint: endpoint n is addressed
/// as board (n mod 256, n div 256) in the header's 8-bit board fields.
struct TreeAddressing {
  static constexpr unsigned kEndpointsPerBoardRow = 256;
  bool endpoints = false;  ///< the terminals are endpoints (a fat-tree system)
  bool rows = true;        ///< a row tree (E/W edges) or a column tree (N/S edges)
  unsigned lines = 1;      ///< lines of accelerators the tree serves
  unsigned board_x = 1, board_y = 1;
  FlitFormat fmt;

  unsigned terminal(const Flit& head) const {
    const Header h = Header::decode(fmt, head.payload);
    if (endpoints) return h.dst_board_y * kEndpointsPerBoardRow + h.dst_board_x;
    const unsigned pos = rows ? h.dst_board_x : h.dst_board_y;
    const unsigned line = lines > 1 ? (rows ? h.dst_node_y : h.dst_node_x) : 0;
    const unsigned along = rows ? h.dst_node_x : h.dst_node_y;
    const unsigned side = 2 * along < (rows ? board_x : board_y) - 1 ? 0 : 1;
    return (pos * lines + line) * 2 + side;
  }
};

class NetworkSwitch {
 public:
  /// The switch's place in its tree (TreeShape names in sim_config.h).
  /// The switch's place in its network: a one-switch tree, a leaf or spine of a two-level
  /// tree, or a Dragonfly router (router `index` of group `group`, tables in `plan`).
  struct Role {
    enum class Kind : uint8_t { Single, Leaf, Spine, Dragonfly, Torus } kind = Kind::Single;
    unsigned index = 0;  ///< leaf, spine or router number
    unsigned down = 0, up = 0, spines = 0;
    unsigned group = 0;
    DragonflyPlan* plan = nullptr;
    unsigned x = 0, y = 0, size_x = 0, size_y = 0;  ///< torus: this router and the torus size
  };
  using ErrorHandler = std::function<void(const std::string&)>;

  /// Flits per VC of an output queue: enough for `speedup` arrivals while the link sends one.
  static constexpr unsigned kOutputQueueDepth = 8;

  NetworkSwitch(std::string name, unsigned ports, unsigned vcs, unsigned depth, unsigned latency, unsigned speedup,
                Role role, TreeAddressing addressing, PacketTracker* tracker, ErrorHandler on_error, uint64_t seed = 1);

  /// Port p: `in` brings flits (its sender counts this switch's `depth` credits per VC), `out`
  /// takes them to a receiver with `out_credits` slots per VC.
  void connect(unsigned port, FlitLink* in, FlitLink* out, unsigned out_credits);

  void step(uint64_t t);

  const std::string& name() const { return name_; }
  unsigned ports() const { return static_cast<unsigned>(in_.size()); }
  /// Flits in the input buffers.
  unsigned held() const;
  /// Which input VCs hold flits and where their heads want to go (for deadlock reports).
  std::string describe() const;

 private:
  static constexpr int kNone = -1;

  /// One crossbar round: move at most one flit per input and per output into output queues.
  void crossbar_round(uint64_t t);
  struct Route {
    int port = kNone;
    unsigned vc = 0;
  };
  /// Output port and VC for the head at the front of (input, vc); port kNone if none can take
  /// it now.
  Route route(const Flit& head, unsigned in, unsigned vc);
  Route route_dragonfly(const Flit& head, unsigned in, unsigned vc);
  Route route_torus(const Flit& head, unsigned in, unsigned vc);
  /// The Dragonfly's minimal output from this router towards group `target` (or, in the
  /// destination group, towards the destination endpoint).
  unsigned dragonfly_minimal(unsigned target, unsigned dst) const;
  /// Flits waiting for output `o` on `vc`: queued here and held downstream (UGAL's load).
  unsigned load(unsigned o, unsigned vc) const;
  /// The route if output (o, vc) can take a new packet now.
  Route if_free(int o, unsigned vc) const;
  int pick_up_port(unsigned vc);
  int down_port(unsigned terminal) const;

  std::string name_;
  unsigned vcs_, latency_, speedup_;
  Role role_;
  TreeAddressing addr_;
  PacketTracker* tracker_;
  ErrorHandler on_error_;

  std::vector<FlitLink*> in_, out_;
  std::vector<VcBuffer> buf_;           // per input port
  std::vector<VcBuffer> obuf_;          // per output port: the output queues
  std::vector<unsigned> rr_link_;       // per output: next VC the link looks at first
  std::vector<unsigned> owed_credits_;  // [in * vcs + vc]: credits not yet returned upstream
  std::vector<unsigned> owed_total_;    // per input
  std::vector<unsigned> rr_credit_;     // per input: next VC whose credit goes back first
  std::vector<int> route_;              // [in * vcs + vc]: output of the packet in progress
  std::vector<unsigned> route_vc_;      // [in * vcs + vc]: ... and its VC there
  std::vector<int> owner_;              // [out * vcs + vc]: input holding that output VC
  std::vector<unsigned> credits_;       // [out * vcs + vc]: the receiver's free slots
  std::vector<unsigned> full_credits_;  // per output
  std::vector<unsigned> rr_in_;         // per input: next VC to look at first
  std::vector<unsigned> rr_out_;        // per output: last input granted
  unsigned rr_up_ = 0;                  // tie-break among equally loaded up ports
  Rng rng_;                             // UGAL-L's intermediate groups
  // Per cycle scratch: each input's request and each output's best request so far.
  std::vector<int> req_out_, req_vc_;
  std::vector<unsigned> req_out_vc_;
  std::vector<int> grant_in_;
  std::vector<unsigned> touched_;
};

}  // namespace hx
