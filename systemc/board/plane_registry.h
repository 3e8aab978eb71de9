// plane_registry.h: the board-plane variants, and a factory for them.
//
// Every plane size, VC count, buffer depth, flit width and lane count is a separate Verilated
// model (its parameters are fixed at Verilation). A build compiles a few in: HX_PLANE_BUILTIN
// in systemc/CMakeLists.txt, which that file turns into the generated plane_registry.cpp (a
// core/model_registry.h table, the mechanism the reduction banks use too). Any other variant is
// built on first use into the model cache (core/model_cache.h) and loaded from there: a run
// never needs a build file edited for a board size.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "plane_model.h"

class VerilatedContext;

namespace hx {

/// The variants compiled into this build, in HX_PLANE_BUILTIN order.
const std::vector<PlaneVariant>& built_plane_variants();

/// The variant compiled in with these parameters, or nullptr. `local_ports` is the number of
/// lanes per node; the default, one, is the plane every caller used before lanes existed.
const PlaneVariant* find_plane_variant(unsigned size_x, unsigned size_y, unsigned num_vcs, unsigned buf_depth,
                                       unsigned payload_width, unsigned local_ports = 1);

/// The variant with these parameters: the compiled-in one, or one the model cache holds or will
/// build (its name then spells every parameter that differs from the RTL's default:
/// "3x5", "8x8v4", "4x4d16w96l4"). Throws std::invalid_argument for parameters the RTL does
/// not take (sizes 1..16, VCs 1..4, lanes 1..4).
PlaneVariant plane_variant(unsigned size_x, unsigned size_y, unsigned num_vcs, unsigned buf_depth,
                           unsigned payload_width, unsigned local_ports);

/// Where the variant comes from: "built in", "cached" (in the model cache), or "built on first
/// use" (not yet in the cache).
std::string plane_variant_source(const PlaneVariant& v);

/// A new model of the variant: the compiled-in one, or the model cache's, built first if the
/// cache has none (which prints its progress to stderr: 14 s for a 4x4 plane, 30 s for an 8x8 one on two cores).
/// `traced`: the model must write waveforms (PlaneModel::trace); the cache then builds and keeps a traced copy beside
/// the plain one (the built-in planes always can).
std::unique_ptr<PlaneModel> make_plane(const PlaneVariant& variant, VerilatedContext* ctx,
                                       const std::string& instance_name, bool traced = false);

}  // namespace hx
