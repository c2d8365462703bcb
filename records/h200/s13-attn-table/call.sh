# s13-attn: the prefill table of the committed spaces (VT = 0, 1 and BF = 0, 3 in both; bf16 with OV = 0, 2), for a
# later call from the repository root of a tree with branch s13-attn merged (build/vkautotune built there): 5 baseline
# rounds, FlashAttention-2 and cuDNN in the same call, the tensor-core peak. The helper's own table (s13-attn-call3)
# ran candidate spaces that also held BF = 1, 2 and (bf16) UB; every winner there is inside the committed spaces, and
# these starts are its best configurations. About 90 s after a cold start.
#   . .gl/enter.sh && sh records/h200/s13-attn-table/call.sh
cd "$(dirname "$0")/../../.." || exit 2
N=PAD=1,THR=8,LM=0,PH=0,EW=0,RS=2,SG=32
A0=BC=32,NSG=4,RT=2,STAGES=1,PF=2,QS=1,SB=32,$N
A=$A0,QR=0
G=BC=16,NSG=4,RT=2,STAGES=2,PF=0,QS=1,SB=16,$N,QR=2
T=''
t() { T="$T --start $1"; }
for v in 0 1; do for bf in 0 3; do t attention_fa_nv_f16:$A,XP=1,SH=0,EH=0,VT=$v,BF=$bf; done; done
t attention_fa_nv_f16:$A,XP=0,SH=0,EH=0,VT=1,BF=3
for x in 0 1; do t attention_fa_nv_bf16:$G,XP=$x,OV=2,VT=1,BF=0; done
t attention_fa_nv_bf16:$G,XP=1,OV=2,VT=0,BF=0; t attention_fa_nv_bf16:$A,XP=1,OV=0,VT=1,BF=3
for v in 0 1; do t attention_fa_nv_f16:$A0,QR=2,XP=1,SH=1,EH=1,VT=$v,BF=0; done
export T
sh bench/device_run.sh --top 12 s13-attn-table \
  "table: PYTHONUNBUFFERED=1 timeout 300 python3 bench/llm_kernels.py --binary \$BIN --budget 12 --eager-only --baseline-rounds 5 --only attention_fa_nv_f16,attention_fa_nv_bf16 --db \$RUN/attn.db --out \$RUN/llm_attn.md $T"
