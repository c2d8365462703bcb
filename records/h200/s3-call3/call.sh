#!/bin/bash
# session 3, call 3: sgemm_wt with PF/FB/KU (seeded), then the 16-bit transposes with row pairs
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/w
date -u
A=BM=128,BN=128,BK=16,WM=16,WN=128,WMITER=2,WNITER=2,TM=4,TN=4,WARP=32,KS=1,SWZ=1,GM=1
B=BM=128,BN=128,BK=16,WM=64,WN=32,WMITER=1,WNITER=1,TM=8,TN=8,WARP=32,KS=1,SWZ=1,GM=8
C=BM=128,BN=128,WM=32,WN=64,WMITER=2,WNITER=2,TM=4,TN=4,WARP=32,KS=1,SWZ=1,GM=8,STAGES=2,PF=1,FB=1,KU=1
D=BM=128,BN=128,BK=16,WM=64,WN=32,WMITER=2,WNITER=2,TM=4,TN=4,WARP=32,KS=1,SWZ=1,GM=1
S=""
for t in "$A" "$B" "$D"; do for st in 1 2; do for v in PF=1,FB=0 PF=1,FB=1 PF=0,FB=0 PF=0,FB=1; do
  S="$S --start $t,STAGES=$st,$v,KU=1"; done; done; S="$S --start $t,STAGES=2,PF=1,FB=0,KU=2"; done
S="$S --start $C,BK=8 --start $C,BK=16"
timeout 380 python3 bench/gemm_vs_cublas.py --bin ./build/vkautotune --budget 150s --templates sgemm_wt \
  --problems 4096x4096x4096,8192x8192x8192 --out /tmp/w/gemm_fp32.md --db /tmp/w/gemm.db $S > $OUT/gemm.log 2>&1
cp /tmp/w/gemm_fp32.md /tmp/w/gemm.db $OUT/
date -u
timeout 90 python3 bench/llm_kernels.py --binary ./build/vkautotune --budget 10s --only transpose_f16,transpose_bf16 \
  --db /tmp/w/llm.db --out $OUT/llm.md > $OUT/llm.log 2>&1
date -u
python3 - $OUT/gemm.db <<'PY' > $OUT/top.txt
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
for (p,) in db.execute("select distinct problem from results where kernel='sgemm_wt'"):
    print(p)
    for c, t, s in db.execute("select config, tflops, pipeline_stats from results where kernel='sgemm_wt' "
                              "and problem=? and status='ok' order by median_s limit 15", (p,)):
        print("  %6.2f  %s  [%s]" % (t, c, s))
    print("  measured", db.execute("select count(*), sum(status='ok') from results where kernel='sgemm_wt' and problem=?", (p,)).fetchone())
PY
cat $OUT/top.txt
cat $OUT/llm.md
cat $OUT/gemm_fp32.md | head -6
