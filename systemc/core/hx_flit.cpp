#include "hx_flit.h"

#include <cstdio>

namespace hx {

namespace {

uint64_t splitmix64(uint64_t x) {
  x += 0x9e3779b97f4a7c15ull;
  x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ull;
  x = (x ^ (x >> 27)) * 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

Payload mask_payload(const FlitFormat& fmt, Payload p) {
  if (fmt.payload_width < 128) {
    if (fmt.payload_width <= 64) {
      p[1] = 0;
      if (fmt.payload_width < 64) p[0] &= (uint64_t{1} << fmt.payload_width) - 1;
    } else {
      p[1] &= (uint64_t{1} << (fmt.payload_width - 64)) - 1;
    }
  }
  return p;
}

}  // namespace

const char* to_string(FlitType t) {
  switch (t) {
    case FlitType::Body: return "Body";
    case FlitType::Tail: return "Tail";
    case FlitType::Head: return "Head";
    case FlitType::Single: return "Single";
  }
  return "?";
}

void Header::encode(const FlitFormat& fmt, Payload& p) const {
  const unsigned bw = fmt.board_coord_width;
  const unsigned nw = fmt.node_coord_width;
  set_field(p, fmt.dst_board_x_lsb(), bw, dst_board_x);
  set_field(p, fmt.dst_board_y_lsb(), bw, dst_board_y);
  set_field(p, fmt.dst_node_x_lsb(), nw, dst_node_x);
  set_field(p, fmt.dst_node_y_lsb(), nw, dst_node_y);
  set_field(p, fmt.src_board_x_lsb(), bw, src_board_x);
  set_field(p, fmt.src_board_y_lsb(), bw, src_board_y);
  set_field(p, fmt.src_node_x_lsb(), nw, src_node_x);
  set_field(p, fmt.src_node_y_lsb(), nw, src_node_y);
  set_field(p, fmt.length_lsb(), FlitFormat::kLenWidth, length);
  set_field(p, fmt.class_lsb(), FlitFormat::kClassWidth, msg_class);
  set_field(p, fmt.red_op_lsb(), FlitFormat::kRedOpWidth, red_op);
}

Header Header::decode(const FlitFormat& fmt, const Payload& p) {
  const unsigned bw = fmt.board_coord_width;
  const unsigned nw = fmt.node_coord_width;
  Header h;
  h.dst_board_x = static_cast<unsigned>(get_field(p, fmt.dst_board_x_lsb(), bw));
  h.dst_board_y = static_cast<unsigned>(get_field(p, fmt.dst_board_y_lsb(), bw));
  h.dst_node_x = static_cast<unsigned>(get_field(p, fmt.dst_node_x_lsb(), nw));
  h.dst_node_y = static_cast<unsigned>(get_field(p, fmt.dst_node_y_lsb(), nw));
  h.src_board_x = static_cast<unsigned>(get_field(p, fmt.src_board_x_lsb(), bw));
  h.src_board_y = static_cast<unsigned>(get_field(p, fmt.src_board_y_lsb(), bw));
  h.src_node_x = static_cast<unsigned>(get_field(p, fmt.src_node_x_lsb(), nw));
  h.src_node_y = static_cast<unsigned>(get_field(p, fmt.src_node_y_lsb(), nw));
  h.length = static_cast<unsigned>(get_field(p, fmt.length_lsb(), FlitFormat::kLenWidth));
  h.msg_class = static_cast<unsigned>(get_field(p, fmt.class_lsb(), FlitFormat::kClassWidth));
  h.red_op = static_cast<unsigned>(get_field(p, fmt.red_op_lsb(), FlitFormat::kRedOpWidth));
  return h;
}

bool Header::operator==(const Header& o) const {
  return dst_board_x == o.dst_board_x && dst_board_y == o.dst_board_y && dst_node_x == o.dst_node_x &&
         dst_node_y == o.dst_node_y && src_board_x == o.src_board_x && src_board_y == o.src_board_y &&
         src_node_x == o.src_node_x && src_node_y == o.src_node_y && length == o.length && msg_class == o.msg_class &&
         red_op == o.red_op;
}

std::string Header::to_string() const {
  char buf[160];
  std::snprintf(buf, sizeof buf, "dst b(%u,%u) n(%u,%u) src b(%u,%u) n(%u,%u) len %u cls %u op %u", dst_board_x,
                dst_board_y, dst_node_x, dst_node_y, src_board_x, src_board_y, src_node_x, src_node_y, length,
                msg_class, red_op);
  return buf;
}

LinkWord Flit::pack(const FlitFormat& fmt) const {
  LinkWord w{};
  const Payload p = mask_payload(fmt, payload);
  w[0] = p[0];
  if (fmt.payload_width > 64) set_field(w, 64, fmt.payload_width - 64, p[1]);
  set_field(w, fmt.vc_lsb(), FlitFormat::kVcWidth, vc);
  set_field(w, fmt.type_lsb(), FlitFormat::kTypeWidth, static_cast<uint64_t>(type));
  return w;
}

Flit Flit::unpack(const FlitFormat& fmt, const LinkWord& w) {
  Flit f;
  f.payload[0] = fmt.payload_width >= 64 ? w[0] : get_field(w, 0, fmt.payload_width);
  f.payload[1] = fmt.payload_width > 64 ? get_field(w, 64, fmt.payload_width - 64) : 0;
  f.vc = static_cast<unsigned>(get_field(w, fmt.vc_lsb(), FlitFormat::kVcWidth));
  f.type = static_cast<FlitType>(get_field(w, fmt.type_lsb(), FlitFormat::kTypeWidth));
  return f;
}

std::string Flit::to_string() const {
  char buf[96];
  std::snprintf(buf, sizeof buf, "%s vc%u %016llx_%016llx", hx::to_string(type), vc,
                static_cast<unsigned long long>(payload[1]), static_cast<unsigned long long>(payload[0]));
  return buf;
}

uint16_t tag_checksum(const FlitFormat& fmt, const Payload& p, uint32_t packet_id, uint16_t seq) {
  const unsigned hw = fmt.header_width();
  uint64_t h = splitmix64(get_field(p, 0, hw < 64 ? hw : 64));
  if (hw > 64) h = splitmix64(h ^ get_field(p, 64, hw - 64));
  h = splitmix64(h ^ (uint64_t{packet_id} << 16) ^ seq);
  return static_cast<uint16_t>(h ^ (h >> 16) ^ (h >> 32) ^ (h >> 48));
}

void write_tag(const FlitFormat& fmt, Payload& p, uint32_t packet_id, uint16_t seq) {
  const unsigned lsb = fmt.tag_lsb();
  set_field(p, lsb, 32, packet_id);
  set_field(p, lsb + 32, 16, seq);
  set_field(p, lsb + 48, 16, tag_checksum(fmt, p, packet_id, seq));
}

EndpointTag read_tag(const FlitFormat& fmt, const Payload& p) {
  const unsigned lsb = fmt.tag_lsb();
  EndpointTag t;
  t.packet_id = static_cast<uint32_t>(get_field(p, lsb, 32));
  t.seq = static_cast<uint16_t>(get_field(p, lsb + 32, 16));
  t.checksum = static_cast<uint16_t>(get_field(p, lsb + 48, 16));
  return t;
}

bool tag_ok(const FlitFormat& fmt, const Payload& p) {
  const EndpointTag t = read_tag(fmt, p);
  return t.checksum == tag_checksum(fmt, p, t.packet_id, t.seq);
}

Payload body_pattern(const FlitFormat& fmt, uint32_t packet_id, unsigned index) {
  const uint64_t seed = (uint64_t{packet_id} << 20) ^ index ^ 0x5a5a000000000000ull;
  Payload p{splitmix64(seed), splitmix64(seed ^ 0xc3a5c85c97cb3127ull)};
  return mask_payload(fmt, p);
}

Flit make_packet_flit(const FlitFormat& fmt, const Header& header, uint32_t packet_id, unsigned index, unsigned vc) {
  Flit f;
  f.vc = vc;
  const bool last = index + 1 >= header.length;
  if (index == 0) {
    f.type = last ? FlitType::Single : FlitType::Head;
    header.encode(fmt, f.payload);
    write_tag(fmt, f.payload, packet_id, 0);
  } else {
    f.type = last ? FlitType::Tail : FlitType::Body;
    f.payload = body_pattern(fmt, packet_id, index);
  }
  return f;
}

}  // namespace hx
