# s13-attn call 3 (branch s13-attn, run from .xfer-attn13): BF's two bits apart (1: the loads of blocks ahead
# unconditional, 2: the stores) and UB (two blocks an iteration, unrolled: two stages' stage a constant) on A and G
# with VT, fp16, bf16 and fp16 S, full measurements with the check, --no-race --stats (x13 spaces); the prefill table of
# the candidate spaces (fp16: VT, BF = 0-3; bf16: OV, VT, BF = 0-3, UB), 5 baseline rounds, the tensor-core peak;
# both candidate spaces searched from scratch (50 s each, no --start).
cd "$(dirname "$0")" || exit 2
N=PAD=1,THR=8,LM=0,PH=0,EW=0,RS=2,SG=32
A0=BC=32,NSG=4,RT=2,STAGES=1,PF=2,QS=1,SB=32,$N
A=$A0,QR=0
G=BC=16,NSG=4,RT=2,STAGES=2,PF=0,QS=1,SB=16,$N,QR=2
F='' NF=0 H='' NH=0 B='' NB=0
f() { F="$F --start $1,SH=0,EH=0,OA=0"; NF=$((NF + 1)); }
h() { H="$H --start $1,SH=1,EH=1,OA=0,UB=0"; NH=$((NH + 1)); }
b() { B="$B --start $1,OA=0"; NB=$((NB + 1)); }
for v in 0 1; do for bf in 0 1 2 3; do f $A,XP=1,OV=0,VT=$v,BF=$bf,UB=0; done; done
f $A,XP=0,OV=0,VT=1,BF=3,UB=0
for bf in 0 2; do for ub in 0 1; do f $G,XP=1,OV=2,VT=1,BF=$bf,UB=$ub; done; done
f $G,XP=0,OV=2,VT=1,BF=0,UB=1
for x in 0 1; do for bf in 0 2; do for ub in 0 1; do b $G,XP=$x,OV=2,VT=1,BF=$bf,UB=$ub; done; done; done
for bf in 0 1 2 3; do b $A,XP=1,OV=0,VT=1,BF=$bf,UB=0; done
b $A,XP=1,OV=0,VT=0,BF=3,UB=0; b $A,XP=0,OV=0,VT=1,BF=3,UB=0
for v in 0 1; do for bf in 0 2 3; do h $A0,QR=2,XP=1,OV=0,VT=$v,BF=$bf; done; done
T=''
t() { T="$T --start $1"; }
for bf in 0 1 2 3; do t attention_fa_nv_f16:$A,XP=1,SH=0,EH=0,VT=0,BF=$bf; done
t attention_fa_nv_f16:$A,XP=1,SH=0,EH=0,VT=1,BF=3; t attention_fa_nv_f16:$A,XP=0,SH=0,EH=0,VT=1,BF=3
t attention_fa_nv_f16:$A,XP=1,SH=0,EH=0,VT=1,BF=2
for x in 0 1; do for ub in 0 1; do t attention_fa_nv_bf16:$G,XP=$x,OV=2,VT=1,BF=0,UB=$ub; done; done
t attention_fa_nv_bf16:$G,XP=1,OV=2,VT=1,BF=2,UB=0; t attention_fa_nv_bf16:$G,XP=1,OV=2,VT=1,BF=2,UB=1
t attention_fa_nv_bf16:$A,XP=1,OV=0,VT=1,BF=3,UB=0; t attention_fa_nv_bf16:$A,XP=1,OV=0,VT=1,BF=2,UB=0
for v in 0 1; do for bf in 0 2 3; do t attention_fa_nv_f16:$A0,QR=2,XP=1,SH=1,EH=1,VT=$v,BF=$bf; done; done
export F H B T
echo "fp16 $NF, fp16 S $NH, bf16 $NB configurations"
BIN=./vkautotune sh bench/device_run.sh --top 40 s13-attn-call3 \
  "f: timeout 150 \$BIN shaders/attention_fa_nv.comp.in --space spaces/attention_fa_nv_x13_f16.ini --db \$RUN/f.db --no-race --stats --strategy random --budget $NF --top $NF $F" \
  "b: timeout 150 \$BIN shaders/attention_fa_nv.comp.in --space spaces/attention_fa_nv_x13_bf16.ini --db \$RUN/b.db --no-race --stats --strategy random --budget $NB --top $NB $B" \
  "h: timeout 60 \$BIN shaders/attention_fa_nv.comp.in --space spaces/attention_fa_nv_x13_f16.ini --problem FP16_S=1 --db \$RUN/h.db --no-race --stats --strategy random --budget $NH --top $NH $H" \
  "table: PYTHONUNBUFFERED=1 timeout 300 python3 bench/llm_kernels.py --binary \$BIN --budget 14 --eager-only --baseline-rounds 5 --only attention_fa_nv_f16,attention_fa_nv_bf16 --db \$RUN/attn.db --out \$RUN/llm_attn.md $T" \
  "scrf: timeout 80 \$BIN shaders/attention_fa_nv.comp.in --space spaces/attention_fa_nv_f16.ini --db \$RUN/scrf.db --stats --budget 50s --top 8" \
  "scrb: timeout 80 \$BIN shaders/attention_fa_nv.comp.in --space spaces/attention_fa_nv_bf16.ini --db \$RUN/scrb.db --stats --budget 50s --top 8"
