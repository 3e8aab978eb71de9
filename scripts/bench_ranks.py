#!/usr/bin/env python3
"""One cycle-level run in one process and split between MPI ranks, side by side (docs/scale.md).

Runs the same config, alternating, with `--threads 1`, `--threads 2` and `mpirun -np R ...
--partition auto`, checks that every run gave the same results (but for the wall clock and the
process fields), and writes the medians of the simulation loop's wall seconds and the speedups
to a JSON file.

    scripts/bench_ranks.py --hxsim build/hxsim --runs 3 --out build/bench/ranks.json \\
      --config configs/hx4mesh_8x8_allreduce.yaml --set collective.message=1MiB
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PROCESS_FIELDS = ["wall_seconds", "cycles_per_second", "router_cycles_per_second", "flit_hops_per_second",
                  "peak_rss_mb", "threads", "ranks", "rank_window_cycles", "rank_wait_seconds"]
# mpirun as root and with more ranks than cores, as on CI machines and containers.
MPI_ENV = {"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1"}


def run(cmd, out):
    t0 = time.monotonic()
    p = subprocess.run(cmd + ["--quiet", "--out", out], cwd=ROOT, capture_output=True, text=True,
                       env={**os.environ, **MPI_ENV})
    wall = time.monotonic() - t0
    if p.returncode != 0:
        sys.exit(f"bench_ranks: {' '.join(cmd)} exited {p.returncode}:\n{p.stdout}{p.stderr}")
    doc = json.load(open(out))
    return doc, wall


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hxsim", default=os.path.join(ROOT, "build", "hxsim"))
    ap.add_argument("--config", default="configs/hx4mesh_8x8_allreduce.yaml")
    ap.add_argument("--set", action="append", default=[], dest="sets", metavar="KEY=VALUE")
    ap.add_argument("--ranks", type=int, default=2)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--out", required=True)
    a = ap.parse_args()
    base = [a.hxsim, "run", a.config] + [x for s in a.sets for x in ("--set", s)]
    sides = {
        "threads_1": base + ["--threads", "1"],
        "threads_2": base + ["--threads", "2"],
        f"ranks_{a.ranks}": ["mpirun", "--oversubscribe", "-np", str(a.ranks)] + base + ["--partition", "auto"],
    }
    loop = {k: [] for k in sides}
    process = {k: [] for k in sides}
    waits = []
    reference = None
    with tempfile.TemporaryDirectory() as tmp:
        for i in range(a.runs):
            for name, cmd in sides.items():
                doc, wall = run(cmd, os.path.join(tmp, name + ".json"))
                loop[name].append(doc["sim"]["wall_seconds"])
                process[name].append(wall)
                if doc["sim"].get("rank_wait_seconds"):
                    waits.append(doc["sim"]["rank_wait_seconds"])
                for k in PROCESS_FIELDS:
                    doc["sim"].pop(k, None)
                if reference is None:
                    reference = doc
                elif doc != reference:
                    sys.exit(f"bench_ranks: {name} gave other results than the first run")
                print(f"run {i + 1} {name}: {loop[name][-1]:.1f} s in the loop, {wall:.1f} s in all",
                      file=sys.stderr)
    med = {k: statistics.median(v) for k, v in loop.items()}
    ranks = f"ranks_{a.ranks}"
    result = {
        "config": a.config, "sets": a.sets, "runs": a.runs, "cycles": reference["sim"]["cycles"],
        "cores": os.cpu_count(),
        "loop_seconds": loop, "process_seconds": process, "rank_wait_seconds": waits,
        "median_loop_seconds": med,
        "speedup": {f"{ranks}_over_threads_1": med["threads_1"] / med[ranks],
                    f"{ranks}_over_threads_2": med["threads_2"] / med[ranks],
                    "threads_2_over_threads_1": med["threads_1"] / med["threads_2"]},
        "identical_results": True,
    }
    os.makedirs(os.path.dirname(os.path.abspath(a.out)), exist_ok=True)
    with open(a.out, "w") as f:
        json.dump(result, f, indent=2)
    print(json.dumps({"median_loop_seconds": med, "speedup": result["speedup"]}, indent=2))


if __name__ == "__main__":
    main()
