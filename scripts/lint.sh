#!/usr/bin/env bash
# Lint the RTL with Verilator, one top (and parameter set) at a time: several tops in one run
# would trigger MULTITOP. Any warning or error fails the script. --assert: the assertions
# (rtl/hx_assert.svh) are linted too, as every model is Verilated with them (docs/formal.md).
#
#   scripts/lint.sh            (run from anywhere; `make lint` calls it)
set -euo pipefail

# One entry per lint run: "TOP [-GParam=value ...]". The planes up to 4x4 and the 3x2 cover every
# router position (corners, edges, interior, non-square). The 8x8 plane is left to the build:
# rtl/CMakeLists.txt Verilates its 8x8v4 variant with -Wall, where any warning fails the
# configure step, and linting it again here took 35 of the script's 50 seconds. The local lanes
# (LocalPorts) are linted at 4 (the most: an 8-port router, full 3-bit port numbers), 2 and 3
# (a port count that is not a power of two), on the router and on planes; the 4x4 plane with four
# lanes is left to the build's -Wall Verilation of 4x4l4 like the 8x8.
LINT_RUNS=(
  "hx_router"
  "hx_router -GNumVcs=1 -GBufDepth=2"
  "hx_router -GNumVcs=4 -GBufDepth=3 -GPayloadWidth=64 -GBoardCoordWidth=6 -GNodeCoordWidth=3"
  "hx_router -GLocalPorts=4"
  "hx_router -GLocalPorts=2 -GNumVcs=1 -GBufDepth=2"
  "hx_board_plane"
  "hx_board_plane -GSizeX=2 -GSizeY=2"
  "hx_board_plane -GSizeX=1 -GSizeY=1"
  "hx_board_plane -GSizeX=4 -GSizeY=4"
  "hx_board_plane -GSizeX=3 -GSizeY=2"
  "hx_board_plane -GSizeX=2 -GSizeY=2 -GLocalPorts=4"
  "hx_board_plane -GSizeX=3 -GSizeY=2 -GLocalPorts=3 -GNumVcs=2"
  # with the proofs' FORMAL-only ports (formal/hx_router_fv.sv reads the state through them)
  "hx_router -DFORMAL"
  "hx_router -DFORMAL -GNumVcs=1 -GBufDepth=1"
)

# The switch reduction unit (docs/reduction-unit.md), linted from its own sources (RED_FILES
# below): one table at 1, 2, 8 and 32 entries (8 is the default) and a narrow time base, and the
# grouped switch at 1 and 16 ports. The ALU array (hx_reduce_alu, hx_fp32_alu) is linted inside
# the table: as a top of its own, the packet-format constants of hx_red_pkg would be unused.
RED_LINT_RUNS=(
  "hx_reduction_table -GEntries=1"
  "hx_reduction_table -GEntries=2"
  "hx_reduction_table"
  "hx_reduction_table -GEntries=32"
  "hx_reduction_table -GEntries=3 -GTimeWidth=8"
  "hx_switch_reduction -GPorts=1 -GEntries=2"
  "hx_switch_reduction -GPorts=16 -GEntries=8"
)
# Its sources, package first. They are kept out of the router runs and the router's out of
# these: Verilator -Wall reports every parameter of a package on the command line that the top
# does not use (UNUSEDPARAM). rtl/CMakeLists.txt (HX_RED_RTL_SOURCES) keeps the same list.
cd "$(dirname "${BASH_SOURCE[0]}")/.."

# The two groups of rtl/sources.txt, the one file list (also read by CMake and synthesis).
FILES=()
RED_FILES=()
while read -r group file; do
  [[ -z "$group" || "$group" == \#* ]] && continue
  case "$group" in
    router) FILES+=("rtl/$file") ;;
    reduction) RED_FILES+=("rtl/$file") ;;
    *) echo "lint: rtl/sources.txt: unknown group '$group'" >&2; exit 1 ;;
  esac
done < rtl/sources.txt

failed=0
lint_run() {   # lint_run "TOP [-GParam=value ...]" FILE...
  local run="$1"
  shift
  local words top params out
  read -r -a words <<<"$run"
  top="${words[0]}"
  params=("${words[@]:1}")
  if out="$(verilator --lint-only -Wall --assert --top-module "$top" "${params[@]}" -Irtl "$@" 2>&1)" \
     && [[ -z "$out" ]]; then
    echo "lint: $run clean"
  else
    echo "lint: $run FAILED" >&2
    [[ -z "$out" ]] || printf '%s\n' "$out" >&2
    failed=1
  fi
}
for run in "${LINT_RUNS[@]}"; do
  lint_run "$run" "${FILES[@]}"
done
for run in "${RED_LINT_RUNS[@]}"; do
  lint_run "$run" "${RED_FILES[@]}"
done
exit "$failed"
