#!/bin/sh
# Session 7, issue 21, first H200 call: what each new cmgemm knob (CL: a K loop without branches; BS: B transposed
# into N-major shared rows; FN = 8: 16x8x16 fragments) and a transposed B (BT = 1) do to the best KHR configuration
# C1 at 4096^3, with register counts; cm2gemm with B transposed and at ggml's coopmat2 tiles; ggml-vulkan's own
# mul_mm_cm2.comp (unmodified, examples/third-party/ggml_mul_mm_cm2.ini) at its three tiles and tuned; the peaks and
# cuBLAS in the same call. X is the folder with this branch's binary, shaders and spaces (.xfer-21 on the device).
# Ran as: X=.xfer-21 sh .xfer-21/bench/s7/issue21_call1.sh (from the repository root, after `. .gl/enter.sh`); kept as the record of what ran.
set -u
X=${X:-.xfer-21}
export BIN=$X/vkautotune GGML_VULKAN_SHADERS=$X/ggml X
# the 16x8x16 experiment: the space with every 16 x N x 16 fragment allowed (the real space takes the first shape)
sed -e 's/^shape = .*/shape = FM == 16 \&\& FK == 16/' -e 's/^TN = 1, 2, 4$/TN = 1, 2, 4, 8/' \
    $X/spaces/cmgemm_f16.ini > $X/spaces/cmgemm_f16_fn8.ini
C="FM=16,FK=16,WG_M=2,WG_N=2,TM=4,SWZ=16,FB=0,PAD=1"
K1="$C,FN=16,TN=4,BK=64,STAGES=1,PF=1"
K2="$C,FN=16,TN=4,BK=32,STAGES=2,PF=0"
F8="$C,FN=8,TN=8,BK=64,STAGES=1,PF=1"
S=""
for cl in 0 1; do S="$S --start $K1,CL=$cl,BS=0 --start $K1,CL=$cl,BS=1 --start $K2,CL=$cl,BS=0"; done
S8=""
for bs in 0 1; do S8="$S8 --start $F8,CL=0,BS=$bs --start $F8,CL=1,BS=$bs"; done
M2="BM=128,BN=128,BK=64,NSG=4,LOAD=0,KU=8,KW=16,STAGES=1,PAD=0,SWZ=8"
G2="BM=128,BN=256,BK=64,NSG=8,LOAD=0,KU=8,KW=16,STAGES=1,PAD=0,SWZ=1"
COMMON="--db \$RUN/t.db --no-race --stats -q --strategy random"
exec sh bench/device_run.sh --timeout 240 --top 20 s7-21-call1 \
  "peaks: $BIN peaks --db \$RUN/t.db --refresh" \
  "cublas: python3 -c 'import torch,time
for dt in (torch.float16, torch.bfloat16):
  for (m,n,k) in ((4096,4096,4096),(8192,8192,8192),(4096,512,14336)):
    a=torch.randn(m,k,device=\"cuda\",dtype=dt); b=torch.randn(k,n,device=\"cuda\",dtype=dt)
    for _ in range(3): torch.matmul(a,b)
    torch.cuda.synchronize(); t0=time.time()
    while time.time()-t0<0.3: torch.matmul(a,b)
    ts=[]
    for _ in range(50):
      e0=torch.cuda.Event(enable_timing=True); e1=torch.cuda.Event(enable_timing=True)
      e0.record(); torch.matmul(a,b); e1.record(); e1.synchronize(); ts.append(e0.elapsed_time(e1))
    ts.sort(); print(dt, m, n, k, \"median ms %.4f TFLOP/s %.1f\" % (ts[25], 2*m*n*k/ts[25]/1e9))'" \
  "knobs4k: $BIN $X/shaders/cmgemm.comp.in --space $X/spaces/cmgemm_f16.ini $COMMON --budget 6 --top 6 $S" \
  "fn8_4k: $BIN $X/shaders/cmgemm.comp.in --space $X/spaces/cmgemm_f16_fn8.ini $COMMON --budget 4 --top 4 $S8" \
  "bt1_4k: $BIN $X/shaders/cmgemm.comp.in --space $X/spaces/cmgemm_f16.ini --problem BT=1 $COMMON --budget 2 --top 2 --start $K1,CL=0,BS=0 --start $K1,CL=1,BS=0" \
  "cm2_4k: $BIN $X/shaders/cm2gemm.comp.in --space $X/spaces/cm2gemm_f16.ini $COMMON --budget 2 --top 2 --start $M2 --start $G2" \
  "cm2bt1_4k: $BIN $X/shaders/cm2gemm.comp.in --space $X/spaces/cm2gemm_f16.ini --problem BT=1 $COMMON --budget 2 --top 2 --start $M2 --start $G2" \
  "ggml_4k: $BIN --space $X/examples/third-party/ggml_mul_mm_cm2.ini $COMMON --budget 3 --top 3 --start BLOCK_SIZE=256,BM=128,BN=256,BK=64 --start BLOCK_SIZE=256,BM=128,BN=128,BK=64 --start BLOCK_SIZE=128,BM=64,BN=64,BK=64" \
  "ggml_tune4k: $BIN --space $X/examples/third-party/ggml_mul_mm_cm2.ini --db \$RUN/t.db --stats -q --budget 30s --top 5" \
  "knobs8k: $BIN $X/shaders/cmgemm.comp.in --space $X/spaces/cmgemm_f16.ini --problem M=8192,N=8192,K=8192 $COMMON --budget 6 --top 6 $S" \
  "scratch_skinny: $BIN $X/shaders/cmgemm.comp.in --space $X/spaces/cmgemm_f16.ini --problem M=4096,N=512,K=14336 --db \$RUN/t.db --stats -q --budget 45s --top 5"
