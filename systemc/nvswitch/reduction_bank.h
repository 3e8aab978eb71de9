// reduction_bank.h: the reduction units of one switch, as the Verilated RTL hx_switch_reduction
// (rtl/, docs/reduction-unit.md): one table per port, all 16 ports in one Verilated model.
//
// The switch drives each port's unit through a packet stream of 128-bit flits (a header flit,
// then the data flits; header layout in reduction_ref.h, RedHeader) with valid/ready handshakes
// on both sides. ReductionBank::cycle() is one
// clock: it drives the inputs, settles the combinational outputs (the units stream a completing
// reduction's result out in the same cycle as its last operand arrives), samples the handshakes,
// then clocks the edge. One virtual call per switch and cycle; the per-port work is plain arrays.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "nv_packet.h"
#include "reduction_ref.h"

namespace hx::nv {

/// One port's handshake signals for one cycle.
struct BankPortIo {
  // driven by the switch
  bool in_valid = false;
  RedFlit in_flit{};
  bool out_ready = false;
  // sampled from the RTL before the clock edge
  bool in_ready = false;
  bool out_valid = false;
  RedFlit out_flit{};
  unsigned occupancy = 0;
};

class ReductionBank {
 public:
  static constexpr unsigned kPorts = 16;
  virtual ~ReductionBank() = default;
  virtual unsigned entries() const = 0;
  /// One clock cycle at simulated time `now` (cycles), for every port.
  virtual void cycle(uint64_t now, std::array<BankPortIo, kPorts>& io) = 0;
  /// Write an FST waveform of the RTL (GTKWave) to `path`, from the next cycle on.
  virtual void trace(const std::string& path) = 0;
};

/// The table sizes per port the RTL takes: 1..32 entries of one line (hx_switch_reduction).
constexpr unsigned kMinTableBytes = kLineBytes, kMaxTableBytes = 32 * kLineBytes;
/// A bank of tables of `table_bytes` per port (a multiple of kLineBytes in [kMinTableBytes,
/// kMaxTableBytes]; a size not compiled in is built on first use); push entries idle for more
/// than `timeout` cycles are evicted (0: never). `traced`: the bank must write waveforms
/// (ReductionBank::trace); a size from the model cache is then built with tracing.
std::unique_ptr<ReductionBank> make_reduction_bank(unsigned table_bytes, uint32_t timeout, bool traced = false);

}  // namespace hx::nv
