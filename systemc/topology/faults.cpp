#include "faults.h"

#include <map>
#include <set>

#include "config_reader.h"
#include "tree_routes.h"

namespace hx {

namespace {

using Kind = NodeDescription::Kind;
using Place = RoutingContext::TreePlace;

// A switch whose routing goes around failed links: a switch of a fat tree of several, or an NVSwitch-like
// switch, whose fabric manager's tables avoid them (nvswitch/nv_topology.h).
bool routes_around(const NodeDescription& n) {
  return is_tree_switch(n) || (n.kind == Kind::Switch && n.routing == "table" && n.own_endpoint_ports == 0);
}

// "a switch of this netlist, such as a_leaf0, a_leaf1, ... (40 of them)"
std::string switch_names(const NetworkDescription& net) {
  std::string names;
  unsigned count = 0;
  for (const NodeDescription& n : net.nodes) {
    if (!routes_around(n)) continue;
    if (count++ < 4) names += (names.empty() ? "" : ", ") + n.name;
  }
  if (count == 0)
    return "nothing: this network has no switches of a fat tree of several switches or of an NVSwitch plane, whose "
           "links may fail";
  return "a switch of a fat tree of several switches or of an NVSwitch plane of this network, such as " + names +
         (count > 4 ? ", ..." : "") + " (" + std::to_string(count) + " of them)";
}

// Marks the failed links of the config's faults, or throws FaultError.
void mark_failed(NetworkDescription& net, const FaultSet& faults) {
  std::map<std::string, unsigned> node_of;
  for (unsigned i = 0; i < net.nodes.size(); ++i) node_of[net.nodes[i].name] = i;
  // The link at each switch port.
  std::map<std::pair<unsigned, unsigned>, std::size_t> link_at;
  for (std::size_t l = 0; l < net.links.size(); ++l) {
    link_at[{net.links[l].a.node, net.links[l].a.port}] = l;
    link_at[{net.links[l].b.node, net.links[l].b.port}] = l;
  }
  const auto find_switch = [&](const std::string& key, std::ptrdiff_t i, const std::string& name) {
    const auto it = node_of.find(name);
    if (it == node_of.end() || !routes_around(net.nodes[it->second]))
      throw FaultError(key, i, switch_names(net), "'" + name + "'");
    return it->second;
  };
  // A link may fail if it joins two tree switches (see the header comment).
  std::set<std::size_t> failed;
  const auto fail = [&](const std::string& key, std::ptrdiff_t i, std::size_t l, const std::string& what) {
    const LinkDescription& link = net.links[l];
    if (!routes_around(net.nodes[link.a.node]) || !routes_around(net.nodes[link.b.node]))
      throw FaultError(key, i,
                       "a link between two switches of a fat tree or an NVSwitch plane (a board's, an endpoint's or "
                       "a GPU's cable cannot fail: nothing routes around it)",
                       what + ", which joins " + net.nodes[link.a.node].name + " and " + net.nodes[link.b.node].name);
    return failed.insert(l).second;
  };
  for (std::size_t i = 0; i < faults.links.size(); ++i) {
    const std::string& spec = faults.links[i];
    const std::size_t colon = spec.rfind(':');
    const auto idx = static_cast<std::ptrdiff_t>(i);
    const std::string expected = "SWITCH:PORT, a link named by one of its ends";
    if (colon == std::string::npos || colon + 1 == spec.size() ||
        spec.find_first_not_of("0123456789", colon + 1) != std::string::npos || spec.size() - colon > 6)
      throw FaultError("faults.links", idx, expected, "'" + spec + "'");
    const unsigned sw = find_switch("faults.links", idx, spec.substr(0, colon));
    const unsigned port = static_cast<unsigned>(std::stoul(spec.substr(colon + 1)));
    const auto at = link_at.find({sw, port});
    if (at == link_at.end())
      throw FaultError("faults.links", idx,
                       expected + ": " + net.nodes[sw].name + " has ports 0.." +
                           std::to_string(net.nodes[sw].ports - 1) + ", not all of them linked",
                       "'" + spec + "', a port with no link");
    if (!fail("faults.links", idx, at->second, "'" + spec + "'"))
      throw FaultError("faults.links", idx, "each link once", "'" + spec + "', a link already failed");
  }
  for (std::size_t i = 0; i < faults.switches.size(); ++i) {
    const auto idx = static_cast<std::ptrdiff_t>(i);
    const unsigned sw = find_switch("faults.switches", idx, faults.switches[i]);
    for (unsigned p = 0; p < net.nodes[sw].ports; ++p) {
      const auto at = link_at.find({sw, p});
      if (at != link_at.end()) fail("faults.switches", idx, at->second, "'" + faults.switches[i] + "'");
    }
  }
  for (std::size_t l : failed) net.links[l].failed = true;
}

}  // namespace

void apply_faults(NetworkDescription& net, const FaultSet& faults) {
  if (!faults.empty()) mark_failed(net, faults);
  route_trees(net);
}

void fail_at(const ConfigReader& reader, const FaultError& e) {
  const Field& f = reader.field(e.key);
  if (e.index < 0) f.fail_found(e.expected, e.found);
  f.elements("a list")[static_cast<std::size_t>(e.index)].fail_found(e.expected, e.found);
}

KeySpec fault_keys(FaultSet& f) {
  const char* const links = "a list of failed links, each named by one end, 'SWITCH:PORT'";
  const char* const switches = "a list of failed switches, by name";
  const auto names = [](const Field& field, const char* expected) {
    std::vector<std::string> v;
    for (const Field& e : field.elements(expected)) v.push_back(e.text(expected));
    return v;
  };
  return section("faults", Presence::Optional,
                 {
                     leaf("links", Presence::Optional, links, "",
                          [&f, names, links](const Field& field) { f.links = names(field, links); }),
                     leaf("switches", Presence::Optional, switches, "",
                          [&f, names, switches](const Field& field) { f.switches = names(field, switches); }),
                 });
}

}  // namespace hx
