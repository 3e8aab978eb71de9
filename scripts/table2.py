#!/usr/bin/env python3
"""make table2: the global all-to-all column of the HammingMesh paper's Table II, regenerated.

For every Table II design, the flow-level model (`hxsim model`, docs/table2.md) on the small
cluster (the same configs the cycle model runs, configs/*_alltoall.yaml) and on the large
cluster (configs/table2/large_*.yaml), beside the cycle model's measured figure on the small
cluster (`hxsim run`, slow: about 10 minutes for all designs on two cores; cached) and the
paper's numbers. Writes JSON, a Markdown table and a bar plot:

    scripts/table2.py [--hxsim build/hxsim] [--out build/table2/table2.json]
                      [--cycle] [--full] [--no-large] [--no-allreduce] [--only NAME,...]

--cycle runs the cycle model where build/table2/cycle/NAME.json is missing (it is kept, so a
second call reuses it); without it the table shows the cached cycle figures, or "-". The cycle
runs use 2,000 warm-up and 8,000 measured cycles (as scripts/bench_global.py); the column with
Table III's buffers (deep switch queues, always-backlogged sources) 10,000 and 40,000.

The allreduce column (docs/table2.md, "Allreduce"): per design the paper's algorithms (ring on
fat trees and the Dragonfly; the two Hamiltonian cycles and the 2D-torus algorithm on the
HammingMesh family and the torus, the better reported), by the collective flow model on the
small cluster (configs/table2/*_allreduce.yaml, configs/hx*_allreduce.yaml) and the large one
(configs/table2/large_*_allreduce.yaml), and by the cycle model on reduced systems of 64-72
endpoints at message M and 2M (cached in build/table2/cycle/ar_*.json; --cycle runs them, about
15 minutes on two cores), with the flow model on the same reduced systems beside them.
--full also runs the 1,024-endpoint allreduces of the switch-model systems (fat tree,
Dragonfly, torus; about 30 minutes), cached as build/table2/cycle/ar_full_*.json.
--no-allreduce skips the column.

--exchange runs the fixed-size all-to-all where not cached (build/table2/cycle/a2a_NAME.json):
one reading of Table II's measurement ("1 MiB messages", p - 1 iterations of the balanced
shift, sec. V-A; docs/table2.md, "What Table II's global column measures") as the cycle
model's `all_to_all` collective (`direct`: rank s sends block d to rank d for d =
s + 1, s + 2, ...), 1 MiB per rank (1 KiB, one packet, per destination at 1,024 ranks) on the
1,024-endpoint allreduce configs with Table III's switch buffers, timed to the last byte and
every element checked. Its share is the busbw over the injection bandwidth. About 5 to 27
minutes a design on two cores.

HammingMesh-family routers (HxMesh, HyperX, torus) have one local port of one link's bandwidth in
the configs, as the cycle model's RTL router has: their share of the plane's four links is then
at most 25%. The paper's injection bandwidth is the four links; the flow model also runs them
with router.local_ports=4 (four lanes), which is the figure comparable with Table II.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# name, label, small config, overrides, large config (or None), paper small %, paper large %,
# whether the design's routers have the HammingMesh local port (four plane links). The large
# config takes the overrides that shape the design (large_sets): a fat tree's taper.
LARGE_FT = "table2/large_fat_tree_16384.yaml"
LARGE_FT_AR = "table2/large_fat_tree_16384_allreduce.yaml"
DESIGNS = [
    ("fat_tree", "nonblocking fat tree", "fat_tree_1024_alltoall.yaml", [], LARGE_FT, 99.9, 98.9, False),
    ("fat_tree_50", "50% tapered fat tree", "fat_tree_1024_alltoall.yaml", ["topology.tree.taper=0.5238"], LARGE_FT,
     51.2, 47.6, False),
    ("fat_tree_75", "75% tapered fat tree", "fat_tree_1024_alltoall.yaml", ["topology.tree.taper=0.2549"], LARGE_FT,
     25.7, 24.0, False),
    # The tapered trees wired evenly: one spine per leaf up port, each leaf one cable to each
    # (topology.tree.spines; docs/table2.md, "The tapered trees"). Two levels: small cluster only.
    ("fat_tree_50_per_up", "50% tapered fat tree, one spine per up port", "fat_tree_1024_alltoall.yaml",
     ["topology.tree.taper=0.5238", "topology.tree.spines=per_up_port"], None, 51.2, 47.6, False),
    ("fat_tree_75_per_up", "75% tapered fat tree, one spine per up port", "fat_tree_1024_alltoall.yaml",
     ["topology.tree.taper=0.2549", "topology.tree.spines=per_up_port"], None, 25.7, 24.0, False),
    ("dragonfly", "Dragonfly (UGAL)", "dragonfly_1024_alltoall.yaml", [], "table2/large_dragonfly_30g.yaml", 62.9,
     71.5, False),
    ("hyperx", "2D HyperX (Hx1Mesh)", "hyperx_32x32_alltoall.yaml", [], "table2/large_hyperx_128x128.yaml", 91.6, 95.8,
     True),
    ("hx2mesh", "Hx2Mesh", "hx2mesh_16x16_alltoall.yaml", [], "table2/large_hx2mesh_64x64.yaml", 25.4, 25.0, True),
    ("hx4mesh", "Hx4Mesh", "hx4mesh_8x8_alltoall.yaml", [], "table2/large_hx4mesh_32x32.yaml", 11.3, 10.5, True),
    ("torus", "2D torus", "torus_32x32_alltoall.yaml", [], "table2/large_torus_128x128.yaml", 2.0, 1.1, False),
]
FOUR_LANES = ["router.local_ports=4"]
# The cycle model's sources saturate four lanes as they saturate one: one flit per lane and cycle.
CYCLE_FOUR_LANES = FOUR_LANES + ["traffic.injection_rate=4"]
# Table III of the paper: 32 MB of buffer per port (input and output), and sources that always
# have data (an all-to-all posts every message at once; the NIC is twice as fast as the link).
# hxsim's switches get 256-flit input and output queues per VC (512 moved the reduced systems
# by at most 3%: docs/results/2026-11-28-table2-buffers.md) and its sources 64 queued packets (a 4-packet queue fed by
# Bernoulli trials at the link's rate runs dry 10% of the time). Deep queues need a long
# window to settle: 10,000 warm-up and 40,000 measured cycles.
TABLE3_BUFFERS = ["switch.buffer_depth=256", "switch.output_buffer_depth=256", "traffic.source_queue=64"]
TABLE3_WINDOW = ["run.warmup=10000cycles", "run.measure=40000cycles"]
# The HammingMesh family's boards with C++ switches as routers (router.model switch): the paper's
# SST router, input and output buffered with a 2x crossbar (switch.*), instead of the RTL's.
SWITCH_ROUTERS = ["router.model=switch"]


def large_sets(sets):
    """The overrides of a small-cluster row that shape the design, for its large config too."""
    return [s for s in sets if s.startswith("topology.tree.taper=")]


# The allreduce column: name (as DESIGNS), small-cluster config, overrides, the reduced system's
# overrides for the cycle model, its message M (bandwidth bound: chunks of 16 KiB, 16 segments
# per pipeline step), the algorithms, the large-cluster config (or None), Table II's figures.
# The HammingMesh family has four local ports (the paper's four NICs per plane, in the
# configs); fat trees and the Dragonfly one NIC per plane; the torus's switch-model routers
# have one local port (no lanes), so its four rings share it.
FT_REDUCED = ["topology.endpoints=64", "topology.tree.radix=16"]
DF_REDUCED = ["topology.dragonfly.a=4", "topology.dragonfly.p=2", "topology.dragonfly.h=2",
              "topology.dragonfly.groups=9"]
HX_ALGS = ["hamiltonian", "torus2d"]
ALLREDUCE = [
    ("fat_tree", "table2/fat_tree_1024_allreduce.yaml", [], FT_REDUCED, "1 MiB", ["ring"], LARGE_FT_AR, 98.9, 99.8),
    ("fat_tree_50", "table2/fat_tree_1024_allreduce.yaml", ["topology.tree.taper=0.5238"], FT_REDUCED, "1 MiB",
     ["ring"], LARGE_FT_AR, 98.9, 99.8),
    ("fat_tree_75", "table2/fat_tree_1024_allreduce.yaml", ["topology.tree.taper=0.2549"], FT_REDUCED, "1 MiB",
     ["ring"], LARGE_FT_AR, 98.9, 99.8),
    ("dragonfly", "table2/dragonfly_1024_allreduce.yaml", [], DF_REDUCED, "1 MiB", ["ring"],
     "table2/large_dragonfly_30g_allreduce.yaml", 98.8, 98.6),
    ("hyperx", "table2/hyperx_32x32_allreduce.yaml", [], ["topology.global=8x8"], "4 MiB", HX_ALGS,
     "table2/large_hyperx_128x128_allreduce.yaml", 98.1, 91.4),
    ("hx2mesh", "hx2mesh_16x16_allreduce.yaml", [], ["topology.global=4x4"], "4 MiB", HX_ALGS,
     "table2/large_hx2mesh_64x64_allreduce.yaml", 98.3, 92.3),
    ("hx4mesh", "hx4mesh_8x8_allreduce.yaml", [], ["topology.global=2x2"], "4 MiB", HX_ALGS,
     "table2/large_hx4mesh_32x32_allreduce.yaml", 98.4, 92.2),
    ("torus", "table2/torus_32x32_allreduce.yaml", [], ["topology.global=4x4"], "1 MiB", HX_ALGS,
     "table2/large_torus_128x128_allreduce.yaml", 98.1, 91.4),
]

# The small cluster itself (1,024 endpoints) by the cycle model, where a run takes minutes, not
# hours: the switch-model systems (no RTL boards), at 8 MiB (chunks of 8 KiB). --full runs them
# (about 30 minutes on two shared cores); cached as build/table2/cycle/ar_full_*.json.
FULL = {"fat_tree": ["ring"], "dragonfly": ["ring"], "torus": ["hamiltonian", "torus2d"]}
FULL_MESSAGE = "8 MiB"

# Topology kinds whose plane gives an accelerator four network links (N, E, S, W).
PLANE_OF_FOUR_LINKS = ("hammingmesh", "torus")
# The fixed-size all-to-all (--exchange): Table II's "1 MiB messages", as 1 MiB per rank.
EXCHANGE = ["collective.operation=all_to_all", "collective.algorithm=direct", "collective.message=1 MiB",
            "switch.buffer_depth=256", "switch.output_buffer_depth=256"]


def double(message):
    n, unit = message.split()
    return f"{2 * int(n)} {unit}"


def hxsim(exe, verb, config, sets, extra=()):
    """One hxsim run/model call; its results JSON and its wall time."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "r.json")
        cmd = [exe, verb, os.path.join(ROOT, "configs", config), "--out", out, *extra]
        for s in sets:
            cmd += ["--set", s]
        t0 = time.time()
        proc = subprocess.run(cmd, capture_output=True, text=True)
        wall = time.time() - t0
        if proc.returncode != 0:
            sys.exit(f"table2: {' '.join(cmd)} failed ({proc.returncode}):\n{proc.stdout}{proc.stderr}")
        with open(out) as f:
            return json.load(f), wall


def flow(exe, config, sets):
    j, wall = hxsim(exe, "model", config, sets)
    t = j["traffic"]
    r = {"share_of_local_port": t["global_bandwidth"]["share_of_local_port"],
         "share_of_plane_links": t["global_bandwidth"]["share_of_plane_links"],
         "bottleneck": t["bottleneck"], "endpoints": j["config"]["endpoints"], "wall_seconds": round(wall, 2)}
    if "phased" in t:
        r["phased_share_of_plane_links"] = t["phased"]["share_of_plane_links"]
        r["phased_share_of_local_port"] = t["phased"]["share_of_local_port"]
    if "per_hop" in t["routing"]:
        r["per_hop_share_of_plane_links"] = t["routing"]["per_hop"]["share_of_plane_links"]
    if "choice" in t["routing"]:
        r["ugal_choice"] = t["routing"]["choice"]
        r["minimal_share"] = t["routing"]["minimal"]["accepted"]
        r["valiant_share"] = t["routing"].get("valiant", {}).get("accepted")
    return r


def cached_run(exe, path, config, sets, run):
    """A cycle-level run's results, kept at path: read if there, else run (when run) and kept;
    None when neither."""
    if not os.path.exists(path):
        if not run:
            return None
        print(f"  cycle run {os.path.basename(path)} ...", flush=True)
        j, wall = hxsim(exe, "run", config, sets, ["--quiet", "--seed", "1"])
        j.setdefault("table2", {})["wall_seconds"] = wall
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            json.dump(j, f)
    with open(path) as f:
        return json.load(f)


def cycle(exe, name, config, sets, cache_dir, run, window=("run.warmup=2000cycles", "run.measure=8000cycles")):
    j = cached_run(exe, os.path.join(cache_dir, name + ".json"), config, sets + list(window), run)
    if j is None:
        return None
    g = j["traffic"]["global_bandwidth"]
    return {"share_of_local_port": g["share_of_local_port"], "share_of_plane_links": g["share_of_plane_links"]}


def ar_flow(exe, config, sets):
    """The collective flow model's allreduce share (fraction_of_peak) and its slowest stage's bound."""
    j, wall = hxsim(exe, "model", config, sets)
    job = j["collective"]["jobs"][0]
    worst = min(job["stages"], key=lambda st: st["min_ring_rate_flits_per_cycle"])
    return {"fraction_of_peak": job["fraction_of_peak"], "endpoints": j["config"]["endpoints"],
            "bottleneck": worst["bottleneck"], "min_ring_rate": worst["min_ring_rate_flits_per_cycle"],
            "wall_seconds": round(wall, 2)}


def ar_cycle(exe, key, config, sets, cache_dir, run, prefix="ar_"):
    """A cycle-level collective, cached; None when not cached and not run. Fails on a dirty run."""
    path = os.path.join(cache_dir, prefix + key + ".json")
    j = cached_run(exe, path, config, sets, run)
    if j is None:
        return None
    job = j["collective"]["jobs"][0]
    clean = (j["checks"]["passed"] and job["complete"] and job["wrong_elements"] == 0
             and job["coverage_errors"] == 0)
    if not clean:
        sys.exit(f"table2: the cycle run {path} is not clean (checks, wrong elements or coverage)")
    return {"fraction_of_peak": job["fraction_of_peak"], "time_cycles": job["time_cycles"],
            "output_elements": job["output_elements"], "wrong_elements": job["wrong_elements"],
            "wall_seconds": round(j.get("table2", {}).get("wall_seconds", 0), 1),
            "kind": j["config"]["kind"], "local_ports": j["config"]["local_ports"]}


def exchange(exe, name, cache_dir, run):
    """The fixed-size all-to-all on the design's 1,024-endpoint collective config, cached; None
    when not cached and not run."""
    for ar_name, config, sets, *_ in ALLREDUCE:
        if ar_name == name:
            r = ar_cycle(exe, name, config, sets + EXCHANGE, cache_dir, run, prefix="a2a_")
            if r is not None:
                r["config"] = "configs/" + config
                # The collective's peak is the local port's lanes; Table II's injection is the
                # plane's links, four on a HammingMesh or torus plane (one lane on the torus's
                # switch-model routers), one for a fat-tree or Dragonfly endpoint.
                links = 4 if r["kind"] in PLANE_OF_FOUR_LINKS else 1
                r["share_of_plane_links"] = r["fraction_of_peak"] * r["local_ports"] / links
            return r
    return None


def allreduce_row(args, cache, name, label, config, sets, reduced, message, algs, large, paper_small, paper_large):
    r = {"name": name, "label": label, "config": "configs/" + config, "overrides": sets, "reduced": reduced,
         "message": message, "paper_small": paper_small, "paper_large": paper_large, "algorithms": {}}
    for alg in algs:
        a = {}
        alg_set = [f"collective.algorithm={alg}"]
        a["flow_small"] = ar_flow(args.hxsim, config, sets + alg_set)
        red = sets + reduced + alg_set
        a["flow_reduced"] = ar_flow(args.hxsim, config, red + [f"collective.message={message}"])
        a["cycle"] = ar_cycle(args.hxsim, f"{name}_{alg}_{message.replace(' ', '')}", config,
                              red + [f"collective.message={message}"], cache, args.cycle)
        m2 = double(message)
        a["cycle_2x"] = ar_cycle(args.hxsim, f"{name}_{alg}_{m2.replace(' ', '')}", config,
                                 red + [f"collective.message={m2}"], cache, args.cycle)
        if alg in FULL.get(name, []):
            full = sets + alg_set + [f"collective.message={FULL_MESSAGE}"]
            a["cycle_full"] = ar_cycle(args.hxsim, f"full_{name}_{alg}", config, full, cache, args.full)
            a["flow_full"] = ar_flow(args.hxsim, config, full) if a["cycle_full"] else None
        if large and not args.no_large:
            a["flow_large"] = ar_flow(args.hxsim, large, large_sets(sets) + alg_set)
        r["algorithms"][alg] = a
    r["large_config"] = "configs/" + large if large else None

    def best(key):
        vals = [(a[key]["fraction_of_peak"], alg) for alg, a in r["algorithms"].items() if a.get(key)]
        if not vals:
            return None, None
        top = max(vals)
        # Algorithms within 0.05 points of each other tie: the table names both.
        tied = [alg for v, alg in vals if v >= top[0] - 5e-4]
        return top[0], " = ".join(tied)

    for key in ("flow_small", "flow_reduced", "cycle", "cycle_2x", "cycle_full", "flow_large"):
        r["best_" + key], r["best_" + key + "_algorithm"] = best(key)
    print(f"  allreduce {name}: flow small {pct(r['best_flow_small'])}%, reduced flow {pct(r['best_flow_reduced'])}%"
          f", cycle {pct(r['best_cycle'])}% / 2M {pct(r['best_cycle_2x'])}%, large {pct(r['best_flow_large'])}%, "
          f"paper {paper_small}% / {paper_large}%", flush=True)
    return r


def allreduce_markdown(rows):
    lines = [
        "Allreduce, share of the optimum (half the injection bandwidth), %. Flow model: "
        "`hxsim model` (collective_flow.h); cycle model: `hxsim run` on the reduced system (64-72 "
        "endpoints) at message M and 2M, every element checked. Per algorithm:",
        "",
        "| design | algorithm | Table II small | flow small (1,024) | reduced system, M | flow reduced | cycle, M "
        "| cycle, 2M | cycle / flow | Table II large | flow large | large bound by |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        for alg, a in r["algorithms"].items():
            c, fr = a.get("cycle"), a["flow_reduced"]
            ratio = f"{c['fraction_of_peak'] / fr['fraction_of_peak']:.3f}" if c else "-"
            lg = a.get("flow_large")
            lines.append(
                f"| {r['label']} | {alg} | {r['paper_small']} | {pct(a['flow_small']['fraction_of_peak'])} "
                f"| {fr['endpoints']}, {r['message']} | {pct(fr['fraction_of_peak'])} "
                f"| {pct(c['fraction_of_peak']) if c else '-'} "
                f"| {pct(a['cycle_2x']['fraction_of_peak']) if a.get('cycle_2x') else '-'} | {ratio} "
                f"| {r['paper_large']} | {pct(lg['fraction_of_peak']) if lg else '-'} "
                f"| {lg['bottleneck'] if lg else '-'} |")
    full = [(r, alg, a) for r in rows for alg, a in r["algorithms"].items() if a.get("cycle_full")]
    if full:
        lines += ["", f"The small cluster itself (1,024 endpoints), {FULL_MESSAGE}, cycle model (--full):", "",
                  "| design | algorithm | flow | cycle | cycle / flow | cycles | wall s |", "|---|---|---|---|---|---|---|"]
        for r, alg, a in full:
            c, f = a["cycle_full"], a["flow_full"]
            lines.append(f"| {r['label']} | {alg} | {pct(f['fraction_of_peak'])} | {pct(c['fraction_of_peak'])} "
                         f"| {c['fraction_of_peak'] / f['fraction_of_peak']:.3f} | {c['time_cycles']:,} "
                         f"| {c['wall_seconds']:.0f} |")
    lines += ["", "The better algorithm per design:", "",
              "| design | Table II small | flow small | cycle (reduced) | cycle (1,024) | Table II large | flow large |",
              "|---|---|---|---|---|---|---|"]
    for r in rows:
        def cell(key):
            v = r["best_" + key]
            return "-" if v is None else f"{100 * v:.1f} ({r['best_' + key + '_algorithm']})"
        lines.append(f"| {r['label']} | {r['paper_small']} | {cell('flow_small')} | {cell('cycle')} "
                     f"| {cell('cycle_full')} | {r['paper_large']} | {cell('flow_large')} |")
    return "\n".join(lines) + "\n"


def pct(x):
    return "-" if x is None else f"{100 * x:.1f}"


def markdown(rows):
    lines = [
        "Small cluster (1,024 endpoints, one plane). Shares in % of the plane's links (Table II's injection "
        "bandwidth); 'port' = % of the one-link local port, which is what the cycle model's HammingMesh-family "
        "routers can inject.",
        "",
        "| design | Table II | flow, 4 lanes | cycle, 4 lanes | cycle, Table III buffers "
        "| cycle, Table III buffers, switch routers | cycle, fixed 1 MiB exchange | flow (config) | "
        "flow phased (config) | flow per hop (config) | cycle (config) | cycle / flow | flow, port | flow phased, port | cycle, port "
        "| bottleneck |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        s, c = r["small"], r["cycle"]
        ratio = f"{c['share_of_plane_links'] / s['share_of_plane_links']:.2f}" if c else "-"
        lanes, c4 = r["small_4lanes"], r.get("cycle_4lanes")
        c3, cs, ce = r.get("cycle_table3"), r.get("cycle_switch_routers"), r.get("cycle_exchange")
        lines.append(f"| {r['label']} | {r['paper_small']} | {pct(lanes['share_of_plane_links']) if lanes else '-'} "
                     f"| {pct(c4['share_of_plane_links']) if c4 else '-'} "
                     f"| {pct(c3['share_of_plane_links']) if c3 else '-'} "
                     f"| {pct(cs['share_of_plane_links']) if cs else '-'} "
                     f"| {pct(ce['share_of_plane_links']) if ce else '-'} "
                     f"| {pct(s['share_of_plane_links'])} | {pct(s.get('phased_share_of_plane_links'))} "
                     f"| {pct(s.get('per_hop_share_of_plane_links'))} "
                     f"| {pct(c['share_of_plane_links']) if c else '-'} | {ratio} "
                     f"| {pct(s['share_of_local_port'])} | {pct(s.get('phased_share_of_local_port'))} "
                     f"| {pct(c['share_of_local_port']) if c else '-'} | {s['bottleneck']} |")
    lines += ["", "Large cluster (about 16,000 endpoints, one plane), flow model only:", "",
              "| design | endpoints | Table II | flow, 4 lanes | flow (config) | flow, port | bottleneck | seconds |",
              "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        lg, l4 = r.get("large"), r.get("large_4lanes")
        if not lg:
            lines.append(f"| {r['label']} | - | {r['paper_large']} | - | - | - | not modelled | - |")
            continue
        secs = lg["wall_seconds"] + (l4["wall_seconds"] if l4 else 0)
        lines.append(f"| {r['label']} | {lg['endpoints']:,} | {r['paper_large']} | {pct(l4['share_of_plane_links']) if l4 else '-'} "
                     f"| {pct(lg['share_of_plane_links'])} | {pct(lg['share_of_local_port'])} | {lg['bottleneck']} "
                     f"| {secs:.0f} |")
    return "\n".join(lines) + "\n"


def plot(rows, ar_rows, png):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("table2: no matplotlib, no plot")
        return
    fig, grid = plt.subplots(2 if ar_rows else 1, 2, figsize=(12, 8.4 if ar_rows else 4.2), squeeze=False)
    axes = grid[0]
    all_rows = rows
    for ax, size in zip(axes, ("small", "large")):
        rows = all_rows if size == "small" else [r for r in all_rows if r.get("large")]
        names = [r["name"] for r in rows]
        x = range(len(rows))

        def comparable(r):
            v = r.get(size + "_4lanes") or r.get(size)
            return 100 * v["share_of_plane_links"] if v else 0

        series = [("Table II (SST)", [r["paper_" + size] for r in rows]),
                  ("flow model (4 lanes for HxMesh-family)", [comparable(r) for r in rows])]
        if size == "small":
            def cycle_bar(r):
                v = r.get("cycle_4lanes") or r["cycle"]
                return 100 * v["share_of_plane_links"] if v else 0
            series.append(("cycle model (4 lanes for HxMesh-family)", [cycle_bar(r) for r in rows]))
            if any(r.get("cycle_table3") for r in rows):
                series.append(("cycle model, Table III buffers",
                               [100 * r["cycle_table3"]["share_of_plane_links"] if r.get("cycle_table3") else 0
                                for r in rows]))
            if any(r.get("cycle_switch_routers") for r in rows):
                series.append(("cycle model, Table III buffers, C++ switch routers (HxMesh family)",
                               [100 * r["cycle_switch_routers"]["share_of_plane_links"]
                                if r.get("cycle_switch_routers") else 0 for r in rows]))
            if any(r.get("cycle_exchange") for r in rows):
                series.append(("cycle model, fixed 1 MiB all-to-all in shift order, timed to its end",
                               [100 * r["cycle_exchange"]["share_of_plane_links"] if r.get("cycle_exchange") else 0
                                for r in rows]))
        w = 0.8 / len(series)
        for k, (label, ys) in enumerate(series):
            ax.bar([i + (k - (len(series) - 1) / 2) * w for i in x], ys, w, label=label)
        ax.set_xticks(list(x))
        ax.set_xticklabels(names, rotation=30, ha="right")
        ax.set_title(f"{size} cluster: global all-to-all bandwidth")
        ax.grid(alpha=0.3, axis="y")
    axes[0].set_ylabel("% of injection bandwidth")
    axes[0].set_ylim(0, 140)  # room above the bars for the legend
    axes[0].legend(fontsize=7, loc="upper right")
    for ax, size in zip(grid[1] if ar_rows else [], ("small", "large")):
        names = [r["name"] for r in ar_rows]
        x = range(len(ar_rows))

        def val(r, key):
            v = r.get("best_" + key)
            return 100 * v if v is not None else 0

        if size == "small":
            series = [("Table II (SST, ~1,024)", [r["paper_small"] for r in ar_rows]),
                      ("flow model, 1,024", [val(r, "flow_small") for r in ar_rows]),
                      ("cycle model, reduced (64-72)", [val(r, "cycle") for r in ar_rows])]
            if any(r.get("best_cycle_full") is not None for r in ar_rows):
                series.append(("cycle model, 1,024 (0: not run)", [val(r, "cycle_full") for r in ar_rows]))
        else:
            series = [("Table II (SST, ~16,000)", [r["paper_large"] for r in ar_rows]),
                      ("flow model, ~16,000", [val(r, "flow_large") for r in ar_rows])]
        w = 0.8 / len(series)
        for k, (label, ys) in enumerate(series):
            ax.bar([i + (k - (len(series) - 1) / 2) * w for i in x], ys, w, label=label)
        ax.set_xticks(list(x))
        ax.set_xticklabels(names, rotation=30, ha="right")
        ax.set_ylim(40, 102)  # the HyperX's cycle figure is 50% (docs/table2.md)
        ax.set_title(f"{size} cluster: allreduce (better algorithm)")
        ax.grid(alpha=0.3, axis="y")
        ax.legend(fontsize=8, loc="lower left")
    if ar_rows:
        grid[1][0].set_ylabel("% of the optimum (injection / 2)")
    fig.tight_layout()
    fig.savefig(png, dpi=120)
    print(f"wrote {png}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hxsim", default=os.path.join(ROOT, "build", "hxsim"))
    ap.add_argument("--out", default=os.path.join(ROOT, "build", "table2", "table2.json"))
    ap.add_argument("--cycle", action="store_true", help="run the cycle model where no cached result exists")
    ap.add_argument("--no-large", action="store_true", help="skip the large cluster")
    ap.add_argument("--no-allreduce", action="store_true", help="skip the allreduce column")
    ap.add_argument("--full", action="store_true",
                    help="run the allreduce's 1,024-endpoint cycle runs (switch-model systems) where not cached")
    ap.add_argument("--exchange", action="store_true",
                    help="run the fixed-size 1 MiB all-to-all in shift order where not cached")
    ap.add_argument("--only", default="", help="comma-separated design names")
    args = ap.parse_args()
    only = set(filter(None, args.only.split(",")))
    cache = os.path.join(os.path.dirname(args.out), "cycle")

    rows = []
    for name, label, small, sets, large, paper_small, paper_large, lanes in DESIGNS:
        if only and name not in only:
            continue
        r = {"name": name, "label": label, "config": "configs/" + small, "overrides": sets,
             "paper_small": paper_small, "paper_large": paper_large}
        r["small"] = flow(args.hxsim, small, sets)
        r["small_4lanes"] = flow(args.hxsim, small, sets + FOUR_LANES) if lanes else None
        r["cycle"] = cycle(args.hxsim, name, small, sets, cache, args.cycle)
        # The paper's injection (four links) for the HammingMesh family: the 4-lane planes.
        r["cycle_4lanes"] = cycle(args.hxsim, name + "_4lanes_saturated", small, sets + CYCLE_FOUR_LANES, cache,
                                  args.cycle) if lanes else None
        # With Table III's buffers and always-backlogged sources, at the paper's injection.
        r["cycle_table3"] = cycle(args.hxsim, name + "_table3", small,
                                  sets + (CYCLE_FOUR_LANES if lanes else []) + TABLE3_BUFFERS, cache, args.cycle,
                                  TABLE3_WINDOW)
        # The same with C++ switches as the boards' routers (about 10 minutes a design).
        r["cycle_switch_routers"] = cycle(args.hxsim, name + "_table3_switch_routers", small,
                                          sets + CYCLE_FOUR_LANES + TABLE3_BUFFERS + SWITCH_ROUTERS, cache,
                                          args.cycle, TABLE3_WINDOW) if lanes else None
        r["cycle_exchange"] = exchange(args.hxsim, name, cache, args.exchange)
        if large and not args.no_large:
            r["large_config"] = "configs/" + large
            r["large"] = flow(args.hxsim, large, large_sets(sets))
            r["large_4lanes"] = flow(args.hxsim, large, large_sets(sets) + FOUR_LANES) if lanes else None
        print(f"  {name}: flow {pct(r['small']['share_of_plane_links'])}%"
              + (f" (4 lanes {pct(r['small_4lanes']['share_of_plane_links'])}%)" if lanes else "")
              + (f", cycle {pct(r['cycle']['share_of_plane_links'])}%" if r["cycle"] else "")
              + (f" (4 lanes {pct(r['cycle_4lanes']['share_of_plane_links'])}%)" if r["cycle_4lanes"] else "")
              + (f", Table III buffers {pct(r['cycle_table3']['share_of_plane_links'])}%" if r["cycle_table3"] else "")
              + (f", switch routers {pct(r['cycle_switch_routers']['share_of_plane_links'])}%"
                 if r["cycle_switch_routers"] else "")
              + (f", fixed exchange {pct(r['cycle_exchange']['share_of_plane_links'])}%" if r["cycle_exchange"] else "")
              + (f", large {pct(r['large']['share_of_plane_links'])}%" if r.get("large") else "")
              + f", paper {paper_small}% / {paper_large}%", flush=True)
        rows.append(r)

    ar_rows = []
    labels = {d[0]: d[1] for d in DESIGNS}
    for name, config, sets, reduced, message, algs, large, paper_small, paper_large in ALLREDUCE:
        if args.no_allreduce or (only and name not in only):
            continue
        ar_rows.append(allreduce_row(args, cache, name, labels[name], config, sets, reduced, message, algs, large,
                                     paper_small, paper_large))

    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w") as f:
        json.dump({"table": "HammingMesh Table II, global all-to-all and allreduce bandwidth", "date":
                   time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "designs": rows, "allreduce": ar_rows},
                  f, indent=1)
    md = os.path.splitext(args.out)[0] + ".md"
    with open(md, "w") as f:
        f.write(markdown(rows))
        if ar_rows:
            f.write("\n" + allreduce_markdown(ar_rows))
    print(f"wrote {args.out}\nwrote {md}")
    plot(rows, ar_rows, os.path.splitext(args.out)[0] + ".png")


if __name__ == "__main__":
    main()
