// torus_route.h: the output port dimension-order routing takes on a 2D torus of accelerator
// routers (port 0 the router's own accelerator, 1..4 N, E, S, W): x first, then y, each the
// short way round, a tie going east (north). One rule for both users: the switch's routing
// function (torus.cpp, which adds the datelines' VCs) and the flow model
// (model/flow_graph.cpp), which follows the same ports. No SystemC.
#pragma once

namespace hx {

enum TorusPort : unsigned { kTorusLocal = 0, kTorusN = 1, kTorusE = 2, kTorusS = 3, kTorusW = 4 };

/// The port from router (x, y) of an X x Y torus towards the router of terminal `dst`
/// (dst = dy * X + dx); kTorusLocal at it.
inline unsigned dor_torus_port(unsigned x, unsigned y, unsigned X, unsigned Y, unsigned dst) {
  const unsigned dx = dst % X, dy = dst / X;
  if (dx != x) return (dx + X - x) % X <= X / 2 ? kTorusE : kTorusW;
  if (dy != y) return (dy + Y - y) % Y <= Y / 2 ? kTorusN : kTorusS;
  return kTorusLocal;
}

}  // namespace hx
