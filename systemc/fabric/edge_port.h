// edge_port.h: one direction of a board edge port, between a router's edge port and a cable.
//
// The RTL router sizes its credit counters for its on-board neighbours: BufDepth flits per VC,
// enough for a PCB trace of a cycle or two. A 20 ns cable to a fat-tree switch has a credit
// round trip of tens of cycles, which 8 credits could not cover. So each board edge port has,
// as a real board's cable port would, a buffer sized for its cable: towards the cable the
// port holds the credits of the switch's deep input buffer, towards the router it offers the
// router's own BufDepth. Per direction that is one EdgePort: flits enter from `in` into a
// per-VC buffer (returning their credits to `in` as they leave) and go out on `out` under the
// credits of `out`'s receiver, VCs served round-robin. The VC of a flit is kept. Per cycle the
// port passes on as many flits as `out`'s rate allows (one at rate 1, none while a slow link is
// busy) and `in`'s credit wire can return credits for (one at rate 1): a port between a board
// plane and a faster cable is as fast as the plane's side.
//
// The edge port is also where the packet's path is observed: heads leaving the board or
// entering it are reported to the PacketTracker with the router they pass.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "flit_link.h"
#include "packet_tracker.h"
#include "round_robin.h"
#include "vc_buffer.h"

namespace hx {

class EdgePort {
 public:
  enum class Direction : uint8_t { OffBoard, OnBoard };
  using ErrorHandler = std::function<void(const std::string&)>;

  /// `depth`: this port's buffer per VC (what `in`'s sender counts); `out_credits`: the
  /// buffer per VC of `out`'s receiver. (router_x, router_y): the router on the board side of
  /// board number `board`.
  EdgePort(std::string name, Direction dir, unsigned vcs, unsigned depth, unsigned out_credits, unsigned board,
           unsigned router_x, unsigned router_y)
      : buf_(vcs, depth), rr_(vcs), dir_(dir), board_(board), x_(router_x), y_(router_y), name_(std::move(name)) {
    for (unsigned v = 0; v < vcs; ++v) credits_[v] = out_credits;
  }

  void connect(FlitLink* in, FlitLink* out, PacketTracker* tracker, ErrorHandler on_error) {
    in_ = in;
    out_ = out;
    credit_width_ = in->credit_width();
    unit_rate_ = in->unit_rate() && out->unit_rate();
    tracker_ = tracker;
    on_error_ = std::move(on_error);
  }

  void step(uint64_t t) {
    // Nearly every port's links both run at rate 1: connect() found out, so that the per-cycle
    // calls compile to the links' fast path alone (credit_link.h, RateHint).
    if (unit_rate_)
      step_links<RateHint::One>(t);
    else
      step_links<RateHint::Any>(t);
  }

  /// Cache hints for a loop over the ports: the links step() touches, then (reading those)
  /// their slots of cycle t.
  void prefetch_links() const {
    in_->prefetch();
    out_->prefetch();
  }
  void prefetch_slots(uint64_t t) const {
    in_->prefetch_slots(t);
    out_->prefetch_slots(t);
  }

  const std::string& name() const { return name_; }
  unsigned held() const { return buf_.total(); }

 private:
  /// step() with what the port knows of its links' rates (both rate 1: RateHint::One).
  template <RateHint H>
  void step_links(uint64_t t) {
    // Most edge ports are idle in most cycles: skip them without touching the links' slots.
    // With the planes on worker threads (board.h), the router end of a link may be sending a
    // flit or returning a credit for cycle t+1 while this runs, so the counts may or may not
    // include it; either way nothing arrives in cycle t, and a port that does not skip then
    // finds nothing and does nothing: the result is the same.
    if (buf_.total() == 0 && in_->flits_on_wire() == 0 && out_->credits_on_wire() == 0) return;
    out_->take_credits<H>(t, [this](unsigned vc, unsigned n) { credits_[vc] += n; });
    in_->receive_all<H>(t, [this, t](const Flit& f) {
      if (!buf_.push(f, t)) fail(t, "a flit arrived on a full VC " + std::to_string(f.vc));
    });
    if (buf_.total() == 0) return;
    // The VCs take turns at the link, among those with a flit and a credit.
    const auto can_go = [this](unsigned v) { return !buf_.empty(v) && credits_[v] != 0; };
    int pick = rr_.pick(can_go);
    // The link is asked only once a VC can go (a port waiting for credits touches no slot).
    if (pick < 0) return;
    // The next VC is picked only while budget is left: a pick scans the VCs, and at rate 1 the
    // budget is spent after one flit.
    for (unsigned n = std::min(out_->budget<H>(t), H == RateHint::One ? 1u : credit_width_); n != 0; --n) {
      const unsigned vc = static_cast<unsigned>(pick);
      const Flit f = buf_.front(vc).flit;
      buf_.pop(vc);
      in_->return_credit<H>(t, vc);
      --credits_[vc];
      out_->send<H>(t, f);
      if (is_head(f.type) && tracker_ != nullptr) {
        if (dir_ == Direction::OffBoard)
          tracker_->on_board_exit(f, x_, y_);
        else
          tracker_->on_board_entry(f, board_, x_, y_);
      }
      rr_.grant(vc);
      if (n == 1 || (pick = rr_.pick(can_go)) < 0) break;
    }
  }

  void fail(uint64_t t, const std::string& what) {
    if (on_error_) on_error_("cycle " + std::to_string(t) + ": " + name_ + ": " + what);
  }

  // What step() touches first, the name and the error handler last.
  FlitLink* in_ = nullptr;
  FlitLink* out_ = nullptr;
  VcBuffer buf_;
  std::array<unsigned, VcBuffer::kMaxVcs> credits_{};
  unsigned credit_width_ = 1;  // credits `in` carries back per cycle
  bool unit_rate_ = true;      // `in` and `out` both carry one flit per cycle
  RoundRobin rr_;
  Direction dir_;
  unsigned board_, x_, y_;
  PacketTracker* tracker_ = nullptr;
  std::string name_;
  ErrorHandler on_error_;
};

}  // namespace hx
