#!/usr/bin/env python3
"""Turn the three `stat` reports of one scripts/synth.sh run into build/synth/<name>.json.

    synth_json.py --name N --top T --stat-prefix P --liberty L --wall-seconds S
                  --yosys-version V [--param Name=Value ...]

Reads P.generic.txt (`stat` after `synth -flatten`), P.cmos.txt (`stat -tech cmos` after
`dffunmap; opt_clean`) and P.liberty.txt (`stat -liberty L` after `dfflibmap; abc -liberty`).

Transistor estimate. yosys 0.23 prices only the cell types of its CMOS cost table
(kernel/cost.h, CellCosts::cmos_gate_cost(), copied below) and prints the total with a trailing
"+" when the design holds any other type. After `dffunmap` the only such types left in this RTL
are the flip-flops with an asynchronous reset ($_DFF_PN0_, $_DFF_PN1_): dffunmap removes enables
and synchronous resets, but an asynchronous reset cannot be rewritten as logic. This script
  * recomputes the yosys figure from the table and fails if it disagrees (so the table below
    cannot drift from the yosys in use unnoticed),
  * reports the yosys figure for the priced cells (transistors_estimate) and lists the unpriced
    cells with their counts (transistors_uncounted_cells) instead of hiding them, and
  * gives a second, complete count: every cell of the Liberty-mapped netlist times the number of
    MOSFETs in that cell's SPICE subcircuit (osu018_stdcells.sp next to the Liberty file).
"""
import argparse
import json
import re
import sys
from pathlib import Path

# yosys 0.23 kernel/cost.h, CellCosts::cmos_gate_cost().
CMOS_GATE_COST = {
    "$_BUF_": 1, "$_NOT_": 2, "$_AND_": 6, "$_NAND_": 4, "$_OR_": 6, "$_NOR_": 4,
    "$_ANDNOT_": 6, "$_ORNOT_": 6, "$_XOR_": 12, "$_XNOR_": 12, "$_AOI3_": 6, "$_OAI3_": 6,
    "$_AOI4_": 8, "$_OAI4_": 8, "$_MUX_": 12, "$_NMUX_": 10, "$_DFF_P_": 16, "$_DFF_N_": 16,
}

# Generic flip-flop and latch cell types after synth (one cell per bit).
FF_RE = re.compile(r"^\$_(DFF|DFFE|SDFF|SDFFE|SDFFCE|DFFSR|DFFSRE|ALDFF|ALDFFE)_[A-Z0-9]*_$")
LATCH_RE = re.compile(r"^\$_(DLATCH|DLATCHSR)_[A-Z0-9]*_$")


def fail(msg):
    print(f"synth_json: {msg}", file=sys.stderr)
    sys.exit(1)


def parse_stat(path):
    """Cell count, cells by type, transistor line and chip area from a text `stat` report."""
    text = Path(path).read_text()
    # Only the last "=== module ===" block (there is one module after -flatten).
    blocks = text.split("=== ")
    if len(blocks) < 2:
        fail(f"{path}: no stat block")
    block = blocks[-1]
    m = re.search(r"Number of cells:\s+(\d+)\n((?:\s+\S+\s+\d+\n)*)", block)
    if not m:
        fail(f"{path}: no 'Number of cells'")
    cells = int(m.group(1))
    by_type = {}
    for line in m.group(2).splitlines():
        name, count = line.split()
        by_type[name] = int(count)
    if sum(by_type.values()) != cells:
        fail(f"{path}: cell types add up to {sum(by_type.values())}, not {cells}")
    tr = re.search(r"Estimated number of transistors:\s+(\d+)(\+?)", block)
    area = re.search(r"Chip area for module .*?:\s+([0-9.]+)", block)
    return {
        "cells": cells,
        "by_type": by_type,
        "transistors": (int(tr.group(1)), tr.group(2) == "+") if tr else None,
        "area": float(area.group(1)) if area else None,
    }


def rtl_defaults(path, top):
    """The top's `parameter` defaults (not localparams) as written in its RTL source."""
    text = Path(path).read_text()
    m = re.search(r"\bmodule\s+" + re.escape(top) + r"\s*#\s*\((.*?)\)\s*\(", text, re.S)
    if not m:
        fail(f"{path}: no parameterised module {top}")
    params = {}
    for name, value in re.findall(r"^\s*parameter\s+(?:int\s+unsigned\s+|int\s+)?(\w+)\s*=\s*([^,/\n]+)",
                                  m.group(1), re.M):
        value = value.strip()
        params[name] = int(value) if value.isdigit() else value
    return params


def spice_transistors(liberty):
    """MOSFETs per subcircuit in the SPICE netlist that ships next to the Liberty file."""
    sp = Path(liberty).with_suffix(".sp")
    if not sp.is_file():
        return None, None
    counts, name = {}, None
    for line in sp.read_text().splitlines():
        words = line.split()
        if not words:
            continue
        key = words[0].lower()
        if key == ".subckt":
            name, counts[words[1]] = words[1], 0
        elif key == ".ends":
            name = None
        elif name and key.startswith("m"):
            counts[name] += 1
    return counts, sp


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--name", required=True)
    ap.add_argument("--top", required=True)
    ap.add_argument("--stat-prefix", required=True)
    ap.add_argument("--liberty", required=True)
    ap.add_argument("--wall-seconds", type=float, required=True)
    ap.add_argument("--yosys-version", required=True)
    ap.add_argument("--rtl-source", required=True, help="the RTL file that defines the top")
    ap.add_argument("--param", action="append", default=[], help="override Name=Value")
    args = ap.parse_args()

    params = rtl_defaults(args.rtl_source, args.top)
    for kv in args.param:
        k, v = kv.split("=", 1)
        params[k] = int(v) if v.lstrip("-").isdigit() else v

    gen = parse_stat(args.stat_prefix + ".generic.txt")
    cmos = parse_stat(args.stat_prefix + ".cmos.txt")
    lib = parse_stat(args.stat_prefix + ".liberty.txt")

    flops = sum(n for t, n in gen["by_type"].items() if FF_RE.match(t))
    latches = sum(n for t, n in gen["by_type"].items() if LATCH_RE.match(t))
    unknown_generic = [t for t in gen["by_type"] if not t.startswith("$_")]
    if unknown_generic:
        fail(f"non-gate cells left after synth: {unknown_generic}")

    if cmos["transistors"] is None:
        fail("no transistor estimate in the cmos report")
    yosys_tr, yosys_plus = cmos["transistors"]
    priced = sum(n * CMOS_GATE_COST[t] for t, n in cmos["by_type"].items() if t in CMOS_GATE_COST)
    uncounted = {t: n for t, n in sorted(cmos["by_type"].items()) if t not in CMOS_GATE_COST}
    if priced != yosys_tr or bool(uncounted) != yosys_plus:
        fail(f"cost table disagrees with yosys: {priced} vs {yosys_tr}{'+' if yosys_plus else ''}")

    spice, sp_path = spice_transistors(args.liberty)
    osu_tr, osu_missing = None, []
    if spice is not None:
        osu_missing = sorted(t for t in lib["by_type"] if t not in spice)
        if not osu_missing:
            osu_tr = sum(n * spice[t] for t, n in lib["by_type"].items())
    lib_flops = sum(n for t, n in lib["by_type"].items() if t.startswith(("DFF", "LATCH")))
    if lib_flops != flops + latches:
        fail(f"mapped netlist has {lib_flops} flip-flops/latches, generic netlist {flops + latches}")

    out = {
        "top": args.top,
        "name": args.name,
        "parameters": params,
        "cells": gen["cells"],
        "cells_by_type": gen["by_type"],
        "flip_flops": flops,
        "latches": latches,
        "cells_after_dffunmap": cmos["cells"],
        "transistors_estimate": yosys_tr,
        "transistors_estimate_yosys": f"{yosys_tr}{'+' if yosys_plus else ''}",
        "transistors_uncounted_cells": uncounted,
        "transistors_osu018_spice": osu_tr,
        "transistors_osu018_spice_note": (
            f"sum over the Liberty-mapped cells of the MOSFETs in each cell's subcircuit in {sp_path.name}"
            if osu_tr is not None else
            f"not computed: {'no SPICE netlist' if spice is None else 'cells without subcircuit: ' + ', '.join(osu_missing)}"),
        "area_um2": lib["area"],
        "mapped_cells": lib["cells"],
        "mapped_cells_by_type": lib["by_type"],
        "liberty": Path(args.liberty).name,
        "yosys_version": args.yosys_version,
        "wall_seconds": round(args.wall_seconds, 1),
    }
    json.dump(out, sys.stdout, indent=2)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
