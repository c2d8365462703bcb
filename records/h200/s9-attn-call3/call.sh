# s9-attn call 3 (branch s9-attn, run from .xfer-attn): XP (exponentials fused with P V) against RS = 2 alone; the prefill table
# (the script that ran, copied; spaces/attention_fa_nv_wide_f16.ini was the real space with the registers bound 400)
cd "$(dirname "$0")" || exit 2
N=LM=0,PH=0,EW=0,RS=2,THR=8,SG=32
X01=BC=32,NSG=4,RT=2,STAGES=1,PF=2,QS=1,SB=32,PAD=1,$N,XP=0
X02=BC=32,NSG=4,RT=2,STAGES=1,PF=2,QS=1,SB=32,PAD=1,$N,XP=1
X03=BC=32,NSG=2,RT=2,STAGES=1,PF=2,QS=1,SB=32,PAD=1,$N,XP=1
X04=BC=64,NSG=8,RT=1,STAGES=1,PF=2,QS=0,SB=64,PAD=1,$N,XP=1
X05=BC=16,NSG=8,RT=2,STAGES=2,PF=0,QS=0,SB=16,PAD=1,$N,XP=0
X06=BC=16,NSG=8,RT=2,STAGES=2,PF=0,QS=0,SB=16,PAD=1,$N,XP=1
X07=BC=32,NSG=4,RT=2,STAGES=1,PF=3,QS=1,SB=32,PAD=1,$N,XP=1
X08=BC=64,NSG=4,RT=1,STAGES=1,PF=2,QS=1,SB=64,PAD=1,$N,XP=1
X09=BC=128,NSG=8,RT=1,STAGES=1,PF=2,QS=0,SB=128,PAD=1,$N,XP=1
X10=BC=32,NSG=4,RT=2,STAGES=1,PF=2,QS=0,SB=32,PAD=1,$N,XP=1
X11=BC=64,NSG=4,RT=2,STAGES=1,PF=0,QS=0,SB=16,PAD=1,$N,XP=1
X12=BC=32,NSG=8,RT=2,STAGES=2,PF=0,QS=0,SB=16,PAD=1,$N,XP=1
export X01 X02 X03 X04 X05 X06 X07 X08 X09 X10 X11 X12
BIN=./vkautotune sh bench/device_run.sh --top 14 s9-attn-call3 \
  'exp: timeout 80 $BIN shaders/attention_fa_nv.comp.in --space spaces/attention_fa_nv_wide_f16.ini --db $RUN/exp.db --no-race --stats --strategy random --budget 12 --top 12 --start $X01 --start $X02 --start $X03 --start $X04 --start $X05 --start $X06 --start $X07 --start $X08 --start $X09 --start $X10 --start $X11 --start $X12' \
  'table: timeout 150 python3 bench/llm_kernels.py --binary $BIN --budget 6 --eager-only --only attention_fa_nv_f16,attention_fa_nv_bf16 --db $RUN/attn.db --out $RUN/llm_attn.md --start $X01 --start $X02 --start $X04 --start $X05 --start $X06 --start $X11'
