// hx_flit.h: the C++ mirror of the flit format of rtl/hx_pkg.sv.
//
// A flit on a link is the flat word {type[1:0], vc[1:0], payload[PayloadWidth-1:0]}, so the link
// is PayloadWidth + 4 bits wide (132 bits for the default 128-bit payload). The type bits are
// {is_head, is_tail}: Body 00, Tail 01, Head 10, Single 11 (a head and a tail at once).
//
// A head (or single) flit carries the routing header in the low bits of its payload, from bit 0
// upwards: dst_board_x, dst_board_y (BoardCoordWidth each), dst_node_x, dst_node_y
// (NodeCoordWidth each), the same four fields for the source, length (8 bits, flits including the
// head), msg_class (3 bits) and red_op (4 bits). FlitFormat computes the offsets with the same
// formulas as hx_pkg's hdr_*_lsb functions, so RTL and C++ agree for any choice of widths.
//
// Above the header the payload belongs to the endpoint. The test benches use it to make every
// delivered flit checkable on its own (EndpointTag, body_pattern):
//   head/single: [hw, hw+32) packet id, [hw+32, hw+48) flit sequence number (0 for the head),
//                [hw+48, hw+64) checksum over the header, the id and the sequence number;
//   body/tail:   the whole payload is a pseudo-random pattern of (packet id, flit index).
// The router never looks above the header and never changes a payload: only the VC field of a
// flit is rewritten at each hop.
#pragma once

#include <array>
#include <cstdint>
#include <string>

#include "crc32.h"

namespace hx {

/// A 128-bit payload (the widest the RTL is built with), as two 64-bit words, bit 0 = word 0 bit 0.
using Payload = std::array<uint64_t, 2>;
/// A flat link word {type, vc, payload}, up to 132 bits: three 64-bit words, bit 0 = word 0 bit 0.
using LinkWord = std::array<uint64_t, 3>;

/// Data in a flit, as both network models carry it: four 32-bit elements per 128-bit payload,
/// element j (0..3) at bits [32j, 32j + 32). The fabric's DMA engine (collective_engine.h) and the
/// NVSwitch model's packets (packet.h) read and write their data through these two.
constexpr unsigned kWordsPerFlit = 4;
inline uint32_t flit_word(const Payload& p, unsigned j) { return static_cast<uint32_t>(p[j / 2] >> (32 * (j % 2))); }
inline void set_flit_word(Payload& p, unsigned j, uint32_t bits) {
  uint64_t& w = p[j / 2];
  const unsigned shift = 32 * (j % 2);
  w = (w & ~(uint64_t{0xffffffffu} << shift)) | (uint64_t{bits} << shift);
}

/// Read `width` (1..64) bits at `lsb` of a little-endian array of 64-bit words.
template <std::size_t N>
inline uint64_t get_field(const std::array<uint64_t, N>& words, unsigned lsb, unsigned width) {
  const unsigned w = lsb / 64;
  const unsigned b = lsb % 64;
  uint64_t v = words[w] >> b;
  if (b != 0 && b + width > 64 && w + 1 < N) v |= words[w + 1] << (64 - b);
  return width >= 64 ? v : (v & ((uint64_t{1} << width) - 1));
}

/// Write `width` (1..64) bits at `lsb` of a little-endian array of 64-bit words.
template <std::size_t N>
inline void set_field(std::array<uint64_t, N>& words, unsigned lsb, unsigned width, uint64_t value) {
  const uint64_t mask = width >= 64 ? ~uint64_t{0} : ((uint64_t{1} << width) - 1);
  value &= mask;
  const unsigned w = lsb / 64;
  const unsigned b = lsb % 64;
  words[w] = (words[w] & ~(mask << b)) | (value << b);
  if (b != 0 && b + width > 64 && w + 1 < N) {
    const unsigned hi = b + width - 64;  // bits that spill into the next word
    const uint64_t hmask = (uint64_t{1} << hi) - 1;
    words[w + 1] = (words[w + 1] & ~hmask) | (value >> (64 - b));
  }
}

/// Widths of a flit and the header field offsets (hx_pkg's formulas; bw = board, nw = node
/// coordinate width).
struct FlitFormat {
  unsigned payload_width = 128;
  unsigned board_coord_width = 8;
  unsigned node_coord_width = 4;

  static constexpr unsigned kVcWidth = 2;
  static constexpr unsigned kTypeWidth = 2;
  static constexpr unsigned kLenWidth = 8;
  static constexpr unsigned kClassWidth = 3;
  static constexpr unsigned kRedOpWidth = 4;

  constexpr unsigned dst_board_x_lsb() const { return 0; }
  constexpr unsigned dst_board_y_lsb() const { return board_coord_width; }
  constexpr unsigned dst_node_x_lsb() const { return 2 * board_coord_width; }
  constexpr unsigned dst_node_y_lsb() const { return 2 * board_coord_width + node_coord_width; }
  constexpr unsigned src_lsb() const { return 2 * (board_coord_width + node_coord_width); }
  constexpr unsigned src_board_x_lsb() const { return src_lsb(); }
  constexpr unsigned src_board_y_lsb() const { return src_lsb() + board_coord_width; }
  constexpr unsigned src_node_x_lsb() const { return src_lsb() + 2 * board_coord_width; }
  constexpr unsigned src_node_y_lsb() const { return src_lsb() + 2 * board_coord_width + node_coord_width; }
  constexpr unsigned length_lsb() const { return 4 * (board_coord_width + node_coord_width); }
  constexpr unsigned class_lsb() const { return length_lsb() + kLenWidth; }
  constexpr unsigned red_op_lsb() const { return class_lsb() + kClassWidth; }
  constexpr unsigned header_width() const { return red_op_lsb() + kRedOpWidth; }

  constexpr unsigned vc_lsb() const { return payload_width; }
  constexpr unsigned type_lsb() const { return payload_width + kVcWidth; }
  constexpr unsigned flit_width() const { return payload_width + kVcWidth + kTypeWidth; }

  /// The endpoint tag (id, sequence number, checksum) sits right above the header.
  constexpr unsigned tag_lsb() const { return header_width(); }
  constexpr unsigned tag_width() const { return 64; }
  /// True when the format can carry the endpoint tag (payload_width >= header + 64) and the
  /// C++ containers can hold it (payload_width <= 128).
  constexpr bool valid() const {
    return payload_width <= 128 && payload_width >= header_width() + tag_width() && board_coord_width >= 1 &&
           board_coord_width <= 16 && node_coord_width >= 1 && node_coord_width <= 8;
  }
};

/// Flit type, encoded as {is_head, is_tail} exactly as hx_pkg::flit_type_e.
enum class FlitType : uint8_t { Body = 0, Tail = 1, Head = 2, Single = 3 };

constexpr bool is_head(FlitType t) { return (static_cast<unsigned>(t) & 2u) != 0; }
constexpr bool is_tail(FlitType t) { return (static_cast<unsigned>(t) & 1u) != 0; }
const char* to_string(FlitType t);

/// The routing header of a head flit (hx_pkg layout).
struct Header {
  unsigned dst_board_x = 0, dst_board_y = 0, dst_node_x = 0, dst_node_y = 0;
  unsigned src_board_x = 0, src_board_y = 0, src_node_x = 0, src_node_y = 0;
  unsigned length = 1;  ///< flits of the packet, head included (1..255)
  unsigned msg_class = 0;
  unsigned red_op = 0;

  /// Write the header into the low header_width() bits of `payload` (other bits untouched).
  void encode(const FlitFormat& fmt, Payload& payload) const;
  static Header decode(const FlitFormat& fmt, const Payload& payload);
  bool operator==(const Header& o) const;
  bool operator!=(const Header& o) const { return !(*this == o); }
  std::string to_string() const;
};

/// One flit as a value: type, virtual channel, payload.
struct Flit {
  FlitType type = FlitType::Single;
  unsigned vc = 0;
  Payload payload{};

  /// A flit is the unit of a flit link (credit_link.h): one flit on the wire.
  static constexpr unsigned kMaxFlits = 1;
  static constexpr unsigned flits() { return 1; }

  /// {type, vc, payload} as the flat link word of fmt.flit_width() bits.
  LinkWord pack(const FlitFormat& fmt) const;
  static Flit unpack(const FlitFormat& fmt, const LinkWord& word);
  bool operator==(const Flit& o) const { return type == o.type && vc == o.vc && payload == o.payload; }
  std::string to_string() const;
};

/// The link fault hook's corruption (credit_link.h): flip the top payload bit, above the header
/// and the endpoint tag, so the flit can still be attributed to its packet and the payload
/// comparison must catch it.
inline void corrupt(Flit& f) { f.payload[1] ^= uint64_t{1} << 63; }

/// Link-level retry (credit_link.h): the bits a flit puts on a wire (payload, VC, type: the
/// default format's 132), its CRC over them, and a bit error at one of them.
constexpr unsigned link_bits(const Flit&) { return 128 + FlitFormat::kVcWidth + FlitFormat::kTypeWidth; }
inline uint32_t link_crc(const Flit& f) {
  return Crc32()
      .add(f.payload[0])
      .add(f.payload[1])
      .add(static_cast<uint8_t>(f.vc))
      .add(static_cast<uint8_t>(f.type))
      .value();
}
inline void flip_link_bit(Flit& f, unsigned bit) {
  if (bit < 128) {
    f.payload[bit / 64] ^= uint64_t{1} << (bit % 64);
  } else if (bit < 128 + FlitFormat::kVcWidth) {
    f.vc ^= 1u << (bit - 128);
  } else {
    f.type = static_cast<FlitType>(static_cast<unsigned>(f.type) ^ (1u << (bit - 128 - FlitFormat::kVcWidth)));
  }
}

/// The endpoint's identification of a head flit, stored above the header.
struct EndpointTag {
  uint32_t packet_id = 0;
  uint16_t seq = 0;       ///< flit sequence number within the packet (0 for the head)
  uint16_t checksum = 0;  ///< over the header bits, the id and seq
};

/// The checksum the benches store in a head flit: a 16-bit fold of a hash of the header bits,
/// the packet id and the sequence number.
uint16_t tag_checksum(const FlitFormat& fmt, const Payload& payload, uint32_t packet_id, uint16_t seq);

/// Store id, seq and their checksum above the header (the header must already be encoded).
void write_tag(const FlitFormat& fmt, Payload& payload, uint32_t packet_id, uint16_t seq);
EndpointTag read_tag(const FlitFormat& fmt, const Payload& payload);
/// True when the stored checksum matches the header, id and seq of `payload`.
bool tag_ok(const FlitFormat& fmt, const Payload& payload);

/// The deterministic payload of body/tail flit `index` (>= 1) of packet `packet_id`, masked to
/// fmt.payload_width bits.
Payload body_pattern(const FlitFormat& fmt, uint32_t packet_id, unsigned index);

/// Flit `index` of a packet of header.length flits, as the benches inject it: a tagged head (or
/// single) for index 0, body_pattern for the others, the tail last.
Flit make_packet_flit(const FlitFormat& fmt, const Header& header, uint32_t packet_id, unsigned index, unsigned vc);

}  // namespace hx
