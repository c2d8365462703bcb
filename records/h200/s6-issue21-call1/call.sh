#!/bin/sh
# Issue 21 on the H200, one command: the tensor-core peaks (vkautotune peaks --refresh), the int8 GEMM
# (spaces/cmgemm_s8.ini, checked exactly) against its measured int8 peak and torch._int_mm, the best known fp16/bf16
# GEMM configurations re-measured against their measured peak and cuBLAS, and the K-loop isolation experiment
# (bench/isolate/cmgemm_iso_f16.ini: ISO = 0, 1, 2 of the same configurations). Run from the repository root after
# `. .gl/enter.sh`; results go to $WORK (default ./out-h200): peaks.txt, peaks.json, gemm_int8.md, gemm_f16.md,
# iso.txt, their logs and the database s6.db, and with $OUT set, all of it as $OUT/issue21.tar.gz plus the text
# files. INT8_BUDGET, F16_BUDGET: per-problem tuning budgets (default 45s, 4).
set -u
RESULTS=${OUT:-}
OUT=${WORK:-out-h200}
mkdir -p "$OUT"
B=./build/vkautotune
DB=$OUT/s6.db
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,temperature.gpu,power.draw --format=csv > "$OUT/gpu.txt" 2>&1
$B peaks --db "$DB" --refresh > "$OUT/peaks.txt" 2>&1
$B peaks --db "$DB" --json > "$OUT/peaks.json" 2>&1
cat "$OUT/peaks.txt"
# int8: seeds translated from the best fp16 configurations (same bytes per K step), then a timed search
S8A="FM=16,FN=16,FK=32,WG_M=2,WG_N=2,TM=4,TN=4,BK=128,STAGES=1,PF=1,FB=0,PAD=1,SWZ=16"
S8B="FM=16,FN=16,FK=32,WG_M=2,WG_N=2,TM=4,TN=4,BK=64,STAGES=2,PF=0,FB=1,PAD=1,SWZ=16"
S8C="FM=16,FN=16,FK=32,WG_M=2,WG_N=2,TM=4,TN=2,BK=128,STAGES=1,PF=1,FB=0,PAD=1,SWZ=16"
python3 bench/gemm_vs_cublas.py --bin $B --templates cmgemm --only int8 --budget "${INT8_BUDGET:-45s}" \
    --db "$DB" --start "$S8A" --start "$S8B" --start "$S8C" --out "$OUT/gemm_int8.md" > /dev/null 2> "$OUT/gemm_int8.log"
# fp16/bf16: the best known configurations of BENCHMARKS.md (sessions 3-5), re-measured with a few more
F1="BM=128,BN=128,BK=64,NSG=4,LOAD=0,KU=4,KW=16,STAGES=1,PAD=0,SWZ=1"
F2="BM=128,BN=128,BK=64,NSG=4,LOAD=0,KU=8,KW=16,STAGES=1,PAD=0,SWZ=8"
C1="FM=16,FN=16,FK=16,WG_M=2,WG_N=2,TM=4,TN=4,BK=64,STAGES=1,PF=1,FB=0,PAD=1,SWZ=16"
C2="FM=16,FN=16,FK=16,WG_M=2,WG_N=2,TM=4,TN=2,BK=64,STAGES=1,PF=1,FB=0,PAD=1,SWZ=16"
python3 bench/gemm_vs_cublas.py --bin $B --templates cm2gemm --only fp16,bf16 --budget "${F16_BUDGET:-4}" \
    --db "$DB" --start "$F1" --start "$F2" --start "$C1" --start "$C2" --out "$OUT/gemm_f16.md" > /dev/null 2> "$OUT/gemm_f16.log"
# isolation: the same two cmgemm configurations with ISO = 0, 1, 2 at 4096^3 and 8192^3 (no check: ISO > 0 is wrong)
for P in M=4096,N=4096,K=4096 M=8192,N=8192,K=8192; do
    for ISO in 0 1 2; do
        echo "== $P ISO=$ISO"
        $B shaders/cmgemm.comp.in --space bench/isolate/cmgemm_iso_f16.ini --problem "$P,ISO=$ISO" --db "$DB" --budget 2 \
            --strategy random --start "$C1" --start "$C2" --stats -q --top 2 2>&1
    done
done > "$OUT/iso.txt"
echo "---- int8"; cat "$OUT/gemm_int8.md" | head -8
echo "---- fp16/bf16"; cat "$OUT/gemm_f16.md" | head -16
echo "---- iso"; grep -E "^==|^ +[12] " "$OUT/iso.txt"
if [ -n "$RESULTS" ]; then
    tar -czf "$RESULTS/issue21.tar.gz" -C "$OUT" --exclude gemm_export . 2>/dev/null
    cp "$OUT/peaks.txt" "$OUT/gemm_int8.md" "$OUT/gemm_f16.md" "$OUT/iso.txt" "$RESULTS/" 2>/dev/null
fi
