// link_rate.h: how many flits per cycle a link carries, derived in one place from physical units.
//
// Every network model runs at one clock, the cycle in which its reference link carries one flit
// (the fabric's flit width at the link bandwidth, the NVSwitch's 16-B flit at the GPU link
// bandwidth). A link of another bandwidth carries bandwidth / reference flits per cycle: 2 for a
// link twice as fast, 1/3 for one three times slower. The rate is a double because the model's
// wire arithmetic (credit_link.h) is; it is exact for the ratios configs write (powers of two,
// small integers), and a run is deterministic either way.
#pragma once

#include <sstream>
#include <stdexcept>
#include <string>

namespace hx {

struct LinkRate {
  /// The rates a config may give a link (sim_config.cpp, check_link_bandwidth): a slow link's
  /// serialisation and a fast link's credits per cycle stay within what a link's slots hold.
  static constexpr double kMinFlitsPerCycle = 1.0 / 16, kMaxFlitsPerCycle = 8;

  double flits_per_cycle = 1.0;
  // What it was derived from (bits per second), for describe(); 0 when given as a plain rate.
  double bandwidth = 0, reference_bandwidth = 0;

  /// A link of `bandwidth` in a model whose clock carries one flit per cycle at `reference`.
  static LinkRate from_bandwidth(double bandwidth, double reference) {
    if (!(bandwidth > 0) || !(reference > 0)) throw std::invalid_argument("LinkRate: bandwidths must be positive");
    return LinkRate{bandwidth / reference, bandwidth, reference};
  }
  /// A rate given in flits per cycle (tests, builders that already think in cycles).
  static LinkRate per_cycle(double flits) {
    if (!(flits > 0)) throw std::invalid_argument("LinkRate: the rate must be positive");
    return LinkRate{flits, 0, 0};
  }

  bool full_rate() const { return flits_per_cycle == 1.0; }

  /// "100 GB/s / 25 GB/s per flit-cycle = 4 flits per cycle", or "0.5 flits per cycle".
  std::string describe() const {
    std::ostringstream os;
    if (bandwidth > 0) os << bandwidth / 8e9 << " GB/s / " << reference_bandwidth / 8e9 << " GB/s per flit-cycle = ";
    os << flits_per_cycle << " flits per cycle";
    return os.str();
  }
};

}  // namespace hx
