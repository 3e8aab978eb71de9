// plane_registry.h: the board-plane variants this build contains, and a factory for them.
//
// Every plane size, VC count and lane count is a separate Verilated model (its parameters are fixed at
// Verilation). rtl/CMakeLists.txt lists them in HX_BOARD_SIZES; systemc/CMakeLists.txt turns
// that list into the generated plane_registry.cpp (a core/model_registry.h table, the mechanism
// the reduction banks use too), so adding a variant there is all it takes.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "plane_model.h"

class VerilatedContext;

namespace hx {

/// All built variants, in HX_BOARD_SIZES order.
const std::vector<PlaneVariant>& built_plane_variants();

/// The built variant with these parameters, or nullptr. `local_ports` is the number of lanes per
/// node; the default, one, is the plane every caller used before lanes existed.
const PlaneVariant* find_plane_variant(unsigned size_x, unsigned size_y, unsigned num_vcs, unsigned buf_depth,
                                       unsigned payload_width, unsigned local_ports = 1);

/// "1x1 (3 VCs x 8 flits, 128-bit payload, 1 lane), ..., 4x4 (3 VCs x 8 flits, 128-bit
/// payload, 4 lanes)" for error messages.
std::string describe_built_plane_variants();

/// A new model of a built variant (throws std::invalid_argument for one that is not built).
std::unique_ptr<PlaneModel> make_plane(const PlaneVariant& variant, VerilatedContext* ctx,
                                       const std::string& instance_name);

}  // namespace hx
