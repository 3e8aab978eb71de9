// registry.cpp: the NVSwitch-like switch's routing functions, by name (nv_routing.h).
#include <stdexcept>

#include "named_registry.h"
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
  return find_named(nv_routings(), name, "NVSwitch routing function",
                    [](const RegisteredNvRouting& r) { return r.name; })
      .make(topo);
}

}  // namespace hx::nv
