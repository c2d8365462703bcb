#!/bin/sh
# Issue 21, second H200 call: isolation experiments for what holds the fp16 GEMM's K loop, and the int8 GEMM from
# scratch. (1) read bandwidth of L2-resident and DRAM windows (bench/isolate/l2_read.ini); (2) the K-loop isolation
# ISO = 0..3 (bench/isolate/cmgemm_iso_f16.ini) of the two best cmgemm configurations; (3) the workgroup order
# (SWZ = 1, 4, 16) of the best one at 8192^3; (4) cmgemm.comp.in before this issue's edits (PREV_TEMPLATE, when
# given) against the current one, same configurations; (5) int8 from scratch: a timed search with no seeds,
# against the seeded best of the first call, and torch._int_mm in both B layouts. Results in $WORK, tarred into $OUT.
set -u
RESULTS=${OUT:-}
OUT=${WORK:-out-h200-2}
mkdir -p "$OUT"
B=./build/vkautotune
DB=$OUT/s6b.db
C1="FM=16,FN=16,FK=16,WG_M=2,WG_N=2,TM=4,TN=4,BK=64,STAGES=1,PF=1,FB=0,PAD=1,SWZ=16"
C2="FM=16,FN=16,FK=16,WG_M=2,WG_N=2,TM=4,TN=2,BK=64,STAGES=1,PF=1,FB=0,PAD=1,SWZ=16"
$B peaks --db "$DB" > "$OUT/peaks.txt" 2>&1
for W in 8192 24576 40960 1048576; do
    echo "== WIN_KB=$W"
    $B bench/isolate/l2_read.comp.in --space bench/isolate/l2_read.ini --problem "WIN_KB=$W" --strategy exhaustive \
        --db "$DB" -q --top 3 2>&1
done > "$OUT/l2.txt"
for P in M=4096,N=4096,K=4096 M=8192,N=8192,K=8192; do
    for ISO in 0 1 2 3; do
        echo "== $P ISO=$ISO"
        $B shaders/cmgemm.comp.in --space bench/isolate/cmgemm_iso_f16.ini --problem "$P,ISO=$ISO" --db "$DB" \
            --budget 2 --strategy random --start "$C1" --start "$C2" --stats -q --top 2 2>&1
    done
done > "$OUT/iso.txt"
{
    echo "== SWZ at 8192^3"
    $B shaders/cmgemm.comp.in --space spaces/cmgemm_f16.ini --problem M=8192,N=8192,K=8192 --db "$DB" --budget 3 \
        --strategy random --start "$C1" --start "$(echo "$C1" | sed 's/SWZ=16/SWZ=4/')" \
        --start "$(echo "$C1" | sed 's/SWZ=16/SWZ=1/')" -q --top 3 2>&1
    if [ -n "${PREV_TEMPLATE:-}" ]; then
        for P in M=4096,N=4096,K=4096 M=8192,N=8192,K=8192; do
            for T in "$PREV_TEMPLATE" shaders/cmgemm.comp.in; do
                echo "== $T $P"
                $B "$T" --space spaces/cmgemm_f16.ini --problem "$P" --db "$DB" --budget 2 --strategy random \
                    --start "$C1" --start "$C2" -q --top 2 2>&1
            done
        done
    fi
} > "$OUT/template.txt"
python3 bench/gemm_vs_cublas.py --bin $B --templates cmgemm --only int8 --budget "${SCRATCH_BUDGET:-240s}" \
    --problems 4096x4096x4096 --db "$OUT/scratch.db" --out "$OUT/int8_scratch.md" > /dev/null 2> "$OUT/int8_scratch.log"
$B shaders/cmgemm.comp.in --space spaces/cmgemm_s8.ini --db "$OUT/scratch.db" --budget 1 -q --top 5 \
    > "$OUT/int8_scratch_top.txt" 2>&1
if [ -n "$RESULTS" ]; then
    tar -czf "$RESULTS/issue21b.tar.gz" -C "$OUT" --exclude gemm_export . 2>/dev/null
    cp "$OUT/l2.txt" "$OUT/iso.txt" "$OUT/template.txt" "$OUT/int8_scratch.md" "$RESULTS/" 2>/dev/null
fi
echo "---- l2"; grep -E "^==|^ +1 " "$OUT/l2.txt"
echo "---- iso"; grep -E "^==|^ +[12] " "$OUT/iso.txt" | cut -c1-120
echo "---- template"; grep -E "^==|^ +[123] " "$OUT/template.txt" | cut -c1-120
echo "---- int8 from scratch"; head -4 "$OUT/int8_scratch.md"; cat "$OUT/int8_scratch.log"; grep -E "^strategy|^ +[1-3] " "$OUT/int8_scratch_top.txt"
