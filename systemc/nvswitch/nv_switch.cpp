#include "nv_switch.h"

#include <sstream>
#include <stdexcept>

namespace hx::nv {

namespace {
constexpr unsigned kNoSource = 0xFFFF;  // the source field of a push write
// The first port of `ports` (a bit set) at or after `start`, wrapping round.
unsigned next_port(uint32_t ports, unsigned start) {
  const uint32_t at_or_after = ports & (~0u << start);
  return static_cast<unsigned>(__builtin_ctz(at_or_after != 0 ? at_or_after : ports));
}
RedFlit data_flit(const Packet& p, unsigned i) {
  return {flit_word(p.body[i], 0), flit_word(p.body[i], 1), flit_word(p.body[i], 2), flit_word(p.body[i], 3)};
}
}  // namespace

NvSwitch::NvSwitch(unsigned id, const NvTopology& topo, NvRouting& routing, const SwitchParams& params,
                   std::unique_ptr<ReductionBank> bank, PacketBoard* board)
    : id_(id), topo_(topo), routing_(routing), p_(params), bank_(std::move(bank)), board_(board) {
  for (unsigned q = 0; q < NvTopology::kPorts; ++q) in_[reinject_index(q)].from_link = false;
}

// The packets whose heads arrive on input `port`'s link in this cycle.
void NvSwitch::receive(unsigned port, uint64_t now) {
  LinkTx::Wire* link = in_[port].link;
  if (link == nullptr) return;
  link->receive_all(now, [&](Packet& pkt) {
    Held h;
    h.ready = now + p_.latency;
    const unsigned vc = pkt.vc();
    h.pkt = std::move(pkt);
    in_[port].vcq[vc].push(std::move(h));
    ++buffered_;
  });
}

// Packets on the input links, not yet arrived.
bool NvSwitch::packets_arriving() const {
  for (unsigned q = 0; q < NvTopology::kPorts; ++q)
    if (in_[q].link != nullptr && in_[q].link->units_on_wire() != 0) return true;
  return false;
}

// Where a packet goes: its routing function says (output ports, a reduction table, or nowhere).
void NvSwitch::plan(Held& h, unsigned in, unsigned vc) {
  const NvRoute r = routing_.route(h.pkt, in, vc, *this);
  h.planned = true;
  h.remaining = r.ports;
  h.to_table = r.to_table;
  h.table_port = r.table_port;
  h.sink = r.sink;
  if (kind_of(h.pkt) == Kind::PullReq)
    h.pkt.expected = static_cast<uint16_t>(r.gpus);  // responses this switch will see
}

// Moves copies of the input's head packets into output queues or tables. True if a packet left.
bool NvSwitch::dispatch(Input& in, int in_index, uint64_t now) {
  bool moved = false;
  for (unsigned i = 0; i < kVcs; ++i) {
    const unsigned vc = (in.next_vc + i) % kVcs;
    auto& q = in.vcq[vc];
    if (q.empty() || q.front().ready > now) continue;
    Held& h = q.front();
    if (!h.planned) plan(h, static_cast<unsigned>(in_index), vc);
    const unsigned flits = h.pkt.flits();

    // A pull request first allocates an entry in the table of the port it came in by.
    if (kind_of(h.pkt) == Kind::PullReq && h.table_step < 2) {
      if (h.table_step == 0) {
        TableFeed& t = table_[in_index];
        const bool first_hop = topo_.peer(id_, static_cast<unsigned>(in_index)).kind == PortPeer::Kind::Gpu;
        // At the first hop the request waits while the table is full (IV-B): holding it here,
        // not inside the unit, keeps the unit free for the responses that will free an entry.
        if (t.has_request || (first_hop && io_[in_index].occupancy >= bank_->entries())) {
          if (first_hop) ++stats_.pull_stall_cycles;
          continue;
        }
        t.request = h.pkt;
        t.request.exclude = first_hop ? 1 : 0;  // reused as the first-hop flag for the unit
        t.has_request = true;
        h.table_step = 1;
      }
      if (h.table_step == 1) continue;  // the unit has not taken it yet
    }

    if (h.sink) {
      ++stats_.absorbed_acks;
      ends_here(*board_, h.pkt, h.pkt.dst, switch_of_id(h.pkt.dst) == id_, now);
    } else if (h.to_table) {
      if (now < in.xbar_free) continue;
      TableFeed& t = table_[h.table_port];
      if (t.queued_flits + flits > p_.table_queue) continue;
      // The packet ends here: the unit reduces it or, a pull response without an entry, passes
      // its data on in a new packet. A push write must be at its line's home port.
      const NodeId port = switch_port_id(id_, h.table_port);
      ends_here(*board_, h.pkt, port, kind_of(h.pkt) != Kind::PushWr || h.pkt.dst == port, now);
      in.xbar_free = std::max(in.xbar_free, static_cast<double>(now)) + flits / p_.speedup;
      t.queued_flits += flits;
      t.queue.push(std::move(h.pkt));
    } else {
      // Copies go to whichever of the remaining outputs have room; the rest wait (IV-A). The
      // port tried first rotates, so no output is always the last to get its copy.
      uint32_t rem = h.remaining;
      while (rem != 0 && now >= in.xbar_free) {
        const unsigned port = next_port(rem, rr_ % NvTopology::kPorts);
        rem &= ~(1u << port);
        if (!out_[port].can_accept(vc, flits)) continue;
        in.xbar_free = std::max(in.xbar_free, static_cast<double>(now)) + flits / p_.speedup;
        h.remaining &= ~(1u << port);
        Packet copy = h.pkt;
        if (kind_of(copy) == Kind::PullReq) copy.expected = 0;  // set again at the next switch
        out_[port].push(std::move(copy));
      }
      if (h.remaining != 0) continue;
    }
    if (in.link) in.link->return_credit(now, vc, flits);
    q.pop();
    --buffered_;
    in.next_vc = (vc + 1) % kVcs;
    moved = true;
  }
  return moved;
}

void NvSwitch::feed_tables(uint64_t now) {
  bool active = false;
  for (unsigned q = 0; q < NvTopology::kPorts; ++q) {
    TableFeed& t = table_[q];
    BankPortIo& io = io_[q];
    io.out_ready = !t.out_done;
    t.presenting_request = t.has_request && t.flit == 0;
    io.in_valid = t.presenting_request || !t.queue.empty();
    if (io.in_valid) {
      const Packet& p = t.presenting_request ? t.request : t.queue.front();
      if (t.flit == 0) {
        RedHeader f;
        f.op = static_cast<uint8_t>(p_.op);
        f.tag = static_cast<uint32_t>(p.address);
        f.count = p.count;
        f.expected = p.expected;
        if (kind_of(p) == Kind::PullReq) {
          f.kind = static_cast<uint8_t>(RedKind::PullReq);
          f.first_hop = p.exclude != 0;
          f.src = static_cast<uint16_t>(p.src);
        } else {
          f.kind = static_cast<uint8_t>(kind_of(p) == Kind::PullRsp ? RedKind::PullRsp : RedKind::PushWr);
          f.nflits = kDataFlits;
          // pull: the requester the result goes to; push: none (marks a push entry's result)
          f.src = static_cast<uint16_t>(kind_of(p) == Kind::PullRsp ? static_cast<unsigned>(p.dst) : kNoSource);
          f.opaque = p.checksum;  // carried through a bypass, checked at the GPU
        }
        io.in_flit = f.pack();
      } else {
        io.in_flit = data_flit(p, t.flit - 1);
      }
    }
    active = active || io.in_valid || t.assembling || io.occupancy != 0;
  }
  if (!active) return;  // nothing in any table, nothing arriving: the clock can skip the RTL
  bank_->cycle(now, io_);
  for (unsigned q = 0; q < NvTopology::kPorts; ++q) {
    TableFeed& t = table_[q];
    BankPortIo& io = io_[q];
    stats_.max_occupancy = std::max(stats_.max_occupancy, io.occupancy);
    if (io.in_valid && io.in_ready) {
      ++stats_.table_flits_in;
      if (t.presenting_request) {
        t.has_request = false;
        in_[q].vcq[kVcRequest].front().table_step = 2;  // the request waiting at input q
      } else if (++t.flit == t.queue.front().flits()) {
        t.queued_flits -= t.queue.front().flits();
        t.queue.pop();
        t.flit = 0;
      }
    }
    if (io.out_valid && io.out_ready) collect_output(q, io);
  }
}

// One flit out of port q's unit: a header starts a packet, data flits fill it.
void NvSwitch::collect_output(unsigned q, const BankPortIo& io) {
  TableFeed& t = table_[q];
  if (!t.assembling) {
    const RedHeader h = RedHeader::unpack(io.out_flit);
    const auto kind = static_cast<RedKind>(h.kind);
    Packet& o = t.out;
    o = Packet{};
    t.bypass = false;
    o.address = h.tag;
    o.count = static_cast<uint16_t>(h.count);
    o.expected = static_cast<uint16_t>(h.expected);
    if (kind == RedKind::PullRsp) {
      set_kind(o, Kind::PullRsp);  // bypassed: unchanged, its checksum rode in the opaque bits
      o.dst = static_cast<NodeId>(h.src);
      o.checksum = static_cast<uint32_t>(h.opaque);
      ++stats_.bypassed;
      t.bypass = true;
    } else if (kind == RedKind::Result && h.src != kNoSource) {
      set_kind(o, Kind::PullRsp);
      o.dst = static_cast<NodeId>(h.src);
      ++stats_.results;
    } else if (kind == RedKind::Result) {
      set_kind(o, Kind::Result);
      o.src = switch_port_id(id_, q);
      o.dst = kAllGpus;
      ++stats_.results;
    } else if (kind == RedKind::Evict) {
      set_kind(o, Kind::Evict);
      o.src = switch_port_id(id_, q);
      o.dst = static_cast<NodeId>(topo_.home_gpu(h.tag));
      ++stats_.evictions;
    } else {
      std::ostringstream os;
      os << "switch " << id_ << " port " << q << ": reduction unit emitted header kind "
         << static_cast<unsigned>(h.kind)
         << " (a push write bypassed a table whose entries are all held by pull requests?)";
      throw std::runtime_error(os.str());
    }
    t.assembling = true;
    t.out_flits = 0;
    return;
  }
  for (unsigned w = 0; w < 4; ++w) set_flit_word(t.out.body[t.out_flits], w, io.out_flit[w]);
  if (++t.out_flits == kDataFlits) {
    t.assembling = false;
    t.out_done = true;
    if (!t.bypass) t.out.checksum = payload_checksum(t.out);  // new data: the unit made it
    t.out.src = switch_port_id(id_, q);
    track(*board_, t.out, topo_.gpus(), now_);
    deliver_output(q);
  }
}

// A complete packet from port q's unit: pull responses leave by port q; push results and
// partials re-enter the crossbar. False while there is no room (the unit then waits).
bool NvSwitch::deliver_output(unsigned q) {
  TableFeed& t = table_[q];
  if (!t.out_done) return true;
  const unsigned flits = t.out.flits();
  if (kind_of(t.out) == Kind::PullRsp) {
    if (!out_[q].can_accept(kVcResponse, flits)) return false;
    out_[q].push(std::move(t.out));
  } else {
    Input& r = in_[reinject_index(q)];
    if (r.vcq[kVcResponse].size() >= 2) return false;
    Held h;
    h.ready = 0;
    h.pkt = std::move(t.out);
    r.vcq[kVcResponse].push(std::move(h));
    ++buffered_;
  }
  t.out_done = false;
  return true;
}

void NvSwitch::step(uint64_t now) {
  now_ = now;
  for (unsigned q = 0; q < NvTopology::kPorts; ++q) receive(q, now);
  for (unsigned q = 0; q < NvTopology::kPorts; ++q) deliver_output(q);
  // Inputs compete for room in the output queues and tables. The input served first changes
  // every cycle (round robin): a fixed order would let low-numbered ports take the room first
  // every time, and the GPUs behind high-numbered ports would fall behind. The pointer moves in
  // every cycle in which a packet is buffered or on its way in (it does not in an idle switch).
  if (buffered_ != 0 || packets_arriving()) {
    const unsigned n = static_cast<unsigned>(in_.size());
    for (unsigned k = 0; k < n; ++k) {
      const unsigned i = (rr_ + k) % n;
      dispatch(in_[i], static_cast<int>(i), now);
    }
    rr_ = (rr_ + 1) % n;
  }
  feed_tables(now);
  for (auto& o : out_) o.step(now);
}

bool NvSwitch::idle() const {
  if (buffered_ != 0) return false;
  for (const auto& t : table_)
    if (!t.queue.empty() || t.has_request || t.assembling || t.out_done) return false;
  for (const auto& o : out_)
    if (!o.idle()) return false;
  return true;
}

unsigned NvSwitch::table_entries_in_use() const {
  unsigned n = 0;
  for (const auto& io : io_) n += io.occupancy;
  return n;
}

std::string NvSwitch::describe() const {
  std::ostringstream os;
  for (unsigned i = 0; i < in_.size(); ++i)
    for (unsigned v = 0; v < kVcs; ++v)
      if (!in_[i].vcq[v].empty())
        os << (i < NvTopology::kPorts ? " in " : " reinject ") << i % NvTopology::kPorts << " vc" << v << ": "
           << in_[i].vcq[v].size() << " packets;";
  for (unsigned q = 0; q < NvTopology::kPorts; ++q) {
    if (!table_[q].queue.empty()) os << " table " << q << " queue: " << table_[q].queue.size() << " packets;";
    if (io_[q].occupancy) os << " table " << q << ": " << io_[q].occupancy << " entries;";
    for (unsigned v = 0; v < kVcs; ++v)
      if (out_[q].queued_packets(v))
        os << " out " << q << " vc" << v << ": " << out_[q].queued_packets(v) << " packets;";
    if (out_[q].packets_on_wire()) os << " out " << q << " link: " << out_[q].packets_on_wire() << " packets;";
  }
  const std::string held = os.str();
  return held.empty() ? held : "  " + name() + ":" + held + "\n";
}

}  // namespace hx::nv
