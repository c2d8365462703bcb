# s10-lead call 1 (main 992fd57, run from .xfer-lead): attention prefill table (fp16/bf16, FA2 and peak
# in the same call), a bf16 search from scratch (item 5), and the GEMM table for cm2gemm (LQ) and split K (fp16,
# int8), every winner re-timed by bench/gemm_verify, which now runs two-pass exports whole.
cd "$(dirname "$0")" || exit 2
S1=BC=32,NSG=4,RT=2,STAGES=1,PF=2,PAD=1,THR=8,QS=1,SB=32,LM=0,PH=0,EW=0,RS=2,XP=1,QR=0,SG=32
S2=BC=32,NSG=8,RT=2,STAGES=1,PF=2,PAD=1,THR=8,QS=1,SB=32,LM=0,PH=0,EW=0,RS=2,XP=1,QR=4,SG=32
S3=BC=16,NSG=8,RT=2,STAGES=2,PF=0,PAD=1,THR=8,QS=0,SB=16,LM=0,PH=0,EW=0,RS=2,XP=0,QR=0,SG=32
M2=BM=128,BN=128,BK=64,NSG=4,LOAD=0,KU=8,KW=16,STAGES=1,PAD=0,SWZ=8
K16=FM=16,FN=16,FK=16,WG_M=2,WG_N=2,TM=4,TN=4,BK=64,STAGES=1,PF=1,FB=0,PAD=1,SWZ=16,CL=0,BS=0,KS=2
K8=FM=16,FN=16,FK=32,WG_M=2,WG_N=2,TM=4,TN=4,BK=128,STAGES=1,PF=1,FB=1,PAD=1,SWZ=1,CL=1,BS=0,KS=2
export S1 S2 S3 M2 K16 K8
BIN=$PWD/vkautotune sh bench/device_run.sh --top 8 s10-lead-call1 \
  'attn: timeout 100 python3 bench/llm_kernels.py --binary $BIN --budget 3 --eager-only --only attention_fa_nv_f16,attention_fa_nv_bf16 --db $RUN/attn.db --out $RUN/llm_attn.md --start $S1 --start $S2 --start $S3' \
  'gemm: timeout 170 python3 bench/gemm_vs_cublas.py --bin $BIN --templates cm2gemm,cmgemm_splitk --only fp16,int8 --bt 1 --problems 8192x8192x8192,4096x512x14336 --budget 6 --db $RUN/gemm.db --out $RUN/gemm_vs_cublas.md --start $M2,LQ=0 --start $M2,LQ=1 --start $K16 --start $K8' \
  'scratchb: timeout 130 $BIN shaders/attention_fa_nv.comp.in --space spaces/attention_fa_nv_bf16.ini --db $RUN/scratchb.db --stats --budget 120s --top 8'
