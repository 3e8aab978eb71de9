#include "hamiltonian.h"

#include <numeric>
#include <stdexcept>
#include <string>

namespace hx {

bool has_hamiltonian_cycles(unsigned rows, unsigned cols) {
  return rows >= 1 && cols >= 2 && rows % cols == 0 && std::gcd(rows, cols - 1) == 1;
}

TorusCycles hamiltonian_cycles(unsigned rows, unsigned cols) {
  const std::string shape = std::to_string(rows) + "x" + std::to_string(cols);
  if (cols < 2 || rows < 1)
    throw std::invalid_argument("two edge-disjoint Hamiltonian cycles need a torus of at least 1x2, not " + shape);
  if (rows % cols != 0)
    throw std::invalid_argument(
        "two edge-disjoint Hamiltonian cycles of an r x c torus need r to be a multiple of c; " + shape +
        " has r mod c = " + std::to_string(rows % cols));
  if (std::gcd(rows, cols - 1) != 1)
    throw std::invalid_argument("two edge-disjoint Hamiltonian cycles of an r x c torus need gcd(r, c - 1) = 1; " +
                                shape + " has gcd(" + std::to_string(rows) + ", " + std::to_string(cols - 1) +
                                ") = " + std::to_string(std::gcd(rows, cols - 1)));
  TorusCycles t;
  t.rows = rows;
  t.cols = cols;
  const unsigned n = rows * cols;
  for (unsigned k = 0; k < 2; ++k) {
    t.cycle[k].resize(n);
    t.step_east[k].resize(n);
  }
  for (unsigned x = 0; x < n; ++x) {
    const uint64_t x1 = x / cols, x0 = x % cols;
    const uint64_t skew = x0 + uint64_t{cols - 1} * x1;
    t.cycle[0][x] = static_cast<unsigned>((x1 % rows) * cols + skew % cols);
    t.cycle[1][x] = static_cast<unsigned>((skew % rows) * cols + x1 % cols);
    // The step to X + 1: within a run of x0 (cycle 0 east, cycle 1 south), else where x1
    // steps (cycle 0 south, cycle 1 east).
    const bool within_run = x0 + 1 < cols;
    t.step_east[0][x] = within_run;
    t.step_east[1][x] = !within_run;
  }
  return t;
}

}  // namespace hx
