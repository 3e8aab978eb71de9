// nvswitch_tree.cpp: the two-level fat tree of NVSwitch-like switches (Klenk et al., section V:
// 128 GPUs): per plane, one leaf per group of 8 GPUs and 8 spines; leaf port 8+k goes to spine k,
// spine port G to the leaf of group G. 16 groups make 16 x 6 + 8 x 6 = 144 switches.
#include "nv_system_builder.h"

namespace hx::nv {

namespace {

class NvSwitchTree : public NvSystemBuilder {
 public:
  const char* kind() const override { return "nvswitch_tree"; }
  const char* description() const override { return "two-level fat tree of NVSwitch-like switches, groups of 8 GPUs"; }
  unsigned default_groups() const override { return 16; }
  unsigned min_groups() const override { return 2; }
  unsigned max_groups() const override { return kNvSwitchPorts; }  // a spine's ports
  unsigned spines_per_plane() const override { return kNvLeafUpPorts; }
  unsigned diameter_hops() const override { return 3; }
  std::string name(unsigned gpus, unsigned switches) const override {
    return "two-level fat tree (" + std::to_string(gpus) + " GPUs, " + std::to_string(switches) + " switches)";
  }

 protected:
  // The leaf-spine links leave the leaves' boards for 48 spine switches: cables. The paper says
  // nothing of their medium (section V gives only the wiring); they are AoC, as the cost model
  // cables every switch-to-switch link of a fat tree (analytic/topology_cost.h): a system of 16
  // boards and 48 spines spans racks, beyond the few metres a passive copper cable reaches at
  // 25 GB/s (the paper's own LLR example assumes a 15 m cable at 200 Gb/s, section IV-G).
  void wire_plane(const NvPlaneWiring& plane) const override {
    for (unsigned g = 0; g < plane.groups(); ++g)
      for (unsigned k = 0; k < kNvLeafUpPorts; ++k)
        plane.cable(plane.leaf(g, kNvLeafDownPorts + k), plane.spine(k, g), Medium::Aoc);
  }
};

}  // namespace

const NvSystemBuilder& nvswitch_tree_builder() {
  static const NvSwitchTree b;
  return b;
}

}  // namespace hx::nv
