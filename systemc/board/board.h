// board.h: a HammingMesh board in the SystemC netlist.
//
// A board carries one or more planes (the paper's boards have one router plane per network
// port of the accelerator; packets never change plane). Each plane is one Verilated model of
// rtl/hx_board_plane.sv, so crossing into SystemC happens once per plane and cycle, not once
// per router. The board's clocked process steps every plane, and checks the routers' sticky
// error flags: a broken contract (flit without buffer, credit overflow, missing VC, orphan
// flit) stops the run through the callback with the board's name and the error bits.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "plane_model.h"

namespace hx {

class Board : public sc_core::sc_module {
 public:
  sc_core::sc_in<bool> clk;

  using ErrorHandler = std::function<void(const std::string&)>;

  Board(sc_core::sc_module_name name, std::vector<std::unique_ptr<PlaneModel>> planes,
        ErrorHandler on_error);

  /// Called once per cycle with every plane showing cycle t (for waveforms); null: none.
  void set_observer(std::function<void(uint64_t)> f) { observer_ = std::move(f); }

  unsigned num_planes() const { return static_cast<unsigned>(planes_.size()); }
  PlaneModel& plane(unsigned p) { return *planes_.at(p); }
  uint64_t cycle() const { return cycle_; }

 private:
  void on_clock();

  std::vector<std::unique_ptr<PlaneModel>> planes_;
  ErrorHandler on_error_;
  std::function<void(uint64_t)> observer_;
  uint64_t cycle_ = 0;
  bool failed_ = false;
};

/// Names of the set bits of a router error_o value.
std::string describe_router_errors(unsigned bits);

}  // namespace hx
