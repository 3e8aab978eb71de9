// gtkw.h: GTKWave save files for hxsim waveforms.
//
// The save file opens the FST with the signals of one router, grouped by port (N, E, S, W,
// L): for each port the input (valid, flit, credit returned upstream) and the output (valid,
// flit, credit received), then the accelerator's inject and eject links and the router's
// error flags. Flits are shown in hex; docs/waveforms.md explains how to read them.
#pragma once

#include <string>
#include <vector>

#include "sim_config.h"

namespace hx {

/// "waves.fst" -> "waves.gtkw".
std::string gtkw_path_for(const std::string& fst_path);

/// The router a trace of `cfg` is centred on: the one at (1, 1), or (0, 0) on a one-wide board.
void gtkw_router(const SimConfig& cfg, unsigned& x, unsigned& y);

/// The signals (full hierarchical FST names, vectors with their [msb:lsb]) the save file
/// shows, in order; "-Name" entries start a group, "-" entries end one.
std::vector<std::string> gtkw_signals(const SimConfig& cfg);

/// Write the save file for `fst_path` to `gtkw_path`.
void write_gtkw(const std::string& gtkw_path, const std::string& fst_path, const SimConfig& cfg);

}  // namespace hx
