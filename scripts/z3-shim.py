#!/usr/bin/env python3
"""A pass-through front end for z3 that yosys-smtbmc starts instead of z3 (scripts/formal.sh puts
it first in PATH under the name `z3`, and runs yosys-smtbmc with --unroll).

Why: z3 4.8.12 (Debian 12) expands every `define-fun` application by substituting into the
callee's whole expanded body, so a netlist given as thousands of chained define-funs (which is
what write_smt2 produces, one per cell) costs time quadratic in the design size before any
solving starts: the 5-port router did not even finish loading in 10 minutes.

What it changes: with --unroll, yosys-smtbmc instantiates each per-state function once per step as
a constant definition `(define-fun |UNROLL#n| () Sort Body)`. This shim forwards every command to
the real z3 unchanged, except that it rewrites exactly those into
    (declare-fun |UNROLL#n| () Sort)
    (assert (= |UNROLL#n| Body))
which is equisatisfiable (a fresh constant constrained to equal its definition, inside the same
push/pop scope) and which z3 loads in linear time. Models still give every |UNROLL#n| its value,
so counterexample traces are unaffected. z3 prints nothing for either command (smtbmc does not
enable :print-success), so the reply stream is unchanged.
"""
import os
import re
import shutil
import subprocess
import sys

DEF_RE = re.compile(r"^\(define-fun (\|UNROLL#\d+\|) \(\) ")
# Bit-blast everything and run the SAT solver, rather than z3's default incremental SMT core.
TACTIC = os.environ.get("HX_Z3_TACTIC", "(then simplify solve-eqs bit-blast sat)")


def real_z3():
    me = os.path.realpath(__file__)
    here = os.path.dirname(os.path.abspath(sys.argv[0]))
    path = os.pathsep.join(p for p in os.environ.get("PATH", "").split(os.pathsep)
                           if p and os.path.abspath(p) != here)
    z3 = shutil.which("z3", path=path)
    if z3 is None or os.path.realpath(z3) == me:
        sys.exit("z3-shim: no real z3 found in PATH")
    return z3


def split_sort(rest):
    """'Sort Body)' -> (Sort, Body) where Sort is an atom or a balanced (...) expression."""
    if rest.startswith("("):
        depth = 0
        for i, ch in enumerate(rest):
            depth += ch == "("
            depth -= ch == ")"
            if depth == 0:
                return rest[:i + 1], rest[i + 1:].strip()
        raise ValueError("unbalanced sort")
    sort, _, body = rest.partition(" ")
    return sort, body.strip()


def rewrite(line):
    if line.strip() == "(check-sat)" and TACTIC:
        return f"(check-sat-using {TACTIC})\n"
    m = DEF_RE.match(line)
    if not m:
        return line
    name = m.group(1)
    body_and_close = line[m.end():].rstrip()
    sort, body = split_sort(body_and_close)
    assert body.endswith(")"), line[:200]
    body = body[:-1]
    return f"(declare-fun {name} () {sort})\n(assert (= {name} {body}))\n"


def main():
    proc = subprocess.Popen([real_z3()] + sys.argv[1:], stdin=subprocess.PIPE, text=True)
    try:
        for line in sys.stdin:
            proc.stdin.write(rewrite(line))
            # smtbmc waits for replies after check-sat/get-*: never hold a command back.
            proc.stdin.flush()
        proc.stdin.close()
    except BrokenPipeError:
        pass
    sys.exit(proc.wait())


if __name__ == "__main__":
    main()
