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
  std::string name(unsigned gpus, unsigned switches) const override {
    return "DGX-2 (" + std::to_string(gpus) + " GPUs, " + std::to_string(switches) + " switches)";
  }

 protected:
  // The trunks join the two baseboards inside one chassis. The paper says only that each
  // switch's 8 other ports go to a switch of the other group (section II), nothing of the
  // medium; NVIDIA's DGX-2 joins its two baseboards through connectors and bridge boards, with
  // no cables, so they are PCB: no cable for the cost model to count.
  void wire_plane(const NvPlaneWiring& plane) const override {
    for (unsigned k = 0; k < kNvLeafUpPorts; ++k)
      plane.cable(plane.leaf(0, kNvLeafDownPorts + k), plane.leaf(1, kNvLeafDownPorts + k), Medium::Pcb);
  }
};

}  // namespace

const NvSystemBuilder& dgx2_builder() {
  static const Dgx2 b;
  return b;
}

}  // namespace hx::nv
