// registry.cpp: the NVSwitch-like switch's routing functions, by name (nv_routing.h).
#include <stdexcept>

#include "nv_routing.h"

namespace hx::nv {

// Factories, one per routing function file.
std::unique_ptr<NvRouting> make_table_routing(const NvTopology& topo);

const std::vector<RegisteredNvRouting>& nv_routings() {
  static const std::vector<RegisteredNvRouting> table = {
      {"table", "routing and multicast (MCR) tables, set up by the fabric manager", &make_table_routing},
  };
  return table;
}

std::unique_ptr<NvRouting> make_nv_routing(const std::string& name, const NvTopology& topo) {
  std::string names;
  for (const RegisteredNvRouting& r : nv_routings()) {
    if (r.name == name) return r.make(topo);
    names += (names.empty() ? "" : ", ") + r.name;
  }
  throw std::invalid_argument("no NVSwitch routing function '" + name + "'; registered: " + names);
}

}  // namespace hx::nv
