# s10-attn call 3 (branch s10-attn, run from .xfer-attn): the best of call 2 (SH = 1, EH = 1, QR = 2 at NSG = 4) against
# its neighbours and the previous best again; its loop decomposed (ISO); the prefill table; from-scratch searches of
# the real spaces, fp16 (80 s) and bf16 (50 s), no --start
cd "$(dirname "$0")" || exit 2
sed -e 's/^\(registers = .*\) <= 240$/\1 <= 400/' -e 's/^name = attention_fa_nv_f16/name = attention_fa_nv_wide_f16/' spaces/attention_fa_nv_f16.ini >spaces/attention_fa_nv_wide_f16.ini
N=LM=0,PH=0,EW=0,RS=2,THR=8,SG=32,PAD=1
A=BC=32,NSG=4,RT=2,STAGES=1,PF=2,QS=1,SB=32,$N
B=BC=32,NSG=8,RT=2,STAGES=1,PF=2,QS=1,SB=32,$N
V00=$A,XP=1,QR=0,SH=0,EH=0
V01=$A,XP=1,QR=2,SH=1,EH=1
V02=$A,XP=1,QR=2,SH=1,EH=0
V03=$A,XP=1,QR=2,SH=0,EH=0
V04=$A,XP=1,QR=4,SH=1,EH=1
V05=$A,XP=0,QR=4,SH=1,EH=1
V06=$B,XP=1,QR=4,SH=1,EH=1
V07=BC=32,NSG=4,RT=2,STAGES=1,PF=1,QS=1,SB=32,$N,XP=1,QR=2,SH=1,EH=1
V08=BC=32,NSG=4,RT=2,STAGES=1,PF=1,QS=1,SB=32,$N,XP=1,QR=4,SH=1,EH=1
V09=BC=16,NSG=4,RT=2,STAGES=2,PF=0,QS=1,SB=16,$N,XP=1,QR=4,SH=1,EH=1
V10=BC=64,NSG=4,RT=2,STAGES=1,PF=3,QS=1,SB=64,$N,XP=1,QR=2,SH=1,EH=1
V11=$A,XP=0,QR=0,SH=1,EH=1
V12=BC=16,NSG=8,RT=2,STAGES=2,PF=0,QS=0,SB=16,$N,XP=0,QR=0,SH=0,EH=0
export N V00 V01 V02 V03 V04 V05 V06 V07 V08 V09 V10 V11 V12
ST=''
for v in V00 V01 V02 V03 V04 V05 V06 V07 V08 V09 V10 V11 V12; do ST="$ST --start \$$v"; done
ISO='$BIN shaders/attention_fa_nv.comp.in --space bench/isolate/attention_fa_nv_iso_f16.ini --db $RUN/iso.db --no-race --stats --strategy random --budget 3 --top 3 --start $V00 --start $V01 --start $V03 --problem ISO='
BIN=./vkautotune sh bench/device_run.sh --top 16 s10-attn-call3 \
  "exp: timeout 60 \$BIN shaders/attention_fa_nv.comp.in --space spaces/attention_fa_nv_wide_f16.ini --db \$RUN/exp.db --no-race --stats --strategy random --budget 13 --top 13 $ST" \
  "iso0: timeout 20 ${ISO}0" "iso4: timeout 20 ${ISO}4" "iso7: timeout 20 ${ISO}7" "iso15: timeout 20 ${ISO}15" "iso23: timeout 20 ${ISO}23" "iso31: timeout 20 ${ISO}31" \
  'table: timeout 100 python3 bench/llm_kernels.py --binary $BIN --budget 10 --eager-only --only attention_fa_nv_f16,attention_fa_nv_bf16 --db $RUN/attn.db --out $RUN/llm_attn.md --start $V01 --start $V04 --start $V06 --start $V11 --start $V00 --start BC=32,NSG=8,RT=2,STAGES=1,PF=2,PAD=1,THR=8,QS=1,SB=32,LM=0,PH=0,EW=0,RS=2,XP=1,QR=4,SG=32 --start BC=16,NSG=8,RT=2,STAGES=2,PF=0,PAD=1,THR=8,QS=0,SB=16,LM=0,PH=0,EW=0,RS=2,XP=0,QR=0,SG=32' \
  'scratch: timeout 95 $BIN shaders/attention_fa_nv.comp.in --space spaces/attention_fa_nv_f16.ini --db $RUN/scratch.db --stats --budget 80s --top 8' \
  'scratchb: timeout 65 $BIN shaders/attention_fa_nv.comp.in --space spaces/attention_fa_nv_bf16.ini --db $RUN/scratchb.db --stats --budget 50s --top 8'
