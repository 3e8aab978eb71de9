# shellcheck shell=bash
# The yosys front end shared by scripts/synth.sh (estimates) and scripts/netlist.sh (gate-level
# netlist for re-simulation). Sourced, not run. One definition of "read the RTL, set the top's
# parameters, synthesize to generic gates", so the estimate and the re-simulated netlist are built
# by the same commands.
#
#   source scripts/yosys-frontend.sh
#   hx_rtl_files                        # fills the array HX_RTL_FILES from rtl/sources.txt, the
#                                       # one file list: each group in its order, package first
#   hx_yosys_frontend TOP [Name=Value ...] > script.ys
#       read_verilog -sv <all RTL>
#       chparam -set Name Value TOP     (one per override; the others keep the RTL defaults)
#       hierarchy -check -top TOP
#       rename -top TOP
#       synth -flatten -top TOP         (generic gate library: $_AND_, $_MUX_, $_DFF_*_ ...)
#
# With any override, yosys 0.23 elaborates the top as a derived module named
# $paramod\TOP\Name=... and `hierarchy` removes the original TOP as unused, so `synth -top TOP`
# would fail with "Module `TOP' not found". `rename -top TOP` gives the elaborated top its name
# back (a no-op without overrides): `synth -top TOP` then sees the overrides, and the gate-level
# netlist keeps the RTL's module name, which the Verilated model and the tests rely on.

HX_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

hx_rtl_files() {
  HX_RTL_FILES=()
  local group file
  while read -r group file; do
    [[ -z "$group" || "$group" == \#* ]] && continue
    HX_RTL_FILES+=("$HX_ROOT/rtl/$file")
  done < "$HX_ROOT/rtl/sources.txt"
}

hx_yosys_frontend() {
  local top="$1"
  shift
  hx_rtl_files
  local f
  for f in "${HX_RTL_FILES[@]}"; do
    if [[ "$f" == *[[:space:]]* ]]; then
      echo "yosys-frontend: RTL path with whitespace is not supported: $f" >&2
      return 1
    fi
  done
  echo "read_verilog -sv ${HX_RTL_FILES[*]}"
  local kv
  for kv in "$@"; do
    if [[ "$kv" != *=* ]]; then
      echo "yosys-frontend: parameter override '$kv' is not of the form Name=Value" >&2
      return 1
    fi
    echo "chparam -set ${kv%%=*} ${kv#*=} $top"
  done
  echo "hierarchy -check -top $top"
  echo "rename -top $top"
  echo "synth -flatten -top $top"
}
