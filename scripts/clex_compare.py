#!/usr/bin/env python3
"""CLEX against the 3D torus of the same size and total bandwidth per node (issue 21, item 3;
docs/clex.md): traffic patterns swept over offered loads on both networks, each with its two
routing functions, with `hxsim run`. Writes every result JSON to --out, a summary JSON
(summary_<size>.json: per pattern, network and routing the latency-throughput points, the
saturation throughput, the average hops and the average cable metres), prints the tables, and
plots the latency-throughput curves with matplotlib (clex_torus3d_<size>_patterns.png).

  scripts/clex_compare.py --hxsim build/hxsim --out /tmp/clex_compare                  # 64 nodes
  scripts/clex_compare.py --hxsim build/hxsim --size 512 --out /tmp/clex_compare512 \\
      --rates 0.1,0.3,0.5,0.7,0.9                                                        # 512 nodes

The pairs: CLEX k=4, L=3 against the 4x4x4 torus (64 nodes), k=8, L=3 against 8x8x8 (512).
Equal total bandwidth per node: the CLEX splits a node's total (--node-gbps, default 6 x 128
Gb/s) over its levels by the hops of clex_balanced (topology.clex.capacity hop_weighted,
section III-A); the torus gives each of its six links a sixth of it. Both lay their nodes on the
same X x Y x Z grid at the same pitch (0.5 m by default: topology.clex.pitch, topology.pitch), and
both cables' latencies come from their lengths by the same formula.

Patterns: the coordinate patterns (transpose, bit_reversal, tornado) map the nodes' grid
coordinates, the CLEX's from its cube-in-cube layout, which has the torus's extents (docs/config.md);
uniform and alltoall work on node numbers.

Figures per run: accepted (flits per node per cycle, over the sending nodes), average latency
(cycles, creation to tail), average hops (cables a packet crossed: sim.avg_flit_hops - 1, since a
flit crosses one router more than cables on these switchless networks) and average cable metres
a delivered packet travelled (sim.avg_cable_m). The saturation throughput is the highest accepted
load of the sweep; with --source-queue a source above saturation waits instead of queueing without
bound, so the accepted load levels off there.
"""
import argparse
import concurrent.futures
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PATTERNS = ["uniform", "transpose", "bit_reversal", "tornado", "alltoall"]
ROUTINGS = [("clex", "clex_minimal"), ("clex", "clex_balanced"), ("torus3d", "dor_dateline"),
            ("torus3d", "torus_adaptive")]


def run(hxsim, config, sets, out):
    if os.path.exists(out):  # a sweep that was interrupted goes on where it stopped
        with open(out) as f:
            return json.load(f)
    cmd = [hxsim, "run", config, "--quiet", "--out", out + ".tmp"] + [a for s in sets for a in ("--set", s)]
    r = subprocess.run(cmd, capture_output=True, text=True)
    # Exit 3: the run's checks failed (a deadlock, a lost packet); its results are still written
    # and kept, marked, so that a sweep shows where a network fails instead of stopping there.
    if r.returncode not in (0, 3) or not os.path.exists(out + ".tmp"):
        sys.exit(f"{' '.join(cmd)}: exit {r.returncode}\n{r.stdout}{r.stderr}")
    if r.returncode == 3:
        print(f"checks failed: {' '.join(cmd)}\n{r.stderr[:300]}", file=sys.stderr)
    os.replace(out + ".tmp", out)
    with open(out) as f:
        return json.load(f)


def network_sets(kind, size, node_gbps):
    k = 4 if size == 64 else 8
    if kind == "clex":
        return os.path.join(ROOT, "configs", "clex", "clex_4x3_saturation.yaml"), [
            f"topology.clex.k={k}", "topology.clex.capacity=hop_weighted",
            f"topology.clex.node_bandwidth={node_gbps}Gb/s", "router.vcs=4"]
    return os.path.join(ROOT, "configs", "clex", "torus3d_4x4x4_uniform.yaml"), [
        f"topology.sides={k}x{k}x{k}", f"links.global.bandwidth={node_gbps / 6}Gb/s", "router.vcs=4"]


def point(j):
    t, s = j["traffic"], j["sim"]
    return {"offered": t["offered"], "accepted": t["accepted"], "avg_latency_cycles": t["avg_latency_cycles"],
            "p99_latency_cycles": t["p99_latency_cycles"], "avg_hops": s["avg_flit_hops"] - 1,
            "avg_cable_m": s["avg_cable_m"], "sending_nodes": t["sending_nodes"], "checks_passed": j["checks"]["passed"],
            "max_vc": j["check_details"]["max_vc"], "max_path_cables": j["check_details"]["max_path_cables"],
            "end": j["check_details"]["end"]}


def plot(summary, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    patterns = list(summary["patterns"])
    fig, axes = plt.subplots(2, len(patterns), figsize=(4 * len(patterns), 7.5), squeeze=False)
    styles = {"clex_minimal": ("tab:blue", "o-"), "clex_balanced": ("tab:cyan", "s-"),
              "dor_dateline": ("tab:red", "^-"), "torus_adaptive": ("tab:orange", "v-")}
    for c, pattern in enumerate(patterns):
        for key, r in summary["patterns"][pattern].items():
            pts = [p for p in r["points"] if p["checks_passed"]]  # a failed run has no meaningful latency
            color, style = styles[r["routing"]]
            label = f"{r['network']} {r['routing']}"
            axes[0][c].plot([p["accepted"] for p in pts], [p["avg_latency_cycles"] for p in pts], style, color=color,
                            label=label, markersize=4)
            axes[1][c].plot([p["offered"] for p in pts], [p["accepted"] for p in pts], style, color=color,
                            label=label, markersize=4)
        axes[0][c].set_title(f"{pattern}, {summary['nodes']} nodes")
        axes[0][c].set_xlabel("accepted (flits/node/cycle)")
        axes[0][c].set_ylabel("average latency (cycles)")
        axes[0][c].set_yscale("log")
        axes[1][c].set_xlabel("offered (flits/node/cycle)")
        axes[1][c].set_ylabel("accepted (flits/node/cycle)")
        axes[1][c].plot([0, 1], [0, 1], ":", color="gray", linewidth=0.8)
        for ax in (axes[0][c], axes[1][c]):
            ax.grid(True, alpha=0.3)
    axes[0][0].legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=90)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hxsim", default=os.path.join(ROOT, "build", "hxsim"))
    ap.add_argument("--out", required=True)
    ap.add_argument("--size", type=int, choices=[64, 512], default=64)
    ap.add_argument("--node-gbps", type=float, default=6 * 128)
    ap.add_argument("--patterns", default=",".join(PATTERNS))
    ap.add_argument("--rates", default="0.05,0.1,0.2,0.3,0.4,0.5,0.6,0.7,0.8,0.9,1.0")
    ap.add_argument("--warmup", default="1000cycles")
    ap.add_argument("--measure", default="4000cycles")
    ap.add_argument("--source-queue", type=int, default=16,
                    help="packets a source may queue (traffic.source_queue; 0 unbounded): bounds the backlog "
                         "above saturation, which otherwise may not drain in run.drain on 512 nodes")
    ap.add_argument("--only", default="", help="comma list of routing functions to run (default all)")
    ap.add_argument("--jobs", type=int, default=1, help="runs at a time")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    common = [f"run.measure={a.measure}", f"run.warmup={a.warmup}", f"traffic.source_queue={a.source_queue}"]
    patterns = a.patterns.split(",")
    rates = a.rates.split(",")
    routings = [(k, r) for k, r in ROUTINGS if not a.only or r in a.only.split(",")]
    jobs = []
    for pattern in patterns:
        for kind, routing in routings:
            config, sets = network_sets(kind, a.size, a.node_gbps)
            for rate in rates:
                out = os.path.join(a.out, f"{kind}_{a.size}_{routing}_{pattern}_{rate}.json")
                jobs.append(((pattern, kind, routing, rate), config,
                             sets + common + [f"routing.algorithm={routing}", f"traffic.pattern={pattern}",
                                              f"traffic.injection_rate={rate}", f"name={kind}_{a.size}_{pattern}"],
                             out))
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as pool:
        futures = {pool.submit(run, a.hxsim, config, sets, out): key for key, config, sets, out in jobs}
        results = {}
        for f in concurrent.futures.as_completed(futures):
            results[futures[f]] = f.result()
    summary = {"nodes": a.size, "pair": "CLEX k=4, L=3 / 4x4x4 torus" if a.size == 64 else "CLEX k=8, L=3 / 8x8x8 torus",
               "settings": {"node_gbps": a.node_gbps, "warmup": a.warmup, "measure": a.measure,
                            "source_queue": a.source_queue, "rates": [float(r) for r in rates], "packet_length_flits": 4,
                            "vcs": 4},
               "patterns": {}}
    print(f"{'pattern':12} {'network':8} {'routing':15} {'offered':>7} {'accepted':>8} {'latency':>8} {'hops':>5} "
          f"{'cable m':>7}")
    for pattern in patterns:
        per = summary["patterns"].setdefault(pattern, {})
        for kind, routing in routings:
            pts = [point(results[(pattern, kind, routing, rate)]) for rate in rates]
            for p in pts:
                print(f"{pattern:12} {kind:8} {routing:15} {p['offered']:7.2f} {p['accepted']:8.3f} "
                      f"{p['avg_latency_cycles']:8.1f} {p['avg_hops']:5.2f} {p['avg_cable_m']:7.2f}"
                      + ("" if p["checks_passed"] else "  CHECKS FAILED"))
            low = pts[0]
            clean = [p for p in pts if p["checks_passed"]]
            failed = [p["offered"] for p in pts if not p["checks_passed"]]
            per[f"{kind}/{routing}"] = {
                "network": kind, "routing": routing, "points": pts,
                # Over the clean runs only; failed_at lists the offered loads whose runs failed.
                "saturation_accepted": max(p["accepted"] for p in clean) if clean else None,
                "failed_at": failed,
                "avg_hops": low["avg_hops"], "avg_cable_m": low["avg_cable_m"],
                "zero_load_latency_cycles": low["avg_latency_cycles"], "at_offered": low["offered"],
                "all_checks_passed": all(p["checks_passed"] for p in pts)}
    print("\nsaturation throughput (highest accepted, flits/node/cycle); hops and cable metres per packet at the "
          f"lowest load ({rates[0]}):")
    print(f"| pattern | {' | '.join(r for _, r in routings)} |")
    print("|---|" + "---|" * len(routings))
    for pattern in patterns:
        cells = []
        for kind, routing in routings:
            r = summary["patterns"][pattern][f"{kind}/{routing}"]
            sat = "-" if r["saturation_accepted"] is None else f"{r['saturation_accepted']:.3f}"
            fail = f", FAILED from {min(r['failed_at'])}" if r["failed_at"] else ""
            cells.append(f"{sat} ({r['avg_hops']:.2f} hops, {r['avg_cable_m']:.2f} m{fail})")
        print(f"| {pattern} | " + " | ".join(cells) + " |")
    path = os.path.join(a.out, f"summary_{a.size}.json")
    with open(path, "w") as f:
        json.dump(summary, f, indent=1)
    print(f"\nwrote {path}")
    try:
        plot(summary, os.path.join(a.out, f"clex_torus3d_{a.size}_patterns.png"))
    except ImportError:
        print("no matplotlib: no plot (scripts/setup-deps.sh installs python3-matplotlib)", file=sys.stderr)
        return 1
    return 0 if all(r["all_checks_passed"] for p in summary["patterns"].values() for r in p.values()) else 1


if __name__ == "__main__":
    sys.exit(main())
