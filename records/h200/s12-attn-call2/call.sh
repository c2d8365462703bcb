# s12-attn call 2 (branch s12-attn, run from .xfer-attn12): OV where registers have room (RT = 1; Q staged with
# PAD = 1, QR = 2; fp16 S) and on more two-stage / sub-block shapes, full measurements with the check, --no-race,
# pipeline statistics; a 60 s search of the OV > 0 configurations alone (register bound 240, as the real space);
# the prefill table of the real spaces (unchanged) with 5 baseline rounds; the tensor-core peak (llm_kernels.py).
cd "$(dirname "$0")" || exit 2
N=PAD=1,THR=8,LM=0,PH=0,EW=0,RS=2,SG=32
A0=BC=32,NSG=4,RT=2,STAGES=1,PF=2,QS=1,SB=32,$N,XP=1
A=$A0,QR=0
Bb=BC=32,NSG=8,RT=2,STAGES=1,PF=2,QS=1,SB=32,$N,XP=1,QR=4
C=BC=16,NSG=8,RT=2,STAGES=2,PF=0,QS=0,SB=16,$N,QR=0
R1=BC=32,NSG=8,RT=1,STAGES=2,PF=0,QS=0,SB=32,$N,QR=0
R2=BC=64,NSG=4,RT=1,STAGES=1,PF=0,QS=0,SB=32,$N,QR=0
R3=BC=16,NSG=8,RT=1,STAGES=2,PF=0,QS=0,SB=16,$N,QR=0
C4=BC=16,NSG=4,RT=2,STAGES=2,PF=0,QS=1,SB=16,$N,QR=2
D=BC=32,NSG=4,RT=2,STAGES=1,PF=0,QS=1,SB=16,$N,QR=2
E=BC=32,NSG=8,RT=2,STAGES=2,PF=0,QS=0,SB=16,$N,QR=0
F='' NF=0 H='' NH=0 B='' NB=0
f() { F="$F --start $1,SH=0,EH=0"; NF=$((NF + 1)); }
h() { H="$H --start $1,SH=1,EH=1"; NH=$((NH + 1)); }
b() { B="$B --start $1"; NB=$((NB + 1)); }
f $A,OV=0; h $A0,QR=2,OV=0; b $Bb,OV=0
for o in 0 1 2; do
  f $R1,XP=0,OV=$o; f $R1,XP=1,OV=$o; f $R2,XP=1,OV=$o; f $R3,XP=0,OV=$o; f $C4,XP=0,OV=$o; f $D,XP=0,OV=$o; f $E,XP=0,OV=$o
  h $C4,XP=1,OV=$o; h $E,XP=1,OV=$o; b $R1,XP=0,OV=$o; b $C4,XP=0,OV=$o
done
for o in 0 2; do h $C,XP=1,OV=$o; h $C,XP=0,OV=$o; done
T="--start $A,SH=0,EH=0 --start $Bb --start $A0,QR=2,SH=1,EH=1"
export F H B T
echo "fp16 $NF, fp16 S $NH, bf16 $NB configurations"
BIN=./vkautotune sh bench/device_run.sh --top 40 s12-attn-call2 \
  "ovf: timeout 150 \$BIN shaders/attention_fa_nv.comp.in --space spaces/attention_fa_nv_ov_f16.ini --db \$RUN/ovf.db --no-race --stats --strategy random --budget $NF --top $NF $F" \
  "ovh: timeout 100 \$BIN shaders/attention_fa_nv.comp.in --space spaces/attention_fa_nv_ov_f16.ini --problem FP16_S=1 --db \$RUN/ovh.db --no-race --stats --strategy random --budget $NH --top $NH $H" \
  "ovb: timeout 100 \$BIN shaders/attention_fa_nv.comp.in --space spaces/attention_fa_nv_ov_bf16.ini --db \$RUN/ovb.db --no-race --stats --strategy random --budget $NB --top $NB $B" \
  "ovs: timeout 100 \$BIN shaders/attention_fa_nv.comp.in --space spaces/attention_fa_nv_ovonly_f16.ini --db \$RUN/ovs.db --stats --budget 60s --top 10" \
  "table: timeout 300 python3 bench/llm_kernels.py --binary \$BIN --budget 6 --eager-only --baseline-rounds 5 --only attention_fa_nv_f16,attention_fa_nv_bf16 --db \$RUN/attn.db --out \$RUN/llm_attn.md $T"
