#!/usr/bin/env python3
"""Rail-only against rail-optimized at cycle level (Wang et al., issue 20 items 2 and 5).

For each cluster (configs/rail/rail_{only,optimized}_n64_k8.yaml and _n128_k16.yaml) and each
collective, runs the cycle model (`hxsim run`, every element verified) and its analytical
counterpart:
  - all_gather, reduce_scatter, allreduce by the hierarchical algorithm (rail stage and HB stage,
    dim_schedule.h): against `hxsim model` on the same file;
  - all_to_all by the hierarchical algorithm of Appendix D (HB domain, then rail): against
    `hxsim model` (Eq. 21 plus each phase's latency);
  - all_to_all by the direct algorithm (per-packet: on rail-only every cross-rail packet is
    relayed once through the HB domain): against Appendix D's Eq. 20 (full bisection) and Eq. 21
    (rail-only, hierarchical), computed here from the run's C_F and C_S.
Writes build/rail/cycle.json and prints the markdown tables docs/rail.md shows.

  python3 scripts/rail_cycle.py                 # 1 MiB, both sizes (about 8 minutes on one core)
  python3 scripts/rail_cycle.py --sizes n64_k8 --messages 1MiB,4MiB
"""
import argparse
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HXSIM = os.path.join(ROOT, "build", "hxsim")
OUT = os.path.join(ROOT, "build", "rail")
# (operation, algorithm); the analytical counterpart is `hxsim model` for every hierarchical one.
COLLECTIVES = [("all_gather", "hierarchical"), ("reduce_scatter", "hierarchical"), ("allreduce", "hierarchical"),
               ("all_to_all", "hierarchical"), ("all_to_all", "direct")]


def run(cmd, config, overrides, out):
    args = [HXSIM, cmd, config, "--out", out] + [a for o in overrides for a in ("--set", o)]
    p = subprocess.run(args, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"{' '.join(args)} failed ({p.returncode}):\n{p.stdout}{p.stderr}")
    with open(out) as f:
        return json.load(f)


def dims_of(results):
    """C_F and C_S, bytes/s per GPU, from a run's results: the links of classes dim1 (the HB
    domain's NVLink planes) and dim2 (the NICs), each link's flits per cycle."""
    c = results["config"]
    n = c["endpoints"]
    flit_bytes_per_s = c["flit_payload_bits"] / 8 * c["clock_hz"]
    per_gpu = {}
    for link in c["network"]["links"]:
        if link["class"] in ("dim1", "dim2"):
            per_gpu[link["class"]] = link["count"] / n * link["flits_per_cycle"] * flit_bytes_per_s
    return per_gpu["dim1"], per_gpu["dim2"]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sizes", default="n64_k8,n128_k16")
    ap.add_argument("--messages", default="1MiB")
    args = ap.parse_args()
    os.makedirs(OUT, exist_ok=True)
    rows = []
    for size in args.sizes.split(","):
        for message in args.messages.split(","):
            for op, alg in COLLECTIVES:
                row = {"cluster": size, "message": message, "operation": op, "algorithm": alg}
                for kind in ("rail_only", "rail_optimized"):
                    config = os.path.join(ROOT, "configs", "rail", f"{kind}_{size}.yaml")
                    sets = [f"collective.message={message}", f"collective.operation={op}",
                            f"collective.algorithm={alg}"]
                    if op == "all_to_all":
                        # An all-to-all has no chunks: run a copy of the config without them.
                        with open(config) as f:
                            text = "".join(l for l in f if not l.strip().startswith("chunks:"))
                        config = os.path.join(OUT, f"{kind}_{size}_a2a.yaml")
                        with open(config, "w") as f:
                            f.write(text)
                    tag = f"{kind}_{size}_{op}_{alg}_{message}"
                    r = run("run", config, sets, os.path.join(OUT, tag + ".json"))
                    job = r["collective"]["jobs"][0]
                    if not r["checks"]["passed"] or job["wrong_elements"] != 0:
                        sys.exit(f"{tag}: the run's checks failed")
                    cell = {
                        "time_us": job["time_us"],
                        "algbw_GBps": job["algbw_GBps"],
                        "busbw_GBps": job["busbw_GBps"],
                        "transit_packets": r["sim"]["transit_packets"],
                        "packets": job["packets"],
                    }
                    if alg == "hierarchical":
                        m = run("model", config, sets, os.path.join(OUT, tag + ".model.json"))
                        cell["model_us"] = m["collective"]["jobs"][0]["time_us"]
                    else:
                        cf, cs = dims_of(r)
                        x = int(size.split("_k")[1])  # K: GPUs of an HB domain
                        y = job["ranks"] // x  # N / K: HB domains
                        d = job["message_bytes"] / job["ranks"]  # one shard: block d of the S bytes
                        cell["eq20_us"] = max((x - 1) * d / cf, x * (y - 1) * d / cs) * 1e6
                        cell["eq21_us"] = (y * (x - 1) * d / cf + x * (y - 1) * d / cs) * 1e6
                    row[kind] = cell
                    print(f"{tag}: {cell}", file=sys.stderr, flush=True)
                row["ratio_only_to_optimized"] = row["rail_only"]["time_us"] / row["rail_optimized"]["time_us"]
                rows.append(row)
    with open(os.path.join(OUT, "cycle.json"), "w") as f:
        json.dump({"rows": rows}, f, indent=1)

    print("| cluster | message | collective | algorithm | rail-only us | algbw GB/s | busbw GB/s | rail-optimized us | algbw GB/s "
          "| busbw GB/s | only / optimized |")
    print("|---|---|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        a, b = r["rail_only"], r["rail_optimized"]
        print(f"| {r['cluster']} | {r['message']} | {r['operation']} | {r['algorithm']} | {a['time_us']:.1f} | {a['algbw_GBps']:.2f} | "
              f"{a['busbw_GBps']:.2f} | {b['time_us']:.1f} | {b['algbw_GBps']:.2f} | {b['busbw_GBps']:.2f} | "
              f"{r['ratio_only_to_optimized']:.3f} |")
    print()
    print("| cluster | message | collective | algorithm | network | cycle us | analytical us | source | cycle / analytical |")
    print("|---|---|---|---|---|---:|---:|---|---:|")
    for r in rows:
        for kind in ("rail_only", "rail_optimized"):
            c = r[kind]
            if "model_us" in c:
                pairs = [(c["model_us"], "hxsim model")]
            else:
                pairs = [(c["eq20_us"], "Eq. 20"), (c["eq21_us"], "Eq. 21")]
            for t, src in pairs:
                print(f"| {r['cluster']} | {r['message']} | {r['operation']} | {r['algorithm']} | {kind} | {c['time_us']:.1f} | {t:.1f} | "
                      f"{src} | {c['time_us'] / t:.3f} |")


if __name__ == "__main__":
    main()
