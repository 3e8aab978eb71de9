#!/usr/bin/env bash
# Install everything hxsim needs on Debian 12, idempotently and without prompts.
#
#   scripts/setup-deps.sh          what building, testing and benchmarking need
#   scripts/setup-deps.sh --dev    and the developer tools of `make format` and `make tidy`
#   scripts/setup-deps.sh --fuzz   and clang-14 with libFuzzer for `make fuzz`
#   scripts/setup-deps.sh --slurm  and Slurm with munge for `make test-slurm` (hxsim sweep --backend slurm)
#
# - Debian packages: each is checked with dpkg-query; only if one is missing does this run
#   `apt-get update` (once) and `apt-get install` of the missing ones.
# - The OSU 0.18 um standard-cell Liberty file (for synthesis area estimates) is extracted from
#   the qflow-tech-osu018 .deb into build/deps/osu018 rather than installing that package, which
#   would pull in ~15 others.
#
# Quiet when nothing is needed (a no-op takes well under a second); prints one line otherwise.
set -euo pipefail

# yosys also brings yosys-abc (PDR, BMC) and yosys-smtbmc, all that `make formal` needs.
PACKAGES=(
  cmake g++ make pkg-config
  libsystemc-dev verilator yosys
  libyaml-cpp-dev libgtest-dev libcli11-dev nlohmann-json3-dev libfmt-dev
  ccache z3 python3 python3-matplotlib gtkwave
  openmpi-bin libopenmpi-dev
)
if [[ "${1:-}" == "--dev" ]]; then
  PACKAGES+=(clang-format clang-tidy)
elif [[ "${1:-}" == "--fuzz" ]]; then   # make fuzz: clang-14 with libFuzzer and the sanitizers' runtimes
  PACKAGES+=(clang-14 libclang-rt-14-dev)
elif [[ "${1:-}" == "--slurm" ]]; then  # make test-slurm: a one-node Slurm on this machine
  PACKAGES+=(slurm-wlm munge)
fi

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OSU_DIR="$ROOT/build/deps/osu018"
OSU_LIB="$OSU_DIR/usr/share/qflow/tech/osu018/osu018_stdcells.lib"

missing=()
for pkg in "${PACKAGES[@]}"; do
  status="$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)"
  [[ "$status" == *" ok installed" ]] || missing+=("$pkg")
done

need_osu=0
[[ -f "$OSU_LIB" ]] || need_osu=1

if (( ${#missing[@]} == 0 && need_osu == 0 )); then
  exit 0
fi

# --- something to do from here on ---------------------------------------------------------
SUDO=()
if [[ "$(id -u)" -ne 0 ]]; then
  if command -v sudo >/dev/null 2>&1; then
    SUDO=(sudo -n)   # -n: fail instead of prompting (no stdin in CI)
  else
    echo "setup-deps: not root and sudo is not available; cannot install: ${missing[*]:-qflow-tech-osu018}" >&2
    exit 1
  fi
fi

TMP="$(mktemp -d)"
trap 'rm -rf "$TMP"' EXIT
LOG="$TMP/log"
export DEBIAN_FRONTEND=noninteractive

run_logged() {   # run a command with its output in $LOG; show the log only if it fails
  if ! "$@" >>"$LOG" 2>&1 </dev/null; then
    echo "setup-deps: failed: $*" >&2
    cat "$LOG" >&2
    exit 1
  fi
}

updated=0
apt_update_once() {
  if (( updated == 0 )); then
    run_logged "${SUDO[@]}" apt-get update
    updated=1
  fi
}

done_what=()
if (( ${#missing[@]} > 0 )); then
  apt_update_once
  run_logged "${SUDO[@]}" apt-get install -y --no-install-recommends \
    -o DPkg::Lock::Timeout=300 "${missing[@]}"
  done_what+=("installed ${missing[*]}")
fi

if (( need_osu )); then
  (
    cd "$TMP"
    # apt-get download needs package lists; a fresh image may have none yet.
    if ! apt-get download qflow-tech-osu018 >>"$LOG" 2>&1 </dev/null; then
      apt_update_once
      run_logged apt-get download qflow-tech-osu018
    fi
    mkdir -p "$OSU_DIR"
    run_logged dpkg-deb -x qflow-tech-osu018_*.deb "$OSU_DIR"
  )
  if [[ ! -f "$OSU_LIB" ]]; then
    echo "setup-deps: qflow-tech-osu018 did not contain $OSU_LIB" >&2
    exit 1
  fi
  done_what+=("extracted OSU018 Liberty to ${OSU_LIB#"$ROOT"/}")
fi

echo "setup-deps: $(IFS=';'; echo "${done_what[*]}" | sed 's/;/; /g')"
