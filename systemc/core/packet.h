// packet.h: a packet as one value, the unit of the packet-granular models and of the endpoints.
//
// Both network models move the flits of hx_flit.h: a type, a VC and a 128-bit payload. The fabric
// model moves them one by one (wormhole: a packet's flits spread over the routers of its path, in
// the RTL router's format, with the routing header in the head flit). A packet-granular model (the
// NVSwitch-like fabric, section V of Klenk et al.: packets move whole, virtual cut-through) moves
// a packet's flits as one unit, this one: the header flit's fields as fields, which the model's
// switches read without parsing, and the payload flits themselves, up to 8 of 128 bits (`body`).
// flit(i) is flit i as it is on the wire: the head with its header, then the body flits with
// their payload; the data are 32-bit elements, four per flit, placed as the fabric's DMA places
// them (flit_word, hx_flit.h). flits() counts the header flit and the payload flits; it is what a
// link's serialisation and a receiver's credits charge, whichever model sends it.
//
// `kind` is the model's message kind (for the NVSwitch model an nv::Kind: write, ack, pull
// request, ...); the network looks only at src, dst, vc and flits, the endpoints and the
// in-network reduction units at the rest.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>

#include "crc32.h"
#include "hx_flit.h"

namespace hx {

/// A packet without a scoreboard record yet (scoreboard.h gives it one when it enters the network).
constexpr uint64_t kNoRecord = UINT64_MAX;

struct Packet {
  static constexpr unsigned kMaxPayloadFlits = 8;                       ///< 128 B of data
  static constexpr unsigned kWordsPerFlit = hx::kWordsPerFlit;          ///< 32-bit words in a 128-bit flit
  static constexpr unsigned kWords = kMaxPayloadFlits * kWordsPerFlit;  ///< 32
  static constexpr unsigned kMaxFlits = 1 + kMaxPayloadFlits;           ///< for a link's delay line
  using Words = std::array<uint32_t, kWords>;                           ///< the data as elements

  uint64_t id = kNoRecord;                       ///< its scoreboard record (copies of a multicast share it)
  int32_t src = 0;                               ///< the model's node numbers (endpoints; a switch port that sends)
  int32_t dst = 0;                               ///< ... or a multicast group the model defines
  int32_t exclude = -1;                          ///< multicast: the endpoint of the group that gets no copy
  uint8_t kind = 0;                              ///< the model's message kind
  uint8_t channel = 0;                           ///< virtual channel
  uint16_t length = 1;                           ///< flits on the wire, the header flit included (as Header::length)
  uint16_t count = 0;                            ///< in-network reduction: contributions reduced into the data
  uint16_t expected = 0;                         ///< ... contributions that complete it
  uint32_t checksum = 0;                         ///< end-to-end, of the data, set where the data was read
  uint64_t address = 0;                          ///< what it reads or writes (the NVSwitch model: a 128-B line)
  uint64_t user = 0;                             ///< the endpoint's own bookkeeping, opaque to the network
  std::array<Payload, kMaxPayloadFlits> body{};  ///< the payload flits (those of flits() - 1 carry data)

  unsigned vc() const { return channel; }
  unsigned flits() const { return length; }

  /// Element i (0..kWords-1) of the data: word i % 4 of payload flit i / 4.
  uint32_t word(unsigned i) const { return flit_word(body[i / kWordsPerFlit], i % kWordsPerFlit); }
  void set_word(unsigned i, uint32_t bits) { set_flit_word(body[i / kWordsPerFlit], i % kWordsPerFlit, bits); }
  /// All the data as elements, and back.
  Words words() const {
    Words w;
    for (unsigned i = 0; i < kWords; ++i) w[i] = word(i);
    return w;
  }
  void set_words(const Words& w) {
    for (unsigned i = 0; i < kWords; ++i) set_word(i, w[i]);
  }

  /// Flit i (0 .. flits()-1) on the wire: the head carries the header (the model's stand-in for
  /// its 128 bits: the address and the user word), the others their payload flit; the last is the
  /// tail (a one-flit packet is a single flit). The VC is the packet's.
  Flit flit(unsigned i) const {
    const bool last = i + 1u == length;
    if (i == 0) return Flit{last ? FlitType::Single : FlitType::Head, channel, Payload{address, user}};
    return Flit{last ? FlitType::Tail : FlitType::Body, channel, body[i - 1]};
  }
};

/// The link fault hook's corruption (credit_link.h): one bit of the first data element, which
/// the receiver's checks must catch.
inline void corrupt(Packet& p) { p.body[0][0] ^= 1u << 3; }

/// Link-level retry (credit_link.h): a packet puts its flits, length x 128 bits, on a wire. Its
/// CRC covers every header field and the payload of every flit after the head. A bit error lands
/// in the flit it falls in: in the head's address or user word (the header's 128 bits), or in a
/// payload flit's data.
inline unsigned link_bits(const Packet& p) { return 128u * p.length; }
inline uint32_t link_crc(const Packet& p) {
  Crc32 c;
  c.add(p.id).add(p.src).add(p.dst).add(p.exclude).add(p.kind).add(p.channel).add(p.length).add(p.count);
  c.add(p.expected).add(p.checksum).add(p.address).add(p.user);
  const unsigned words =
      std::min<unsigned>(Packet::kWords, (p.length > 0 ? p.length - 1u : 0u) * Packet::kWordsPerFlit);
  for (unsigned i = 0; i < words; ++i) c.add(p.word(i));
  return c.value();
}
inline void flip_link_bit(Packet& p, unsigned bit) {
  if (bit < 64) {
    p.address ^= uint64_t{1} << bit;
  } else if (bit < 128) {
    p.user ^= uint64_t{1} << (bit - 64);
  } else {
    const unsigned b = (bit - 128) % (128 * Packet::kMaxPayloadFlits);  // a bit of the payload flits
    p.body[b / 128][(b % 128) / 64] ^= uint64_t{1} << (b % 64);
  }
}

/// FNV-1a over the data elements: a packet's end-to-end integrity check.
inline uint32_t payload_checksum(const Packet& p) {
  uint32_t h = 2166136261u;
  for (unsigned i = 0; i < Packet::kWords; ++i) {
    h ^= p.word(i);
    h *= 16777619u;
  }
  return h;
}

}  // namespace hx
