// nv_packet.h: a packet of the NVSwitch-like fabric, as a C++ value.
//
// Section V of Klenk et al.: packets are at most 144 B, a 16-B header flit and 128 B (8 flits) of
// payload; read requests and write acknowledgments are single-flit packets. Two virtual channels
// keep requests and responses apart (IV-E2). hxsim puts on the request VC everything a GPU or a
// switch sends on its own initiative (writes, multicast writes, pull requests, push reduction
// writes) and on the response VC everything that answers one (acks, pull responses, and the
// results and evicted partials a reduction table emits), so a response never waits behind a
// request: every chain of dependencies ends at a GPU, which always sinks what it receives.
#pragma once

#include <array>
#include <cstdint>

#include <string>

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

constexpr uint64_t kNoRecord = UINT64_MAX;

struct Packet {
  uint64_t id = kNoRecord;  // its scoreboard record (copies of a multicast share it); see track()
  Kind kind = Kind::Write;
  uint16_t count = 0;     // contributions reduced into the data (pull responses, push)
  uint16_t expected = 0;  // contributions that complete the reduction
  NodeId src = 0;
  NodeId dst = 0;         // a GPU, a switch port (acks of switch writes), or kAllGpus
  int32_t exclude = -1;   // multicast: the GPU that does not receive a copy (the writer)
  uint64_t line = 0;      // 128-B line address: picks the plane, the trunk/spine, the home port
  uint64_t user = 0;      // endpoint bookkeeping (ring: step and slice), opaque to the fabric
  uint32_t checksum = 0;  // of data, set by the sender of unreduced data, checked on delivery
  std::array<uint32_t, kLineWords> data{};

  unsigned vc() const { return vc_of(kind); }
  unsigned flits() const { return flits_of(kind); }
};

/// FNV-1a over the payload words: a packet's integrity check.
inline uint32_t payload_checksum(const std::array<uint32_t, kLineWords>& d) {
  uint32_t h = 2166136261u;
  for (uint32_t w : d) {
    h ^= w;
    h *= 16777619u;
  }
  return h;
}

/// The NVSwitch model's scoreboard: the shared one, with the model's node numbers as endpoints.
using PacketBoard = Scoreboard<>;

/// A packet enters the network: it gets its scoreboard record, with the copies it must deliver
/// (a multicast: one to every GPU but `exclude`) and its payload's hash.
inline void track(PacketBoard& sb, Packet& p, unsigned gpus, uint64_t now) {
  const bool multicast = p.dst == kAllGpus;
  const unsigned copies = multicast ? gpus - (p.exclude >= 0 && static_cast<unsigned>(p.exclude) < gpus) : 1;
  p.id = sb.create(p.src, p.dst, now, copies, carries_line(p.kind) ? payload_checksum(p.data) : 0);
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
  if (carries_line(p.kind) && !sb.payload_ok(p.id, *a.record, payload_checksum(p.data), at, now)) ok = false;
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
