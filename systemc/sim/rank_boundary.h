// rank_boundary.h: the links a partitioned run splits between processes (docs/scale.md).
//
// `mpirun -np R hxsim run CONFIG --partition auto` runs one system in R processes (ranks), each
// with its own SystemC kernel. Every rank builds the whole netlist from the config, exactly as a
// run in one process does, and steps only its part of it:
//   - rank 0: the accelerators with their DMA engines, the scoreboard, the run control and
//     watchdog, the edge ports and switches, and its share of the RTL board planes;
//   - rank r > 0: its share of the board planes (plane_ranks()).
// The board planes are where a HammingMesh run spends most of its time (docs/scale.md), and a
// plane touches the rest of the system only through the links at its ports. Those links of the
// planes another rank steps are the boundary.
//
// Each rank has its own copy of a boundary link, and one end of it to step:
//   - What that end writes (a unit on the sender's side, a credit on the receiver's) is taken
//     from the copy at the end of the cycle it was written in, as the end this rank does not step
//     would take it on arrival, and shipped to the peer, which makes the same call on its copy for
//     the same cycle (send(t, unit), return_credit(t, vc)). So on the peer's copy, whose end reads
//     it, counters, slots and arrival horizons move exactly as in one process.
//   - Taking it early leaves this rank's copy a cycle's slot free for the next write; only the
//     counters of the end nobody here steps run ahead, which nothing on this rank reads (the
//     results count what the senders sent, and a run ends with no flit in flight).
// A write in cycle t arrives in cycle t+1+latency at the earliest (credit_link.h), so the ranks
// need to swap only every W cycles, where W, the window, is the smallest 1+latency over the
// boundary: what a rank writes in a window arrives after it. A plane's edge links have latency 0
// (the edge port models the cable), so W is 1 on every HammingMesh; a lone board's links to its
// accelerators allow more.
//
// Each swap is two messages per rank r > 0, sent at once: r's writes (and its model errors) to
// rank 0, and rank 0's writes to r. Rank 0 alone decides when the run ends, with the same run
// control as in one process. When it has stopped (the run drained in cycle T, or a peer's model
// error arrived), the others have stepped to the end of the next window and wait in its swap:
// rank 0 completes that swap, installs their writes of cycles up to T, and tells them to stop.
// The scoreboard, watchdog and deadlock detection are rank 0's, whole, so they work unchanged;
// every endpoint is in rank 0, so no random stream depends on the partition. The results are
// the same as in one process (tests/partition_test.cpp).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "arrival_horizon.h"
#include "flit_link.h"
#include "mpi_world.h"

namespace hx {

class BoardArray;

/// Which rank steps each of `planes` board planes (in board order, board 0's planes first) for
/// `ranks` ranks: contiguous blocks, rank 0's smaller because it also runs every C++ component.
/// Throws std::invalid_argument when a rank would get no plane.
std::vector<unsigned> plane_ranks(unsigned planes, unsigned ranks);

/// What rank 0 runs besides planes, in planes per plane of the system: its C++ components, and
/// its side of the boundary. Measured on the 1,024-accelerator allreduce (64 planes, 1 MiB, two
/// ranks; docs/scale.md): with 19 planes rank 0 was the bottleneck (rank 1 waited 20 s of 72),
/// with 11 the two waited 3.6 and 5.0 s; 11 of 64 is what 0.65 gives.
inline constexpr double kRankZeroLoadPerPlane = 0.65;

class RankBoundary : public sc_core::sc_module {
 public:
  sc_core::sc_in<bool> clk;

  /// One boundary link: the rank that steps its other end, and which end this rank steps.
  struct Crossing {
    FlitLink* link = nullptr;
    unsigned peer = 0;
    bool sends = false;  ///< this rank steps the sender (else the receiver)
  };
  using ErrorHandler = std::function<void(const std::string&)>;

  /// `links`: this rank's boundary, in the same order on both sides of each pair of ranks.
  /// `window`: W, at most the smallest 1 + latency of every boundary link of the run.
  /// Rank 0: `on_peer_error` takes a model error of a peer's planes.
  /// Every rank: `boards`, whose idle-plane count rank 0 reports for all, and whose cycle count
  /// is the run's on rank 0.
  RankBoundary(sc_core::sc_module_name name, MpiWorld& world, const std::vector<Crossing>& links, unsigned window,
               ErrorHandler on_peer_error, const BoardArray& boards);

  unsigned window() const { return window_; }
  unsigned ranks() const { return world_.size(); }
  /// A rank > 0: a model error of its planes, for rank 0 (sent with the next swap).
  void report_error(const std::string& e);
  /// The run is over for this rank (rank 0: after finish()).
  bool stopped() const { return stopped_; }
  /// Rank 0, after its kernel stopped: complete the swap the others wait in, and stop them.
  void finish();
  /// Rank 0: the plane-cycles the other ranks' planes were idle (BoardArray::skipped_plane_cycles),
  /// up to the last cycle of the run.
  uint64_t peer_idle_plane_cycles() const;
  /// Rank 0: the seconds each rank (rank 0 first) waited in swaps for the others, as the peers
  /// last said: how well the planes are balanced.
  std::vector<double> wait_seconds() const;

 private:
  struct Link {
    FlitLink* link;
    uint32_t lead;  // 1 + latency
    bool sends;
    const ArrivalHorizon* written;  // raised by this rank's end's writes (see below)
  };
  // The end of a boundary link that this rank does not step has no use here for its arrival
  // horizon (arrival_horizon.h): the link raises it on every write of this rank's end, to the
  // write's arrival cycle, so the boundary takes it over. A write in cycle t raised it to exactly
  // t + lead, so the links whose horizon is below that are skipped; blocks of kBlock links share
  // a horizon too (each link's is part of it), so a quiet block costs one load.
  static constexpr std::size_t kBlock = 32;
  struct Peer {
    unsigned rank = 0;
    std::vector<Link> links;
    std::unique_ptr<ArrivalHorizon[]> horizons;  // one per link, then one per block
    std::vector<uint8_t> units, credits;         // this window's records for it
    uint32_t unit_count = 0, credit_count = 0;
    uint64_t idle = 0;  // rank 0: its idle plane-cycles at the last cycle installed
    double waited = 0;  // rank 0: its seconds waiting, as it last said
  };

  void on_clock_low();
  /// Cycle t on this rank's copies of the boundary: take what this rank's ends wrote, for the
  /// peers.
  void close(uint64_t t);
  void swap();
  /// Post this window's message to every peer (`stop`: the run has ended, no records) and start
  /// the next window's records.
  void post_messages(bool stop);
  /// The peer's next message into inbox_, timing the wait.
  void receive(const Peer& p);
  std::vector<uint8_t> message(const Peer& p, bool stop) const;
  /// Install a peer's message, up to its cycle `last` (its writes of later cycles did not happen
  /// in the run). Returns its stop flag.
  bool install(Peer& p, const std::vector<uint8_t>& m, uint64_t last);

  MpiWorld& world_;
  unsigned window_;
  ErrorHandler on_peer_error_;
  const BoardArray& boards_;
  std::vector<Peer> peers_;  // rank 0: every other rank; rank r > 0: rank 0
  uint64_t cycle_ = 0;       // the next cycle to close
  uint64_t window_start_ = 0;
  std::vector<uint64_t> idle_;  // rank > 0: its idle plane-cycles after each cycle of the window
  std::string error_;           // rank > 0: its first model error, not yet sent
  bool error_sent_ = false;
  bool stopped_ = false;
  double waited_ = 0;                         // seconds this rank waited in receive()
  std::vector<std::vector<uint8_t>> outbox_;  // this swap's messages, until they are sent
  std::vector<uint8_t> inbox_;
};

}  // namespace hx
