#!/bin/sh
# cmgemm_sweep.sh — a quick correctness sweep of the cooperative-matrix GEMM on a device that has it (the H200):
# small non-square problems, fp16 and bf16, both B layouts, odd and even K-tile counts, every STAGES/PF/FB path
# seeded with --start and then a random sample. Every measured variant is checked against shaders/cmgemm_ref.comp;
# the script prints each run's evaluated/failed counts, then every failed row of the database, and exits 1 if any.
#
#   sh bench/cmgemm_sweep.sh BINARY OUTDIR [BUDGET]      (BUDGET: evaluations per run after the seeds, default 40)
set -u
BIN=$1
OUT=$2
BUDGET=${3:-40}
DB=$OUT/cmgemm_sweep.db
mkdir -p "$OUT"
F="FM=16,FN=16,FK=16"
# run SPACE PROBLEM SEED_CONFIGS...: the seeds name every parameter but FM, FN, FK (the H200's 16x16x16)
run() {
    space=$1 problem=$2
    shift 2
    starts=""
    for c in "$@"; do starts="$starts --start $F,$c"; done
    # shellcheck disable=SC2086 # starts holds several words on purpose
    "$BIN" shaders/cmgemm.comp.in --space "spaces/$space.ini" --problem "$problem" --strategy random --seed 1 \
        --budget "$BUDGET" --db "$DB" --warmup 0.01 --repetitions 3 --top 3 -q $starts \
        >"$OUT/sweep-$space-$(echo "$problem" | tr ',=' '-_').txt" 2>&1
    echo "$space $problem: exit $? $(grep '^strategy' "$OUT/sweep-$space-$(echo "$problem" | tr ',=' '-_').txt")"
}
# K=480: 30 tiles of BK=16, 15 (odd) of BK=32. K=448: 28 of 16, 14 of 32, 7 (odd) of 64.
A="M=512,N=384,K=480"
B="M=384,N=512,K=448"
SA="WG_M=2,WG_N=2,TM=4,TN=4,BK=32,STAGES=1,PF=1,FB=0,PAD=1,SWZ=4 WG_M=2,WG_N=2,TM=4,TN=4,BK=32,STAGES=1,PF=1,FB=1,PAD=1,SWZ=4
WG_M=2,WG_N=2,TM=4,TN=4,BK=16,STAGES=3,PF=0,FB=0,PAD=1,SWZ=4 WG_M=2,WG_N=2,TM=2,TN=2,BK=32,STAGES=3,PF=0,FB=1,PAD=1,SWZ=4
WG_M=2,WG_N=2,TM=4,TN=4,BK=32,STAGES=2,PF=0,FB=1,PAD=1,SWZ=1 WG_M=2,WG_N=2,TM=4,TN=4,BK=32,STAGES=1,PF=0,FB=0,PAD=1,SWZ=4"
SB="WG_M=2,WG_N=2,TM=4,TN=4,BK=64,STAGES=1,PF=1,FB=0,PAD=1,SWZ=1 WG_M=2,WG_N=2,TM=4,TN=4,BK=64,STAGES=1,PF=1,FB=1,PAD=1,SWZ=1
WG_M=2,WG_N=2,TM=4,TN=4,BK=16,STAGES=3,PF=0,FB=0,PAD=1,SWZ=1 WG_M=2,WG_N=2,TM=2,TN=2,BK=32,STAGES=3,PF=0,FB=1,PAD=1,SWZ=1
WG_M=2,WG_N=2,TM=4,TN=4,BK=32,STAGES=2,PF=0,FB=1,PAD=1,SWZ=1 WG_M=2,WG_N=2,TM=4,TN=4,BK=64,STAGES=1,PF=0,FB=0,PAD=1,SWZ=1"
# shellcheck disable=SC2086 # the seed lists split into configurations on purpose
{
    run cmgemm_f16 "$A,BT=0" $SA
    run cmgemm_f16 "$B,BT=1" $SB
    run cmgemm_bf16 "$B,BT=0" $SB
    run cmgemm_bf16 "$A,BT=1" $SA
}
python3 - "$DB" <<'PY'
import collections, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
try:
    rows = db.execute("SELECT kernel, problem, config, status, reason FROM results").fetchall()
except sqlite3.OperationalError:  # no database: nothing was measured
    rows = []
seen = collections.Counter()
for kernel, problem, config, status, reason in rows:
    kv = dict(p.split("=") for p in config.split(","))
    seen["STAGES=%s,PF=%s,FB=%s %s" % (kv["STAGES"], kv["PF"], kv["FB"], "ok" if status == "ok" else status)] += 1
for k in sorted(seen):
    print("  %-28s %d" % (k, seen[k]))
bad = [r for r in rows if r[3] != "ok"]
for r in bad:
    print("FAILED", *r)
print("%d variants, %d failed" % (len(rows), len(bad)))
sys.exit(1 if bad or not rows else 0)  # none measured: skipped, not passed
PY
