#!/bin/sh
# cm2gemm_sweep.sh — a quick correctness sweep of the workgroup-scope cooperative-matrix GEMM (shaders/cm2gemm.comp.in,
# VK_NV_cooperative_matrix2) on a device that has it (the H200): small non-square problems, fp16 and bf16, both B
# layouts, odd and even K-tile counts, every loading path (LOAD = 0 with KU = 1, 2, 4; LOAD = 1 with STAGES = 1, 2)
# seeded with --start and then a random sample. Every measured variant is checked against shaders/cmgemm_ref.comp;
# the script prints each run's evaluated/failed counts, then every failed row of the database, and exits 1 if any.
# Like bench/cmgemm_sweep.sh, whose structure it follows.
#
#   sh bench/cm2gemm_sweep.sh BINARY OUTDIR [BUDGET]      (BUDGET: evaluations per run after the seeds, default 8)
set -u
BIN=$1
OUT=$2
BUDGET=${3:-8}
DB=$OUT/cm2gemm_sweep.db
mkdir -p "$OUT"
# run SPACE PROBLEM SEED_CONFIGS...: the seeds name every parameter
run() {
    space=$1 problem=$2
    shift 2
    starts=""
    for c in "$@"; do starts="$starts --start $c"; done
    log="$OUT/sweep-$space-$(echo "$problem" | tr ',=' '-_').txt"
    # shellcheck disable=SC2086 # starts holds several words on purpose
    "$BIN" shaders/cm2gemm.comp.in --space "spaces/$space.ini" --problem "$problem" --strategy random --seed 1 \
        --budget "$BUDGET" --db "$DB" --warmup 0.01 --repetitions 3 --top 3 -q $starts >"$log" 2>&1
    echo "$space $problem: exit $? $(grep '^strategy' "$log")"
}
# K=480: 30 tiles of BK=16, 15 (odd) of BK=32. K=448: 28 of 16, 14 of 32, 7 (odd) of 64.
A="M=512,N=768,K=480"
B="M=768,N=512,K=448"
SA="BM=128,BN=256,BK=32,NSG=8,LOAD=0,KU=1,KW=16,STAGES=1,PAD=0,SWZ=1
BM=64,BN=128,BK=16,NSG=4,LOAD=0,KU=2,KW=16,STAGES=1,PAD=0,SWZ=8
BM=128,BN=128,BK=32,NSG=4,LOAD=1,KU=1,KW=16,STAGES=1,PAD=1,SWZ=1
BM=128,BN=128,BK=32,NSG=8,LOAD=1,KU=1,KW=32,STAGES=2,PAD=1,SWZ=1
BM=64,BN=256,BK=32,NSG=8,LOAD=1,KU=1,KW=16,STAGES=2,PAD=0,SWZ=8"
SB="BM=128,BN=256,BK=64,NSG=8,LOAD=0,KU=1,KW=16,STAGES=1,PAD=0,SWZ=1
BM=256,BN=128,BK=16,NSG=8,LOAD=0,KU=4,KW=16,STAGES=1,PAD=0,SWZ=1
BM=128,BN=128,BK=64,NSG=4,LOAD=1,KU=1,KW=64,STAGES=1,PAD=1,SWZ=1
BM=128,BN=128,BK=32,NSG=8,LOAD=1,KU=1,KW=16,STAGES=2,PAD=1,SWZ=1
BM=64,BN=64,BK=64,NSG=4,LOAD=1,KU=1,KW=32,STAGES=2,PAD=1,SWZ=1"
# shellcheck disable=SC2086 # the seed lists split into configurations on purpose
{
    run cm2gemm_f16 "$A,BT=0" $SA
    run cm2gemm_f16 "$B,BT=1" $SB
    run cm2gemm_bf16 "$B,BT=0" $SB
    run cm2gemm_bf16 "$A,BT=1" $SA
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
    path = "LOAD=0,KU=%s" % kv["KU"] if kv["LOAD"] == "0" else "LOAD=1,STAGES=%s" % kv["STAGES"]
    seen["%s %s" % (path, "ok" if status == "ok" else status)] += 1
for k in sorted(seen):
    print("  %-28s %d" % (k, seen[k]))
bad = [r for r in rows if r[3] != "ok"]
for r in bad:
    print("FAILED", *r)
print("%d variants, %d failed" % (len(rows), len(bad)))
sys.exit(1 if bad or not rows else 0)  # none measured: skipped, not passed
PY
