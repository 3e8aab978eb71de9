// torus_route.h: where dimension-order routing goes on a 2D or 3D torus of accelerator routers
// (port 0 the router's own accelerator, 1..4 N, E, S, W, 5 and 6 up and down): per dimension the
// port the short way round, a tie going the plus way (east, north, up), and whether that hop
// crosses the wrap-around link. One rule for both users: the switches' routing functions
// (torus.cpp, which adds the datelines' VCs and the adaptive choice) and the flow model
// (model/flow_graph.cpp), which follows the same ports. No SystemC.
#pragma once

namespace hx {

enum TorusPort : unsigned {
  kTorusLocal = 0,
  kTorusN = 1,
  kTorusE = 2,
  kTorusS = 3,
  kTorusW = 4,
  kTorusUp = 5,
  kTorusDown = 6
};

/// Per dimension (x, y, z) the port towards the destination the short way round (kTorusLocal:
/// aligned) and whether that hop wraps around (crosses the dateline).
struct TorusStep {
  unsigned port[3] = {kTorusLocal, kTorusLocal, kTorusLocal};
  bool wraps[3] = {false, false, false};
};

/// The step from router `at` of a torus of `size` routers per dimension towards the router of
/// terminal `dst`, numbered (x, y, z) -> x + X (y + Y z); a 2D torus has size[2] = 1.
inline TorusStep torus_step(const unsigned (&at)[3], const unsigned (&size)[3], unsigned dst) {
  const unsigned to[3] = {dst % size[0], (dst / size[0]) % size[1], dst / (size[0] * size[1])};
  const unsigned plus[3] = {kTorusE, kTorusN, kTorusUp}, minus[3] = {kTorusW, kTorusS, kTorusDown};
  TorusStep s;
  for (unsigned d = 0; d < 3; ++d) {
    if (to[d] == at[d]) continue;
    const bool up = (to[d] + size[d] - at[d]) % size[d] <= size[d] / 2;
    s.port[d] = up ? plus[d] : minus[d];
    s.wraps[d] = up ? at[d] == size[d] - 1 : at[d] == 0;
  }
  return s;
}

/// The port dimension order takes from router (x, y) of an X x Y torus towards terminal `dst`:
/// the first unaligned dimension's; kTorusLocal at it.
inline unsigned dor_torus_port(unsigned x, unsigned y, unsigned X, unsigned Y, unsigned dst) {
  const TorusStep s = torus_step({x, y, 0}, {X, Y, 1}, dst);
  for (const unsigned p : s.port)
    if (p != kTorusLocal) return p;
  return kTorusLocal;
}

}  // namespace hx
