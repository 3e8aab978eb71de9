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

struct Packet {
  uint64_t id = 0;  // unique per injected packet (copies of a multicast share it)
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
  /// The largest packet, for a link's delay line (credit_link.h).
  static constexpr unsigned kMaxFlits = 1 + kDataFlits;
};

/// The link fault hook's corruption (credit_link.h): one bit of the first element, which the
/// checksum must catch.
inline void corrupt(Packet& p) { p.data[0] ^= 1u << 3; }

/// FNV-1a over the payload words: a packet's integrity check.
inline uint32_t payload_checksum(const std::array<uint32_t, kLineWords>& d) {
  uint32_t h = 2166136261u;
  for (uint32_t w : d) {
    h ^= w;
    h *= 16777619u;
  }
  return h;
}

}  // namespace hx::nv
