#!/bin/sh
# Issue 21, fourth H200 call: the int8 GEMM from scratch again (no seeds, 150 s, 4096^3) now that every variant
# gets the full warm-up (tune.c), with the SM clock sampled (nvidia-smi, read only). Call 2's search, with 0.02 s
# warm-ups, found 220 TOPS and measured the seeded winner (310 cold) at 82. Results in $WORK, tarred into $OUT.
set -u
RESULTS=${OUT:-}
OUT=${WORK:-out-h200-4}
mkdir -p "$OUT"
B=./build/vkautotune
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,clocks_throttle_reasons.active --format=csv -lms 500 \
    > "$OUT/smi.csv" 2>&1 &
SMI=$!
$B shaders/cmgemm.comp.in --space spaces/cmgemm_s8.ini --db "$OUT/scratch4.db" --budget "${SCRATCH_BUDGET:-150s}" \
    -q --top 5 > "$OUT/int8_scratch4.txt" 2>&1
S8BEST="FM=16,FN=16,FK=32,WG_M=2,WG_N=2,TM=4,TN=4,BK=128,STAGES=1,PF=1,FB=0,PAD=1,SWZ=16"
$B shaders/cmgemm.comp.in --space spaces/cmgemm_s8.ini --db "$OUT/ref4.db" --budget 1 --start "$S8BEST" -q --top 1 \
    > "$OUT/int8_ref4.txt" 2>&1
kill "$SMI" 2>/dev/null
python3 - "$OUT/scratch4.db" <<'PY' > "$OUT/scratch4_summary.txt"
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
print(db.execute("SELECT status, COUNT(*) FROM results GROUP BY status").fetchall())
for r in db.execute("SELECT config, tflops FROM results WHERE config LIKE '%WG_M=2,WG_N=2,TM=4,TN=4,BK=128,STAGES=1,PF=1,%'"):
    print(r)
PY
if [ -n "$RESULTS" ]; then
    tar -czf "$RESULTS/issue21d.tar.gz" -C "$OUT" . 2>/dev/null
fi
cat "$OUT/int8_scratch4.txt" | cut -c1-140; cat "$OUT/int8_ref4.txt" | grep -E "^ +1 " | cut -c1-140; cat "$OUT/scratch4_summary.txt"
awk 'NR % 10 == 2' "$OUT/smi.csv" | cut -c12-80
