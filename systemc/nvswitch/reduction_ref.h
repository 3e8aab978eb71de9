// reduction_ref.h: the reference model of the switch reduction unit (docs/reduction-unit.md),
// written from the specification, independently of the RTL (rtl/hx_reduction_table.sv).
//
// Two parts:
//  - The ALU lane functions: pure functions on 32-bit patterns, bit-exact with hx_fp32_alu. The
//    simulator uses them for GPU-side accumulation too, so that a reduction gives the same bits
//    whether it happens in a switch or in a GPU. reduce_lane(op, a, b) is the entry point.
//  - ReductionTableRef: one port's reduction table at the packet level. It predicts the output
//    packets of the RTL table for a given sequence of accepted input packets and idle cycles.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace hx {

// ---- ALU -----------------------------------------------------------------------------------------

/// The reduction operators (3-bit op code in the packet header).
enum class AluOp : uint8_t {
  FAdd = 0,  ///< fp32 add: DAZ, round to nearest even, FTZ, canonical NaN
  IAdd = 1,  ///< int32 add, wrapping
  FMin = 2,  ///< fp32 min: NaN input -> canonical NaN, -0 < +0, DAZ
  FMax = 3,  ///< fp32 max
  IMin = 4,  ///< int32 min, signed
  IMax = 5,  ///< int32 max, signed
};

/// The one NaN any fp32 operation returns.
inline constexpr uint32_t kFp32CanonicalNan = 0x7FC00000u;

/// Denormals-are-zero: a subnormal becomes the zero of its sign; other values are unchanged.
/// The bit pattern of an fp32 value, and back.
uint32_t fp32_bits(float f);
float fp32_value(uint32_t bits);

uint32_t fp32_daz(uint32_t a);
/// a + b with the semantics of docs/reduction-unit.md (DAZ inputs; RNE; results below 2^-126
/// flushed to the zero of their sign; x + (-x) = +0; (-0) + (-0) = -0; overflow to infinity;
/// inf - inf and NaN inputs give kFp32CanonicalNan).
uint32_t fp32_add(uint32_t a, uint32_t b);
/// min/max after DAZ; the DAZ'd operand is returned, so min(+subnormal, +0) = +0.
uint32_t fp32_min(uint32_t a, uint32_t b);
uint32_t fp32_max(uint32_t a, uint32_t b);
uint32_t int32_add(uint32_t a, uint32_t b);
uint32_t int32_min(uint32_t a, uint32_t b);
uint32_t int32_max(uint32_t a, uint32_t b);
/// One ALU lane: a is the table's partial, b the incoming value. Op codes 6 and 7 return a.
uint32_t reduce_lane(AluOp op, uint32_t a, uint32_t b);

// ---- packets -------------------------------------------------------------------------------------

/// One 128-bit flit as four 32-bit lanes; lane k is bits [32k+31:32k].
using RedFlit = std::array<uint32_t, 4>;

/// Reduces a whole flit, lane by lane.
RedFlit reduce_flit(AluOp op, const RedFlit& a, const RedFlit& b);

/// Header kinds ([3:0] of the header flit). Other values are foreign packets (bypassed).
enum class RedKind : uint8_t { PullReq = 1, PullRsp = 2, PushWr = 3, Result = 4, Evict = 5 };

/// The header flit, every bit of it (hx_red_pkg::red_hdr_t):
/// [3:0] kind, [6:4] op, [7] first_hop, [11:8] nflits, [27:12] count, [43:28] expected,
/// [75:44] tag, [91:76] src, [127:92] opaque.
struct RedHeader {
  uint8_t kind = 0;
  uint8_t op = 0;
  bool first_hop = false;
  uint8_t nflits = 0;
  uint16_t count = 0;
  uint16_t expected = 0;
  uint32_t tag = 0;
  uint16_t src = 0;
  uint64_t opaque = 0;  ///< 36 bits

  RedFlit pack() const;
  static RedHeader unpack(const RedFlit& f);
  bool operator==(const RedHeader& o) const { return pack() == o.pack(); }
};

struct RedPacket {
  RedHeader hdr;
  std::vector<RedFlit> data;  ///< hdr.nflits flits (8 for the owned kinds with data)
  bool operator==(const RedPacket& o) const { return hdr == o.hdr && data == o.data; }
  std::string to_string() const;
};

// ---- the table -----------------------------------------------------------------------------------

/// One port's reduction table at the packet level (paper Fig. 5; docs/reduction-unit.md).
///
/// The caller reports what the table's ports show: accept() for every input packet the table
/// takes, with the cycle its header was taken, and idle() for every cycle the table sits at a
/// packet boundary with no output header left waiting from the previous cycle (the only cycles
/// in which the RTL may start a timeout eviction). Both return the output packet the table must
/// produce, if any; output packets appear in the order of these calls.
class ReductionTableRef {
 public:
  explicit ReductionTableRef(unsigned entries, uint32_t timeout = 0);

  void set_timeout(uint32_t timeout) { timeout_ = timeout; }
  /// A packet boundary at cycle now: if a push entry is idle for more than the timeout, the
  /// lowest-index such entry is evicted (EVICT packet, opaque 0) and freed.
  std::optional<RedPacket> idle(uint32_t now);
  /// Would the table refuse this header now (a first-hop PULL_REQ on a full table)?
  bool would_stall(const RedHeader& h) const;
  /// The table takes packet p (header at cycle now). Returns the output packet, if any.
  /// Precondition: !would_stall(p.hdr).
  std::optional<RedPacket> accept(const RedPacket& p, uint32_t now);

  unsigned occupancy() const;
  unsigned entries() const { return static_cast<unsigned>(table_.size()); }

 private:
  struct Entry {
    bool valid = false;
    bool push = false;
    uint32_t tag = 0;
    uint16_t count = 0;
    uint16_t expected = 0;
    uint16_t src = 0;
    uint8_t op = 0;
    uint32_t last = 0;
    std::array<RedFlit, 8> data{};
  };
  int find(uint32_t tag) const;
  int first_free() const;
  RedPacket evict_packet(const Entry& e, uint64_t opaque) const;

  std::vector<Entry> table_;
  uint32_t timeout_;
};

}  // namespace hx
