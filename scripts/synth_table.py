#!/usr/bin/env python3
"""Render the synthesis results (build/synth/*.json, written by scripts/synth.sh) as a markdown
table, so docs/synthesis.md quotes measured numbers rather than typed-in ones.

    scripts/synth_table.py [FILE.json ...]     (default: build/synth/*.json)
"""
import json
import sys
from pathlib import Path


def fmt(n):
    return "n/a" if n is None else f"{n:,}"


def main():
    files = [Path(a) for a in sys.argv[1:]]
    if not files:
        root = Path(__file__).resolve().parent.parent
        files = sorted((root / "build" / "synth").glob("*.json"))
    if not files:
        print("synth_table: no results; run `make synth` first", file=sys.stderr)
        return 1
    rows = [json.loads(f.read_text()) for f in files]

    print("| top | parameters | generic cells | flip-flops | transistors (yosys cmos) "
          "| not priced by yosys | transistors (OSU018 cells) | OSU018 cells | area (um^2) "
          "| area (mm^2) | yosys wall (s) |")
    print("|---|---|--:|--:|--:|---|--:|--:|--:|--:|--:|")
    for r in rows:
        params = ", ".join(f"{k}={v}" for k, v in r["parameters"].items())
        unc = ", ".join(f"{n:,} {t}" for t, n in r["transistors_uncounted_cells"].items()) or "none"
        area = r["area_um2"]
        print(f"| {r['top']} | {params} | {fmt(r['cells'])} | {fmt(r['flip_flops'])} "
              f"| {fmt(r['transistors_estimate'])} | {unc} | {fmt(r['transistors_osu018_spice'])} "
              f"| {fmt(r['mapped_cells'])} | {area:,.0f} | {area / 1e6:.2f} "
              f"| {r['wall_seconds']:.0f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
