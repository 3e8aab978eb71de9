// packet.h: a packet as one value, the unit of the packet-granular models and of the endpoints.
//
// The flit (hx_flit.h) is the unit of a wormhole link: a type, a VC and a 128-bit payload, with
// the routing header of the RTL router in the head flit. A packet-granular model (the
// NVSwitch-like fabric, section V of Klenk et al.: packets move whole, virtual cut-through) moves
// this instead: the header as fields, and up to 8 payload flits of 128 bits held as 32-bit words
// (four per flit: the lanes of the reduction ALUs and the elements of the collectives). flits()
// counts the header flit and the payload flits; it is what a link's serialisation and a
// receiver's credits charge, whichever model sends it.
//
// `kind` is the model's message kind (for the NVSwitch model an nv::Kind: write, ack, pull
// request, ...); the network looks only at src, dst, vc and flits, the endpoints and the
// in-network reduction units at the rest.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>

#include "crc32.h"

namespace hx {

/// A packet without a scoreboard record yet (scoreboard.h gives it one when it enters the network).
constexpr uint64_t kNoRecord = UINT64_MAX;

struct Packet {
  static constexpr unsigned kMaxPayloadFlits = 8;                       ///< 128 B of data
  static constexpr unsigned kWordsPerFlit = 4;                          ///< 32-bit words in a 128-bit flit
  static constexpr unsigned kWords = kMaxPayloadFlits * kWordsPerFlit;  ///< 32
  static constexpr unsigned kMaxFlits = 1 + kMaxPayloadFlits;           ///< for a link's delay line

  uint64_t id = kNoRecord;  ///< its scoreboard record (copies of a multicast share it)
  int32_t src = 0;          ///< the model's node numbers (endpoints; a switch port that sends)
  int32_t dst = 0;          ///< ... or a multicast group the model defines
  int32_t exclude = -1;     ///< multicast: the endpoint of the group that gets no copy
  uint8_t kind = 0;         ///< the model's message kind
  uint8_t channel = 0;      ///< virtual channel
  uint16_t length = 1;      ///< flits on the wire, the header flit included (as Header::length)
  uint16_t count = 0;       ///< in-network reduction: contributions reduced into the data
  uint16_t expected = 0;    ///< ... contributions that complete it
  uint32_t checksum = 0;    ///< end-to-end, of the data, set where the data was read
  uint64_t address = 0;     ///< what it reads or writes (the NVSwitch model: a 128-B line)
  uint64_t user = 0;        ///< the endpoint's own bookkeeping, opaque to the network
  std::array<uint32_t, kWords> data{};

  unsigned vc() const { return channel; }
  unsigned flits() const { return length; }
};

/// The link fault hook's corruption (credit_link.h): one bit of the first payload word, which
/// the receiver's checks must catch.
inline void corrupt(Packet& p) { p.data[0] ^= 1u << 3; }

/// Link-level retry (credit_link.h): a packet puts length x 128 bits on a wire. Its CRC covers
/// every field and the data words its flits carry. A bit error in the header flit lands in its
/// address or user word (the model's stand-in for the header's 128 bits), one in a data flit in
/// that flit's data.
inline unsigned link_bits(const Packet& p) { return 128u * p.length; }
inline uint32_t link_crc(const Packet& p) {
  Crc32 c;
  c.add(p.id).add(p.src).add(p.dst).add(p.exclude).add(p.kind).add(p.channel).add(p.length).add(p.count);
  c.add(p.expected).add(p.checksum).add(p.address).add(p.user);
  const unsigned words =
      std::min<unsigned>(Packet::kWords, (p.length > 0 ? p.length - 1u : 0u) * Packet::kWordsPerFlit);
  for (unsigned i = 0; i < words; ++i) c.add(p.data[i]);
  return c.value();
}
inline void flip_link_bit(Packet& p, unsigned bit) {
  if (bit < 64) {
    p.address ^= uint64_t{1} << bit;
  } else if (bit < 128) {
    p.user ^= uint64_t{1} << (bit - 64);
  } else {
    p.data[((bit - 128) / 32) % Packet::kWords] ^= 1u << (bit % 32);
  }
}

/// FNV-1a over the payload words: a packet's end-to-end integrity check.
inline uint32_t payload_checksum(const std::array<uint32_t, Packet::kWords>& d) {
  uint32_t h = 2166136261u;
  for (uint32_t w : d) {
    h ^= w;
    h *= 16777619u;
  }
  return h;
}

}  // namespace hx
