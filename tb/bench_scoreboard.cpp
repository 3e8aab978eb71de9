#include "bench_scoreboard.h"

#include <cstdio>
#include <sstream>
#include <stdexcept>

namespace hx {

std::string ScoreboardSummary::to_string() const {
  std::ostringstream os;
  os << "created " << created << ", injected " << injected << ", delivered " << delivered << ", lost " << lost
     << ", duplicated " << duplicated << ", corrupted " << corrupted << ", misrouted " << misrouted << ", bad_vc "
     << bad_vc << " (flits " << flits_injected << " in, " << flits_delivered << " out)";
  return os.str();
}

Scoreboard::Scoreboard(const FlitFormat& fmt, unsigned num_ports, unsigned num_vcs)
    : fmt_(fmt), num_ports_(num_ports), num_vcs_(num_vcs), assembly_(num_ports * 4) {
  if (!fmt.valid()) throw std::invalid_argument("Scoreboard: flit format cannot carry the tag");
  if (num_ports > kMaxExternalPorts) throw std::invalid_argument("Scoreboard: too many ports");
}

uint32_t Scoreboard::add(const PacketSpec& spec, uint64_t cycle) {
  if (spec.header.length < 1 || spec.header.length > 255) {
    throw std::invalid_argument("Scoreboard::add: packet length must be 1..255");
  }
  if (spec.src_port >= num_ports_) throw std::invalid_argument("Scoreboard::add: bad src port");
  if (spec.vc_rule == VcRule::Auto) {
    throw std::invalid_argument("Scoreboard::add: resolve VcRule::Auto before adding a packet");
  }
  PacketRecord r;
  r.id = static_cast<uint32_t>(packets_.size());
  r.spec = spec;
  r.created_cycle = cycle;
  packets_.push_back(r);
  return r.id;
}

Flit Scoreboard::flit_for(uint32_t id, unsigned index) const {
  const PacketRecord& r = packets_[id];
  return make_packet_flit(fmt_, r.spec.header, id, index, r.spec.vc);
}

void Scoreboard::on_injected(uint32_t id, unsigned index, uint64_t cycle) {
  PacketRecord& r = packets_[id];
  ++flits_injected_;
  ++r.flits_injected;
  if (index == 0) {
    r.state = PacketState::InFlight;
    r.head_injected_cycle = cycle;
    ++injected_;
  }
  if (index + 1 == r.spec.header.length) r.tail_injected_cycle = cycle;
}

void Scoreboard::note(std::string msg) {
  if (messages_.size() < kMaxMessages) {
    messages_.push_back(std::move(msg));
  } else {
    ++dropped_messages_;
  }
}

Delivery Scoreboard::on_delivered(unsigned port, const Flit& f, uint64_t cycle) {
  ++flits_delivered_;
  Delivery d;
  const unsigned vc = f.vc & 3u;
  Assembly& a = assembly_[port * 4 + vc];
  char where[64];
  std::snprintf(where, sizeof where, "cycle %llu port %u vc %u", static_cast<unsigned long long>(cycle), port, vc);

  if (is_head(f.type)) {
    if (a.packet != kNoPacket) {
      ++corrupted_;
      packets_[a.packet].corrupted = true;
      note(std::string(where) + ": head while packet " + std::to_string(a.packet) + " is open at flit " +
           std::to_string(a.next) + " (tail missing or flits interleaved)");
      a.packet = kNoPacket;
    }
    if (!tag_ok(fmt_, f.payload)) {
      ++corrupted_;
      d.ok = false;
      note(std::string(where) + ": head with a bad checksum: " + f.to_string());
      return d;
    }
    const EndpointTag tag = read_tag(fmt_, f.payload);
    if (tag.packet_id >= packets_.size() || tag.seq != 0) {
      ++corrupted_;
      d.ok = false;
      note(std::string(where) + ": head of unknown packet " + std::to_string(tag.packet_id));
      return d;
    }
    PacketRecord& r = packets_[tag.packet_id];
    d.packet = r.id;
    d.index = 0;
    if (r.state == PacketState::Delivered || r.flits_delivered > 0) {
      ++duplicated_;
      r.duplicated = true;
      d.ok = false;
      note(std::string(where) + ": packet " + std::to_string(r.id) + " arrives a second time");
      return d;
    }
    if (r.flits_injected == 0) {
      ++corrupted_;
      r.corrupted = true;
      d.ok = false;
      note(std::string(where) + ": packet " + std::to_string(r.id) + " arrives before injection");
      return d;
    }
    const Header h = Header::decode(fmt_, f.payload);
    if (h != r.spec.header) {
      ++corrupted_;
      r.corrupted = true;
      d.ok = false;
      note(std::string(where) + ": packet " + std::to_string(r.id) + " header " + h.to_string() +
           " differs from injected " + r.spec.header.to_string());
    }
    if (is_tail(f.type) != (r.spec.header.length == 1)) {
      ++corrupted_;
      r.corrupted = true;
      d.ok = false;
      note(std::string(where) + ": packet " + std::to_string(r.id) + " of length " +
           std::to_string(r.spec.header.length) + " starts with a " + to_string(f.type));
    }
    if (!r.spec.allowed_ports.test(port)) {
      ++misrouted_;
      r.misrouted = true;
      d.ok = false;
      note(std::string(where) + ": packet " + std::to_string(r.id) + " from port " + std::to_string(r.spec.src_port) +
           " (" + r.spec.header.to_string() + ") leaves through a port it may not use");
    }
    const unsigned keep_vc = r.spec.vc + (r.spec.increment_ports.test(port) ? 1u : 0u);
    const bool vc_legal = r.spec.vc_rule == VcRule::Any ? vc < num_vcs_ : vc == keep_vc;
    if (!vc_legal) {
      ++bad_vc_;
      r.bad_vc = true;
      d.ok = false;
      note(std::string(where) + ": packet " + std::to_string(r.id) + " injected on vc " + std::to_string(r.spec.vc) +
           " arrives on a VC its " + (r.spec.vc_rule == VcRule::Any ? "VcAny" : "VcKeep") + " rule does not allow");
    }
    r.flits_delivered = 1;
    r.delivered_port = static_cast<int>(port);
    r.delivered_vc = static_cast<int>(vc);
    r.head_delivered_cycle = cycle;
    if (is_tail(f.type)) {
      r.state = PacketState::Delivered;
      r.tail_delivered_cycle = cycle;
      ++delivered_;
      d.packet_done = true;
    } else {
      a.packet = r.id;
      a.next = 1;
    }
    return d;
  }

  // Body or tail: it must continue the packet open on this port and VC.
  if (a.packet == kNoPacket) {
    ++corrupted_;
    d.ok = false;
    note(std::string(where) + ": " + to_string(f.type) + " flit with no open packet: " + f.to_string());
    return d;
  }
  PacketRecord& r = packets_[a.packet];
  d.packet = r.id;
  d.index = a.next;
  const unsigned len = r.spec.header.length;
  if (f.payload != body_pattern(fmt_, r.id, a.next)) {
    ++corrupted_;
    r.corrupted = true;
    d.ok = false;
    note(std::string(where) + ": packet " + std::to_string(r.id) + " flit " + std::to_string(a.next) +
         " payload differs (corrupted, reordered or from another packet)");
  }
  const bool expect_tail = a.next + 1 >= len;
  if (is_tail(f.type) != expect_tail) {
    ++corrupted_;
    r.corrupted = true;
    d.ok = false;
    note(std::string(where) + ": packet " + std::to_string(r.id) + " flit " + std::to_string(a.next) + " of " +
         std::to_string(len) + " is a " + to_string(f.type));
  }
  ++r.flits_delivered;
  ++a.next;
  if (is_tail(f.type) || a.next >= len) {
    r.state = PacketState::Delivered;
    r.tail_delivered_cycle = cycle;
    ++delivered_;
    d.packet_done = true;
    a.packet = kNoPacket;
  }
  return d;
}

ScoreboardSummary Scoreboard::summary() const {
  ScoreboardSummary s;
  s.created = packets_.size();
  s.injected = injected_;
  s.delivered = delivered_;
  s.lost = packets_.size() - delivered_;
  s.duplicated = duplicated_;
  s.corrupted = corrupted_;
  s.misrouted = misrouted_;
  s.bad_vc = bad_vc_;
  s.flits_injected = flits_injected_;
  s.flits_delivered = flits_delivered_;
  return s;
}

uint32_t Scoreboard::open_packet(unsigned port, unsigned vc, unsigned* next_index) const {
  const Assembly& a = assembly_[port * 4 + (vc & 3u)];
  if (next_index) *next_index = a.next;
  return a.packet;
}

std::vector<uint32_t> Scoreboard::undelivered() const {
  std::vector<uint32_t> out;
  for (const PacketRecord& r : packets_) {
    if (r.state != PacketState::Delivered) out.push_back(r.id);
  }
  return out;
}

}  // namespace hx
