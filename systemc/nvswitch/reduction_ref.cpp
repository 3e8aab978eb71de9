// reduction_ref.cpp: see reduction_ref.h.
#include "reduction_ref.h"

#include <cmath>
#include <cstring>
#include <sstream>

namespace hx {

// ---- ALU -----------------------------------------------------------------------------------------

uint32_t fp32_bits(float f) {
  uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}
float fp32_value(uint32_t bits) {
  float f;
  std::memcpy(&f, &bits, sizeof f);
  return f;
}

namespace {
float as_float(uint32_t u) { return fp32_value(u); }
uint32_t as_bits(float f) { return fp32_bits(f); }
bool is_nan(uint32_t a) { return (a & 0x7F800000u) == 0x7F800000u && (a & 0x007FFFFFu) != 0; }
// Total-order key of a non-NaN value: monotonic in the value, with -0 below +0.
uint32_t order_key(uint32_t a) { return (a & 0x80000000u) ? ~a : (a | 0x80000000u); }
}  // namespace

uint32_t fp32_daz(uint32_t a) { return (a & 0x7F800000u) == 0 ? (a & 0x80000000u) : a; }

// Why the host's float addition gives exactly the specified result. After DAZ both operands are
// zeros, normals, infinities or NaNs, i.e. multiples of 2^-149 when finite. The host adds in IEEE
// binary32 with round-to-nearest-even (the default mode; this file must not be built with
// -ffast-math, and on x86-64 float arithmetic is SSE, without excess precision):
//  - if the exact sum has magnitude >= 2^-126, the host rounds it to nearest even in the normal
//    range, overflowing to infinity: exactly the specified result;
//  - if it is nonzero and below 2^-126, it is a multiple of 2^-149 below 2^-126, hence exactly
//    representable as a subnormal: the host returns it exactly, with its sign, and flushing that
//    subnormal to the zero of its sign is the specified FTZ;
//  - x + (-x) is +0 and (-0) + (-0) is -0 in round-to-nearest; inf - inf and NaN inputs give
//    some NaN, which is replaced by the canonical one.
uint32_t fp32_add(uint32_t a, uint32_t b) {
  const volatile float x = as_float(fp32_daz(a));
  const volatile float y = as_float(fp32_daz(b));
  const uint32_t r = as_bits(x + y);
  if (is_nan(r)) return kFp32CanonicalNan;
  return fp32_daz(r);
}

uint32_t fp32_min(uint32_t a, uint32_t b) {
  if (is_nan(a) || is_nan(b)) return kFp32CanonicalNan;
  a = fp32_daz(a);
  b = fp32_daz(b);
  return order_key(a) < order_key(b) ? a : b;
}

uint32_t fp32_max(uint32_t a, uint32_t b) {
  if (is_nan(a) || is_nan(b)) return kFp32CanonicalNan;
  a = fp32_daz(a);
  b = fp32_daz(b);
  return order_key(a) < order_key(b) ? b : a;
}

uint32_t int32_add(uint32_t a, uint32_t b) { return a + b; }
uint32_t int32_min(uint32_t a, uint32_t b) { return static_cast<int32_t>(a) < static_cast<int32_t>(b) ? a : b; }
uint32_t int32_max(uint32_t a, uint32_t b) { return static_cast<int32_t>(a) < static_cast<int32_t>(b) ? b : a; }

uint32_t reduce_lane(AluOp op, uint32_t a, uint32_t b) {
  switch (op) {
    case AluOp::FAdd: return fp32_add(a, b);
    case AluOp::IAdd: return int32_add(a, b);
    case AluOp::FMin: return fp32_min(a, b);
    case AluOp::FMax: return fp32_max(a, b);
    case AluOp::IMin: return int32_min(a, b);
    case AluOp::IMax: return int32_max(a, b);
  }
  return a;  // op codes 6 and 7
}

RedFlit reduce_flit(AluOp op, const RedFlit& a, const RedFlit& b) {
  RedFlit y;
  for (int k = 0; k < 4; ++k) y[k] = reduce_lane(op, a[k], b[k]);
  return y;
}

// ---- header --------------------------------------------------------------------------------------

namespace {
// Bits [lsb, lsb+width) of a 128-bit flit, width <= 64.
uint64_t get_field(const RedFlit& f, unsigned lsb, unsigned width) {
  uint64_t v = 0;
  for (unsigned i = 0; i < width; ++i) {
    const unsigned bit = lsb + i;
    v |= static_cast<uint64_t>((f[bit / 32] >> (bit % 32)) & 1u) << i;
  }
  return v;
}
void set_field(RedFlit& f, unsigned lsb, unsigned width, uint64_t v) {
  for (unsigned i = 0; i < width; ++i) {
    const unsigned bit = lsb + i;
    const uint32_t m = 1u << (bit % 32);
    if ((v >> i) & 1u) {
      f[bit / 32] |= m;
    } else {
      f[bit / 32] &= ~m;
    }
  }
}
}  // namespace

RedFlit RedHeader::pack() const {
  RedFlit f{};
  set_field(f, 0, 4, kind);
  set_field(f, 4, 3, op);
  set_field(f, 7, 1, first_hop ? 1 : 0);
  set_field(f, 8, 4, nflits);
  set_field(f, 12, 16, count);
  set_field(f, 28, 16, expected);
  set_field(f, 44, 32, tag);
  set_field(f, 76, 16, src);
  set_field(f, 92, 36, opaque);
  return f;
}

RedHeader RedHeader::unpack(const RedFlit& f) {
  RedHeader h;
  h.kind = static_cast<uint8_t>(get_field(f, 0, 4));
  h.op = static_cast<uint8_t>(get_field(f, 4, 3));
  h.first_hop = get_field(f, 7, 1) != 0;
  h.nflits = static_cast<uint8_t>(get_field(f, 8, 4));
  h.count = static_cast<uint16_t>(get_field(f, 12, 16));
  h.expected = static_cast<uint16_t>(get_field(f, 28, 16));
  h.tag = static_cast<uint32_t>(get_field(f, 44, 32));
  h.src = static_cast<uint16_t>(get_field(f, 76, 16));
  h.opaque = get_field(f, 92, 36);
  return h;
}

std::string RedPacket::to_string() const {
  std::ostringstream s;
  s << "kind=" << unsigned(hdr.kind) << " op=" << unsigned(hdr.op) << " fh=" << hdr.first_hop
    << " n=" << unsigned(hdr.nflits) << " count=" << hdr.count << " exp=" << hdr.expected << " tag=0x" << std::hex
    << hdr.tag << std::dec << " src=" << hdr.src << " opaque=0x" << std::hex << hdr.opaque << " data[0]=";
  if (!data.empty()) s << data[0][0] << "," << data[0][1] << "," << data[0][2] << "," << data[0][3];
  s << std::dec;
  return s.str();
}

// ---- table ---------------------------------------------------------------------------------------

namespace {
bool owned_pull_req(const RedHeader& h) { return h.kind == static_cast<uint8_t>(RedKind::PullReq) && h.nflits == 0; }
bool owned_with_data(const RedHeader& h, RedKind k) { return h.kind == static_cast<uint8_t>(k) && h.nflits == 8; }
}  // namespace

ReductionTableRef::ReductionTableRef(unsigned entries, uint32_t timeout) : table_(entries), timeout_(timeout) {}

int ReductionTableRef::find(uint32_t tag) const {
  for (size_t i = 0; i < table_.size(); ++i)
    if (table_[i].valid && table_[i].tag == tag) return static_cast<int>(i);
  return -1;
}

int ReductionTableRef::first_free() const {
  for (size_t i = 0; i < table_.size(); ++i)
    if (!table_[i].valid) return static_cast<int>(i);
  return -1;
}

unsigned ReductionTableRef::occupancy() const {
  unsigned n = 0;
  for (const Entry& e : table_) n += e.valid ? 1 : 0;
  return n;
}

RedPacket ReductionTableRef::evict_packet(const Entry& e, uint64_t opaque) const {
  RedPacket p;
  p.hdr.kind = static_cast<uint8_t>(RedKind::Evict);
  p.hdr.op = e.op;
  p.hdr.nflits = 8;
  p.hdr.count = e.count;
  p.hdr.expected = e.expected;
  p.hdr.tag = e.tag;
  p.hdr.src = e.src;
  p.hdr.opaque = opaque;
  p.data.assign(e.data.begin(), e.data.end());
  return p;
}

std::optional<RedPacket> ReductionTableRef::idle(uint32_t now) {
  if (timeout_ == 0) return std::nullopt;
  for (Entry& e : table_) {
    if (e.valid && e.push && static_cast<uint32_t>(now - e.last) > timeout_) {
      RedPacket p = evict_packet(e, 0);
      e.valid = false;
      return p;
    }
  }
  return std::nullopt;
}

bool ReductionTableRef::would_stall(const RedHeader& h) const {
  return owned_pull_req(h) && h.first_hop && find(h.tag) < 0 && first_free() < 0;
}

std::optional<RedPacket> ReductionTableRef::accept(const RedPacket& p, uint32_t now) {
  const RedHeader& h = p.hdr;
  if (owned_pull_req(h)) {
    int i = find(h.tag);
    if (i < 0) i = first_free();
    if (i >= 0) {
      Entry& e = table_[i];
      e.valid = true;
      e.push = false;
      e.tag = h.tag;
      e.count = 0;
      e.expected = h.expected;
      e.src = h.src;
      e.op = h.op;
      e.last = now;
    }
    return std::nullopt;  // allocated, or dropped at a later hop when full
  }
  const bool rsp = owned_with_data(h, RedKind::PullRsp);
  const bool push = owned_with_data(h, RedKind::PushWr);
  if (rsp || push) {
    const int i = find(h.tag);
    if (i >= 0) {
      Entry& e = table_[i];
      const AluOp op = static_cast<AluOp>(e.op);
      const uint16_t total = static_cast<uint16_t>(e.count + h.count);
      std::array<RedFlit, 8> next;
      for (int r = 0; r < 8; ++r) next[r] = e.count == 0 ? p.data[r] : reduce_flit(op, e.data[r], p.data[r]);
      if (total == e.expected) {
        RedPacket out;
        out.hdr.kind = static_cast<uint8_t>(RedKind::Result);
        out.hdr.op = e.op;
        out.hdr.nflits = 8;
        out.hdr.count = total;
        out.hdr.expected = e.expected;
        out.hdr.tag = h.tag;
        out.hdr.src = e.src;
        out.hdr.opaque = h.opaque;
        out.data.assign(next.begin(), next.end());
        e.valid = false;
        return out;
      }
      e.count = total;
      e.data = next;
      e.last = now;
      return std::nullopt;
    }
    if (push) {
      if (h.count == h.expected) {
        RedPacket out = p;
        out.hdr.kind = static_cast<uint8_t>(RedKind::Result);
        out.hdr.first_hop = false;
        return out;
      }
      int v = first_free();
      std::optional<RedPacket> out;
      if (v < 0) {
        // LRU push entry: the largest idle time, lowest index on ties.
        uint32_t best = 0;
        for (size_t j = 0; j < table_.size(); ++j) {
          const Entry& e = table_[j];
          const uint32_t age = now - e.last;
          if (e.push && (v < 0 || age > best)) {
            v = static_cast<int>(j);
            best = age;
          }
        }
        if (v >= 0) out = evict_packet(table_[v], h.opaque);
      }
      if (v >= 0) {
        Entry& e = table_[v];
        e.valid = true;
        e.push = true;
        e.tag = h.tag;
        e.count = h.count;
        e.expected = h.expected;
        e.src = h.src;
        e.op = h.op;
        e.last = now;
        for (int r = 0; r < 8; ++r) e.data[r] = p.data[r];
        return out;
      }
    }
  }
  return p;  // bypass, unchanged
}

}  // namespace hx
