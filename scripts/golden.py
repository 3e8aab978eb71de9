#!/usr/bin/env python3
"""Record or check the golden results table (tests/golden/golden.json).

The table pins exact results of representative runs of every system: cycle counts, packets and
flits delivered, flit hops, mean and maximum latencies with the packet counts (so the latency sums),
collective times. It is the safety net for refactors:
tests/golden_test.cpp re-runs every case and demands the same numbers, bit for bit.

  scripts/golden.py --hxsim build/hxsim --record     # (re)write tests/golden/golden.json
  scripts/golden.py --hxsim build/hxsim              # check, print the differences

Each case is a command line and a list of metrics: a metric names a value in the results JSON
by its path ("sim.cycles", "collective.jobs.0.time_cycles"). When the results schema moves a
value, the path changes in CASES and in the table; the value may not. Change a value only with a
reason in the commit that does it.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TABLE = os.path.join(ROOT, "tests", "golden", "golden.json")

# Metrics of a synthetic-traffic run and of a collective run on the fabric model.
TRAFFIC = ["sim.cycles", "sim.flit_hops", "checks.injected", "checks.delivered", "check_details.flits_delivered",
           "traffic.packets", "traffic.avg_latency_cycles", "traffic.max_latency_cycles"]
COLLECTIVE = ["sim.cycles", "sim.flit_hops", "checks.delivered", "check_details.flits_delivered",
              "collective.jobs.*.time_cycles", "collective.jobs.*.output_elements"]
# The NVSwitch model: time, what it reduced, what it checked. Means (latency, utilisation) are
# doubles computed the same way from the same integer sums, so they compare exactly too.
# checks.delivered counts packets (the scoreboard's); check_details.lines_final the result lines.
NVSWITCH = ["sim.cycles", "checks.delivered", "check_details.lines_final", "in_network.table_results",
            "in_network.table_evictions", "in_network.reduction_latency_cycles",
            "collective.link_utilisation.injection.mean"]
NVSWITCH_RING = ["sim.cycles", "checks.delivered", "check_details.lines_final",
                 "collective.link_utilisation.injection.mean"]  # no tables

# name, hxsim arguments, metrics. Sizes are reduced so that the whole table runs in about a minute.
CASES = [
    ("board4x4_default", ["run", "--set", "run.measure=3000 cycles"], TRAFFIC),
    ("board4x4_adaptive", ["run", "configs/board4x4_adaptive.yaml", "--set", "run.measure=3000 cycles"], TRAFFIC),
    ("mesh8x8_uniform", ["run", "configs/mesh8x8_uniform.yaml", "--set", "run.measure=3000 cycles"], TRAFFIC),
    ("hx2mesh_alltoall", ["run", "configs/hx2mesh_4x4_alltoall.yaml", "--set", "run.warmup=500 cycles",
                          "--set", "run.measure=2000 cycles"], TRAFFIC),
    # Light load on two threads: the planes are idle in 97% of their cycles, so the idle-edge
    # skip and the arrival horizons (docs/performance.md, levers 1 and 4) decide most cycles.
    ("hx2mesh_light", ["run", "configs/hx2mesh_4x4_alltoall.yaml", "--threads", "2", "--set",
                       "traffic.injection_rate=0.002", "--set", "run.warmup=200 cycles", "--set",
                       "run.measure=20000 cycles"], TRAFFIC),
] + [
    ("hx2mesh_allreduce_" + alg, ["run", "configs/hx2mesh_4x4_allreduce.yaml", "--set", "collective.algorithm=" + alg,
                                  "--set", "collective.message=64 KiB"], COLLECTIVE)
    for alg in ("ring", "bidirectional_ring", "hamiltonian", "torus2d")
] + [
    ("hx4mesh_allreduce_hamiltonian", ["run", "configs/hx4mesh_2x2_allreduce.yaml", "--set", "collective.message=64 KiB"],
     COLLECTIVE),
    ("hx2mesh_two_jobs", ["run", "configs/hx2mesh_4x4_two_jobs.yaml", "--set", "collective.message=32 KiB"], COLLECTIVE),
    ("fat_tree_alltoall", ["run", "configs/fat_tree_1024_alltoall.yaml", "--set", "topology.endpoints=128",
                           "--set", "topology.tree.radix=16", "--set", "run.warmup=500 cycles",
                           "--set", "run.measure=2000 cycles"], TRAFFIC),
    # Light load: the switches are idle in most cycles, which they skip (NetworkSwitch::step).
    ("fat_tree_light", ["run", "configs/fat_tree_1024_alltoall.yaml", "--set", "topology.endpoints=128",
                        "--set", "topology.tree.radix=16", "--set", "traffic.injection_rate=0.002", "--set",
                        "traffic.source_queue=0", "--set", "run.warmup=200 cycles", "--set",
                        "run.measure=20000 cycles"], TRAFFIC),
    ("torus_alltoall", ["run", "configs/torus_32x32_alltoall.yaml", "--set", "topology.global=4x4",
                        "--set", "run.warmup=500 cycles", "--set", "run.measure=2000 cycles"], TRAFFIC),
    ("hyperx_alltoall", ["run", "configs/hyperx_32x32_alltoall.yaml", "--set", "topology.global=8x8",
                         "--set", "run.warmup=500 cycles", "--set", "run.measure=2000 cycles"], TRAFFIC),
    # The Hx2Mesh with C++ switches as its board routers (router.model switch), four lanes.
    ("hx2mesh_switch_routers", ["run", "configs/hx2mesh_4x4_alltoall.yaml", "--set", "router.model=switch",
                                "--set", "router.local_ports=4", "--set", "traffic.injection_rate=4",
                                "--set", "run.warmup=500 cycles", "--set", "run.measure=2000 cycles"], TRAFFIC),
    ("dragonfly_alltoall", ["run", "configs/dragonfly_1024_alltoall.yaml", "--set", "topology.dragonfly.a=4",
                            "--set", "topology.dragonfly.p=2", "--set", "topology.dragonfly.h=2",
                            "--set", "topology.dragonfly.groups=9", "--set", "run.warmup=500 cycles",
                            "--set", "run.measure=2000 cycles"], TRAFFIC),
    ("dgx2_ring", ["run", "configs/dgx2_ring.yaml", "--set", "collective.message=256 KiB"], NVSWITCH_RING),
    ("dgx2_pull", ["run", "configs/dgx2_pull.yaml", "--set", "collective.message=256 KiB"], NVSWITCH),
    ("dgx2_push", ["run", "configs/dgx2_push.yaml", "--set", "collective.message=256 KiB"], NVSWITCH),
    ("fat_tree128_push", ["run", "configs/fat_tree128_push.yaml", "--set", "collective.message=64 KiB"], NVSWITCH),
]


def lookup(doc, path):
    """Values at a dotted path; '*' expands over a list. Returns [(concrete path, value)]."""
    out = [("", doc)]
    for part in path.split("."):
        nxt = []
        for prefix, node in out:
            where = prefix + "." + part if prefix else part
            if part == "*":
                nxt += [((prefix + "." if prefix else "") + str(i), v) for i, v in enumerate(node)]
            elif isinstance(node, list):
                nxt.append((where, node[int(part)]))
            elif isinstance(node, dict) and part in node:
                nxt.append((where, node[part]))
            else:
                raise KeyError(f"no '{path}' in the results (stuck at '{where}')")
        out = nxt
    return out


def run_case(hxsim, args):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "r.json")
        cmd = [hxsim] + args + ["--out", out, "--quiet"]
        p = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
        if p.returncode != 0:
            raise RuntimeError(f"{' '.join(cmd)} exited {p.returncode}:\n{p.stdout}{p.stderr}")
        with open(out) as f:
            return json.load(f)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hxsim", default=os.path.join(ROOT, "build", "hxsim"))
    ap.add_argument("--record", action="store_true", help="rewrite the table from this binary")
    ap.add_argument("--only", help="comma-separated case names")
    a = ap.parse_args()
    only = set(a.only.split(",")) if a.only else None
    table = {"cases": []}
    if os.path.exists(TABLE):
        with open(TABLE) as f:
            table = json.load(f)
    known = {c["name"]: c for c in table["cases"]}
    bad = 0
    new_cases = []
    for name, args, metrics in CASES:
        if only and name not in only:
            if name in known:
                new_cases.append(known[name])
            continue
        doc = run_case(a.hxsim, args)
        values = {}
        for m in metrics:
            for path, v in lookup(doc, m):
                values[path] = v
        if a.record:
            print(f"{name}: {len(values)} values", file=sys.stderr)
        else:
            want = known.get(name, {}).get("values", {})
            diffs = [f"  {k}: table {want.get(k)!r}, now {v!r}" for k, v in values.items() if want.get(k) != v]
            diffs += [f"  {k}: table {v!r}, now missing" for k, v in want.items() if k not in values]
            bad += bool(diffs)
            print(f"{name}: {'differs' if diffs else 'same'}", file=sys.stderr)
            for d in diffs:
                print(d, file=sys.stderr)
        new_cases.append({"name": name, "args": args, "values": values})
    if a.record:
        os.makedirs(os.path.dirname(TABLE), exist_ok=True)
        tmp = TABLE + ".tmp"
        with open(tmp, "w") as f:
            json.dump({"note": "exact results of hxsim runs; re-run by tests/golden_test.cpp; see scripts/golden.py",
                       "cases": new_cases}, f, indent=1)
            f.write("\n")
        os.replace(tmp, TABLE)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
