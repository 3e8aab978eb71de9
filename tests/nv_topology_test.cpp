// nv_topology_test: the NVSwitch-like systems' wiring, routes, multicast trees and home ports
// (systemc/nvswitch/nv_topology.h), checked by walking packets through the netlist; and the GPU's
// NIC (nv_gpu_nic.h) as its DMA engine sees it through the endpoint interface (core/endpoint.h).
#include <gtest/gtest.h>

#include <map>
#include <set>
#include <vector>

#include <filesystem>

#include <yaml-cpp/yaml.h>

#include "network_description.h"
#include "nv_config.h"
#include "nv_gpu.h"
#include "nv_link.h"
#include "nv_system_builder.h"
#include "nv_topology.h"

// hx_nvswitch links libsystemc, which needs an sc_main (C linkage, as systemc.h declares it)
// wherever the linker keeps the library (an ASan build does); gtest_main runs the tests.
extern "C" int sc_main(int, char*[]) { return 0; }

namespace hx::nv {
namespace {

// Follows unicast routes from GPU `src` to `dst` for `line`: the switches visited. Fails the
// test on a loop or a wrong arrival.
std::vector<unsigned> walk(const NvTopology& t, unsigned src, unsigned dst, uint64_t line) {
  std::vector<unsigned> path;
  unsigned sw = t.gpu_switch(src, t.plane_of_line(line));
  for (unsigned hop = 0; hop < 8; ++hop) {
    path.push_back(sw);
    const unsigned port = t.route_to_gpu(sw, dst, line);
    const PortPeer& p = t.peer(sw, port);
    if (p.kind == PortPeer::Kind::Gpu) {
      EXPECT_EQ(p.index, dst) << "line " << line;
      EXPECT_EQ(p.port, t.plane_of_line(line)) << "arrived on another plane's link";
      return path;
    }
    EXPECT_EQ(p.kind, PortPeer::Kind::Switch);
    sw = p.index;
  }
  ADD_FAILURE() << "no arrival from " << src << " to " << dst;
  return path;
}

// Replicates a multicast from `src`'s first switch as the switches would: the GPUs reached, each
// with the number of copies it got; and the pull expected counts per (switch, entry port).
struct Tree {
  std::map<unsigned, unsigned> copies;
  unsigned first_hop_expected = 0;
  unsigned switches = 0;
};
// Follows a multicast from switch `first`, entered by port `in` (-1: the reinjection input of a
// reduction table), and counts the copies each GPU receives.
Tree walk(const NvTopology& t, unsigned first, int in, uint64_t line, int exclude) {
  Tree tree;
  struct Visit {
    unsigned sw;
    int in;
  };
  std::vector<Visit> todo = {{first, in}};
  tree.first_hop_expected = t.multicast(first, in, line, exclude).gpus;
  while (!todo.empty()) {
    const Visit v = todo.back();
    todo.pop_back();
    ++tree.switches;
    const NvTopology::Fanout f = t.multicast(v.sw, v.in, line, exclude);
    unsigned below = 0;
    for (unsigned port = 0; port < NvTopology::kPorts; ++port) {
      if (!(f.ports >> port & 1u)) continue;
      const PortPeer& p = t.peer(v.sw, port);
      if (p.kind == PortPeer::Kind::Gpu) {
        ++tree.copies[p.index];
        ++below;
      } else {
        todo.push_back({p.index, static_cast<int>(p.port)});
        below += t.multicast(p.index, static_cast<int>(p.port), line, exclude).gpus;
      }
    }
    EXPECT_EQ(below, f.gpus) << "switch " << v.sw << ": expected count differs from the GPUs below it";
  }
  return tree;
}

Tree multicast(const NvTopology& t, unsigned src, uint64_t line, int exclude) {
  return walk(t, t.gpu_switch(src, t.plane_of_line(line)), static_cast<int>(t.gpu_port(src)), line, exclude);
}

TEST(NvTopology, Dgx2HasTwelveSwitchesWiredAsSectionV) {
  const NvTopology t("dgx2", 2, 6);
  EXPECT_EQ(t.gpus(), 16u);
  EXPECT_EQ(t.switches(), 12u);
  for (unsigned sw = 0; sw < t.switches(); ++sw) {
    std::set<unsigned> gpus, peers;
    for (unsigned q = 0; q < NvTopology::kPorts; ++q) {
      const PortPeer& p = t.peer(sw, q);
      ASSERT_NE(p.kind, PortPeer::Kind::None);
      if (p.kind == PortPeer::Kind::Gpu)
        gpus.insert(p.index);
      else {
        peers.insert(p.index);
        EXPECT_EQ(t.peer(p.index, p.port).index, sw) << "cable not symmetric";
      }
    }
    EXPECT_EQ(gpus.size(), 8u) << "one link to each GPU of its group";
    EXPECT_EQ(peers.size(), 1u) << "8 links, all to its peer";
  }
}

TEST(NvTopology, FatTreeHas144SwitchesAndFullSpineConnectivity) {
  const NvTopology t("nvswitch_tree", 16, 6);
  EXPECT_EQ(t.gpus(), 128u);
  EXPECT_EQ(t.switches(), 144u);
  unsigned spines = 0;
  for (unsigned sw = 0; sw < t.switches(); ++sw) {
    if (t.is_leaf(sw)) continue;
    ++spines;
    std::set<unsigned> leaves;
    for (unsigned q = 0; q < NvTopology::kPorts; ++q) leaves.insert(t.peer(sw, q).index);
    EXPECT_EQ(leaves.size(), 16u) << "a spine links to one leaf of every group";
  }
  EXPECT_EQ(spines, 48u);
}

// ---- the netlist a builder makes (nv_system_builder.h) and the topology built from it ----------

NetworkDescription netlist_of(const std::string& config, const std::vector<std::string>& overrides = {}) {
  const NvConfig c = load_nv_config(std::string(HX_CONFIG_DIR) + "/" + config, overrides);
  return nv_system_builder(c.kind).network(c.network_params());
}

struct Counts {
  unsigned gpus = 0, switches = 0, gpu_links = 0, switch_links = 0;
};
// Counts the netlist's nodes and links, and checks what every NVSwitch netlist has: GPUs with
// `links` ports and 16-port switches naming the routing function, GPU links "local" on PCB at
// the GPU rate (1 flit per cycle) and switch links "global" at `trunk_rate`, all at `latency`,
// every port used at most once, and every link joining ports of one plane.
Counts check_netlist(const NetworkDescription& net, unsigned links, Medium trunks, double trunk_rate,
                     unsigned latency) {
  Counts n;
  for (const NodeDescription& node : net.nodes) {
    if (node.kind == NodeDescription::Kind::Endpoint) {
      ++n.gpus;
      EXPECT_EQ(node.ports, links) << node.name;
    } else {
      ++n.switches;
      EXPECT_EQ(node.kind, NodeDescription::Kind::Switch) << node.name;
      EXPECT_EQ(node.ports, NvTopology::kPorts) << node.name;
      EXPECT_EQ(node.routing, "table") << node.name;
    }
  }
  std::set<std::pair<unsigned, unsigned>> used;
  for (const LinkDescription& l : net.links) {
    for (const PortRef& end : {l.a, l.b}) {
      EXPECT_LT(end.port, net.nodes[end.node].ports) << net.nodes[end.node].name;
      EXPECT_TRUE(used.insert({end.node, end.port}).second)
          << net.nodes[end.node].name << " port " << end.port << " used twice";
    }
    EXPECT_EQ(l.latency, latency);
    const NodeDescription &a = net.nodes[l.a.node], &b = net.nodes[l.b.node];
    EXPECT_EQ(b.kind, NodeDescription::Kind::Switch);
    if (a.kind == NodeDescription::Kind::Endpoint) {
      ++n.gpu_links;
      EXPECT_EQ(l.link_class, "local");
      EXPECT_EQ(l.medium, Medium::Pcb);
      EXPECT_EQ(l.rate.flits_per_cycle, 1.0);
      EXPECT_EQ(b.plane, l.a.port) << "GPU link j goes to plane j";
    } else {
      ++n.switch_links;
      EXPECT_EQ(l.link_class, "global");
      EXPECT_EQ(l.medium, trunks);
      EXPECT_EQ(l.rate.flits_per_cycle, trunk_rate);
      EXPECT_EQ(a.plane, b.plane) << a.name << " - " << b.name;
    }
  }
  return n;
}

TEST(NvNetlist, Dgx2Has16Gpus12SwitchesAndTheirLinks) {
  const NetworkDescription net = netlist_of("dgx2_push.yaml", {"topology.link_latency=2 ns"});
  const Counts n = check_netlist(net, 6, Medium::Pcb, 1.0, 3);  // 2 ns of the 1.5625 GHz fabric clock
  EXPECT_EQ(n.gpus, 16u);
  EXPECT_EQ(n.switches, 12u);
  EXPECT_EQ(n.gpu_links, 16u * 6);
  EXPECT_EQ(n.switch_links, 6u * 8);  // per plane, the 8 trunks between its two leaves
  // The baseboards and the trunks between them are PCB: no cables.
  const NetworkEquipment e = net.equipment();
  EXPECT_EQ(e.switches, 12u);
  EXPECT_EQ(e.pcb, 16u * 6 + 6 * 8);
  EXPECT_EQ(e.cables(), 0u);
  EXPECT_FALSE(e.unpriced.empty());
  for (unsigned p = 0; p < 6; ++p) {
    EXPECT_EQ(net.equipment(static_cast<int>(p)).switches, 2u) << "plane " << p;
    EXPECT_EQ(net.equipment(static_cast<int>(p)).pcb, 16u + 8) << "plane " << p;
  }
}

TEST(NvNetlist, FatTreeHas128Gpus144SwitchesAndTheirLinks) {
  const NetworkDescription net = netlist_of("fat_tree128_push.yaml", {"topology.trunk_bandwidth=50 GB/s"});
  const Counts n = check_netlist(net, 6, Medium::Aoc, 2.0, 1);
  EXPECT_EQ(n.gpus, 128u);
  EXPECT_EQ(n.switches, 144u);
  EXPECT_EQ(n.gpu_links, 128u * 6);
  EXPECT_EQ(n.switch_links, 16u * 6 * 8);  // every leaf of every plane to each of its 8 spines
  const NetworkEquipment e = net.equipment();
  EXPECT_EQ(e.switches, 144u);
  EXPECT_EQ(e.pcb, 128u * 6);
  EXPECT_EQ(e.aoc, 16u * 6 * 8);
  EXPECT_EQ(e.dac, 0u);
}

// The peers NvTopology takes from the netlist, against the wiring of section V written out: switch
// s of plane p is p * (leaves + spines) + s, leaves first; leaf port q < 8 is GPU 8 g + q's link p.
void expect_gpu_ports(const NvTopology& t, unsigned per_plane) {
  for (unsigned p = 0; p < 6; ++p)
    for (unsigned g = 0; g < t.groups(); ++g)
      for (unsigned q = 0; q < 8; ++q) {
        const PortPeer& peer = t.peer(p * per_plane + g, q);
        EXPECT_EQ(peer.kind, PortPeer::Kind::Gpu);
        EXPECT_EQ(peer.index, 8 * g + q);
        EXPECT_EQ(peer.port, p);
      }
}

void expect_switch_peer(const NvTopology& t, unsigned sw, unsigned port, unsigned far, unsigned far_port) {
  const PortPeer& peer = t.peer(sw, port);
  EXPECT_EQ(peer.kind, PortPeer::Kind::Switch) << "switch " << sw << " port " << port;
  EXPECT_EQ(peer.index, far) << "switch " << sw << " port " << port;
  EXPECT_EQ(peer.port, far_port) << "switch " << sw << " port " << port;
}

TEST(NvNetlist, Dgx2TopologyPeersAreSectionVsWiring) {
  const NvTopology t(nv_system_builder("dgx2"), netlist_of("dgx2_push.yaml"));
  ASSERT_EQ(t.switches(), 12u);
  expect_gpu_ports(t, 2);
  for (unsigned p = 0; p < 6; ++p)
    for (unsigned k = 0; k < 8; ++k) {  // leaf (p, 0) port 8 + k <-> leaf (p, 1) port 8 + k
      expect_switch_peer(t, 2 * p, 8 + k, 2 * p + 1, 8 + k);
      expect_switch_peer(t, 2 * p + 1, 8 + k, 2 * p, 8 + k);
    }
}

TEST(NvNetlist, FatTreeTopologyPeersAreSectionVsWiring) {
  const NvTopology t(nv_system_builder("nvswitch_tree"), netlist_of("fat_tree128_push.yaml"));
  ASSERT_EQ(t.switches(), 144u);
  expect_gpu_ports(t, 24);
  for (unsigned p = 0; p < 6; ++p)
    for (unsigned g = 0; g < 16; ++g)
      for (unsigned k = 0; k < 8; ++k) {  // leaf (p, g) port 8 + k <-> spine (p, k) port g
        expect_switch_peer(t, 24 * p + g, 8 + k, 24 * p + 16 + k, g);
        expect_switch_peer(t, 24 * p + 16 + k, g, 24 * p + g, 8 + k);
      }
}

// Each peer names its netlist link, whose latency and rate the cycle model gives the wire.
TEST(NvNetlist, EveryPeerNamesItsLink) {
  const NvTopology t(nv_system_builder("dgx2"), netlist_of("dgx2_push.yaml", {"topology.trunk_bandwidth=50 GB/s"}));
  for (unsigned sw = 0; sw < t.switches(); ++sw)
    for (unsigned q = 0; q < NvTopology::kPorts; ++q) {
      const PortPeer& peer = t.peer(sw, q);
      const LinkDescription& l = t.network().links[peer.link];
      EXPECT_EQ(l.rate.flits_per_cycle, peer.kind == PortPeer::Kind::Gpu ? 1.0 : 2.0);
      const auto is_here = [&](PortRef r) {
        return t.network().nodes[r.node].name == "switch" + std::to_string(sw) && r.port == q;
      };
      EXPECT_TRUE(is_here(l.a) || is_here(l.b)) << "switch " << sw << " port " << q;
    }
}

TEST(NvTopology, EveryRouteArrivesWithinTheDiameter) {
  for (const NvTopology& t : {NvTopology("dgx2", 2, 6), NvTopology("nvswitch_tree", 4, 6)})
    for (uint64_t line = 0; line < 96; line += 5)
      for (unsigned s = 0; s < t.gpus(); ++s)
        for (unsigned d = 0; d < t.gpus(); ++d) {
          if (s == d) continue;
          EXPECT_LE(walk(t, s, d, line).size(), t.diameter_hops());
        }
}

TEST(NvTopology, ResponsesRetraceTheirRequestsPath) {
  const NvTopology t("nvswitch_tree", 4, 6);
  for (uint64_t line = 0; line < 48; ++line) {
    std::vector<unsigned> there = walk(t, 3, 29, line), back = walk(t, 29, 3, line);
    std::reverse(back.begin(), back.end());
    EXPECT_EQ(there, back) << "line " << line;
  }
}

TEST(NvTopology, MulticastReachesEveryOtherGpuExactlyOnce) {
  for (const NvTopology& t : {NvTopology("dgx2", 2, 6), NvTopology("nvswitch_tree", 16, 6)})
    for (uint64_t line : {0u, 7u, 13u, 50u})
      for (unsigned src : {0u, 9u}) {
        const Tree tree = multicast(t, src, line, static_cast<int>(src));
        EXPECT_EQ(tree.copies.size(), t.gpus() - 1);
        EXPECT_EQ(tree.copies.count(src), 0u);
        for (const auto& [gpu, n] : tree.copies) EXPECT_EQ(n, 1u) << "GPU " << gpu;
        EXPECT_EQ(tree.first_hop_expected, t.gpus() - 1) << "pull: the first hop expects p - 1 responses";
      }
}

TEST(NvTopology, ResultMulticastWithoutExclusionReachesEveryGpu) {
  const NvTopology t("dgx2", 2, 6);
  const NvTopology::Home h = t.home_of_line(21);
  const NvTopology::Fanout f = t.multicast(h.sw, -1, 21, -1);
  EXPECT_EQ(f.gpus, 16u);
}

TEST(NvTopology, ResultFromEveryHomePortReachesEveryGpuExactlyOnce) {
  // Push results leave the table of the line's home port, which may be a spine's or a trunk's:
  // a copy coming down must not be sent up again.
  for (const NvTopology& t : {NvTopology("dgx2", 2, 6), NvTopology("nvswitch_tree", 16, 6)}) {
    const uint64_t lines = uint64_t{t.switches()} * NvTopology::kPorts;  // every (plane, home port)
    for (uint64_t line = 0; line < lines; ++line) {
      const NvTopology::Home h = t.home_of_line(line);
      const Tree tree = walk(t, h.sw, -1, line, -1);
      ASSERT_EQ(tree.copies.size(), t.gpus()) << "line " << line << " from switch " << h.sw;
      for (const auto& [gpu, n] : tree.copies) ASSERT_EQ(n, 1u) << "line " << line << ": GPU " << gpu;
    }
  }
}

TEST(NvTopology, EachGpusLinesCrossEveryTrunk) {
  // A GPU's own lines (pull requests, push home) must not all cross one trunk or spine: that
  // trunk's congestion would slow that GPU alone, and the slowest GPU sets the allreduce's time.
  for (const NvTopology& t : {NvTopology("dgx2", 2, 6), NvTopology("nvswitch_tree", 16, 6)}) {
    std::vector<std::set<unsigned>> ups(t.gpus());
    for (uint64_t line = 0; line < uint64_t{t.links()} * t.gpus() * NvTopology::kUpPorts; ++line)
      ups[t.home_gpu(line)].insert(t.up_of_line(line));
    for (unsigned g = 0; g < t.gpus(); ++g) EXPECT_EQ(ups[g].size(), NvTopology::kUpPorts) << "GPU " << g;
  }
}

TEST(NvTopology, HomePortsCoverEveryPortOfThePlane) {
  const NvTopology t("dgx2", 2, 6);
  std::map<std::pair<unsigned, unsigned>, unsigned> uses;
  for (uint64_t line = 0; line < 6 * 32 * 10; ++line) {
    const NvTopology::Home h = t.home_of_line(line);
    EXPECT_EQ(t.plane_of_switch(h.sw), t.plane_of_line(line));
    ++uses[{h.sw, h.port}];
  }
  EXPECT_EQ(uses.size(), 192u) << "12 switches x 16 ports, as the paper's Eq. (2) counts";
  for (const auto& [port, n] : uses) EXPECT_EQ(n, 10u);
}

TEST(NvTopology, RejectsShapesThePaperDoesNotDefine) {
  EXPECT_THROW(NvTopology("dgx2", 3, 6), std::invalid_argument);
  EXPECT_THROW(NvTopology("nvswitch_tree", 17, 6), std::invalid_argument);
  EXPECT_THROW(NvTopology("nvswitch_tree", 4, 0), std::invalid_argument);
}

}  // namespace
}  // namespace hx::nv

namespace hx::nv {
namespace {
TEST(NvTopology, PushWritesReachTheirHomeSwitch) {
  for (const NvTopology& t : {NvTopology("dgx2", 2, 6), NvTopology("nvswitch_tree", 16, 6)})
    for (uint64_t line = 0; line < 2000; line += 7)
      for (unsigned g = 0; g < t.gpus(); g += 5) {
        const NvTopology::Home h = t.home_of_line(line);
        unsigned sw = t.gpu_switch(g, t.plane_of_line(line)), hops = 1;
        while (sw != h.sw && hops < 5) {
          const PortPeer& p = t.peer(sw, t.route_to_switch(sw, h.sw, line));
          ASSERT_EQ(p.kind, PortPeer::Kind::Switch);
          sw = p.index;
          ++hops;
        }
        EXPECT_EQ(sw, h.sw);
        EXPECT_LE(hops, t.diameter_hops());
      }
}
}  // namespace
}  // namespace hx::nv

namespace hx::nv {
namespace {

// 9-flit packets on links of rate 1, 2 and 1/2 flits per cycle, with latency 3: a packet holds the
// link for 9 / rate cycles, fractions carry over on a busy link, and on the slow link the head is
// late by the extra serialization (9 cycles) so that the tail arrives when it really does.
TEST(NvLink, RatesSetTheTimeOnTheWire) {
  for (const double rate : {1.0, 2.0, 0.5}) {
    LinkTx tx;
    tx.connect("l", 3, 1000, 1000, LinkRate::per_cycle(rate));
    for (int i = 0; i < 4; ++i) {
      Packet p;
      set_kind(p, Kind::Write);
      tx.push(std::move(p));
    }
    std::vector<uint64_t> at;  // when each packet's head arrives (the receiver polls)
    for (uint64_t t = 0; t < 100; ++t) {
      tx.step(t);
      while (tx.wire()->receive(t)) at.push_back(t);
    }
    ASSERT_EQ(at.size(), 4u) << rate;
    const uint64_t late = rate < 1 ? 9 : 0;
    // Starts: rate 1: 0, 9, 18, 27; rate 2: 0, 4.5 (seen at 5), 9, 13.5 (14); rate 1/2: 0, 18, 36, 54.
    const std::vector<uint64_t> starts = rate == 1.0   ? std::vector<uint64_t>{0, 9, 18, 27}
                                         : rate == 2.0 ? std::vector<uint64_t>{0, 5, 9, 14}
                                                       : std::vector<uint64_t>{0, 18, 36, 54};
    for (unsigned i = 0; i < 4; ++i) EXPECT_EQ(at[i], starts[i] + 3 + late) << "rate " << rate << " packet " << i;
    EXPECT_DOUBLE_EQ(tx.busy_cycles(), 36 / rate);
    EXPECT_EQ(tx.flits_sent(), 36u);
  }
}

// Every shipped NVSwitch config (topology.kind dgx2 or nvswitch_tree) loads without an error and is named
// after its file.
TEST(NvConfigShipped, AllLoadCleanly) {
  unsigned n = 0;
  for (const auto& entry : std::filesystem::directory_iterator(HX_CONFIG_DIR)) {
    if (entry.path().extension() != ".yaml") continue;
    const YAML::Node kind = YAML::LoadFile(entry.path().string())["topology"]["kind"];
    if (!kind.IsScalar() || (kind.Scalar() != "dgx2" && kind.Scalar() != "nvswitch_tree")) continue;
    SCOPED_TRACE(entry.path().string());
    const NvConfig c = load_nv_config(entry.path().string(), {});
    EXPECT_EQ(c.name, entry.path().stem().string());
    EXPECT_EQ(c.clock_hz, 25e9 / 16);
    EXPECT_EQ(c.switch_latency, 234u) << "150 ns at 1.5625 GHz";
    ++n;
  }
  EXPECT_EQ(n, 7u) << "ring, pull, push on both systems, and uniform traffic on the DGX-2";
}
}  // namespace
}  // namespace hx::nv

namespace hx::nv {
namespace {

// A DMA engine that records what its NIC ejects (core/endpoint.h).
struct RecordingDma final : Dma<Packet, Packet> {
  struct Ejected {
    unsigned endpoint, port;
    uint64_t address, t;
  };
  std::vector<Ejected> ejected;
  std::vector<uint64_t> sent_addresses;
  void start(uint64_t) override {}
  bool done() const override { return false; }
  double fraction_done() const override { return 0; }
  std::string progress() const override { return ""; }
  void eject(unsigned endpoint, unsigned port, Packet& p, uint64_t t) override {
    ejected.push_back({endpoint, port, p.address, t});
  }
  void sent(unsigned endpoint, unsigned port, const Packet& p, uint64_t) override {
    EXPECT_EQ(endpoint, 3u);
    EXPECT_EQ(port, 0u);
    sent_addresses.push_back(p.address);
  }
};

// A write from GPU `src` to `dst`, recorded on the board as its sender's NIC would.
Packet write(PacketBoard& board, NodeId src, NodeId dst, uint64_t address) {
  Packet w;
  set_kind(w, Kind::Write);
  w.src = src;
  w.dst = dst;
  w.address = address;
  w.checksum = payload_checksum(w);
  track(board, w, 16, 0);
  return w;
}

// The GPU's NIC through the endpoint interface: what the DMA injects gets its scoreboard record
// and leaves on the port's link, and the DMA hears that it left; what arrives is ejected to the
// DMA once its tail is in, and only if the scoreboard passes it (here: at the GPU it was
// addressed to).
TEST(GpuNic, InjectsOnItsLinkAndEjectsOnlyWhatTheScoreboardPasses) {
  GpuParams params;
  params.gpus = 16;
  PacketBoard board;
  GpuNic nic(3, 2, params, &board);
  RecordingDma dma;
  nic.attach(&dma);
  Nic<Packet>& ports = nic;
  EXPECT_EQ(ports.ports(), 2u);

  // Inject on port 0: a new packet for the scoreboard, on the link after its latency.
  nic.link(0).connect("gpu3.link0->sw", 2, 64, 64);
  Packet out;
  set_kind(out, Kind::Write);
  out.src = 3;
  out.dst = 5;
  out.address = 7;
  out.checksum = payload_checksum(out);
  const unsigned vc = out.vc();
  nic.receive(0);
  ports.inject(3, 0, vc, std::move(out));
  EXPECT_EQ(board.counts().injected, 1u);
  EXPECT_EQ(ports.backlog(3, 0, vc), 0u);  // the link's queue had room
  nic.transmit(0);
  std::vector<uint64_t> seen;
  for (uint64_t t = 0; t < 4; ++t) nic.link(0).wire()->receive_all(t, [&](Packet& p) { seen.push_back(p.address); });
  EXPECT_EQ(seen, std::vector<uint64_t>{7});
  EXPECT_EQ(dma.sent_addresses, std::vector<uint64_t>{7});  // the NIC said it left

  // Eject from port 1: a write for GPU 3, then one for GPU 4 that arrives here by mistake.
  LinkTx in;
  in.connect("sw->gpu3.link1", 1, 64, 1u << 20);
  nic.set_input(1, in.wire());
  in.push(write(board, 5, 3, 11));
  in.push(write(board, 5, 4, 12));
  const unsigned flits = flits_of(Kind::Write);
  // When a head sent in cycle 0 arrives: the same link, read directly.
  LinkTx probe;
  probe.connect("probe", 1, 64, 1u << 20);
  probe.push(write(board, 5, 3, 13));
  uint64_t head = 0;
  for (uint64_t t = 0; t < 4 && head == 0; ++t) {
    probe.step(t);
    probe.wire()->receive_all(t, [&](Packet&) { head = t; });
  }
  ASSERT_GT(head, 0u);
  for (uint64_t t = 0; t < 4 * flits; ++t) {
    in.step(t);
    nic.receive(t);
  }
  ASSERT_EQ(dma.ejected.size(), 1u);
  EXPECT_EQ(dma.ejected[0].endpoint, 3u);
  EXPECT_EQ(dma.ejected[0].port, 1u);
  EXPECT_EQ(dma.ejected[0].address, 11u);
  EXPECT_EQ(dma.ejected[0].t, head + flits - 1);  // when its tail is in
  EXPECT_EQ(board.counts().misdelivered, 1u);
  EXPECT_TRUE(nic.idle());
}

}  // namespace
}  // namespace hx::nv
