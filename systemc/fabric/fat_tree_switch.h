// fat_tree_switch.h: a switch of a HammingMesh row or column fat tree, as a C++ cycle model.
//
// Radix k ports, each with an input buffer of `depth` flits per VC (VcBuffer) and, towards its
// receiver, one credit counter per VC. A flit may leave `latency` cycles after it arrived: the
// switch's pipeline (Table III of the paper: 40 ns input plus 40 ns output buffer latency).
// Flow control is credit based and wormhole per VC: a head reserves an output VC until its
// tail has passed. A flit keeps its VC through the tree; the boards change VCs.
//
// Routing is up/down. Every tree port that faces a board is a terminal, numbered by
// TreeAddressing from the destination in the packet's header. A single-switch tree sends a
// packet straight to its terminal. In a two-level tree a leaf sends it down when the terminal
// is its own, else up, adaptively, to the up port with the most credits for the packet's VC
// (among those whose output VC is free); a spine sends it down, deterministically, to the leaf
// of the terminal. Up/down routes have no cycles, so the tree cannot deadlock by itself.
//
// Allocation per cycle is separable, input first: each input picks, round-robin over its VCs,
// one VC whose front flit is ready and can go (a credit, and for a head a free output VC);
// each output grants one of the inputs that picked it, round-robin. A grant moves the flit,
// returns its credit upstream, and takes a credit of the output.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "flit_link.h"
#include "hx_flit.h"
#include "packet_tracker.h"
#include "vc_buffer.h"

namespace hx {

/// Where a packet leaves a tree: its terminal, from the destination in the head's header.
/// Terminal t = ((position * lines) + line) * 2 + side, where position is the destination
/// board's place along the tree (its x in a row tree, its y in a column tree), line the row
/// (column) of the board the packet enters on, and side 0 for the W (S) edge, 1 for the E (N)
/// edge: the edge nearer the destination node, so the packet enters as close to it as it can.
/// A tree of one line per tree takes every packet in on its own line; a tree spanning a whole
/// board row (column) takes it in on the destination node's row (column).
struct TreeAddressing {
  bool rows = true;          ///< a row tree (E/W edges) or a column tree (N/S edges)
  unsigned lines = 1;        ///< lines of accelerators the tree serves
  unsigned board_x = 1, board_y = 1;
  FlitFormat fmt;

  unsigned terminal(const Flit& head) const {
    const Header h = Header::decode(fmt, head.payload);
    const unsigned pos = rows ? h.dst_board_x : h.dst_board_y;
    const unsigned line = lines > 1 ? (rows ? h.dst_node_y : h.dst_node_x) : 0;
    const unsigned along = rows ? h.dst_node_x : h.dst_node_y;
    const unsigned side = 2 * along < (rows ? board_x : board_y) - 1 ? 0 : 1;
    return (pos * lines + line) * 2 + side;
  }
};

class FatTreeSwitch {
 public:
  /// The switch's place in its tree (TreeShape names in sim_config.h).
  struct Role {
    enum class Kind : uint8_t { Single, Leaf, Spine } kind = Kind::Single;
    unsigned index = 0;  ///< leaf or spine number
    unsigned down = 0, up = 0, spines = 0, per_pair = 0;
  };
  using ErrorHandler = std::function<void(const std::string&)>;

  FatTreeSwitch(std::string name, unsigned ports, unsigned vcs, unsigned depth, unsigned latency,
                Role role, TreeAddressing addressing, PacketTracker* tracker, ErrorHandler on_error);

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

  /// Output for the head at the front of (input, vc), or kNone if none can take it now.
  int route(const Flit& head, unsigned vc);
  int pick_up_port(unsigned vc);
  int down_port(unsigned terminal) const;

  std::string name_;
  unsigned vcs_, latency_;
  Role role_;
  TreeAddressing addr_;
  PacketTracker* tracker_;
  ErrorHandler on_error_;

  std::vector<FlitLink*> in_, out_;
  std::vector<VcBuffer> buf_;              // per input port
  std::vector<int> route_;                 // [in * vcs + vc]: output of the packet in progress
  std::vector<int> owner_;                 // [out * vcs + vc]: input holding that output VC
  std::vector<unsigned> credits_;          // [out * vcs + vc]
  std::vector<unsigned> full_credits_;     // per output
  std::vector<unsigned> rr_in_;            // per input: next VC to look at first
  std::vector<unsigned> rr_out_;           // per output: last input granted
  unsigned rr_up_ = 0;                     // tie-break among equally loaded up ports
  // Per cycle scratch: each input's request and each output's best request so far.
  std::vector<int> req_out_, req_vc_, grant_in_;
  std::vector<unsigned> touched_;
};

}  // namespace hx
