#!/usr/bin/env bash
# Write the generic-gate netlist of an RTL top for gate-level re-simulation.
#
#   scripts/netlist.sh TOP OUT.v [Name=Value ...]
#
# Runs the shared front end (scripts/yosys-frontend.sh: read, chparam, synth -flatten) and
# `write_verilog -noattr`. The netlist is one flat module named TOP with the RTL's port list, so
# the same testbench drives the RTL model and the netlist. The yosys script and log are kept next
# to OUT.v (OUT.ys, OUT.log). OUT.v is replaced atomically: an interrupted run leaves no partial
# netlist behind. rtl/gatelevel.cmake calls this at configure time.
set -euo pipefail

if (( $# < 2 )); then
  echo "usage: $0 TOP OUT.v [Name=Value ...]" >&2
  exit 2
fi
top="$1"
out="$2"
shift 2

# shellcheck source=scripts/yosys-frontend.sh
source "$(dirname "${BASH_SOURCE[0]}")/yosys-frontend.sh"

mkdir -p "$(dirname "$out")"
out="$(cd "$(dirname "$out")" && pwd)/$(basename "$out")"
base="${out%.v}"
tmp="$out.tmp.$$"
trap 'rm -f "$tmp"' EXIT

{
  hx_yosys_frontend "$top" "$@"
  echo "check -assert"
  echo "write_verilog -noattr $tmp"
} >"$base.ys"

if ! yosys -q -l "$base.log" -s "$base.ys" >/dev/null; then
  echo "netlist: yosys failed for $top; see $base.log" >&2
  exit 1
fi
mv -f "$tmp" "$out"
