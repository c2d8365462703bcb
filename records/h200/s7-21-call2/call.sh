#!/bin/sh
# Session 7, issue 21, second H200 call: ggml-vulkan's mul_mm_cm2.comp (unmodified) at its three coopmat2 tiles at
# 4096^3 and 8192^3 and tuned for 40 s at 4096^3 (the reference point of what NVIDIA's own coopmat2 GEMM reaches
# through Vulkan here); cm2gemm from scratch for 60 s at 4096^3 (issue item 5); then the benchmark table
# (bench/gemm_vs_cublas.py: peaks, cuBLAS, and gemm_verify's fp64 re-check and re-timing in the same call) for
# cmgemm and cm2gemm, fp16 and bf16, on the three problems, seeded with the best known configurations.
#   Ran as: X=.xfer-21 sh .xfer-21/bench/s7/issue21_call2.sh (from the repository root, after `. .gl/enter.sh`); kept here as the record of what ran.
set -u
X=${X:-.xfer-21}
export BIN=$X/vkautotune GGML_VULKAN_SHADERS=$PWD/$X/ggml X
G="--start BLOCK_SIZE=256,BM=128,BN=256,BK=64 --start BLOCK_SIZE=256,BM=128,BN=128,BK=64 --start BLOCK_SIZE=128,BM=64,BN=64,BK=64"
GS="$X/examples/third-party/ggml_mul_mm_cm2.ini"
C1="FM=16,FN=16,FK=16,WG_M=2,WG_N=2,TM=4,TN=4,BK=64,STAGES=1,PF=1,FB=0,PAD=1,SWZ=16,CL=0,BS=0"
S1="FM=16,FN=16,FK=16,WG_M=4,WG_N=4,TM=2,TN=2,BK=64,STAGES=1,PF=1,FB=1,PAD=1,SWZ=1,CL=0,BS=0"
M2="BM=128,BN=128,BK=64,NSG=4,LOAD=0,KU=8,KW=16,STAGES=1,PAD=0,SWZ=8"
M3="BM=64,BN=128,BK=64,NSG=4,LOAD=0,KU=8,KW=16,STAGES=1,PAD=0,SWZ=1"
M4="BM=128,BN=64,BK=64,NSG=4,LOAD=0,KU=8,KW=16,STAGES=1,PAD=0,SWZ=1"
exec sh bench/device_run.sh --timeout 330 --top 8 s7-21-call2 \
  "ggml_4k: $BIN --space $GS --db \$RUN/g.db --no-race --stats -q --strategy random --budget 3 --top 3 $G" \
  "ggml_8k: $BIN --space $GS --problem M=8192,N=8192,K=8192 --db \$RUN/g.db --no-race --stats -q --strategy random --budget 3 --top 3 $G" \
  "ggml_tune4k: $BIN --space $GS --db \$RUN/g.db --stats -q --budget 40s --top 5" \
  "cm2_scratch4k: $BIN $X/shaders/cm2gemm.comp.in --space $X/spaces/cm2gemm_f16.ini --db \$RUN/s.db --stats -q --budget 60s --top 5" \
  "table: python3 $X/bench/gemm_vs_cublas.py --bin $BIN --src $X --templates cmgemm,cm2gemm --only fp16,bf16 --budget 8 --db \$RUN/gemm.db --out \$RUN/gemm_vs_cublas.md --start $C1 --start $S1 --start $M2 --start $M3 --start $M4"
