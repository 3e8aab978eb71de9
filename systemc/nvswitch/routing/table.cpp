// table.cpp: routing by the fabric manager's tables (Klenk et al., IV-A): at start-up the manager
// fills every switch's routing table and multicast (MCR) table, which NvTopology computes from
// the wiring (routes by line over the trunks or spines, multicast trees on the unicast paths,
// push homes interleaved over every port of a plane). The switch looks them up, by the packet's
// kind: a unicast to its GPU or switch port, a multicast down the line's tree, a push write to
// its line's home port.
#include "nv_routing.h"
#include "nv_switch.h"

namespace hx::nv {

namespace {

class TableRouting : public NvRouting {
 public:
  explicit TableRouting(const NvTopology& topo) : t_(topo) {}

  NvRoute route(const Packet& p, unsigned in, unsigned /*vc*/, const NvSwitch& sw) override {
    const unsigned id = sw.id();
    const int from = in < NvTopology::kPorts ? static_cast<int>(in) : -1;  // -1: from inside
    auto to_gpu = [&](NodeId gpu) { return t_.route_to_gpu(id, static_cast<unsigned>(gpu), p.address); };
    NvRoute r;
    switch (kind_of(p)) {
      case Kind::Ack:
        if (is_switch_id(p.dst)) {
          const unsigned target = switch_of_id(p.dst);
          if (target == id)
            r.sink = true;
          else
            r.ports = 1u << t_.route_to_switch(id, target, p.address);
        } else {
          r.ports = 1u << to_gpu(p.dst);
        }
        return r;
      case Kind::Write:
      case Kind::Flag:
      case Kind::Evict: r.ports = 1u << to_gpu(p.dst); return r;
      case Kind::PullRsp:
        r.to_table = true;
        r.table_port = to_gpu(p.dst);
        return r;
      case Kind::PullReq:
      case Kind::McWrite:
      case Kind::Result: {
        const NvTopology::Fanout f = t_.multicast(id, from, p.address, p.exclude);
        r.ports = f.ports;
        r.gpus = f.gpus;
        return r;
      }
      case Kind::PushWr: {
        const NvTopology::Home home = t_.home_of_line(p.address);
        if (home.sw == id) {
          r.to_table = true;
          r.table_port = home.port;
        } else {
          r.ports = 1u << t_.route_to_switch(id, home.sw, p.address);
        }
        return r;
      }
    }
    return r;
  }

 private:
  const NvTopology& t_;
};

}  // namespace

std::unique_ptr<NvRouting> make_table_routing(const NvTopology& topo) { return std::make_unique<TableRouting>(topo); }

}  // namespace hx::nv
