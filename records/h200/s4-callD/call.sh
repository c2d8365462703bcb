#!/bin/bash
# session 4, call D: sgemm_wt stream-K (SK) against the one-stage winner, same process as cuBLAS
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/w
date -u
./build/vkautotune devices --json > $OUT/devices.json 2>&1
grep -m1 compute_units $OUT/devices.json
S=""
for t in WMITER=2,WNITER=2,TM=4,TN=4,WM=64,WN=32 WMITER=1,WNITER=2,TM=8,TN=4,WM=64,WN=32 WMITER=2,WNITER=2,TM=4,TN=4,WM=16,WN=128; do
  for gm in 1 8; do for sk in 1 0; do
    S="$S --start BM=128,BN=128,BK=16,$t,WARP=32,KS=1,STAGES=1,SWZ=1,GM=$gm,PF=1,FB=0,KU=1,CL=0,SK=$sk"
  done; done
done
timeout 420 python3 bench/gemm_vs_cublas.py --bin ./build/vkautotune --budget 45s --templates sgemm_wt \
  --problems 4096x4096x4096,8192x8192x8192 --out /tmp/w/gemm_fp32.md --db /tmp/w/gemm.db $S > $OUT/gemm.log 2>&1
cp /tmp/w/gemm_fp32.md /tmp/w/gemm.db $OUT/
date -u
python3 - /tmp/w/gemm.db <<'PY' > $OUT/top.txt
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
for (p,) in db.execute("select distinct problem from results where kernel='sgemm_wt'"):
    print(p)
    for sk in ("SK=0", "SK=1"):
        for c, t, s in db.execute("select config, tflops, pipeline_stats from results where kernel='sgemm_wt' and problem=? "
                                  "and status='ok' and config like ? order by median_s limit 6", (p, "%" + sk)):
            print("  %6.2f  %s  [%s]" % (t, c, (s or "")[:40]))
    print("  measured", db.execute("select count(*), sum(status='ok'), sum(config like '%SK=1') from results where kernel='sgemm_wt' and problem=?", (p,)).fetchone())
    for c, st, r in db.execute("select config, status, substr(reason,1,160) from results where kernel='sgemm_wt' and problem=? and status!='ok' limit 3", (p,)):
        print("  FAILED", c, st, r)
PY
cat $OUT/top.txt
head -6 $OUT/gemm_fp32.md
