# s13-attn call 2 (branch s13-attn, run from .xfer-attn13): BF (the staging of blocks ahead without branches) with
# VT = 1 on G and A, fp16, bf16 and fp16 S, full measurements with the check, --no-race --stats (the x13 experiment
# spaces); the candidate spaces (fp16 with OV = 0, 2, both with VT and BF) searched from scratch (50 s, no --start);
# the prefill table of the candidate spaces, 3 baseline rounds, the tensor-core peak.
cd "$(dirname "$0")" || exit 2
N=PAD=1,THR=8,LM=0,PH=0,EW=0,RS=2,SG=32
A0=BC=32,NSG=4,RT=2,STAGES=1,PF=2,QS=1,SB=32,$N,XP=1
A=$A0,QR=0
Bb=BC=32,NSG=8,RT=2,STAGES=1,PF=2,QS=1,SB=32,$N,XP=1,QR=4
G=BC=16,NSG=4,RT=2,STAGES=2,PF=0,QS=1,SB=16,$N,QR=2
F='' NF=0 H='' NH=0 B='' NB=0
f() { F="$F --start $1,SH=0,EH=0"; NF=$((NF + 1)); }
h() { H="$H --start $1,SH=1,EH=1,OA=0"; NH=$((NH + 1)); }
b() { B="$B --start $1,OA=0"; NB=$((NB + 1)); }
for x in 0 1; do for bf in 0 1; do
  f $G,XP=$x,OV=2,VT=1,BF=$bf,OA=0; b $G,XP=$x,OV=2,VT=1,BF=$bf
done; done
f $G,XP=1,OV=2,VT=0,BF=1,OA=0; b $G,XP=1,OV=2,VT=0,BF=1
f $G,XP=1,OV=2,VT=1,BF=1,OA=1; f $G,XP=1,OV=0,VT=1,BF=1,OA=0; b $G,XP=1,OV=0,VT=1,BF=1
for v in 0 1; do for bf in 0 1; do f $A,OV=0,VT=$v,BF=$bf,OA=0; b $A,OV=0,VT=$v,BF=$bf; done; done
b $Bb,OV=0,VT=1,BF=1; b $Bb,OV=0,VT=0,BF=1
f BC=16,NSG=8,RT=2,STAGES=2,PF=0,QS=0,SB=16,$N,QR=0,XP=0,OV=0,VT=0,BF=1,OA=0
for v in 0 1; do for bf in 0 1; do h $A0,QR=2,OV=0,VT=$v,BF=$bf; done; done
h $G,XP=1,OV=2,VT=1,BF=1
T="--start attention_fa_nv_f16:$A,SH=0,EH=0,OV=0,VT=0,BF=0 --start attention_fa_nv_f16:$G,XP=1,SH=0,EH=0,OV=2,VT=1,BF=0"
T="$T --start attention_fa_nv_f16:$G,XP=1,SH=0,EH=0,OV=2,VT=1,BF=1 --start attention_fa_nv_f16:$G,XP=0,SH=0,EH=0,OV=2,VT=1,BF=1"
T="$T --start attention_fa_nv_bf16:$G,XP=1,OV=2,VT=1,BF=0 --start attention_fa_nv_bf16:$G,XP=1,OV=2,VT=1,BF=1"
T="$T --start attention_fa_nv_bf16:$G,XP=0,OV=2,VT=1,BF=1 --start attention_fa_nv_bf16:$G,XP=1,OV=2,VT=0,BF=0"
T="$T --start attention_fa_nv_f16:$A0,QR=2,SH=1,EH=1,OV=0,VT=1,BF=0 --start attention_fa_nv_f16:$A0,QR=2,SH=1,EH=1,OV=0,VT=1,BF=1"
export F H B T
echo "fp16 $NF, fp16 S $NH, bf16 $NB configurations"
BIN=./vkautotune sh bench/device_run.sh --top 40 s13-attn-call2 \
  "f: timeout 150 \$BIN shaders/attention_fa_nv.comp.in --space spaces/attention_fa_nv_x13_f16.ini --db \$RUN/f.db --no-race --stats --strategy random --budget $NF --top $NF $F" \
  "b: timeout 150 \$BIN shaders/attention_fa_nv.comp.in --space spaces/attention_fa_nv_x13_bf16.ini --db \$RUN/b.db --no-race --stats --strategy random --budget $NB --top $NB $B" \
  "h: timeout 60 \$BIN shaders/attention_fa_nv.comp.in --space spaces/attention_fa_nv_x13_f16.ini --problem FP16_S=1 --db \$RUN/h.db --no-race --stats --strategy random --budget $NH --top $NH $H" \
  "table: PYTHONUNBUFFERED=1 timeout 240 python3 bench/llm_kernels.py --binary \$BIN --budget 6 --eager-only --baseline-rounds 3 --only attention_fa_nv_f16,attention_fa_nv_bf16 --db \$RUN/attn.db --out \$RUN/llm_attn.md $T" \
  "scrf: timeout 80 \$BIN shaders/attention_fa_nv.comp.in --space spaces/attention_fa_nv_f16.ini --db \$RUN/scrf.db --stats --budget 50s --top 8" \
  "scrb: timeout 80 \$BIN shaders/attention_fa_nv.comp.in --space spaces/attention_fa_nv_bf16.ini --db \$RUN/scrb.db --stats --budget 50s --top 8"
