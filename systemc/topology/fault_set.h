// fault_set.h: the failed links and switches a config names (faults.links, faults.switches), by
// themselves so that the config (sim_config.h) holds them without the netlist; faults.h applies
// them to a netlist.
#pragma once

#include <string>
#include <vector>

namespace hx {

struct FaultSet {
  /// Links, each named by one of its ends, "SWITCH:PORT" (a switch's name in the netlist, as the
  /// deadlock reports print it; a wrong name is refused with the tree switches' names).
  std::vector<std::string> links;
  /// Switches, by name; each fails all its links.
  std::vector<std::string> switches;
  bool empty() const { return links.empty() && switches.empty(); }
};

}  // namespace hx
