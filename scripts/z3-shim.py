#!/usr/bin/env python3
"""A front end for z3 that yosys-smtbmc starts instead of z3: scripts/formal.sh puts it first in
PATH under the name `z3` and runs yosys-smtbmc with --unroll. It changes how the problem is fed
to z3, never what is asked.

Why. z3 4.8.12 (Debian 12) handles the SMT-LIB that yosys produces badly in two ways:
  1. It expands every application of a `define-fun` by substituting into the callee's whole
     expanded body, so a netlist given as thousands of chained define-funs (write_smt2 emits one
     per cell) costs time quadratic in the design size before any solving starts: the 5-port
     router did not finish loading in 10 minutes.
  2. Its default incremental solver needs minutes for BMC steps that its bit-blasting SAT tactic
     decides in about a second.

What it does.
  * With --unroll, yosys-smtbmc instantiates each per-state function once per step as a constant
    definition `(define-fun |UNROLL#n| () Sort Body)`. The shim sends these to z3 as
        (declare-fun |UNROLL#n| () Sort)
        (assert (= |UNROLL#n| Body))
    which is equisatisfiable (a fresh constant equal to its definition, in the same push/pop
    scope) and which z3 loads in linear time.
  * `(check-sat)` becomes `(check-sat-using TACTIC)`, by default
    (then simplify solve-eqs bit-blast sat); set HX_Z3_TACTIC to change it, or to "" for plain
    (check-sat).
  * After a check-sat, smtbmc reads the model with get-value and, to write a trace, first defines
    further |UNROLL#n| terms that it then asks about. An assert at that point would discard z3's
    model, and plain define-funs would be slow (point 1). So while the model is being read the
    shim keeps such definitions to itself: it evaluates each one in z3's model (a get-value of
    its body with the values of earlier ones substituted) and substitutes the values into
    smtbmc's get-value commands. z3 answers get-value positionally, and so does smtbmc read the
    answer, so the substituted terms are never looked at. Once smtbmc moves on (any command other
    than get-value, echo or declare-fun), the kept definitions are sent to z3 as above, since
    later commands may refer to them.

Replies: smtbmc does not enable :print-success, so only check-sat, get-* and echo commands get a
reply; the shim forwards exactly those, one balanced s-expression each.
"""
import os
import re
import shutil
import subprocess
import sys

DEF_RE = re.compile(r"^\(define-fun (\|UNROLL#\d+\|) \(\) ")
SYM_RE = re.compile(r"\|UNROLL#\d+\|")
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


def split_def(line):
    """'(define-fun NAME () Sort Body)' -> (NAME, Sort, Body)."""
    m = DEF_RE.match(line)
    rest = line[m.end():].rstrip()
    if rest.startswith("("):
        depth = 0
        for i, ch in enumerate(rest):
            depth += ch == "("
            depth -= ch == ")"
            if depth == 0:
                sort, body = rest[:i + 1], rest[i + 1:].strip()
                break
    else:
        sort, _, body = rest.partition(" ")
        body = body.strip()
    if not body.endswith(")"):
        raise ValueError(f"z3-shim: cannot parse definition: {line[:200]}")
    return m.group(1), sort, body[:-1].strip()


def paren_balance(text):
    """Open minus close parentheses outside |quoted symbols| and "strings"."""
    depth, quote = 0, None
    for ch in text:
        if quote:
            if ch == quote:
                quote = None
        elif ch in "|\"":
            quote = ch
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
    return depth


def parse_values(reply):
    """'((t1 v1) (t2 v2))' -> [v1, v2] as text (top-level pairs, value = last element)."""
    values, depth, start, quote = [], 0, None, None
    pair_start = None
    for i, ch in enumerate(reply):
        if quote:
            if ch == quote:
                quote = None
            continue
        if ch in "|\"":
            quote = ch
        elif ch == "(":
            depth += 1
            if depth == 2:
                pair_start = i
        elif ch == ")":
            if depth == 2:
                values.append(last_element(reply[pair_start + 1:i]))
            depth -= 1
    return values


def last_element(text):
    """The last top-level element of a whitespace-separated s-expression list."""
    text = text.strip()
    if text.endswith(")"):
        depth = 0
        for i in range(len(text) - 1, -1, -1):
            depth += text[i] == ")"
            depth -= text[i] == "("
            if depth == 0:
                return text[i:]
    return text.split()[-1]


class Proxy:
    def __init__(self, argv):
        self.z3 = subprocess.Popen([real_z3()] + argv, stdin=subprocess.PIPE,
                                   stdout=subprocess.PIPE, text=True, bufsize=1)
        self.model_live = False
        self.kept = {}        # name -> (sort, body) of definitions kept while reading a model
        self.kept_order = []
        self.values = {}      # name -> value text, for the kept definitions

    def send(self, text):
        self.z3.stdin.write(text)
        self.z3.stdin.flush()

    def reply(self):
        lines, depth = [], 0
        while True:
            line = self.z3.stdout.readline()
            if line == "":
                sys.exit("z3-shim: z3 terminated")
            lines.append(line)
            depth += paren_balance(line)
            if depth <= 0 and "".join(lines).strip():
                return "".join(lines)

    def substitute(self, text):
        return SYM_RE.sub(lambda m: self.values.get(m.group(0), m.group(0)), text)

    def flush_kept(self):
        for name in self.kept_order:
            sort, body = self.kept[name]
            self.send(f"(declare-fun {name} () {sort})\n(assert (= {name} {body}))\n")
        self.kept, self.kept_order, self.values = {}, [], {}

    def command(self, line):
        cmd = line.strip()
        if not cmd:
            return
        if not cmd.startswith("("):
            self.send(line)
            return
        if cmd.startswith("(check-sat"):
            self.flush_kept()
            if cmd == "(check-sat)" and TACTIC:
                cmd = f"(check-sat-using {TACTIC})"
            self.send(cmd + "\n")
            answer = self.reply()
            self.model_live = answer.strip() == "sat"
            sys.stdout.write(answer)
            sys.stdout.flush()
            return
        if cmd.startswith(("(get-", "(echo")):
            self.send(self.substitute(cmd) + "\n")
            sys.stdout.write(self.reply())
            sys.stdout.flush()
            return
        if cmd.startswith("(declare-fun"):
            self.send(cmd + "\n")
            return
        if DEF_RE.match(cmd):
            name, sort, body = split_def(cmd)
            if self.model_live:
                self.kept[name] = (sort, body)
                self.kept_order.append(name)
                self.send(f"(get-value ({self.substitute(body)}))\n")
                self.values[name] = parse_values(self.reply())[0]
            else:
                self.send(f"(declare-fun {name} () {sort})\n(assert (= {name} {body}))\n")
            return
        # Anything else (assert, push, pop, set-*, define-fun with arguments, ...).
        self.flush_kept()
        self.model_live = False
        self.send(cmd + "\n")

    def run(self):
        try:
            for line in sys.stdin:
                self.command(line)
            self.z3.stdin.close()
        except BrokenPipeError:
            pass
        return self.z3.wait()


if __name__ == "__main__":
    sys.exit(Proxy(sys.argv[1:]).run())
