#include "accelerator_array.h"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace hx {

const char* to_string(RunEnd e) {
  switch (e) {
    case RunEnd::Running: return "running";
    case RunEnd::Drained: return "drained";
    case RunEnd::DrainTimeout: return "drain_timeout";
    case RunEnd::Deadlock: return "deadlock";
    case RunEnd::Loss: return "loss";
    case RunEnd::ModelError: return "model_error";
  }
  return "?";
}

AcceleratorArray::AcceleratorArray(sc_core::sc_module_name name, const AcceleratorArrayConfig& cfg,
                                   const TrafficPattern& pattern, PacketTracker& tracker)
    : sc_core::sc_module(name),
      clk("clk"),
      cfg_(cfg),
      pattern_(pattern),
      tracker_(tracker),
      nodes_(pattern.num_nodes() * cfg.planes),
      p_packet_(Rng::odds(cfg.injection_rate / cfg.packet_length)),
      watchdog_(cfg.watchdog) {
  if (nodes_.size() > (std::size_t{1} << kDstBits))
    throw std::invalid_argument("AcceleratorArray: more than 2^" + std::to_string(kDstBits) + " endpoints");
  for (unsigned i = 0; i < nodes_.size(); ++i) {
    Node& n = nodes_[i];
    // One generator per accelerator, seeded from (seed, node): draws do not depend on the
    // order in which nodes are handled.
    n.rng.reseed(cfg.seed * 0x9e3779b97f4a7c15ull + i + 1);
    n.sends = pattern.sends_traffic(i % pattern.num_nodes()) && cfg.injection_rate > 0 &&
              (cfg.only_source < 0 || static_cast<int>(i) == cfg.only_source);
    for (unsigned k = 0; k < cfg.lanes; ++k) {
      Lane& l = n.lanes[k];
      // One queue starts with room for a source's usual backlog; a queue per collective flow
      // (hundreds per lane) starts empty and grows to what its flow queues.
      l.queues.assign(cfg.queues, cfg.queues > 1 ? Fifo<OutPacket>::growing()
                                                 : Fifo<OutPacket>(64, Fifo<OutPacket>::Overflow::Grow));
      l.waiting = Fifo<uint64_t>(64, Fifo<uint64_t>::Overflow::Grow);
      l.credits.fill(0);
      for (unsigned v = 0; v < cfg.num_vcs; ++v) l.credits[v] = cfg.buf_depth;
    }
  }
  SC_HAS_PROCESS(AcceleratorArray);
  SC_METHOD(on_clock);
  sensitive << clk.pos();
  dont_initialize();
}

void AcceleratorArray::connect(unsigned node, unsigned lane, FlitLink* to_router, FlitLink* from_router) {
  if (lane >= cfg_.lanes) throw std::out_of_range("AcceleratorArray::connect: lane " + std::to_string(lane));
  // An accelerator's port sends and takes one flit (and one credit) per cycle, so its
  // per-cycle calls take the links' fast path without asking them (RateHint::One).
  for (const FlitLink* l : {to_router, from_router})
    if (!l->unit_rate())
      throw std::invalid_argument(std::string(l->name()) + ": an accelerator's link carries one flit per cycle, not " +
                                  LinkRate::per_cycle(l->rate()).describe());
  Node& n = nodes_.at(node);
  n.lanes[lane].tx = to_router;
  n.lanes[lane].rx = from_router;
  // What arrives at the node raises its horizon: flits from the router, credits back to it.
  if (!from_router->set_receiver_horizon(&n.arrivals) || !to_router->set_sender_horizon(&n.arrivals))
    n.poll_always = true;
}

// The lane's next packet: the queue head of lowest priority, the first from next_queue on among
// equals (round robin).
unsigned AcceleratorArray::pick_queue(const Lane& l) {
  const unsigned count = static_cast<unsigned>(l.queues.size());
  unsigned best = count;
  for (unsigned i = 0, q = l.next_queue; i < count; ++i, q = q + 1 == count ? 0 : q + 1) {
    if (!l.queues[q].empty() && (best == count || l.queues[q].front().priority < l.queues[best].front().priority))
      best = q;
  }
  return best;
}

// An unbounded source queue: it grows (rarely) rather than refuse.
void AcceleratorArray::push_queue(Lane& l, unsigned queue, const OutPacket& p) {
  l.queues[queue].push(p);
  ++l.q_size;
}

bool AcceleratorArray::inject(Node& n, unsigned node, unsigned lane, bool in_window, uint64_t t) {
  Lane& l = n.lanes[lane];
  if (!l.injecting) {
    if (l.q_size == 0) return false;
    // A head needs a VC with a credit.
    int vc = -1;
    if (cfg_.any_vc) {
      unsigned best = 0;
      for (unsigned v = 0; v < cfg_.num_vcs; ++v) {
        if (l.credits[v] > best) {
          best = l.credits[v];
          vc = static_cast<int>(v);
        }
      }
    } else if (l.credits[0] > 0) {
      vc = 0;
    }
    if (vc < 0) return false;
    if (!l.waiting.empty()) {
      // A synthetic packet: its record now, created back when the source drew it.
      const uint64_t packed = l.waiting.front();
      l.waiting.pop();
      const uint64_t created = packed >> kDstBits;
      const auto dst = static_cast<unsigned>(packed & ((uint64_t{1} << kDstBits) - 1));
      const bool measured = created >= cfg_.warmup && created < cfg_.warmup + cfg_.measure;
      l.cur = OutPacket{tracker_.create_queued(node, dst, cfg_.packet_length, created, measured), OutPacket::kNoBuffer,
                        static_cast<uint16_t>(cfg_.packet_length)};
    } else {
      unsigned q = l.next_queue;
      if (l.queues.size() > 1) q = pick_queue(l);
      l.cur = l.queues[q].front();
      l.queues[q].pop();
      l.next_queue = q + 1 == l.queues.size() ? 0 : q + 1;
    }
    --l.q_size;
    l.injecting = true;
    l.index = 0;
    l.vc = static_cast<unsigned>(vc);
  } else if (l.credits[l.vc] == 0) {
    return false;
  }
  if (l.cur.buffer != OutPacket::kNoBuffer && l.index > 0) {
    // A data packet's body comes from the DMA engine's buffer.
    l.tx->send<RateHint::One>(t, Flit{l.index + 1u == l.cur.length ? FlitType::Tail : FlitType::Body, l.vc,
                                      engine_->body_flit(l.cur.buffer, l.index)});
  } else {
    l.tx->send<RateHint::One>(t, tracker_.flit(l.cur.id, l.index, l.vc));
  }
  tracker_.on_injected(l.cur.id, l.index, l.index + 1u == l.cur.length, t);
  --l.credits[l.vc];
  ++flits_sent_;
  if (in_window) ++n.window_sent;
  if (++l.index == l.cur.length) {
    l.injecting = false;
    if (engine_ != nullptr) engine_->sent(node, lane, l.cur, t);
  }
  return true;
}

// Sink: consume what arrives and return its credit.
bool AcceleratorArray::receive(Node& n, unsigned node, unsigned lane, bool in_window, uint64_t t) {
  Lane& l = n.lanes[lane];
  const Flit* f = l.rx->receive<RateHint::One>(t);
  if (f == nullptr) return false;
  l.rx->return_credit<RateHint::One>(t, f->vc);
  ++flits_received_;
  if (in_window) {
    ++window_accepted_;
    ++n.window_received;
  }
  const PacketTracker::Arrival a = tracker_.on_delivered(node, lane, *f, t);
  if (a.packet_done && a.measured) {
    if (a.latency >= latency_hist_.size()) latency_hist_.resize(a.latency * 2 + 64, 0);
    ++latency_hist_[a.latency];
  }
  if (engine_ != nullptr && a.ok) {
    FlitArrival arrival{*f, a};
    engine_->eject(node, lane, arrival, t);
  }
  return true;
}

std::size_t AcceleratorArray::packets_held(const Node& n) const {
  std::size_t held = 0;
  for (unsigned k = 0; k < cfg_.lanes; ++k) held += n.lanes[k].q_size + (n.lanes[k].injecting ? 1 : 0);
  return held;
}

void AcceleratorArray::on_clock() {
  const uint64_t t = cycle_++;
  if (end_ != RunEnd::Running) return;
  const uint64_t window_end = cfg_.warmup + cfg_.measure;
  const bool in_window = t >= cfg_.warmup && t < window_end;
  // Saturating sources (a bounded queue) measure throughput: they stop at the end of the
  // window. Otherwise traffic stays on until the measured packets have arrived, so that
  // their latencies are taken under the offered load.
  if (!flushing_ && t >= window_end && (tracker_.measured_outstanding() == 0 || cfg_.source_queue > 0))
    flushing_ = true;
  const bool generate = !flushing_ && engine_ == nullptr;
  if (t == 0 && engine_ != nullptr) engine_->start(t);

  bool moved = false;
  const unsigned lanes = cfg_.lanes;
  const unsigned count = static_cast<unsigned>(nodes_.size());
  for (unsigned i = 0; i < count; ++i) {
    // Cache hints a node or two ahead, each stage reading what the one before fetched: the links,
    // assembly entries and receive slots, then the records of the open packets and the DMA
    // buffers the next flits go to and come from. A quiet node's links and arrival state are not
    // read in this cycle, nor fetched. The nodes themselves are read in order, which the
    // hardware prefetcher follows (a software hint per node cost 11% at light load and gained
    // nothing measurable on the 1,024-accelerator allreduce: docs/performance.md).
    if (i + 2 < count && !quiet(nodes_[i + 2], t)) {
      for (unsigned k = 0; k < lanes; ++k) {
        nodes_[i + 2].lanes[k].tx->prefetch();
        nodes_[i + 2].lanes[k].rx->prefetch();
      }
      tracker_.prefetch_assembly(i + 2);
      if (engine_ != nullptr) engine_->prefetch_rx_slots(i + 2);
    }
    if (i + 1 < count) {
      if (!quiet(nodes_[i + 1], t)) tracker_.prefetch_open_packets(i + 1);
      if (engine_ != nullptr) {
        engine_->prefetch_rx_data(i + 1);
        for (unsigned k = 0; k < lanes; ++k) {
          const Lane& l = nodes_[i + 1].lanes[k];
          if (l.injecting && l.cur.buffer != OutPacket::kNoBuffer) engine_->prefetch_body(l.cur.buffer, l.index);
        }
      }
    }
    Node& n = nodes_[i];
    if (!quiet(n, t)) {
      for (unsigned k = 0; k < lanes; ++k) moved |= receive(n, i, k, in_window, t);
      // Source: credits back, new packets, one flit out per lane.
      for (unsigned k = 0; k < lanes; ++k) {
        const int cvc = n.lanes[k].tx->credit<RateHint::One>(t);
        if (cvc >= 0) ++n.lanes[k].credits[static_cast<unsigned>(cvc)];
      }
    }
    if (generate && n.sends) {
      if (cfg_.source_queue != 0 && packets_held(n) >= cfg_.source_queue) {
        if (in_window) ++window_source_full_;
      } else if (n.rng.chance(p_packet_)) {
        const unsigned accelerators = pattern_.num_nodes();
        const unsigned plane = i / accelerators;
        const unsigned dst = plane * accelerators + pattern_.destination(i % accelerators, n.rng, n.created++);
        if (t > kMaxQueuedCycle) throw std::overflow_error("AcceleratorArray: cycle beyond a queued packet's range");
        Lane& l = n.lanes[n.next_lane];
        l.waiting.push(t << kDstBits | dst);
        ++l.q_size;
        tracker_.queue_at_source(in_window);
        n.next_lane = n.next_lane + 1 == lanes ? 0 : n.next_lane + 1;
        if (in_window) window_generated_ += cfg_.packet_length;
      }
    }
    for (unsigned k = 0; k < lanes; ++k) moved |= inject(n, i, k, in_window, t);
  }

  // Run control, the same for traffic and for a collective but for what finishes the run
  // and when it times out.
  const bool collective = engine_ != nullptr;
  if ((collective ? engine_->done() : flushing_) && tracker_.outstanding() == 0) {
    end_ = RunEnd::Drained;
  } else if (t >= (collective ? cfg_.collective_timeout : window_end + cfg_.drain)) {
    drain_timeout();
  } else if (watchdog_.advance(1, moved, tracker_.outstanding() != 0)) {
    fire_watchdog(t);
  }
  if (end_ != RunEnd::Running) {
    end_cycle_ = t + 1;
    sc_core::sc_stop();
  }
}

void AcceleratorArray::stop(RunEnd why, const std::string& report) {
  if (end_ != RunEnd::Running) return;
  end_ = why;
  end_cycle_ = cycle_;
  end_report_ = report;
  sc_core::sc_stop();
}

void AcceleratorArray::drain_timeout() {
  end_ = RunEnd::DrainTimeout;
  if (engine_ != nullptr) {
    end_report_ = "the collective did not complete within " + std::to_string(cfg_.collective_timeout) +
                  " cycles (collective.timeout); " + engine_->progress() + "; ";
  } else {
    end_report_ =
        "the network did not drain within " + std::to_string(cfg_.drain) + " cycles after the measurement window; ";
  }
  end_report_ += std::to_string(tracker_.outstanding()) + " packets outstanding:\n" + tracker_.describe_undelivered(20);
  if (network_report_) end_report_ += "Flits in the fabric's buffers:\n" + network_report_();
}

void AcceleratorArray::fire_watchdog(uint64_t t) {
  // Flit conservation: what the accelerators sent minus what they received, minus what
  // faults dropped, is what the links and routers still hold.
  uint64_t dropped = 0;
  for (const Node& n : nodes_) {
    for (unsigned k = 0; k < cfg_.lanes; ++k)
      dropped += n.lanes[k].rx->flits_dropped() + n.lanes[k].tx->flits_dropped();
  }
  const uint64_t held = flits_sent_ - flits_received_ - dropped;
  std::ostringstream os;
  if (held > 0) {
    end_ = RunEnd::Deadlock;
    os << "DEADLOCK at cycle " << t << ": no flit entered or left the network for " << cfg_.watchdog << " cycles; "
       << held << " flits are stuck inside it and " << tracker_.outstanding() << " packets are outstanding.\n";
  } else {
    end_ = RunEnd::Loss;
    os << "LOSS at cycle " << t << ": the network holds no flit, yet " << tracker_.outstanding()
       << " packets are undelivered (" << dropped << " flits dropped by an injected fault).\n";
  }
  os << "Packets in the network:\n" << tracker_.describe_undelivered(24);
  os << "Accelerators with flits in their router's input buffers or queued packets:\n" << describe_nodes();
  if (network_report_) os << "Flits in the fabric's buffers:\n" << network_report_();
  end_report_ = os.str();
}

std::string AcceleratorArray::describe_nodes() const {
  std::ostringstream os;
  unsigned shown = 0;
  for (unsigned i = 0; i < nodes_.size(); ++i) {
    for (unsigned k = 0; k < cfg_.lanes; ++k) {
      const Lane& l = nodes_[i].lanes[k];
      unsigned owed = 0;
      for (unsigned v = 0; v < cfg_.num_vcs; ++v) owed += cfg_.buf_depth - l.credits[v];
      if (owed == 0 && l.q_size == 0 && !l.injecting) continue;
      if (++shown > 32) {
        os << "  ...\n";
        return os.str();
      }
      os << "  node " << i;
      if (cfg_.lanes > 1) os << " lane " << k;
      os << ": credits per VC [";
      for (unsigned v = 0; v < cfg_.num_vcs; ++v) os << (v ? " " : "") << l.credits[v];
      os << "] of " << cfg_.buf_depth << " (" << owed << " flits not yet out of the router's local input buffer), "
         << l.q_size << " packets queued";
      if (l.injecting) os << ", injecting packet " << l.cur.id << " flit " << l.index;
      os << "\n";
    }
  }
  return os.str();
}

bool AcceleratorArray::all_credits_home() const {
  for (const Node& n : nodes_) {
    for (unsigned k = 0; k < cfg_.lanes; ++k) {
      for (unsigned v = 0; v < cfg_.num_vcs; ++v) {
        if (n.lanes[k].credits[v] != cfg_.buf_depth) return false;
      }
    }
  }
  return true;
}

std::string AcceleratorArray::phase_name() const {
  if (end_ != RunEnd::Running) return to_string(end_);
  if (engine_ != nullptr) return "collective";
  if (cycle_ < cfg_.warmup) return "warm-up";
  if (cycle_ < cfg_.warmup + cfg_.measure) return "measure";
  return flushing_ ? "flush" : "drain";
}

TrafficResults AcceleratorArray::results() const {
  TrafficResults r;
  r.window_cycles = cfg_.measure;
  r.nodes = static_cast<unsigned>(nodes_.size());
  for (const Node& n : nodes_) r.sending_nodes += n.sends ? 1 : 0;
  r.window_generated_flits = window_generated_;
  r.window_accepted_flits = window_accepted_;
  r.source_full_cycles = window_source_full_;
  for (const Node& n : nodes_) {
    r.node_accepted_flits.push_back(n.window_received);
    if (n.sends) r.node_sent_flits.push_back(n.window_sent);
  }
  uint64_t count = 0;
  double sum = 0;
  for (std::size_t l = 0; l < latency_hist_.size(); ++l) {
    count += latency_hist_[l];
    sum += static_cast<double>(l) * static_cast<double>(latency_hist_[l]);
  }
  r.measured_packets = count;
  if (count > 0) {
    r.avg_latency = sum / static_cast<double>(count);
    // Percentiles by the nearest-rank method over the exact histogram.
    auto rank = [&](double q) {
      const uint64_t target = static_cast<uint64_t>(std::ceil(q * static_cast<double>(count)));
      uint64_t seen = 0;
      for (std::size_t l = 0; l < latency_hist_.size(); ++l) {
        seen += latency_hist_[l];
        if (seen >= std::max<uint64_t>(target, 1)) return static_cast<double>(l);
      }
      return static_cast<double>(latency_hist_.size() - 1);
    };
    r.p50_latency = rank(0.50);
    r.p99_latency = rank(0.99);
    r.max_latency = rank(1.0);
  }
  return r;
}

}  // namespace hx
