// hammingmesh_fabric.h: what joins the boards of a HammingMesh: the row and column fat trees,
// their cables, and the boards' edge ports.
//
// Wiring (section III of the paper, one plane): the E and W edge ports of every line (row) of
// accelerators go to a row tree, the N and S edge ports of every column to a column tree. A
// tree serves one line of accelerators across the boards of a board row (column), or, with
// span `board`, all lines of that board row (column) at once. A tree with no more ports than
// the switch radix is one switch; a larger one is a two-level fat tree (TreeShape). Every
// cable, board to switch and switch to switch, is a FlitLink with the links.global latency in
// each direction; the edge ports sit between the routers and the cables (edge_port.h).
//
// The fabric is one SystemC module with one clocked process that steps every edge port and
// switch, plain C++ objects, once per cycle.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include <systemc>

#include "edge_port.h"
#include "fat_tree_switch.h"
#include "flit_link.h"
#include "plane_model.h"
#include "sim_config.h"

namespace hx {

class HammingMeshFabric : public sc_core::sc_module {
 public:
  sc_core::sc_in<bool> clk;
  using ErrorHandler = std::function<void(const std::string&)>;

  /// `planes[by * global_x + bx]` is the plane of board (bx, by); the fabric connects their
  /// edge ports.
  HammingMeshFabric(sc_core::sc_module_name name, const SimConfig& cfg,
                    const std::vector<PlaneModel*>& planes, PacketTracker* tracker,
                    ErrorHandler on_error);
  ~HammingMeshFabric() override;

  unsigned num_switches() const { return static_cast<unsigned>(switches_.size()); }
  unsigned num_cables() const { return cables_; }
  /// Flits in the switches' and edge ports' buffers.
  uint64_t flits_held() const;
  /// Where the held flits sit (for deadlock reports); at most `max_lines` lines.
  std::string describe(unsigned max_lines) const;

 private:
  void on_clock();
  FlitLink* make_link(const std::string& name, unsigned latency);
  void build_tree(const SimConfig& cfg, const std::vector<PlaneModel*>& planes, bool rows,
                  unsigned board_row_or_col, unsigned first_line);

  PacketTracker* tracker_;
  ErrorHandler on_error_;
  std::vector<std::unique_ptr<FlitLink>> links_;
  std::vector<std::unique_ptr<EdgePort>> edge_ports_;
  std::vector<std::unique_ptr<FatTreeSwitch>> switches_;
  unsigned cables_ = 0;
  unsigned router_depth_, switch_depth_, vcs_, cable_latency_, switch_latency_;
  uint64_t cycle_ = 0;
};

}  // namespace hx
