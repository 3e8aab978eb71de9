#include "packet_tracker.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>

namespace hx {

PacketTracker::PacketTracker(const FlitFormat& fmt, std::vector<EndpointAddress> addresses, unsigned lanes,
                             unsigned vcs)
    : fmt_(fmt), addr_(std::move(addresses)), lanes_(lanes), vcs_(vcs) {
  assembly_.resize(addr_.size() * lanes_ * vcs_);
}

namespace {
// One step of the body hash: order-dependent, so a swapped or repeated flit changes it.
uint64_t fold(uint64_t h, const Payload& p) {
  for (uint64_t w : p) {
    h = (h ^ w) * 0x9e3779b97f4a7c15ull;
    h ^= h >> 29;
  }
  return h;
}
}  // namespace

uint64_t PacketTracker::data_hash(const Payload* body, unsigned flits) {
  uint64_t h = 0x6a09e667f3bcc909ull;
  for (unsigned i = 0; i < flits; ++i) h = fold(h, body[i]);
  return h;
}

uint32_t PacketTracker::create_data(unsigned src, unsigned dst, unsigned length, uint64_t cycle, uint64_t user,
                                    uint64_t body_hash) {
  const uint32_t id = create(src, dst, length, cycle, false);
  Record& r = *find(id);
  r.x.data = true;
  r.x.user = user;
  r.payload_hash = body_hash;
  return id;
}

uint32_t PacketTracker::create(unsigned src, unsigned dst, unsigned length, uint64_t cycle, bool measured) {
  // The flits carry 32-bit ids (EndpointTag).
  if (sb_.counts().created > UINT32_MAX) throw std::overflow_error("PacketTracker: more than 2^32 packets");
  const auto id = static_cast<uint32_t>(sb_.create(static_cast<int32_t>(src), static_cast<int32_t>(dst), cycle));
  Path& x = find(id)->x;
  x.length = static_cast<uint16_t>(length);
  x.measured = measured;
  x.at_x = static_cast<uint8_t>(addr_[src].node_x);
  x.at_y = static_cast<uint8_t>(addr_[src].node_y);
  if (measured) ++measured_created_;
  return id;
}

namespace {
unsigned distance(unsigned a, unsigned b) { return a > b ? a - b : b - a; }
}  // namespace

PacketTracker::Record* PacketTracker::find_head(const Flit& head) {
  // A head the tracker does not know is left alone here: the destination's check reports it.
  return find(read_tag(fmt_, head.payload).packet_id);
}

void PacketTracker::on_board_exit(const Flit& head, unsigned x, unsigned y) {
  Record* r = find_head(head);
  if (r == nullptr) return;
  Path& p = r->x;
  p.routers = static_cast<uint16_t>(p.routers + distance(x, p.at_x) + distance(y, p.at_y) + 1);
  if (p.trees < UINT8_MAX) ++p.trees;
}

void PacketTracker::on_switch(const Flit& head, uint32_t cable_um, bool transit) {
  Record* r = find_head(head);
  if (r == nullptr) return;
  if (r->x.switches < UINT8_MAX) ++r->x.switches;
  if (transit && r->x.transits < UINT8_MAX) ++r->x.transits;
  counts_.cable_um += cable_um;
}

void PacketTracker::set_jobs(std::vector<int> board_job, std::vector<int> endpoint_job) {
  board_job_ = std::move(board_job);
  endpoint_job_ = std::move(endpoint_job);
}

void PacketTracker::on_board_entry(const Flit& head, unsigned board, unsigned x, unsigned y) {
  Record* r = find_head(head);
  if (r == nullptr) return;
  if (!board_job_.empty() && board < board_job_.size() && board_job_[board] != endpoint_job_[r->src]) {
    ++counts_.foreign_boards;
    sb_.note(
        "packet from endpoint " + std::to_string(r->src) + " to " + std::to_string(r->dst) + " of job " +
        std::to_string(endpoint_job_[r->src]) + " entered board " + std::to_string(board) +
        (board_job_[board] < 0 ? ", which no job owns" : ", which job " + std::to_string(board_job_[board]) + " owns"));
  }
  r->x.at_x = static_cast<uint8_t>(x);
  r->x.at_y = static_cast<uint8_t>(y);
}

Header PacketTracker::header_of(const Record& r) const {
  const EndpointAddress& s = addr_[r.src];
  const EndpointAddress& d = addr_[r.dst];
  Header h;
  h.dst_board_x = d.board_x;
  h.dst_board_y = d.board_y;
  h.dst_node_x = d.node_x;
  h.dst_node_y = d.node_y;
  h.src_board_x = s.board_x;
  h.src_board_y = s.board_y;
  h.src_node_x = s.node_x;
  h.src_node_y = s.node_y;
  h.length = r.x.length;
  return h;
}

Flit PacketTracker::flit(uint32_t id, unsigned index, unsigned vc) const {
  const Record* r = find(id);
  if (r == nullptr) throw std::logic_error("PacketTracker::flit: unknown packet");
  return make_packet_flit(fmt_, header_of(*r), id, index, vc);
}

void PacketTracker::on_injected(uint32_t id, unsigned index, bool last, uint64_t) {
  ++counts_.flits_injected;
  if (index != 0 && !last) return;
  Record* r = find(id);
  if (r == nullptr) throw std::logic_error("PacketTracker::on_injected: unknown packet");
  if (index == 0) {
    sb_.injected(*r);
    r->x.injected = 1;
  }
  if (last) r->x.injected = r->x.length;
}

PacketTracker::Arrival PacketTracker::on_delivered(unsigned dst, unsigned lane, const Flit& f, uint64_t cycle) {
  Arrival a;
  ++counts_.flits_delivered;
  if (f.vc >= vcs_) {
    sb_.corrupt(nullptr, "cycle " + std::to_string(cycle) + ": endpoint " + std::to_string(dst) + ": flit on VC " +
                             std::to_string(f.vc) + ", but the system has " + std::to_string(vcs_));
    return a;
  }
  Assembly& as = assembly_[(dst * lanes_ + lane) * vcs_ + f.vc];
  // A body flit of an open data packet, where one is due: fold it, without the record. Any
  // other flit, and a data packet's tail, takes the full check below.
  if (f.type == FlitType::Body && as.id != UINT32_MAX && as.next + 1u < as.length) {
    as.folded = fold(as.folded, f.payload);
    a.ok = true;
    a.id = as.id;
    a.index = as.next++;
    return a;
  }
  uint32_t id;
  unsigned index;
  if (is_head(f.type)) {
    if (as.id != UINT32_MAX) {
      sb_.corrupt(find(as.id), "cycle " + std::to_string(cycle) + ": endpoint " + std::to_string(dst) + " vc " +
                                   std::to_string(f.vc) + ": head while packet " + std::to_string(as.id) +
                                   " is still open (its tail was lost)");
      as.id = UINT32_MAX;
    }
    if (!tag_ok(fmt_, f.payload)) {
      sb_.corrupt(nullptr, "cycle " + std::to_string(cycle) + ": endpoint " + std::to_string(dst) +
                               ": head with a bad checksum: " + f.to_string());
      return a;
    }
    id = read_tag(fmt_, f.payload).packet_id;
    index = 0;
  } else {
    if (as.id == UINT32_MAX) {
      sb_.corrupt(nullptr, "cycle " + std::to_string(cycle) + ": endpoint " + std::to_string(dst) + " vc " +
                               std::to_string(f.vc) + ": " + to_string(f.type) + " flit with no open packet");
      return a;
    }
    id = as.id;
    index = as.next;
  }
  Record* r;
  if (index == 0) {
    // The head is the packet's arrival: the scoreboard checks it is known, injected, not a
    // duplicate and at its destination (a misdelivered packet is still checked flit by flit).
    const Board::Arrival arrival = sb_.arrive(id, static_cast<int32_t>(dst), cycle);
    r = arrival.record;
    if (r == nullptr) return a;
  } else {
    r = find(id);
    if (r == nullptr || r->state == State::Created) {
      sb_.corrupt(nullptr, "cycle " + std::to_string(cycle) + ": endpoint " + std::to_string(dst) +
                               ": flit of unknown or not yet injected packet " + std::to_string(id));
      return a;
    }
  }
  Path& x = r->x;
  if (x.data && index > 0) {
    as.folded = fold(as.folded, f.payload);
    if (is_tail(f.type) && as.folded != r->payload_hash)
      sb_.corrupt(r, "cycle " + std::to_string(cycle) + ": endpoint " + std::to_string(dst) + ": data packet " +
                         std::to_string(id) + ": its body differs from what was sent (hash mismatch)");
  }
  // A data packet's body is checked by its hash (above); its flit types still must be right.
  Flit expect;
  if (x.data && index > 0) {
    expect = f;
    expect.type = index + 1u == x.length ? FlitType::Tail : FlitType::Body;
  } else {
    expect = make_packet_flit(fmt_, header_of(*r), id, index, f.vc);
  }
  if (!(expect == f)) {
    sb_.corrupt(r, "cycle " + std::to_string(cycle) + ": endpoint " + std::to_string(dst) + ": packet " +
                       std::to_string(id) + " flit " + std::to_string(index) +
                       " differs from what was sent\n    sent " + expect.to_string() + "\n    got  " + f.to_string());
  }
  x.delivered = static_cast<uint16_t>(index + 1);
  a.ok = true;
  a.id = id;
  a.index = index;
  a.user = x.user;
  if (is_tail(f.type)) {
    as.id = UINT32_MAX;
    if (x.delivered != x.length) {
      sb_.corrupt(r, "packet " + std::to_string(id) + ": tail after " + std::to_string(x.delivered) + " of " +
                         std::to_string(x.length) + " flits");
    }
    {
      const EndpointAddress& da = addr_[static_cast<unsigned>(r->dst)];
      // With switch routers on the boards, the destination's router is the one switch hop not
      // reported (delivering to its own accelerator is none), as on a torus.
      const unsigned routers =
          board_switches_ ? 1 : x.routers + distance(da.node_x, x.at_x) + distance(da.node_y, x.at_y) + 1;
      const unsigned trees = board_switches_ ? f.vc : x.trees;
      const unsigned cables = routers + x.switches - 1;
      counts_.flit_hops += uint64_t{x.length} * (routers + x.switches);
      counts_.max_path_cables = std::max(counts_.max_path_cables, cables);
      counts_.max_trees = std::max(counts_.max_trees, trees);
      counts_.max_vc = std::max(counts_.max_vc, f.vc);
      counts_.transits += x.transits;
      counts_.transit_packets += x.transits > 0;
      counts_.max_transits = std::max<unsigned>(counts_.max_transits, x.transits);
      if (x.measured) {
        (x.transits > 0 ? counts_.transit_latency_sum : counts_.direct_latency_sum) += cycle - r->created;
        ++(x.transits > 0 ? counts_.transit_measured : counts_.direct_measured);
      }
      if (path_rule_ && (trees > 2 || f.vc > max_path_vc_)) {
        ++counts_.path_violations;
        sb_.note("packet " + std::to_string(id) + " crossed " + std::to_string(trees) +
                 " fat trees and arrived on VC " + std::to_string(f.vc) + " (at most two trees and VCs 0.." +
                 std::to_string(max_path_vc_) + " allowed)");
      }
    }
    a.packet_done = true;
    a.measured = x.measured;
    a.latency = cycle - r->created;
    if (x.measured) ++measured_delivered_;
    sb_.complete(id, *r, cycle);  // retires the record: not used after this
  } else {
    if (index == 0) {
      as.length = x.data ? x.length : 0;
      as.folded = data_hash(nullptr, 0);
    }
    as.id = id;
    as.next = static_cast<uint16_t>(index + 1);
  }
  return a;
}

const PacketTracker::Assembly* PacketTracker::assembly_of(uint32_t id, unsigned dst) const {
  for (unsigned k = 0; k < lanes_ * vcs_; ++k) {
    const Assembly& as = assembly_[std::size_t{dst} * lanes_ * vcs_ + k];
    if (as.id == id) return &as;
  }
  return nullptr;
}

uint64_t PacketTracker::in_network() const {
  uint64_t n = 0;
  sb_.for_each_live([&n](uint64_t, const Record& r) { n += r.state == State::InFlight; });
  return n;
}

std::string PacketTracker::describe_packet(uint32_t id) const {
  const Record* r = find(id);
  std::ostringstream os;
  if (r == nullptr) {
    os << "packet " << id << ": delivered or unknown";
    return os.str();
  }
  const EndpointAddress& s = addr_[static_cast<unsigned>(r->src)];
  const EndpointAddress& d = addr_[static_cast<unsigned>(r->dst)];
  const Path& x = r->x;
  os << "packet " << id << ": endpoint " << r->src << " (" << s.node_x << "," << s.node_y << ") -> endpoint " << r->dst
     << " (" << d.node_x << "," << d.node_y << "), " << x.length << " flits, created cycle " << r->created << ", ";
  switch (r->state) {
    case State::Created: os << "waiting in its source queue"; break;
    case State::InFlight: {
      // A data packet's body flits are counted in its assembly entry, not in the record.
      const Assembly* as = assembly_of(id, static_cast<unsigned>(r->dst));
      os << (x.injected == x.length ? "all " + std::to_string(x.length) + " flits injected"
                                    : std::string("head injected, tail not yet"))
         << ", " << (as != nullptr ? as->next : x.delivered) << " delivered";
      break;
    }
    default: os << "delivered";
  }
  return os.str();
}

std::string PacketTracker::describe_undelivered(std::size_t max) const {
  std::ostringstream os;
  std::size_t shown = 0, in_flight = 0;
  sb_.for_each_live([&](uint64_t i, const Record& r) {
    if (r.state != State::InFlight) return;
    ++in_flight;
    if (shown < max) {
      os << "  " << describe_packet(static_cast<uint32_t>(i)) << "\n";
      ++shown;
    }
  });
  if (in_flight > shown) os << "  ... and " << in_flight - shown << " more in the network\n";
  if (queued_ > 0) os << "  and " << queued_ << " never injected, still waiting at their sources\n";
  return os.str();
}

}  // namespace hx
