// registry.cpp: the NVSwitch-like systems' builders, by topology.kind (nv_system_builder.h).
#include <stdexcept>

#include "named_registry.h"
#include "nv_system_builder.h"

namespace hx::nv {

// One line per builder file.
const NvSystemBuilder& dgx2_builder();
const NvSystemBuilder& nvswitch_tree_builder();

const std::vector<const NvSystemBuilder*>& nv_system_builders() {
  static const std::vector<const NvSystemBuilder*> all = {&dgx2_builder(), &nvswitch_tree_builder()};
  return all;
}

const NvSystemBuilder& nv_system_builder(const std::string& kind) {
  return *find_named(nv_system_builders(), kind, "NVSwitch system kind",
                     [](const NvSystemBuilder* b) { return b->kind(); });
}

}  // namespace hx::nv
