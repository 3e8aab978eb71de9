// maxmin.h: max-min fair rates by progressive filling (Bertsekas and Gallager, Data Networks,
// section 6.5.2), the rate allocation of the flow model (flow_model.h).
//
// A flow uses channels in fixed proportions: a flow split over several routes puts a fraction
// of its rate on each channel of each route (the fractions of one flow over one channel add
// up). Every unfrozen flow's rate grows at the same pace until some channel is full; the flows
// on a full channel freeze at their rate, the others keep growing. The result is max-min fair:
// no flow can get more without taking from a flow that has no more.
#pragma once

#include <cstdint>
#include <vector>

namespace hx {

/// One flow: the channels it uses, each with the share of the flow's rate on it.
struct FlowUse {
  std::vector<std::pair<uint32_t, double>> channels;
};

struct MaxMinResult {
  std::vector<double> rates;  ///< per flow, in the capacities' unit
  unsigned levels = 0;        ///< filling steps (distinct bottleneck levels)
};

/// Max-min fair rates of `flows` over channels of capacity `capacity` (same unit as the
/// rates). A flow that uses no channel gets no bound: rate +infinity.
MaxMinResult maxmin_rates(const std::vector<double>& capacity, const std::vector<FlowUse>& flows);

}  // namespace hx
