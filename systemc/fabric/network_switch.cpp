#include "network_switch.h"

#include <sstream>

namespace hx {

NetworkSwitch::NetworkSwitch(std::string name, unsigned ports, unsigned vcs, unsigned depth, unsigned latency,
                             unsigned speedup, std::unique_ptr<RoutingFunction> routing, PacketTracker* tracker,
                             ErrorHandler on_error, OwnPorts own, unsigned output_depth)
    : name_(std::move(name)),
      vcs_(vcs),
      latency_(latency),
      speedup_(speedup),
      routing_(std::move(routing)),
      own_(own),
      port_arrivals_(std::make_unique<ArrivalHorizon[]>(ports)),
      tracker_(tracker),
      on_error_(std::move(on_error)),
      in_(ports, nullptr),
      out_(ports, nullptr),
      buf_(ports, VcBuffer(vcs, depth)),
      obuf_(ports, VcBuffer(vcs, output_depth)),
      rr_link_(ports, RoundRobin(vcs)),
      owed_credits_(static_cast<std::size_t>(ports) * vcs, 0),
      owed_total_(ports, 0),
      rr_credit_(ports, RoundRobin(vcs)),
      credit_width_(ports, 1),
      route_(static_cast<std::size_t>(ports) * vcs, kNone),
      route_vc_(static_cast<std::size_t>(ports) * vcs, 0),
      owner_(static_cast<std::size_t>(ports) * vcs, kNone),
      credits_(static_cast<std::size_t>(ports) * vcs, 0),
      full_credits_(ports, 0),
      out_um_(ports, 0),
      rr_in_(ports, RoundRobin(vcs)),
      rr_out_(ports, RoundRobin(ports)),
      req_out_(ports, kNone),
      req_vc_(ports, 0),
      req_out_vc_(ports, 0),
      grant_in_(ports, kNone) {
  touched_.reserve(ports);
}

void NetworkSwitch::connect(unsigned port, FlitLink* in, FlitLink* out, unsigned out_credits, unsigned in_depth) {
  // The sender's credits and this buffer are one number: a sender counting more credits than the
  // buffer has slots overfills it (full_vc), one counting fewer wastes them.
  if (in_depth != 0 && in_depth != buf_.at(port).depth()) buf_[port] = VcBuffer(vcs_, in_depth);
  in_.at(port) = in;
  out_.at(port) = out;
  port_arrivals_[port].part_of(&arrivals_);
  if ((in != nullptr && !in->set_receiver_horizon(&port_arrivals_[port])) ||
      (out != nullptr && !out->set_sender_horizon(&port_arrivals_[port])))
    poll_always_ = true;
  credit_width_[port] = in != nullptr ? in->credit_width() : 1;
  if ((in != nullptr && !in->unit_rate()) || (out != nullptr && !out->unit_rate())) unit_rate_ = false;
  full_credits_[port] = out_credits;
  for (unsigned v = 0; v < vcs_; ++v) credits_[port * vcs_ + v] = out_credits;
}

void NetworkSwitch::step(uint64_t t) {
  // Idle and nothing arrives: every poll would find nothing, every arbiter no request, and no
  // state would change (the arbiters move only on a grant).
  if (empty_ && !poll_always_ && arrivals_.quiet(t)) return;
  // Nearly every switch has only rate-1 links: connect() found out, so that their per-cycle
  // calls compile to the links' fast path alone (credit_link.h, RateHint).
  if (unit_rate_)
    step_links<RateHint::One>(t);
  else
    step_links<RateHint::Any>(t);
  empty_ = true;
  for (std::size_t p = 0; p < in_.size() && empty_; ++p)
    empty_ = buf_[p].total() == 0 && obuf_[p].total() == 0 && owed_total_[p] == 0;
}

template <RateHint H>
void NetworkSwitch::step_links(uint64_t t) {
  const unsigned ports = static_cast<unsigned>(in_.size());
  for (unsigned p = 0; p < ports; ++p) {
    // Cache hints a few ports ahead: the links, then (reading those) their slots of cycle t; not
    // for a quiet port, whose links this cycle does not touch.
    if (p + 4 < ports && in_[p + 4] != nullptr && !quiet(p + 4, t)) {
      in_[p + 4]->prefetch();
      out_[p + 4]->prefetch();
    }
    if (p + 2 < ports && in_[p + 2] != nullptr && !quiet(p + 2, t)) {
      in_[p + 2]->prefetch_slots(t);
      out_[p + 2]->prefetch_slots(t);
    }
    if (in_[p] == nullptr || quiet(p, t)) continue;
    // Everything the links deliver in this cycle: one credit and one flit on a rate-1 link,
    // more on a faster one.
    out_[p]->take_credits<H>(t, [&](unsigned vc, unsigned n) { credits_[p * vcs_ + vc] += n; });
    in_[p]->receive_all<H>(t, [&](const Flit& f) {
      if (!buf_[p].push(f, t + latency_)) full_vc(t, p, f.vc);
    });
  }

  for (unsigned r = 0; r < speedup_; ++r) crossbar_round(t);

  // Credits for what left the input buffers: a credit wire carries as many per cycle as its
  // link carries flits (one at rate 1), so with speedup an input may owe a few for a cycle or two.
  for (unsigned i = 0; i < ports; ++i) {
    if (owed_total_[i] == 0) continue;
    for (unsigned k = H == RateHint::One ? 1u : credit_width_[i]; k != 0 && owed_total_[i] != 0; --k) {
      const int pick = rr_credit_[i].pick([&](unsigned v) { return owed_credits_[i * vcs_ + v] != 0; });
      const unsigned v = static_cast<unsigned>(pick);  // owed_total_ != 0: some VC is owed
      in_[i]->return_credit<H>(t, v);
      --owed_credits_[i * vcs_ + v];
      --owed_total_[i];
      rr_credit_[i].grant(v);
    }
  }

  // Output links: as many flits as the link's budget allows in this cycle (one on a rate-1
  // link, none while a slow link is still busy), each from a VC with a credit downstream.
  for (unsigned o = 0; o < ports; ++o) {
    if (obuf_[o].total() == 0) continue;
    const auto can_go = [&](unsigned v) { return !obuf_[o].empty(v) && credits_[o * vcs_ + v] != 0; };
    int pick = rr_link_[o].pick(can_go);
    // The link is asked only once a VC can go: a congested output, whose VCs all wait for
    // credits, does not touch its link's slots at all.
    if (pick < 0) continue;
    // The next VC is picked only while budget is left: a pick scans the VCs, and a rate-1 link
    // (nearly every link) has spent its budget after one flit.
    for (unsigned n = out_[o]->budget<H>(t); n != 0; --n) {
      const unsigned v = static_cast<unsigned>(pick);
      out_[o]->send<H>(t, obuf_[o].front(v).flit);
      obuf_[o].pop(v);
      --credits_[o * vcs_ + v];
      rr_link_[o].grant(v);
      if (n == 1 || (pick = rr_link_[o].pick(can_go)) < 0) break;
    }
  }
}

void NetworkSwitch::full_vc(uint64_t t, unsigned port, unsigned vc) const {
  if (on_error_) {
    on_error_("cycle " + std::to_string(t) + ": " + name_ + " port " + std::to_string(port) +
              ": a flit arrived on a full VC " + std::to_string(vc));
  }
}

void NetworkSwitch::crossbar_round(uint64_t t) {
  const unsigned ports = static_cast<unsigned>(in_.size());
  // Input stage: each input with flits requests one output.
  touched_.clear();
  for (unsigned i = 0; i < ports; ++i) {
    req_out_[i] = kNone;
    if (buf_[i].total() == 0) continue;
    // The input's VCs take turns: the first whose front flit is ready and has an output that can
    // take it now requests that output (a head asks the routing function).
    int o = kNone;
    unsigned ov = 0;
    const int pick = rr_in_[i].pick([&](unsigned v) {
      if (buf_[i].empty(v)) return false;
      const VcBuffer::Entry& e = buf_[i].front(v);
      if (e.ready > t) return false;
      o = route_[i * vcs_ + v];
      ov = route_vc_[i * vcs_ + v];
      if (o == kNone) {
        if (!is_head(e.flit.type)) {
          if (on_error_) {
            on_error_("cycle " + std::to_string(t) + ": " + name_ + " port " + std::to_string(i) + " vc " +
                      std::to_string(v) + ": a body or tail flit without a head before it");
          }
          return false;
        }
        const RouteChoice r = routing_->route(e.flit, i, v, *this);
        o = r.port;
        ov = r.vc;
      } else if (obuf_[o].full(ov)) {
        o = kNone;
      }
      return o != kNone;
    });
    if (pick < 0) continue;
    req_out_[i] = o;
    req_vc_[i] = pick;
    req_out_vc_[i] = ov;
    // Output stage, folded in: keep the request nearest after the output's last grant.
    const unsigned uo = static_cast<unsigned>(o);
    const int cur = grant_in_[uo];
    if (cur == kNone) {
      touched_.push_back(uo);
      grant_in_[uo] = static_cast<int>(i);
    } else if (rr_out_[uo].distance(i) < rr_out_[uo].distance(static_cast<unsigned>(cur))) {
      grant_in_[uo] = static_cast<int>(i);
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
      const bool ejects_here = own_.contains(o);
      // Entered and left by links, an accelerator's router forwards another's packet: a transit.
      const bool transit = own_.count > 0 && !own_.contains(i) && !ejects_here;
      if (tracker_ != nullptr && !ejects_here) tracker_->on_switch(f, out_um_[o], transit);
      if (!is_tail(f.type)) {
        owner_[o * vcs_ + ov] = static_cast<int>(i);
        route_[i * vcs_ + v] = static_cast<int>(o);
        route_vc_[i * vcs_ + v] = ov;
      }
    } else if (is_tail(f.type)) {
      owner_[o * vcs_ + ov] = kNone;
      route_[i * vcs_ + v] = kNone;
    }
    rr_out_[o].grant(i);
    rr_in_[i].grant(v);
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
      } else {
        const std::string where = routing_->describe_head(buf_[i].front(v).flit);
        if (!where.empty()) os << ", " << where;
      }
      os << "\n";
    }
  }
  // Flits that crossed the crossbar and wait in an output queue for credits or the link.
  for (unsigned o = 0; o < obuf_.size(); ++o)
    for (unsigned v = 0; v < vcs_; ++v)
      if (obuf_[o].size(v) != 0)
        os << "  " << name_ << " out " << o << " vc " << v << ": " << obuf_[o].size(v) << " flits queued, credits "
           << credits_[o * vcs_ + v] << "\n";
  return os.str();
}

}  // namespace hx
