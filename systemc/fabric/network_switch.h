// network_switch.h: the network switch model of hxsim, a C++ cycle model: the switches of the
// fat trees (HammingMesh row and column trees, the comparison fat trees), and, with their own
// routing, the routers of the comparison Dragonfly and torus.
//
// Radix k ports. Each input has a buffer of `depth` flits per VC (VcBuffer), each output a
// small output queue per VC and, towards its receiver, one credit counter per VC. A flit may
// cross the crossbar `latency` cycles after it arrived: the switch's pipeline (Table III of the
// paper: 40 ns input plus 40 ns output buffer latency). The crossbar runs `speedup` times faster
// than a link (Table III: 800 Gb/s crossbar for 400 Gb/s links, speedup 2): per cycle an input
// may move up to `speedup` flits into output queues and an output may take up to `speedup`,
// while each output link sends what its rate allows (one flit at rate 1, two at rate 2, one
// every other cycle at rate 1/2; credit_link.h) and each input's credit wire returns as many
// credits (at least one). Links of different rates meet in one switch. Speedup
// lets a backed-up input drain faster than its link fills it; it does not remove head-of-line
// blocking within one VC FIFO (docs/hammingmesh.md measures both).
// Flow control is credit based and wormhole per VC: a head reserves an output VC until its
// tail has entered the output queue. A flit keeps its VC through the tree; the boards change
// VCs.
//
// The switch does not know its topology: a head at the front of an input VC asks the switch's
// routing function (routing/routing_function.h: updown for fat trees, dor_dateline for tori,
// dragonfly_minimal or ugal_l for Dragonflies) for an output port and VC, and waits while there
// is none. The same switch is a tree switch, a torus router or a Dragonfly router.
//
// Allocation is separable, input first, once per crossbar round (`speedup` rounds a cycle):
// each input picks, round-robin over its VCs, one VC whose front flit is ready and can go (room
// in the output queue of its VC, and for a head a free output VC); each output grants one of
// the inputs that picked it, round-robin. A grant moves the flit into the output queue and
// returns its credit upstream. Each output link then sends queued flits that have a credit, up
// to its budget for the cycle, VCs served round-robin.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "arrival_horizon.h"
#include "flit_link.h"
#include "hx_flit.h"
#include "packet_tracker.h"
#include "round_robin.h"
#include "routing_function.h"
#include "switch.h"
#include "vc_buffer.h"

namespace hx {

/// The ports that lead to a switch's own accelerator (a torus router's port 0, a multidim NPU's
/// lanes, a board router's lanes after N, E, S, W): ports first .. first + count - 1, whose
/// deliveries are no hop; count 0: none.
struct SwitchOwnPorts {
  unsigned first = 0, count = 0;
  bool contains(unsigned p) const { return p - first < count; }  // unsigned: p < first wraps
};

class NetworkSwitch final : public Switch {
 public:
  using ErrorHandler = std::function<void(const std::string&)>;

  /// Flits per VC of an output queue by default: enough for `speedup` arrivals while the link
  /// sends one (switch.output_buffer_depth).
  static constexpr unsigned kOutputQueueDepth = 8;

  using OwnPorts = SwitchOwnPorts;

  /// output_depth: flits per VC of each output queue.
  NetworkSwitch(std::string name, unsigned ports, unsigned vcs, unsigned depth, unsigned latency, unsigned speedup,
                std::unique_ptr<RoutingFunction> routing, PacketTracker* tracker, ErrorHandler on_error,
                OwnPorts own = {}, unsigned output_depth = kOutputQueueDepth);

  /// Port p: `in` brings flits from a sender that counts `in_depth` credits per VC (0: this
  /// switch's `depth`), which is then the depth of this port's input buffer; `out` takes them to
  /// a receiver with `out_credits` slots per VC.
  void connect(unsigned port, FlitLink* in, FlitLink* out, unsigned out_credits, unsigned in_depth = 0);
  /// The cable on port p is `um` micrometres long in its builder's layout (0: none given); each
  /// head sent out on p adds it to the packet tracker's cable metres.
  void set_cable_length(unsigned port, uint32_t um) { out_um_.at(port) = um; }

  /// One cycle. A port to which nothing arrives in cycle t (its arrival horizon, raised by its
  /// links) is not polled; a switch that holds nothing (no flit buffered, no credit owed) and to
  /// none of whose ports anything arrives would do nothing in the cycle, and skips it.
  void step(uint64_t t) override;

  // ---- the one switch interface (core/switch.h) ----------------------------------------------
  std::string name() const override { return name_; }
  unsigned ports() const override { return static_cast<unsigned>(in_.size()); }
  /// No flit in its input buffers or output queues.
  bool idle() const override { return held() == 0; }
  /// Which input VCs hold flits and where their heads want to go, and which output queues hold
  /// flits (for deadlock reports).
  std::string describe() const override;
  /// Flits in the input buffers and output queues.
  unsigned held() const;

  // ---- what a routing function may ask about the outputs -------------------------------------
  unsigned vcs() const { return vcs_; }
  /// Output o has a link.
  bool connected(unsigned o) const { return o < out_.size() && out_[o] != nullptr; }
  /// Output (o, vc) can take a new packet now: no packet holds that VC and its queue has room.
  bool output_free(unsigned o, unsigned vc) const { return owner_[o * vcs_ + vc] == kNone && !obuf_[o].full(vc); }
  /// Output (o, vc) is free and empty: no packet holds it, its queue is empty and every credit is
  /// home, so the receiver's buffer of vc holds nothing either. A packet given such a VC never
  /// waits behind another packet's flits (atomic VC allocation), which Duato's adaptive channels
  /// need (routing/torus.cpp).
  bool output_empty(unsigned o, unsigned vc) const {
    return owner_[o * vcs_ + vc] == kNone && obuf_[o].size(vc) == 0 && credits_[o * vcs_ + vc] == full_credits_[o];
  }
  /// Room for `vc` behind output o: the receiver's free slots plus the queue's free slots.
  unsigned output_room(unsigned o, unsigned vc) const {
    return credits_[o * vcs_ + vc] + (obuf_[o].depth() - obuf_[o].size(vc));
  }
  /// Flits waiting for output (o, vc): queued here and held downstream (UGAL's load).
  unsigned output_load(unsigned o, unsigned vc) const {
    return obuf_[o].size(vc) + (full_credits_[o] - credits_[o * vcs_ + vc]);
  }
  /// Of the `count` outputs first, first + stride, ..., the free one (output_free) with the most
  /// room for `vc`, the first of equals; port -1 when none is free. The adaptive choice among
  /// parallel links or up ports.
  struct Roomiest {
    RouteChoice choice;
    unsigned room = 0;
  };
  Roomiest roomiest_output(unsigned first, unsigned stride, unsigned count, unsigned vc) const {
    return roomiest_of(count, vc, [first, stride](unsigned i) { return first + i * stride; });
  }
  /// The same over the `count` outputs port_at(0), ..., port_at(count - 1) (a tree's parallel
  /// cables to one leaf, which need not be evenly spaced).
  template <class PortAt>
  Roomiest roomiest_of(unsigned count, unsigned vc, PortAt&& port_at) const {
    Roomiest best;
    for (unsigned i = 0; i < count; ++i) {
      const unsigned o = port_at(i);
      if (!output_free(o, vc)) continue;
      const unsigned room = output_room(o, vc);
      if (best.choice.port < 0 || room > best.room) best = {RouteChoice{static_cast<int>(o), vc}, room};
    }
    return best;
  }
  /// (o, vc) if that output can take a new packet now, else no route.
  RouteChoice if_free(int o, unsigned vc) const {
    if (o < 0 || !output_free(static_cast<unsigned>(o), vc)) return RouteChoice{};
    return RouteChoice{o, vc};
  }
  /// A routing error (no such port): reported through the error handler, with the switch's name.
  void report(const std::string& problem) const {
    if (on_error_) on_error_(name_ + ": " + problem);
  }

 private:
  static constexpr int kNone = -1;

  /// Nothing arrives at `port` in cycle t (its horizon says so).
  bool quiet(unsigned port, uint64_t t) const { return !poll_always_ && port_arrivals_[port].quiet(t); }
  /// step() with what the switch knows of its links' rates (every link rate 1: RateHint::One).
  template <RateHint H>
  void step_links(uint64_t t);
  /// One crossbar round: move at most one flit per input and per output into output queues.
  void crossbar_round(uint64_t t);
  /// A flit arrived on a full input VC (reported; out of line, so that the receive loop stays
  /// small enough to be inlined into step_links).
  [[gnu::cold, gnu::noinline]] void full_vc(uint64_t t, unsigned port, unsigned vc) const;
  std::string name_;
  unsigned vcs_, latency_, speedup_;
  std::unique_ptr<RoutingFunction> routing_;
  OwnPorts own_;
  bool unit_rate_ = true;    // every link connected so far carries one flit per cycle
  ArrivalHorizon arrivals_;  // flits on the in-links, credits on the out-links (arrival_horizon.h)
  std::unique_ptr<ArrivalHorizon[]> port_arrivals_;  // per port, each a part of arrivals_
  bool poll_always_ = false;  // a link refused the horizon (bit errors): poll every port every cycle
  bool empty_ = true;         // after the last step: no flit buffered, no credit owed
  PacketTracker* tracker_;
  ErrorHandler on_error_;

  std::vector<FlitLink*> in_, out_;
  std::vector<VcBuffer> buf_;           // per input port
  std::vector<VcBuffer> obuf_;          // per output port: the output queues
  std::vector<RoundRobin> rr_link_;     // per output: the VCs taking turns on the link
  std::vector<unsigned> owed_credits_;  // [in * vcs + vc]: credits not yet returned upstream
  std::vector<unsigned> owed_total_;    // per input
  std::vector<RoundRobin> rr_credit_;   // per input: the VCs whose credits go back in turn
  std::vector<unsigned> credit_width_;  // per input: credits its link carries back per cycle
  std::vector<int> route_;              // [in * vcs + vc]: output of the packet in progress
  std::vector<unsigned> route_vc_;      // [in * vcs + vc]: ... and its VC there
  std::vector<int> owner_;              // [out * vcs + vc]: input holding that output VC
  std::vector<unsigned> credits_;       // [out * vcs + vc]: the receiver's free slots
  std::vector<unsigned> full_credits_;  // per output
  std::vector<uint32_t> out_um_;        // per output: its cable's length, micrometres
  std::vector<RoundRobin> rr_in_;       // per input: its VCs taking turns at requesting
  std::vector<RoundRobin> rr_out_;      // per output: the inputs taking turns at its grant
  // Per cycle scratch: each input's request and each output's best request so far.
  std::vector<int> req_out_, req_vc_;
  std::vector<unsigned> req_out_vc_;
  std::vector<int> grant_in_;
  std::vector<unsigned> touched_;
};

}  // namespace hx
