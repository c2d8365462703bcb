#!/bin/sh
# coopmat_sweep.sh — a quick correctness sweep of a cooperative-matrix GEMM on a device that has it (the H200):
# small non-square problems, fp16 and bf16, both B layouts, odd and even K-tile counts, every code path seeded with
# --start and then a random sample. Every measured variant is checked against the space's reference shader; the
# script prints each run's evaluated/failed counts, the variants per code path, then every failed row of the
# database, and exits 1 if any failed (or none was measured: skipped is not passed).
#   cmgemm:  shaders/cmgemm.comp.in (KHR, subgroup scope): every STAGES / PF / FB path
#   cm2gemm: shaders/cm2gemm.comp.in (VK_NV_cooperative_matrix2, workgroup scope): LOAD = 0 with KU = 1, 2, 4 and
#            LOAD = 1 with STAGES = 1, 2
#
#   sh bench/coopmat_sweep.sh cmgemm|cm2gemm BINARY OUTDIR [BUDGET]
#   (BUDGET: evaluations per run after the seeds; default 40 for cmgemm, 8 for cm2gemm, whose space is smaller)
set -u
TEMPLATE=$1
BIN=$2
OUT=$3
DB=$OUT/${TEMPLATE}_sweep.db
mkdir -p "$OUT"
# K=480: 30 tiles of BK=16, 15 (odd) of BK=32. K=448: 28 of 16, 14 of 32, 7 (odd) of 64.
case $TEMPLATE in
cmgemm)
    BUDGET=${4:-40}
    PREFIX="FM=16,FN=16,FK=16,"  # the seeds name every other parameter (the H200's 16x16x16 fragments)
    A="M=512,N=384,K=480"
    B="M=384,N=512,K=448"
    SA="WG_M=2,WG_N=2,TM=4,TN=4,BK=32,STAGES=1,PF=1,FB=0,PAD=1,SWZ=4 WG_M=2,WG_N=2,TM=4,TN=4,BK=32,STAGES=1,PF=1,FB=1,PAD=1,SWZ=4
WG_M=2,WG_N=2,TM=4,TN=4,BK=16,STAGES=3,PF=0,FB=0,PAD=1,SWZ=4 WG_M=2,WG_N=2,TM=2,TN=2,BK=32,STAGES=3,PF=0,FB=1,PAD=1,SWZ=4
WG_M=2,WG_N=2,TM=4,TN=4,BK=32,STAGES=2,PF=0,FB=1,PAD=1,SWZ=1 WG_M=2,WG_N=2,TM=4,TN=4,BK=32,STAGES=1,PF=0,FB=0,PAD=1,SWZ=4"
    SB="WG_M=2,WG_N=2,TM=4,TN=4,BK=64,STAGES=1,PF=1,FB=0,PAD=1,SWZ=1 WG_M=2,WG_N=2,TM=4,TN=4,BK=64,STAGES=1,PF=1,FB=1,PAD=1,SWZ=1
WG_M=2,WG_N=2,TM=4,TN=4,BK=16,STAGES=3,PF=0,FB=0,PAD=1,SWZ=1 WG_M=2,WG_N=2,TM=2,TN=2,BK=32,STAGES=3,PF=0,FB=1,PAD=1,SWZ=1
WG_M=2,WG_N=2,TM=4,TN=4,BK=32,STAGES=2,PF=0,FB=1,PAD=1,SWZ=1 WG_M=2,WG_N=2,TM=4,TN=4,BK=64,STAGES=1,PF=0,FB=0,PAD=1,SWZ=1"
    ;;
cm2gemm)
    BUDGET=${4:-8}
    PREFIX=""
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
    ;;
*)
    echo "usage: sh bench/coopmat_sweep.sh cmgemm|cm2gemm BINARY OUTDIR [BUDGET]" >&2
    exit 2
    ;;
esac
# run SPACE PROBLEM SEED_CONFIGS...
run() {
    space=$1 problem=$2
    shift 2
    starts=""
    for c in "$@"; do starts="$starts --start $PREFIX$c"; done
    log="$OUT/sweep-$space-$(echo "$problem" | tr ',=' '-_').txt"
    # shellcheck disable=SC2086 # starts holds several words on purpose
    "$BIN" "shaders/$TEMPLATE.comp.in" --space "spaces/$space.ini" --problem "$problem" --strategy random --seed 1 \
        --budget "$BUDGET" --db "$DB" --warmup 0.01 --repetitions 3 --top 3 -q $starts >"$log" 2>&1
    echo "$space $problem: exit $? $(grep '^strategy' "$log")"
}
# shellcheck disable=SC2086 # the seed lists split into configurations on purpose
{
    run "${TEMPLATE}_f16" "$A,BT=0" $SA
    run "${TEMPLATE}_f16" "$B,BT=1" $SB
    run "${TEMPLATE}_bf16" "$B,BT=0" $SB
    run "${TEMPLATE}_bf16" "$A,BT=1" $SA
}
python3 - "$DB" "$TEMPLATE" <<'PY'
import collections, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
try:
    rows = db.execute("SELECT kernel, problem, config, status, reason FROM results").fetchall()
except sqlite3.OperationalError:  # no database: nothing was measured
    rows = []


def code_path(kv):
    if sys.argv[2] == "cmgemm":
        return "STAGES=%s,PF=%s,FB=%s" % (kv["STAGES"], kv["PF"], kv["FB"])
    return "LOAD=0,KU=%s" % kv["KU"] if kv["LOAD"] == "0" else "LOAD=1,STAGES=%s" % kv["STAGES"]


seen = collections.Counter()
for kernel, problem, config, status, reason in rows:
    kv = dict(p.split("=") for p in config.split(","))
    seen["%s %s" % (code_path(kv), "ok" if status == "ok" else status)] += 1
for k in sorted(seen):
    print("  %-28s %d" % (k, seen[k]))
bad = [r for r in rows if r[3] != "ok"]
for r in bad:
    print("FAILED", *r)
print("%d variants, %d failed" % (len(rows), len(bad)))
sys.exit(1 if bad or not rows else 0)  # none measured: skipped, not passed
PY
