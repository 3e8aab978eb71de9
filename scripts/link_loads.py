#!/usr/bin/env python3
"""Summarise `hxsim run --link-loads FILE.csv`: which fabric links carry what.

    scripts/link_loads.py LOADS.csv [--by REGEX] [--class CLASS] [--json OUT]

Each row of the CSV is one direction of one fabric link (a cable is two rows) with its flits per
cycle over the measurement window (traffic) or the run (a collective). The summary groups the
rows by link class (the config's links.<class>, empty for edge ports and accelerator links)
and by the direction suffix of the name (`up`: from the link's first named switch to its
second, `down`: back), and gives per group the count, mean, min, quartiles, max and how many
links ran at least 99% busy.

--by REGEX groups by the regex's capture groups instead of the suffix, within each class: for
example, on a HammingMesh with switch routers, `--by 'r(\\d+)_(\\d+)_p(\\d+)__.*_(up|down)$'`
groups the board routers' cables by the router's place (x, y), its port and the direction.
"""
import argparse
import csv
import json
import re
import statistics
import sys

# The direction suffixes of the link names (docs/results-reference.md, "--link-loads").
SUFFIX = re.compile(r"_(up|down|to_switch|from_switch|from_router|to_router)$")

def quantile(sorted_vals, q):
    if not sorted_vals:
        return float("nan")
    i = q * (len(sorted_vals) - 1)
    lo = int(i)
    hi = min(lo + 1, len(sorted_vals) - 1)
    return sorted_vals[lo] + (sorted_vals[hi] - sorted_vals[lo]) * (i - lo)


def summarise(values):
    v = sorted(values)
    return {"links": len(v), "mean": statistics.fmean(v), "min": v[0], "q25": quantile(v, 0.25),
            "median": quantile(v, 0.5), "q75": quantile(v, 0.75), "max": v[-1],
            "at_least_0.99": sum(1 for x in v if x >= 0.99)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("csv", help="the file hxsim run --link-loads wrote")
    ap.add_argument("--by", help="group by this regex's capture groups (links that do not match are left out)")
    ap.add_argument("--class", dest="cls", help="only links of this class")
    ap.add_argument("--json", help="write the summary here as JSON")
    args = ap.parse_args()
    by = re.compile(args.by) if args.by else None
    groups = {}
    window = None
    try:
        with open(args.csv, newline="") as f:
            rows = list(csv.DictReader(f))
    except OSError as e:
        sys.exit(f"link_loads: {e}")
    need = {"link", "class", "from_cycle", "to_cycle", "flits_per_cycle"}
    if not rows or not need <= set(rows[0]):
        sys.exit(f"link_loads: {args.csv}: expected the columns {sorted(need)} of hxsim run --link-loads")
    for r in rows:
        if args.cls is not None and r["class"] != args.cls:
            continue
        window = (int(r["from_cycle"]), int(r["to_cycle"]))
        if by:
            m = by.search(r["link"])
            if not m:
                continue
            key = (r["class"],) + m.groups()
        else:
            m = SUFFIX.search(r["link"])
            key = (r["class"], m.group(1) if m else "")
        groups.setdefault(key, []).append(float(r["flits_per_cycle"]))
    if not groups:
        sys.exit("link_loads: no link matched")
    out = {"csv": args.csv, "window": window, "groups": []}
    print(f"{args.csv}: cycles {window[0]}..{window[1]}, flits per cycle per link")
    print(f"{'group':40} {'links':>6} {'mean':>6} {'min':>6} {'q25':>6} {'median':>6} {'q75':>6} {'max':>6} "
          f"{'>=0.99':>6}")
    for key in sorted(groups):
        s = summarise(groups[key])
        name = " ".join(k if k else "-" for k in key)
        out["groups"].append({"group": list(key), **s})
        print(f"{name:40} {s['links']:6d} {s['mean']:6.3f} {s['min']:6.3f} {s['q25']:6.3f} {s['median']:6.3f} "
              f"{s['q75']:6.3f} {s['max']:6.3f} {s['at_least_0.99']:6d}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
