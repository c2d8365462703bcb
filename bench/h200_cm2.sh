#!/bin/sh
# h200_cm2.sh — the VK_NV_cooperative_matrix2 templates on the H200 (issues 5 and 12), one device session:
#   1. bench/cm2gemm_sweep.sh: every loading path of shaders/cm2gemm.comp.in, fp16 and bf16, both B layouts, on
#      small non-square problems, each variant checked against the reference;
#   2. bench/gemm_vs_cublas.py --templates cm2gemm at GEMM_PROBLEMS for GEMM_DTYPES, cuBLAS in the same run;
#   3. attention_fa_cm2_f16: a seeded tune (--stats: registers, spills), then bench/llm_kernels.py resumes it from
#      the same database and measures SDPA on the same shape.
# Run from a tree holding build/vkautotune, build/bench/gemm_verify, shaders/, spaces/, bench/ after
# `. .gl/enter.sh`; results go to $OUT. Budgets in seconds: coopmat2 pipelines take seconds each to create.
set -u
OUT=${OUT:-out-h200}
B=./build/vkautotune
GEMM_PROBLEMS=${GEMM_PROBLEMS:-4096x4096x4096}
GEMM_DTYPES=${GEMM_DTYPES:-fp16}
GEMM_BUDGET=${GEMM_BUDGET:-40s}
FA_BUDGET=${FA_BUDGET:-30s}
SWEEP=${SWEEP:-6}
mkdir -p "$OUT"
$B devices > "$OUT/devices.txt" 2>&1
head -n 4 "$OUT/devices.txt"

if [ "$SWEEP" != 0 ]; then
    echo "== sweep"
    timeout "${SWEEP_TIMEOUT:-80}" sh bench/cm2gemm_sweep.sh $B "$OUT/sweep" "$SWEEP" 2>&1 | tee "$OUT/sweep.txt"
fi

echo "== gemm"
GEMM_SEEDS="BM=128,BN=256,BK=32,NSG=8,LOAD=0,KU=2,KW=16,STAGES=1,PAD=0,SWZ=8
BM=128,BN=256,BK=64,NSG=8,LOAD=0,KU=1,KW=16,STAGES=1,PAD=0,SWZ=8
BM=256,BN=128,BK=32,NSG=8,LOAD=0,KU=2,KW=16,STAGES=1,PAD=0,SWZ=8
BM=128,BN=128,BK=32,NSG=4,LOAD=0,KU=4,KW=16,STAGES=1,PAD=0,SWZ=8
BM=128,BN=128,BK=32,NSG=8,LOAD=1,KU=1,KW=16,STAGES=2,PAD=1,SWZ=8
BM=128,BN=128,BK=64,NSG=4,LOAD=1,KU=1,KW=32,STAGES=1,PAD=1,SWZ=8
BM=128,BN=256,BK=32,NSG=8,LOAD=1,KU=1,KW=32,STAGES=1,PAD=1,SWZ=8
BM=128,BN=256,BK=16,NSG=8,LOAD=1,KU=1,KW=16,STAGES=2,PAD=1,SWZ=8
${EXTRA_GEMM_SEEDS:-}"
starts=""
for c in $GEMM_SEEDS; do starts="$starts --start $c"; done
# shellcheck disable=SC2086 # starts holds several words on purpose
timeout "${GEMM_TIMEOUT:-150}" python3 bench/gemm_vs_cublas.py --bin $B --templates cm2gemm --only "$GEMM_DTYPES" \
    --problems "$GEMM_PROBLEMS" --budget "$GEMM_BUDGET" --out "$OUT/gemm/gemm_vs_cublas.md" $starts \
    > "$OUT/gemm.txt" 2>&1
echo "gemm exit $?"

echo "== attention"
FA_SEEDS="BR=64,BC=64,NSG=4,LOAD=0,STAGES=1,PAD=0,RSUM=1
BR=128,BC=64,NSG=8,LOAD=0,STAGES=1,PAD=0,RSUM=1
BR=128,BC=32,NSG=8,LOAD=0,STAGES=1,PAD=0,RSUM=0
BR=64,BC=32,NSG=4,LOAD=1,STAGES=2,PAD=1,RSUM=1
BR=128,BC=64,NSG=8,LOAD=1,STAGES=1,PAD=1,RSUM=1
${EXTRA_FA_SEEDS:-}"
starts=""
for c in $FA_SEEDS; do starts="$starts --start $c"; done
# shellcheck disable=SC2086
timeout "${FA_TIMEOUT:-60}" $B shaders/attention_fa_cm2.comp.in --space spaces/attention_fa_cm2_f16.ini \
    --budget "$FA_BUDGET" --db "$OUT/kernels.db" --stats --top 20 $starts > "$OUT/attention_fa_cm2.txt" 2>&1
echo "attention tune exit $?"
timeout "${LLM_TIMEOUT:-60}" python3 bench/llm_kernels.py --only attention_fa_cm2_f16 --budget 5s --db "$OUT/kernels.db" \
    --out "$OUT/llm_kernels.md" --eager-only > "$OUT/llm.txt" 2>&1
echo "llm_kernels exit $?"

tar czf "$OUT/all.tgz" -C "$OUT" --exclude all.tgz . 2>/dev/null
echo "== tables"
tail -n 30 "$OUT/sweep.txt" 2>/dev/null | grep -v '^$' | tail -n 14
sed -n '1,8p' "$OUT/gemm/gemm_vs_cublas.md" 2>/dev/null
grep -v '^$' "$OUT/attention_fa_cm2.txt" | tail -n 24
grep '^|' "$OUT/llm_kernels.md" 2>/dev/null
