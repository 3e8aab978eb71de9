#!/usr/bin/env python3
"""Formal proofs of the RTL's assertions (`make formal`; docs/formal.md).

Every check the RTL carries (`HX_ASSERT`, and `HX_ASSUME` contracts of blocks other than the one
under proof; rtl/hx_assert.svh) and every check of a proof harness (formal/*_fv.sv) is one
property. Each proof job reads a harness and the RTL it instantiates with yosys -formal, flattens
it, and writes one AIGER netlist per property (the other properties removed, the assumptions
kept). Each is proven in stages, each "unbounded" when it succeeds:
  1. ABC PDR (IC3) for a few seconds (--pdr-quick): the easy properties;
  2. one k-induction over the rest together (yosys sat), with those proven as lemmas; its base
     case by ABC bmc3, k + 1 frames deep;
  3. for what is left, PDR with the full budget (--pdr-budget);
  4. bounded model checking (bmc3) as deep as --budget allows: reported with the depth reached.
A bounded result below MIN_DEPTH fails the run, as does any counterexample.

Parameter-reduced instances: the full-size blocks (3 VCs of 8 flits and 132-bit flits per router
port; 128-bit flits and 32-bit time in the reduction table) are too large for the solvers here.
Each job proves the block's own RTL at the parameters in JOBS, and says so in the report.

    scripts/formal.py [--jobs N] [--only JOB[,JOB]] [--pdr-quick S] [--pdr-budget S] [--budget S]
                      [--out build/formal]

Output: a table on stdout, and build/formal/formal.json (schema in docs/formal.md). Exit 0 when
every property is proven (unbounded, or bounded to at least MIN_DEPTH), 1 otherwise.
"""
import argparse
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MIN_DEPTH = 20          # the shallowest bounded proof accepted (issue 23)
BMC_DEPTH = 25          # depth asked of the bounded fallback

ROUTER_RTL = ["hx_pkg.sv", "hx_in_buffer.sv", "hx_route.sv", "hx_rr_arbiter.sv", "hx_router.sv"]
RED_RTL = ["hx_red_pkg.sv", "hx_fp32_alu.sv", "hx_reduce_alu.sv", "hx_reduction_table.sv"]

# One proof job per harness. "unit": modules whose HX_ASSUME contracts stay assumptions (the block
# under proof, driven by a free environment); every other module's contracts become assertions.
# "reduced": what differs from the size the simulator uses, and why (printed with the results).
JOBS = [
    {
        "name": "rr_arbiter",
        "top": "hx_rr_arbiter_fv",
        "rtl": ["hx_rr_arbiter.sv"],
        "harness": "formal/hx_rr_arbiter_fv.sv",
        "unit": [],
        "reduced": "none: N = 5 and N = 8, the router's input (one lane) and four-lane output arbiters",
    },
    {
        "name": "in_buffer",
        "top": "hx_in_buffer_fv",
        "rtl": ["hx_in_buffer.sv"],
        "harness": "formal/hx_in_buffer_fv.sv",
        "unit": ["hx_in_buffer"],
        "reduced": "2 VCs x 2 flits of 4 bits (router: 3 VCs x 8 flits of 132 bits); "
                   "the logic per VC and slot is the same at any size",
    },
    {
        "name": "router",
        "top": "hx_router_fv",
        "rtl": ROUTER_RTL,
        "harness": "formal/hx_router_fv.sv",
        "unit": [],
        "reduced": "one lane, 2 VCs x 2-flit buffers, 1-bit board and node coordinates, 5-bit "
                   "payload (full: 3 VCs x 8 flits, 8/4-bit coordinates, 128-bit payload, ~17,000 "
                   "state bits, docs/formal.md)",
    },
    {
        "name": "reduction_table",
        "top": "hx_reduction_table_fv",
        "rtl": RED_RTL,
        "harness": "formal/hx_reduction_table_fv.sv",
        "unit": ["hx_reduction_table"],
        "reduced": "2 entries, 4-bit time base (simulator: 2, 8 or 32 entries, 32-bit time); the "
                   "data rows and ALU are outside every property's cone and drop out",
    },
]

CHECK_RE = re.compile(r"HX_(ASSERT|ASSUME)\((\w+)")


def run(cmd, timeout=None, **kw):
    return subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=timeout, **kw)


def check_name(src, lines_of):
    """The name of the HX_ASSERT/HX_ASSUME a cell's src attribute points at.

    yosys 0.23 gives a check made by a macro the range from the end of the previous statement to
    the macro's own line; the range's file is one of several '|'-separated (instances too)."""
    for seg in src.split("|"):
        m = re.match(r"(.+):(\d+)\.\d+-(\d+)\.\d+$", seg)
        if not m:
            continue
        path, first, last = m.group(1), int(m.group(2)), int(m.group(3))
        lines = lines_of(path)
        for ln in range(min(last, len(lines)), max(first, 1) - 1, -1):
            hit = CHECK_RE.search(lines[ln - 1])
            if hit:
                kind = "contract" if hit.group(1) == "ASSUME" else "assertion"
                return os.path.basename(path), hit.group(2), kind
    return None


def prepare(job, work):
    """Elaborate, flatten, and write one AIGER per property. Returns the list of properties."""
    files = [f"rtl/{f}" for f in job["rtl"]] + [job["harness"]]
    # every module but the harness (A:top) and the units (by name, parameterised or not)
    convert = "chformal -assume2assert A:top %n" + "".join(f" *{u} %d" for u in job["unit"])
    base = os.path.join(work, "base.il")    # and-inverter graph, for ABC
    word = os.path.join(work, "word.il")    # word level, for yosys sat (induction)
    dump = os.path.join(work, "asserts.txt")
    script = [
        f"read_verilog -formal -sv -I rtl {' '.join(files)}",
        f"prep -top {job['top']}",
        convert,
        "async2sync",
        "flatten",
        "memory_map",
        "opt_clean",
        "rename -enumerate -pattern hxa_% t:$assert",
        f"tee -q -o {dump} dump t:$assert",
        f"tee -q -o {dump}.assume dump t:$assume",
        f"write_rtlil {word}",
        # to an and-inverter graph once; each property's netlist only drops the other checks
        "techmap", "opt -fast", "dffunmap", "aigmap", "opt_clean",
        f"tee -q -o {dump}.kept select -list t:$assert",
        f"write_rtlil {base}",
    ]
    t0 = time.time()
    p = run(["yosys", "-q", "-p", "; ".join(script)])
    if p.returncode != 0:
        sys.exit(f"formal: yosys failed on {job['name']}:\n{p.stdout}{p.stderr}")
    cache = {}

    def lines_of(path):
        if path not in cache:
            full = os.path.join(ROOT, path)
            cache[path] = open(full).read().splitlines() if os.path.exists(full) else []
        return cache[path]

    props = {}
    cell = None
    for line in open(dump):
        m = re.match(r"\s*attribute \\src \"(.*)\"", line)
        if m:
            src = m.group(1)
            continue
        m = re.match(r"\s*cell \$assert \\?(\S+)", line)
        if m:
            cell = m.group(1)
            found = check_name(src, lines_of)
            if not found:
                sys.exit(f"formal: {job['name']}: cannot name the check at {src}")
            props.setdefault(found, []).append(cell)
    # The contracts that stay assumptions (of the unit under proof), named for the report.
    assumed = set()
    src = ""
    for line in open(dump + ".assume"):
        m = re.match(r"\s*attribute \\src \"(.*)\"", line)
        if m:
            src = m.group(1)
        elif re.match(r"\s*cell \$assume", line):
            found = check_name(src, lines_of)
            if found and found[2] == "contract":
                assumed.add(found[1])
    job["assumed"] = sorted(assumed)
    # Checks that are constant true at these parameters (e.g. a pointer range check when Depth is
    # a power of two) are gone from the mapped netlist: nothing left to prove for them.
    kept = {line.strip().split("/")[-1] for line in open(dump + ".kept") if line.strip()}
    out = []
    for (fname, name, kind), cells in sorted(props.items()):
        if not any(c in kept for c in cells):
            out.append({"job": job["name"], "file": fname, "property": name, "kind": kind,
                        "copies": len(cells), "aig": None, "cells": cells})
    props = {key: [c for c in cells if c in kept] for key, cells in props.items()}
    props = {key: cells for key, cells in props.items() if cells}
    steps = ["design -save base"]
    for i, ((fname, name, kind), cells) in enumerate(sorted(props.items())):
        aig = os.path.join(work, f"p{i}.aig")
        steps += [
            "design -load base",
            f"select -set keep {' '.join(job['top'] + '/' + c for c in cells)}",
            "chformal -assert -remove t:$assert @keep %d",
            f"select -assert-count {len(cells)} t:$assert",
            "opt_clean",
            "setundef -anyseq",
            f"write_aiger -zinit {aig}",
        ]
        out.append({"job": job["name"], "file": fname, "property": name, "kind": kind,
                    "copies": len(cells), "aig": aig, "cells": cells})
    script = [f"read_rtlil {base}"] + steps
    p = run(["yosys", "-q", "-p", "; ".join(script)])
    if p.returncode != 0:
        sys.exit(f"formal: yosys failed writing the netlists of {job['name']}:\n{p.stdout}{p.stderr}")
    prep_s = time.time() - t0
    for o in out:
        o["prepare_seconds"] = round(prep_s / len(out), 2)
    return out, word


def abc(commands, timeout):
    t0 = time.time()
    try:
        p = run(["yosys-abc", "-c", commands], timeout=timeout)
        text = p.stdout + p.stderr
    except subprocess.TimeoutExpired as e:
        text = (e.stdout or b"").decode() if isinstance(e.stdout, bytes) else (e.stdout or "")
        text += "\n(timeout)"
    return text, time.time() - t0


def pdr(prop, budget):
    """ABC PDR on the property's own netlist: proven (unbounded), a counterexample, or neither."""
    if prop["aig"] is None:
        res = {k: v for k, v in prop.items() if k not in ("aig", "cells")}
        res.update(status="proven", method="constant (true after synthesis)", depth="unbounded",
                   seconds=0.0, pdr_seconds=0.0)
        return res
    text, secs = abc(f"read_aiger {prop['aig']}; fold; pdr -T {budget}; print_status", budget + 30)
    res = {k: v for k, v in prop.items() if k not in ("aig", "cells")}
    res["pdr_seconds"] = round(secs, 2)
    res["seconds"] = round(secs, 2)
    if "no primary outputs" in text:
        # The check is in the design (prepare() counted it) but constant true at these
        # parameters, e.g. a pointer range check when Depth is a power of two.
        res.update(status="proven", method="constant (true after synthesis)", depth="unbounded")
    elif "Property proved" in text:
        res.update(status="proven", method="PDR (ABC)", depth="unbounded")
    else:
        m = re.search(r"asserted in frame (\d+)", text)
        if m:
            res.update(status="FAILED", method="PDR (ABC)",
                       depth=f"counterexample at frame {m.group(1)}")
        else:
            res.update(status="open", method="PDR (ABC)", depth="timeout")
    return res


def bmc(prop, budget, frames=BMC_DEPTH):
    """ABC bmc3 from any power-up state of the registers without reset: the depth reached."""
    text, secs = abc(f"read_aiger {prop['aig']}; fold; bmc3 -v -F {frames} -T {budget}; print_status",
                     budget + 30)
    m = re.search(r"asserted in frame (\d+)", text)
    if m:
        return None, int(m.group(1)), secs
    done = [int(x) for x in re.findall(r"No output asserted in (\d+) frames", text)]
    # With -v, bmc3 prints one line per frame it has checked ("  6 + : Var = ..."); a run cut by
    # its time limit reports its depth only there.
    done += [int(x) + 1 for x in re.findall(r"^\s*(\d+) \+ :", text, re.M)]
    return (max(done) if done else 0), None, secs


def induction(word, top, open_props, proven_props, max_k, budget):
    """The induction step of k-induction (yosys sat) over the open properties together, with the
    properties already proven unbounded as lemmas (assumed: they hold in every reachable state).
    Returns the k at which the step holds, or None."""
    keep = " ".join(f"{top}/{c}" for p in open_props for c in p["cells"])
    lemmas = " ".join(f"{top}/{c}" for p in proven_props for c in p["cells"])
    script = [f"read_rtlil {word}"]
    if lemmas:
        script += [f"select -set lemmas {lemmas}", "chformal -assert2assume @lemmas"]
    script += [f"select -set keep {keep}", "chformal -assert -remove t:$assert @keep %d",
               f"sat -tempinduct -tempinduct-inductonly -prove-asserts -set-assumes "
               f"-maxsteps {max_k} -timeout {budget}"]
    t0 = time.time()
    try:
        p = run(["yosys", "-p", "; ".join(script)], timeout=budget * 2 + 60)
        text = p.stdout
    except subprocess.TimeoutExpired:
        text = ""
    secs = time.time() - t0
    if "Import proof for assert" not in text and "Induction step proven" in text:
        sys.exit(f"formal: {top}: the induction had no property to prove (selection failed)")
    if "Induction step proven: SUCCESS!" not in text:
        return None, secs
    steps = [int(x) for x in re.findall(r"Trying induction in (?:forward|backward) direction for step (\d+)", text)]
    return (max(steps) if steps else 1), secs


def prove_job(job, props, word, a, pool):
    """A short PDR for each property; one joint induction for the rest (with the proven ones as
    lemmas), its base case by BMC; for what the induction leaves, PDR with the full budget, then
    bounded model checking."""
    results = list(pool.map(lambda p: pdr(p, a.pdr_quick), props))
    by_name = {r["property"]: r for r in results}
    open_props = [p for p in props if by_name[p["property"]]["status"] == "open"]
    proven = [p for p in props if by_name[p["property"]]["status"] == "proven"]
    if not open_props:
        return results
    k, secs = induction(word, job["top"], open_props, proven, a.max_k, a.budget)
    share = secs / len(open_props)
    if k is not None:
        # The base case needs only the first k steps from reset.
        bases = list(pool.map(lambda p: bmc(p, a.budget, k + 1), open_props))
        left = []
        for p, (depth, cex, bsecs) in zip(open_props, bases):
            r = by_name[p["property"]]
            r["seconds"] = round(r["seconds"] + share + bsecs, 2)
            if cex is not None:
                r.update(status="FAILED", method="BMC (ABC bmc3)", depth=f"counterexample at frame {cex}")
            elif depth >= k:
                r.update(status="proven", method=f"k-induction (yosys sat, k={k}; base by ABC bmc3)",
                         depth="unbounded")
            else:
                left.append(p)  # the base case ran out of time: prove it another way
        open_props = left
    else:
        for p in open_props:
            by_name[p["property"]]["seconds"] = round(by_name[p["property"]]["seconds"] + share, 2)
    # What the induction did not settle: PDR with its full budget, then BMC as deep as it goes.
    for p, r in zip(open_props, pool.map(lambda p: pdr(p, a.pdr_budget), open_props)):
        old = by_name[p["property"]]
        r["seconds"] = round(old["seconds"] + r["seconds"], 2)
        r["pdr_seconds"] = round(old["pdr_seconds"] + r["pdr_seconds"], 2)
        old.update(r)
    still = [p for p in open_props if by_name[p["property"]]["status"] == "open"]
    for p, (depth, cex, bsecs) in zip(still, pool.map(lambda p: bmc(p, a.budget, BMC_DEPTH), still)):
        r = by_name[p["property"]]
        r["seconds"] = round(r["seconds"] + bsecs, 2)
        if cex is not None:
            r.update(status="FAILED", method="BMC (ABC bmc3)", depth=f"counterexample at frame {cex}")
        else:
            r.update(status="proven" if depth >= MIN_DEPTH else "UNDECIDED", method="BMC (ABC bmc3)", depth=depth)
    return results


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--jobs", type=int, default=2, help="properties proven in parallel")
    ap.add_argument("--only", help="comma-separated job names (" + ", ".join(j["name"] for j in JOBS) + ")")
    ap.add_argument("--pdr-quick", type=int, default=5,
                    help="seconds of PDR per property before the induction")
    ap.add_argument("--pdr-budget", type=int, default=60,
                    help="seconds of PDR per property the induction left open")
    ap.add_argument("--budget", type=int, default=180, help="seconds for induction and for BMC")
    ap.add_argument("--max-k", type=int, default=8, help="longest induction step tried")
    ap.add_argument("--out", default=os.path.join(ROOT, "build", "formal"))
    a = ap.parse_args()
    for tool in ("yosys", "yosys-abc"):
        if not shutil.which(tool):
            sys.exit(f"formal: {tool} not found (scripts/setup-deps.sh installs it)")
    jobs = JOBS
    if a.only:
        want = set(a.only.split(","))
        jobs = [j for j in JOBS if j["name"] in want]
        if len(jobs) != len(want):
            sys.exit(f"formal: unknown job in --only {a.only}")
    os.makedirs(a.out, exist_ok=True)
    t0 = time.time()
    results = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as pool:
        for job in jobs:
            work = os.path.join(a.out, job["name"])
            shutil.rmtree(work, ignore_errors=True)
            os.makedirs(work)
            props, word = prepare(job, work)
            print(f"formal: {job['name']}: {len(props)} properties; reduced instance: "
                  f"{job['reduced']}", flush=True)
            if job["assumed"]:
                print(f"  assumed (contracts of the block under proof, checked in simulation): "
                      f"{', '.join(job['assumed'])}", flush=True)
            for r in prove_job(job, props, word, a, pool):
                results.append(r)
                print(f"  {r['job']:<16} {r['property']:<28} {r['status']:<9} {str(r['depth']):<10} "
                      f"{r['seconds']:>7.2f} s  {r['method']}", flush=True)
    wall = time.time() - t0
    ok = all(r["status"] == "proven" for r in results)
    print()
    print(f"| job | property | kind | file | copies | status | method | depth | seconds |")
    print(f"|---|---|---|---|---|---|---|---|---|")
    for r in results:
        print(f"| {r['job']} | {r['property']} | {r['kind']} | {r['file']} | {r['copies']} | "
              f"{r['status']} | {r['method']} | {r['depth']} | {r['seconds']:.2f} |")
    doc = {
        "tool": "yosys 0.23 (read_verilog -formal) + yosys-abc (pdr, bmc3)",
        "min_depth": MIN_DEPTH,
        "pdr_quick_seconds": a.pdr_quick,
        "pdr_budget_seconds": a.pdr_budget,
        "budget_seconds": a.budget,
        "wall_seconds": round(wall, 1),
        "all_proven": ok,
        "jobs": [{"name": j["name"], "top": j["top"], "reduced": j["reduced"],
                  "assumed_contracts": j.get("assumed", [])} for j in jobs],
        "properties": [{k: v for k, v in r.items() if k != "aig"} for r in results],
    }
    path = os.path.join(a.out, "formal.json")
    with open(path, "w") as f:
        json.dump(doc, f, indent=2)
    print(f"\nformal: {sum(r['status'] == 'proven' for r in results)} of {len(results)} properties "
          f"proven in {wall:.0f} s; {path}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
