#!/usr/bin/env python3
"""make table2: the global all-to-all column of the HammingMesh paper's Table II, regenerated.

For every Table II design, the flow-level model (`hxsim model`, docs/table2.md) on the small
cluster (the same configs the cycle model runs, configs/*_alltoall.yaml) and on the large
cluster (configs/table2/large_*.yaml), beside the cycle model's measured figure on the small
cluster (`hxsim run`, slow: about 10 minutes for all designs on two cores; cached) and the
paper's numbers. Writes JSON, a Markdown table and a bar plot:

    scripts/table2.py [--hxsim build/hxsim] [--out build/table2/table2.json]
                      [--cycle] [--no-large] [--only NAME,...]

--cycle runs the cycle model where build/table2/cycle/NAME.json is missing (it is kept, so a
second call reuses it); without it the table shows the cached cycle figures, or "-". The cycle
runs use 2,000 warm-up and 8,000 measured cycles (as scripts/bench_global.py).

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
# whether the design's routers have the HammingMesh local port (four plane links).
DESIGNS = [
    ("fat_tree", "nonblocking fat tree", "fat_tree_1024_alltoall.yaml", [], None, 99.9, 98.9, False),
    ("fat_tree_50", "50% tapered fat tree", "fat_tree_1024_alltoall.yaml", ["topology.tree.taper=0.5238"], None,
     51.2, 47.6, False),
    ("fat_tree_75", "75% tapered fat tree", "fat_tree_1024_alltoall.yaml", ["topology.tree.taper=0.2549"], None,
     25.7, 24.0, False),
    ("dragonfly", "Dragonfly (UGAL)", "dragonfly_1024_alltoall.yaml", [], "table2/large_dragonfly_30g.yaml", 62.9,
     71.5, False),
    ("hyperx", "2D HyperX (Hx1Mesh)", "hyperx_32x32_alltoall.yaml", [], "table2/large_hyperx_128x128.yaml", 91.6, 95.8,
     True),
    ("hx2mesh", "Hx2Mesh", "hx2mesh_16x16_alltoall.yaml", [], "table2/large_hx2mesh_64x64.yaml", 25.4, 25.0, True),
    ("hx4mesh", "Hx4Mesh", "hx4mesh_8x8_alltoall.yaml", [], "table2/large_hx4mesh_32x32.yaml", 11.3, 10.5, True),
    ("torus", "2D torus", "torus_32x32_alltoall.yaml", [], "table2/large_torus_128x128.yaml", 2.0, 1.1, False),
]
FOUR_LANES = ["router.local_ports=4"]


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
    if "choice" in t["routing"]:
        r["ugal_choice"] = t["routing"]["choice"]
        r["minimal_share"] = t["routing"]["minimal"]["accepted"]
        r["valiant_share"] = t["routing"].get("valiant", {}).get("accepted")
    return r


def cycle(exe, name, config, sets, cache_dir, run):
    path = os.path.join(cache_dir, name + ".json")
    if not os.path.exists(path):
        if not run:
            return None
        j, wall = hxsim(exe, "run", config, sets + ["run.warmup=2000cycles", "run.measure=8000cycles"],
                        ["--quiet", "--seed", "1"])
        j.setdefault("table2", {})["wall_seconds"] = wall
        os.makedirs(cache_dir, exist_ok=True)
        with open(path, "w") as f:
            json.dump(j, f)
    with open(path) as f:
        j = json.load(f)
    g = j["traffic"]["global_bandwidth"]
    return {"share_of_local_port": g["share_of_local_port"], "share_of_plane_links": g["share_of_plane_links"]}


def pct(x):
    return "-" if x is None else f"{100 * x:.1f}"


def markdown(rows):
    lines = [
        "Small cluster (1,024 endpoints, one plane). Shares in % of the plane's links (Table II's injection "
        "bandwidth); 'port' = % of the one-link local port, which is what the cycle model's HammingMesh-family "
        "routers can inject.",
        "",
        "| design | Table II | flow, 4 lanes | flow (config) | flow phased (config) | cycle (config) | "
        "cycle / flow | flow, port | flow phased, port | cycle, port | bottleneck |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        s, c = r["small"], r["cycle"]
        ratio = f"{c['share_of_plane_links'] / s['share_of_plane_links']:.2f}" if c else "-"
        lanes = r["small_4lanes"]
        lines.append(f"| {r['label']} | {r['paper_small']} | {pct(lanes['share_of_plane_links']) if lanes else '-'} "
                     f"| {pct(s['share_of_plane_links'])} | {pct(s.get('phased_share_of_plane_links'))} "
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


def plot(rows, png):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("table2: no matplotlib, no plot")
        return
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.2), sharey=True)
    for ax, size in zip(axes, ("small", "large")):
        names = [r["name"] for r in rows]
        x = range(len(rows))

        def comparable(r):
            v = r.get(size + "_4lanes") or r.get(size)
            return 100 * v["share_of_plane_links"] if v else 0

        series = [("Table II (SST)", [r["paper_" + size] for r in rows]),
                  ("flow model (4 lanes for HxMesh-family)", [comparable(r) for r in rows])]
        if size == "small":
            series.append(("cycle model (config, one-link port)",
                           [100 * r["cycle"]["share_of_plane_links"] if r["cycle"] else 0 for r in rows]))
        w = 0.8 / len(series)
        for k, (label, ys) in enumerate(series):
            ax.bar([i + (k - (len(series) - 1) / 2) * w for i in x], ys, w, label=label)
        ax.set_xticks(list(x))
        ax.set_xticklabels(names, rotation=30, ha="right")
        ax.set_title(f"{size} cluster: global all-to-all bandwidth")
        ax.grid(alpha=0.3, axis="y")
    axes[0].set_ylabel("% of injection bandwidth")
    axes[0].legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(png, dpi=120)
    print(f"wrote {png}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hxsim", default=os.path.join(ROOT, "build", "hxsim"))
    ap.add_argument("--out", default=os.path.join(ROOT, "build", "table2", "table2.json"))
    ap.add_argument("--cycle", action="store_true", help="run the cycle model where no cached result exists")
    ap.add_argument("--no-large", action="store_true", help="skip the large cluster")
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
        if large and not args.no_large:
            r["large_config"] = "configs/" + large
            r["large"] = flow(args.hxsim, large, [])
            r["large_4lanes"] = flow(args.hxsim, large, FOUR_LANES) if lanes else None
        print(f"  {name}: flow {pct(r['small']['share_of_plane_links'])}%"
              + (f" (4 lanes {pct(r['small_4lanes']['share_of_plane_links'])}%)" if lanes else "")
              + (f", cycle {pct(r['cycle']['share_of_plane_links'])}%" if r["cycle"] else "")
              + (f", large {pct(r['large']['share_of_plane_links'])}%" if r.get("large") else "")
              + f", paper {paper_small}% / {paper_large}%", flush=True)
        rows.append(r)

    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w") as f:
        json.dump({"table": "HammingMesh Table II, global all-to-all bandwidth", "date":
                   time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), "designs": rows}, f, indent=1)
    md = os.path.splitext(args.out)[0] + ".md"
    with open(md, "w") as f:
        f.write(markdown(rows))
    print(f"wrote {args.out}\nwrote {md}")
    plot(rows, os.path.splitext(args.out)[0] + ".png")


if __name__ == "__main__":
    main()
