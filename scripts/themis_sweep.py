#!/usr/bin/env python3
"""Themis reproduction on the analytical backend: Rashidi et al. (ISCA 2022), Table 2 platforms.

Runs `hxsim model` on the six 1,024-NPU platforms of configs/themis/ for allreduces of 100 MB to
1 GB, each with the baseline hierarchical order (FIFO), Themis with FIFO and Themis with
smallest-chunk-first (SCF), 64 chunks. Writes every result, the per-platform means and the
speedups over the baseline to build/bench/themis.json, a Markdown table to
build/bench/themis.md, and a plot of the speedup and the bandwidth utilisation to
build/bench/themis.png (when matplotlib is installed).

Bandwidth utilisation is the paper's average BW utilisation weighted by each dimension's
bandwidth: the bytes every NPU sends over all dimensions per second, over the sum of its
dimensions' bandwidths (collective.jobs[0].fraction_of_peak).

With --cycle it also runs the reduced platforms of configs/themis/small/ in the cycle model
(`hxsim run`, real data) beside the analytical backend, for every schedule and two message
sizes, and writes that table to build/bench/themis_cycle.md (a few minutes).

    scripts/themis_sweep.py [--hxsim build/hxsim] [--out build/bench/themis.json] [--cycle]
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

PLATFORMS = [
    ("2D-SW_SW", "2d_sw_sw"),
    ("3D-SW_SW_SW_homo", "3d_sw_sw_sw_homo"),
    ("3D-SW_SW_SW_hetero", "3d_sw_sw_sw_hetero"),
    ("3D-FC_Ring_SW", "3d_fc_ring_sw"),
    ("4D-Ring_SW_SW_SW", "4d_ring_sw_sw_sw"),
    ("4D-Ring_FC_Ring_SW", "4d_ring_fc_ring_sw"),
]
SIZES_MB = [100, 200, 300, 400, 500, 600, 700, 800, 900, 1000]
POLICIES = [("baseline", "baseline", "fifo"), ("themis_fifo", "themis", "fifo"), ("themis_scf", "themis", "scf")]
# The paper's headline (section 6, abstract): mean speedup over the baseline and mean utilisation.
PAPER = {"themis_scf_speedup_mean": 1.72, "themis_scf_speedup_max": 2.70, "themis_fifo_speedup_mean": 1.58,
         "utilisation_percent": {"baseline": 56.31, "themis_fifo": 87.67, "themis_scf": 95.14}}


SMALL = ["2d_sw_sw", "3d_sw_sw_sw_homo", "3d_sw_sw_sw_hetero", "3d_fc_ring_sw", "4d_ring_sw_sw_sw", "4d_ring_fc_ring_sw"]


def model(hxsim, config, sets, command="model"):
    with tempfile.TemporaryDirectory() as d:
        out = os.path.join(d, "m.json")
        cmd = [hxsim, command, config, "--quiet", "--out", out]
        for s in sets:
            cmd += ["--set", s]
        subprocess.run(cmd, check=True)
        with open(out) as f:
            return json.load(f)["collective"]["jobs"][0]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hxsim", default=os.path.join(ROOT, "build", "hxsim"))
    ap.add_argument("--out", default=os.path.join(ROOT, "build", "bench", "themis.json"))
    ap.add_argument("--cycle", action="store_true", help="also compare cycle model and analytical backend")
    args = ap.parse_args()
    if args.cycle:
        cycle_table(args)

    runs = []
    for name, cfg in PLATFORMS:
        path = os.path.join(ROOT, "configs", "themis", cfg + ".yaml")
        for mb in SIZES_MB:
            row = {"platform": name, "message_MB": mb}
            for key, sched, intra in POLICIES:
                job = model(args.hxsim, path, [f"collective.message={mb}MB", f"collective.scheduler={sched}",
                                               f"collective.intra={intra}"])
                row[key] = {"time_us": job["time_us"], "utilisation": job["fraction_of_peak"],
                            "busy": [d["busy_fraction"] for d in job["dims"]]}
            row["speedup_themis_fifo"] = row["baseline"]["time_us"] / row["themis_fifo"]["time_us"]
            row["speedup_themis_scf"] = row["baseline"]["time_us"] / row["themis_scf"]["time_us"]
            runs.append(row)
        print(f"{name}: done", file=sys.stderr)

    per_platform = []
    for name, _ in PLATFORMS:
        rows = [r for r in runs if r["platform"] == name]
        per_platform.append({
            "platform": name,
            "speedup_themis_fifo": statistics.mean(r["speedup_themis_fifo"] for r in rows),
            "speedup_themis_scf": statistics.mean(r["speedup_themis_scf"] for r in rows),
            **{f"utilisation_{k}": statistics.mean(r[k]["utilisation"] for r in rows) for k, _, _ in POLICIES},
        })
    summary = {
        "speedup_themis_fifo_mean": statistics.mean(r["speedup_themis_fifo"] for r in runs),
        "speedup_themis_scf_mean": statistics.mean(r["speedup_themis_scf"] for r in runs),
        "speedup_themis_scf_max": max(r["speedup_themis_scf"] for r in runs),
        **{f"utilisation_{k}_mean": statistics.mean(r[k]["utilisation"] for r in runs) for k, _, _ in POLICIES},
    }
    doc = {"what": "hxsim model on the Themis Table 2 platforms, allreduce 100 MB..1 GB, 64 chunks",
           "paper": PAPER, "summary": summary, "per_platform": per_platform, "runs": runs}
    os.makedirs(os.path.dirname(args.out), exist_ok=True)
    with open(args.out, "w") as f:
        json.dump(doc, f, indent=2)

    lines = ["| platform | speedup Themis+FIFO | speedup Themis+SCF | utilisation baseline | Themis+FIFO | Themis+SCF |",
             "|---|---|---|---|---|---|"]
    for p in per_platform:
        lines.append(f"| {p['platform']} | {p['speedup_themis_fifo']:.2f}x | {p['speedup_themis_scf']:.2f}x | "
                     f"{100 * p['utilisation_baseline']:.1f}% | {100 * p['utilisation_themis_fifo']:.1f}% | "
                     f"{100 * p['utilisation_themis_scf']:.1f}% |")
    s = summary
    lines.append(f"| **mean** (max) | {s['speedup_themis_fifo_mean']:.2f}x | {s['speedup_themis_scf_mean']:.2f}x "
                 f"({s['speedup_themis_scf_max']:.2f}x) | {100 * s['utilisation_baseline_mean']:.1f}% | "
                 f"{100 * s['utilisation_themis_fifo_mean']:.1f}% | {100 * s['utilisation_themis_scf_mean']:.1f}% |")
    lines.append(f"| paper | {PAPER['themis_fifo_speedup_mean']:.2f}x | {PAPER['themis_scf_speedup_mean']:.2f}x "
                 f"({PAPER['themis_scf_speedup_max']:.2f}x) | {PAPER['utilisation_percent']['baseline']}% | "
                 f"{PAPER['utilisation_percent']['themis_fifo']}% | {PAPER['utilisation_percent']['themis_scf']}% |")
    table = "\n".join(lines) + "\n"
    with open(os.path.splitext(args.out)[0] + ".md", "w") as f:
        f.write(table)
    print(table)
    print(f"wrote {args.out}")

    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib not installed: no plot", file=sys.stderr)
        return
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(12, 4))
    for name, _ in PLATFORMS:
        rows = [r for r in runs if r["platform"] == name]
        a1.plot([r["message_MB"] for r in rows], [r["speedup_themis_scf"] for r in rows], marker="o", label=name)
    a1.set_xlabel("allreduce size (MB)")
    a1.set_ylabel("speedup of Themis+SCF over the baseline")
    a1.legend(fontsize=7)
    x = range(len(per_platform))
    for i, (key, _, _) in enumerate(POLICIES):
        a2.bar([j + (i - 1) * 0.27 for j in x], [100 * p[f"utilisation_{key}"] for p in per_platform], 0.27,
               label=key)
    a2.set_xticks(list(x))
    a2.set_xticklabels([p["platform"] for p in per_platform], rotation=30, ha="right", fontsize=7)
    a2.set_ylabel("BW utilisation (%), mean over sizes")
    a2.legend(fontsize=7, loc="lower right")
    fig.tight_layout()
    png = os.path.splitext(args.out)[0] + ".png"
    fig.savefig(png, dpi=120)
    print(f"wrote {png}")


def cycle_table(args):
    lines = ["| platform | NPUs | schedule | message | cycle model (us) | analytic (us) | cycle / analytic |",
             "|---|---|---|---|---|---|---|"]
    for cfg in SMALL:
        path = os.path.join(ROOT, "configs", "themis", "small", cfg + ".yaml")
        for key, sched, intra in POLICIES:
            for size in ["1MiB", "4MiB"]:
                sets = [f"collective.scheduler={sched}", f"collective.intra={intra}", f"collective.message={size}"]
                run = model(args.hxsim, path, sets, "run")
                ana = model(args.hxsim, path, sets)
                lines.append(f"| {cfg} | {run['ranks']} | {key} | {size} | {run['time_us']:.2f} | "
                             f"{ana['time_us']:.2f} | {run['time_us'] / ana['time_us']:.3f} |")
        print(f"{cfg}: done", file=sys.stderr)
    table = "\n".join(lines) + "\n"
    path = os.path.join(os.path.dirname(args.out), "themis_cycle.md")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(table)
    print(table)
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
