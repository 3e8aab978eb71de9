// build.cpp: a fabric-model run's netlist from its config: clock, links, boards with their
// Verilated planes, accelerators, the collective engine, the switch fabric, waveforms.
#include <climits>
#include <cmath>
#include <optional>
#include <stdexcept>
#include <thread>

#include "fabric_topology.h"
#include "faults.h"
#include "mpi_world.h"
#include "netlist.h"

namespace hx {

namespace {

FlitFormat flit_format(const SimConfig& cfg) {
  FlitFormat f;
  f.payload_width = cfg.router.flit_width_bits;
  return f;
}

// Node n sits at (X, Y) = (n mod system_x, n div system_x): on board (X div a, Y div b), as
// node (X mod a, Y mod b) of that board.
// Endpoint e is accelerator e mod N's port in plane e div N: the same address in every plane.
std::vector<EndpointAddress> node_addresses(const SimConfig& cfg) {
  std::vector<EndpointAddress> addr(cfg.node_count());
  if (!fabric_topology(cfg.topology.kind).has_boards()) {
    // No boards: the endpoint number rides in the header's board fields (TreeAddressing).
    constexpr unsigned kRow = TreeAddressing::kEndpointsPerBoardRow;
    for (unsigned n = 0; n < addr.size(); ++n) addr[n] = {n % kRow, n / kRow, 0, 0};
    return addr;
  }
  const unsigned a = cfg.topology.board_x, b = cfg.topology.board_y;
  for (unsigned n = 0; n < addr.size(); ++n) {
    const unsigned x = n % cfg.system_x(), y = n / cfg.system_x();
    addr[n] = {x / a, y / b, x % a, y % b};
  }
  return addr;
}

std::vector<EndpointAddress> endpoint_addresses(const SimConfig& cfg) {
  const std::vector<EndpointAddress> one = node_addresses(cfg);
  std::vector<EndpointAddress> all;
  for (unsigned p = 0; p < cfg.topology.planes; ++p) all.insert(all.end(), one.begin(), one.end());
  return all;
}

}  // namespace

TrafficPattern make_pattern(const SimConfig& cfg) {
  return TrafficPattern(cfg.traffic.pattern, fabric_topology(cfg.topology.kind).node_grid(cfg),
                        cfg.traffic.hotspot_nodes, cfg.traffic.hotspot_fraction, cfg.run.seed,
                        cfg.traffic.message_packets, cfg.traffic.include_self);
}

namespace {

// The collective's jobs: one on every accelerator (rank r = accelerator r), or collective.jobs
// placed on the HammingMesh's boards by the allocator (greedy with transpose, in config order).
// A job of v x u boards sees a (v a) x (u b) torus of ranks; rank r at (X, Y) = (r mod v a,
// r div v a) sits on its virtual board (X div a, Y div b), which the placement maps to a
// physical board (the job's boards need not be consecutive: a virtual sub-HammingMesh).
std::vector<CollectiveJob> collective_jobs(const SimConfig& cfg, std::vector<alloc::Placement>& placements) {
  const SimConfig::Collective& k = cfg.collective;
  std::vector<CollectiveJob> jobs;
  if (k.jobs.empty()) {
    CollectiveJob job;
    job.name = "job0";
    if (k.algorithm == CollectiveAlgorithm::Hierarchical) {
      // The chunks cross the platform's dimensions in the order the scheduler gives them. An
      // NPU feeds each dimension through its own lane, one flit per cycle: a dimension faster
      // than that would be held back by the NPU, not by its links, and the run would measure
      // the lane.
      const ScheduleRequest req = hierarchical_request(cfg);
      for (std::size_t d = 0; d < req.dims.size(); ++d) {
        const double bps = req.dims[d].link_bps * req.dims[d].links;
        if (bps > cfg.local_link.bandwidth_bps * (1 + 1e-9))
          throw std::invalid_argument(
              cfg.source + ": topology.dims[" + std::to_string(d) + "]: links x bandwidth = " + format_bandwidth(bps) +
              " is more than an NPU lane carries (one flit per cycle, " +
              format_bandwidth(cfg.local_link.bandwidth_bps) +
              "); the cycle model's NPU would hold the dimension back: raise router.clock or scale the bandwidths "
              "down (hxsim model takes the config as it is)");
      }
      if (k.op == CollectiveOp::AllToAll) {
        job.plan = hierarchical_all_to_all_plan(req.dims[0].size, req.dims[1].size, k.elements());
      } else {
        const ChunkSchedule schedule = schedule_chunks(req);
        job.plan = hierarchical_plan(req, schedule, simulate_schedule(req, schedule), k.elements());
      }
    } else {
      job.plan = make_collective_plan(k.op, k.algorithm, cfg.system_x(), cfg.system_y(), k.elements(), k.root);
    }
    for (unsigned r = 0; r < cfg.node_count(); ++r) job.endpoint.push_back(r);
    jobs.push_back(std::move(job));
    return jobs;
  }
  alloc::Heuristics h;
  h.transpose = true;
  // The boards and trees as the builder makes them (the trees matter to the locality heuristic,
  // which this placement does not use).
  const BoardGrid grid = *fabric_topology(cfg.topology.kind).board_grid(cfg);
  alloc::HxMeshAllocator mesh(grid.boards_x, grid.boards_y, {}, h, alloc::trees_of(grid));
  const unsigned a = cfg.topology.board_x, b = cfg.topology.board_y;
  for (std::size_t i = 0; i < k.jobs.size(); ++i) {
    const auto [cols, rows] = k.jobs[i];
    std::optional<alloc::Placement> p = mesh.allocate(rows, cols);
    if (!p)
      throw std::invalid_argument(cfg.source + ": collective.jobs[" + std::to_string(i) + "]: a job of " +
                                  std::to_string(cols) + "x" + std::to_string(rows) + " boards does not fit the " +
                                  std::to_string(mesh.free_boards()) + " free boards left by the jobs before it");
    CollectiveJob job;
    job.name = "job" + std::to_string(i);
    const unsigned job_x = p->v() * a, job_y = p->u() * b;  // transposed if the allocator turned it
    job.plan = make_collective_plan(k.op, k.algorithm, job_x, job_y, k.elements(), k.root);
    for (unsigned r = 0; r < job_x * job_y; ++r) {
      const unsigned x = r % job_x, y = r / job_x;
      const alloc::Board board = p->physical(y / b, x / a);
      job.endpoint.push_back((board.row * b + y % b) * cfg.system_x() + board.col * a + x % a);
    }
    const auto list = [](const std::vector<unsigned>& v) {
      std::string t;
      for (unsigned e : v) t += (t.empty() ? "" : ", ") + std::to_string(e);
      return "[" + t + "]";
    };
    job.placement = std::to_string(p->v()) + "x" + std::to_string(p->u()) + " boards: columns " + list(p->cols) +
                    ", rows " + list(p->rows);
    jobs.push_back(std::move(job));
    placements.push_back(std::move(*p));
  }
  return jobs;
}

}  // namespace

Simulation::Netlist::Netlist(const SimConfig& cfg)
    : pattern(make_pattern(cfg)),
      tracker(flit_format(cfg), endpoint_addresses(cfg), cfg.router.local_ports, cfg.router.vcs) {}

// The board plane a config needs; std::invalid_argument if the RTL does not take its parameters.
std::optional<PlaneVariant> board_plane(const SimConfig& cfg) {
  if (!fabric_topology(cfg.topology.kind).rtl_boards(cfg)) return std::nullopt;  // no RTL boards
  try {
    return plane_variant(cfg.topology.board_x, cfg.topology.board_y, cfg.router.vcs, cfg.router.buffer_depth,
                         cfg.router.flit_width_bits, cfg.router.local_ports);
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(cfg.source + ": " + e.what());
  }
}

std::string describe_rtl_model(const SimConfig& cfg) {
  const std::optional<PlaneVariant> v = board_plane(cfg);
  return v ? "rtl model: hx_board_plane " + v->name + ", " + plane_variant_source(*v) : "rtl model: none";
}

Simulation::Simulation(const SimConfig& cfg, const RunOptions& opt) : cfg_(cfg), opt_(opt) {
  const FabricTopology& topo = fabric_topology(cfg.topology.kind);
  const bool rtl = topo.rtl_boards(cfg);
  const std::string what = cfg.topology.kind + (topo.has_boards() && !rtl ? " with router.model switch" : "");
  if (!rtl && !opt.trace_path.empty())
    throw std::invalid_argument("--trace: a " + what + " has no RTL to trace (waveforms need boards)");
  net_ = std::make_unique<Netlist>(cfg);
  Netlist& n = *net_;
  // C++ switch routers on boards report every hop as a switch (PacketTracker).
  if (topo.has_boards() && !rtl) n.tracker.count_board_routers_as_switches();
  n.variant = board_plane(cfg);
  const PlaneVariant* v = n.variant ? &*n.variant : nullptr;
  n.vctx = std::make_unique<VerilatedContext>();
  if (!opt.trace_path.empty()) n.vctx->traceEverOn(true);

  const double period_ps = std::round(1e12 / cfg.router.clock_hz);
  n.clock = std::make_unique<sc_core::sc_clock>("clk", sc_core::sc_time(period_ps, sc_core::SC_PS));

  // A partitioned run (rank_boundary.h): this rank builds the whole netlist and steps its part;
  // the C++ components are rank 0's, so the other ranks clock them with a signal that never
  // toggles.
  MpiWorld* world = opt.world != nullptr && opt.world->size() > 1 ? opt.world : nullptr;
  const unsigned rank = world != nullptr ? world->rank() : 0;
  if (world != nullptr) {
    if (!rtl)
      throw std::invalid_argument("--partition: a " + what +
                                  " has no RTL board planes to split between ranks; run it in one process");
    if (!opt.trace_path.empty())
      throw std::invalid_argument("--partition: no waveforms of a partitioned run; trace it in one process");
    if (opt.threads > 1)
      throw std::invalid_argument("--partition with --threads: every rank steps its planes on one thread");
    n.still = std::make_unique<sc_core::sc_signal<bool>>("still");
  }
  sc_core::sc_signal_in_if<bool>& cpp_clock = rank == 0 ? static_cast<sc_core::sc_signal_in_if<bool>&>(*n.clock)
                                                        : static_cast<sc_core::sc_signal_in_if<bool>&>(*n.still);

  // One link pair per accelerator, plane and local port: endpoint e = plane * N + accelerator.
  const unsigned planes = cfg.topology.planes;
  const unsigned nodes = cfg.node_count() * planes;
  const unsigned lanes = cfg.router.local_ports;
  for (unsigned i = 0; i < nodes; ++i) {
    const unsigned accel = i % cfg.node_count(), plane = i / cfg.node_count();
    for (unsigned k = 0; k < lanes; ++k) {
      const std::string id = "node" + std::to_string(accel) + (planes > 1 ? "_plane" + std::to_string(plane) : "") +
                             (lanes > 1 ? "_lane" + std::to_string(k) : "");
      n.inject.push_back(std::make_unique<FlitLink>((id + "_inject").c_str(), cfg.local_link.latency_cycles));
      n.eject.push_back(std::make_unique<FlitLink>((id + "_eject").c_str(), cfg.local_link.latency_cycles));
    }
  }

  // Every board of the system with its planes. Board i is board (i mod global_x,
  // i div global_x); plane_of_board[p][i] is its plane p.
  const BoardGeometry geom{cfg.topology.board_x, cfg.topology.board_y};
  const std::vector<EndpointAddress> addr = endpoint_addresses(cfg);
  std::vector<Board> boards(rtl ? cfg.board_count() : 0);
  std::vector<std::vector<PlaneModel*>> plane_of_board(planes);
  for (unsigned i = 0; i < boards.size(); ++i) {
    boards[i].name = "board" + std::to_string(i);
    for (unsigned p = 0; p < planes; ++p) {
      boards[i].planes.push_back(
          make_plane(*v, n.vctx.get(), boards[i].name + "_plane" + std::to_string(p), !opt.trace_path.empty()));
      plane_of_board[p].push_back(boards[i].planes.back().get());
    }
  }
  for (unsigned i = 0; i < nodes && rtl; ++i) {
    PlaneModel& plane =
        *plane_of_board[i / cfg.node_count()][addr[i].board_y * cfg.topology.global_x + addr[i].board_x];
    for (unsigned k = 0; k < lanes; ++k) {
      plane.connect(plane.local_port(geom.local_port(addr[i].node_x, addr[i].node_y), k), n.inject[i * lanes + k].get(),
                    n.eject[i * lanes + k].get());
    }
  }

  // The collective's jobs first: their plans say how many DMA queues a lane has.
  std::vector<CollectiveJob> jobs;
  if (cfg.collective.enabled) jobs = collective_jobs(cfg, n.placements);
  AcceleratorArrayConfig ac;
  for (const CollectiveJob& job : jobs)
    if (job.plan.queue_per_flow) ac.queues = std::max(ac.queues, static_cast<unsigned>(job.plan.flows.size()));
  ac.num_vcs = cfg.router.vcs;
  ac.buf_depth = cfg.router.buffer_depth;
  ac.any_vc = cfg.router.vc_policy == VcPolicy::Any;
  ac.injection_rate = cfg.traffic.injection_rate;
  ac.packet_length = cfg.traffic.packet_length;
  ac.source_queue = cfg.traffic.source_queue;
  ac.only_source = opt.only_source;
  ac.planes = planes;
  ac.lanes = lanes;
  ac.collective_timeout = cfg.collective.timeout_cycles;
  ac.warmup = cfg.run.warmup_cycles;
  ac.measure = cfg.run.measure_cycles;
  ac.drain = cfg.run.drain_cycles;
  ac.watchdog = cfg.run.watchdog_cycles;
  ac.seed = cfg.run.seed;
  n.accelerators = std::make_unique<AcceleratorArray>("accelerators", ac, n.pattern, n.tracker);
  n.accelerators->clk(cpp_clock);
  for (unsigned i = 0; i < nodes; ++i) {
    for (unsigned k = 0; k < lanes; ++k) {
      n.accelerators->connect(i, k, n.inject[i * lanes + k].get(), n.eject[i * lanes + k].get());
    }
  }
  if (cfg.collective.enabled) {
    if (!cfg.collective.jobs.empty()) {
      // Every job's boards and endpoints, for the tracker's check that no packet enters a board
      // of another job (idle jobs under only_job still own theirs).
      std::vector<int> board_job(cfg.board_count(), -1), endpoint_job(nodes, -1);
      for (unsigned k = 0; k < n.placements.size(); ++k) {
        for (const alloc::Board& b : n.placements[k].physical_boards())
          board_job[b.row * cfg.topology.global_x + b.col] = static_cast<int>(k);
      }
      for (unsigned e = 0; e < nodes; ++e) {
        endpoint_job[e] = board_job[addr[e].board_y * cfg.topology.global_x + addr[e].board_x];
      }
      n.tracker.set_jobs(std::move(board_job), std::move(endpoint_job));
      if (cfg.collective.only_job >= 0) {
        std::vector<CollectiveJob> one;
        one.push_back(std::move(jobs[static_cast<std::size_t>(cfg.collective.only_job)]));
        jobs.swap(one);
      }
    }
    CollectiveEngineConfig ec;
    ec.int32 = cfg.collective.int32;
    ec.segment_flits = cfg.collective.segment_flits(cfg.router.flit_width_bits);
    ec.lanes = lanes;
    ec.vcs = cfg.router.vcs;
    ec.keep_outputs = !opt.dump_buffers.empty();
    n.engine = std::make_unique<CollectiveEngine>(ec, std::move(jobs), n.tracker, nodes);
    n.engine->attach(n.accelerators.get());
    n.accelerators->set_engine(n.engine.get());
  }

  AcceleratorArray* acc = n.accelerators.get();
  auto on_error = [acc](const std::string& msg) { acc->stop(RunEnd::ModelError, "MODEL ERROR " + msg); };
  // A rank > 0 tells rank 0 of an error in its planes; rank 0 stops the run with it.
  Netlist* net = &n;
  auto on_board_error = [net, rank, on_error](const std::string& msg) {
    if (rank == 0) return on_error(msg);
    net->boundary->report_error(msg);
  };
  if (topo.has_fabric()) {
    // The topology's builder describes the switches and their links to the endpoints or to the
    // boards' edges; the fabric instantiates that netlist.
    n.tracker.check_path_rule(true, topo.max_path_vc(cfg));
    n.fabric = std::make_unique<SwitchFabric>("fabric", cfg, &n.tracker, on_error);
    n.fabric->clk(cpp_clock);
    SwitchFabric::Ports ports;
    if (rtl) {
      ports.planes = plane_of_board;
    } else {
      for (std::size_t i = 0; i < n.inject.size(); ++i) {
        ports.inject.push_back(n.inject[i].get());
        ports.eject.push_back(n.eject[i].get());
      }
      ports.lanes = lanes;
    }
    NetworkDescription net = topo.network(cfg);
    apply_faults(net, cfg.faults);  // checked when the config was read: cannot throw here
    n.fabric->build(net, ports);
    SwitchFabric* fabric = n.fabric.get();
    acc->set_network_report([fabric] { return fabric->describe(40); });
  }
  // Connections first, then reset: a plane ties off the edge ports left unconnected.
  for (unsigned i = 0; i < boards.size(); ++i) {
    PlaneStraps straps;
    straps.board_x = i % cfg.topology.global_x;
    straps.board_y = i / cfg.topology.global_x;
    straps.route_mode = cfg.router.routing;
    // Where the trees deliver (span_board_i). A plain board has no trees and may not name any
    // (board.cpp forbids topology.tree), so it keeps the default, span line: the strap is 0.
    straps.tree_span = cfg.topology.tree_span;
    straps.vc_policy = cfg.router.vc_policy;
    for (unsigned p = 0; p < planes; ++p) plane_of_board[p][i]->reset(straps, 4);
  }
  if (!boards.empty()) {
    const unsigned plane_count = cfg.board_count() * planes;
    // Waveforms and --link-loads (which reads the planes' edge links between chunks) on this thread.
    unsigned threads = opt.trace_path.empty() && opt.link_loads.empty() && world == nullptr ? opt.threads : 1;
    if (threads == 0)
      threads = plane_count >= RunOptions::kAutoThreadPlanes ? std::min(2u, std::thread::hardware_concurrency()) : 1;
    // Plane g = board i's plane p is g = i * planes + p, as BoardArray orders them.
    const std::vector<unsigned> owner = plane_ranks(plane_count, world != nullptr ? world->size() : 1);
    std::vector<bool> stepped(plane_count);
    for (unsigned g = 0; g < plane_count; ++g) stepped[g] = owner[g] == rank;
    n.boards =
        std::make_unique<BoardArray>("boards", std::move(boards), on_board_error, std::max(threads, 1u), stepped);
    n.boards->clk(*n.clock);
    if (world != nullptr) {
      // The boundary: every link at a port of a plane that a rank > 0 steps, in plane and port
      // order on every rank. The window is the same on every rank: the smallest 1 + latency.
      std::vector<RankBoundary::Crossing> crossings;
      unsigned window = UINT_MAX;
      for (unsigned g = 0; g < plane_count; ++g) {
        if (owner[g] == 0) continue;
        const PlaneModel& plane = *plane_of_board[g % planes][g / planes];
        for (unsigned port = 0; port < plane.num_ports(); ++port) {
          for (FlitLink* l : {plane.in_link(port), plane.out_link(port)}) {
            if (l == nullptr) continue;
            window = std::min(window, l->latency() + 1);
            // The in-link's sender and the out-link's receiver are rank 0's components.
            const bool plane_sends = l == plane.out_link(port);
            if (rank == 0) crossings.push_back({l, owner[g], !plane_sends});
            if (rank == owner[g]) crossings.push_back({l, 0, plane_sends});
          }
        }
      }
      n.boundary = std::make_unique<RankBoundary>("boundary", *world, crossings, window, on_error, *n.boards);
      n.boundary->clk(*n.clock);
    }
  }

  if (!opt.fault.empty()) {
    if (opt.fault_node >= nodes) throw std::invalid_argument("fault node out of range");
    n.eject[opt.fault_node * lanes]->arm_fault(opt.fault == "drop" ? FlitLink::Fault::Drop : FlitLink::Fault::Corrupt,
                                               opt.fault_nth);
  }

  if (!opt.trace_path.empty()) {
    n.waveform = std::make_unique<Waveform>(opt.trace_path, opt.trace_from, opt.trace_to,
                                            static_cast<uint64_t>(period_ps), flit_format(cfg));
    for (const auto& plane_p : plane_of_board) {
      for (PlaneModel* plane : plane_p) n.waveform->add_plane(*plane);
    }
    for (unsigned i = 0; i < nodes; ++i) {
      n.waveform->add_link(n.inject[i].get());
      n.waveform->add_link(n.eject[i].get());
    }
    if (n.fabric) {
      for (FlitLink* l : n.fabric->links()) n.waveform->add_link(l);
    }
    n.waveform->open();
    Waveform* w = n.waveform.get();
    n.boards->set_observer([w](uint64_t t) { w->dump(t); });
  }
}

Simulation::~Simulation() = default;

}  // namespace hx
