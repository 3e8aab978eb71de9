#!/usr/bin/env python3
"""CLEX against the 3D torus of the same size and total bandwidth per node (issue 21, item 3, in
part; docs/clex.md): uniform traffic swept over offered loads on both networks, each with its two
routing functions, with `hxsim run`; writes every result JSON to --out, prints a table of accepted
load, average latency and routers a flit crosses (link hops + 1), the saturation throughput of each (the highest
accepted load), and plots the latency-throughput curves with `hxsim plot`.

  scripts/clex_compare.py --hxsim build/hxsim --out /tmp/clex_compare            # 64 nodes
  scripts/clex_compare.py --hxsim build/hxsim --size 512 --out /tmp/clex_compare  # 512 nodes

Equal total bandwidth per node: the CLEX splits a node's total (--node-gbps, default 6 x 128
Gb/s) over its levels by the hops of clex_balanced (topology.clex.capacity hop_weighted, section
III-A); the torus gives each of its six links a sixth of it.
"""
import argparse
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(hxsim, config, sets, out):
    cmd = [hxsim, "run", config, "--quiet", "--out", out] + [a for s in sets for a in ("--set", s)]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"{' '.join(cmd)}: exit {r.returncode}\n{r.stdout}{r.stderr}")
    with open(out) as f:
        return json.load(f)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--hxsim", default=os.path.join(ROOT, "build", "hxsim"))
    ap.add_argument("--out", required=True)
    ap.add_argument("--size", type=int, choices=[64, 512], default=64)
    ap.add_argument("--node-gbps", type=float, default=6 * 128)
    ap.add_argument("--rates", default="0.1,0.3,0.5,0.7,0.8,0.9,1.0")
    ap.add_argument("--measure", default="4000cycles")
    ap.add_argument("--source-queue", type=int, default=0,
                    help="packets a source may queue (traffic.source_queue; 0 unbounded): bounds the backlog "
                         "above saturation, which otherwise may not drain in run.drain on 512 nodes")
    ap.add_argument("--only", default="", help="comma list of routing functions to run (default all)")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    k, side = (4, 4) if a.size == 64 else (8, 8)
    common = [f"run.measure={a.measure}", "run.warmup=1000cycles", f"traffic.source_queue={a.source_queue}"]
    clex = os.path.join(ROOT, "configs", "clex", "clex_4x3_saturation.yaml")
    torus = os.path.join(ROOT, "configs", "clex", "torus3d_4x4x4_uniform.yaml")
    nets = [
        ("clex", "clex_minimal", clex, [f"topology.clex.k={k}", "topology.clex.capacity=hop_weighted",
                                        f"topology.clex.node_bandwidth={a.node_gbps}Gb/s", "router.vcs=4"]),
        ("clex", "clex_balanced", clex, [f"topology.clex.k={k}", "topology.clex.capacity=hop_weighted",
                                         f"topology.clex.node_bandwidth={a.node_gbps}Gb/s", "router.vcs=4"]),
        ("torus3d", "dor_dateline", torus, [f"topology.sides={side}x{side}x{side}",
                                            f"links.global.bandwidth={a.node_gbps / 6}Gb/s", "router.vcs=4"]),
        ("torus3d", "torus_adaptive", torus, [f"topology.sides={side}x{side}x{side}",
                                              f"links.global.bandwidth={a.node_gbps / 6}Gb/s", "router.vcs=4"]),
    ]
    files = []
    print(f"{'network':9} {'routing':15} {'offered':>7} {'accepted':>8} {'latency':>8} {'routers':>7}")
    saturation = {}
    for kind, routing, config, sets in nets:
        if a.only and routing not in a.only.split(","):
            continue
        for rate in a.rates.split(","):
            out = os.path.join(a.out, f"{kind}_{a.size}_{routing}_{rate}.json")
            j = run(a.hxsim, config, sets + common + [f"routing.algorithm={routing}", f"traffic.injection_rate={rate}",
                                                      f"name={kind}_{a.size}"], out)
            files.append(out)
            t, c = j["traffic"], j["check_details"]
            hops = j["sim"]["flit_hops"] / max(1, c["flits_delivered"])
            print(f"{kind:9} {routing:15} {float(rate):7.2f} {t['accepted']:8.3f} {t['avg_latency_cycles']:8.1f} "
                  f"{hops:7.2f}" + ("" if j["checks"]["passed"] else "  CHECKS FAILED"))
            key = (kind, routing)
            saturation[key] = max(saturation.get(key, 0), t["accepted"])
    print("saturation throughput (highest accepted, flits/node/cycle):")
    for (kind, routing), s in saturation.items():
        print(f"  {kind:9} {routing:15} {s:.3f}")
    subprocess.run([a.hxsim, "plot", *files, "--out", a.out], check=False)


if __name__ == "__main__":
    main()
