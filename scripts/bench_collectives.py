#!/usr/bin/env python3
"""make bench, part 3: allreduce bandwidth against message size, per algorithm (like the
HammingMesh paper's Figs. 13 and 17), and the alpha-beta model against the simulated times.

Runs every allreduce algorithm (ring, bidirectional_ring, hamiltonian, torus2d) on the two
64-accelerator HammingMeshes (configs/hx2mesh_4x4_allreduce.yaml, hx4mesh_2x2_allreduce.yaml)
for message sizes from 16 KiB to 4 MiB per accelerator. Collectives have no random draws, so one
run per point gives the simulated time exactly; wall times are those of that run.

The model (docs/collectives.md, "Alpha-beta model") is fitted with one alpha per system and
algorithm, from its smallest message, and then predicts every other size. Writes
build/bench/collectives.json (every point: time, algbw, busbw, fraction of peak, model time and
error) and build/bench/collectives.png (algbw against size, simulated and modelled).

Last, unless --no-large, the paper-scale run: the 16 MiB Hamiltonian-cycle allreduce on the
1,024-accelerator Hx4Mesh plane (configs/hx4mesh_8x8_allreduce.yaml), with its wall time and
peak RSS, under "large" in the JSON.

    scripts/bench_collectives.py [--hxsim build/hxsim] [--out build/bench/collectives.json]
                                 [--sizes 16KiB,64KiB,...] [--only hx2mesh_4x4,...]
"""
import argparse
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench import ROOT, machine_info, run_once, write_json  # noqa: E402

SYSTEMS = [
    ("hx2mesh_4x4", "hx2mesh_4x4_allreduce.yaml"),
    ("hx4mesh_2x2", "hx4mesh_2x2_allreduce.yaml"),
]
ALGORITHMS = ["ring", "bidirectional_ring", "hamiltonian", "torus2d"]
SIZES = ["16 KiB", "64 KiB", "256 KiB", "1 MiB", "4 MiB"]
FLIT_BYTES = 16  # 128-bit flits


def parse_size(text):
    number, unit = text.strip().split(" ") if " " in text.strip() else (text[:-3], text[-3:])
    return int(float(number) * {"B": 1, "KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30}[unit])


def split(n, m):
    """Sizes of the m parts of n elements, as collective_plan.h splits them (first ones larger)."""
    return [n // m + (1 if k < n % m else 0) for k in range(m)]


def ring_stage(n, chunk_bytes, segment, alpha):
    """Cycles of one pipelined ring stage: n - 1 steps, each sending a chunk of chunk_bytes in
    segments of at most `segment` bytes (one head flit each), over links of one flit per cycle.
    The stage is bounded by the link (every step's chunk through the same link) and by the chain
    of dependencies (the first segment of step s waits for that of step s - 1)."""
    if n < 2 or chunk_bytes == 0:
        return 0.0
    k = math.ceil(chunk_bytes / segment)
    seg = min(chunk_bytes, segment)
    sigma = math.ceil(seg / FLIT_BYTES) + 1          # cycles to serialise one segment
    link = (n - 1) * (math.ceil(chunk_bytes / FLIT_BYTES) + k)
    chain = (n - 1) * (alpha + sigma) + (k - 1) * sigma
    return max(link + alpha, chain)


def model_cycles(algorithm, cols, rows, message, segment, alpha):
    """The alpha-beta model of one allreduce (docs/collectives.md)."""
    p = cols * rows
    elements = message // 4
    if algorithm == "torus2d":
        # a quarter per flow: reduce-scatter along the first dimension, reduce-scatter and
        # all-gather along the second on the owned chunk, all-gather along the first
        q = split(elements, 4)[0] * 4
        c1 = q / cols
        c2 = c1 / rows
        return 2 * ring_stage(cols, c1, segment, alpha) + 2 * ring_stage(rows, c2, segment, alpha)
    flows = {"ring": 1, "bidirectional_ring": 2, "hamiltonian": 4}[algorithm]
    chunk = split(elements, flows)[0] / p * 4
    return 2 * ring_stage(p, chunk, segment, alpha)


def fit_alpha(algorithm, cols, rows, message, segment, cycles):
    """The alpha for which the model gives `cycles` (bisection; the model grows with alpha)."""
    lo, hi = 0.0, float(cycles)
    for _ in range(60):
        mid = (lo + hi) / 2
        if model_cycles(algorithm, cols, rows, message, segment, mid) < cycles:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hxsim", default=os.path.join(ROOT, "build", "hxsim"))
    ap.add_argument("--out", default=os.path.join(ROOT, "build", "bench", "collectives.json"))
    ap.add_argument("--sizes", default=",".join(SIZES), help="comma-separated, e.g. '16 KiB,1 MiB'")
    ap.add_argument("--only", default="", help="comma-separated system names")
    ap.add_argument("--no-large", action="store_true", help="skip the 1,024-accelerator run")
    args = ap.parse_args()
    sizes = [s.strip() for s in args.sizes.split(",")]
    systems = [s for s in SYSTEMS if not args.only or s[0] in args.only.split(",")]

    points = []
    for name, cfg in systems:
        for alg in ALGORITHMS:
            alpha = None
            for size in sizes:
                print(f"  {name} {alg} {size} ...", file=sys.stderr, flush=True)
                r = run_once(args.hxsim, os.path.join(ROOT, "configs", cfg),
                             [f"collective.algorithm={alg}", f"collective.message={size}"], 1)
                job = r["collective"]["jobs"][0]
                cols, rows = (int(v) for v in job["grid"].split("x"))
                message, segment, cycles = job["message_bytes"], job["segment_bytes"], job["time_cycles"]
                if alpha is None:  # the smallest message fixes alpha
                    alpha = fit_alpha(alg, cols, rows, message, segment, cycles)
                model = model_cycles(alg, cols, rows, message, segment, alpha)
                points.append({
                    "system": name, "algorithm": alg, "message_bytes": message, "ranks": job["ranks"],
                    "time_cycles": cycles, "algbw_GBps": job["algbw_GBps"], "busbw_GBps": job["busbw_GBps"],
                    "fraction_of_peak": job["fraction_of_peak"], "peak_algbw_GBps": job["peak_algbw_GBps"],
                    "alpha_cycles": alpha, "model_cycles": model, "model_error": model / cycles - 1,
                    "wall_seconds": r["sim"]["wall_seconds"], "peak_rss_mb": r["sim"]["peak_rss_mb"],
                    "passed": r["checks"]["passed"],
                })
                p = points[-1]
                print(f"    {cycles} cycles, {p['algbw_GBps']:.2f} GB/s = {100 * p['fraction_of_peak']:.1f}% of peak,"
                      f" model {model:.0f} ({100 * p['model_error']:+.1f}%), {p['wall_seconds']:.1f} s",
                      file=sys.stderr)

    large = None
    if not args.no_large:
        print("  hx4mesh_8x8 hamiltonian 16 MiB (1,024 accelerators) ...", file=sys.stderr, flush=True)
        r = run_once(args.hxsim, os.path.join(ROOT, "configs", "hx4mesh_8x8_allreduce.yaml"), [], 1)
        job = r["collective"]["jobs"][0]
        large = {"config": "hx4mesh_8x8_allreduce.yaml", "ranks": job["ranks"], "algorithm": job["algorithm"],
                 "message_bytes": job["message_bytes"], "time_cycles": job["time_cycles"],
                 "algbw_GBps": job["algbw_GBps"], "fraction_of_peak": job["fraction_of_peak"],
                 "wall_seconds": r["sim"]["wall_seconds"], "peak_rss_mb": r["sim"]["peak_rss_mb"],
                 "router_cycles_per_second": r["sim"]["router_cycles_per_second"], "passed": r["checks"]["passed"]}
        print(f"    {large['time_cycles']} cycles, {100 * large['fraction_of_peak']:.1f}% of peak,"
              f" {large['wall_seconds']:.0f} s wall, {large['peak_rss_mb']:.0f} MB", file=sys.stderr)

    doc = {"benchmark": "allreduce bandwidth against message size (scripts/bench_collectives.py)",
           **machine_info(), "points": points, "large": large}
    write_json(args.out, doc)
    print(f"wrote {args.out}")
    plot(points, os.path.splitext(args.out)[0] + ".png")


def plot(points, path):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib missing: no plot", file=sys.stderr)
        return
    systems = sorted({p["system"] for p in points})
    fig, axes = plt.subplots(1, len(systems), figsize=(6 * len(systems), 4.5), squeeze=False)
    for ax, system in zip(axes[0], systems):
        peak = None
        for alg in ALGORITHMS:
            pts = sorted((p for p in points if p["system"] == system and p["algorithm"] == alg),
                         key=lambda p: p["message_bytes"])
            if not pts:
                continue
            x = [p["message_bytes"] for p in pts]
            line, = ax.plot(x, [p["algbw_GBps"] for p in pts], "o-", label=f"{alg}")
            ax.plot(x, [p["message_bytes"] / (p["model_cycles"] * 1e-9) / 1e9 for p in pts], "--",
                    color=line.get_color(), alpha=0.6)
            peak = pts[0]["peak_algbw_GBps"]
        if peak:
            ax.axhline(peak, color="gray", linestyle=":", label="peak (half the injection bandwidth)")
        ax.set_xscale("log", base=2)
        ax.set_xlabel("message per accelerator (bytes)")
        ax.set_ylabel("algbw (GB/s)")
        ax.set_title(f"allreduce on {system} (dashed: alpha-beta model)")
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
