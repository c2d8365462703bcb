# s12-lead call 1 (main c260f8b): the GEMM rows again with the fair PyTorch timer (bench/torch_timing.py, samples of
# about 2 ms of back-to-back calls), each seeded with its best configuration known, every winner exported and re-timed
# by bench/gemm_verify; peaks, cuBLAS and torch._int_mm in the same call.
cd "$(dirname "$0")" || exit 2
export BIN=$PWD/vkautotune
M2=BM=128,BN=128,BK=64,NSG=4,LOAD=0,KU=8,KW=16,STAGES=1,PAD=0,SWZ=8
K16=FM=16,FN=16,FK=16,WG_M=2,WG_N=2,TM=4,TN=4,BK=64,STAGES=1,PF=1,FB=0,PAD=1,SWZ=16,CL=0,BS=0,KS=2
K8=FM=16,FN=16,FK=32,WG_M=2,WG_N=2,TM=4,TN=4,BK=128,STAGES=1,PF=1,FB=1,PAD=1,SWZ=1,CL=1,BS=0,KS=2
I8=FM=16,FN=16,FK=32,WG_M=2,WG_N=2,TM=4,TN=4,BK=128,STAGES=1,PF=1,FB=0,PAD=1,CL=1,BS=0,WS=0,WC=0
W1=BM=128,BN=128,BK=16,WM=64,WN=32,WMITER=2,WNITER=2,TM=4,TN=4,WARP=32,KS=1,STAGES=1,SWZ=1,GM=1,PF=1,FB=0,KU=1,CL=0,SK=1
W2=BM=128,BN=128,BK=16,WM=16,WN=128,WMITER=2,WNITER=2,TM=4,TN=4,WARP=32,KS=1,STAGES=1,SWZ=1,GM=8,PF=1,FB=0,KU=1,CL=0,SK=1
export M2 K16 K8 I8 W1 W2
sh bench/device_run.sh --top 4 s12-lead-call1 \
  'cm2: timeout 200 python3 bench/gemm_vs_cublas.py --bin $BIN --templates cm2gemm --only fp16,bf16 --problems 4096x4096x4096,8192x8192x8192 --budget 6 --db $RUN/cm2.db --out $RUN/gemm_cm2.md --start $M2,LQ=1 --start $M2,LQ=0' \
  'splitk: timeout 120 python3 bench/gemm_vs_cublas.py --bin $BIN --templates cmgemm_splitk --only fp16,int8 --bt 1 --problems 4096x512x14336 --budget 6 --db $RUN/splitk.db --out $RUN/gemm_splitk.md --start cmgemm_splitk_f16:$K16 --start cmgemm_splitk_s8:$K8' \
  'int8: timeout 150 python3 bench/gemm_vs_cublas.py --bin $BIN --templates cmgemm --only int8 --bt 1 --problems 4096x4096x4096,8192x8192x8192 --budget 20s --db $RUN/int8.db --out $RUN/gemm_int8.md --start cmgemm_s8:$I8,SWZ=16 --start cmgemm_s8:$I8,SWZ=4 --start cmgemm_s8:$I8,SWZ=1' \
  'fp32: timeout 150 python3 bench/gemm_vs_cublas.py --bin $BIN --templates sgemm_wt --only fp32 --problems 4096x4096x4096,8192x8192x8192 --budget 8 --db $RUN/fp32.db --out $RUN/gemm_fp32.md --start $W1 --start $W2'
