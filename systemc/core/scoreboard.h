// scoreboard.h: the one end-to-end packet scoreboard of every network model.
//
// Every packet a source creates gets a record here, and every copy of it that reaches its end
// is checked against that record: it must arrive exactly once, at an endpoint it was addressed
// to, with its payload intact. What is still missing when the run ends was lost. Both network
// models use it:
//   - the fabric model (boards, fat trees, tori, Dragonflies) through PacketTracker
//     (systemc/check/packet_tracker.h), which adds the flit-level checks of a wormhole network
//     (flits in order, each bit as sent) and the path accounting;
//   - the NVSwitch model (systemc/nvswitch/), whose packets move whole: GPUs and switches create
//     them, GPUs receive them, and a switch port receives the packets that end there (acks to
//     its reduction port, and the writes and responses its reduction unit consumes).
//
// A record's end may be one endpoint (unicast) or several (a multicast delivers `copies`
// copies that share the record). A copy's arrival has two steps, because in a flit-level
// model a packet arrives over many cycles: `arrive` when its first flit does (this is where a
// duplicate or a wrong destination shows), `complete` when its last does. A packet-granular
// model calls both at once. The record is done when every copy is complete.
//
// A multicast record keeps, beside the count of its copies, the sum of a hash of every endpoint
// it was addressed to, minus the same for every endpoint a copy reached; at the end it must be
// 0, so a copy that went to one endpoint twice and to another never is caught even though the
// count is right.
//
// Records live in a window indexed by id that slides forward as the oldest packets are done, so
// memory follows the packets in flight, not the length of the run. `Extra` is what a model
// keeps per packet beside the common fields (the fabric's path accounting, for example); it
// lives in the same record, so the per-flit path touches one cache line per packet.
//
// Endpoints are numbered by the model (int32): a fabric's accelerators 0..n-1; an NVSwitch
// system's GPUs 0..n-1 and its switch ports as negative numbers. The model names them for the
// messages (set_namer).
#pragma once

#include <cstdint>
#include <functional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace hx {

/// The counts every run reports in its `checks` section (with lost, deadlock and passed, which
/// the run decides at its end).
struct ScoreboardCounts {
  uint64_t created = 0;       ///< packets their sources created
  uint64_t injected = 0;      ///< ... that entered the network
  uint64_t delivered = 0;     ///< ... every copy of which reached its end
  uint64_t duplicated = 0;    ///< copies that arrived again
  uint64_t corrupted = 0;     ///< packets that arrived different from what was sent, or unattributable arrivals
  uint64_t misdelivered = 0;  ///< copies that arrived at an endpoint they were not addressed to
};

/// The `checks` every run reports, with the same keys for every model.
struct RunChecks {
  uint64_t injected = 0, delivered = 0, lost = 0, duplicated = 0, corrupted = 0, misdelivered = 0;
  bool deadlock = false, passed = false;
};

/// Write the checks into a results document's object `j` (any JSON type with operator[]), in the
/// order of the schema.
template <class Json>
void write_checks(Json& j, const RunChecks& c) {
  j["injected"] = c.injected;
  j["delivered"] = c.delivered;
  j["lost"] = c.lost;
  j["duplicated"] = c.duplicated;
  j["corrupted"] = c.corrupted;
  j["misdelivered"] = c.misdelivered;
  j["deadlock"] = c.deadlock;
  j["passed"] = c.passed;
}

struct NoExtra {};

template <class Extra = NoExtra>
class Scoreboard {
 public:
  using Id = uint64_t;
  enum class State : uint8_t { Free, Created, InFlight, Done };

  struct Record {
    int32_t src = 0, dst = 0;  ///< dst of a multicast: what the model calls its group
    uint16_t copies = 1;       ///< copies that complete the packet (multicast: one per endpoint reached)
    uint16_t arriving = 0;     ///< copies whose first flit arrived
    uint16_t arrived = 0;      ///< copies complete
    State state = State::Free;
    bool bad = false;           ///< already counted as corrupted (once per packet)
    bool multicast = false;     ///< its endpoints were named with address()
    uint64_t created = 0;       ///< cycle
    uint64_t payload_hash = 0;  ///< what the source sent; 0 for packets without data
    /// Multicast: the sum of endpoint_hash over the addressed endpoints minus the sum over the
    /// endpoints its copies reached, 0 when they are the same set (unicast: always 0).
    uint64_t unreached = 0;
    Extra x{};
  };

  /// How an arrival went.
  enum class Outcome : uint8_t {
    Ok,
    Misdelivered,  ///< at an endpoint it was not addressed to (counted; the record is returned)
    Duplicate,     ///< a copy more than were sent (counted; no record)
    Unknown,       ///< no such packet, or not injected yet (counted as corrupted; no record)
  };
  struct Arrival {
    Outcome outcome = Outcome::Unknown;
    Record* record = nullptr;
  };

  explicit Scoreboard(std::size_t window = 1u << 12) : ring_(round_up(window)) {}

  /// Name endpoints in messages (default: "endpoint N").
  void set_namer(std::function<std::string(int32_t)> namer) { namer_ = std::move(namer); }

  /// A packet from `src` to `dst`; `copies` endpoints must receive it; `payload_hash` is what
  /// its payload hashes to (0: none). Returns its id: ids count up from 0.
  Id create(int32_t src, int32_t dst, uint64_t cycle, unsigned copies = 1, uint64_t payload_hash = 0) {
    if (copies == 0 || copies > UINT16_MAX)
      throw std::invalid_argument("Scoreboard: a packet has 1..65535 copies, not " + std::to_string(copies));
    const Id id = base_ + live_;
    if (live_ == ring_.size()) grow();
    Record& r = ring_[id & (ring_.size() - 1)];
    r = Record{};
    r.src = src;
    r.dst = dst;
    r.copies = static_cast<uint16_t>(copies);
    r.state = State::Created;
    r.created = cycle;
    r.payload_hash = payload_hash;
    ++live_;
    ++counts_.created;
    return id;
  }
  /// A multicast's addressed endpoint: call once per endpoint after create.
  void address(Record& r, int32_t endpoint) {
    r.multicast = true;
    r.unreached += endpoint_hash(endpoint);
  }

  Record* find(Id id) { return id >= base_ && id < base_ + live_ ? &ring_[id & (ring_.size() - 1)] : nullptr; }
  const Record* find(Id id) const {
    return id >= base_ && id < base_ + live_ ? &ring_[id & (ring_.size() - 1)] : nullptr;
  }

  /// The packet's first flit entered the network.
  void injected(Record& r) {
    if (r.state != State::Created) return;
    r.state = State::InFlight;
    ++counts_.injected;
  }

  /// The first flit of a copy of `id` reached `at`; `addressed`: the packet was meant for it.
  /// A duplicate or an unknown packet yields no record; a misdelivered copy yields its record,
  /// and the caller decides whether to go on checking it.
  Arrival arrive(Id id, int32_t at, bool addressed, uint64_t cycle) {
    return arrive_where(id, at, cycle, [addressed](const Record&) { return addressed; });
  }
  /// The same for a unicast packet, which is addressed to its dst alone.
  Arrival arrive(Id id, int32_t at, uint64_t cycle) {
    return arrive_where(id, at, cycle, [at](const Record& r) { return r.dst == at; });
  }

  /// The last flit of a copy arrived; with `payload_hash` given, it must match what was sent.
  /// When every copy is complete the record is done and may be retired: do not use it after.
  void complete(Id id, Record& r, uint64_t cycle) {
    ++r.arrived;
    if (r.arrived < r.copies) return;
    if (r.unreached != 0) {
      ++counts_.duplicated;  // every copy went to an addressed endpoint: one of them got two
      note(at_cycle(cycle) + "multicast packet " + std::to_string(id) + " from " + name(r.src) +
           " reached its count of copies, but not every endpoint it was addressed to");
    }
    r.state = State::Done;
    ++counts_.delivered;
    retire();
  }
  /// The payload of a copy differs from what was sent: `got` is the arriving payload's hash.
  bool payload_ok(Id id, Record& r, uint64_t got, int32_t at, uint64_t cycle) {
    if (got == r.payload_hash) return true;
    corrupt(&r, at_cycle(cycle) + name(at) + ": packet " + std::to_string(id) + " from " + name(r.src) +
                    ": its payload differs from what was sent");
    return false;
  }

  /// Count a corrupted packet (once per record; r may be null for an unattributable arrival).
  void corrupt(Record* r, const std::string& msg) {
    if (r != nullptr) {
      if (r->bad) return;
      r->bad = true;
    }
    ++counts_.corrupted;
    note(msg);
  }
  void note(std::string msg) {
    if (messages_.size() < kMaxMessages) messages_.push_back(std::move(msg));
  }

  const ScoreboardCounts& counts() const { return counts_; }
  /// Packets created and not done: lost, when the run has ended.
  uint64_t outstanding() const { return counts_.created - counts_.delivered; }
  const std::vector<std::string>& messages() const { return messages_; }
  static constexpr std::size_t kMaxMessages = 32;

  /// Every record not yet retired, oldest first: f(id, record).
  template <class F>
  void for_each_live(F f) const {
    for (Id i = base_; i < base_ + live_; ++i) f(i, ring_[i & (ring_.size() - 1)]);
  }
  std::string name(int32_t endpoint) const {
    return namer_ ? namer_(endpoint) : "endpoint " + std::to_string(endpoint);
  }

  /// Cache hint: the record of `id` (no effect on state).
  void prefetch(Id id) const { __builtin_prefetch(&ring_[id & (ring_.size() - 1)], 1); }

 private:
  // arrive(): `addressed(record)` says whether the packet was meant for `at`; the record is
  // found once.
  template <class Addressed>
  Arrival arrive_where(Id id, int32_t at, uint64_t cycle, Addressed addressed) {
    Arrival a;
    Record* r = find(id);
    if (r == nullptr && id < base_) {  // retired: every copy arrived before
      duplicate(id, at, cycle);
      a.outcome = Outcome::Duplicate;
      return a;
    }
    if (r == nullptr || r->state == State::Created) {
      unknown_arrival(id, at, cycle);
      return a;
    }
    if (r->arriving >= r->copies) {
      duplicate(id, at, cycle);
      a.outcome = Outcome::Duplicate;
      return a;
    }
    ++r->arriving;
    if (r->multicast) r->unreached -= endpoint_hash(at);
    a.record = r;
    a.outcome = Outcome::Ok;
    if (!addressed(*r)) {
      misdelivered(id, *r, at, cycle);
      a.outcome = Outcome::Misdelivered;
    }
    return a;
  }
  // The error paths build messages: kept out of line (and marked cold) so that arrive_where,
  // run for every packet, stays small enough to inline into its callers.
  [[gnu::cold, gnu::noinline]] void unknown_arrival(Id id, int32_t at, uint64_t cycle) {
    corrupt(nullptr,
            at_cycle(cycle) + name(at) + ": arrival of unknown or not yet injected packet " + std::to_string(id));
  }
  [[gnu::cold, gnu::noinline]] void misdelivered(Id id, const Record& r, int32_t at, uint64_t cycle) {
    ++counts_.misdelivered;
    note(at_cycle(cycle) + "packet " + std::to_string(id) + " for " + name(r.dst) + " arrived at " + name(at));
  }
  static std::size_t round_up(std::size_t n) {
    std::size_t s = 1;
    while (s < n) s <<= 1;
    return s;
  }
  // splitmix64 of the endpoint number: sums of distinct endpoints' hashes practically never
  // collide, so a multicast's reached set is checked by one number.
  static uint64_t endpoint_hash(int32_t e) {
    uint64_t z = static_cast<uint64_t>(static_cast<int64_t>(e)) + 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  static std::string at_cycle(uint64_t cycle) { return "cycle " + std::to_string(cycle) + ": "; }
  [[gnu::cold, gnu::noinline]] void duplicate(Id id, int32_t at, uint64_t cycle) {
    ++counts_.duplicated;
    note(at_cycle(cycle) + name(at) + ": packet " + std::to_string(id) + " arrived again (duplicate)");
  }
  // Grow the window (rare: only when more packets are in flight than ever before).
  void grow() {
    std::vector<Record> bigger(ring_.size() * 2);
    for (Id i = base_; i < base_ + live_; ++i) bigger[i & (bigger.size() - 1)] = ring_[i & (ring_.size() - 1)];
    ring_.swap(bigger);
  }
  void retire() {
    while (live_ > 0 && ring_[base_ & (ring_.size() - 1)].state == State::Done) {
      ++base_;
      --live_;
    }
  }

  std::vector<Record> ring_;  // records of ids [base_, base_ + live_), power-of-two capacity
  Id base_ = 0;
  uint64_t live_ = 0;
  ScoreboardCounts counts_;
  std::vector<std::string> messages_;
  std::function<std::string(int32_t)> namer_;
};

}  // namespace hx
