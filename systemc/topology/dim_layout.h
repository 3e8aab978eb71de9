// dim_layout.h: how a multi-dimensional platform's NPUs and switches number their ports, shared by
// its builder (multidim.cpp) and its routing function (routing/dim_order.cpp).
//
// NPU n has coordinate (n / stride_K) mod P_K in dimension K, dim1 varying fastest. Its router
// has one port to the NPU per dimension (the NPU's lanes 0 .. D - 1: lane K carries what the NPU
// sends into dimension K and what arrives from it, so that a packet waiting for one dimension
// never holds up another's) and then, dimension by dimension, the NPU's links of that dimension:
//   ring             2 R ports, R parallel rings: port 2r to the next NPU of ring r, 2r + 1 to
//                    the previous one (their ports 2r + 1 and 2r);
//   fully_connected  k (P - 1) ports, k links to each peer: copy j's link to the peer q steps
//                    ahead (q = 1 .. P - 1) is port j (P - 1) + q - 1;
//   switch           one port per switch plane.
// A switch of dimension K serves the P_K NPUs that differ only in coordinate K: its port q leads
// to the one with coordinate q. A rail-optimized cluster (rail.cpp) adds spine switches above its
// two dimensions, with dim_switch 2: spine port r leads to the leaf (the rail switch) of rail r.
#pragma once

#include <string>
#include <vector>

#include "dim_schedule.h"

namespace hx {

/// The netlist's link class of dimension k (0-based): "dim1", "dim2", ... (what the results
/// group links by and the cycle model's busy fractions look up).
inline std::string dim_link_class(unsigned k) { return "dim" + std::to_string(k + 1); }

struct DimLayout {
  struct Dim {
    DimKind kind = DimKind::Ring;
    unsigned size = 2, links = 2;
    unsigned stride = 1;      ///< NPU number step between neighbours in this dimension
    unsigned first_port = 1;  ///< the NPU router's first port of this dimension
  };
  std::vector<Dim> dims;
  unsigned lanes = 0;         ///< the NPU's ports into its router, one per dimension
  unsigned router_ports = 0;  ///< an NPU router's ports: its NPU's lanes and every dimension's links

  explicit DimLayout(const std::vector<Dimension>& ds)
      : lanes(static_cast<unsigned>(ds.size())), router_ports(static_cast<unsigned>(ds.size())) {
    unsigned stride = 1;
    for (const Dimension& d : ds) {
      dims.push_back({d.kind, d.size, d.links, stride, router_ports});
      router_ports += d.links;
      stride *= d.size;
    }
  }
  unsigned npus() const { return dims.empty() ? 1 : dims.back().stride * dims.back().size; }
  unsigned coord(unsigned npu, unsigned k) const { return npu / dims[k].stride % dims[k].size; }
  /// The NPU with coordinate `c` in dimension k and `npu`'s other coordinates.
  unsigned with_coord(unsigned npu, unsigned k, unsigned c) const {
    return npu + (c - coord(npu, k)) * dims[k].stride;  // unsigned wrap-around cancels out
  }
  /// The dimension an NPU router's port p (>= lanes) belongs to.
  unsigned dim_of_port(unsigned p) const {
    unsigned k = 0;
    while (k + 1 < dims.size() && p >= dims[k + 1].first_port) ++k;
    return k;
  }
};

}  // namespace hx
