#!/bin/sh
# slurm_e2e.sh — the Slurm scripts for real: starts a one-node Slurm cluster on this machine in a temporary
# directory (its own munged, slurmctld and slurmd, on ports of their own), submits tools/slurm/submit.sh's
# three-shard array on tests/data/tune/scale.ini (lavapipe) and the merge + export job that depends on it, waits for
# them (300 s at most) and checks the merged database (the 36 configurations of the space, each shard's 12) and the
# export's manifest. Every daemon it started is stopped on exit; on failure the daemons' and jobs' logs are printed.
# Needs root (slurmd starts jobs as their user) and Debian's slurmctld, slurmd, munge and slurm-client packages
# (tools/setup.sh installs them); without them it is skipped (exit 77) and says why. A daemon that exits while the
# cluster starts (slurmd where the machine has no cgroups, say) skips it at once with the end of that daemon's log;
# one that exits later, or a node that Slurm takes out of service, fails it at once. Every wait is bounded in
# seconds, each Slurm command by `timeout`.
#
#   sh tests/slurm/slurm_e2e.sh BINARY SOURCE_DIR
# shellcheck disable=SC2317 # cleanup, node_idle and job_done are called through trap and wait_for
set -u
if [ $# -ne 2 ]; then
    echo "usage: $0 BINARY SOURCE_DIR" >&2
    exit 2
fi
BIN=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
SRC=$(cd "$2" && pwd)
[ "$(id -u)" = 0 ] || { echo "skip: needs root to run slurmd and munged (running as $(id -un))"; exit 77; }
for tool in munged mungekey slurmctld slurmd sbatch squeue scontrol sinfo; do
    command -v "$tool" >/dev/null 2>&1 || PATH=$PATH:/usr/sbin:/sbin
    command -v "$tool" >/dev/null 2>&1 ||
        { echo "skip: $tool not found (tools/setup.sh installs slurmctld slurmd munge slurm-client)"; exit 77; }
done
"$BIN" devices >/dev/null 2>&1 || { echo "skip: no Vulkan device (vkautotune devices fails)"; exit 77; }
command -v python3 >/dev/null 2>&1 || { echo "skip: python3 is needed to read the databases"; exit 77; }

T=$(mktemp -d "${TMPDIR:-/tmp}/vkat-slurm.XXXXXX") || exit 1
chmod 755 "$T"
started=$(date +%s)
pids=""
daemons="" # NAME:PID:LOG of each daemon started, watched while waiting
up=0
status=1
array=""
merge=""
show_logs() {
    for f in "$T"/log/*; do
        [ -f "$f" ] || continue
        echo "---- $f"
        tail -n 60 "$f"
    done
    for f in "$T"/out/logs/*; do
        [ -f "$f" ] || continue
        echo "---- $f"
        cat "$f"
    done
}
cleanup() {
    [ "$status" -eq 0 ] || [ "$status" -eq 77 ] || show_logs
    # Jobs still queued or running (a timeout) go first: slurmstepd outlives slurmd.
    if [ -n "$array$merge" ] && [ "$status" -ne 0 ]; then
        # shellcheck disable=SC2086 # an empty id drops out
        timeout 10 scancel $array $merge 2>/dev/null
        sleep 2
    fi
    for p in $pids; do
        kill "$p" 2>/dev/null
    done
    for p in $pids; do
        i=0
        while kill -0 "$p" 2>/dev/null && [ "$i" -lt 50 ]; do
            sleep 0.1
            i=$((i + 1))
        done
        kill -9 "$p" 2>/dev/null
    done
    rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 1' INT TERM

fail() {
    echo "FAIL: $*"
    exit 1
}
# start NAME LOG COMMAND...: runs a daemon in the foreground of a background job, watched by daemons_alive.
start() {
    name=$1
    log=$2
    shift 2
    "$@" >>"$log" 2>&1 &
    pids="$pids $!"
    daemons="$daemons $name:$!:$log"
}
# daemons_alive: every daemon started still runs. One that exited while the cluster was starting means this machine
# cannot run it (exit 77, its reason from its log); one that exited after is a failure.
daemons_alive() {
    for d in $daemons; do
        name=${d%%:*}
        rest=${d#*:}
        pid=${rest%%:*}
        log=${rest#*:}
        kill -0 "$pid" 2>/dev/null && continue
        wait "$pid" 2>/dev/null
        rc=$?
        reason=$(grep -v '^[[:space:]]*$' "$log" | tail -n 5 | sed 's/^/  | /')
        if [ "$up" -eq 0 ]; then
            echo "skip: $name exited (status $rc) while the cluster started, after $(($(date +%s) - started)) s:"
            echo "$reason"
            status=77
            exit 77
        fi
        fail "$name exited (status $rc) after $(($(date +%s) - started)) s:
$reason"
    done
    # Once up, a node that Slurm takes out of service (it could not start a job, say) fails at once, with why.
    if [ "$up" -eq 1 ]; then
        node=$(timeout 10 sinfo -h -N -o '%T %E' 2>/dev/null | head -n 1)
        case $node in
        down* | drain* | fail*)
            fail "the node is ${node%% *} after $(($(date +%s) - started)) s: ${node#* }
$(grep -v '^[[:space:]]*$' "$T/log/slurmd.log" | tail -n 5 | sed 's/^/  | /')"
            ;;
        esac
    fi
}
# wait_for SECONDS DESCRIPTION COMMAND...: polls COMMAND every half second until it succeeds, for at most SECONDS
# of wall time (a Slurm command that hangs is cut by its own timeout), stopping at once if a daemon exits.
wait_for() {
    secs=$1
    what=$2
    shift 2
    limit=$(($(date +%s) + secs))
    while ! "$@" >/dev/null 2>&1; do
        daemons_alive
        [ "$(date +%s)" -lt "$limit" ] ||
            fail "$what: not after $secs s$(timeout 10 sinfo -h -N -o ' (node %T: %E)' 2>/dev/null)"
        sleep 0.5
    done
}

mkdir -p "$T/log" "$T/state" "$T/spool" "$T/munge" "$T/out"
chmod 700 "$T/munge"

# ---- munge: its own key and socket --------------------------------------------------------------------------------
mungekey --create --keyfile="$T/munge/munge.key" >"$T/log/mungekey.log" 2>&1 || fail "mungekey"
start munged "$T/log/munged.log" munged --foreground --force --socket="$T/munge/munge.sock" \
    --key-file="$T/munge/munge.key" --pid-file="$T/munge/munged.pid" --log-file="$T/log/munged.log" \
    --seed-file="$T/munge/munged.seed"
wait_for 20 "munged's socket" test -S "$T/munge/munge.sock"

# ---- Slurm: controller and one node (this machine, 2 CPUs), ports of our own ----------------------------------------
port=$((20000 + $$ % 20000))
cat >"$T/slurm.conf" <<CONF
ClusterName=vkat-e2e
SlurmctldHost=localhost
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
AuthInfo=socket=$T/munge/munge.sock
CredType=cred/munge
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd.pid
SlurmctldLogFile=$T/log/slurmctld.log
SlurmdLogFile=$T/log/slurmd.log
SlurmctldDebug=info
SlurmdDebug=info
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SwitchType=switch/none
MpiDefault=none
ReturnToService=2
MinJobAge=600
NodeName=localhost NodeAddr=127.0.0.1 CPUs=2 State=UNKNOWN
PartitionName=debug Nodes=ALL Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$T/slurm.conf"
start slurmctld "$T/log/slurmctld.log" slurmctld -D -i -f "$T/slurm.conf"
start slurmd "$T/log/slurmd.log" slurmd -D -N localhost -f "$T/slurm.conf"
node_idle() { timeout 10 sinfo -h -N -o %T 2>/dev/null | grep -q '^idle'; }
wait_for 60 "the node to come up idle" node_idle
up=1
echo "slurm up after $(($(date +%s) - started)) s (ports $port, $((port + 1)))"

# ---- the array and the merge ----------------------------------------------------------------------------------------
sh "$SRC/tools/slurm/submit.sh" --space "$SRC/tests/data/tune/scale.ini" --out "$T/out" --shards 3 --bin "$BIN" \
    --tune-args "--strategy exhaustive --warmup 0 --repetitions 2" >"$T/log/submit.log" 2>&1 ||
    fail "submit.sh: $(cat "$T/log/submit.log")"
cat "$T/log/submit.log"
array=$(sed -n 's/^array all: job \([0-9]*\) .*/\1/p' "$T/log/submit.log")
merge=$(sed -n 's/^merge: job \([0-9]*\) .*/\1/p' "$T/log/submit.log")
if [ -z "$array" ] || [ -z "$merge" ]; then
    fail "no job ids from submit.sh"
fi
job_done() { timeout 10 squeue -h -j "$array,$merge" -o %i >"$T/squeue.out" 2>/dev/null && [ ! -s "$T/squeue.out" ]; }
wait_for 300 "jobs $array and $merge to finish" job_done
state() { timeout 10 scontrol show job "$1" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p' | sort -u | tr '\n' ' '; }
echo "array $array: $(state "$array"); merge $merge: $(state "$merge") (after $(($(date +%s) - started)) s)"
[ "$(state "$array")" = "COMPLETED " ] || fail "the array did not complete: $(state "$array")"
[ "$(state "$merge")" = "COMPLETED " ] || fail "the merge job did not complete: $(state "$merge")"

# ---- the results ----------------------------------------------------------------------------------------------------
python3 - "$T/out" >"$T/log/check.log" 2>&1 <<'PY' || fail "results: $(cat "$T/log/check.log")"
import json, os, sqlite3, sys
out = sys.argv[1]
def configs(db):
    return {r[0] for r in sqlite3.connect(db).execute("SELECT config FROM results")}
shards = [configs(f"{out}/db/all-shard{k}-of-3.db") for k in range(3)]
merged = configs(f"{out}/merged.db")
assert [len(s) for s in shards] == [12, 12, 12], f"shard sizes {[len(s) for s in shards]}"
assert len(merged) == 36 and merged == shards[0] | shards[1] | shards[2], f"merged {len(merged)} configurations"
kernels = [k for k in json.load(open(f"{out}/export/manifest.json"))["kernels"] if k["role"] == "winner"]
best = sqlite3.connect(f"{out}/merged.db").execute(
    "SELECT config FROM results WHERE status = 'ok' ORDER BY median_s, id LIMIT 1").fetchone()[0]
assert len(kernels) == 1 and kernels[0]["config"] == best, f"exported {[k['config'] for k in kernels]}, best {best}"
assert os.path.getsize(f"{out}/export/{kernels[0]['spirv']}") > 20, "no SPIR-V"
print(f"merged 36 configurations (3 x 12); exported {best}")
PY
cat "$T/log/check.log"
echo "slurm_e2e: ok in $(($(date +%s) - started)) s"
status=0
exit 0
