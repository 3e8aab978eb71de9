// model_cache.h: Verilated models that a build does not contain, built on first use.
//
// Every parameterisation of an RTL top (a board plane of a size, VC, buffer, flit and lane count)
// is its own Verilated model, fixed at Verilation. A build compiles a few of them in
// (model_registry.h); any other is Verilated and compiled the first time a run needs it, into a
// shared library in a per-user cache, and loaded from there by this and every later run:
//
//   <cache>/<prefix>-<key>/model.so     the model, its wrapper and an extern "C" factory
//   <cache>/<prefix>-<key>/build.log    what Verilator and the compiler printed
//
// <cache> is $HXSIM_CACHE, else $XDG_CACHE_HOME/hxsim, else ~/.cache/hxsim. <key> is a hash of
// what the library is built from: the RTL sources' contents, the top and its parameters, the
// Verilator version and arguments, the compiler and its flags, and the wrapper's source. The
// simulator headers the wrapper included (the compiler's dependency list) are recorded with
// hashes of their contents in <cache>/<prefix>-<key>/headers.txt; an entry whose headers changed
// since is built again in place. Either way an old library is never reused by mistake, and an
// edit to a header the models do not include costs no rebuild.
//
// The library is built in a scratch directory and renamed into place only when complete, under a
// lock on the entry (flock), so processes that need the same model at once (ctest -j, a sweep)
// build it once and no run ever loads a half-written library. The library leaves the Verilator
// runtime undefined: it binds to the runtime the executable carries (hxsim is linked with
// ENABLE_EXPORTS), so the cached model and the built-in ones share one VerilatedContext.
//
// Progress goes to stderr: what is built and why, the Verilator step, then the C++ files as they
// compile.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace hx {

/// Verilator or the compiler failed to build a model, or its library cannot be loaded; the
/// message names the build log.
struct ModelBuildError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// One model to build: an RTL top with parameters, and the C++ wrapper around it.
struct VerilatedBuild {
  std::string what;                  ///< for messages: "board plane 3x5 (3 VCs x 8 flits, ...)"
  std::string group;                 ///< the RTL source group of rtl/sources.txt: "router", "reduction"
  std::string top;                   ///< the RTL top module
  std::string prefix;                ///< the Verilated class, "Vhx_board_plane_3x5v3d8w128l1"
  std::vector<std::string> params;   ///< "-GSizeX=3", ...
  std::vector<std::string> args;     ///< Verilator arguments beside the build's common ones
  std::vector<std::string> include;  ///< the simulator's headers the wrapper includes (dirs)
  std::string wrapper;               ///< C++ source: includes the model, defines the factory
  std::string factory;               ///< the extern "C" symbol the wrapper defines
  /// With FST waveform code (--trace-fst): twice the C++ and a 2.5-3.4x slower model, so only for
  /// a run that writes a waveform. The process that loads it must contain Verilator's FST writer
  /// (hx_verilated_runtime, rtl/CMakeLists.txt: hxsim does, for its own waveform writer).
  bool trace = false;
};

/// The cache's directory (created if missing).
std::string model_cache_dir();

/// The directory of `b`'s library in the cache, whether or not it is built yet.
std::string model_cache_entry(const VerilatedBuild& b);

/// True if `b`'s library is in the cache.
bool model_cached(const VerilatedBuild& b);

/// The factory symbol of `b`'s library: loaded from the cache, built first if it is not there.
/// Throws ModelBuildError, naming the build log, if Verilator or the compiler fails.
void* load_cached_model(const VerilatedBuild& b);

}  // namespace hx
