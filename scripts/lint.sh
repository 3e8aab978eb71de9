#!/usr/bin/env bash
# Lint the RTL with Verilator, one top (and parameter set) at a time: several tops in one run
# would trigger MULTITOP. Any warning or error fails the script. --assert: the assertions
# (rtl/hx_assert.svh) are linted too, as every model is Verilated with them (docs/formal.md).
#
#   scripts/lint.sh            (run from anywhere; `make lint` calls it)
set -euo pipefail

# One entry per lint run: "TOP [-GParam=value ...]". The 1x1, 2x2 and 3x3 planes and the 3x2 cover
# every router position (corners, edges, interior, non-square). The 4x4 and 8x8 planes are left
# to the build: rtl/CMakeLists.txt Verilates 4x4, 4x4l4 and 8x8v4 with -Wall --assert, where any
# warning fails the configure step, and linting them again here took 21 (4x4) and 35 (8x8)
# seconds, which pushed `make lint` past its budget. The runs go in parallel, one per core. The local lanes
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
  "hx_board_plane -GSizeX=1 -GSizeY=1"
  "hx_board_plane -GSizeX=3 -GSizeY=3"
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

# Each run writes Verilator's output to its own file and exits 0 only when Verilator succeeded
# and said nothing; the runs go in parallel, at most one per core, and are reported in order.
OUT="$(mktemp -d)"
trap 'rm -rf "$OUT"' EXIT
lint_run() {   # lint_run N "TOP [-GParam=value ...]" FILE...
  local n="$1" run="$2"
  shift 2
  local words
  read -r -a words <<<"$run"
  verilator --lint-only -Wall --assert --top-module "${words[0]}" "${words[@]:1}" -Irtl "$@" >"$OUT/$n" 2>&1 \
    && [[ ! -s "$OUT/$n" ]]
}
JOBS="$(nproc)"
RUNS=() PIDS=()
start() {   # start "RUN" FILE...: in the background, once fewer than JOBS runs are going
  while (($(jobs -rp | wc -l) >= JOBS)); do wait -n || true; done
  lint_run "${#RUNS[@]}" "$@" &
  PIDS+=("$!")
  RUNS+=("$1")
}
for run in "${LINT_RUNS[@]}"; do start "$run" "${FILES[@]}"; done
for run in "${RED_LINT_RUNS[@]}"; do start "$run" "${RED_FILES[@]}"; done
failed=0
for n in "${!RUNS[@]}"; do
  if wait "${PIDS[$n]}"; then
    echo "lint: ${RUNS[$n]} clean"
  else
    echo "lint: ${RUNS[$n]} FAILED" >&2
    cat "$OUT/$n" >&2
    failed=1
  fi
done
exit "$failed"
