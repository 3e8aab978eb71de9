// nv_system_builder.h: the builders of the NVSwitch-like systems, one per topology.kind,
// registered by kind (registry.cpp): dgx2 (dgx2.cpp) and nvswitch_tree (nvswitch_tree.cpp).
//
// Every such system is built from planes of 16-port switches (nv_topology.h): GPU link j goes to
// a leaf of plane j, 8 GPUs to a leaf. What a builder decides is everything above the leaves'
// GPU ports: where a leaf's 8 up ports go (the other leaf's trunk ports, or spines), how many
// spines a plane has, how many leaf groups the system may have, and what the results call it.
// NvTopology asks its builder and knows no kind; the routes, multicast trees and reduction
// homes follow from the wiring.
//
// Adding a kind: one file here with a class derived from NvSystemBuilder, one line in
// registry.cpp.
#pragma once

#include <string>
#include <vector>

#include "nv_topology.h"

namespace hx::nv {

class NvSystemBuilder {
 public:
  virtual ~NvSystemBuilder() = default;
  virtual const char* kind() const = 0;
  virtual const char* description() const = 0;
  /// Leaf groups of 8 GPUs when the config names none, and the sizes it may name ("" when the
  /// kind comes in one size: the config then may not name one).
  virtual unsigned default_groups() const = 0;
  virtual unsigned min_groups() const = 0;
  virtual unsigned max_groups() const = 0;
  /// Spine switches per plane (0: the leaves are cabled to each other).
  virtual unsigned spines_per_plane() const = 0;
  /// Longest GPU-to-GPU path in switch hops.
  virtual unsigned diameter_hops() const = 0;
  /// Cable plane `plane` above its leaves' GPU ports: the leaves' up ports (8..15) and the
  /// spines, through NvTopology::cable.
  virtual void wire_plane(NvTopology& t, unsigned plane) const = 0;
  /// "DGX-2 (16 GPUs, 12 switches)".
  virtual std::string name(const NvTopology& t) const = 0;
};

/// The builder of `kind`; throws std::invalid_argument naming the registered kinds.
const NvSystemBuilder& nv_system_builder(const std::string& kind);
/// Every registered builder, in registration order.
const std::vector<const NvSystemBuilder*>& nv_system_builders();

}  // namespace hx::nv
