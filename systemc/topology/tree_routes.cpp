#include "tree_routes.h"

#include <algorithm>
#include <map>
#include <memory>
#include <numeric>

#include "faults.h"

namespace hx {

namespace {

using Place = RoutingContext::TreePlace;

unsigned find(std::vector<unsigned>& parent, unsigned x) {
  while (parent[x] != x) x = parent[x] = parent[parent[x]];
  return x;
}

}  // namespace

bool is_tree_switch(const NodeDescription& n) {
  return n.kind == NodeDescription::Kind::Switch && n.routing == "updown" && n.place.tree_place != Place::Single;
}

void route_trees(NetworkDescription& net) {
  const std::size_t n = net.nodes.size();
  // The working cables inside each tree, from each switch's side: down port -> child, up port j
  // -> parent. Trees are the connected groups of tree switches (failed cables included).
  std::vector<std::vector<std::pair<unsigned, unsigned>>> children(n), parents(n);
  std::vector<unsigned> group(n);
  std::iota(group.begin(), group.end(), 0u);
  for (const LinkDescription& l : net.links) {
    const NodeDescription &a = net.nodes[l.a.node], &b = net.nodes[l.b.node];
    if (!is_tree_switch(a) || !is_tree_switch(b)) continue;
    group[find(group, l.a.node)] = find(group, l.b.node);
    if (l.failed) continue;
    const bool a_up = l.a.port >= a.place.up_first;  // a's up port: a is the lower end
    const PortRef lower = a_up ? l.a : l.b, upper = a_up ? l.b : l.a;
    children[upper.node].emplace_back(upper.port, lower.node);
    parents[lower.node].emplace_back(lower.port - net.nodes[lower.node].place.up_first, upper.node);
  }
  // Leaves below each switch, level by level; then what each switch reaches going up first.
  std::vector<std::vector<bool>> below(n), reach(n);
  for (const Place level : {Place::Leaf, Place::Middle, Place::Spine}) {
    for (unsigned s = 0; s < n; ++s) {
      const NodeDescription& sw = net.nodes[s];
      if (!is_tree_switch(sw) || sw.place.tree_place != level) continue;
      below[s].assign(sw.place.tree_leaves, false);
      if (level == Place::Leaf) below[s][sw.place.index] = true;
      for (const auto& [port, child] : children[s])
        for (unsigned d = 0; d < below[child].size(); ++d)
          if (below[child][d]) below[s][d] = true;
    }
  }
  for (const Place level : {Place::Spine, Place::Middle, Place::Leaf}) {
    for (unsigned s = 0; s < n; ++s) {
      const NodeDescription& sw = net.nodes[s];
      if (!is_tree_switch(sw) || sw.place.tree_place != level) continue;
      reach[s] = below[s];
      for (const auto& [j, parent] : parents[s])
        for (unsigned d = 0; d < reach[parent].size(); ++d)
          if (reach[parent][d]) reach[s][d] = true;
    }
  }
  for (unsigned s = 0; s < n; ++s) {
    NodeDescription& sw = net.nodes[s];
    if (!is_tree_switch(sw)) continue;
    const unsigned leaves = sw.place.tree_leaves;
    auto t = std::make_shared<TreeRoutes>();
    t->words = std::max(1u, (sw.place.up + 63) / 64);
    t->up_bits.assign(std::size_t{leaves} * t->words, 0);
    for (const auto& [j, parent] : parents[s])
      for (unsigned d = 0; d < leaves; ++d)
        if (reach[parent][d]) t->up_bits[std::size_t{d} * t->words + j / 64] |= uint64_t{1} << (j % 64);
    std::vector<std::pair<unsigned, unsigned>> down = children[s];
    std::sort(down.begin(), down.end());
    t->down_first.assign(leaves + 1, 0);
    for (unsigned d = 0; d < leaves; ++d) {
      t->down_first[d] = static_cast<uint32_t>(t->down_ports.size());
      for (const auto& [port, child] : down)
        if (below[child][d]) t->down_ports.push_back(static_cast<uint16_t>(port));
    }
    t->down_first[leaves] = static_cast<uint32_t>(t->down_ports.size());
    sw.place.tree_routes = std::move(t);
  }
  // Every leaf must still reach every other leaf of its tree.
  std::map<unsigned, std::vector<unsigned>> leaves_of;
  for (unsigned s = 0; s < n; ++s)
    if (is_tree_switch(net.nodes[s]) && net.nodes[s].place.tree_place == Place::Leaf)
      leaves_of[find(group, s)].push_back(s);
  for (const auto& [tree, leaves] : leaves_of) {
    for (unsigned a : leaves) {
      for (unsigned b : leaves) {
        if (a != b && !reach[a][net.nodes[b].place.index])
          throw FaultError("faults", -1, "faults that leave a path between every two leaves of a tree",
                           "none between " + net.nodes[a].name + " and " + net.nodes[b].name);
      }
    }
  }
}

}  // namespace hx
