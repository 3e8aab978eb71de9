// bench_scoreboard.h: end-to-end checking of every packet a bench injects into a network model.
//
// The scoreboard holds one record per packet: where it enters (external port and VC), its
// header, the external ports it may leave through (one for a deterministic route, several for
// adaptive routing or a board edge reached in more than one way) and the rule for the VC it must
// arrive on (the VC policy decides: VcKeep keeps the injection VC on a board and adds one at a
// board-edge exit; VcAny allows any VC).
//
// Flits are checked as they arrive at an external output port. A network of wormhole routers
// must deliver the flits of one packet in order and contiguously on one VC of one port (flits of
// other VCs may interleave), with the type sequence Head, Body..., Tail (or one Single), and must
// not change a payload. Each (output port, VC) therefore has an "assembly" slot: a head opens
// it, body flits must continue it in order, the tail closes it and completes the packet.
// Problems are counted by kind:
//   duplicated  a head of a packet that had already arrived (or was arriving)
//   corrupted   a bad checksum, an unknown packet id, a header or payload that differs from
//               what was injected, a wrong type sequence or a body flit with no open packet
//   misrouted   a head at a port outside the packet's allowed set
//   bad_vc      a head on a VC the packet's VcRule does not allow
// and the first messages are kept for the report. A packet that never arrives is "lost".
#pragma once

#include <bitset>
#include <cstdint>
#include <string>
#include <vector>

#include "hx_flit.h"

namespace hx {

/// External ports of a bench: up to 64 local ports (an 8x8 plane, or 4x4 with four lanes) plus
/// 32 edge ports (8x8).
constexpr unsigned kMaxExternalPorts = 128;
using ExternalPortSet = std::bitset<kMaxExternalPorts>;

constexpr uint32_t kNoPacket = 0xffffffffu;

/// Which VC a packet must arrive on.
enum class VcRule : uint8_t {
  Auto,  ///< filled in by the bench from its vc_policy strap (Keep or Any)
  Keep,  ///< the injection VC, plus one if it leaves through a port in `increment_ports`
  Any,   ///< any VC below the model's number of VCs
};

/// What a test asks the bench to inject.
struct PacketSpec {
  unsigned src_port = 0;          ///< external port it enters through
  Header header;                  ///< header.length = flits, head included (1..255)
  unsigned vc = 0;                ///< VC it is injected on
  ExternalPortSet allowed_ports;  ///< external ports it may leave through
  VcRule vc_rule = VcRule::Auto;
  ExternalPortSet increment_ports;  ///< exits that leave a board (VcKeep adds one there)
};

enum class PacketState : uint8_t { Queued, InFlight, Delivered };

struct PacketRecord {
  uint32_t id = kNoPacket;
  PacketSpec spec;
  PacketState state = PacketState::Queued;
  unsigned flits_injected = 0;
  unsigned flits_delivered = 0;
  int delivered_port = -1;  ///< external port of its head
  int delivered_vc = -1;
  uint64_t created_cycle = 0;
  uint64_t head_injected_cycle = 0;  ///< cycle the head was on the input wires
  uint64_t tail_injected_cycle = 0;
  uint64_t head_delivered_cycle = 0;  ///< cycle the head was on the output wires
  uint64_t tail_delivered_cycle = 0;
  bool duplicated = false, corrupted = false, misrouted = false, bad_vc = false;
};

struct ScoreboardSummary {
  uint64_t created = 0;    ///< packets handed to sources
  uint64_t injected = 0;   ///< packets whose head entered the model
  uint64_t delivered = 0;  ///< packets whose tail arrived
  uint64_t lost = 0;       ///< created and not (completely) delivered
  uint64_t duplicated = 0;
  uint64_t corrupted = 0;
  uint64_t misrouted = 0;
  uint64_t bad_vc = 0;
  uint64_t flits_injected = 0;
  uint64_t flits_delivered = 0;

  /// No duplicated, corrupted, misrouted or bad-VC event (lost packets are judged separately).
  bool clean() const { return duplicated == 0 && corrupted == 0 && misrouted == 0 && bad_vc == 0; }
  bool all_delivered() const { return lost == 0 && delivered == created; }
  std::string to_string() const;
};

/// What the scoreboard learned about one arriving flit.
struct Delivery {
  uint32_t packet = kNoPacket;  ///< kNoPacket when the flit could not be attributed
  unsigned index = 0;           ///< flit index within the packet
  bool ok = true;
  bool packet_done = false;  ///< this was the tail (or single)
};

class Scoreboard {
 public:
  Scoreboard(const FlitFormat& fmt, unsigned num_ports, unsigned num_vcs);

  void reserve(std::size_t packets) { packets_.reserve(packets); }

  /// Record a new packet (state Queued) and return its id (ids are 0, 1, 2, ...).
  uint32_t add(const PacketSpec& spec, uint64_t cycle);

  const PacketRecord& packet(uint32_t id) const { return packets_[id]; }
  std::size_t num_packets() const { return packets_.size(); }
  const std::vector<PacketRecord>& packets() const { return packets_; }

  /// Flit `index` of packet `id` exactly as its source injects it.
  Flit flit_for(uint32_t id, unsigned index) const;

  void on_injected(uint32_t id, unsigned index, uint64_t cycle);

  /// Check a flit that arrived at external output `port` in `cycle`.
  Delivery on_delivered(unsigned port, const Flit& flit, uint64_t cycle);

  ScoreboardSummary summary() const;
  uint64_t outstanding() const { return packets_.size() - delivered_; }
  uint64_t delivered() const { return delivered_; }
  uint64_t flits_delivered() const { return flits_delivered_; }
  uint64_t error_events() const { return duplicated_ + corrupted_ + misrouted_ + bad_vc_; }
  const std::vector<std::string>& messages() const { return messages_; }

  /// Packet open at (port, vc), or kNoPacket, and the next flit index it expects.
  uint32_t open_packet(unsigned port, unsigned vc, unsigned* next_index = nullptr) const;

  /// Ids of the packets not completely delivered, in id order.
  std::vector<uint32_t> undelivered() const;

  /// Longest a message list may grow; later problems are only counted.
  static constexpr std::size_t kMaxMessages = 64;

 private:
  struct Assembly {
    uint32_t packet = kNoPacket;
    unsigned next = 0;
  };
  void note(std::string msg);

  FlitFormat fmt_;
  unsigned num_ports_;
  unsigned num_vcs_;
  std::vector<PacketRecord> packets_;
  std::vector<Assembly> assembly_;  // [port * 4 + vc]
  uint64_t injected_ = 0, delivered_ = 0, flits_injected_ = 0, flits_delivered_ = 0;
  uint64_t duplicated_ = 0, corrupted_ = 0, misrouted_ = 0, bad_vc_ = 0;
  std::vector<std::string> messages_;
  uint64_t dropped_messages_ = 0;
};

}  // namespace hx
