#!/usr/bin/env python3
"""Plots of hxsim results (`hxsim plot RESULTS.json...` runs this; docs/simulator.md, "Plots").

Every plot that the given results can make, as PNG files in --out (default: the first result's
directory), named after the first result's file, and one line per file written on stdout:

  <stem>_latency.png   latency against offered load: the runs with a `traffic` section, one curve
                       per config name and routing (average solid, p99 dashed), beside accepted
                       against offered load
  <stem>_links.png     each accelerator's injection and ejection link load (`accelerator_links`)
                       as heat maps over the system's layout: one per result file
  <stem>_collective.png  collective bus bandwidth against message size: the runs with
                       `collective.jobs`, one curve per config name, operation and algorithm
  <stem>_dims.png      per-dimension busy fraction of hierarchical (multi-dimensional) collectives

Exit 2 with the file and the reason for a file that is not an hxsim result; exit 1 if matplotlib
is missing (scripts/setup-deps.sh installs python3-matplotlib).
"""
import argparse
import json
import os
import sys
from collections import defaultdict


def fail(code, msg):
    print(f"hxsim plot: {msg}", file=sys.stderr)
    sys.exit(code)


def load(path):
    try:
        with open(path) as f:
            doc = json.load(f)
    except OSError as e:
        fail(2, f"{path}: cannot read: {e.strerror}")
    except json.JSONDecodeError as e:
        fail(2, f"{path}:{e.lineno}:{e.colno}: not JSON: {e.msg}")
    if not isinstance(doc, dict) or "hxsim" not in doc or "config" not in doc:
        fail(2, f"{path}: not an hxsim result (expected the sections 'hxsim' and 'config')")
    return doc


def label_of(doc):
    cfg = doc["config"]
    name = doc["hxsim"].get("name") or os.path.basename(doc["hxsim"].get("config", "")) or "run"
    routing = cfg.get("routing") or cfg.get("routing_summary") or ""
    return f"{name} ({routing})" if routing else name


def save(plt, fig, path):
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def size_text(n):
    if n is None:
        return ""
    for unit, scale in (("GiB", 1 << 30), ("MiB", 1 << 20), ("KiB", 1 << 10)):
        if n >= scale:
            return f"{n / scale:g} {unit}"
    return f"{n} B"


def latency_plot(plt, runs, path):
    curves = defaultdict(list)
    for _, doc in runs:
        t = doc["traffic"]
        curves[label_of(doc)].append(
            (t["offered"], t["avg_latency_cycles"], t["p99_latency_cycles"], t["accepted"]))
    fig, (ax, bx) = plt.subplots(1, 2, figsize=(11, 4.2))
    for i, (label, pts) in enumerate(sorted(curves.items())):
        pts.sort()
        x = [p[0] for p in pts]
        color = f"C{i % 10}"
        ax.plot(x, [p[1] for p in pts], "o-", color=color, label=f"{label} avg")
        ax.plot(x, [p[2] for p in pts], "s--", color=color, alpha=0.6, label=f"{label} p99")
        bx.plot(x, [p[3] for p in pts], "o-", color=color, label=label)
    top = max(max(p[0] for p in pts) for pts in curves.values())
    bx.plot([0, top], [0, top], ":", color="gray", label="accepted = offered")
    ax.set(xlabel="offered load (flits/node/cycle)", ylabel="latency (cycles)", title="Latency")
    bx.set(xlabel="offered load (flits/node/cycle)", ylabel="accepted (flits/node/cycle)", title="Throughput")
    for a in (ax, bx):
        a.grid(alpha=0.3)
        a.legend(fontsize=7)
    save(plt, fig, path)


def links_plot(plt, runs, path):
    fig, axes = plt.subplots(len(runs), 2, figsize=(10, 4 * len(runs)), squeeze=False)
    for row, (_, doc) in enumerate(runs):
        links = doc["accelerator_links"]
        gx, gy = links["grid"]
        for col, key in enumerate(("injection", "ejection")):
            vals = links[key]
            grid = [[vals[y * gx + x] for x in range(gx)] for y in range(gy)]
            ax = axes[row][col]
            # Row 0 (y = 0) at the bottom, as the RTL's (x, y) coordinates put it.
            im = ax.imshow(grid, origin="lower", cmap="viridis", vmin=0, vmax=1, aspect="auto",
                           interpolation="nearest")
            ax.set(title=f"{label_of(doc)}: {key}", xlabel="x", ylabel="y")
            if gx <= 32:
                ax.set_xticks(range(gx))
            if gy <= 32:
                ax.set_yticks(range(gy))
            fig.colorbar(im, ax=ax, label="flits/cycle per link")
            if gx * gy <= 64:
                for y in range(gy):
                    for x in range(gx):
                        ax.text(x, y, f"{grid[y][x]:.2f}", ha="center", va="center", fontsize=7, color="w")
    save(plt, fig, path)


def collective_plot(plt, runs, path):
    curves = defaultdict(list)
    for _, doc in runs:
        coll = doc["collective"]
        for job in coll["jobs"]:
            size = job.get("message_bytes")
            if size is None or job.get("busbw_GBps") is None:
                continue
            label = f"{doc['hxsim'].get('name', 'run')} {job.get('operation', '')} {job.get('algorithm', '')}"
            curves[" ".join(label.split())].append((size, job["busbw_GBps"]))
    if not curves:
        return False
    fig, ax = plt.subplots(figsize=(7, 4.2))
    for label, pts in sorted(curves.items()):
        pts.sort()
        ax.plot([p[0] for p in pts], [p[1] for p in pts], "o-", label=label)
    ax.set_xscale("log", base=2)
    ax.set(xlabel="message size per rank (bytes)", ylabel="bus bandwidth (GB/s)", title="Collective bandwidth")
    ax.grid(alpha=0.3)
    ax.legend(fontsize=7)
    save(plt, fig, path)
    return True


def dims_plot(plt, runs, path):
    bars = []
    for _, doc in runs:
        for job in doc["collective"]["jobs"]:
            if "dims" in job:
                label = f"{doc['hxsim'].get('name', 'run')} {job.get('name', '')} {size_text(job.get('message_bytes'))}"
                bars.append((" ".join(label.split()),
                             [d["busy_fraction"] for d in job["dims"]]))
    if not bars:
        return False
    fig, ax = plt.subplots(figsize=(7, 4.2))
    width = 0.8 / len(bars)
    for i, (label, fractions) in enumerate(bars):
        ax.bar([k + 1 + (i - (len(bars) - 1) / 2) * width for k in range(len(fractions))], fractions, width,
               label=label)
    ax.set(xlabel="dimension", ylabel="busy fraction", ylim=(0, 1.05), title="Per-dimension busy time")
    ax.set_xticks(range(1, 1 + max(len(f) for _, f in bars)))
    ax.grid(alpha=0.3, axis="y")
    ax.legend(fontsize=7)
    save(plt, fig, path)
    return True


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("results", nargs="+", help="hxsim result JSON files")
    ap.add_argument("--out", help="directory for the PNGs (default: the first result's)")
    a = ap.parse_args()
    runs = [(f, load(f)) for f in a.results]
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        fail(1, f"matplotlib is missing for {sys.executable}: install python3-matplotlib (scripts/setup-deps.sh)")
    out = a.out or os.path.dirname(os.path.abspath(a.results[0]))
    os.makedirs(out, exist_ok=True)
    stem = os.path.join(out, os.path.splitext(os.path.basename(a.results[0]))[0])
    written = []
    traffic = [(f, d) for f, d in runs if "traffic" in d]
    if traffic:
        latency_plot(plt, traffic, stem + "_latency.png")
        written.append(stem + "_latency.png")
    with_links = [(f, d) for f, d in runs if "accelerator_links" in d]
    if with_links:
        links_plot(plt, with_links, stem + "_links.png")
        written.append(stem + "_links.png")
    coll = [(f, d) for f, d in runs if "collective" in d and "jobs" in d["collective"]]
    if coll and collective_plot(plt, coll, stem + "_collective.png"):
        written.append(stem + "_collective.png")
    if coll and dims_plot(plt, coll, stem + "_dims.png"):
        written.append(stem + "_dims.png")
    if not written:
        fail(2, "nothing to plot: the results have no traffic, accelerator_links or collective section")
    for w in written:
        print(w)


if __name__ == "__main__":
    main()
