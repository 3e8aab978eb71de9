#!/usr/bin/env bash
# Synthesis estimates of the RTL with yosys: generic cells, flip-flops, a transistor estimate,
# and the area on the OSU 0.18 um standard cells. `make synth` runs this; see docs/synthesis.md.
#
#   scripts/synth.sh
#
# For each entry of RUNS it writes, in build/synth/:
#   <name>.ys             the yosys script (shared front end + the STAT_TEMPLATE below)
#   <name>.log            the full yosys log
#   <name>.{generic,cmos,liberty}.txt   the three `stat` reports
#   <name>.json           the figures (scripts/synth_json.py documents each field)
# and prints a table of all runs at the end (scripts/synth_table.py).
#
# The runs are independent yosys processes and run in parallel (HX_SYNTH_JOBS, default 2);
# HX_SYNTH_ONLY selects a subset by name (below).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bash "$ROOT/scripts/setup-deps.sh"

# shellcheck source=scripts/yosys-frontend.sh
source "$ROOT/scripts/yosys-frontend.sh"

LIBERTY="$ROOT/build/deps/osu018/usr/share/qflow/tech/osu018/osu018_stdcells.lib"
OUT="$ROOT/build/synth"
JOBS="${HX_SYNTH_JOBS:-2}"

# One line per run: "<name> <top> [Name=Value ...]". Parameters not named keep the RTL defaults.
# hx_router_l4 is the router with four local lanes (docs/router.md, "Local lanes"). The longest
# run comes first, so that with two jobs the two routers share the other core meanwhile.
# hx_reduction_table_e<N> is one switch port's reduction table with N entries of 128 B
# (docs/reduction-unit.md): 2 = 256 B, 8 = 1 kB, 32 = 4 kB.
RUNS=(
  "hx_reduction_table_e32 hx_reduction_table Entries=32"
  "hx_board_plane_2x2 hx_board_plane SizeX=2 SizeY=2"
  "hx_router          hx_router"
  "hx_router_l4       hx_router LocalPorts=4"
  "hx_reduction_table_e8 hx_reduction_table Entries=8"
  "hx_reduction_table_e2 hx_reduction_table Entries=2"
)
# HX_SYNTH_ONLY="name ..." runs only the named entries, e.g.
#   HX_SYNTH_ONLY="hx_reduction_table_e2 hx_reduction_table_e8" make synth
if [[ -n "${HX_SYNTH_ONLY:-}" ]]; then
  selected=()
  for run in "${RUNS[@]}"; do
    read -r -a words <<<"$run"
    for want in $HX_SYNTH_ONLY; do
      [[ "${words[0]}" == "$want" ]] && selected+=("$run")
    done
  done
  if (( ${#selected[@]} == 0 )); then
    echo "synth: HX_SYNTH_ONLY='$HX_SYNTH_ONLY' names no run" >&2
    exit 2
  fi
  RUNS=("${selected[@]}")
fi

# Everything after the front end, the same for every top. @P@ is the per-run output prefix.
#   1. `stat` of the generic netlist: cells and flip-flops.
#   2. dffunmap turns enable flip-flops into a plain flip-flop plus a mux, which the CMOS cost
#      table can price; `stat -tech cmos` then estimates transistors.
#   3. From the saved generic netlist: map flip-flops and logic onto the Liberty cells, area.
STAT_TEMPLATE='
tee -o @P@.generic.txt stat
design -save generic
dffunmap
opt_clean
tee -o @P@.cmos.txt stat -tech cmos
design -load generic
dfflibmap -liberty @LIB@
abc -liberty @LIB@
opt_clean
tee -o @P@.liberty.txt stat -liberty @LIB@
'

if [[ ! -f "$LIBERTY" ]]; then
  echo "synth: Liberty file missing after setup-deps: $LIBERTY" >&2
  exit 1
fi
mkdir -p "$OUT"
YOSYS_VERSION="$(yosys -V)"

synth_one() {   # synth_one NAME TOP [Name=Value ...]
  local name="$1" top="$2"
  shift 2
  local prefix="$OUT/$name"
  rm -f "$prefix.json" "$prefix".{generic,cmos,liberty}.txt
  {
    hx_yosys_frontend "$top" "$@"
    printf '%s' "$STAT_TEMPLATE" | sed -e "s|@P@|$prefix|g" -e "s|@LIB@|$LIBERTY|g"
  } >"$prefix.ys"

  local t0 t1
  t0="$(date +%s.%N)"
  if ! yosys -q -l "$prefix.log" -s "$prefix.ys" >/dev/null; then
    echo "synth: yosys failed for $name; see ${prefix#"$ROOT"/}.log" >&2
    return 1
  fi
  t1="$(date +%s.%N)"

  local args=()
  local kv
  for kv in "$@"; do args+=(--param "$kv"); done
  python3 "$ROOT/scripts/synth_json.py" \
    --name "$name" --top "$top" --stat-prefix "$prefix" --liberty "$LIBERTY" \
    --rtl-source "$ROOT/rtl/$top.sv" \
    --wall-seconds "$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')" \
    --yosys-version "$YOSYS_VERSION" "${args[@]}" >"$prefix.json.tmp"
  mv -f "$prefix.json.tmp" "$prefix.json"
  echo "synth: $name done in $(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.0f", b - a }') s"
}

start=$SECONDS
pids=()
names=()
for run in "${RUNS[@]}"; do
  read -r -a words <<<"$run"
  # Keep at most JOBS yosys processes running.
  while (( $(jobs -rp | wc -l) >= JOBS )); do sleep 1; done
  synth_one "${words[@]}" &
  pids+=($!)
  names+=("${words[0]}")
done

failed=0
for i in "${!pids[@]}"; do
  wait "${pids[$i]}" || { echo "synth: ${names[$i]} FAILED" >&2; failed=1; }
done
(( failed == 0 )) || exit 1

jsons=()
for n in "${names[@]}"; do jsons+=("$OUT/$n.json"); done
echo
python3 "$ROOT/scripts/synth_table.py" "${jsons[@]}"
echo
echo "synth: total wall time $(( SECONDS - start )) s; results in ${OUT#"$ROOT"/}/"
