#!/usr/bin/env python3
"""make bench: hxsim's 8x8 mesh against its speed ceiling, the Verilated plane alone.

The ceiling is build/tb/plane_ceiling (tb/plane_ceiling.cpp): the Verilated 8x8 board plane in a
plain C++ loop with no SystemC, driven with the traffic of configs/mesh8x8_uniform.yaml (XY, any
free VC, single-flit uniform packets), every ejected flit checked and its credit returned. It
skips the idle plane's clock edges as hxsim does; it is also run evaluating every edge. hxsim
runs the config itself, one thread, with the same load, warm-up and measured window. The two
alternate, REPEATS times per load, so that both see the same machine; the medians of cycles/s and
router-cycles/s, and hxsim's share of the ceiling, go to build/bench/ceiling.json.

    scripts/bench_ceiling.py [--hxsim build/hxsim] [--ceiling build/tb/plane_ceiling]
                             [--out build/bench/ceiling.json] [--repeats 5] [--loads 0.0001,0.1]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

from bench import machine_info

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CONFIG = os.path.join(ROOT, "configs", "mesh8x8_uniform.yaml")
ROUTERS = 64
WARMUP, MEASURE = 1000, 10000  # the config's run.warmup and run.measure


def measure_cycles(load):
    """The measurement window: the config's, but ten times longer at light load, where a 10,000-cycle
    run takes some 15 ms and its speed is mostly noise (page faults, the first touches of the model)."""
    return MEASURE if load >= 0.01 else 10 * MEASURE


def run(cmd):
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"bench_ceiling: {' '.join(cmd)} failed ({proc.returncode}):\n{proc.stdout}{proc.stderr}")
    return proc.stdout


def ceiling_once(exe, load, seed, skip_idle):
    doc = json.loads(run([exe, "--load", str(load), "--warmup", str(WARMUP), "--measure", str(measure_cycles(load)),
                          "--seed", str(seed), "--skip-idle", "1" if skip_idle else "0"]))
    return doc["cycles_per_s"]


def hxsim_once(exe, load, seed):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "r.json")
        run([exe, "run", CONFIG, "--quiet", "--threads", "1", "--seed", str(seed), "--out", out,
             "--set", f"traffic.injection_rate={load}", "--set", f"run.measure={measure_cycles(load)}cycles"])
        with open(out) as f:
            doc = json.load(f)
    if doc["checks"]["passed"] is not True:
        sys.exit(f"bench_ceiling: hxsim's run at load {load} failed its checks")
    return doc["sim"]["cycles"] / doc["sim"]["wall_seconds"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hxsim", default=os.path.join(ROOT, "build", "hxsim"))
    ap.add_argument("--ceiling", default=os.path.join(ROOT, "build", "tb", "plane_ceiling"))
    ap.add_argument("--out", default=os.path.join(ROOT, "build", "bench", "ceiling.json"))
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--loads", default="0.0001,0.1", help="offered loads, flits per node per cycle")
    args = ap.parse_args()

    points = []
    for load in [float(x) for x in args.loads.split(",")]:
        ceil, every, hx = [], [], []
        for r in range(args.repeats):
            ceil.append(ceiling_once(args.ceiling, load, r + 1, True))
            every.append(ceiling_once(args.ceiling, load, r + 1, False))
            hx.append(hxsim_once(args.hxsim, load, r + 1))
        c, e, h = statistics.median(ceil), statistics.median(every), statistics.median(hx)
        points.append({"load": load,
                       "ceiling_cycles_per_s": c, "ceiling_router_cycles_per_s": c * ROUTERS,
                       "ceiling_every_edge_cycles_per_s": e,
                       "hxsim_cycles_per_s": h, "hxsim_router_cycles_per_s": h * ROUTERS,
                       "hxsim_share_of_ceiling": h / c,
                       "runs": {"ceiling_cycles_per_s": ceil, "ceiling_every_edge_cycles_per_s": every,
                                "hxsim_cycles_per_s": hx}})
        print(f"load {load:g}: ceiling {c:,.0f} cycles/s ({c * ROUTERS / 1e6:.2f} M router-cycles/s), "
              f"hxsim {h:,.0f} cycles/s ({h * ROUTERS / 1e6:.2f} M), {100 * h / c:.0f}% of the ceiling")
    doc = {"bench": "ceiling", "config": os.path.relpath(CONFIG, ROOT), "repeats": args.repeats,
           "statistic": "median", **machine_info(), "points": points}
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out + ".tmp", "w") as f:
        json.dump(doc, f, indent=2)
    os.replace(args.out + ".tmp", args.out)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
