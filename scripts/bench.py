#!/usr/bin/env python3
"""make bench: the simulator's speed and the mesh's load-latency curve.

Runs configs/mesh8x8_uniform.yaml (8x8 board plane as a mesh, XY, 4 VCs x 8 flits, 1-flit
packets, uniform traffic) at each offered load, REPEATS times, and writes the medians to
build/bench/mesh8x8.json (plus every run's raw numbers), and a load-latency / throughput plot
to build/bench/mesh8x8.png when matplotlib is available.

    scripts/bench.py [--hxsim build/hxsim] [--out build/bench/mesh8x8.json] [--repeats 3]
                     [--loads 0.05,0.1,...] [--measure CYCLES]
"""
import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LOADS = [0.05, 0.1, 0.2, 0.3, 0.35, 0.4, 0.45]

# Per-load fields: (name in the bench JSON, path in the results JSON).
FIELDS = [
    ("offered", ("traffic", "offered")),
    ("accepted", ("traffic", "accepted")),
    ("avg_latency_cycles", ("traffic", "avg_latency_cycles")),
    ("p99_latency_cycles", ("traffic", "p99_latency_cycles")),
    ("zero_load_latency_cycles", ("traffic", "zero_load_latency_cycles")),
    ("packets", ("traffic", "packets")),
    ("simulated_cycles", ("sim", "cycles")),
    ("wall_seconds", ("sim", "wall_seconds")),
    ("cycles_per_second", ("sim", "cycles_per_second")),
    ("router_cycles_per_second", ("sim", "router_cycles_per_second")),
    ("flit_hops_per_second", ("sim", "flit_hops_per_second")),
    ("peak_rss_mb", ("sim", "peak_rss_mb")),
]


def run_once(hxsim, config, sets, seed):
    """One `hxsim run` with --set overrides; its results JSON (exits on a failed run)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "r.json")
        cmd = [hxsim, "run", config, "--quiet", "--seed", str(seed), "--out", out]
        for s in sets:
            cmd += ["--set", s]
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode != 0:
            sys.exit(f"bench: {' '.join(cmd)} failed ({proc.returncode}):\n{proc.stdout}{proc.stderr}")
        with open(out) as f:
            return json.load(f)


def machine_info():
    """Where and when a benchmark ran, for its JSON."""
    return {"machine": {"cpus": os.cpu_count(), "platform": platform.platform(),
                        "processor": platform.processor()},
            "date": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}


def write_json(path, doc):
    """Write `doc` to `path` atomically (a temporary file, then a rename)."""
    os.makedirs(os.path.dirname(path), exist_ok=True)
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(doc, f, indent=2)
        f.write("\n")
    os.replace(tmp, path)


def pick(doc, path):
    for k in path:
        doc = doc[k]
    return doc


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hxsim", default=os.path.join(ROOT, "build", "hxsim"))
    ap.add_argument("--config", default=os.path.join(ROOT, "configs", "mesh8x8_uniform.yaml"))
    ap.add_argument("--out", default=os.path.join(ROOT, "build", "bench", "mesh8x8.json"))
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--loads", default=",".join(str(l) for l in LOADS))
    ap.add_argument("--measure", type=int, default=0, help="measurement window in cycles (default: the config's)")
    args = ap.parse_args()
    loads = [float(x) for x in args.loads.split(",")]

    rows = []
    for load in loads:
        runs = []
        for rep in range(args.repeats):
            sets = [f"traffic.injection_rate={load}"]
            if args.measure:
                sets.append(f"run.measure={args.measure}cycles")
            res = run_once(args.hxsim, args.config, sets, seed=1 + rep)
            if not res["checks"]["passed"]:
                sys.exit(f"bench: run at load {load} failed its checks: {res['checks']}")
            runs.append({name: pick(res, path) for name, path in FIELDS})
            print(f"  load {load:.2f} run {rep + 1}/{args.repeats}: accepted {runs[-1]['accepted']:.3f}, "
                  f"latency {runs[-1]['avg_latency_cycles']:.1f}, "
                  f"{runs[-1]['router_cycles_per_second'] / 1e6:.2f} M router-cycles/s", flush=True)
        med = {name: statistics.median(r[name] for r in runs) for name, _ in FIELDS}
        med["offered"] = load
        rows.append({"offered_load": load, "median": med, "runs": runs})

    doc = {
        "benchmark": "mesh8x8_uniform",
        "config": os.path.relpath(args.config, ROOT),
        "repeats": args.repeats,
        "statistic": "median over repeats (seeds 1..repeats)",
        **machine_info(),
        "targets": {"router_cycles_per_second_at_0.1": 2.2e6, "accepted_at_0.45": 0.40,
                    "peak_rss_mb": 100},
        "loads": rows,
    }
    write_json(args.out, doc)

    print(f"\n{'offered':>8} {'accepted':>9} {'avg lat':>8} {'p99 lat':>8} {'cycles':>8} {'wall s':>7} "
          f"{'Mrc/s':>7} {'Mfh/s':>7} {'RSS MB':>7}")
    for r in rows:
        m = r["median"]
        print(f"{m['offered']:8.2f} {m['accepted']:9.3f} {m['avg_latency_cycles']:8.2f} "
              f"{m['p99_latency_cycles']:8.0f} {m['simulated_cycles']:8.0f} {m['wall_seconds']:7.2f} "
              f"{m['router_cycles_per_second'] / 1e6:7.2f} {m['flit_hops_per_second'] / 1e6:7.2f} "
              f"{m['peak_rss_mb']:7.1f}")
    print(f"\nwrote {args.out}")

    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(10, 4))
    x = [r["median"]["offered"] for r in rows]
    ax1.plot(x, [r["median"]["avg_latency_cycles"] for r in rows], "o-", label="average")
    ax1.plot(x, [r["median"]["p99_latency_cycles"] for r in rows], "s--", label="p99")
    ax1.set_xlabel("offered load (flits/node/cycle)")
    ax1.set_ylabel("latency (cycles)")
    ax1.set_title("8x8 mesh, XY, uniform")
    ax1.legend()
    ax1.grid(alpha=0.3)
    ax2.plot(x, [r["median"]["accepted"] for r in rows], "o-", label="accepted")
    ax2.plot([0, max(x)], [0, max(x)], ":", color="gray", label="offered")
    ax2.axhline(0.5, color="red", lw=0.8, ls="--", label="bisection limit 0.5")
    ax2.set_xlabel("offered load (flits/node/cycle)")
    ax2.set_ylabel("accepted (flits/node/cycle)")
    ax2.legend()
    ax2.grid(alpha=0.3)
    fig.tight_layout()
    png = os.path.splitext(args.out)[0] + ".png"
    fig.savefig(png, dpi=120)
    print(f"wrote {png}")


if __name__ == "__main__":
    main()
