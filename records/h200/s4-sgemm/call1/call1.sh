#!/bin/bash
# session 4, call 1: sgemm_wt's new paths (TS: 128-bit staging stores; SF: a fence before a two-stage loop's stores)
# seeded at the H200's winning tilings, against the old winner and cuBLAS in the same run.
# Run on the device from a folder holding vkautotune, gemm_verify, shaders/, spaces/, bench/gemm_vs_cublas.py.
set -u
export PYTHONUNBUFFERED=1
W=/tmp/w; mkdir -p $W
date -u
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $OUT/nvsmi.txt 2>&1
T=BM=128,BN=128,BK=16,WARP=32,KS=1
D=$T,WM=64,WN=32,WMITER=2,WNITER=2,TM=4,TN=4,GM=1   # the old winner's tiling (4096^3 with GM=8, 8192^3 GM=1)
A=$T,WM=16,WN=128,WMITER=2,WNITER=2,TM=4,TN=4,GM=8
B=$T,WM=64,WN=32,WMITER=1,WNITER=1,TM=8,TN=8,GM=8
S="--start $D,STAGES=1,SWZ=1,PF=1,FB=0,KU=1,TS=0,SF=0 --start $A,STAGES=1,SWZ=1,PF=1,FB=0,KU=1,TS=0,SF=0"
for t in "$D" "$A" "$B"; do
  for v in STAGES=1,SWZ=1,PF=1,FB=0,KU=1,TS=1,SF=0 STAGES=1,SWZ=0,PF=1,FB=0,KU=1,TS=1,SF=0 \
           STAGES=2,SWZ=0,PF=1,FB=0,KU=2,TS=1,SF=1 STAGES=2,SWZ=0,PF=1,FB=1,KU=1,TS=1,SF=1; do
    S="$S --start $t,$v"; done; done
for v in STAGES=1,SWZ=0,PF=1,FB=1,KU=1,TS=1,SF=0 STAGES=1,SWZ=2,PF=1,FB=0,KU=1,TS=1,SF=0 \
         STAGES=2,SWZ=0,PF=1,FB=0,KU=2,TS=1,SF=0 STAGES=2,SWZ=0,PF=1,FB=0,KU=2,TS=1,SF=2 \
         STAGES=2,SWZ=0,PF=1,FB=1,KU=1,TS=1,SF=0 STAGES=2,SWZ=0,PF=1,FB=1,KU=1,TS=1,SF=2 \
         STAGES=2,SWZ=1,PF=1,FB=0,KU=2,TS=0,SF=1 STAGES=2,SWZ=1,PF=1,FB=0,KU=2,TS=0,SF=2 \
         STAGES=2,SWZ=1,PF=1,FB=1,KU=1,TS=0,SF=1 STAGES=2,SWZ=1,PF=1,FB=1,KU=1,TS=0,SF=2; do
  S="$S --start $D,$v"; done
timeout 250 python3 gemm_vs_cublas.py --bin ./vkautotune --verify-bin ./gemm_verify --src . --budget 55s \
  --templates sgemm_wt --problems 4096x4096x4096,8192x8192x8192 --out $W/gemm_fp32.md --db $W/gemm.db $S \
  > $OUT/gemm.log 2>&1
echo "gemm_vs_cublas rc $?" >> $OUT/gemm.log
cp $W/gemm_fp32.md $W/gemm.db $OUT/ 2>/dev/null
date -u
python3 - $OUT/gemm.db <<'PY' > $OUT/top.txt
import sqlite3, sys, re
db = sqlite3.connect(sys.argv[1])
for (p,) in db.execute("select distinct problem from results where kernel='sgemm_wt'"):
    print(p)
    for c, t, s in db.execute("select config, tflops, pipeline_stats from results where kernel='sgemm_wt' "
                              "and problem=? and status='ok' order by median_s limit 15", (p,)):
        print("  %6.2f  %s  [%s]" % (t, c, s))
    print("  measured", db.execute("select count(*), sum(status='ok') from results where kernel='sgemm_wt' and problem=?", (p,)).fetchone())
    print("  seeds and new paths (tiling BM=BN=128,BK=16), best first:")
    for c, t, s in db.execute("select config, tflops, pipeline_stats from results where kernel='sgemm_wt' and problem=? "
                              "and status='ok' and config like 'BM=128,BN=128,BK=16,%' and (config like '%TS=1%' "
                              "or config like '%SF=1%' or config like '%SF=2%' or config like '%STAGES=1,SWZ=1,%TS=0%') "
                              "order by median_s limit 40", (p,)):
        rc = re.search(r"Register Count=(\d+)", s or "")
        print("  %6.2f  regs %s  %s" % (t, rc.group(1) if rc else "?", c))
    print("  not ok:", db.execute("select count(*) from results where kernel='sgemm_wt' and problem=? and status!='ok'", (p,)).fetchone())
PY
cat $OUT/top.txt | head -80
cat $W/gemm_fp32.md
