// nv_switch.h: the NVSwitch-like switch of Klenk et al. (section V, IV-A, IV-D, IV-E).
//
// 16 ports, output-queued, two VCs (requests, responses). Each input polls its link every cycle;
// a packet whose head arrives at an input port becomes eligible for the crossbar `latency` cycles
// later (the switch's 150 ns); it then moves, whole, to every output it needs as soon as each has
// room (virtual cut-through). A multicast goes to the ports that are free and tries the others
// again later (IV-A). The crossbar reads an input at `speedup` flits per cycle (IV-E1: in-network
// reductions need about 2x).
//
// Each port has a reduction table (the Verilated RTL, reduction_bank.h), in front of its output:
//   - pull (IV-B): a pull request allocates an entry in the table of the port it entered by, with
//     the number of responses expected from the GPUs it will reach from here. At the first hop
//     (a GPU port) the request waits while the table is full; further on it is forwarded anyway.
//     Pull responses going out of a port pass through its table: they are reduced into the entry,
//     and the result leaves when all have arrived; responses without an entry pass unchanged.
//   - push (IV-C): a reduction write goes to the table of its line's home port. A completed entry
//     is multicast to every GPU from there; an evicted partial goes to the line's home GPU. Both
//     re-enter the crossbar through the port's reinjection input.
// Acks addressed to a switch port (for its results and partials) are absorbed by that switch.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "fifo.h"
#include "nv_link.h"
#include "nv_routing.h"
#include "nv_topology.h"
#include "reduction_bank.h"
#include "switch.h"

namespace hx::nv {

struct SwitchParams {
  unsigned latency = 234;       // cycles from head arrival to the crossbar
  unsigned input_buffer = 288;  // flits per VC per input port (credits of the upstream link)
  unsigned output_queue = 36;   // flits per VC per output queue
  unsigned table_queue = 36;    // flits waiting for a port's reduction table
  double speedup = 2.0;         // crossbar flits per cycle per input
  AluOp op = AluOp::FAdd;
};

struct SwitchStats {
  uint64_t results = 0, evictions = 0, bypassed = 0, absorbed_acks = 0;
  uint64_t pull_stall_cycles = 0;  // first-hop requests waiting for a full table
  uint64_t table_flits_in = 0;
  unsigned max_occupancy = 0;
};

class NvSwitch final : public Switch {
 public:
  /// board: the system's scoreboard. A packet ends at a switch when the switch absorbs it (an ack
  /// to one of its ports) or a reduction unit takes it in (a push write, a pull response); what a
  /// unit emits is a new packet of the switch port's.
  /// routing: the system's routing function (routing/nv_routing.h), which the switch asks where
  /// each packet goes.
  NvSwitch(unsigned id, const NvTopology& topo, NvRouting& routing, const SwitchParams& params,
           std::unique_ptr<ReductionBank> bank, PacketBoard* board);

  unsigned id() const { return id_; }
  LinkTx& output(unsigned port) { return out_[port]; }
  /// The link that feeds input `port`: polled for packets, and where their credits go back.
  void set_input(unsigned port, LinkTx::Wire* link) { in_[port].link = link; }

  void step(uint64_t now) override;

  // ---- the one switch interface (core/switch.h) ----------------------------------------------
  std::string name() const override { return "switch " + std::to_string(id_); }
  unsigned ports() const override { return NvTopology::kPorts; }
  /// Nothing buffered, queued, in a table or on the way out (its output links included).
  bool idle() const override;
  /// "  switch 4: in 3 vc0: 2 packets; table 5: 1 entry; ...", one line, for the watchdog.
  std::string describe() const override;

  /// Table entries still valid (after a run: reductions that never completed).
  unsigned table_entries_in_use() const;
  const SwitchStats& stats() const { return stats_; }
  ReductionBank& bank() { return *bank_; }

 private:
  struct Held {
    uint64_t ready = 0;  // cycle it may enter the crossbar
    Packet pkt;
    bool planned = false;
    uint32_t remaining = 0;  // output ports still to receive a copy
    bool to_table = false;   // the one target is the table of port `table_port`
    unsigned table_port = 0;
    bool sink = false;       // absorbed here
    uint8_t table_step = 0;  // pull requests: 0 not yet offered, 1 offered, 2 allocated
  };
  struct Input {
    // Growing: credits bound them; the model does not restate the bound.
    static_assert(kVcs == 2, "one initializer per VC");
    Fifo<Held> vcq[kVcs] = {Fifo<Held>::growing(), Fifo<Held>::growing()};
    LinkTx::Wire* link = nullptr;  // none: a reinjection input
    double xbar_free = 0;
    unsigned next_vc = 0;
    bool from_link = true;  // false: the reinjection input of a port's table
  };
  struct TableFeed {
    Fifo<Packet> queue = Fifo<Packet>::growing();  // responses and writes waiting for the unit
    unsigned queued_flits = 0;
    unsigned flit = 0;  // next flit of queue.front() to present
    // A pull request waiting to allocate. It goes ahead of queued responses at the next packet
    // boundary: it takes the unit for one cycle, while its input port waits for it.
    bool has_request = false;
    bool presenting_request = false;
    Packet request;
    // output assembly: the packet the unit is emitting, then its destination
    bool assembling = false;
    bool bypass = false;  // `out` passed the unit unchanged
    Packet out;
    unsigned out_flits = 0;  // data flits received of `out`
    bool out_done = false;   // `out` is complete and waits for room downstream
  };

  void receive(unsigned port, uint64_t now);
  bool packets_arriving() const;
  void plan(Held& h, unsigned in, unsigned vc);
  bool dispatch(Input& in, int in_index, uint64_t now);
  void feed_tables(uint64_t now);
  void collect_output(unsigned port, const BankPortIo& io);
  bool deliver_output(unsigned port);
  unsigned reinject_index(unsigned port) const { return NvTopology::kPorts + port; }

  unsigned id_;
  const NvTopology& topo_;
  NvRouting& routing_;
  SwitchParams p_;
  std::unique_ptr<ReductionBank> bank_;
  std::array<Input, 2 * NvTopology::kPorts> in_;  // 16 link inputs, then 16 reinjection inputs
  std::array<LinkTx, NvTopology::kPorts> out_;
  std::array<TableFeed, NvTopology::kPorts> table_;
  std::array<BankPortIo, NvTopology::kPorts> io_;
  PacketBoard* board_;
  uint64_t now_ = 0;       // the cycle being handled
  unsigned buffered_ = 0;  // packets in input queues (not those still on the input links)
  unsigned rr_ = 0;        // round-robin pointer: the input served first, and the output tried first
  SwitchStats stats_;
};

}  // namespace hx::nv
