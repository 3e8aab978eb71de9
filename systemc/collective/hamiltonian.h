// hamiltonian.h: two edge-disjoint Hamiltonian cycles of an r x c torus.
//
// The HammingMesh paper runs allreduce on two bidirectional pipelined rings mapped onto two
// edge-disjoint Hamiltonian cycles of the job's torus, so that every accelerator uses all four
// of its ports (appendix A-D). The construction it cites exists when r is a multiple of c and
// gcd(r, c - 1) = 1. Index the nodes X = 0 .. rc - 1 with x1 = floor(X / c), x0 = X mod c:
//   cycle 0 visits, in order of X, node (row, col) = (x1 mod r, (x0 + (c - 1) x1) mod c);
//   cycle 1 visits                  node (row, col) = ((x0 + (c - 1) x1) mod r, x1 mod c).
// Within a run of x0 cycle 0 steps east (col + 1) and cycle 1 south (row + 1); where x0 wraps
// and x1 steps, cycle 0 steps south and cycle 1 east. Every step is one torus link, and the
// step direction is part of the result, so that a 2-wide torus, whose two links between a pair
// of nodes are distinct, is told apart correctly.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

namespace hx {

struct TorusCycles {
  unsigned rows = 0, cols = 0;
  /// cycle[k][i]: the i-th node of cycle k, as row * cols + col; the cycle closes from the
  /// last node back to the first.
  std::array<std::vector<unsigned>, 2> cycle;
  /// step_east[k][i]: the link from node i to node i + 1 (mod rc) of cycle k goes east
  /// (col + 1); otherwise it goes south (row + 1).
  std::array<std::vector<bool>, 2> step_east;
};

/// The two cycles of an r x c torus. Throws std::invalid_argument naming the condition that
/// fails (r a multiple of c, gcd(r, c - 1) = 1) for other shapes.
TorusCycles hamiltonian_cycles(unsigned rows, unsigned cols);

/// True when an r x c torus has the two cycles by this construction.
bool has_hamiltonian_cycles(unsigned rows, unsigned cols);

}  // namespace hx
