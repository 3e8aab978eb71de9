// waveform.h: one FST file with the RTL of every plane and the SystemC links around it.
//
// The planes' Verilated models trace their own signals (every router, port and buffer). The
// links are added to the same file through Verilator's trace callback interface, the one its
// generated code uses, so GTKWave shows the RTL and the link traffic on one time axis:
//   links.<link>.valid/type/vc/flit   the flit at the link's receiving end in that cycle
//   links.<link>.packet               the packet id of a head flit (from its endpoint tag)
//   links.<link>.credit/credit_vc     the credit at the sending end in that cycle
//   links.clk, links.cycle            the simulation clock and cycle number
// Time is in picoseconds of the configured clock. Only cycles inside the window are dumped.
//
// write_gtkw() writes a GTKWave save file that opens with one router's ports grouped by port
// (N, E, S, W, L: valid, flit, credit) and the links of its accelerator.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "flit_link.h"
#include "plane_model.h"

class VerilatedFstC;

namespace hx {

class Waveform {
 public:
  /// Dump cycles [from, to] (inclusive) into `path`; period in ps.
  Waveform(std::string path, uint64_t from, uint64_t to, uint64_t period_ps, FlitFormat fmt);
  ~Waveform();
  Waveform(const Waveform&) = delete;
  Waveform& operator=(const Waveform&) = delete;

  /// Register signals; all before open().
  void add_plane(PlaneModel& plane);
  void add_link(FlitLink* link);
  void open();

  /// After cycle t was simulated: dump it if inside the window.
  void dump(uint64_t t);
  void close();

  const std::string& path() const { return path_; }
  uint64_t from() const { return from_; }
  uint64_t to() const { return to_; }

  /// A GTKWave save file for router (x, y) of the plane model named `plane_name`, with the
  /// links of its accelerator (`tx_link`, `rx_link`: the links' names).
  void write_gtkw(const std::string& gtkw_path, const std::string& plane_name, unsigned x, unsigned y, unsigned num_vcs,
                  const std::string& tx_link, const std::string& rx_link) const;

 private:
  struct LinkTrace;
  static void init_cb(void* self, void* tracep, uint32_t code);

  std::string path_;
  uint64_t from_, to_, period_ps_;
  FlitFormat fmt_;
  std::unique_ptr<VerilatedFstC> fst_;
  std::unique_ptr<LinkTrace> links_;
  bool open_ = false;
};

}  // namespace hx
