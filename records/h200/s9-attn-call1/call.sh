# s9-attn call 1 (branch s9-attn at 1dcbcfa + the RS / FZ change, run from .xfer-attn): RS (row statistics per thread), FZ (flush to zero), shapes RS frees; ISO; the prefill table
# (a record of what ran, recreated from the script that ran; spaces/attention_fa_nv_wide_f16.ini was the real space with the registers bound 400 and FZ = 0, 1 added)
cd "$(dirname "$0")" || exit 2
C=STAGES=1,PAD=1,THR=8,SG=32
B2=BC=32,NSG=4,RT=2,PF=2,QS=1,SB=32,$C
R1=BC=64,NSG=8,RT=1,PF=2,QS=0,SB=64,$C
L0=LM=1,PH=0,EW=0,RS=0
V01=$B2,$L0,FZ=0
V02=$B2,LM=0,PH=0,EW=0,RS=1,FZ=0
V03=$B2,LM=0,PH=0,EW=0,RS=2,FZ=0
V04=$B2,$L0,FZ=1
V05=$B2,LM=0,PH=0,EW=0,RS=1,FZ=1
V06=$R1,$L0,FZ=0
V07=$R1,LM=0,PH=0,EW=0,RS=1,FZ=0
N=LM=0,PH=0,EW=0,RS=1,FZ=0,$C
V08=BC=64,NSG=4,RT=1,PF=2,QS=1,SB=64,$N
V09=BC=64,NSG=2,RT=2,PF=2,QS=1,SB=64,$N
V10=BC=64,NSG=2,RT=2,PF=3,QS=1,SB=64,$N
V11=BC=32,NSG=4,RT=2,PF=2,QS=0,SB=32,$N
V12=BC=64,NSG=4,RT=2,PF=3,QS=0,SB=64,$N
V14=BC=128,NSG=8,RT=1,PF=2,QS=0,SB=128,$N
V15=BC=64,NSG=4,RT=2,PF=2,QS=0,SB=64,$N
V16=BC=64,NSG=4,RT=1,PF=3,QS=1,SB=64,$N
export V01 V02 V03 V04 V05 V06 V07 V08 V09 V10 V11 V12 V14 V15 V16
S01=$(echo $V01 | sed 's/,FZ=0//'); S02=$(echo $V02 | sed 's/,FZ=0//'); S07=$(echo $V07 | sed 's/,FZ=0//'); S08=$(echo $V08 | sed 's/,FZ=0//')
export S01 S02 S07 S08
ISO='$BIN shaders/attention_fa_nv.comp.in --space bench/isolate/attention_fa_nv_iso_f16.ini --db $RUN/iso.db --no-race --stats --strategy random --budget 2 --top 2 --start $S01 --start $S02 --problem ISO='
BIN=./vkautotune sh bench/device_run.sh --top 20 s9-attn-call1 \
  'exp: timeout 200 $BIN shaders/attention_fa_nv.comp.in --space spaces/attention_fa_nv_wide_f16.ini --db $RUN/exp.db --no-race --stats --strategy random --budget 15 --top 15 --start $V01 --start $V02 --start $V03 --start $V04 --start $V05 --start $V06 --start $V07 --start $V08 --start $V09 --start $V10 --start $V11 --start $V12 --start $V14 --start $V15 --start $V16' \
  "iso3: timeout 40 ${ISO}3" "iso7: timeout 40 ${ISO}7" \
  'table: timeout 200 python3 bench/llm_kernels.py --binary $BIN --budget 4 --eager-only --only attention_fa_nv_f16,attention_fa_nv_bf16 --db $RUN/attn.db --out $RUN/llm_attn.md --start $S01 --start $S02 --start $S07 --start $S08'
