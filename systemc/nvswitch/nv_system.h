// nv_system.h: an NVSwitch-like system as a SystemC model: the GPUs, the switches with their
// Verilated reduction units, and the links between them, clocked by one sc_clock at the fabric
// clock. The fabric manager's work (IV-A) happens at construction: every switch learns its routes
// and multicast trees from the topology, which stands for the MCR and routing tables.
//
// run() simulates one allreduce to completion. It stops with an error when the watchdog sees no
// progress for `run.watchdog` cycles while work remains (a deadlock), naming where packets sit.
// Completion requires every GPU to hold every final line, the network to be empty (every ack
// delivered) and every reduction table to be empty.
#pragma once

#include <nlohmann/json.hpp>
#include <systemc>

#include <memory>
#include <string>
#include <vector>

#include "nv_config.h"
#include "nv_packet.h"
#include "progress_line.h"

namespace hx::nv {

class LinkTx;

struct NvResults {
  bool ok = false;
  bool deadlock = false;  // the watchdog saw no progress for run.watchdog cycles
  std::string error;      // a deadlock, a leftover table entry, the first data error
  uint64_t cycles = 0;
  double seconds = 0, bandwidth = 0, fraction_of_peak = 0;
  double wall_seconds = 0;
  ScoreboardCounts packets;  // the scoreboard's: every packet a GPU or a switch sent
  std::vector<std::string> packet_messages;
  uint64_t wrong_elements = 0, duplicate_lines = 0, wrong_writer = 0, bad_checksums = 0, bad_counts = 0;
  uint64_t lines_final = 0;
  uint64_t writes_received = 0;  // uniform traffic: writes received at their destination
  uint64_t results = 0, evictions = 0, bypassed = 0, partials_merged = 0, pull_stall_cycles = 0;
  unsigned max_table_occupancy = 0;
  /// One class of links: GPU -> switch (injection), switch -> GPU (ejection), switch -> switch
  /// (fabric). Busy fractions follow from the busy cycles and the run's length.
  struct LinkClass {
    unsigned links = 0;
    uint64_t flits = 0;          // carried, headers included
    double busy_cycles = 0;      // summed over the links: flits / rate
    double max_busy_cycles = 0;  // of the busiest link
    void add(const LinkTx& link);
  } injection, ejection, fabric;
  RetryTotals link_errors;              // link-level retry over every link (topology.link_bit_error_rate)
  double reduction_latency_cycles = 0;  // mean, push write or pull request to its result
  // Pull: the cycle each GPU's last owned line came back reduced, earliest and latest over GPUs.
  // Their spread shows GPUs (in the DGX-2, whole groups) falling behind each other.
  uint64_t pull_owner_finish_first = 0, pull_owner_finish_last = 0;
};

class NvSystem : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(NvSystem);
  /// `traced`: run() will write a waveform of switch 0's reduction unit.
  NvSystem(sc_core::sc_module_name name, const NvConfig& cfg, bool traced = false);
  ~NvSystem() override;

  /// Simulates until the allreduce completes or fails. progress: print a line to stderr now and
  /// then on long runs. trace: an FST of switch 0's reduction units, "" for none.
  NvResults run(ProgressMode progress, const std::string& trace = "");

  const NvTopology& topology() const { return topo_; }

 private:
  void on_clock();
  bool all_done() const;
  bool network_idle() const;
  std::string where() const;

  NvConfig cfg_;
  NvTopology topo_;
  std::unique_ptr<class NvRouting> routing_;  // routing.algorithm, asked by every switch
  sc_core::sc_clock clock_;
  uint64_t cycle_ = 0;
  PacketBoard board_;  // every packet, end to end (core/scoreboard.h)
  std::vector<std::unique_ptr<class NvSwitch>> switches_;
  std::vector<std::unique_ptr<class Gpu>> gpus_;
  std::string failure_;
};

/// config.network of the results and `hxsim cost`: the netlist's switches and links by medium,
/// class, latency and rate (topology/network_cost.h), unpriced and without an analytical spec.
nlohmann::ordered_json nv_network_json(const NvTopology& topo);

/// The results document in the schema every hxsim run writes (docs/simulator.md, "Results").
nlohmann::ordered_json nv_results(const NvConfig& cfg, const NvTopology& topo, const NvResults& r);

}  // namespace hx::nv
