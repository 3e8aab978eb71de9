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

AcceleratorArray::AcceleratorArray(sc_core::sc_module_name name,
                                   const AcceleratorArrayConfig& cfg,
                                   const TrafficPattern& pattern, PacketTracker& tracker)
    : sc_core::sc_module(name),
      clk("clk"),
      cfg_(cfg),
      pattern_(pattern),
      tracker_(tracker),
      nodes_(pattern.num_nodes() * cfg.planes),
      p_packet_(cfg.injection_rate / cfg.packet_length) {
  for (unsigned i = 0; i < nodes_.size(); ++i) {
    Node& n = nodes_[i];
    // One generator per accelerator, seeded from (seed, node): draws do not depend on the
    // order in which nodes are handled.
    n.rng.reseed(cfg.seed * 0x9e3779b97f4a7c15ull + i + 1);
    n.sends = pattern.sends_traffic(i % pattern.num_nodes()) && cfg.injection_rate > 0 &&
              (cfg.only_source < 0 || static_cast<int>(i) == cfg.only_source);
    n.queue.resize(64);
    n.credits.fill(0);
    for (unsigned v = 0; v < cfg.num_vcs; ++v) n.credits[v] = cfg.buf_depth;
  }
  SC_HAS_PROCESS(AcceleratorArray);
  SC_METHOD(on_clock);
  sensitive << clk.pos();
  dont_initialize();
}

void AcceleratorArray::connect(unsigned node, FlitLink* to_router, FlitLink* from_router) {
  nodes_.at(node).tx = to_router;
  nodes_.at(node).rx = from_router;
}

void AcceleratorArray::push_queue(Node& n, uint32_t id) {
  if (n.q_size == n.queue.size()) {  // grow (rare): unbounded source queue
    std::vector<uint32_t> bigger(n.queue.size() * 2);
    for (std::size_t i = 0; i < n.q_size; ++i) {
      bigger[i] = n.queue[(n.q_head + i) & (n.queue.size() - 1)];
    }
    n.queue.swap(bigger);
    n.q_head = 0;
  }
  n.queue[(n.q_head + n.q_size) & (n.queue.size() - 1)] = id;
  ++n.q_size;
}

bool AcceleratorArray::inject(Node& n, uint64_t t) {
  if (n.cur == UINT32_MAX) {
    if (n.q_size == 0) return false;
    // A head needs a VC with a credit.
    int vc = -1;
    if (cfg_.any_vc) {
      unsigned best = 0;
      for (unsigned v = 0; v < cfg_.num_vcs; ++v) {
        if (n.credits[v] > best) {
          best = n.credits[v];
          vc = static_cast<int>(v);
        }
      }
    } else if (n.credits[0] > 0) {
      vc = 0;
    }
    if (vc < 0) return false;
    n.cur = n.queue[n.q_head];
    n.q_head = (n.q_head + 1) & (n.queue.size() - 1);
    --n.q_size;
    n.index = 0;
    n.vc = static_cast<unsigned>(vc);
    n.length = cfg_.packet_length;
  } else if (n.credits[n.vc] == 0) {
    return false;
  }
  n.tx->send(t, tracker_.flit(n.cur, n.index, n.vc));
  tracker_.on_injected(n.cur, n.index, t);
  --n.credits[n.vc];
  ++flits_sent_;
  if (++n.index == n.length) n.cur = UINT32_MAX;
  return true;
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
  const bool generate = !flushing_;

  bool moved = false;
  for (unsigned i = 0; i < nodes_.size(); ++i) {
    Node& n = nodes_[i];
    // Sink: consume what arrives and return its credit.
    if (const Flit* f = n.rx->receive(t)) {
      n.rx->return_credit(t, f->vc);
      ++flits_received_;
      if (in_window) {
        ++window_accepted_;
        ++n.window_received;
      }
      moved = true;
      const PacketTracker::Arrival a = tracker_.on_delivered(i, *f, t);
      if (a.packet_done && a.measured) {
        if (a.latency >= latency_hist_.size()) latency_hist_.resize(a.latency * 2 + 64, 0);
        ++latency_hist_[a.latency];
      }
    }
    // Source: credits back, new packets, one flit out.
    const int cvc = n.tx->credit(t);
    if (cvc >= 0) ++n.credits[static_cast<unsigned>(cvc)];
    const bool room = cfg_.source_queue == 0 ||
                      n.q_size + (n.cur != UINT32_MAX ? 1 : 0) < cfg_.source_queue;
    if (generate && n.sends && room && n.rng.chance(p_packet_)) {
      const unsigned accelerators = pattern_.num_nodes();
      const unsigned plane = i / accelerators;
      const unsigned dst = plane * accelerators + pattern_.destination(i % accelerators, n.rng, n.created++);
      push_queue(n, tracker_.create(i, dst, cfg_.packet_length, t, in_window));
      if (in_window) window_generated_ += cfg_.packet_length;
    }
    if (inject(n, t)) moved = true;
  }

  // Run control.
  if (flushing_ && tracker_.outstanding() == 0) {
    end_ = RunEnd::Drained;
  } else if (t >= window_end + cfg_.drain) {
    end_ = RunEnd::DrainTimeout;
    end_report_ = "the network did not drain within " + std::to_string(cfg_.drain) +
                  " cycles after the measurement window; " +
                  std::to_string(tracker_.outstanding()) + " packets outstanding:\n" +
                  tracker_.describe_undelivered(20);
    if (network_report_) end_report_ += "Flits in the fabric's buffers:\n" + network_report_();
  } else if (moved || tracker_.outstanding() == 0) {
    idle_ = 0;
  } else if (++idle_ >= cfg_.watchdog) {
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

void AcceleratorArray::fire_watchdog(uint64_t t) {
  // Flit conservation: what the accelerators sent minus what they received, minus what
  // faults dropped, is what the links and routers still hold.
  uint64_t dropped = 0;
  for (const Node& n : nodes_) dropped += n.rx->flits_dropped() + n.tx->flits_dropped();
  const uint64_t held = flits_sent_ - flits_received_ - dropped;
  std::ostringstream os;
  if (held > 0) {
    end_ = RunEnd::Deadlock;
    os << "DEADLOCK at cycle " << t << ": no flit entered or left the network for "
       << cfg_.watchdog << " cycles; " << held << " flits are stuck inside it and "
       << tracker_.outstanding() << " packets are outstanding.\n";
  } else {
    end_ = RunEnd::Loss;
    os << "LOSS at cycle " << t << ": the network holds no flit, yet "
       << tracker_.outstanding() << " packets are undelivered (" << dropped
       << " flits dropped by an injected fault).\n";
  }
  os << "Packets in the network:\n" << tracker_.describe_undelivered(24);
  os << "Accelerators with flits in their router's input buffers or queued packets:\n"
     << describe_nodes();
  if (network_report_) os << "Flits in the fabric's buffers:\n" << network_report_();
  end_report_ = os.str();
}

std::string AcceleratorArray::describe_nodes() const {
  std::ostringstream os;
  unsigned shown = 0;
  for (unsigned i = 0; i < nodes_.size(); ++i) {
    const Node& n = nodes_[i];
    unsigned owed = 0;
    for (unsigned v = 0; v < cfg_.num_vcs; ++v) owed += cfg_.buf_depth - n.credits[v];
    if (owed == 0 && n.q_size == 0 && n.cur == UINT32_MAX) continue;
    if (++shown > 32) {
      os << "  ...\n";
      break;
    }
    os << "  node " << i << ": credits per VC [";
    for (unsigned v = 0; v < cfg_.num_vcs; ++v) os << (v ? " " : "") << n.credits[v];
    os << "] of " << cfg_.buf_depth << " (" << owed
       << " flits not yet out of the router's local input buffer), " << n.q_size
       << " packets queued";
    if (n.cur != UINT32_MAX) os << ", injecting packet " << n.cur << " flit " << n.index;
    os << "\n";
  }
  return os.str();
}

bool AcceleratorArray::all_credits_home() const {
  for (const Node& n : nodes_) {
    for (unsigned v = 0; v < cfg_.num_vcs; ++v) {
      if (n.credits[v] != cfg_.buf_depth) return false;
    }
  }
  return true;
}

std::string AcceleratorArray::phase_name() const {
  if (end_ != RunEnd::Running) return to_string(end_);
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
  for (const Node& n : nodes_) r.node_accepted_flits.push_back(n.window_received);
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
