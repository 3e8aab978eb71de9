#include "nv_gpu.h"

#include <algorithm>
#include <sstream>
#include <stdexcept>

#include "reduction_ref.h"

namespace hx::nv {

namespace {
// What a completed memory access does.
enum MemWhat : uint8_t {
  SendWithOwn,  // push write / pull response: the packet carries this GPU's line
  RingSend,     // a ring step: own line and/or the mailbox, then a write to the next GPU
  PullFinish,   // a reduced pull response plus this GPU's line: the final, then its multicast
  FlagSeen,     // a ring flag became visible to this GPU's poll
};
constexpr uint64_t ring_key(unsigned step, uint64_t x) { return (static_cast<uint64_t>(step) << 40) | x; }

// An input or reference element as the payload carries it.
uint32_t element_bits(DataType t, int64_t v) {
  return t == DataType::Fp32 ? hx::fp32_bits(static_cast<float>(v)) : static_cast<uint32_t>(v);
}
}  // namespace

GpuDma::GpuDma(unsigned id, const NvTopology& topo, const GpuParams& params, Nic<Packet>& nic)
    : id_(id), topo_(topo), p_(params), nic_(nic), rng_(Rng::stream(params.seed, id)), final_(params.lines, false) {
  // Reduction latency is a push or pull figure; ring and uniform traffic have no results to wait for.
  if (p_.method == Method::Push || p_.method == Method::Pull) sent_at_.assign(p_.lines, 0);
  for (unsigned r = 0; r < 31; ++r) {
    int64_t sum = 0;
    for (unsigned g = 0; g < p_.gpus; ++g) sum += input_value(g, r);
    expected_[r] = element_bits(p_.dtype, sum);
  }
  if (p_.method == Method::Push || p_.method == Method::Uniform) {
    for (uint64_t l = 0; l < p_.lines; ++l) work_.push_back(l);
    if (p_.method == Method::Uniform) received_.assign(static_cast<size_t>(p_.gpus) * p_.lines, false);
  } else if (p_.method == Method::Pull) {
    // The lines this GPU owns: those whose home GPU it is. The home interleaves whole groups of
    // `links` lines (one per plane), so every owner's requests use every plane.
    for (uint64_t l = 0; l < p_.lines; ++l)
      if (topo_.home_gpu(l) == id_) work_.push_back(l);
    barrier_done_ = !p_.barrier;
  } else {
    // Ring step 0: this GPU's own chunk (id), every slice.
    const uint64_t lo = p_.lines * id_ / p_.gpus, hi = p_.lines * (id_ + 1) / p_.gpus;
    for (uint64_t s = lo, slice = 0; s < hi; s += p_.ring_slice_lines, ++slice)
      ring_task(0, slice, s, std::min(hi, s + p_.ring_slice_lines));
  }
  // DMA engines do not inject in any particular order (IV-F): each GPU sends the lines of a wave
  // (of the whole work list without wave control) in its own random order. With `shuffle` off
  // the engine issues in address order and only the memory's jitter reorders the lines.
  const uint64_t chunk = p_.wave_lines ? p_.wave_lines : std::max<uint64_t>(1, work_.size());
  for (uint64_t lo = 0; p_.shuffle && lo < work_.size(); lo += chunk)
    rng_.shuffle(work_.begin() + static_cast<std::ptrdiff_t>(lo),
                 work_.begin() + static_cast<std::ptrdiff_t>(std::min<uint64_t>(work_.size(), lo + chunk)));
  if (p_.wave_lines) {
    const uint64_t n = (work_.size() + p_.wave_lines - 1) / p_.wave_lines;
    wave_left_.assign(n, p_.wave_lines);
    if (n) wave_left_.back() = work_.size() - (n - 1) * p_.wave_lines;
  }
}

uint32_t GpuDma::combine(uint32_t a, uint32_t b) const {
  return hx::reduce_lane(p_.dtype == DataType::Fp32 ? hx::AluOp::FAdd : hx::AluOp::IAdd, a, b);
}

std::array<uint32_t, kLineWords> GpuDma::own_line(uint64_t line) const {
  std::array<uint32_t, kLineWords> d;
  for (unsigned w = 0; w < kLineWords; ++w) {
    const int32_t v = input_value(id_, line * kLineWords + w);
    d[w] = element_bits(p_.dtype, v);
  }
  return d;
}

void GpuDma::error(uint64_t& counter, const std::string& what) {
  if (checks_.ok()) checks_.first_error = "GPU " + std::to_string(id_) + ": " + what;
  ++counter;
}

// A final line this GPU holds goes to every other GPU as one multicast write.
void GpuDma::multicast_result(uint64_t line, const std::array<uint32_t, kLineWords>& data) {
  Packet m;
  set_kind(m, Kind::McWrite);
  m.src = static_cast<NodeId>(id_);
  m.dst = kAllGpus;
  m.exclude = static_cast<int32_t>(id_);
  m.address = line;
  m.set_words(data);
  m.checksum = payload_checksum(m);
  send(std::move(m));
}

void GpuDma::ack(const Packet& w) {
  Packet a;
  set_kind(a, Kind::Ack);
  a.src = static_cast<NodeId>(id_);
  a.dst = w.src;
  a.address = w.address;
  a.user = w.user;
  send(std::move(a));
}

void GpuDma::memory(uint64_t now, Packet&& pkt, uint8_t what) {
  const uint64_t jitter = p_.mem_jitter ? rng_.below(p_.mem_jitter) : 0;
  mem_.push(MemOp{now + p_.mem_latency + jitter, mem_seq_++, std::move(pkt), what});
}

bool GpuDma::wave_open(uint64_t wave) {
  if (!p_.wave_lines || wave < waves_started_) return true;
  if (waves_open_ >= p_.waves) return false;  // credits withheld until a wave completes
  ++waves_started_;
  ++waves_open_;
  return true;
}

void GpuDma::wave_progress(uint64_t wave) {
  if (p_.wave_lines && --wave_left_[wave] == 0) --waves_open_;
}

void GpuDma::finalise(uint64_t line, const std::array<uint32_t, kLineWords>& data, uint64_t now) {
  if (final_[line]) {
    error(checks_.duplicate_lines, "line " + std::to_string(line) + " received its final value twice");
    return;
  }
  final_[line] = true;
  for (unsigned w = 0; w < kLineWords; ++w) {
    const uint32_t want = expected_[(line * kLineWords + w) % 31];
    if (data[w] != want) {
      std::ostringstream os;
      os << "line " << line << " word " << w << ": expected 0x" << std::hex << want << ", found 0x" << data[w];
      error(checks_.wrong_elements, os.str());
    }
  }
  if (p_.method == Method::Push) wave_progress(wave_of(line));
  if (++finals_ == p_.lines) done_at_ = now;
}

// A packet the NIC ejected: it passed the scoreboard (it arrived once, here, as it was sent).
// First the data's own checksum, which a bypassing reduction unit carries through.
void GpuDma::eject(unsigned, unsigned, Packet& pkt, uint64_t now) {
  if (carries_line(kind_of(pkt)) && pkt.checksum != payload_checksum(pkt)) {
    error(checks_.bad_checksums, "line " + std::to_string(pkt.address) + ": payload does not match its checksum");
    return;
  }
  if (is_write(kind_of(pkt))) ack(pkt);
  const bool barrier_line = pkt.address >= p_.lines;
  switch (kind_of(pkt)) {
    case Kind::Ack:
      if (p_.method == Method::Uniform) {  // a write of this GPU's landed: its line is done
        if (++finals_ == p_.lines) done_at_ = now;
        return;
      }
      if (p_.method == Method::Ring) {
        auto it = ring_acks_.find(pkt.user);
        if (it != ring_acks_.end() && --it->second == 0) {  // fence passed: raise the flag
          ring_acks_.erase(it);
          Packet f;
          set_kind(f, Kind::Flag);
          f.src = static_cast<NodeId>(id_);
          f.dst = static_cast<NodeId>((id_ + 1) % p_.gpus);
          f.address = pkt.address;
          f.user = pkt.user;
          f.checksum = payload_checksum(f);
          send(std::move(f));
        }
      }
      return;
    case Kind::PullReq: {
      Packet r;
      set_kind(r, Kind::PullRsp);
      r.src = static_cast<NodeId>(id_);
      r.dst = pkt.src;
      r.address = pkt.address;
      r.count = 1;
      memory(now, std::move(r), SendWithOwn);
      return;
    }
    case Kind::PullRsp:
      if (pkt.count != p_.gpus - 1)
        error(checks_.bad_counts, "line " + std::to_string(pkt.address) + ": pull result reduces " +
                                      std::to_string(pkt.count) + " responses, expected " +
                                      std::to_string(p_.gpus - 1));
      --in_flight_;
      returned(pkt.address, now);
      if (++owned_returned_ == work_.size()) owned_done_at_ = now;
      wave_progress(wave_of(owned_index(pkt.address)));
      memory(now, std::move(pkt), PullFinish);
      return;
    case Kind::Result:
    case Kind::McWrite:
      if (kind_of(pkt) == Kind::Result && pkt.count != p_.gpus)
        error(checks_.bad_counts, "line " + std::to_string(pkt.address) + ": result of " + std::to_string(pkt.count) +
                                      " contributions, expected " + std::to_string(p_.gpus));
      if (barrier_line) {
        barrier_done_ = true;
      } else {
        if (p_.method == Method::Push) returned(pkt.address, now);
        finalise(pkt.address, pkt.words(), now);
      }
      return;
    case Kind::Evict: {
      // This GPU is the line's home: add the partial in memory, counting contributions.
      auto& [acc, count] = partial_[pkt.address];
      if (count == 0)
        acc = pkt.words();
      else
        for (unsigned w = 0; w < kLineWords; ++w) acc[w] = combine(acc[w], pkt.word(w));
      count += pkt.count;
      ++partials_merged_;
      if (count > p_.gpus)
        error(checks_.bad_counts, "line " + std::to_string(pkt.address) + ": more contributions than GPUs");
      if (count == p_.gpus) {
        const std::array<uint32_t, kLineWords> result = acc;
        partial_.erase(pkt.address);
        if (barrier_line)
          barrier_done_ = true;
        else
          finalise(pkt.address, result, now);
        multicast_result(pkt.address, result);
      }
      return;
    }
    case Kind::Write:
      if (p_.method == Method::Uniform) {
        received_write(pkt);
        return;
      }
      mailbox_[ring_key(static_cast<unsigned>(pkt.user >> 40), pkt.address)] = pkt.words();
      return;
    case Kind::Flag:
      memory(now, std::move(pkt), FlagSeen);  // the poll sees it one memory access later
      return;
    case Kind::PushWr: return;  // not for a GPU: the scoreboard counted it misdelivered
  }
}

// Uniform traffic: a write must come from another GPU that meant it for this one, carry that
// GPU's input line, and arrive once.
void GpuDma::received_write(const Packet& w) {
  const auto src = static_cast<unsigned>(w.src);
  if (w.src < 0 || src >= p_.gpus || w.address >= p_.lines || uniform_target(p_.seed, src, w.address, p_.gpus) != id_) {
    error(checks_.wrong_writer, "write of line " + std::to_string(w.address) + " from " + std::to_string(w.src) +
                                    " was not meant for this GPU");
    return;
  }
  const size_t key = static_cast<size_t>(src) * p_.lines + w.address;
  if (received_[key]) {
    error(checks_.duplicate_lines,
          "line " + std::to_string(w.address) + " of GPU " + std::to_string(src) + " arrived twice");
    return;
  }
  received_[key] = true;
  ++writes_received_;
  for (unsigned i = 0; i < kLineWords; ++i)
    if (w.word(i) != element_bits(p_.dtype, input_value(src, w.address * kLineWords + i))) {
      error(checks_.wrong_elements, "line " + std::to_string(w.address) + " of GPU " + std::to_string(src) + " word " +
                                        std::to_string(i) + " differs from what GPU " + std::to_string(src) + " holds");
      return;
    }
}

void GpuDma::complete(MemOp& op, uint64_t now) {
  Packet& p = op.pkt;
  switch (op.what) {
    case SendWithOwn: {
      // The barrier's flag line (an address past the data) carries zeros.
      p.set_words(p.address >= p_.lines ? Packet::Words{} : own_line(p.address));
      p.checksum = payload_checksum(p);
      if (kind_of(p) == Kind::PushWr || kind_of(p) == Kind::Write) {  // push, or uniform traffic
        --in_flight_;
        issued(p.address, now);
      }
      send(std::move(p));
      return;
    }
    case PullFinish: {
      const auto own = own_line(p.address);
      Packet::Words line = p.words();
      for (unsigned w = 0; w < kLineWords; ++w) line[w] = combine(line[w], own[w]);
      finalise(p.address, line, now);
      multicast_result(p.address, line);
      return;
    }
    case RingSend: {
      const unsigned step = static_cast<unsigned>(p.user >> 40);
      const unsigned p1 = p_.gpus - 1;
      std::array<uint32_t, kLineWords> d{};
      if (step <= p1) d = own_line(p.address);
      if (step >= 1) {
        auto it = mailbox_.find(ring_key(step - 1, p.address));
        if (it == mailbox_.end())
          throw std::logic_error("ring: mailbox line missing after its flag (GPU " + std::to_string(id_) + ")");
        if (step <= p1)
          for (unsigned w = 0; w < kLineWords; ++w) d[w] = combine(d[w], it->second[w]);
        else
          d = it->second;
        mailbox_.erase(it);
      }
      if (step == p1) finalise(p.address, d, now);  // this GPU's reduced chunk
      p.set_words(d);
      p.checksum = payload_checksum(p);
      --in_flight_;
      send(std::move(p));
      return;
    }
    case FlagSeen: {
      const unsigned step = static_cast<unsigned>(p.user >> 40);
      const uint64_t slice = p.user & ((uint64_t{1} << 40) - 1);
      const unsigned chunk = static_cast<unsigned>((id_ + 2 * p_.gpus - 1 - step) % p_.gpus);  // sender's chunk
      const uint64_t lo = p_.lines * chunk / p_.gpus, hi = p_.lines * (chunk + 1) / p_.gpus;
      const uint64_t s = lo + slice * p_.ring_slice_lines, e = std::min(hi, s + p_.ring_slice_lines);
      if (step >= p_.gpus - 1) {  // all-gather: the mailbox holds final values
        for (uint64_t l = s; l < e; ++l) {
          auto it = mailbox_.find(ring_key(step, l));
          if (it == mailbox_.end()) {
            error(checks_.wrong_elements, "ring: line " + std::to_string(l) + " flagged but never written");
            continue;
          }
          finalise(l, it->second, now);
          if (step + 1 > 2 * p_.gpus - 3) mailbox_.erase(it);
        }
      }
      if (step + 1 <= 2 * p_.gpus - 3) ring_task(step + 1, slice, s, e);
      return;
    }
  }
}

// A ring step becomes ready: its writes will be fenced by counting their acks.
void GpuDma::ring_task(unsigned step, uint64_t slice, uint64_t lo, uint64_t hi) {
  ring_ready_.push(RingTask{step, slice, lo, hi});
  ring_acks_[ring_key(step, slice)] = static_cast<unsigned>(hi - lo);
}

void GpuDma::issue_ring(uint64_t now) {
  if (ring_ready_.empty() || in_flight_ >= p_.dma_window) return;
  RingTask& t = ring_ready_.front();
  Packet w;
  set_kind(w, Kind::Write);
  w.src = static_cast<NodeId>(id_);
  w.dst = static_cast<NodeId>((id_ + 1) % p_.gpus);
  w.address = t.next_line;
  w.user = ring_key(t.step, t.slice);
  ++in_flight_;
  memory(now, std::move(w), RingSend);
  if (++t.next_line == t.end_line) ring_ready_.pop();
}

void GpuDma::issue(uint64_t now) {
  // Keep the DMA engine no more than a few packets ahead of the link it feeds.
  if (!backlog_ok()) return;
  if (p_.method == Method::Ring) {
    issue_ring(now);
    return;
  }
  if (!barrier_done_) {
    if (!barrier_sent_) {
      barrier_sent_ = true;
      Packet b;
      set_kind(b, Kind::PushWr);
      b.src = static_cast<NodeId>(id_);
      b.address = p_.lines;  // a flag line outside the buffer
      b.dst = home_port(b.address);
      b.count = 1;
      b.expected = static_cast<uint16_t>(p_.gpus);
      ++in_flight_;
      memory(now, std::move(b), SendWithOwn);
    }
    return;
  }
  if (next_work_ >= work_.size() || in_flight_ >= p_.dma_window) return;
  if (!wave_open(wave_of(next_work_))) return;
  const uint64_t line = work_[next_work_++];
  ++in_flight_;
  if (p_.method == Method::Uniform) {
    Packet w;
    set_kind(w, Kind::Write);
    w.src = static_cast<NodeId>(id_);
    w.dst = static_cast<NodeId>(uniform_target(p_.seed, id_, line, p_.gpus));
    w.address = line;
    memory(now, std::move(w), SendWithOwn);
  } else if (p_.method == Method::Push) {
    Packet w;
    set_kind(w, Kind::PushWr);
    w.src = static_cast<NodeId>(id_);
    w.address = line;
    w.dst = home_port(line);
    w.count = 1;
    w.expected = static_cast<uint16_t>(p_.gpus);
    memory(now, std::move(w), SendWithOwn);
  } else {
    Packet r;  // pull: a request needs no memory access; its response counts it down
    set_kind(r, Kind::PullReq);
    r.src = static_cast<NodeId>(id_);
    r.dst = kAllGpus;
    r.exclude = static_cast<int32_t>(id_);
    r.address = line;
    issued(line, now);
    send(std::move(r));
  }
}

void GpuDma::step(uint64_t now) {
  while (!mem_.empty() && mem_.top().at <= now) {
    MemOp op = mem_.top();
    mem_.pop();
    complete(op, now);
  }
  if (started_) issue(now);
}

std::string GpuDma::progress() const {
  std::ostringstream os;
  os << finals_ << "/" << p_.lines << " lines final, " << mem_.size() << " memory accesses, " << in_flight_
     << " DMA lines in flight";
  if (p_.wave_lines) os << ", waves " << waves_started_ << " started, " << waves_open_ << " open";
  if (!barrier_done_) os << ", waiting at the barrier";
  if (!partial_.empty()) os << ", " << partial_.size() << " partial lines at home";
  return os.str();
}

std::string Gpu::where() const {
  std::string s = "GPU " + std::to_string(id()) + ": " + dma_.progress();
  if (const uint64_t on_links = nic_.packets_on_links()) s += ", " + std::to_string(on_links) + " packets on its links";
  return s;
}

}  // namespace hx::nv
