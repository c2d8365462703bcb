#!/bin/bash
# session 4, call 2: sgemm_wt's CL (no branches in the K loop) at the H200's winning tilings, seeded, against the
# old winner (CL = 0) and cuBLAS in the same run. Run on the device from a folder holding vkautotune, gemm_verify,
# shaders/, spaces/, bench/gemm_vs_cublas.py.
set -u
export PYTHONUNBUFFERED=1
W=/tmp/w; mkdir -p $W
date -u
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $OUT/nvsmi.txt 2>&1
T=BM=128,BN=128,BK=16,WARP=32,KS=1
D=$T,WM=64,WN=32,WMITER=2,WNITER=2,TM=4,TN=4
A=$T,WM=16,WN=128,WMITER=2,WNITER=2,TM=4,TN=4,GM=8
B=$T,WM=64,WN=32,WMITER=1,WNITER=1,TM=8,TN=8,GM=8
OLD=STAGES=1,SWZ=1,PF=1,FB=0,KU=1
S="--start $D,GM=1,$OLD,CL=0 --start $D,GM=8,$OLD,CL=0 --start $D,GM=1,$OLD,CL=1 --start $D,GM=8,$OLD,CL=1"
S="$S --start $A,$OLD,CL=1 --start $B,$OLD,CL=1 --start $D,GM=8,STAGES=1,SWZ=1,PF=1,FB=1,KU=1,CL=1"
S="$S --start $D,GM=8,STAGES=2,SWZ=1,PF=1,FB=0,KU=2,CL=1 --start $D,GM=8,STAGES=2,SWZ=1,PF=1,FB=1,KU=1,CL=1"
timeout 110 python3 gemm_vs_cublas.py --bin ./vkautotune --verify-bin ./gemm_verify --src . --budget 20s \
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
        rc = re.search(r"Register Count=(\d+)", s or "")
        print("  %6.2f  regs %s  %s" % (t, rc.group(1) if rc else "?", c))
    print("  measured", db.execute("select count(*), sum(status='ok') from results where kernel='sgemm_wt' and problem=?", (p,)).fetchone())
PY
cat $OUT/top.txt
cat $W/gemm_fp32.md | head -6
