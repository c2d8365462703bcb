# s13-attn call 1 (branch s13-attn, run from .xfer-attn13): knobs around the two winners, fp16 and bf16, full
# measurements with the check, --no-race --stats: QR = 1, 3 (Q fragments held: between the space's 0, 2, 4), VT = 1
# (one rescale vote per sub-block for both row tiles), OA = 1 (fp16 O stored through the A type, as bf16 is: the
# one SPIR-V difference between the two types besides the types), on G (BC=16, two stages, Q staged, OV = 2) and A.
cd "$(dirname "$0")" || exit 2
N=PAD=1,THR=8,LM=0,PH=0,EW=0,RS=2,SG=32
A0=BC=32,NSG=4,RT=2,STAGES=1,PF=2,QS=1,SB=32,$N,XP=1
A=$A0,QR=0
Bb=BC=32,NSG=8,RT=2,STAGES=1,PF=2,QS=1,SB=32,$N,XP=1
G=BC=16,NSG=4,RT=2,STAGES=2,PF=0,QS=1,SB=16,$N
C=BC=16,NSG=8,RT=2,STAGES=2,PF=0,QS=0,SB=16,$N,QR=0,XP=0
F='' NF=0 H='' NH=0 B='' NB=0
f() { F="$F --start $1,SH=0,EH=0"; NF=$((NF + 1)); }
h() { H="$H --start $1,SH=1,EH=1,OA=0"; NH=$((NH + 1)); }
b() { B="$B --start $1,OA=0"; NB=$((NB + 1)); }
f $A,OV=0,VT=0,OA=0; f $A,OV=0,VT=1,OA=0; f $A,OV=0,VT=0,OA=1
b $A,OV=0,VT=0; b $A,OV=0,VT=1; b $Bb,QR=4,OV=0,VT=0; b $Bb,QR=4,OV=0,VT=1; b $Bb,QR=3,OV=0,VT=0
f $C,OV=0,VT=0,OA=0; f $C,OV=0,VT=1,OA=0
for q in 1 2 3; do for x in 0 1; do for v in 0 1; do
  f $G,QR=$q,XP=$x,OV=2,VT=$v,OA=0; b $G,QR=$q,XP=$x,OV=2,VT=$v
done; done
  f $G,QR=$q,XP=1,OV=0,VT=0,OA=0; b $G,QR=$q,XP=1,OV=0,VT=0
done
f $G,QR=2,XP=1,OV=2,VT=0,OA=1; f $G,QR=2,XP=0,OV=2,VT=0,OA=1; f $G,QR=1,XP=1,OV=2,VT=1,OA=1
h $A0,QR=2,OV=0,VT=0; h $A0,QR=2,OV=0,VT=1; h $A0,QR=1,OV=0,VT=0; h $A0,QR=3,OV=0,VT=0
h $G,QR=2,XP=1,OV=2,VT=0; h $G,QR=1,XP=1,OV=2,VT=0; h $G,QR=1,XP=1,OV=2,VT=1
Ib="--start $G,QR=2,XP=1,OV=2,VT=0,OA=0 --start $G,QR=2,XP=1,OV=0,VT=0,OA=0"
If="--start $G,QR=2,XP=1,OV=2,VT=0,OA=0,SH=0,EH=0 --start $G,QR=2,XP=1,OV=0,VT=0,OA=0,SH=0,EH=0"
export F H B Ib If
echo "fp16 $NF, fp16 S $NH, bf16 $NB configurations"
BIN=./vkautotune sh bench/device_run.sh --top 40 s13-attn-call1 \
  "f: timeout 150 \$BIN shaders/attention_fa_nv.comp.in --space spaces/attention_fa_nv_x13_f16.ini --db \$RUN/f.db --no-race --stats --strategy random --budget $NF --top $NF $F" \
  "b: timeout 150 \$BIN shaders/attention_fa_nv.comp.in --space spaces/attention_fa_nv_x13_bf16.ini --db \$RUN/b.db --no-race --stats --strategy random --budget $NB --top $NB $B" \
  "h: timeout 60 \$BIN shaders/attention_fa_nv.comp.in --space spaces/attention_fa_nv_x13_f16.ini --problem FP16_S=1 --db \$RUN/h.db --no-race --stats --strategy random --budget $NH --top $NH $H" \
  "isof3: timeout 60 \$BIN shaders/attention_fa_nv.comp.in --space spaces/attention_fa_nv_x13iso_f16.ini --problem ISO=3 --db \$RUN/isof3.db --no-race --stats --strategy random --budget 2 --top 2 $If" \
  "isob3: timeout 60 \$BIN shaders/attention_fa_nv.comp.in --space spaces/attention_fa_nv_x13iso_bf16.ini --problem ISO=3 --db \$RUN/isob3.db --no-race --stats --strategy random --budget 2 --top 2 $Ib" \
  "isof4: timeout 60 \$BIN shaders/attention_fa_nv.comp.in --space spaces/attention_fa_nv_x13iso_f16.ini --problem ISO=4 --db \$RUN/isof4.db --no-race --stats --strategy random --budget 2 --top 2 $If" \
  "isob4: timeout 60 \$BIN shaders/attention_fa_nv.comp.in --space spaces/attention_fa_nv_x13iso_bf16.ini --problem ISO=4 --db \$RUN/isob4.db --no-race --stats --strategy random --budget 2 --top 2 $Ib" \
  "isof7: timeout 60 \$BIN shaders/attention_fa_nv.comp.in --space spaces/attention_fa_nv_x13iso_f16.ini --problem ISO=7 --db \$RUN/isof7.db --no-race --stats --strategy random --budget 2 --top 2 $If" \
  "isob7: timeout 60 \$BIN shaders/attention_fa_nv.comp.in --space spaces/attention_fa_nv_x13iso_bf16.ini --problem ISO=7 --db \$RUN/isob7.db --no-race --stats --strategy random --budget 2 --top 2 $Ib" \
  "f2: timeout 150 \$BIN shaders/attention_fa_nv.comp.in --space spaces/attention_fa_nv_x13_f16.ini --db \$RUN/f2.db --no-race --stats --strategy random --budget $NF --top $NF $F"
