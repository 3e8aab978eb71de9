#include "network_models.h"

#include "mpi_world.h"

#include <unistd.h>

#include <stdexcept>

#include <yaml-cpp/yaml.h>

#include "board_mesh.h"
#include "config_reader.h"
#include "fabric_topology.h"
#include "gtkw.h"
#include "llm_workload_config.h"
#include "named_registry.h"
#include "network_cost.h"
#include "nv_routing.h"
#include "nv_system.h"
#include "nv_system_builder.h"
#include "routing_function.h"
#include "sim_config.h"
#include "topology_builder.h"

namespace hx {

namespace {

// ---- fabric: flit-level, RTL boards and C++ VC switches (simulation.h) --------------------------

SimConfig load_fabric(const RunRequest& r) {
  if (r.config_path.empty()) return load_config_text(default_config_yaml(), "<built-in>", r.overrides);
  return load_config(r.config_path, r.overrides);
}

std::vector<std::string> check_fabric(const RunRequest& r) {
  const SimConfig cfg = load_fabric(r);
  std::vector<std::string> lines{"valid config '" + cfg.name + "'"};
  lines.insert(lines.end(), cfg.derivations.begin(), cfg.derivations.end());
  lines.push_back(describe_rtl_model(cfg));
  return lines;
}

RunOutcome run_fabric(const RunRequest& r) {
  const SimConfig cfg = load_fabric(r);
  const RunOptions& opt = r.options;
  if (!opt.dump_buffers.empty() && !cfg.collective.enabled)
    throw std::invalid_argument("--dump-buffers needs a config with a collective");
  if (!opt.link_loads.empty() && !fabric_topology(cfg.topology.kind).has_fabric())
    throw std::invalid_argument("--link-loads: a lone " + cfg.topology.kind + " has no fabric links");
  if (opt.only_source >= static_cast<int>(cfg.node_count()))
    throw std::invalid_argument("--only-source: expected a node index below " + std::to_string(cfg.node_count()));
  Simulation sim(cfg, opt);
  RunOutcome out;
  out.results = sim.run();
  // The GTKWave save file beside the waveform: the signals of this config's planes and links.
  if (!opt.trace_path.empty()) write_gtkw(gtkw_path_for(opt.trace_path), opt.trace_path, cfg);
  out.passed = sim.passed();
  out.failure = sim.failure_report();
  return out;
}

// The netlist the kind's builder makes, priced beside the analytical model's counts for the
// same parameters.
PricedNetwork price_fabric(const RunRequest& r) {
  const SimConfig cfg = load_fabric(r);
  const FabricTopology& topo = fabric_topology(cfg.topology.kind);
  if (!topo.has_fabric())
    throw std::invalid_argument(r.config_path + ": a lone " + cfg.topology.kind + " has no network to price");
  const NetworkDescription net = topo.network(cfg);
  return {cfg.name, topo.describe(cfg), cfg.node_count(),
          network_cost_json(net.equipment(), net.link_groups(), topo.analytic_spec(cfg), cfg.topology.planes)};
}

// ---- nvswitch: packet-level GPUs and switches with Verilated reduction units (nv_system.h) -----

nv::NvConfig load_nvswitch(const RunRequest& r) {
  if (r.config_path.empty()) throw std::invalid_argument("an NVSwitch system needs a config file");
  nv::NvConfig cfg = nv::load_nv_config(r.config_path, r.overrides);
  const RunOptions& opt = r.options;
  const auto refuse = [](bool given, const char* option) {
    if (given) throw std::invalid_argument(std::string(option) + ": not supported by the nvswitch model");
  };
  refuse(r.trace_window_given, "--trace-window");
  refuse(opt.only_source >= 0, "--only-source");
  refuse(!opt.dump_buffers.empty(), "--dump-buffers");
  refuse(!opt.link_loads.empty(), "--link-loads");
  if (!opt.fault.empty()) {
    if (opt.fault_node >= cfg.gpus())
      throw std::invalid_argument("--inject-fault: NODE must be a GPU, 0.." + std::to_string(cfg.gpus() - 1));
    cfg.fault = opt.fault == "drop" ? nv::GpuParams::Fault::Drop : nv::GpuParams::Fault::Corrupt;
    cfg.fault_gpu = opt.fault_node;
    cfg.fault_n = opt.fault_nth;
  }
  return cfg;
}

std::vector<std::string> check_nvswitch(const RunRequest& r) {
  const nv::NvConfig cfg = load_nvswitch(r);
  std::vector<std::string> lines{"valid config '" + cfg.name + "'"};
  for (const std::string& d : cfg.derivations()) lines.push_back(d);
  return lines;
}

RunOutcome run_nvswitch(const RunRequest& r) {
  const nv::NvConfig cfg = load_nvswitch(r);
  if (r.options.world != nullptr && r.options.world->size() > 1)
    throw std::invalid_argument(
        "--partition: the NVSwitch model has no RTL board planes to split between ranks; "
        "run it in one process");
  nv::NvSystem system("nvswitch", cfg, !r.options.trace_path.empty());
  const nv::NvResults res = system.run(r.options.progress, r.options.trace_path);
  RunOutcome out;
  out.results = nv::nv_results(cfg, system.topology(), res);
  out.passed = res.ok;
  out.failure = res.error;
  return out;
}

// The netlist the kind's builder makes: counted, not priced (nv_network_json).
PricedNetwork price_nvswitch(const RunRequest& r) {
  const nv::NvConfig cfg = load_nvswitch(r);
  const nv::NvSystemBuilder& builder = nv::nv_system_builder(cfg.kind);
  const nv::NvTopology topo(builder, cfg.network());
  return {cfg.name, topo.name(), topo.gpus(), nv::nv_network_json(topo)};
}

std::vector<NetworkModel> make_models() {
  std::vector<NetworkModel> m;
  NetworkModel fabric;
  fabric.name = "fabric";
  fabric.description = "flit level: Verilated RTL board planes and C++ input-buffered VC switches, FlitLinks";
  // The registered routing functions (routing/routing_function.h). The board routing functions
  // are also the RTL router's route modes (rtl/hx_route.sv), which the boards route by in hardware.
  for (const RegisteredRouting& r : routing_functions()) {
    bool board = false;
    for (const BoardRouting& b : board_routings()) board = board || r.name == b.name;
    fabric.routings.push_back({r.name, (board ? "RTL router and C++ switch: " : "C++ switch: ") + r.description});
  }
  fabric.collectives = {
      {"ring", "unidirectional ring"},
      {"bidirectional_ring", "two rings, both directions"},
      {"hamiltonian", "two edge-disjoint Hamiltonian cycles of the torus, both directions"},
      {"torus2d", "2D torus: rows, then columns"},
      {"direct", "all-to-all: every rank to every rank"},
      {"hierarchical", "multidim: RS and AG per dimension, chunk by chunk, baseline or Themis order"}};
  fabric.traffic = {{"uniform", ""},
                    {"permutation", ""},
                    {"transpose", ""},
                    {"bit_complement", ""},
                    {"neighbor", ""},
                    {"hotspot", ""},
                    {"alltoall", "balanced shift, rounds repeat"}};
  fabric.check = &check_fabric;
  fabric.keys = &config_keys;
  fabric.run = &run_fabric;
  fabric.price = &price_fabric;
  m.push_back(std::move(fabric));

  NetworkModel nvs;
  nvs.name = "nvswitch";
  nvs.description = "packet level: GPUs and output-queued NVSwitch-like switches with Verilated reduction units";
  for (const nv::RegisteredNvRouting& r : nv::nv_routings()) nvs.routings.push_back({r.name, r.description});
  nvs.collectives = {{"ring", "software ring allreduce with data-fence-flag"},
                     {"pull", "in-network pull allreduce"},
                     {"push", "in-network push allreduce"}};
  nvs.traffic = {{"uniform", "uniform random writes of 128-B lines"}};
  nvs.check = &check_nvswitch;
  nvs.keys = &nv::config_keys;
  nvs.run = &run_nvswitch;
  nvs.price = &price_nvswitch;
  m.push_back(std::move(nvs));
  return m;
}

// topology.kind of the config as it will be read: an override wins over the file; a file
// without it has the built-in default kind ("" if it has an old `system:` section instead).
struct KindAt {
  std::string kind;
  Origin origin;
};
KindAt read_kind(const RunRequest& r) {
  for (auto it = r.overrides.rbegin(); it != r.overrides.rend(); ++it) {
    const std::string prefix = "topology.kind=";
    if (it->compare(0, prefix.size(), prefix) == 0) return {it->substr(prefix.size()), Origin{"--set " + *it, 0, 0}};
  }
  // Unreadable or malformed: the fabric's loader reports where.
  const YAML::Node root = r.config_path.empty() ? peek_yaml_text(default_config_yaml()) : peek_yaml_file(r.config_path);
  if (!root.IsMap()) return {"board", Origin{}};
  const YAML::Node topo = root["topology"];
  if (topo && topo.IsMap() && topo["kind"] && topo["kind"].IsScalar()) {
    const YAML::Node k = topo["kind"];
    return {k.Scalar(), Origin{r.config_path, k.Mark().line + 1, k.Mark().column + 1}};
  }
  if (!topo && root["system"]) return {"", Origin{}};  // an NVSwitch config of the old schema
  return {"board", Origin{}};
}

}  // namespace

const std::vector<NetworkModel>& network_models() {
  static const std::vector<NetworkModel> models = make_models();
  return models;
}

const NetworkModel& network_model(const std::string& name) {
  return find_named(network_models(), name, "network model", [](const NetworkModel& m) { return m.name; });
}

std::string config_reference() {
  std::string md =
      "# Config reference (generated)\n\n"
      "Generated by `hxsim config-reference` from the config schemas, the one place where every key, its\n"
      "unit, range and default is defined (`make docs` rewrites this file; the test\n"
      "HxsimDocs.ConfigReferenceIsCurrent fails when it is stale). What the keys mean: docs/config.md (fabric model) "
      "and docs/nvswitch.md\n"
      "(NVSwitch model). The config's `topology.kind` picks the model.\n";
  for (const NetworkModel& m : network_models()) {
    std::string kinds;
    for (const TopologyBuilder* t : topology_builders())
      if (t->model() == m.name) kinds += (kinds.empty() ? "`" : ", `") + std::string(t->kind()) + "`";
    // The heading names only the model, so that links to it survive a new kind.
    md += "\n## Model " + m.name + "\n\ntopology.kind " + kinds + "\n\n" + keys_markdown(m.keys());
  }
  md += "\n## LLM training workload: `hxsim model` on a config with `workload:` (docs/rail.md)\n\n" +
        keys_markdown(llm::workload_config_keys());
  return md;
}

const NetworkModel& model_for(const RunRequest& request) {
  const KindAt k = read_kind(request);
  if (k.kind.empty()) return network_model("nvswitch");  // an old `system:` section: its loader explains
  std::vector<std::string> all;
  for (const TopologyBuilder* t : topology_builders()) {
    if (t->kind() == k.kind) return network_model(t->model());
    all.push_back(t->kind());
  }
  throw ConfigError(k.origin, "topology.kind", "", "one of " + join_names(all), quote_text(k.kind),
                    closest_match(k.kind, all).empty() ? "" : "did you mean '" + closest_match(k.kind, all) + "'?");
}

}  // namespace hx
