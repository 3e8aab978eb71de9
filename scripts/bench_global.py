#!/usr/bin/env python3
"""make bench, part 2: global (all-to-all) bandwidth of HammingMesh planes and fat trees.

Saturating all-to-all (the HammingMesh paper's balanced shift) on the 64-accelerator systems
and on the paper's small-cluster planes (1,024 accelerators: Hx2Mesh 16x16, Hx4Mesh 8x8, the
2D HyperX = Hx1Mesh 32x32, the nonblocking, 50% and 75% tapered fat trees, the Dragonfly
with minimal and UGAL-L routing, and the 32x32 torus of 2x2 boards), REPEATS seeds each. Writes the medians and every run to
build/bench/global.json and a bar chart beside Table II's figures to build/bench/global.png.

Global bandwidth is the accepted rate per accelerator, reported two ways: as a share of the
accelerator's local port (the RTL router's injection port, one link), and as a share of the
plane's links (four for a HammingMesh or torus, one for a fat tree or Dragonfly), which is how
Table II states it.
The HammingMesh router's one local port caps the second at 0.25; see docs/hammingmesh.md.

    scripts/bench_global.py [--hxsim build/hxsim] [--out build/bench/global.json]
                            [--repeats 3] [--measure CYCLES] [--only NAME,...]
"""
import argparse
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench import ROOT, machine_info, pick, run_once, write_json  # noqa: E402

# (name, config, Table II global bandwidth of the small cluster in % of injection, or None)
# (name, config, extra --set overrides, Table II global bandwidth of the small cluster in % of
# injection, or None)
SYSTEMS = [
    ("hx2mesh_4x4", "hx2mesh_4x4_alltoall.yaml", [], None),
    ("hx4mesh_2x2", "hx4mesh_2x2_alltoall.yaml", [], None),
    ("hx2mesh_16x16", "hx2mesh_16x16_alltoall.yaml", [], 25.4),
    ("hx4mesh_8x8", "hx4mesh_8x8_alltoall.yaml", [], 11.3),
    ("hyperx_32x32", "hyperx_32x32_alltoall.yaml", [], 91.6),
    ("fat_tree", "fat_tree_1024_alltoall.yaml", [], 99.9),
    ("fat_tree_50", "fat_tree_1024_alltoall.yaml", ["topology.tree.taper=0.5238"], 51.2),
    ("fat_tree_75", "fat_tree_1024_alltoall.yaml", ["topology.tree.taper=0.2549"], 25.7),
    ("dragonfly_min", "dragonfly_1024_alltoall.yaml", ["routing.algorithm=dragonfly_minimal"], None),
    ("dragonfly_ugal", "dragonfly_1024_alltoall.yaml", [], 62.9),
    ("torus_32x32", "torus_32x32_alltoall.yaml", [], 2.0),
]

FIELDS = [
    ("accelerators", ("config", "accelerators")),
    ("switches", ("config", "switches")),
    ("global_share_of_local_port", ("traffic", "global_bandwidth", "share_of_local_port")),
    ("global_share_of_plane_links", ("traffic", "global_bandwidth", "share_of_plane_links")),
    ("receive_min", ("traffic", "receive_bandwidth", "min")),
    ("receive_median", ("traffic", "receive_bandwidth", "median")),
    ("receive_max", ("traffic", "receive_bandwidth", "max")),
    ("send_min", ("traffic", "send_bandwidth", "min")),
    ("send_max", ("traffic", "send_bandwidth", "max")),
    ("send_fairness", ("traffic", "send_bandwidth", "fairness")),
    ("avg_latency_cycles", ("traffic", "avg_latency_cycles")),
    ("max_path_cables", ("check_details", "max_path_cables")),
    ("diameter_formula", ("check_details", "diameter_formula")),
    ("simulated_cycles", ("sim", "cycles")),
    ("wall_seconds", ("sim", "wall_seconds")),
    ("router_cycles_per_second", ("sim", "router_cycles_per_second")),
    ("peak_rss_mb", ("sim", "peak_rss_mb")),
]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hxsim", default=os.path.join(ROOT, "build", "hxsim"))
    ap.add_argument("--out", default=os.path.join(ROOT, "build", "bench", "global.json"))
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--warmup", type=int, default=2000, help="warm-up cycles")
    ap.add_argument("--measure", type=int, default=8000, help="measurement window in cycles")
    ap.add_argument("--only", default="", help="comma-separated system names")
    args = ap.parse_args()
    only = set(filter(None, args.only.split(",")))

    rows = []
    for name, config, extra, paper in SYSTEMS:
        if only and name not in only:
            continue
        runs = []
        for rep in range(args.repeats):
            sets = [f"run.warmup={args.warmup}cycles", f"run.measure={args.measure}cycles"] + extra
            res = run_once(args.hxsim, os.path.join(ROOT, "configs", config), sets, seed=1 + rep)
            if not res["checks"]["passed"]:
                sys.exit(f"bench: {name} failed its checks: {res['check_details']['report']}")
            runs.append({f: pick(res, path) for f, path in FIELDS})
            r = runs[-1]
            print(f"  {name} run {rep + 1}/{args.repeats}: global {r['global_share_of_plane_links']:.3f} of the "
                  f"plane's links, {r['wall_seconds']:.1f} s, {r['router_cycles_per_second'] / 1e6:.2f} M "
                  f"router-cycles/s, {r['peak_rss_mb']:.0f} MB", flush=True)
        med = {f: statistics.median(r[f] for r in runs) for f, _ in FIELDS}
        rows.append({"system": name, "config": "configs/" + config, "overrides": extra,
                     "table_ii_global_bw_percent": paper, "median": med, "runs": runs})

    doc = {
        "benchmark": "global bandwidth: saturating all-to-all on HammingMesh planes",
        "repeats": args.repeats,
        "warmup_cycles": args.warmup,
        "measure_cycles": args.measure,
        "statistic": "median over repeats (seeds 1..repeats)",
        **machine_info(),
        "note": "table_ii_global_bw_percent is the paper's SST figure for the small cluster; the model "
                "simulates one plane. HammingMesh and torus accelerators inject through one local port "
                "into a plane of four links, so their global_share_of_plane_links is at most 0.25",
        "systems": rows,
    }
    write_json(args.out, doc)

    print(f"\n{'system':>14} {'acc':>5} {'sw':>4} {'port':>6} {'links':>8} {'Table II':>9} "
          f"{'rx min':>7} {'rx max':>7} {'path':>5} {'wall s':>7} {'Mrc/s':>6} {'RSS MB':>7}")
    for r in rows:
        m = r["median"]
        paper = f"{r['table_ii_global_bw_percent'] / 100:.3f}" if r["table_ii_global_bw_percent"] else "-"
        print(f"{r['system']:>14} {m['accelerators']:5.0f} {m['switches']:4.0f} "
              f"{m['global_share_of_local_port']:6.3f} {m['global_share_of_plane_links']:8.3f} {paper:>9} "
              f"{m['receive_min']:7.3f} {m['receive_max']:7.3f} {m['max_path_cables']:5.0f} "
              f"{m['wall_seconds']:7.1f} {m['router_cycles_per_second'] / 1e6:6.2f} {m['peak_rss_mb']:7.0f}")
    print(f"\nwrote {args.out}")

    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return
    fig, ax = plt.subplots(figsize=(8, 4))
    names = [r["system"] for r in rows]
    x = range(len(rows))
    ax.bar([i - 0.2 for i in x], [r["median"]["global_share_of_plane_links"] * 100 for r in rows], 0.4,
           label="hxsim, one plane")
    ax.bar([i + 0.2 for i in x], [r["table_ii_global_bw_percent"] or 0 for r in rows], 0.4,
           label="Table II (SST, small cluster)")
    ax.axhline(25, color="red", lw=0.8, ls="--", label="local-port cap (25%)")
    ax.set_xticks(list(x))
    ax.set_xticklabels(names)
    ax.set_ylabel("global bandwidth (% of injection)")
    ax.set_title("Saturating all-to-all")
    ax.legend()
    ax.grid(alpha=0.3, axis="y")
    fig.tight_layout()
    png = os.path.splitext(args.out)[0] + ".png"
    fig.savefig(png, dpi=120)
    print(f"wrote {png}")


if __name__ == "__main__":
    main()
