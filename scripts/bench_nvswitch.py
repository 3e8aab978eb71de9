#!/usr/bin/env python3
"""make bench, part 5: in-network allreduce on the NVSwitch-like systems of Klenk et al.

Experiments (each run verifies the reduced data on every GPU; a failed check stops the script):
  bandwidth  allreduce bandwidth (message size / time) against message size for ring, pull,
             pull with the initial barrier, and push, on the DGX-2 (Fig. 7a) and, with --systems, the
             fat tree of 64 or 128 GPUs (Fig. 8); the speedup of each over the ring (Fig. 7b).
  tables     table-size sensitivity without waves on the DGX-2 (Fig. 9), over the table sizes
             the RTL is built for.
  waves      outstanding-wave sensitivity (Fig. 10), waves of 8 KiB, on the systems of
             --wave-systems: the DGX-2 by default; the paper shows the 128-GPU fat tree
             (fat_tree128, slow: about a minute per point) and says the DGX-2 behaves the same.
  order      push at 8 MiB with the DMA engines injecting in address order and in a random
             order per wave (gpu.issue_order).
  sizing     Eq. (1) and (2) evaluated with the simulated system's parameters, set against the
             smallest built table that reaches full bandwidth in the tables experiment.
  uniform    the DGX-2 under uniform random writes (traffic.pattern: uniform, 8 MiB per GPU)
             against the switch buffer per VC, seeds 1-3: section V's switch sustains more than
             95% of such traffic, which is what sizes the default buffer (32 KiB).
  buffers    (not run by default: about 7 minutes) pull and push at 8 MiB on the DGX-2 with the
             switch buffers (switch.buffer, per VC) at the hop's round trip + two packets
             (4,064 B) and at 8, 16 and 32 KiB (the default); pull over three seeds, since its
             two GPU groups drift apart by a seed-dependent amount (pull_owner_finish_cycles).

Parameters as in the paper: push 256 B/port and 16 waves of 8 KiB; pull 4 KiB/port and 4 waves
of 8 KiB (DGX-2); fat tree push 256 B/port with 64 waves, pull 1 KiB/port with 16 waves.
Simulated times are deterministic for a seed; one run per point. Writes build/bench/nvswitch.json
and build/bench/nvswitch_*.png.

    scripts/bench_nvswitch.py [--hxsim build/hxsim] [--out build/bench/nvswitch.json]
                              [--experiments bandwidth,tables,waves,order,sizing,uniform,buffers]
                              [--systems dgx2,fat_tree64,fat_tree128] [--wave-systems dgx2,fat_tree128]
                              [--sizes 1KiB,16KiB,...]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from bench import ROOT, machine_info, write_json  # noqa: E402

DGX2_SIZES = ["1 KiB", "4 KiB", "16 KiB", "64 KiB", "256 KiB", "1 MiB", "4 MiB", "8 MiB"]
FAT_TREE_SIZES = ["1 KiB", "16 KiB", "256 KiB", "1 MiB", "8 MiB"]
# A system of --systems / --wave-systems: (config prefix, extra --set). Fig. 8 shows the fat
# tree with 64 and 128 GPUs; 64 GPUs are its first 8 leaf groups.
SYSTEMS = {
    "dgx2": ("dgx2", []),
    "fat_tree64": ("fat_tree128", ["topology.groups=8"]),
    "fat_tree128": ("fat_tree128", []),
}
METHODS = {  # name: (config suffix, extra --set)
    "ring": ("ring", []),
    "pull": ("pull", []),
    "pull_barrier": ("pull", ["collective.barrier=true"]),
    "push": ("push", []),
}


def nvswitch(hxsim, config, sets):
    """One `hxsim run` of an NVSwitch config; its results JSON and wall seconds (exits on a failed run)."""
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "r.json")
        cmd = [hxsim, "run", os.path.join(ROOT, "configs", config), "--quiet", "--out", out]
        for s in sets:
            cmd += ["--set", s]
        t0 = time.time()
        proc = subprocess.run(cmd, capture_output=True, text=True)
        wall = time.time() - t0
        if proc.returncode != 0:
            sys.exit(f"bench_nvswitch: {' '.join(cmd)} failed ({proc.returncode}):\n{proc.stdout}{proc.stderr}")
        with open(out) as f:
            doc = json.load(f)
    assert doc["checks"]["passed"] and doc["checks"]["delivered"] == doc["checks"]["injected"]
    return doc, wall


def point(doc, wall, **keys):
    # A collective reports in collective.jobs[0], uniform traffic in traffic; both have the link
    # utilisation; the tables' counters are in in_network when the switches reduce.
    run = doc["collective"]["jobs"][0] if "collective" in doc else doc["traffic"]
    links = (doc["collective"] if "collective" in doc else doc["traffic"])["link_utilisation"]
    tables = doc.get("in_network", {})
    bandwidth = run["algbw_GBps"] if "algbw_GBps" in run else run["bandwidth_GBps"]
    p = dict(keys)
    p.update(cycles=doc["sim"]["cycles"], seconds=doc["sim"]["simulated_seconds"], bandwidth_GBps=bandwidth,
             fraction_of_peak=run["fraction_of_peak"], evictions=tables.get("table_evictions", 0),
             bypasses=tables.get("table_bypasses", 0), pull_stall_cycles=tables.get("pull_first_hop_stall_cycles", 0),
             injection_utilisation=links["injection"]["mean"], ejection_utilisation=links["ejection"]["mean"],
             fabric_utilisation=links["fabric"]["mean"],
             wall_seconds=round(wall, 2), verified=True)
    if tables.get("pull_owner_finish_cycles"):
        p["pull_owner_finish_cycles"] = tables["pull_owner_finish_cycles"]
    return p


def progress(msg):
    print(msg, file=sys.stderr, flush=True)


def bandwidth(hxsim, system, sizes):
    prefix, system_sets = SYSTEMS[system]
    points = []
    for size in sizes:
        for method, (suffix, sets) in METHODS.items():
            doc, wall = nvswitch(hxsim, f"{prefix}_{suffix}.yaml", system_sets + sets + [f"collective.message={size}"])
            p = point(doc, wall, system=system, method=method, message=size,
                      message_bytes=doc["collective"]["jobs"][0]["message_bytes"])
            points.append(p)
            progress(f"  {system} {size:>8} {method:<13} {p['bandwidth_GBps']:7.2f} GB/s "
                     f"({100 * p['fraction_of_peak']:5.1f}% of peak)  {wall:6.1f} s")
    ring = {p["message"]: p["bandwidth_GBps"] for p in points if p["method"] == "ring"}
    for p in points:
        p["speedup_over_ring"] = p["bandwidth_GBps"] / ring[p["message"]]
    return points


def tables(hxsim, sizes, message):
    points = []
    for method in ("push", "pull"):
        for table in sizes:
            doc, wall = nvswitch(hxsim, f"dgx2_{method}.yaml",
                                 [f"switch.table={table}", f"collective.message={message}", "collective.wave=0B"])
            p = point(doc, wall, method=method, table_bytes=doc["config"]["table_bytes_per_port"], message=message)
            points.append(p)
            progress(f"  tables {method} {table:>6}: {p['bandwidth_GBps']:7.2f} GB/s, {p['evictions']} evictions, "
                     f"{p['pull_stall_cycles']} stall cycles  {wall:6.1f} s")
    return points


def waves(hxsim, system, counts, message):
    points = []
    prefix, system_sets = SYSTEMS[system]
    for method, table in (("push", "256B"), ("pull", "1KiB")):
        for k in counts:
            doc, wall = nvswitch(hxsim, f"{prefix}_{method}.yaml",
                                 system_sets + [f"switch.table={table}", f"collective.message={message}",
                                                "collective.wave=8KiB", f"collective.waves={k}"])
            p = point(doc, wall, system=system, method=method, waves=k,
                      table_bytes=doc["config"]["table_bytes_per_port"], message=message)
            points.append(p)
            progress(f"  waves {system} {method} {k:>3}: {p['bandwidth_GBps']:7.2f} GB/s, {p['evictions']} evictions"
                     f"  {wall:6.1f} s")
    return points


def order(hxsim, message):
    """Push on the DGX-2 with the DMA engines injecting in address order (the default) and with
    each wave shuffled: how much the spread of a line's contributions costs in evictions."""
    points = []
    for o in ("address", "random"):
        doc, wall = nvswitch(hxsim, "dgx2_push.yaml", [f"gpu.issue_order={o}", f"collective.message={message}"])
        p = point(doc, wall, method="push", issue_order=o, message=message)
        points.append(p)
        progress(f"  order {o:<8}: {p['bandwidth_GBps']:7.2f} GB/s, {p['evictions']} evictions  {wall:6.1f} s")
    return points


BUFFERS = ["4064B", "8KiB", "16KiB", "32KiB"]
UNIFORM_BUFFERS = ["4064B", "8KiB", "12KiB", "16KiB", "24KiB", "32KiB"]


def uniform(hxsim, message, seeds):
    """Uniform random writes on the DGX-2 against the switch buffer per VC."""
    points = []
    for buf in UNIFORM_BUFFERS:
        for seed in seeds:
            doc, wall = nvswitch(hxsim, "dgx2_uniform.yaml",
                                 [f"traffic.message={message}", f"run.seed={seed}", f"switch.buffer={buf}"])
            p = point(doc, wall, method="uniform", buffer=buf, seed=seed, message=message,
                      buffer_bytes_per_vc=doc["config"]["input_buffer_bytes_per_vc"])
            points.append(p)
            progress(f"  uniform {buf:>6} seed {seed}: {100 * p['fraction_of_peak']:5.1f}% of peak  {wall:6.1f} s")
    return points


def buffers(hxsim, message, seeds):
    """Pull and push on the DGX-2 against the per-VC switch buffer (input buffer = the upstream
    link's credits, output queue, table queue): from one hop's round trip plus two packets
    (4,064 B), enough for a link that streams with nothing waiting at the crossbar, to the 32 KiB
    default that the uniform experiment sizes."""
    points = []
    for method in ("pull", "push"):
        for buf in BUFFERS:
            for seed in (seeds if method == "pull" else seeds[:1]):
                sets = [f"collective.message={message}", f"run.seed={seed}", f"switch.buffer={buf}"]
                doc, wall = nvswitch(hxsim, f"dgx2_{method}.yaml", sets)
                p = point(doc, wall, method=method, buffer=buf, seed=seed, message=message,
                          buffer_bytes_per_vc=doc["config"]["input_buffer_bytes_per_vc"])
                points.append(p)
                spread = ""
                if "pull_owner_finish_cycles" in p:
                    f = p["pull_owner_finish_cycles"]
                    spread = f", owners finished {f['first']}..{f['last']}"
                progress(f"  buffers {method} {buf:>7} seed {seed}: {p['bandwidth_GBps']:7.2f} GB/s "
                         f"({100 * p['fraction_of_peak']:5.1f}%){spread}  {wall:6.1f} s")
    return points


def sizing(hxsim, table_points):
    """Eq. (1) and (2) with the DGX-2's simulated parameters, and the smallest built table that
    reaches 95% of the best bandwidth of its method in the tables experiment."""
    doc, _ = nvswitch(hxsim, "dgx2_push.yaml", ["collective.message=4KiB"])
    s = doc["config"]
    clock = s["clock_hz"]
    p = s["endpoints"]
    b_in = s["links_per_gpu"] * s["link_bandwidth_GBps"] * 1e9            # B/s injected per GPU
    l_hop = (s["switch_latency_cycles"] + s["link_latency_cycles"]) / clock  # s per hop
    l_gpu = (180 + 90) / clock            # memory latency + mean jitter (gpu.* defaults)
    d_max = 2
    pull_total = b_in / (p - 1) * (2 * d_max * l_hop + l_gpu)             # Eq. (1), per GPU
    push_total = b_in * d_max * l_hop                                      # Eq. (2)
    ports = s["switches"] * 16
    out = {"pull_eq1_bytes_per_gpu": pull_total, "pull_eq1_bytes_per_access_port": pull_total / s["links_per_gpu"],
           "push_eq2_bytes_total": push_total, "push_eq2_bytes_per_port": push_total / ports,
           "paper_pull_bytes_per_port": 1400, "paper_push_bytes_per_port": 270,
           "parameters": {"B_in_GBps": b_in / 1e9, "L_hop_ns": l_hop * 1e9, "L_gpu_ns": l_gpu * 1e9, "d_max": d_max,
                          "p": p, "ports": ports}}
    for method in ("push", "pull"):
        pts = [q for q in table_points if q["method"] == method]
        if not pts:
            continue
        best = max(q["bandwidth_GBps"] for q in pts)
        full = [q["table_bytes"] for q in pts if q["bandwidth_GBps"] >= 0.95 * best]
        out[f"{method}_smallest_table_within_5pct_of_best"] = min(full)
    return out


def plot(doc, outdir):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        progress("bench_nvswitch: no matplotlib, no plots")
        return
    for system in sorted({p["system"] for p in doc.get("bandwidth", [])}):
        fig, (a, b) = plt.subplots(1, 2, figsize=(11, 4))
        for method in METHODS:
            pts = [p for p in doc["bandwidth"] if p["system"] == system and p["method"] == method]
            xs = [p["message_bytes"] for p in pts]
            a.plot(xs, [p["bandwidth_GBps"] for p in pts], marker="o", label=method)
            b.plot(xs, [p["speedup_over_ring"] for p in pts], marker="o", label=method)
        peak = doc["peak_GBps"]
        a.axhline(peak, color="grey", ls=":", label=f"payload peak {peak:.0f} GB/s")
        for ax in (a, b):
            ax.set_xscale("log", base=2)
            ax.set_xlabel("message size per GPU (B)")
            ax.legend(fontsize=8)
            ax.grid(alpha=0.3)
        a.set_ylabel("allreduce bandwidth (GB/s)")
        a.set_title(f"{system}: allreduce bandwidth (Fig. 7a/8)")
        b.set_ylabel("speedup over the ring")
        b.set_yscale("log", base=2)
        b.axhline(2, color="grey", ls=":")
        b.axhline(1, color="grey", ls=":")
        b.set_title(f"{system}: speedup over the ring (Fig. 7b)")
        fig.tight_layout()
        fig.savefig(os.path.join(outdir, f"nvswitch_{system}_bandwidth.png"), dpi=120)
        plt.close(fig)
    # One figure per experiment and system (the tables experiment runs on the DGX-2 only; wave
    # points of results files older than --wave-systems carry no system and are the DGX-2's).
    for key, x, title in (("tables", "table_bytes", "table size per port, no waves (Fig. 9)"),
                          ("waves", "waves", "outstanding waves of 8 KiB, push 256 B/port, pull 1 KiB/port (Fig. 10)")):
        for system in sorted({p.get("system", "dgx2") for p in doc.get(key, [])}):
            fig, ax = plt.subplots(figsize=(5.5, 4))
            for method in ("push", "pull"):
                pts = [p for p in doc[key] if p["method"] == method and p.get("system", "dgx2") == system]
                ax.plot([p[x] for p in pts], [p["bandwidth_GBps"] for p in pts], marker="o", label=method)
            ax.set_xscale("log", base=2)
            ax.set_xlabel(x.replace("_", " "))
            ax.set_ylabel("allreduce bandwidth (GB/s)")
            ax.set_title(f"{system}: {title}", fontsize=8)
            ax.legend()
            ax.grid(alpha=0.3)
            fig.tight_layout()
            name = f"nvswitch_{key}.png" if system == "dgx2" else f"nvswitch_{system}_{key}.png"
            fig.savefig(os.path.join(outdir, name), dpi=120)
            plt.close(fig)
    if doc.get("buffers"):
        plot_buffers(doc, outdir, plt)
    if doc.get("uniform"):
        plot_uniform(doc, outdir, plt)


def plot_uniform(doc, outdir, plt):
    fig, ax = plt.subplots(figsize=(5.5, 4))
    pts = doc["uniform"]
    seeds = sorted({p["seed"] for p in pts})
    for seed in seeds:
        sp = [p for p in pts if p["seed"] == seed]
        ax.plot([p["buffer_bytes_per_vc"] for p in sp], [100 * p["fraction_of_peak"] for p in sp], marker="o",
                label=f"seed {seed}")
    ax.axhline(95, color="grey", ls=":", label="95% (section V's switch)")
    save_buffer_plot(fig, ax, plt, "throughput (% of the payload peak)", "DGX-2, uniform random writes, 8 MiB per GPU",
                     os.path.join(outdir, "nvswitch_uniform.png"))


def save_buffer_plot(fig, ax, plt, ylabel, title, path):
    """The switch-buffer axis, labels and legend shared by the uniform and buffers plots."""
    ax.set_xscale("log", base=2)
    ax.set_xlabel("switch buffer per VC (B)")
    ax.set_ylabel(ylabel)
    ax.set_title(title, fontsize=8)
    ax.legend(fontsize=7)
    ax.grid(alpha=0.3)
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def plot_buffers(doc, outdir, plt):
    fig, ax = plt.subplots(figsize=(5.5, 4))
    for method in ("push", "pull"):
        xs, med, lo, hi = [], [], [], []
        seeds = len({p["seed"] for p in doc["buffers"] if p["method"] == method})
        for buf in BUFFERS:
            pts = sorted(p["bandwidth_GBps"] for p in doc["buffers"] if p["method"] == method and p["buffer"] == buf)
            if not pts:
                continue
            b = next(p["buffer_bytes_per_vc"] for p in doc["buffers"] if p["method"] == method and p["buffer"] == buf)
            xs.append(b)
            med.append(pts[len(pts) // 2])
            lo.append(med[-1] - pts[0])
            hi.append(pts[-1] - med[-1])
        label = f"{method} (median, min-max over {seeds} seeds)" if seeds > 1 else f"{method} (one seed)"
        ax.errorbar(xs, med, yerr=[lo, hi], marker="o", capsize=3, label=label)
    ax.axhline(doc["peak_GBps"] * 0.85, color="grey", ls=":", label="85% of the payload peak")
    save_buffer_plot(fig, ax, plt, "allreduce bandwidth (GB/s)", "DGX-2, 8 MiB: switch buffer per VC",
                     os.path.join(outdir, "nvswitch_buffers.png"))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--hxsim", default=os.path.join(ROOT, "build", "hxsim"))
    ap.add_argument("--out", default=os.path.join(ROOT, "build", "bench", "nvswitch.json"))
    ap.add_argument("--experiments", default="bandwidth,tables,waves,order,sizing,uniform")
    ap.add_argument("--sizes", default=",".join(s.replace(" ", "") for s in DGX2_SIZES))
    ap.add_argument("--systems", default="dgx2",
                    help="bandwidth experiment: dgx2, fat_tree64, fat_tree128, comma-separated (the fat trees are slow)")
    ap.add_argument("--wave-systems", default="dgx2",
                    help="waves experiment: dgx2, fat_tree64, fat_tree128, comma-separated (the fat trees are slow)")
    ap.add_argument("--table-message", default="1MiB")
    ap.add_argument("--wave-message", default="1MiB")
    ap.add_argument("--plot-only", metavar="JSON", help="redraw the plots of an earlier results file, run nothing")
    args = ap.parse_args()
    if args.plot_only:
        with open(args.plot_only) as f:
            plot(json.load(f), os.path.dirname(os.path.abspath(args.plot_only)))
        return
    exps = args.experiments.split(",")
    doc = machine_info()
    doc["peak_GBps"] = 120.0
    t0 = time.time()
    for option, value in (("--systems", args.systems), ("--wave-systems", args.wave_systems)):
        for system in value.split(","):
            if system not in SYSTEMS:
                sys.exit(f"bench_nvswitch: {option}: expected one of {', '.join(SYSTEMS)}, found {system!r}")
    if "bandwidth" in exps:
        progress("bench_nvswitch: bandwidth against message size")
        doc["bandwidth"] = []
        for system in args.systems.split(","):
            sizes = args.sizes.split(",") if system == "dgx2" else [s.replace(" ", "") for s in FAT_TREE_SIZES]
            doc["bandwidth"] += bandwidth(args.hxsim, system, sizes)
    if "tables" in exps:
        progress("bench_nvswitch: table-size sensitivity without waves")
        doc["tables"] = tables(args.hxsim, ["256B", "1KiB", "4KiB"], args.table_message)
    if "waves" in exps:
        progress("bench_nvswitch: outstanding waves")
        doc["waves"] = []
        for system in args.wave_systems.split(","):
            counts = [1, 2, 4, 8, 16, 32] + ([64] if system != "dgx2" else [])
            doc["waves"] += waves(args.hxsim, system, counts, args.wave_message)
    if "order" in exps:
        progress("bench_nvswitch: DMA issue order")
        doc["order"] = order(args.hxsim, "8MiB")
    if "uniform" in exps:
        progress("bench_nvswitch: uniform random writes against the switch buffer")
        doc["uniform"] = uniform(args.hxsim, "8MiB", [1, 2, 3])
    if "buffers" in exps:
        progress("bench_nvswitch: switch buffer sizes")
        doc["buffers"] = buffers(args.hxsim, "8MiB", [1, 2, 3])
    if "sizing" in exps:
        doc["sizing"] = sizing(args.hxsim, doc.get("tables", []))
    doc["wall_seconds"] = round(time.time() - t0, 1)
    write_json(args.out, doc)
    plot(doc, os.path.dirname(args.out))
    progress(f"bench_nvswitch: {args.out} ({doc['wall_seconds']} s)")


if __name__ == "__main__":
    main()
