#include "endpoints.h"

#include <sstream>
#include <stdexcept>

namespace hx {

PacketSource::PacketSource(unsigned port, unsigned num_vcs, unsigned buf_depth, std::size_t queue_capacity)
    : port_(port), num_vcs_(num_vcs), buf_depth_(buf_depth), queue_(queue_capacity) {
  if (num_vcs < 1 || num_vcs > kMaxVcs) throw std::invalid_argument("PacketSource: 1..4 VCs");
  reset();
}

void PacketSource::reset() {
  queue_.clear();
  credits_.fill(0);
  for (unsigned v = 0; v < num_vcs_; ++v) credits_[v] = buf_depth_;
  current_ = kNoPacket;
  index_ = 0;
  length_ = 0;
  vc_ = 0;
  flits_sent_ = 0;
  credits_received_ = 0;
}

bool PacketSource::next_flit(Scoreboard& sb, uint64_t cycle, Flit& out) {
  if (paused_) return false;
  if (current_ == kNoPacket) {
    if (queue_.empty()) return false;
    current_ = queue_.front();
    queue_.pop();
    const PacketRecord& r = sb.packet(current_);
    index_ = 0;
    length_ = r.spec.header.length;
    vc_ = r.spec.vc;
  }
  if (vc_ >= num_vcs_ || credits_[vc_] == 0) return false;
  out = sb.flit_for(current_, index_);
  --credits_[vc_];
  sb.on_injected(current_, index_, cycle);
  ++flits_sent_;
  if (++index_ >= length_) {
    current_ = kNoPacket;
    index_ = 0;
  }
  return true;
}

bool PacketSource::on_credit(unsigned vc) {
  ++credits_received_;
  if (vc >= num_vcs_ || credits_[vc] >= buf_depth_) return false;
  ++credits_[vc];
  return true;
}

bool PacketSource::credits_full() const {
  for (unsigned v = 0; v < num_vcs_; ++v) {
    if (credits_[v] != buf_depth_) return false;
  }
  return true;
}

std::string PacketSource::describe() const {
  std::ostringstream os;
  os << "credits [";
  for (unsigned v = 0; v < num_vcs_; ++v) os << (v ? " " : "") << credits_[v];
  os << "], queued " << queue_.size();
  if (current_ != kNoPacket) {
    os << ", injecting packet " << current_ << " flit " << index_ << "/" << length_ << " on vc " << vc_;
  }
  if (paused_) os << ", paused";
  return os.str();
}

PacketSink::PacketSink(unsigned port, unsigned num_vcs, unsigned buf_depth, uint64_t seed)
    : port_(port), num_vcs_(num_vcs), buf_depth_(buf_depth), rng_(seed), seed_(seed) {
  if (num_vcs < 1 || num_vcs > kMaxVcs) throw std::invalid_argument("PacketSink: 1..4 VCs");
  for (auto& b : buffers_) b.reset_capacity(buf_depth);
}

void PacketSink::reset() {
  for (auto& b : buffers_) b.clear();
  received_vc_.fill(0);
  rng_.reseed(seed_);
  rr_ = 0;
  flits_received_ = 0;
  flits_drained_ = 0;
}

bool PacketSink::accept(const Flit& flit, const Delivery& d) {
  const unsigned vc = flit.vc & 3u;
  ++flits_received_;
  ++received_vc_[vc];
  if (vc >= num_vcs_) return false;
  return buffers_[vc].push(Slot{d.packet, d.index});
}

bool PacketSink::drain(unsigned& vc) {
  if (stalled_ || empty()) return false;
  if (drain_prob_ < 1.0 && !rng_.chance(drain_prob_)) return false;
  for (unsigned k = 0; k < num_vcs_; ++k) {
    const unsigned v = (rr_ + k) % num_vcs_;
    if (!buffers_[v].empty()) {
      buffers_[v].pop();
      rr_ = (v + 1) % num_vcs_;
      ++flits_drained_;
      vc = v;
      return true;
    }
  }
  return false;
}

bool PacketSink::empty() const {
  for (unsigned v = 0; v < num_vcs_; ++v) {
    if (!buffers_[v].empty()) return false;
  }
  return true;
}

std::string PacketSink::describe() const {
  std::ostringstream os;
  os << "holds [";
  for (unsigned v = 0; v < num_vcs_; ++v) {
    os << (v ? " " : "") << buffers_[v].size();
  }
  os << "] of " << buf_depth_;
  for (unsigned v = 0; v < num_vcs_; ++v) {
    if (buffers_[v].empty()) continue;
    const auto& b = buffers_[v];
    os << "; vc" << v << ": packet " << b.front().packet << " flit " << b.front().index;
    if (b.size() > 1) {
      os << " .. packet " << b.at(b.size() - 1).packet << " flit " << b.at(b.size() - 1).index;
    }
  }
  if (stalled_) os << ", stalled";
  if (drain_prob_ < 1.0) os << ", drain p=" << drain_prob_;
  return os.str();
}

}  // namespace hx
