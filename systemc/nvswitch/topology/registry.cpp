// registry.cpp: the NVSwitch-like systems' builders, by topology.kind (nv_system_builder.h).
#include <stdexcept>

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
  std::string names;
  for (const NvSystemBuilder* b : nv_system_builders()) {
    if (kind == b->kind()) return *b;
    names += (names.empty() ? "" : ", ") + std::string(b->kind());
  }
  throw std::invalid_argument("no NVSwitch system kind '" + kind + "'; registered: " + names);
}

}  // namespace hx::nv
