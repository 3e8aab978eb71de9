// named_registry.h: the one lookup of every plug-in registry that is keyed by a name: topology
// builders by topology.kind, routing functions by routing.algorithm (fabric and NVSwitch), the
// board routers' rules. A registry is a list in registration order (what `hxsim list` prints);
// looking up a name either finds its entry or fails with one message that names every
// registered entry, so a config error can say what would have been accepted.
#pragma once

#include <stdexcept>
#include <string>

namespace hx {

/// The entry of `entries` whose name_of(entry) is `name`; throws std::invalid_argument
/// "no <what> '<name>'; registered: a, b, c" when there is none.
template <class Entries, class NameOf>
auto& find_named(Entries& entries, const std::string& name, const std::string& what, NameOf name_of) {
  std::string names;
  for (auto& e : entries) {
    if (name == name_of(e)) return e;
    names += (names.empty() ? "" : ", ") + std::string(name_of(e));
  }
  throw std::invalid_argument("no " + what + " '" + name + "'; registered: " + names);
}

}  // namespace hx
