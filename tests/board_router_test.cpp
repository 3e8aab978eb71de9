// board_router_test.cpp: the C++ switch as a board router (routing/board_router.cpp), on a 3x3
// mesh of switches joined by links, routed by the registered board routing functions xy,
// north_last and min_adaptive (the rules the RTL router is checked against). The test plays
// the accelerators at the local ports: every packet must arrive once, intact, at its node, and
// an xy packet must take the dimension-order path, link by link.
#include <gtest/gtest.h>

#include <array>
#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "board_mesh.h"
#include "flit_link.h"
#include "network_switch.h"
#include "packet_tracker.h"

int sc_main(int, char*[]) { return 0; }  // libsystemc needs one; gtest_main runs the tests

namespace hx {
namespace {

constexpr unsigned kSide = 3, kNodes = kSide * kSide, kVcs = 2, kDepth = 8;

struct Mesh {
  std::vector<std::unique_ptr<FlitLink>> links;
  std::vector<std::unique_ptr<NetworkSwitch>> routers;
  std::vector<FlitLink*> inject, eject;
  // between[n][d]: the link leaving router n through port d (N, E, S, W), or null at the edge
  std::vector<std::array<FlitLink*, 4>> between;
  std::vector<std::string> errors;
  PacketTracker tracker;

  static std::vector<EndpointAddress> addresses() {
    std::vector<EndpointAddress> a;
    for (unsigned n = 0; n < kNodes; ++n) a.push_back({0, 0, n % kSide, n / kSide});
    return a;
  }

  FlitLink* link(const std::string& name) {
    links.push_back(std::make_unique<FlitLink>(name.c_str(), 1));
    return links.back().get();
  }

  explicit Mesh(const std::string& routing) : between(kNodes), tracker(FlitFormat{}, addresses()) {
    for (unsigned n = 0; n < kNodes; ++n) {
      RoutingContext ctx;
      ctx.switch_name = "r" + std::to_string(n);
      ctx.place = RouterPlace{n % kSide, n / kSide, kSide - 1, kSide - 1, 0, 0};
      routers.push_back(std::make_unique<NetworkSwitch>(ctx.switch_name, num_router_ports(1), kVcs, kDepth, 1, 1,
                                                        make_routing(routing, ctx), &tracker,
                                                        [this](const std::string& e) { errors.push_back(e); }));
      for (unsigned d = 0; d < 4; ++d) between[n][d] = nullptr;
    }
    for (unsigned n = 0; n < kNodes; ++n) {
      const unsigned x = n % kSide, y = n / kSide;
      if (y + 1 < kSide) between[n][kPortN] = link(routers[n]->name() + "_N");
      if (x + 1 < kSide) between[n][kPortE] = link(routers[n]->name() + "_E");
      if (y > 0) between[n][kPortS] = link(routers[n]->name() + "_S");
      if (x > 0) between[n][kPortW] = link(routers[n]->name() + "_W");
      inject.push_back(link(routers[n]->name() + "_inject"));
      eject.push_back(link(routers[n]->name() + "_eject"));
    }
    for (unsigned n = 0; n < kNodes; ++n) {
      const unsigned x = n % kSide, y = n / kSide;
      // Port d's input is the neighbour's link that points back here.
      const int nb[4] = {y + 1 < kSide ? static_cast<int>(n + kSide) : -1, x + 1 < kSide ? static_cast<int>(n + 1) : -1,
                         y > 0 ? static_cast<int>(n - kSide) : -1, x > 0 ? static_cast<int>(n - 1) : -1};
      for (unsigned d = 0; d < 4; ++d) {
        if (nb[d] < 0) continue;
        routers[n]->connect(d, between[static_cast<unsigned>(nb[d])][(d + 2) % 4], between[n][d], kDepth);
      }
      routers[n]->connect(kPortL, inject[n], eject[n], 1u << 20);  // the accelerator sinks everything
    }
  }

  /// Send every queued packet (single-flit, VC 0) as credits allow; run until all arrived.
  void run(std::vector<std::pair<unsigned, unsigned>> packets, uint64_t max_cycles = 20000) {
    std::vector<std::vector<uint32_t>> queue(kNodes);
    for (auto [src, dst] : packets) queue[src].push_back(tracker.create(src, dst, 1, 0, false));
    std::vector<unsigned> credits(kNodes, kDepth), next(kNodes, 0);
    for (uint64_t t = 0; t < max_cycles && tracker.outstanding() != 0; ++t) {
      for (unsigned n = 0; n < kNodes; ++n) {
        if (inject[n]->credit(t) >= 0) ++credits[n];
        if (next[n] < queue[n].size() && credits[n] > 0) {
          const uint32_t id = queue[n][next[n]++];
          inject[n]->send(t, tracker.flit(id, 0, 0));
          tracker.on_injected(id, 0, true, t);
          --credits[n];
        }
        if (const Flit* f = eject[n]->receive(t)) {
          tracker.on_delivered(n, *f, t);
          eject[n]->return_credit(t, f->vc);
        }
      }
      for (auto& r : routers) r->step(t);
    }
  }
};

void expect_all_delivered(const Mesh& m, uint64_t packets) {
  const TrackerCounts c = m.tracker.counts();
  EXPECT_EQ(c.delivered, packets);
  EXPECT_EQ(c.duplicated + c.corrupted + c.misdelivered, 0u)
      << (m.tracker.messages().empty() ? "" : m.tracker.messages()[0]);
  EXPECT_EQ(m.tracker.outstanding(), 0u);
  EXPECT_TRUE(m.errors.empty()) << m.errors.front();
}

TEST(BoardRouter, EveryRuleDeliversAllToAll) {
  for (const char* routing : {"xy", "north_last", "min_adaptive"}) {
    SCOPED_TRACE(routing);
    Mesh m(routing);
    std::vector<std::pair<unsigned, unsigned>> all;
    for (unsigned round = 0; round < 4; ++round)
      for (unsigned s = 0; s < kNodes; ++s)
        for (unsigned d = 0; d < kNodes; ++d)
          if (s != d) all.emplace_back(s, d);
    m.run(all);
    expect_all_delivered(m, all.size());
  }
}

TEST(BoardRouter, XyTakesTheDimensionOrderPath) {
  Mesh m("xy");
  m.run({{0, 7}});  // (0,0) -> (1,2): east once, then north twice
  expect_all_delivered(m, 1);
  // The flit crossed r0 -> E, r1 -> N, r4 -> N and no other router-to-router link.
  for (unsigned n = 0; n < kNodes; ++n)
    for (unsigned d = 0; d < 4; ++d) {
      const FlitLink* l = m.between[n][d];
      if (l == nullptr) continue;
      const bool on_path = (n == 0 && d == kPortE) || (n == 1 && d == kPortN) || (n == 4 && d == kPortN);
      EXPECT_EQ(l->flits_sent(), on_path ? 1u : 0u) << "router " << n << " port " << port_name(d);
    }
}

TEST(BoardRouter, NamesAreTheBoardRoutingFunctions) {
  for (const BoardRouting& r : board_routings()) {
    bool registered = false;
    for (const RegisteredRouting& f : routing_functions()) registered = registered || f.name == r.name;
    EXPECT_TRUE(registered) << r.name;
  }
}

}  // namespace
}  // namespace hx
