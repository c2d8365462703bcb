# s10-lead call 2 (s10-lead 4efd05f, run from .xfer-lead): the split-K rows of call 1 again, their seeds routed by
# SPACE:CONFIG (call 1 gave each the other dtype's seed, which its space refused), and cm2gemm with LQ = 0 / 1 for
# fp16 and bf16 at 4096^3 and 8192^3, every winner re-timed by bench/gemm_verify; peaks and cuBLAS in the same call.
cd "$(dirname "$0")" || exit 2
M2=BM=128,BN=128,BK=64,NSG=4,LOAD=0,KU=8,KW=16,STAGES=1,PAD=0,SWZ=8
K16=FM=16,FN=16,FK=16,WG_M=2,WG_N=2,TM=4,TN=4,BK=64,STAGES=1,PF=1,FB=0,PAD=1,SWZ=16,CL=0,BS=0,KS=2
K8=FM=16,FN=16,FK=32,WG_M=2,WG_N=2,TM=4,TN=4,BK=128,STAGES=1,PF=1,FB=1,PAD=1,SWZ=1,CL=1,BS=0,KS=2
export M2 K16 K8
BIN=$PWD/vkautotune sh bench/device_run.sh --top 8 s10-lead-call2 \
  'splitk: timeout 120 python3 bench/gemm_vs_cublas.py --bin $BIN --templates cmgemm_splitk --only fp16,int8 --bt 1 --problems 4096x512x14336 --budget 6 --db $RUN/splitk.db --out $RUN/gemm_splitk.md --start cmgemm_splitk_f16:$K16 --start cmgemm_splitk_s8:$K8' \
  'cm2: timeout 200 python3 bench/gemm_vs_cublas.py --bin $BIN --templates cm2gemm --only fp16,bf16 --problems 4096x4096x4096,8192x8192x8192 --budget 6 --db $RUN/cm2.db --out $RUN/gemm_cm2.md --start $M2,LQ=0 --start $M2,LQ=1'
