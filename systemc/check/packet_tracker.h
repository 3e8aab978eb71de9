// packet_tracker.h: the run's scoreboard, checking every packet end to end.
//
// Each packet gets a record when its source creates it: source and destination endpoint,
// length, VC, creation cycle, whether it counts for the measurement window. Its flits carry,
// in the payload above the routing header, the packet id and a checksum (head) or a
// deterministic pattern of (id, index) (body and tail), see systemc/core/hx_flit.h; so every arriving
// flit can be checked on its own, without storing payloads.
//
// The packet-level checks are those of every model, in the shared Scoreboard
// (systemc/core/scoreboard.h): a packet's head is its arrival, its tail completes it. On top of
// them, at each destination, per VC, flits must arrive as one contiguous packet in order: a head
// opens the (endpoint, VC) assembly, body flits continue it with the next index, the tail
// closes it. A flit is checked against the flit its source sent, bit for bit except the VC
// field (the routers rewrite it). Problems are counted:
//   duplicated    a head of a packet that already arrived or is arriving
//   corrupted     a flit that differs from what was sent, an unattributable flit (bad checksum,
//                 unknown id, body with no open packet), or a broken type sequence
//   misdelivered  a packet that arrived at another endpoint than its destination
// A packet still undelivered at the end of the run is lost.
//
// Data packets (a DMA engine's payloads, see collective_engine.h) carry data in their body
// flits instead of the pattern: their source gives the tracker a hash of the body when it
// creates them, and the destination's body flits must fold to the same hash by the tail.
//
// An accelerator may have several local ports (lanes) into its router; flits of two packets can
// then interleave on one VC at one endpoint, so assembly is per (endpoint, lane, VC).
//
// The records are the scoreboard's, with the fabric's own fields (Path) in them.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "hx_flit.h"
#include "scoreboard.h"

namespace hx {

/// Where an endpoint sits: the header's board and node coordinates.
struct EndpointAddress {
  unsigned board_x = 0, board_y = 0, node_x = 0, node_y = 0;
};

/// The scoreboard's counts (created, injected, delivered, duplicated, corrupted, misdelivered:
/// packets) and what the fabric model checks beyond them.
struct TrackerCounts : ScoreboardCounts {
  uint64_t flits_injected = 0, flits_delivered = 0;
  /// Router and switch traversals of the delivered flits: each packet's flits times the routers
  /// and switches of its path (see the path accounting below).
  uint64_t flit_hops = 0;
  /// Cable micrometres the packets' heads travelled (a packet counts once, not per flit): each
  /// switch adds its output cable's layout length as it sends a head on (NetworkSwitch), so when
  /// every packet was delivered this is the sum over the delivered packets' paths; 0 where the
  /// builder gave no lengths.
  uint64_t cable_um = 0;
  /// The longest path of a delivered packet in cables, as the HammingMesh paper counts a
  /// diameter (section III-B): on-board links plus cables to, between and from switches.
  unsigned max_path_cables = 0;
  unsigned max_trees = 0;  ///< most fat trees one packet crossed
  /// Transits: a packet's head crossed the router of an accelerator that is neither its source
  /// nor its destination, from one link to another (a rail-only cluster's PXN relay through a
  /// GPU of the destination's rail; every intermediate router of a torus). Of the delivered
  /// packets: how many crossed one at least, all crossings, the most of one packet, and the
  /// latency sums of the measured ones with transits and without.
  uint64_t transit_packets = 0, transits = 0;
  unsigned max_transits = 0;
  uint64_t transit_latency_sum = 0, transit_measured = 0, direct_latency_sum = 0, direct_measured = 0;
  unsigned max_vc = 0;  ///< highest VC a packet arrived on
  /// Packets that crossed more than two trees or arrived on a VC above 2 (the paper's rule:
  /// at most two trees, at most three VCs).
  uint64_t path_violations = 0;
  /// Packets that entered a board of another job (or of none), with set_jobs.
  uint64_t foreign_boards = 0;
};

class PacketTracker {
 public:
  /// `addresses[e]` is endpoint e's address (what heads for it carry); every endpoint has
  /// `lanes` local ports, and packets arrive on VCs 0 .. vcs-1.
  PacketTracker(const FlitFormat& fmt, std::vector<EndpointAddress> addresses, unsigned lanes = 1, unsigned vcs = 4);

  /// A new packet from endpoint src to dst of `length` flits; returns its id.
  uint32_t create(unsigned src, unsigned dst, unsigned length, uint64_t cycle, bool measured);

  // Packets that wait at their source. Above saturation an unbounded source queue holds millions
  // of packets; a record each (and the window of records from the oldest queued one on) took
  // hundreds of MB. So a source keeps a waiting packet compactly and gives it its record only
  // when it starts to inject it. Until then the tracker counts it: it is created, outstanding,
  // and lost if the run ends first.
  /// A source created a packet that waits in its queue, without a record yet.
  void queue_at_source(bool measured) {
    ++queued_;
    if (measured) ++queued_measured_;
  }
  /// The source takes a waiting packet (queue_at_source) to inject it: its record, created back in
  /// `created_cycle`; returns its id.
  uint32_t create_queued(unsigned src, unsigned dst, unsigned length, uint64_t created_cycle, bool measured) {
    --queued_;
    if (measured) --queued_measured_;
    return create(src, dst, length, created_cycle, measured);
  }
  /// A new data packet: its body flits are `body[0 .. length-2]`, whose data_hash the source
  /// passes; `user` is the source's own tag, handed back with every flit on delivery.
  uint32_t create_data(unsigned src, unsigned dst, unsigned length, uint64_t cycle, uint64_t user, uint64_t body_hash);
  /// The hash of a data packet's body flits, as the tracker folds them on delivery.
  static uint64_t data_hash(const Payload* body, unsigned flits);

  /// Flit `index` of packet `id`, exactly as its source sends it on `vc`.
  Flit flit(uint32_t id, unsigned index, unsigned vc) const;

  /// The source put flit `index` of `id` on its link in `cycle`; `last`: it was the tail. Only
  /// the head and the tail touch the packet's record.
  void on_injected(uint32_t id, unsigned index, bool last, uint64_t cycle);

  struct Arrival {
    bool ok = false;           ///< the flit belongs to a known packet, in sequence
    uint32_t id = 0;           ///< ... this one
    unsigned index = 0;        ///< ... as its flit number `index`
    uint64_t user = 0;         ///< the tag its source gave a data packet (on its head and tail)
    bool packet_done = false;  ///< the flit completed a packet
    bool measured = false;     ///< ... one created in the measurement window
    uint64_t latency = 0;      ///< ... cycles from creation to its tail's arrival
  };
  // Path accounting. The boards' routing is minimal on every board (the router tests check
  // it), so a packet crosses |dx| + |dy| + 1 routers between where it enters a board and where
  // it leaves; the fabric reports those points with the heads it forwards, and the tracker
  // adds up routers, switches and trees per packet. A path's cables are then
  // routers + switches - 1 (every cable joins two of them).
  /// Check the HammingMesh rule on every delivered packet (off for a single board, where a
  /// packet may use any VC under vc_policy any): at most two trees, and VCs up to `max_vc`
  /// (the paper's 2; a topology whose scheme needs more says so: FabricTopology::max_path_vc).
  void check_path_rule(bool on, unsigned max_vc = 2) {
    path_rule_ = on;
    max_path_vc_ = max_vc;
  }
  /// The head `head` left its board into a fat tree through the edge port of router (x, y).
  void on_board_exit(const Flit& head, unsigned x, unsigned y);
  /// The head crossed one switch and left it on a cable of `cable_um` micrometres (0: no length);
  /// `transit`: the switch is an accelerator's router, entered and left by links (a transit).
  void on_switch(const Flit& head, uint32_t cable_um = 0, bool transit = false);
  /// The head entered board `board` from a fat tree through the edge port of router (x, y).
  void on_board_entry(const Flit& head, unsigned board, unsigned x, unsigned y);
  /// The boards' routers are C++ switches (router.model switch): each reports its hops by
  /// on_switch, as a torus router does, and no board exit or entry is reported. A path's routers
  /// are then counted among its switches, and its trees are its VC on arrival (a packet takes
  /// VC+1 each time it leaves a board into a tree).
  void count_board_routers_as_switches() { board_switches_ = true; }

  /// Jobs that share the system (concurrent collectives): board_job[b] is the job that owns
  /// board b (-1: none), endpoint_job[e] the job of endpoint e. A packet that enters a board
  /// its job does not own is counted in foreign_boards (the allocator's promise is that no
  /// packet ever does, HammingMesh paper sec. IV-A).
  void set_jobs(std::vector<int> board_job, std::vector<int> endpoint_job);

  /// Cache hints for a loop over the endpoints (no effect on state): the assembly entries of
  /// `dst`'s lanes, and the records the next flits there will read (those entries are read):
  /// an open packet's record unless it is a data packet in its body.
  void prefetch_assembly(unsigned dst) const {
    const Assembly* a = &assembly_[std::size_t{dst} * lanes_ * vcs_];
    constexpr unsigned kPerLine = 64 / sizeof(Assembly);
    for (unsigned k = 0; k < lanes_ * vcs_; k += kPerLine) __builtin_prefetch(a + k, 1);
  }
  void prefetch_open_packets(unsigned dst) const {
    const Assembly* a = &assembly_[std::size_t{dst} * lanes_ * vcs_];
    for (unsigned k = 0; k < lanes_ * vcs_; ++k) {
      if (a[k].id != UINT32_MAX && (a[k].length == 0 || a[k].next + 1u == a[k].length)) sb_.prefetch(a[k].id);
    }
  }

  /// A flit arrived at endpoint `dst` through its local port `lane` in `cycle`: check it.
  Arrival on_delivered(unsigned dst, unsigned lane, const Flit& f, uint64_t cycle);
  Arrival on_delivered(unsigned dst, const Flit& f, uint64_t cycle) { return on_delivered(dst, 0, f, cycle); }

  /// The counts; `created` includes the packets still waiting at their sources.
  TrackerCounts counts() const {
    TrackerCounts c = counts_;
    static_cast<ScoreboardCounts&>(c) = sb_.counts();
    c.created += queued_;
    return c;
  }
  /// Packets created and not delivered, those waiting at their sources included.
  uint64_t outstanding() const { return sb_.outstanding() + queued_; }
  uint64_t measured_outstanding() const { return measured_created_ + queued_measured_ - measured_delivered_; }
  /// Packets waiting at their sources without a record.
  uint64_t queued() const { return queued_; }
  /// Packets with flits injected and not all delivered.
  uint64_t in_network() const;

  /// First problem messages (the rest are only counted).
  const std::vector<std::string>& messages() const { return sb_.messages(); }

  /// A description of up to `max` undelivered packets, for deadlock and loss reports.
  std::string describe_undelivered(std::size_t max) const;
  std::string describe_packet(uint32_t id) const;

 private:
  // What the fabric keeps per packet beside the scoreboard's fields. A packet's record is
  // written when it is created, injected (head and tail) and delivered (head and tail). A data
  // packet's body flits touch only their assembly entry: a thousand-accelerator system delivers
  // thousands of flits per cycle, and a record per flit was a cache miss per flit.
  struct Path {
    uint16_t length = 0;
    uint16_t injected = 0;   ///< 0, 1 (head sent) or length (tail sent)
    uint16_t delivered = 0;  ///< flits delivered; of a data packet, as of its head or tail
                             ///< (its body flits are counted in the Assembly entry)
    bool measured = false;
    bool data = false;  ///< a data packet: body checked by the record's payload_hash
    uint8_t trees = 0, switches = 0, transits = 0;
    uint8_t at_x = 0, at_y = 0;  ///< router where the packet entered its current board
    uint16_t routers = 0;        ///< routers crossed on the boards it has left
    uint64_t user = 0;
  };
  using Board = Scoreboard<Path>;
  using Record = Board::Record;
  using State = Board::State;

  // The packet open at one (endpoint, lane, VC). For a data packet it also keeps what its body
  // flits need, so that they are checked without the record.
  struct Assembly {
    uint32_t id = UINT32_MAX;  ///< the open packet, or none
    uint16_t next = 0;         ///< the index its next flit must have
    uint16_t length = 0;       ///< a data packet's length in flits; 0: not a data packet
    uint64_t folded = 0;       ///< a data packet's body hash so far
  };
  const Assembly* assembly_of(uint32_t id, unsigned dst) const;

  Record* find(uint32_t id) { return sb_.find(id); }
  const Record* find(uint32_t id) const { return sb_.find(id); }
  Record* find_head(const Flit& head);
  Header header_of(const Record& r) const;

  FlitFormat fmt_;
  std::vector<EndpointAddress> addr_;
  Board sb_;
  unsigned lanes_ = 1;
  unsigned vcs_ = 4;
  std::vector<Assembly> assembly_;  // [(endpoint * lanes + lane) * vcs + vc]
  TrackerCounts counts_;            // the fabric's own counts (the scoreboard keeps the packets')
  uint64_t measured_created_ = 0, measured_delivered_ = 0;  // of the packets with records
  uint64_t queued_ = 0, queued_measured_ = 0;               // waiting at their sources (queue_at_source)
  bool path_rule_ = false;
  bool board_switches_ = false;
  unsigned max_path_vc_ = 2;
  std::vector<int> board_job_, endpoint_job_;
};

}  // namespace hx
