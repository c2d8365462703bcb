# s12-attn call 3 (branch s12-attn, run from .xfer-attn12): call 2's bf16 winner (BC=16, NSG=4, RT=2, two stages, Q
# staged with QR = 2, OV = 2) against its neighbours (THR, QR, XP, NSG, OV), bf16, fp16 and fp16 S, full measurements
# with the check, --no-race; the prefill table of the spaces as committed (bf16 with OV = 0, 2; fp16 unchanged), 5
# baseline rounds, the tensor-core peak; bf16 from scratch (150 s, no --start) in the committed space.
cd "$(dirname "$0")" || exit 2
N=PAD=1,THR=8,LM=0,PH=0,EW=0,RS=2,SG=32
A0=BC=32,NSG=4,RT=2,STAGES=1,PF=2,QS=1,SB=32,$N,XP=1
A=$A0,QR=0
Bb=BC=32,NSG=8,RT=2,STAGES=1,PF=2,QS=1,SB=32,$N,XP=1,QR=4
G=BC=16,RT=2,STAGES=2,PF=0,QS=1,SB=16,PAD=1,LM=0,PH=0,EW=0,RS=2,SG=32
F='' NF=0 H='' NH=0 B='' NB=0
f() { F="$F --start $1,SH=0,EH=0"; NF=$((NF + 1)); }
h() { H="$H --start $1,SH=1,EH=1"; NH=$((NH + 1)); }
b() { B="$B --start $1"; NB=$((NB + 1)); }
f $A,OV=0; h $A0,QR=2,OV=0; b $Bb,OV=0
for o in 0 2; do
  for t in 8 0; do for q in 2 4; do for x in 0 1; do
    f $G,NSG=4,THR=$t,QR=$q,XP=$x,OV=$o; b $G,NSG=4,THR=$t,QR=$q,XP=$x,OV=$o
  done; done; done
  f $G,NSG=2,THR=8,QR=2,XP=0,OV=$o; b $G,NSG=2,THR=8,QR=2,XP=0,OV=$o
  h $G,NSG=4,THR=8,QR=2,XP=1,OV=$o; h $G,NSG=4,THR=8,QR=4,XP=1,OV=$o
done
f $G,NSG=4,THR=8,QR=4,XP=0,OV=1; b $G,NSG=4,THR=8,QR=4,XP=0,OV=1
W=$G,NSG=4,THR=8,QR=2,XP=0
T="--start $A,SH=0,EH=0 --start $Bb,OV=0 --start $W,OV=2 --start $G,NSG=4,THR=8,QR=2,XP=1,OV=2 --start $A0,QR=2,SH=1,EH=1"
export F H B T
echo "fp16 $NF, fp16 S $NH, bf16 $NB configurations"
BIN=./vkautotune sh bench/device_run.sh --top 40 s12-attn-call3 \
  "ovb: timeout 100 \$BIN shaders/attention_fa_nv.comp.in --space spaces/attention_fa_nv_ov_bf16.ini --db \$RUN/ovb.db --no-race --stats --strategy random --budget $NB --top $NB $B" \
  "ovf: timeout 100 \$BIN shaders/attention_fa_nv.comp.in --space spaces/attention_fa_nv_ov_f16.ini --db \$RUN/ovf.db --no-race --stats --strategy random --budget $NF --top $NF $F" \
  "ovh: timeout 60 \$BIN shaders/attention_fa_nv.comp.in --space spaces/attention_fa_nv_ov_f16.ini --problem FP16_S=1 --db \$RUN/ovh.db --no-race --stats --strategy random --budget $NH --top $NH $H" \
  "table: timeout 300 python3 bench/llm_kernels.py --binary \$BIN --budget 6 --eager-only --baseline-rounds 5 --only attention_fa_nv_f16,attention_fa_nv_bf16 --db \$RUN/attn.db --out \$RUN/llm_attn.md $T" \
  "scratch: timeout 200 \$BIN shaders/attention_fa_nv.comp.in --space spaces/attention_fa_nv_bf16.ini --db \$RUN/scratch.db --stats --budget 150s --top 8"
