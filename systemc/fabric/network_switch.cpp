#include "network_switch.h"

#include <sstream>

namespace hx {

NetworkSwitch::NetworkSwitch(std::string name, unsigned ports, unsigned vcs, unsigned depth, unsigned latency,
                             unsigned speedup, Role role, TreeAddressing addressing, PacketTracker* tracker,
                             ErrorHandler on_error, uint64_t seed)
    : name_(std::move(name)),
      vcs_(vcs),
      latency_(latency),
      speedup_(speedup),
      role_(role),
      addr_(addressing),
      tracker_(tracker),
      on_error_(std::move(on_error)),
      in_(ports, nullptr),
      out_(ports, nullptr),
      buf_(ports, VcBuffer(vcs, depth)),
      obuf_(ports, VcBuffer(vcs, kOutputQueueDepth)),
      rr_link_(ports, 0),
      owed_credits_(static_cast<std::size_t>(ports) * vcs, 0),
      owed_total_(ports, 0),
      rr_credit_(ports, 0),
      route_(static_cast<std::size_t>(ports) * vcs, kNone),
      route_vc_(static_cast<std::size_t>(ports) * vcs, 0),
      owner_(static_cast<std::size_t>(ports) * vcs, kNone),
      credits_(static_cast<std::size_t>(ports) * vcs, 0),
      full_credits_(ports, 0),
      rr_in_(ports, 0),
      rr_out_(ports, ports - 1),
      req_out_(ports, kNone),
      req_vc_(ports, 0),
      req_out_vc_(ports, 0),
      grant_in_(ports, kNone) {
  rng_.reseed(seed);
  touched_.reserve(ports);
}

void NetworkSwitch::connect(unsigned port, FlitLink* in, FlitLink* out, unsigned out_credits) {
  in_.at(port) = in;
  out_.at(port) = out;
  full_credits_[port] = out_credits;
  for (unsigned v = 0; v < vcs_; ++v) credits_[port * vcs_ + v] = out_credits;
}

int NetworkSwitch::down_port(unsigned terminal) const {
  switch (role_.kind) {
    case Role::Kind::Single: return static_cast<int>(terminal);
    case Role::Kind::Leaf: return static_cast<int>(terminal % role_.down);
    case Role::Kind::Spine: {
      // Up link g = leaf * up + j arrives at spine g mod spines as port g div spines: this
      // spine's ports to `leaf` are those of the links g in [leaf * up, (leaf + 1) * up) with
      // g mod spines == index, a contiguous run. Pick one by the terminal.
      const unsigned leaf = terminal / role_.down;
      const unsigned s = role_.spines, i = role_.index;
      const unsigned first_g = leaf * role_.up + (i + s - (leaf * role_.up) % s) % s;
      const unsigned last_g = (leaf + 1) * role_.up - 1;
      if (first_g > last_g) return kNone;  // no link to that leaf (TreeShape rules this out)
      const unsigned first = first_g / s, count = (last_g - first_g) / s + 1;
      return static_cast<int>(first + terminal % count);
    }
    case Role::Kind::Dragonfly:
    case Role::Kind::Torus: break;  // routed by route_dragonfly / route_torus
  }
  return kNone;
}

int NetworkSwitch::pick_up_port(unsigned vc) {
  // The least loaded up port: the most room downstream, counting what its queue still holds.
  int best = kNone;
  unsigned best_room = 0;
  for (unsigned i = 0; i < role_.up; ++i) {
    const unsigned o = role_.down + (rr_up_ + i) % role_.up;
    if (out_[o] == nullptr || owner_[o * vcs_ + vc] != kNone || obuf_[o].full(vc)) continue;
    const unsigned room = credits_[o * vcs_ + vc] + (kOutputQueueDepth - obuf_[o].size(vc));
    if (room > best_room) {
      best_room = room;
      best = static_cast<int>(o);
    }
  }
  if (best != kNone) rr_up_ = (rr_up_ + 1) % role_.up;
  return best;
}

NetworkSwitch::Route NetworkSwitch::if_free(int o, unsigned vc) const {
  if (o < 0 || owner_[static_cast<unsigned>(o) * vcs_ + vc] != kNone || obuf_[static_cast<unsigned>(o)].full(vc))
    return Route{};
  return Route{o, vc};
}

unsigned NetworkSwitch::load(unsigned o, unsigned vc) const {
  return obuf_[o].size(vc) + (full_credits_[o] - credits_[o * vcs_ + vc]);
}

NetworkSwitch::Route NetworkSwitch::route(const Flit& head, unsigned in, unsigned vc) {
  if (role_.kind == Role::Kind::Dragonfly) return route_dragonfly(head, in, vc);
  if (role_.kind == Role::Kind::Torus) return route_torus(head, in, vc);
  const unsigned terminal = addr_.terminal(head);
  if (role_.kind == Role::Kind::Leaf && terminal / role_.down != role_.index) {
    return Route{pick_up_port(vc), vc};
  }
  const int o = down_port(terminal);
  if (o < 0 || o >= static_cast<int>(out_.size()) || out_[o] == nullptr) {
    if (on_error_) {
      on_error_(name_ + ": no port towards tree terminal " + std::to_string(terminal) + " for " +
                Header::decode(addr_.fmt, head.payload).to_string());
    }
    return Route{};
  }
  return if_free(o, vc);
}

unsigned NetworkSwitch::dragonfly_minimal(unsigned target, unsigned dst) const {
  const DragonflyPlan& d = *role_.plan;
  const unsigned r = role_.index;
  if (target == role_.group) {
    const unsigned dr = d.router_of(dst);
    return dr == r ? d.port_of(dst) : d.local_port(r, dr);
  }
  const auto& exits = d.exits[role_.group][target];
  // This router's own global links to the target group first, spread by destination.
  unsigned own = 0;
  for (const auto& e : exits) own += e.first == r ? 1 : 0;
  if (own > 0) {
    unsigned k = dst % own;
    for (const auto& e : exits) {
      if (e.first == r && k-- == 0) return e.second;
    }
  }
  return d.local_port(r, exits[dst % exits.size()].first);
}

NetworkSwitch::Route NetworkSwitch::route_torus(const Flit& head, unsigned in, unsigned vc) {
  enum : unsigned { kLocal = 0, kN = 1, kE = 2, kS = 3, kW = 4 };
  const Header h = Header::decode(addr_.fmt, head.payload);
  const unsigned dst = h.dst_board_y * TreeAddressing::kEndpointsPerBoardRow + h.dst_board_x;
  const unsigned X = role_.size_x, Y = role_.size_y, x = role_.x, y = role_.y;
  const unsigned dx = dst % X, dy = dst / X;
  unsigned port = kLocal, ov = vc;
  if (dx != x) {
    const bool east = (dx + X - x) % X <= X / 2;
    port = east ? kE : kW;
    const bool in_x = in == kE || in == kW;  // still travelling along x
    const bool wraps = east ? x == X - 1 : x == 0;
    ov = wraps ? 1 : (in_x ? vc : 0);
  } else if (dy != y) {
    const bool north = (dy + Y - y) % Y <= Y / 2;
    port = north ? kN : kS;
    const bool in_y = in == kN || in == kS;
    const bool wraps = north ? y == Y - 1 : y == 0;
    ov = wraps ? 1 : (in_y ? vc : 0);
  }
  return if_free(static_cast<int>(port), ov);
}

NetworkSwitch::Route NetworkSwitch::route_dragonfly(const Flit& head, unsigned in, unsigned vc) {
  DragonflyPlan& d = *role_.plan;
  const Header h = Header::decode(addr_.fmt, head.payload);
  const unsigned dst = h.dst_board_y * TreeAddressing::kEndpointsPerBoardRow + h.dst_board_x;
  const unsigned dst_group = d.group_of(dst);
  const uint32_t id = read_tag(addr_.fmt, head.payload).packet_id;
  unsigned target = dst_group;
  const auto it = d.intermediate.find(id);
  if (it != d.intermediate.end()) {
    if (it->second == role_.group) {
      d.intermediate.erase(it);  // arrived at the intermediate group: minimal from here
    } else {
      target = it->second;
    }
  } else if (d.ugal && in < d.p && dst_group != role_.group && d.groups > 2) {
    // UGAL-L at the source router: minimal unless its output is the more loaded, weighted by
    // the hops each path still has (a minimal path at most 3 router-to-router hops, a
    // non-minimal one at most 6).
    unsigned mid = rng_.below(d.groups - 2);
    for (const unsigned g : {std::min(role_.group, dst_group), std::max(role_.group, dst_group)}) {
      if (mid >= g) ++mid;
    }
    const unsigned pm = dragonfly_minimal(dst_group, dst), pv = dragonfly_minimal(mid, dst);
    const unsigned vm = vc + (d.is_global(pm) ? 1 : 0), vv = vc + (d.is_global(pv) ? 1 : 0);
    if (load(pm, vm) * 3 > load(pv, vv) * 6) {
      d.intermediate[id] = mid;
      target = mid;
    }
  }
  const unsigned o = dragonfly_minimal(target, dst);
  const unsigned ov = vc + (d.is_global(o) ? 1 : 0);
  if (ov >= vcs_ || out_[o] == nullptr) {
    if (on_error_) {
      on_error_(name_ + ": no VC or link for output " + std::to_string(o) + " (VC " + std::to_string(ov) +
                ") towards group " + std::to_string(target) + " for " + h.to_string());
    }
    return Route{};
  }
  return if_free(static_cast<int>(o), ov);
}

void NetworkSwitch::step(uint64_t t) {
  const unsigned ports = static_cast<unsigned>(in_.size());
  for (unsigned p = 0; p < ports; ++p) {
    // Cache hints a few ports ahead: the links, then (reading those) their slots of cycle t.
    if (p + 4 < ports && in_[p + 4] != nullptr) {
      in_[p + 4]->prefetch();
      out_[p + 4]->prefetch();
    }
    if (p + 2 < ports && in_[p + 2] != nullptr) {
      in_[p + 2]->prefetch_slots(t);
      out_[p + 2]->prefetch_slots(t);
    }
    if (in_[p] == nullptr) continue;
    const int c = out_[p]->credit(t);
    if (c >= 0) ++credits_[p * vcs_ + static_cast<unsigned>(c)];
    if (const Flit* f = in_[p]->receive(t)) {
      if (!buf_[p].push(*f, t + latency_) && on_error_) {
        on_error_("cycle " + std::to_string(t) + ": " + name_ + " port " + std::to_string(p) +
                  ": a flit arrived on a full VC " + std::to_string(f->vc));
      }
    }
  }

  for (unsigned r = 0; r < speedup_; ++r) crossbar_round(t);

  // Credits for what left the input buffers: a credit wire carries one per cycle, so with
  // speedup an input may owe a few for a cycle or two.
  for (unsigned i = 0; i < ports; ++i) {
    if (owed_total_[i] == 0) continue;
    for (unsigned k = 0; k < vcs_; ++k) {
      const unsigned v = (rr_credit_[i] + k) % vcs_;
      if (owed_credits_[i * vcs_ + v] == 0) continue;
      in_[i]->return_credit(t, v);
      --owed_credits_[i * vcs_ + v];
      --owed_total_[i];
      rr_credit_[i] = (v + 1) % vcs_;
      break;
    }
  }

  // Output links: one flit each, from a VC with a credit downstream.
  for (unsigned o = 0; o < ports; ++o) {
    if (obuf_[o].total() == 0) continue;
    for (unsigned k = 0; k < vcs_; ++k) {
      const unsigned v = (rr_link_[o] + k) % vcs_;
      if (obuf_[o].empty(v) || credits_[o * vcs_ + v] == 0) continue;
      out_[o]->send(t, obuf_[o].front(v).flit);
      obuf_[o].pop(v);
      --credits_[o * vcs_ + v];
      rr_link_[o] = (v + 1) % vcs_;
      break;
    }
  }
}

void NetworkSwitch::crossbar_round(uint64_t t) {
  const unsigned ports = static_cast<unsigned>(in_.size());
  // Input stage: each input with flits requests one output.
  touched_.clear();
  for (unsigned i = 0; i < ports; ++i) {
    req_out_[i] = kNone;
    if (buf_[i].total() == 0) continue;
    for (unsigned k = 0; k < vcs_; ++k) {
      const unsigned v = (rr_in_[i] + k) % vcs_;
      if (buf_[i].empty(v)) continue;
      const VcBuffer::Entry& e = buf_[i].front(v);
      if (e.ready > t) continue;
      int o = route_[i * vcs_ + v];
      unsigned ov = route_vc_[i * vcs_ + v];
      if (o == kNone) {
        if (!is_head(e.flit.type)) {
          if (on_error_) {
            on_error_("cycle " + std::to_string(t) + ": " + name_ + " port " + std::to_string(i) + " vc " +
                      std::to_string(v) + ": a body or tail flit without a head before it");
          }
          continue;
        }
        const Route r = route(e.flit, i, v);
        o = r.port;
        ov = r.vc;
      } else if (obuf_[o].full(ov)) {
        o = kNone;
      }
      if (o == kNone) continue;
      req_out_[i] = o;
      req_vc_[i] = static_cast<int>(v);
      req_out_vc_[i] = ov;
      // Output stage, folded in: keep the request nearest after the output's last grant.
      const unsigned uo = static_cast<unsigned>(o);
      const int cur = grant_in_[uo];
      if (cur == kNone) {
        touched_.push_back(uo);
        grant_in_[uo] = static_cast<int>(i);
      } else {
        const unsigned last = rr_out_[uo];
        const unsigned d_new = (i + ports - last - 1) % ports;
        const unsigned d_cur = (static_cast<unsigned>(cur) + ports - last - 1) % ports;
        if (d_new < d_cur) grant_in_[uo] = static_cast<int>(i);
      }
      break;
    }
  }

  // Move the granted flits.
  for (const unsigned o : touched_) {
    const unsigned i = static_cast<unsigned>(grant_in_[o]);
    grant_in_[o] = kNone;
    const unsigned v = static_cast<unsigned>(req_vc_[i]);
    const unsigned ov = req_out_vc_[i];
    Flit f = buf_[i].front(v).flit;
    f.vc = ov;
    buf_[i].pop(v);
    ++owed_credits_[i * vcs_ + v];  // returned by step(), one per cycle and link
    ++owed_total_[i];
    obuf_[o].push(f, t);
    if (is_head(f.type)) {
      // A torus router is its accelerator's own: handing a packet to it is no hop.
      const bool ejects_here = role_.kind == Role::Kind::Torus && o == 0;
      if (tracker_ != nullptr && !ejects_here) tracker_->on_switch(f);
      if (!is_tail(f.type)) {
        owner_[o * vcs_ + ov] = static_cast<int>(i);
        route_[i * vcs_ + v] = static_cast<int>(o);
        route_vc_[i * vcs_ + v] = ov;
      }
    } else if (is_tail(f.type)) {
      owner_[o * vcs_ + ov] = kNone;
      route_[i * vcs_ + v] = kNone;
    }
    rr_out_[o] = i;
    rr_in_[i] = (v + 1) % vcs_;
  }
}

unsigned NetworkSwitch::held() const {
  unsigned n = 0;
  for (const VcBuffer& b : buf_) n += b.total();
  for (const VcBuffer& b : obuf_) n += b.total();
  return n;
}

std::string NetworkSwitch::describe() const {
  std::ostringstream os;
  for (unsigned i = 0; i < buf_.size(); ++i) {
    for (unsigned v = 0; v < vcs_; ++v) {
      if (buf_[i].empty(v)) continue;
      const int o = route_[i * vcs_ + v];
      const unsigned ov = route_vc_[i * vcs_ + v];
      os << "  " << name_ << " in " << i << " vc " << v << ": " << buf_[i].size(v) << " flits";
      if (o != kNone) {
        os << ", packet in progress to out " << o << " vc " << ov << " (queued " << obuf_[o].size(ov) << ", credits "
           << credits_[o * vcs_ + ov] << ")";
      } else if (role_.kind != Role::Kind::Dragonfly) {
        os << ", head for terminal " << addr_.terminal(buf_[i].front(v).flit);
      }
      os << "\n";
    }
  }
  return os.str();
}

}  // namespace hx
