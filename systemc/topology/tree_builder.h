// tree_builder.h: one fat tree of C++ switches in a network description, shared by the builders
// whose networks are made of such trees (a fat-tree system: one tree; a HammingMesh: a tree per
// row and column line of accelerators).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "config_reader.h"
#include "network_description.h"
#include "sim_config.h"

namespace hx {

/// Appends the switches and inner cables of one tree of `ports` terminals (tree_shape(): one
/// switch, leaves and spines with the up links dealt round-robin over the spines, or, with
/// `three_levels` (the fat_tree system) where two levels do not reach, leaves, pods of middle
/// switches and tops) in plane `plane`; every switch routes up/down with `addr` (routing/tree.cpp,
/// its tables from topology/tree_routes.h). Returns where each terminal attaches.
std::vector<PortRef> add_fat_tree(NetworkDescription& net, const SimConfig& cfg, const std::string& name,
                                  unsigned ports, const TreeAddressing& addr, unsigned plane = 0,
                                  bool three_levels = false);

/// The config's cable: links.global's latency, and its bandwidth over the local link's as the
/// rate (one flit per cycle when they are equal).
unsigned cable_latency(const SimConfig& cfg);
LinkRate cable_rate(const SimConfig& cfg);

/// The config side of a system of such trees (its builder's check, derivations and values):
/// fails at topology.tree.radix unless a tree of the radix (two levels, or three with
/// `three_levels`) reaches `ports` terminals; "<label> trees: <count> of <ports> ports, ..." for
/// the derivation lines; topology.tree.*.
TreeShape config_tree_shape(const SimConfig& cfg, unsigned ports, bool three_levels);
void check_tree(const ConfigReader& reader, const SimConfig& cfg, unsigned ports, bool three_levels = false);
std::string tree_derivation(const std::string& label, unsigned count, unsigned ports, const SimConfig& cfg,
                            bool three_levels = false);
void tree_values(const SimConfig& cfg, std::vector<std::pair<std::string, std::string>>& v);

/// The header fields that name an endpoint of a system without boards (TreeAddressing).
TreeAddressing endpoint_addressing(const SimConfig& cfg);

/// A C++ switch of a system without boards, named `name`, of `ports` ports and a pipeline of
/// `latency` cycles: the config's crossbar speedup and routing function, endpoint addressing.
/// The builder adds its place in the topology (index, group, dimension...).
NodeDescription endpoint_switch(const SimConfig& cfg, std::string name, unsigned ports, unsigned latency);

/// An accelerator's own router (a torus's, a multidim NPU's) and the accelerator, endpoint
/// `endpoint` named "node<endpoint>": `router` (its name, ports, pipeline and place set by the
/// builder; its crossbar speedup too, by default 1, like the boards' RTL routers) gets the configured routing
/// function and endpoint addressing; its ports first_port .. first_port + lanes - 1 are the
/// accelerator's lanes, linked with the local links. Returns the router's node.
unsigned add_accelerator_router(NetworkDescription& net, const SimConfig& cfg, unsigned endpoint,
                                NodeDescription router, unsigned lanes, unsigned first_port = 0);

}  // namespace hx
