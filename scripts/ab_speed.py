#!/usr/bin/env python3
"""Side-by-side speed of two hxsim binaries: alternating runs on one machine at one time.

Each run writes its results JSON; its speed is simulated cycles over the wall seconds of the
simulation loop, both read from the JSON by dotted paths (the results schema moved between
builds, so each side names its own paths). Runs alternate A, B, A, B, ... so that both sides see
the same machine state; the medians and their ratio go to stdout and, with --out, to a JSON file.

    scripts/ab_speed.py --runs 5 \\
      --a "/tmp/hxsim_old run configs/mesh8x8_uniform.yaml --quiet --out {out}" \\
      --b "build/hxsim run configs/mesh8x8_uniform.yaml --quiet --out {out}" \\
      --cycles sim.cycles --wall sim.wall_seconds
"""
import argparse
import json
import os
import shlex
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def at(doc, path):
    for part in path.split("."):
        doc = doc[int(part)] if isinstance(doc, list) else doc[part]
    return doc


def one_run(command, cycles_path, wall_path):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "r.json")
        cmd = shlex.split(command.replace("{out}", out))
        p = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
        if p.returncode != 0:
            sys.exit(f"ab_speed: {command} exited {p.returncode}:\n{p.stdout}{p.stderr}")
        doc = json.load(open(out))
    return at(doc, cycles_path) / at(doc, wall_path)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--a", required=True, help="command of build A, with {out} for the results file")
    ap.add_argument("--b", required=True, help="command of build B")
    ap.add_argument("--cycles", default="sim.cycles", help="path of the simulated cycles (both sides)")
    ap.add_argument("--wall", default="sim.wall_seconds", help="path of the wall seconds (both sides)")
    ap.add_argument("--a-cycles", help="A's own path, if it differs")
    ap.add_argument("--a-wall", help="A's own path, if it differs")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--out", help="write the rates and medians here (JSON)")
    a = ap.parse_args()
    rates = {"a": [], "b": []}
    for i in range(a.runs):
        rates["a"].append(one_run(a.a, a.a_cycles or a.cycles, a.a_wall or a.wall))
        rates["b"].append(one_run(a.b, a.cycles, a.wall))
        print(f"run {i + 1}: A {rates['a'][-1]:.4g}, B {rates['b'][-1]:.4g} cycles/s", file=sys.stderr)
    med = {k: statistics.median(v) for k, v in rates.items()}
    result = {"a": a.a, "b": a.b, "runs": a.runs, "cycles_per_second": rates, "median": med,
              "b_over_a": med["b"] / med["a"]}
    print(f"median cycles/s: A {med['a']:.4g}, B {med['b']:.4g}; B/A = {result['b_over_a']:.3f}")
    if a.out:
        os.makedirs(os.path.dirname(os.path.abspath(a.out)), exist_ok=True)
        json.dump(result, open(a.out, "w"), indent=1)


if __name__ == "__main__":
    main()
