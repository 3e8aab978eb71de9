#include "board_geometry.h"

#include <stdexcept>

namespace hx {

namespace {
constexpr PortMask bit(unsigned p) { return static_cast<PortMask>(1u << p); }
}  // namespace

const char* port_name(unsigned port) {
  static const char* const kNames[kMaxRouterPorts] = {"N", "E", "S", "W", "L", "L1", "L2", "L3"};
  return port < kMaxRouterPorts ? kNames[port] : "?";
}

const char* to_string(RouteMode m) {
  switch (m) {
    case RouteMode::Xy: return "xy";
    case RouteMode::NorthLast: return "north-last";
    case RouteMode::MinAdaptive: return "min-adaptive";
  }
  return "?";
}

const char* to_string(VcPolicy p) { return p == VcPolicy::Keep ? "vc-keep" : "vc-any"; }

const char* to_string(TreeSpan s) { return s == TreeSpan::Line ? "span-line" : "span-board"; }

std::string port_mask_string(PortMask m) {
  std::string s = "{";
  for (unsigned p = 0; p < kMaxRouterPorts; ++p) {
    if (m & bit(p)) {
      if (s.size() > 1) s += ",";
      s += port_name(p);
    }
  }
  return s + "}";
}

unsigned BoardGeometry::edge_port(unsigned dir, unsigned x, unsigned y) const {
  switch (dir) {
    case kPortN: return num_local() + x;
    case kPortE: return num_local() + size_x + y;
    case kPortS: return num_local() + size_x + size_y + x;
    case kPortW: return num_local() + 2 * size_x + size_y + y;
    default: throw std::invalid_argument("BoardGeometry::edge_port: not a network direction");
  }
}

void BoardGeometry::router_of(unsigned ext, unsigned& x, unsigned& y, unsigned& port) const {
  if (ext < num_local()) {
    const unsigned node = ext % num_nodes();
    x = node % size_x;
    y = node / size_x;
    port = kPortL + ext / num_nodes();
    return;
  }
  unsigned e = ext - num_local();
  if (e < size_x) {
    x = e;
    y = size_y - 1;
    port = kPortN;
    return;
  }
  e -= size_x;
  if (e < size_y) {
    x = size_x - 1;
    y = e;
    port = kPortE;
    return;
  }
  e -= size_y;
  if (e < size_x) {
    x = e;
    y = 0;
    port = kPortS;
    return;
  }
  e -= size_x;
  if (e < size_y) {
    x = 0;
    y = e;
    port = kPortW;
    return;
  }
  throw std::out_of_range("BoardGeometry::router_of: no such external port");
}

RouterPlace BoardGeometry::place(unsigned x, unsigned y, unsigned board_x, unsigned board_y) const {
  RouterPlace p;
  p.node_x = x;
  p.node_y = y;
  p.last_x = size_x - 1;
  p.last_y = size_y - 1;
  p.board_x = board_x;
  p.board_y = board_y;
  return p;
}

std::string BoardGeometry::external_name(unsigned ext) const {
  unsigned x = 0, y = 0, port = 0;
  router_of(ext, x, y, port);
  std::string s = port >= kPortL ? port_name(port) : std::string("edge ") + port_name(port);
  return s + "(" + std::to_string(x) + "," + std::to_string(y) + ")#" + std::to_string(ext);
}

}  // namespace hx
