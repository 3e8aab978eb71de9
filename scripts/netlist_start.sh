#!/usr/bin/env bash
# Start scripts/netlist.sh in the background and return at once (rtl/gatelevel.cmake: yosys runs
# while CMake Verilates the RTL models).
#
#   scripts/netlist_start.sh TOP OUT.v [Name=Value ...]
#
# OUT.v.rc gets netlist.sh's exit status when it ends (written under another name and renamed, so
# a reader never sees half of it); its output goes to OUT.v.out. The job leads its own process
# group, whose id OUT.v.pid holds while it runs: a synthesis that an interrupted configure left
# running is stopped here first, since it would race this one.
set -euo pipefail

if (( $# < 2 )); then
  echo "usage: $0 TOP OUT.v [Name=Value ...]" >&2
  exit 2
fi
out="$2"
netlist="$(dirname "${BASH_SOURCE[0]}")/netlist.sh"

if [[ -e "$out.pid" ]]; then
  kill -- "-$(cat "$out.pid")" 2>/dev/null || true
  rm -f "$out.pid"
fi
rm -f "$out.rc" "$out.rc.tmp"
mkdir -p "$(dirname "$out")"

job() {
  echo $$ > "$out.pid"
  local rc=0
  bash "$netlist" "$@" || rc=$?
  echo "$rc" > "$out.rc.tmp"
  rm -f "$out.pid"
  mv -f "$out.rc.tmp" "$out.rc"
}
export -f job
export out netlist
setsid bash -c 'job "$@"' job "$@" </dev/null >"$out.out" 2>&1 &
