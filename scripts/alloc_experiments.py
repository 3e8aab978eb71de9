#!/usr/bin/env python3
"""make bench, part 3: job allocation on HammingMesh (section IV of the HammingMesh paper).

Runs `hxsim alloc` on
  configs/alloc_small.yaml   Table II's small cluster: 16x16 Hx2Mesh, 8x8 Hx4Mesh
  configs/alloc_large.yaml   Table II's large cluster: 64x64 Hx2Mesh, 32x32 Hx4Mesh
  configs/alloc_timing.yaml  wall time of the greedy on a 1,000 x 1,000-board mesh
  configs/alloc_place_example.yaml  a Figure 5 style placement
and writes their results JSON to build/alloc/{small,large,timing,place}.json, a summary of every
run (mean, median, p1, p99 of the utilisation, the upper-level traffic share, the timings) to
build/alloc/summary.json, and box plots in the manner of the paper's Figs. 8-10 to
build/alloc/heuristics.png, failures.png and upper_level.png.

The job sizes are SYNTHETIC (configs/job_sizes_default.txt), not the paper's Alibaba trace, so
the numbers are this distribution's, not the paper's (docs/allocation.md discusses both).

    scripts/alloc_experiments.py [--hxsim build/hxsim] [--outdir build/alloc]
                                 [--mixes N] [--large-mixes N]

--mixes / --large-mixes override experiments.mixes of the small / large config (default: the
configs' 1,000 each; about half a minute of CPU in all).
"""
import argparse
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench import ROOT, machine_info, write_json  # noqa: E402

CONFIGS = [
    ("small", "alloc_small.yaml"),
    ("large", "alloc_large.yaml"),
    ("timing", "alloc_timing.yaml"),
    ("place", "alloc_place_example.yaml"),
]


def run_alloc(hxsim, config, out, sets):
    cmd = [hxsim, "alloc", os.path.join(ROOT, "configs", config), "--quiet", "--out", out]
    for s in sets:
        cmd += ["--set", s]
    t0 = time.time()
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        sys.exit(f"alloc_experiments: {' '.join(cmd)} failed ({proc.returncode}):\n{proc.stdout}{proc.stderr}")
    print(f"  {config}: {time.time() - t0:.1f} s -> {out}", flush=True)
    with open(out) as f:
        return json.load(f)


def summarize(docs):
    rows = []
    for part in ("small", "large"):
        for r in docs[part]["runs"]:
            u, f = r["utilisation"], r["upper_fraction"]
            rows.append({"cluster": part, "system": r["system"], "heuristics": r["heuristics"],
                         "failures": r["failures"], "experiments": r["experiments"], "mixes": r["mixes"],
                         "utilisation": {k: u[k] for k in ("mean", "median", "p1", "p99", "min", "max")},
                         "upper_fraction": {k: f[k] for k in ("mean", "median", "p99", "max")},
                         "wall_seconds": r["wall_seconds"]})
    return rows


def print_tables(rows, timing):
    print(f"\n{'system':>14} {'heuristics':>40} {'fail':>4} {'mean':>7} {'median':>7} {'p1':>7} {'p99':>7} "
          f"{'upper':>6}")
    for r in rows:
        u = r["utilisation"]
        print(f"{r['system']:>14} {r['heuristics']:>40} {r['failures']:4d} {u['mean']:7.4f} {u['median']:7.4f} "
              f"{u['p1']:7.4f} {u['p99']:7.4f} {r['upper_fraction']['mean']:6.3f}")
    t = timing["timing"]
    print(f"\ntiming on {t['global'][0]}x{t['global'][1]} boards, {t['failures']} failed, fastest of {t['repeats']}:")
    for s in t["sets"]:
        shapes = ", ".join(f"{x['request'][0]}x{x['request'][1]} {x['min_seconds'] * 1e3:.3f} ms"
                           + ("" if x["placed"] else " (no room)") for x in s["shapes"])
        print(f"  {s['heuristics']:>24}: {shapes}")
        if "fill" in s:
            fl = s["fill"]
            print(f"  {'':>24}  fill: {fl['jobs']} jobs in {fl['min_seconds']:.3f} s, utilisation "
                  f"{fl['utilisation']:.4f}, slowest job {fl['slowest_job_seconds'] * 1e3:.3f} ms")


def plot(outdir):
    """Box plots from build/alloc/{small,large}.json; False if matplotlib is missing."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    docs = {}
    for part in ("small", "large"):
        with open(os.path.join(outdir, part + ".json")) as f:
            docs[part] = json.load(f)
    systems = [(part, s["name"]) for part in ("small", "large") for s in docs[part]["systems"]]

    def runs(part, system, experiment):
        return [r for r in docs[part]["runs"] if r["system"] == system and experiment in r["experiments"]]

    def boxes(ax, data, labels, title, ylabel):
        # Whiskers at p1 and p99, the mean as a dot: the paper's violins show the spread, the
        # median (white dot) and the extremes.
        ax.boxplot(data, whis=(1, 99), showmeans=True, widths=0.6,
                   meanprops={"marker": "o", "markerfacecolor": "white", "markeredgecolor": "black"},
                   flierprops={"marker": ".", "markersize": 2, "alpha": 0.4})
        ax.set_xticks(range(1, len(labels) + 1))
        ax.set_xticklabels(labels, rotation=35, ha="right", fontsize=7)
        ax.set_title(title, fontsize=9)
        ax.set_ylabel(ylabel)
        ax.grid(alpha=0.3, axis="y")

    short = {"greedy": "greedy"}

    def label(h):
        return short.get(h, "+" + h.replace("transpose", "T").replace("aspect", "A").replace("sort", "S")
                         .replace("locality", "L").replace("restart", "R"))

    # Fig. 8: utilisation per heuristic set.
    fig, axes = plt.subplots(1, len(systems), figsize=(4 * len(systems), 4), sharey=True)
    for ax, (part, name) in zip(axes, systems):
        rs = runs(part, name, "heuristics")
        boxes(ax, [[v * 100 for v in r["utilisation"]["values"]] for r in rs], [label(r["heuristics"]) for r in rs],
              f"{name} ({rs[0]['working_boards']} boards)", "system utilisation (%)")
    fig.suptitle("Utilisation by heuristics (T transpose, A aspect ratio, S sort, L locality, R restart); "
                 "synthetic job sizes", fontsize=9)
    fig.tight_layout()
    fig.savefig(os.path.join(outdir, "heuristics.png"), dpi=120)
    plt.close(fig)

    # Fig. 10: utilisation of working boards per failure count, one box per heuristic set.
    fig, axes = plt.subplots(1, len(systems), figsize=(4 * len(systems), 4), sharey=True)
    for ax, (part, name) in zip(axes, systems):
        rs = sorted(runs(part, name, "failures"), key=lambda r: (r["failures"], r["heuristics"]))
        boxes(ax, [[v * 100 for v in r["utilisation"]["values"]] for r in rs],
              [f"{r['failures']} {label(r['heuristics'])}" for r in rs], name, "utilisation of working boards (%)")
    fig.suptitle("Utilisation with randomly failed boards (failed count, heuristics); synthetic job sizes", fontsize=9)
    fig.tight_layout()
    fig.savefig(os.path.join(outdir, "failures.png"), dpi=120)
    plt.close(fig)

    # Fig. 9: the share of all-to-all tree traversals that cross an upper tree level (large).
    large = [(p, n) for p, n in systems if p == "large"]
    fig, axes = plt.subplots(1, len(large), figsize=(5 * len(large), 4), sharey=True)
    for ax, (part, name) in zip(axes, large):
        rs = runs(part, name, "heuristics")
        boxes(ax, [[v * 100 for v in r["upper_fraction"]["values"]] for r in rs], [label(r["heuristics"]) for r in rs],
              name, "all-to-all traffic over upper tree levels (%)")
    fig.suptitle("Upper-level tree traffic per job mix (docs/allocation.md: the locality metric)", fontsize=9)
    fig.tight_layout()
    fig.savefig(os.path.join(outdir, "upper_level.png"), dpi=120)
    plt.close(fig)
    for name in ("heuristics", "failures", "upper_level"):
        print(f"wrote {os.path.join(outdir, name + '.png')}")
    return True


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hxsim", default=os.path.join(ROOT, "build", "hxsim"))
    ap.add_argument("--outdir", default=os.path.join(ROOT, "build", "alloc"))
    ap.add_argument("--mixes", type=int, default=0, help="mixes per small-cluster run (default: the config's)")
    ap.add_argument("--large-mixes", type=int, default=0, help="mixes per large-cluster run (default: the config's)")
    ap.add_argument("--plot-only", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    os.makedirs(args.outdir, exist_ok=True)
    if args.plot_only:
        sys.exit(0 if plot(args.outdir) else 1)

    docs = {}
    for part, config in CONFIGS:
        sets = []
        if part == "small" and args.mixes:
            sets.append(f"experiments.mixes={args.mixes}")
        if part == "large" and args.large_mixes:
            sets.append(f"experiments.mixes={args.large_mixes}")
        docs[part] = run_alloc(args.hxsim, config, os.path.join(args.outdir, part + ".json"), sets)

    rows = summarize(docs)
    summary = {
        "benchmark": "job allocation on HammingMesh (HammingMesh paper, section IV-B)",
        "job_sizes": "synthetic: configs/job_sizes_default.txt (not the paper's Alibaba trace)",
        "configs": {part: "configs/" + config for part, config in CONFIGS},
        **machine_info(),
        "runs": rows,
        "timing": docs["timing"]["timing"],
    }
    write_json(os.path.join(args.outdir, "summary.json"), summary)
    print_tables(rows, docs["timing"])
    print(f"\nwrote {os.path.join(args.outdir, 'summary.json')}")

    if not plot(args.outdir):
        # The interpreter on PATH may lack matplotlib while Debian's (where scripts/setup-deps.sh
        # installs python3-matplotlib) has it.
        debian = "/usr/bin/python3"
        if os.path.exists(debian) and os.path.realpath(sys.executable) != os.path.realpath(debian):
            if subprocess.run([debian, os.path.abspath(__file__), "--plot-only", "--outdir", args.outdir]).returncode == 0:
                return
        print("matplotlib not available: no plots")


if __name__ == "__main__":
    main()
