// board.h: the HammingMesh boards of the SystemC netlist.
//
// A board carries one or more planes (the paper's boards have one router plane per network
// port of the accelerator; packets never change plane). Each plane is one Verilated model of
// rtl/hx_board_plane.sv, so crossing into SystemC happens once per plane and cycle, not once
// per router.
//
// All boards of a system are stepped by one clocked process (BoardArray): per cycle it drives
// every plane's inputs, then (for waveforms) settles them and calls the observer, then clocks
// them. One process rather than one per board keeps the kernel's per-process cost out of
// systems of a thousand boards, and it makes a waveform dump see every plane in the same cycle.
// After each cycle it checks the routers' sticky error flags: a broken contract (flit without
// buffer, credit overflow, missing VC, orphan flit) stops the run through the callback with the
// board's name and the error bits.
//
// Threads. The planes of a cycle are independent of each other and of the rest of the cycle: a
// plane reads what its links deliver in cycle t, which every component wrote in earlier cycles,
// and what it writes lands in cycle t+1 or later (flit_link.h). So with `threads` > 1 the
// planes of cycle t are stepped by a WorkerPool: they start at the falling clock edge of cycle
// t-1, when every component has finished cycle t-1, and run while the accelerators and the
// fabric handle their part of cycle t on the main thread; at the falling edge of cycle t the
// main thread steps the planes nobody has started yet, waits for the rest, checks the error
// flags and starts cycle t+1. A model error found there stops the run after cycle t, as it does
// single-threaded (the accelerators, whose cycle counter the stop reads, run before the boards
// in a cycle either way). Results do not depend on the thread count. With an observer
// (waveforms) every plane is stepped on the main thread, in the clock's rising edge.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "plane_model.h"
#include "worker_pool.h"

namespace hx {

/// One board: its name (for reports) and its planes.
struct Board {
  std::string name;
  std::vector<std::unique_ptr<PlaneModel>> planes;
};

class BoardArray : public sc_core::sc_module {
 public:
  sc_core::sc_in<bool> clk;

  using ErrorHandler = std::function<void(const std::string&)>;

  /// `threads`: how many threads step the planes, the SystemC thread included (1: only it).
  /// `stepped`: which planes this process steps, in board order (every board's planes, board 0
  /// first); empty: all. A partitioned run steps its share of them (sim/rank_boundary.h).
  BoardArray(sc_core::sc_module_name name, std::vector<Board> boards, ErrorHandler on_error, unsigned threads = 1,
             const std::vector<bool>& stepped = {});
  ~BoardArray() override;

  /// Called once per cycle with every plane showing cycle t (for waveforms); null: none.
  void set_observer(std::function<void(uint64_t)> f) { observer_ = std::move(f); }

  unsigned num_boards() const { return static_cast<unsigned>(boards_.size()); }
  Board& board(unsigned i) { return boards_.at(i); }
  uint64_t cycle() const { return cycle_; }
  /// Threads that step the planes (1 without workers).
  unsigned threads() const { return threads_; }
  /// Planes of every board.
  unsigned num_planes() const { return num_planes_; }
  /// Plane-cycles whose clock edge was skipped: the plane was idle and nothing arrived
  /// (PlaneModel::skipped_edges); of the planes this process steps.
  uint64_t skipped_plane_cycles() const {
    uint64_t n = 0;
    for (const PlaneModel* p : planes_) n += p->skipped_edges();
    return n;
  }

  /// Wait for the planes of a cycle still being stepped (after the kernel stopped).
  void finish();

 private:
  void on_clock();
  void on_clock_low();
  void launch();                            // start the planes of the next cycle on the pool
  void step_plane(unsigned i, uint64_t t);  // drive and clock plane i for cycle t
  void check(uint64_t t);

  std::vector<Board> boards_;
  std::vector<PlaneModel*> planes_;  // every plane this process steps, for the per-cycle loops
  unsigned num_planes_ = 0;
  ErrorHandler on_error_;
  std::function<void(uint64_t)> observer_;
  uint64_t cycle_ = 0;
  bool failed_ = false;
  unsigned threads_ = 1;
  uint64_t pool_cycle_ = 0;           // the cycle the pool is stepping ...
  bool launched_ = false;             // ... while this is set
  std::unique_ptr<WorkerPool> pool_;  // last: destroyed (joined) before the planes
};

/// Names of the set bits of a router error_o value.
std::string describe_router_errors(unsigned bits);

}  // namespace hx
