// table.cpp: routing by the fabric manager's tables (Klenk et al., IV-A): at start-up the manager
// fills every switch's routing table and multicast (MCR) table, which NvTopology computes from
// the wiring (routes by line over the trunks or spines, multicast trees on the unicast paths,
// push homes interleaved over every port of a plane). The switch looks them up.
#include "nv_routing.h"

namespace hx::nv {

namespace {

class TableRouting : public NvRouting {
 public:
  explicit TableRouting(const NvTopology& topo) : t_(topo) {}
  unsigned to_gpu(unsigned sw, unsigned gpu, uint64_t line) const override { return t_.route_to_gpu(sw, gpu, line); }
  unsigned to_switch(unsigned sw, unsigned target, uint64_t line) const override {
    return t_.route_to_switch(sw, target, line);
  }
  NvTopology::Fanout multicast(unsigned sw, int in, uint64_t line, int exclude) const override {
    return t_.multicast(sw, in, line, exclude);
  }
  NvTopology::Home home(uint64_t line) const override { return t_.home_of_line(line); }

 private:
  const NvTopology& t_;
};

}  // namespace

std::unique_ptr<NvRouting> make_table_routing(const NvTopology& topo) { return std::make_unique<TableRouting>(topo); }

}  // namespace hx::nv
