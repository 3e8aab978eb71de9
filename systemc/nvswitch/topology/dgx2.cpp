// dgx2.cpp: the DGX-2 (Klenk et al., section V): two leaf switches per plane, one per group of 8
// GPUs, whose trunk ports 8+k are cabled to each other: 16 GPUs and 2 x 6 = 12 switches.
#include "nv_system_builder.h"

namespace hx::nv {

namespace {

class Dgx2 : public NvSystemBuilder {
 public:
  const char* kind() const override { return "dgx2"; }
  const char* description() const override {
    return "16 GPUs, 12 switches in two groups of 6 (Klenk et al., section V)";
  }
  unsigned default_groups() const override { return 2; }
  unsigned min_groups() const override { return 2; }
  unsigned max_groups() const override { return 2; }
  unsigned spines_per_plane() const override { return 0; }
  unsigned diameter_hops() const override { return 2; }
  void wire_plane(NvTopology& t, unsigned plane) const override {
    for (unsigned k = 0; k < NvTopology::kUpPorts; ++k)
      t.cable(t.leaf(plane, 0), NvTopology::kDownPorts + k, t.leaf(plane, 1), NvTopology::kDownPorts + k);
  }
  std::string name(const NvTopology& t) const override {
    return "DGX-2 (" + std::to_string(t.gpus()) + " GPUs, " + std::to_string(t.switches()) + " switches)";
  }
};

}  // namespace

const NvSystemBuilder& dgx2_builder() {
  static const Dgx2 b;
  return b;
}

}  // namespace hx::nv
