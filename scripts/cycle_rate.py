#!/usr/bin/env python3
"""Simulation speed over a window of a long run, without running it to the end.

Runs an `hxsim run ...` command on a pseudo-terminal (so it prints its progress line every 4,096
cycles), notes the wall time and the process's CPU time as each progress cycle appears, stops
the run at --stop, and prints cycles/s and CPU ms per simulated cycle between --start and the
last progress cycle seen. Meant for A/B comparisons of builds on a long workload, such as the
1,024-accelerator allreduce: run the two builds side by side, one thread each, so that both see
the same machine.

    scripts/cycle_rate.py [--start 8192] --stop 24576 -- build/hxsim run configs/hx4mesh_8x8_allreduce.yaml --threads 1
"""
import argparse
import os
import pty
import re
import signal
import sys
import time


def cpu_seconds(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--start", type=int, default=8192, help="first progress cycle of the window")
    ap.add_argument("--stop", type=int, required=True, help="stop the run at this progress cycle")
    ap.add_argument("command", nargs=argparse.REMAINDER)
    args = ap.parse_args()
    cmd = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not cmd:
        sys.exit("cycle_rate: no command given")
    if args.stop <= args.start:
        sys.exit(f"cycle_rate: --stop ({args.stop}) must be above --start ({args.start})")
    pid, fd = pty.fork()
    if pid == 0:
        os.execvp(cmd[0], cmd)
    seen, tail = {}, b""
    while True:
        try:
            data = os.read(fd, 4096)
        except OSError:
            break
        if not data:
            break
        tail += data
        for m in re.finditer(rb"cycle (\d+) ", tail):
            c = int(m.group(1))
            if c not in seen:
                seen[c] = (time.time(), cpu_seconds(pid))
        tail = tail[-200:]
        if seen and max(seen) >= args.stop:
            os.kill(pid, signal.SIGKILL)
            break
    os.waitpid(pid, 0)
    window = [c for c in seen if c >= args.start]
    if len(window) < 2:
        sys.exit("cycle_rate: the run ended before two progress lines of the window (is it long enough?)")
    a, b = min(window), max(window)
    wall = seen[b][0] - seen[a][0]
    cpu = seen[b][1] - seen[a][1]
    print(f"{(b - a) / wall:.1f} cycles/s, {1000 * cpu / (b - a):.3f} CPU ms per cycle (cycles {a}..{b})")


if __name__ == "__main__":
    main()
