# s12-lead call 3 (s12-lead 9b326c9: main + the lead's timing changes + s12-attn): (1) helper attn's confirmation of
# OV after its race fix (records/h200/s12-attn-confirm/call.sh: the OV configurations against their OV = 0 twins,
# full measurements with the check, then the prefill table of the committed spaces, FlashAttention-2 and cuDNN over
# rounds); (2) the whole fp16/bf16 kernel library and decode attention against PyTorch with llm_kernels.py's new
# default --min-sample 0.002 (both sides timed in batches of back-to-back calls); (3) the short GEMMs with gemm_verify
# timing samples the size of cuBLAS's (split K at 4096 x 512 x 14336, cm2gemm fp16 at 4096^3).
cd "$(dirname "$0")" || exit 2
export BIN=$PWD/vkautotune
N=PAD=1,THR=8,LM=0,PH=0,EW=0,RS=2,SG=32
A0=BC=32,NSG=4,RT=2,STAGES=1,PF=2,QS=1,SB=32,$N,XP=1
A=$A0,QR=0
Bb=BC=32,NSG=8,RT=2,STAGES=1,PF=2,QS=1,SB=32,$N,XP=1,QR=4
W=BC=16,NSG=4,RT=2,STAGES=2,PF=0,QS=1,SB=16,$N,QR=2
C=BC=16,NSG=8,RT=2,STAGES=2,PF=0,QS=0,SB=16,$N,QR=0
R1=BC=32,NSG=8,RT=1,STAGES=2,PF=0,QS=0,SB=32,$N,QR=0
F='' NF=0 B='' NB=0
f() { F="$F --start $1,SH=0,EH=0"; NF=$((NF + 1)); }
b() { B="$B --start $1"; NB=$((NB + 1)); }
f $A,OV=0; b $Bb,OV=0
for o in 0 1 2; do f $C,XP=0,OV=$o; f $R1,XP=0,OV=$o; f $W,XP=1,OV=$o; b $W,XP=1,OV=$o; b $W,XP=0,OV=$o; done
T="--start $A,SH=0,EH=0 --start $Bb,OV=0 --start $W,XP=1,OV=2 --start $W,XP=0,OV=2 --start $A0,QR=2,SH=1,EH=1"
export F B T
D1=attention_decode_nv_f16:NSG=4,BC=16,NSPLIT=1,PAD=1,THR=0,QS=1,PF=3,IL=1,SG=32
D2=attention_decode_nv_bf16:NSG=4,BC=16,NSPLIT=1,PAD=1,THR=8,QS=0,PF=3,IL=1,SG=32
M2=BM=128,BN=128,BK=64,NSG=4,LOAD=0,KU=8,KW=16,STAGES=1,PAD=0,SWZ=8,LQ=1
K16=FM=16,FN=16,FK=16,WG_M=2,WG_N=2,TM=4,TN=4,BK=64,STAGES=1,PF=1,FB=0,PAD=1,SWZ=16,CL=0,BS=0,KS=2
K8=FM=16,FN=16,FK=32,WG_M=2,WG_N=2,TM=4,TN=4,BK=128,STAGES=1,PF=1,FB=1,PAD=1,SWZ=1,CL=1,BS=0,KS=2
L1=softmax_f16,softmax_bf16,rmsnorm_f16,rmsnorm_bf16,layernorm_f16,layernorm_bf16,reduce_sum_f16,reduce_sum_bf16,reduce_max_f16,reduce_max_bf16
L2=xent_f16,xent_bf16,rope_f16,rope_bf16,swiglu_f16,swiglu_bf16,transpose_f16,transpose_bf16
export D1 D2 M2 K16 K8 L1 L2
sh bench/device_run.sh --top 3 s12-lead-call3 \
  "ovf: timeout 100 \$BIN shaders/attention_fa_nv.comp.in --space spaces/attention_fa_nv_ov_f16.ini --db \$RUN/ovf.db --no-race --stats --strategy random --budget $NF --top $NF $F" \
  "ovb: timeout 100 \$BIN shaders/attention_fa_nv.comp.in --space spaces/attention_fa_nv_ov_bf16.ini --db \$RUN/ovb.db --no-race --stats --strategy random --budget $NB --top $NB $B" \
  "attn: PYTHONUNBUFFERED=1 timeout 240 python3 bench/llm_kernels.py --binary \$BIN --budget 6 --eager-only --baseline-rounds 3 --only attention_fa_nv_f16,attention_fa_nv_bf16 --db \$RUN/attn.db --out \$RUN/llm_attn.md $T" \
  'lib1: PYTHONUNBUFFERED=1 timeout 170 python3 bench/llm_kernels.py --binary $BIN --budget 4s --only $L1 --db $RUN/lib1.db --out $RUN/llm_lib1.md' \
  'lib2: PYTHONUNBUFFERED=1 timeout 170 python3 bench/llm_kernels.py --binary $BIN --budget 4s --only $L2 --db $RUN/lib2.db --out $RUN/llm_lib2.md' \
  'decode: PYTHONUNBUFFERED=1 timeout 80 python3 bench/llm_kernels.py --binary $BIN --budget 4s --only attention_decode_nv_f16,attention_decode_nv_bf16 --start $D1 --start $D2 --db $RUN/decode.db --out $RUN/llm_decode.md' \
  'gemm: timeout 150 python3 bench/gemm_vs_cublas.py --bin $BIN --templates cmgemm_splitk,cm2gemm --only fp16,int8 --bt 1 --problems 4096x512x14336,4096x4096x4096 --budget 6 --db $RUN/gemm.db --out $RUN/gemm.md --start cmgemm_splitk_f16:$K16 --start cmgemm_splitk_s8:$K8 --start cm2gemm_f16:$M2'
