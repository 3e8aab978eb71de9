#!/usr/bin/env bash
# `make test-slurm`: hxsim sweep's Slurm backend on a one-node Slurm started here (docs/sweeps.md).
#
#   scripts/test_slurm.sh HXSIM
#
# Starts munged, slurmctld and slurmd with a configuration in a temporary folder (no systemd: the
# daemons are started by hand and stopped by their pid files, whatever happens), runs a 6-point
# sweep through `hxsim sweep --backend slurm`, runs the same sweep with the local backend, and
# checks that every point's results are the same but for the wall-clock fields. Without root the
# daemons cannot run as configured: the test says it is skipped, and why, and exits 0.
# ../shared/toolchain.md lists the pitfalls this follows.
set -euo pipefail

HXSIM="$(readlink -f "${1:?usage: $0 HXSIM}")"
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

if [[ "$(id -u)" -ne 0 ]]; then
  echo "test-slurm: SKIPPED: the one-node Slurm runs its daemons as root (SlurmUser=root); run as root"
  exit 0
fi
bash "$ROOT/scripts/setup-deps.sh" --slurm

T="$(mktemp -d /tmp/hxsim-slurm.XXXXXX)"
stop() {
  for pid in "$T"/slurmd.pid "$T"/slurmctld.pid "$T"/munged.pid; do
    [[ -f "$pid" ]] && kill "$(cat "$pid")" 2>/dev/null || true
  done
  sleep 1
  rm -rf "$T"
}
trap stop EXIT

# munge: a key of its own, a socket in a folder of mode 755.
mkdir -p "$T/munge" "$T/state" "$T/spool" "$T/log"
chmod 755 "$T/munge"
mungekey --create --keyfile="$T/munge.key" --force >/dev/null 2>&1 || mungekey -c -k "$T/munge.key" -f
chmod 600 "$T/munge.key"
munged --socket="$T/munge/munge.socket.2" --key-file="$T/munge.key" --pid-file="$T/munged.pid" \
  --log-file="$T/log/munged.log" --seed-file="$T/munge.seed" --force

NODE="$(hostname -s)"
CPUS="$(nproc)"
cat >"$T/slurm.conf" <<EOF
ClusterName=hxsim
SlurmctldHost=$NODE
SlurmUser=root
AuthType=auth/munge
AuthInfo=socket=$T/munge/munge.socket.2
CredType=cred/munge
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd.pid
SlurmctldLogFile=$T/log/slurmctld.log
SlurmdLogFile=$T/log/slurmd.log
SlurmctldPort=16817
SlurmdPort=16818
ReturnToService=2
NodeName=$NODE CPUs=$CPUS State=UNKNOWN
PartitionName=debug Nodes=$NODE Default=YES MaxTime=INFINITE State=UP
EOF
export SLURM_CONF="$T/slurm.conf"
slurmctld
slurmd
for _ in $(seq 60); do
  sinfo -h -o %t 2>/dev/null | grep -q idle && break
  sleep 1
done
if ! sinfo -h -o %t | grep -q idle; then
  echo "test-slurm: FAILED: the node did not come up idle:"; sinfo || true; tail -20 "$T"/log/*.log
  exit 1
fi

# The 6-point sweep: 2 routings x 3 loads of the 8x8 mesh, short runs.
cat >"$T/sweep.yaml" <<EOF
name: slurm_check
base: $ROOT/configs/mesh8x8_uniform.yaml
set: [run.measure=2000cycles]
axes:
  routing.algorithm: [xy, north_last]
  traffic.injection_rate: [0.1, 0.2, 0.3]
EOF
"$HXSIM" sweep "$T/sweep.yaml" --backend slurm --out "$T/slurm"
"$HXSIM" sweep "$T/sweep.yaml" --backend local -j 2 --out "$T/local" --quiet

python3 - "$T/slurm" "$T/local" <<'EOF'
import json, sys
slurm, local = sys.argv[1], sys.argv[2]
plan = json.load(open(f"{slurm}/sweep.json"))
wall = {"wall_seconds", "cycles_per_second", "router_cycles_per_second", "flit_hops_per_second", "peak_rss_mb"}
def strip(doc):
    doc["sim"] = {k: v for k, v in doc["sim"].items() if k not in wall}
    doc.pop("hxsim", None)
    return doc
bad = 0
for p in plan["points"]:
    a = strip(json.load(open(f"{slurm}/{p['dir']}/results.json")))
    b = strip(json.load(open(f"{local}/{p['dir']}/results.json")))
    if a != b:
        bad += 1
        print(f"test-slurm: {p['dir']} differs between the backends")
print(f"test-slurm: {len(plan['points'])} points through Slurm, {bad} differing from the local backend")
sys.exit(1 if bad else 0)
EOF
echo "test-slurm: PASSED"
