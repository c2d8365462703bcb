# s12-attn call 1 (branch s12-attn, run from .xfer-attn12): OV, the next sub-block's S = Q K^T computed ahead of this
# one's softmax (1: before it; 2: after its row max and rescale, beside its exponentials), against OV = 0 on the
# shapes where the next K is staged already (two stages: the next block's; SB < BC: the next sub-block's), fp16,
# bf16 and fp16 S; full measurements with the check (rel_l2), --no-race, pipeline statistics. The spaces
# attention_fa_nv_ov_* are the real spaces with OV, the constraint 'overlap' and the register bound 400 (as run in spaces/).
cd "$(dirname "$0")" || exit 2
N=PAD=1,THR=8,LM=0,PH=0,EW=0,RS=2,SG=32
A0=BC=32,NSG=4,RT=2,STAGES=1,PF=2,QS=1,SB=32,$N,XP=1
A=$A0,QR=0
C=BC=16,NSG=8,RT=2,STAGES=2,PF=0,QS=0,SB=16,$N,QR=0
C4=BC=16,NSG=4,RT=2,STAGES=2,PF=0,QS=1,SB=16,PAD=0,THR=8,LM=0,PH=0,EW=0,RS=2,SG=32,QR=0
C8=BC=16,NSG=8,RT=2,STAGES=2,PF=0,QS=1,SB=16,PAD=0,THR=8,LM=0,PH=0,EW=0,RS=2,SG=32,QR=4
D=BC=32,NSG=4,RT=2,STAGES=2,PF=0,QS=1,PAD=0,THR=8,LM=0,PH=0,EW=0,RS=2,SG=32,QR=4
E=BC=64,NSG=4,RT=2,STAGES=1,PF=0,QS=1,PAD=0,THR=8,LM=0,PH=0,EW=0,RS=2,SG=32,QR=4
F='' n=0
add() { F="$F --start $1"; n=$((n + 1)); }
add $A,OV=0,SH=0,EH=0
for x in 0 1; do for o in 0 1 2; do add $C,XP=$x,OV=$o,SH=0,EH=0; add $C4,XP=$x,OV=$o,SH=0,EH=0; done; done
for o in 0 1 2; do add $C8,XP=0,OV=$o,SH=0,EH=0; add $D,SB=16,XP=0,OV=$o,SH=0,EH=0; add $E,SB=32,XP=1,OV=$o,SH=0,EH=0; done
add $D,SB=32,XP=0,OV=0,SH=0,EH=0; add $D,SB=32,XP=0,OV=2,SH=0,EH=0; add $E,SB=16,XP=0,OV=0,SH=0,EH=0; add $E,SB=16,XP=0,OV=2,SH=0,EH=0
NF=$n
B='' n=0
for o in 0 1 2; do B="$B --start $C,XP=0,OV=$o --start $C4,XP=0,OV=$o"; n=$((n + 2)); done
B="$B --start $A,OV=0 --start BC=32,NSG=8,RT=2,STAGES=1,PF=2,QS=1,SB=32,$N,XP=1,QR=4,OV=0"; n=$((n + 2)); NB=$n
H='' n=0
H="$H --start $A0,QR=2,OV=0,SH=1,EH=1"; n=$((n + 1))
for o in 0 1 2; do H="$H --start $C,XP=1,OV=$o,SH=1,EH=1 --start $C4,XP=1,OV=$o,SH=1,EH=1"; n=$((n + 2)); done; NH=$n
export F B H
echo "fp16 $NF, bf16 $NB, fp16 S $NH configurations"
BIN=./vkautotune sh bench/device_run.sh --top 30 s12-attn-call1 \
  "ovf: timeout 150 \$BIN shaders/attention_fa_nv.comp.in --space spaces/attention_fa_nv_ov_f16.ini --db \$RUN/ovf.db --no-race --stats --strategy random --budget $NF --top $NF $F" \
  "ovb: timeout 60 \$BIN shaders/attention_fa_nv.comp.in --space spaces/attention_fa_nv_ov_bf16.ini --db \$RUN/ovb.db --no-race --stats --strategy random --budget $NB --top $NB $B" \
  "ovh: timeout 60 \$BIN shaders/attention_fa_nv.comp.in --space spaces/attention_fa_nv_ov_f16.ini --problem FP16_S=1 --db \$RUN/ovh.db --no-race --stats --strategy random --budget $NH --top $NH $H" \
  "peak: timeout 60 \$BIN peaks --json"
