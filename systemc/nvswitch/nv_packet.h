// nv_packet.h: the NVSwitch-like fabric's message kinds, on the core packet (core/packet.h).
//
// Section V of Klenk et al.: packets are at most 144 B, a 16-B header flit and 128 B (8 flits) of
// payload; read requests and write acknowledgments are single-flit packets. Two virtual channels
// keep requests and responses apart (IV-E2). hxsim puts on the request VC everything a GPU or a
// switch sends on its own initiative (writes, multicast writes, pull requests, push reduction
// writes) and on the response VC everything that answers one (acks, pull responses, and the
// results and evicted partials a reduction table emits), so a response never waits behind a
// request: every chain of dependencies ends at a GPU, which always sinks what it receives.
#pragma once

#include <cstdint>
#include <string>

#include "packet.h"
#include "scoreboard.h"

namespace hx::nv {

enum class Kind : uint8_t {
  Write,    // unicast 128-B write into a GPU's memory (ring data), acked
  Flag,     // unicast flag write (ring synchronisation): header + one data flit, acked
  Ack,      // write acknowledgment, to the writer (a GPU or a switch's reduction port)
  PullReq,  // pull request: a load with a reduction op, multicast to the other GPUs
  PullRsp,  // pull response: a GPU's line, or a partial/final reduction of several
  McWrite,  // multicast write of a final result (pull all-gather; push home-GPU results), acked
  PushWr,   // push reduction write, routed to the line's home port
  Result,   // push: a table's final result, multicast to every GPU, acked
  Evict,    // push: a table's evicted partial, to the line's home GPU, acked
};

constexpr unsigned kVcRequest = 0;
constexpr unsigned kVcResponse = 1;
constexpr unsigned kVcs = 2;
constexpr unsigned kLineBytes = 128;
constexpr unsigned kLineWords = kLineBytes / 4;
constexpr unsigned kDataFlits = 8;
static_assert(kLineWords == Packet::kWords && kDataFlits == Packet::kMaxPayloadFlits, "a line fills a packet");

constexpr unsigned vc_of(Kind k) {
  return (k == Kind::Ack || k == Kind::PullRsp || k == Kind::Result || k == Kind::Evict) ? kVcResponse : kVcRequest;
}
constexpr unsigned flits_of(Kind k) {
  return (k == Kind::Ack || k == Kind::PullReq) ? 1 : k == Kind::Flag ? 2 : 1 + kDataFlits;
}
constexpr bool carries_line(Kind k) { return flits_of(k) == 1 + kDataFlits; }
/// Writes land in a GPU's memory and are acknowledged to their source.
constexpr bool is_write(Kind k) {
  return k == Kind::Write || k == Kind::Flag || k == Kind::McWrite || k == Kind::Result || k == Kind::Evict;
}

/// A packet's source or destination: a GPU (id >= 0) or a switch port (encoded below).
using NodeId = int32_t;
constexpr NodeId kAllGpus = -1;  // multicast destination: the MCR of every GPU
inline NodeId switch_port_id(unsigned sw, unsigned port) { return -2 - static_cast<NodeId>(sw * 16 + port); }
inline bool is_switch_id(NodeId id) { return id <= -2; }
inline unsigned switch_of_id(NodeId id) { return static_cast<unsigned>(-2 - id) / 16; }

// The model's packet is the core's (core/packet.h): `address` is the 128-B line (it picks the
// plane, the trunk or spine, the home port), `user` the ring's step and slice, `body` the line.
using hx::Packet;

inline Kind kind_of(const Packet& p) { return static_cast<Kind>(p.kind); }
/// Make `p` a packet of kind k: its VC and its length follow from the kind.
inline void set_kind(Packet& p, Kind k) {
  p.kind = static_cast<uint8_t>(k);
  p.channel = static_cast<uint8_t>(vc_of(k));
  p.length = static_cast<uint16_t>(flits_of(k));
}

/// The NVSwitch model's scoreboard: the shared one, with the model's node numbers as endpoints.
using PacketBoard = Scoreboard<>;

/// A packet enters the network: it gets its scoreboard record, with the copies it must deliver
/// (a multicast: one to every GPU but `exclude`) and its payload's hash.
inline void track(PacketBoard& sb, Packet& p, unsigned gpus, uint64_t now) {
  const bool multicast = p.dst == kAllGpus;
  const unsigned copies = multicast ? gpus - (p.exclude >= 0 && static_cast<unsigned>(p.exclude) < gpus) : 1;
  p.id = sb.create(p.src, p.dst, now, copies, carries_line(kind_of(p)) ? payload_checksum(p) : 0);
  PacketBoard::Record& r = *sb.find(p.id);
  if (multicast)
    for (unsigned g = 0; g < gpus; ++g)
      if (static_cast<int32_t>(g) != p.exclude) sb.address(r, static_cast<int32_t>(g));
  sb.injected(r);
}

/// A copy of `p` ends at node `at` (a GPU, or a switch port that absorbs or reduces it);
/// `addressed`: it was meant to end there. The scoreboard checks it arrives once, there, intact.
/// True when the receiver should go on and use it.
inline bool ends_here(PacketBoard& sb, const Packet& p, NodeId at, bool addressed, uint64_t now) {
  const PacketBoard::Arrival a = sb.arrive(p.id, at, addressed, now);
  if (a.record == nullptr) return false;
  bool ok = a.outcome == PacketBoard::Outcome::Ok;
  if (carries_line(kind_of(p)) && !sb.payload_ok(p.id, *a.record, payload_checksum(p), at, now)) ok = false;
  sb.complete(p.id, *a.record, now);
  return ok;
}

/// "GPU 3", "switch 2 port 7": the scoreboard's names for the model's nodes.
inline std::string node_name(NodeId n) {
  if (n >= 0) return "GPU " + std::to_string(n);
  if (n == kAllGpus) return "every GPU";
  const unsigned k = static_cast<unsigned>(-2 - n);
  return "switch " + std::to_string(k / 16) + " port " + std::to_string(k % 16);
}

}  // namespace hx::nv
