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
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "plane_model.h"

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

  BoardArray(sc_core::sc_module_name name, std::vector<Board> boards, ErrorHandler on_error);

  /// Called once per cycle with every plane showing cycle t (for waveforms); null: none.
  void set_observer(std::function<void(uint64_t)> f) { observer_ = std::move(f); }

  unsigned num_boards() const { return static_cast<unsigned>(boards_.size()); }
  Board& board(unsigned i) { return boards_.at(i); }
  uint64_t cycle() const { return cycle_; }

 private:
  void on_clock();
  void check(uint64_t t);

  std::vector<Board> boards_;
  std::vector<PlaneModel*> planes_;  // every plane of every board, for the per-cycle loops
  ErrorHandler on_error_;
  std::function<void(uint64_t)> observer_;
  uint64_t cycle_ = 0;
  bool failed_ = false;
};

/// Names of the set bits of a router error_o value.
std::string describe_router_errors(unsigned bits);

}  // namespace hx
