#!/bin/bash
# session 4, call F: the GEMM benchmark over every problem (4096^3, 8192^3, M=4096,N=512,K=14336) for sgemm_wt,
# cmgemm and cm2gemm, seeded with the known winners, 8 s per search; cuBLAS in the same process
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/w
date -u
S=""
for t in WM=16,WN=128,WMITER=2,WNITER=2,TM=4,TN=4 WM=64,WN=32,WMITER=2,WNITER=2,TM=4,TN=4; do for gm in 1 8; do
  S="$S --start BM=128,BN=128,BK=16,$t,WARP=32,KS=1,STAGES=1,SWZ=1,GM=$gm,PF=1,FB=0,KU=1,CL=0,SK=1"; done; done
S="$S --start BM=128,BN=128,BK=16,WM=64,WN=32,WMITER=2,WNITER=2,TM=4,TN=4,WARP=32,KS=1,STAGES=1,SWZ=1,GM=1,PF=1,FB=0,KU=1,CL=0,SK=0"
for pf in 0 1; do for fb in 0 1; do
  S="$S --start FM=16,FN=16,FK=16,WG_M=2,WG_N=2,TM=4,TN=4,BK=64,STAGES=1,PF=$pf,FB=$fb,PAD=1,SWZ=16"; done; done
for ku in 4 8; do for swz in 1 8; do
  S="$S --start BM=128,BN=128,BK=64,NSG=4,LOAD=0,KU=$ku,KW=16,STAGES=1,PAD=0,SWZ=$swz"; done; done
timeout 70 python3 bench/gemm_vs_cublas.py --bin ./build/vkautotune --budget 8s --templates sgemm_wt \
  --out $OUT/gemm_fp32.md --db /tmp/w/gemm.db $S > $OUT/gemm_fp32.log 2>&1
date -u
timeout 200 python3 bench/gemm_vs_cublas.py --bin ./build/vkautotune --budget 8s --templates cmgemm,cm2gemm \
  --out $OUT/gemm_cm.md --db /tmp/w/gemm.db $S > $OUT/gemm_cm.log 2>&1
date -u
cp /tmp/w/gemm.db $OUT/
head -8 $OUT/gemm_fp32.md | cut -c1-200
head -16 $OUT/gemm_cm.md | cut -c1-200
