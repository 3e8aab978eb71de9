// nv_config.h: the YAML config of `hxsim nvswitch`: an NVSwitch-like system (DGX-2 or the
// two-level fat tree of Klenk et al.) and one allreduce on it by ring, pull or push.
// Every key, its unit and its default: docs/nvswitch.md. Physical units in, cycles derived: the
// fabric clock is the link bandwidth divided by the 16-B flit (25 GB/s -> 1.5625 GHz).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "config_reader.h"
#include "fault_set.h"
#include "link_rate.h"
#include "nv_gpu.h"
#include "nv_switch.h"
#include "nv_system_builder.h"
#include "nv_topology.h"

namespace hx::nv {

struct NvConfig {
  std::string source, name, description;
  std::string kind = "dgx2";      // topology.kind: a registered NVSwitch system (nv_system_builder.h)
  std::string routing = "table";  // routing.algorithm: a registered routing function (nv_routing.h)
  unsigned groups = 2, links = 6;
  double link_bandwidth = 25e9 * 8;  // bit/s, GPU links; sets the fabric clock
  double trunk_bandwidth = 0;        // bit/s, switch-to-switch links; 0 until derived
  double link_latency_s = 0;
  double link_bit_error_rate = 0;  // topology.link_bit_error_rate: every NVLink, link-level retry
  double switch_latency_s = 150e-9;
  double speedup = 2;
  unsigned table_bytes = 256;
  unsigned buffer_bytes = 0;  // switch.buffer, per VC; 0: the default (nv_config.cpp)
  double timeout_s = 1e-6;
  Method method = Method::Push;
  DataType dtype = DataType::Fp32;
  uint64_t message_bytes = 0;
  uint64_t wave_bytes = 0;
  unsigned waves = 1;
  bool barrier = false;
  uint64_t ring_slice_bytes = 64 * 1024;
  unsigned mem_latency = 180, mem_jitter = 180;
  bool shuffle = false;  // gpu.issue_order: address
  uint64_t seed = 1;
  uint64_t watchdog_cycles = 20000;
  // Test hook (--inject-fault, not in the YAML): corrupt or drop one delivered data packet.
  GpuParams::Fault fault = GpuParams::Fault::None;
  unsigned fault_gpu = 0;
  uint64_t fault_n = 0;

  // derived
  double clock_hz = 0;
  /// Flits per fabric cycle of a switch-to-switch link.
  /// Switch-to-switch links: flits per fabric cycle, from the two bandwidths.
  LinkRate trunk_link_rate() const { return LinkRate::from_bandwidth(trunk_bandwidth, link_bandwidth); }
  double trunk_rate() const { return trunk_link_rate().flits_per_cycle; }
  unsigned link_latency = 1, switch_latency = 0, input_buffer = 0, timeout = 0;
  unsigned gpus() const { return groups * 8; }
  /// What the system's netlist takes from the config (NvSystemBuilder::network): every link
  /// link_latency cycles; the rates from the bandwidths by link_rate.h, the GPU links at the
  /// clock's own (1 flit per cycle), the switch-to-switch links at trunk_link_rate().
  /// Failed trunk and spine links and switches (faults.*, topology/faults.h).
  FaultSet faults;
  /// The system's netlist, its failed links marked: what NvTopology and the results are built of.
  NetworkDescription network() const;

  NvNetworkParams network_params() const {
    const LinkRate gpu_rate = LinkRate::from_bandwidth(link_bandwidth, link_bandwidth);
    return {groups, links, routing, link_latency, gpu_rate, trunk_link_rate()};
  }
  /// How the cycle-level numbers were derived from the physical ones, one line each.
  std::vector<std::string> derivations() const;
  /// Payload peak per GPU: all links, 128 B of every 144-B write plus its 16-B ack.
  double payload_peak_bytes_per_s() const;
};

NvConfig load_nv_config(const std::string& path, const std::vector<std::string>& overrides);
NvConfig load_nv_config_text(const std::string& yaml, const std::string& source,
                             const std::vector<std::string>& overrides);
std::string method_name(Method m);
/// Every key of the schema, sections included, in schema order.
std::vector<KeyInfo> config_keys();

}  // namespace hx::nv
