#!/usr/bin/env python3
"""Measure what each build lever does to the Verilated 8x8 board plane's speed (issue 26).

Each lever is a way of building Vhx_board_plane_8x8v4 and tb/plane_ceiling.cpp: other Verilator
arguments, other compiler flags, the compiler's profile-guided optimisation, tracing code in or
out. Every lever is built from the RTL into WORK/<lever>/ with the Verilator arguments the build
used for its own 8x8v4 model (build/rtl/Vhx_board_plane_8x8v4/verilator_args.txt) and the
compiler flags the model cache compiles hxsim's models with (-O3, the slow and trace files at
-O1), then linked with the build's testbench libraries. The levers then run alternately, RUNS
times per load, on the same seed, so they see the same machine; the medians go to OUT.

The results must not change: every lever's run must deliver the same packets and flits in the
same cycles as the base's (plane_ceiling checks each flit on its scoreboard), or the script
fails.

    scripts/rtl_levers.py [--build build] [--work /tmp/hx_levers] [--runs 5]
                          [--loads 0.1,0.0001] [--levers base,trace,...] [--out build/bench/levers.json]
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys

from bench import machine_info
from bench_ceiling import run

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PREFIX = "Vhx_board_plane_8x8v4"

# name: (what it is, extra Verilator arguments, extra compiler flags, traced, PGO)
LEVERS = {
    "base": ("as the model cache builds hxsim's planes: no tracing code, -O3", [], [], False, False),
    "trace": ("with FST tracing code compiled in (not enabled), as the test build's models", [], [], True, False),
    "native": ("-march=native: the compiler may use every instruction of this machine", [], ["-march=native"],
               False, False),
    "O2": ("-O2 instead of -O3: smaller code, for the instruction cache", [], ["-O2"], False, False),
    "pgo": ("the compiler's profile-guided optimisation, trained on other seeds at both loads", [], [], False, True),
    "split0": ("Verilator --output-split 0: the model's fast path in one file, for the compiler to inline across",
               ["--output-split", "0", "--output-split-cfuncs", "0"], [], False, False),
    "lto": ("link-time optimisation (-flto) of the model, the bench and the runtime", [], ["-flto=auto"], False, False),
    "unroll8": ("Verilator --unroll-count 8: the port loops unrolled too (the build unrolls up to 4)",
                ["--unroll-count", "8"], [], False, False),
    "unroll8s": ("Verilator --unroll-count 8 --unroll-stmts 40: only the port loops with small bodies unrolled",
                 ["--unroll-count", "8", "--unroll-stmts", "40"], [], False, False),
    "debug": ("the base with debug information, for `perf annotate` (same code)", [], ["-g"], False, False),
}


def sh(cmd, cwd=None, log=None):
    proc = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True)
    if log is not None:
        with open(log, "a") as f:
            f.write(" ".join(cmd) + "\n" + proc.stdout + proc.stderr)
    if proc.returncode != 0:
        sys.exit(f"rtl_levers: {' '.join(cmd[:6])} ... failed ({proc.returncode}):\n{proc.stdout[-3000:]}"
                 f"{proc.stderr[-3000:]}")
    return proc.stdout


def build_verilator_args(build, rtl=None):
    path = os.path.join(build, "rtl", PREFIX, "verilator_args.txt")
    if not os.path.exists(path):
        sys.exit(f"rtl_levers: {path} not found: build the test tree first (make build)")
    with open(path) as f:
        args = f.read().strip().split(";")
    out, skip = [], False
    for a in args[1:]:  # args[0] is verilator_bin itself
        if skip:
            skip = False
            continue
        if a in ("--Mdir", "--make", "--compiler"):
            skip = True
            continue
        if a == "--trace-fst":
            continue
        out.append(a)
    if rtl is not None:  # the same files and options, from another RTL tree
        here = os.path.join(ROOT, "rtl")
        out = [os.path.join(rtl, a[len(here) + 1:]) if a.startswith(here + "/") else (rtl if a == here else a)
               for a in out]
    return out


def verilator_root():
    out = subprocess.run(["verilator", "--getenv", "VERILATOR_ROOT"], capture_output=True, text=True)
    return out.stdout.strip() or "/usr/share/verilator"


MAKEFILE = """\
CXX := c++
FLAGS := {flags}
SRCS := $(wildcard obj/*.cpp) {runtime}
OBJS := $(patsubst %.cpp,o/%.o,$(notdir $(SRCS)))
vpath %.cpp obj {vroot}/include
all: $(OBJS)
o/%.o: %.cpp | o
\t$(CXX) $(FLAGS) $(if $(findstring __Slow,$*)$(findstring __Trace,$*),-O1,) -c $< -o $@
o:
\tmkdir -p o
"""


def build_lever(name, lever, args, phase=""):
    """Verilate and compile one lever into WORK/name; returns the plane_ceiling binary."""
    _, vargs, cflags, trace, pgo = lever
    work = os.path.join(args.work, name)
    vroot = verilator_root()
    log = os.path.join(work, "build.log")
    if phase != "use":
        shutil.rmtree(work, ignore_errors=True)
        os.makedirs(work)
        vcmd = ["verilator", "--Mdir", "obj"] + build_verilator_args(args.build, args.rtl_dirs.get(name)) + vargs
        if trace:
            vcmd.append("--trace-fst")
        sh(vcmd, cwd=work, log=log)
    else:
        shutil.rmtree(os.path.join(work, "o"), ignore_errors=True)
    tdef = "1" if trace else "0"
    flags = ["-O3", "-DNDEBUG", "-std=c++17", "-DVM_COVERAGE=0", "-DVM_SC=0", f"-DVM_TRACE={tdef}",
             f"-DVM_TRACE_FST={tdef}", "-DVM_TRACE_VCD=0", "-Iobj", f"-isystem {vroot}/include",
             f"-isystem {vroot}/include/vltstd"] + cflags
    prof = os.path.join(work, "profile")
    if pgo and phase == "gen":
        flags.append(f"-fprofile-generate -fprofile-dir={prof} -fprofile-update=single")
    elif pgo and phase == "use":
        flags.append(f"-fprofile-use -fprofile-dir={prof} -fprofile-partial-training -Wno-missing-profile")
    runtime = ["verilated.cpp", "verilated_threads.cpp"] + (["verilated_fst_c.cpp"] if trace else [])
    with open(os.path.join(work, "Makefile"), "w") as f:
        f.write(MAKEFILE.format(flags=" ".join(flags), runtime=" ".join(runtime), vroot=vroot))
    sh(["make", "-s", f"-j{os.cpu_count() or 2}"], cwd=work, log=log)
    b = args.build
    inc = [f"-I{ROOT}/tb", f"-I{ROOT}/systemc/core", f"-I{ROOT}/systemc/routing", "-Iobj"]
    sh(["c++"] + " ".join(flags).split() + inc + ["-c", os.path.join(ROOT, "tb", "plane_ceiling.cpp"),
                                                   "-o", "o/plane_ceiling.o"], cwd=work, log=log)
    objs = sorted(os.path.join("o", o) for o in os.listdir(os.path.join(work, "o")) if o.endswith(".o"))
    libs = [os.path.join(b, "tb", "libhx_tb.a"), os.path.join(b, "systemc", "libhx_board_routing.a"),
            os.path.join(b, "systemc", "core", "libhx_core.a")]
    link_flags = [f for f in cflags if f.startswith("-march") or f.startswith("-flto")]
    if pgo and phase == "gen":
        link_flags.append("-fprofile-generate")
    sh(["c++", "-O3"] + link_flags + ["-o", "plane_ceiling"] + objs + libs + ["-lz", "-pthread", "-latomic"],
       cwd=work, log=log)
    return os.path.join(work, "plane_ceiling")


def ceiling_once(exe, load, seed):
    return json.loads(run([exe, "--load", str(load), "--seed", str(seed)]))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--work", default="/tmp/hx_levers")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--loads", default="0.1,0.0001")
    ap.add_argument("--levers", default=None, help="default: every lever, or with --rtl only base and those")
    ap.add_argument("--out", default=os.path.join(ROOT, "build", "bench", "levers.json"))
    ap.add_argument("--rtl", action="append", default=[], metavar="NAME=DIR",
                    help="a lever NAME: the base built from the RTL in DIR (e.g. an older tree's rtl/, "
                         "to compare RTL written for speed against it)")
    args = ap.parse_args()
    args.rtl_dirs = {}
    for spec in args.rtl:
        name, _, d = spec.partition("=")
        if not name or not os.path.isdir(d) or name in LEVERS:
            sys.exit(f"rtl_levers: --rtl wants NAME=DIR with a new name and an existing directory, not '{spec}'")
        LEVERS[name] = (f"the base built from the RTL in {os.path.abspath(d)}", [], [], False, False)
        args.rtl_dirs[name] = os.path.abspath(d)
    if args.levers is None:
        args.levers = ",".join(["base"] + list(args.rtl_dirs) if args.rtl_dirs else list(LEVERS))
    else:
        args.levers = ",".join([args.levers] + [n for n in args.rtl_dirs if n not in args.levers.split(",")])
    names = args.levers.split(",")
    for n in names:
        if n not in LEVERS:
            sys.exit(f"rtl_levers: no lever '{n}' (levers: {', '.join(LEVERS)})")
    if "base" not in names:
        names.insert(0, "base")
    loads = [float(x) for x in args.loads.split(",")]

    exes = {}
    for n in names:
        lever = LEVERS[n]
        print(f"rtl_levers: building {n}: {lever[0]}", file=sys.stderr, flush=True)
        if lever[4]:
            exe = build_lever(n, lever, args, "gen")
            for load in loads:
                for seed in (11, 12):
                    ceiling_once(exe, load, seed)
            exes[n] = build_lever(n, lever, args, "use")
        else:
            exes[n] = build_lever(n, lever, args)

    runs = {n: {load: [] for load in loads} for n in names}
    reference = {}
    for r in range(args.runs):
        for load in loads:
            for n in names:
                doc = ceiling_once(exes[n], load, 1)
                key = (doc["cycles"], doc["packets_delivered"], doc["flits_delivered"])
                if load not in reference:
                    reference[load] = key
                elif key != reference[load]:
                    sys.exit(f"rtl_levers: lever {n} at load {load} changed the results: "
                             f"(cycles, packets, flits) {key}, base {reference[load]}")
                runs[n][load].append(doc["cycles_per_s"])
                print(f"rtl_levers: run {r + 1}/{args.runs} load {load} {n}: {doc['cycles_per_s']:.0f} cycles/s",
                      file=sys.stderr, flush=True)

    result = {"machine": machine_info(), "model": PREFIX, "runs": args.runs, "levers": []}
    for n in names:
        entry = {"lever": n, "what": LEVERS[n][0], "loads": []}
        for load in loads:
            med = statistics.median(runs[n][load])
            base = statistics.median(runs["base"][load])
            entry["loads"].append({"load": load, "cycles_per_s": runs[n][load], "median_cycles_per_s": med,
                                   "median_router_cycles_per_s": med * 64, "vs_base": med / base})
        result["levers"].append(entry)
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w") as f:
        json.dump(result, f, indent=2)
    for e in result["levers"]:
        print(f"{e['lever']:8s} " + "  ".join(f"load {x['load']}: {x['median_cycles_per_s']:.0f} cycles/s "
                                              f"({x['vs_base']:.3f}x)" for x in e["loads"]))
    print(f"rtl_levers: wrote {args.out}")


if __name__ == "__main__":
    main()
