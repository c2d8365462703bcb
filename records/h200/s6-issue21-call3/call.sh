#!/bin/sh
# Issue 21, third H200 call: (1) the int8 GEMM's seeded winner measured 313 TOPS in call 1 but 82 in call 2's
# from-scratch search, whose own winner sat at 220: the same two configurations measured cold, after 60 s of
# sustained int8 tuning, and again, with the SM clock, power and throttle reasons sampled every 250 ms
# (nvidia-smi, read only); (2) larger workgroup tiles (256 x 128, 128 x 256) for fp16, which need less L2 -> SM
# bandwidth per flop than 128 x 128 (call 2 measured about 7.5 TB/s from an L2-resident window). Results in $WORK,
# tarred into $OUT.
set -u
RESULTS=${OUT:-}
OUT=${WORK:-out-h200-3}
mkdir -p "$OUT"
B=./build/vkautotune
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu,clocks_throttle_reasons.active \
    --format=csv -lms 250 > "$OUT/smi.csv" 2>&1 &
SMI=$!
S8BEST="FM=16,FN=16,FK=32,WG_M=2,WG_N=2,TM=4,TN=4,BK=128,STAGES=1,PF=1,FB=0,PAD=1,SWZ=16"
S8SCR="FM=16,FN=16,FK=32,WG_M=2,WG_N=2,TM=4,TN=4,BK=128,STAGES=1,PF=1,FB=1,PAD=1,SWZ=1"
pair() { # DB LABEL
    echo "== $2 $(date -u +%H:%M:%S)"
    $B shaders/cmgemm.comp.in --space spaces/cmgemm_s8.ini --db "$1" --budget 2 --strategy random \
        --start "$S8BEST" --start "$S8SCR" -q --top 2 2>&1
}
{
    pair "$OUT/i8a.db" "int8 cold"
    echo "== int8 sustained tuning, 60 s $(date -u +%H:%M:%S)"
    $B shaders/cmgemm.comp.in --space spaces/cmgemm_s8.ini --db "$OUT/i8heat.db" --budget 60s --seed 7 -q --top 3 2>&1
    pair "$OUT/i8b.db" "int8 after sustained tuning"
    pair "$OUT/i8c.db" "int8 again"
} > "$OUT/int8_clock.txt"
C1="FM=16,FN=16,FK=16,WG_M=2,WG_N=2,TM=4,TN=4,BK=64,STAGES=1,PF=1,FB=0,PAD=1,SWZ=16"
for P in M=4096,N=4096,K=4096 M=8192,N=8192,K=8192; do
    echo "== fp16 tiles $P $(date -u +%H:%M:%S)"
    $B shaders/cmgemm.comp.in --space spaces/cmgemm_f16.ini --problem "$P" --db "$OUT/tiles.db" --budget 6 \
        --strategy random --start "$C1" \
        --start "FM=16,FN=16,FK=16,WG_M=4,WG_N=2,TM=4,TN=4,BK=32,STAGES=1,PF=1,FB=0,PAD=1,SWZ=16" \
        --start "FM=16,FN=16,FK=16,WG_M=2,WG_N=4,TM=4,TN=4,BK=32,STAGES=1,PF=1,FB=0,PAD=1,SWZ=16" \
        --start "FM=16,FN=16,FK=16,WG_M=4,WG_N=2,TM=4,TN=4,BK=32,STAGES=2,PF=0,FB=0,PAD=1,SWZ=16" \
        --start "FM=16,FN=16,FK=16,WG_M=4,WG_N=2,TM=2,TN=4,BK=64,STAGES=1,PF=1,FB=0,PAD=1,SWZ=16" \
        --start "FM=16,FN=16,FK=16,WG_M=4,WG_N=4,TM=2,TN=2,BK=32,STAGES=1,PF=1,FB=0,PAD=1,SWZ=16" \
        --stats -q --top 6 2>&1
done > "$OUT/tiles.txt"
kill "$SMI" 2>/dev/null
if [ -n "$RESULTS" ]; then
    tar -czf "$RESULTS/issue21c.tar.gz" -C "$OUT" . 2>/dev/null
    cp "$OUT/int8_clock.txt" "$OUT/tiles.txt" "$OUT/smi.csv" "$RESULTS/" 2>/dev/null
fi
echo "---- int8 clocks"; grep -E "^==|^ +[1-3] " "$OUT/int8_clock.txt" | cut -c1-130
echo "---- tiles"; grep -E "^==|^ +[1-6] " "$OUT/tiles.txt" | cut -c1-150
echo "---- smi (every 8th sample)"; awk 'NR % 8 == 1' "$OUT/smi.csv" | cut -c12-100
