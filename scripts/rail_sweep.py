#!/usr/bin/env python3
"""Section 6 of Wang et al. ("How to Build Low-cost Networks for Large Language Models") with the
analytical backend: the best iteration time of the exhaustive parallelization search (hxsim model
on a workload config) as the HB domain size K, the cluster size N, the global batch and the two
bandwidths vary. Writes the figures and a summary JSON with the numbers docs/rail.md compares with
the paper:

  fig9_iteration_vs_k.png       iteration time against K = 1, 8, 16, ..., 32768 for GPT-1T (batch
                                4096) and GPT-146B (batch 1024) on 16384, 32768 and 65536 GPUs, the
                                ideal (K = N, "any-to-any NVLink") dashed (Figure 9, section 6.2)
  fig11_batch.png               GPT-1T on 32768 GPUs: iteration time and relative performance
                                (T(K = N) / T(K)) against the global batch 256..4096 (Figure 11)
  fig10_bandwidth.png           GPT-1T on 32768 GPUs, batch 4096, K = 8 and 256: iteration time
                                against the network bandwidth for four HB bandwidths (Figure 10)
  summary.json                  every point, and the section 6.2-6.4 figures computed from them

Every point is `hxsim model CONFIG --set ...` on configs/rail/gpt1t_gh200_n32768.yaml or
gpt146b_gh200_n32768.yaml: the script only overrides the swept keys. Needs matplotlib for the
figures (python3-matplotlib); without it the summary is still written.

  python3 scripts/rail_sweep.py [--hxsim build/hxsim] [--out build/rail_sweep]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CONFIGS = {"GPT-1T": "configs/rail/gpt1t_gh200_n32768.yaml", "GPT-146B": "configs/rail/gpt146b_gh200_n32768.yaml"}
BATCH = {"GPT-1T": 4096, "GPT-146B": 1024}


def run(hxsim, model, sets, scratch):
    """Best iteration time (s) and strategy of one point, or None when no strategy is valid."""
    out = os.path.join(scratch, "r.json")
    args = [hxsim, "model", os.path.join(ROOT, CONFIGS[model]), "--quiet", "--out", out]
    for key, value in sets.items():
        args += ["--set", f"{key}={value}"]
    p = subprocess.run(args, capture_output=True, text=True)
    if p.returncode == 1 and "no parallelization" in p.stderr:
        return None
    if p.returncode != 0:
        sys.exit(f"rail_sweep: {' '.join(args)} failed ({p.returncode}):\n{p.stderr}")
    with open(out) as f:
        best = json.load(f)["iteration"]["best"]
    return {"iteration_s": best["iteration_s"], "strategy": best["strategy"], "hfu": best["hfu"]}


def powers(lo, hi):
    k, out = lo, []
    while k <= hi:
        out.append(k)
        k *= 2
    return out


def hb_sweep(hxsim, scratch):
    """Figure 9: K for both models and three cluster sizes, plus the ideal K = N."""
    points = []
    for model in CONFIGS:
        for n in (16384, 32768, 65536):
            ks = [1] + powers(8, min(n, 32768))
            if n not in ks:
                ks.append(n)
            for k in ks:
                r = run(hxsim, model, {"workload.cluster.gpus": n, "workload.cluster.hb_domain": k,
                                       "workload.global_batch": BATCH[model]}, scratch)
                points.append({"model": model, "gpus": n, "hb_domain": k, "batch": BATCH[model], "best": r})
    return points


def batch_sweep(hxsim, scratch):
    """Figure 11: GPT-1T on 32768 GPUs, batch 256..4096, K = 8..32768 (K = N is the ideal)."""
    points = []
    for batch in (256, 512, 1024, 2048, 4096):
        for k in powers(8, 32768):
            r = run(hxsim, "GPT-1T", {"workload.cluster.hb_domain": k, "workload.global_batch": batch}, scratch)
            points.append({"model": "GPT-1T", "gpus": 32768, "hb_domain": k, "batch": batch, "best": r})
    return points


def bandwidth_sweep(hxsim, scratch):
    """Figure 10: GPT-1T on 32768 GPUs, batch 4096, K = 8 and 256, C_F x C_S."""
    points = []
    for k in (8, 256):
        for cf in (2.4, 4.8, 7.2, 9.6):
            for cs in (100, 200, 400, 800):
                r = run(hxsim, "GPT-1T", {"workload.cluster.hb_domain": k,
                                          "workload.cluster.hb_bandwidth": f"{cf} Tb/s",
                                          "workload.cluster.network_bandwidth": f"{cs} Gb/s"}, scratch)
                points.append({"model": "GPT-1T", "gpus": 32768, "hb_domain": k, "batch": 4096,
                               "hb_Tbps": cf, "network_Gbps": cs, "best": r})
    return points


def t_of(points, **match):
    for p in points:
        if all(p.get(k) == v for k, v in match.items()) and p["best"]:
            return p["best"]["iteration_s"]
    return None


def gain(slow, fast):
    """Section 6.2's 'performance gain': the iteration time saved, as a fraction of the slower."""
    return 1 - fast / slow


def summarize(hb, batch, bw):
    s = {"section_6_2": {}, "section_6_3": {}, "section_6_4": {}}
    for model in CONFIGS:
        g1, g8, slow256 = [], [], []
        for n in (16384, 32768, 65536):
            t1, t8, t256, ideal = (t_of(hb, model=model, gpus=n, hb_domain=k) for k in (1, 8, 256, n))
            g1.append(gain(t1, t8))
            g8.append(gain(t8, t256))
            slow256.append(t256 / ideal - 1)
        s["section_6_2"][model] = {
            "gain_k1_to_k8_per_n": g1, "gain_k1_to_k8_mean": sum(g1) / 3,
            "gain_k8_to_k256_per_n": g8, "gain_k8_to_k256_mean": sum(g8) / 3,
            "k256_slower_than_ideal_per_n": slow256, "k256_slower_than_ideal_mean": sum(slow256) / 3}
    for k in (8, 256):
        hb_gain = [gain(t_of(bw, hb_domain=k, hb_Tbps=2.4, network_Gbps=cs), t_of(bw, hb_domain=k, hb_Tbps=9.6, network_Gbps=cs))
                   for cs in (100, 200, 400, 800)]
        net_gain = [gain(t_of(bw, hb_domain=k, hb_Tbps=cf, network_Gbps=100), t_of(bw, hb_domain=k, hb_Tbps=cf, network_Gbps=400))
                    for cf in (2.4, 4.8, 7.2, 9.6)]
        s["section_6_3"][f"K{k}"] = {"hb_2.4_to_9.6_Tbps_mean_gain": sum(hb_gain) / 4,
                                     "network_100_to_400_Gbps_mean_gain": sum(net_gain) / 4}
    for k in powers(8, 32768):
        s["section_6_4"][f"K{k}"] = {str(b): t_of(batch, batch=b, hb_domain=32768) / t_of(batch, batch=b, hb_domain=k)
                                     for b in (256, 512, 1024, 2048, 4096)}
    return s


def plot(hb, batch, bw, out):
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("rail_sweep: matplotlib is missing: no figures (python3-matplotlib)", file=sys.stderr)
        return []
    files = []
    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    for ax, model in zip(axes, CONFIGS):
        for n in (16384, 32768, 65536):
            pts = [p for p in hb if p["model"] == model and p["gpus"] == n and p["hb_domain"] <= 32768 and p["best"]]
            line, = ax.plot([p["hb_domain"] for p in pts], [p["best"]["iteration_s"] for p in pts], "o-", label=f"N = {n}")
            ax.axhline(t_of(hb, model=model, gpus=n, hb_domain=n), color=line.get_color(), ls="--", lw=0.8)
        ax.set_xscale("log", base=2)
        ax.set_xlabel("HB domain size K")
        ax.set_ylabel("iteration time (s)")
        ax.set_title(f"{model}, batch {BATCH[model]} (dashed: K = N)")
        ax.legend()
    fig.tight_layout()
    files.append(os.path.join(out, "fig9_iteration_vs_k.png"))
    fig.savefig(files[-1], dpi=120)
    plt.close(fig)

    fig, (a1, a2) = plt.subplots(1, 2, figsize=(11, 4.2))
    batches = (256, 512, 1024, 2048, 4096)
    for k in (8, 32, 128, 256, 1024, 32768):
        a1.plot(batches, [t_of(batch, batch=b, hb_domain=k) for b in batches], "o-", label=f"K = {k}")
        a2.plot(batches, [t_of(batch, batch=b, hb_domain=32768) / t_of(batch, batch=b, hb_domain=k) for b in batches],
                "o-", label=f"K = {k}")
    for ax in (a1, a2):
        ax.set_xscale("log", base=2)
        ax.set_xlabel("global batch (sequences)")
        ax.legend()
    a1.set_ylabel("iteration time (s)")
    a2.set_ylabel("relative performance T(K = N) / T(K)")
    a1.set_title("GPT-1T, 32768 GPUs")
    a2.set_title("GPT-1T, 32768 GPUs: relative to any-to-any")
    fig.tight_layout()
    files.append(os.path.join(out, "fig11_batch.png"))
    fig.savefig(files[-1], dpi=120)
    plt.close(fig)

    fig, axes = plt.subplots(1, 2, figsize=(11, 4.2))
    for ax, k in zip(axes, (8, 256)):
        for cf in (2.4, 4.8, 7.2, 9.6):
            cs = (100, 200, 400, 800)
            ax.plot(cs, [t_of(bw, hb_domain=k, hb_Tbps=cf, network_Gbps=c) for c in cs], "o-", label=f"C_F = {cf} Tb/s")
        ax.set_xscale("log", base=2)
        ax.set_xlabel("network bandwidth C_S (Gb/s)")
        ax.set_ylabel("iteration time (s)")
        ax.set_title(f"GPT-1T, 32768 GPUs, K = {k}")
        ax.legend()
    fig.tight_layout()
    files.append(os.path.join(out, "fig10_bandwidth.png"))
    fig.savefig(files[-1], dpi=120)
    plt.close(fig)
    return files


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--hxsim", default=os.path.join(ROOT, "build", "hxsim"))
    ap.add_argument("--out", default=os.path.join(ROOT, "build", "rail_sweep"))
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    with tempfile.TemporaryDirectory() as scratch:
        hb = hb_sweep(a.hxsim, scratch)
        batch = batch_sweep(a.hxsim, scratch)
        bw = bandwidth_sweep(a.hxsim, scratch)
    summary = summarize(hb, batch, bw)
    with open(os.path.join(a.out, "summary.json"), "w") as f:
        json.dump({"summary": summary, "hb_sweep": hb, "batch_sweep": batch, "bandwidth_sweep": bw}, f, indent=1)
    files = plot(hb, batch, bw, a.out)
    print(json.dumps(summary, indent=1))
    for name in files + [os.path.join(a.out, "summary.json")]:
        print("wrote", name)


if __name__ == "__main__":
    main()
