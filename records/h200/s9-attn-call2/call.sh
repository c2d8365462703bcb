# s9-attn call 2 (branch s9-attn at 05f6c2b less its comment edits, run from .xfer-attn): RS = 2 on the shapes the freed registers allow; ISO; the prefill table; a from-scratch search
# (a record of what ran, recreated from the script that ran; spaces/attention_fa_nv_wide_f16.ini was the real space with the registers bound 400)
cd "$(dirname "$0")" || exit 2
N=LM=0,PH=0,EW=0,RS=2,STAGES=1,THR=8,SG=32
W01=BC=32,NSG=4,RT=2,PF=2,QS=1,SB=32,PAD=1,$N
W02=BC=32,NSG=2,RT=2,PF=2,QS=1,SB=32,PAD=1,$N
W03=BC=32,NSG=4,RT=2,PF=2,QS=0,SB=32,PAD=1,$N
W04=BC=64,NSG=4,RT=2,PF=3,QS=0,SB=64,PAD=1,$N
W05=BC=64,NSG=4,RT=2,PF=2,QS=0,SB=64,PAD=1,$N
W06=BC=64,NSG=2,RT=2,PF=2,QS=1,SB=64,PAD=1,$N
W07=BC=64,NSG=2,RT=2,PF=3,QS=1,SB=64,PAD=1,$N
W08=BC=64,NSG=4,RT=2,PF=2,QS=1,SB=64,PAD=0,$N
W09=BC=64,NSG=8,RT=1,PF=2,QS=0,SB=64,PAD=1,$N
W10=BC=64,NSG=4,RT=1,PF=2,QS=1,SB=64,PAD=1,$N
W11=BC=64,NSG=4,RT=1,PF=3,QS=1,SB=64,PAD=1,$N
W12=BC=128,NSG=8,RT=1,PF=2,QS=0,SB=128,PAD=1,$N
W13=BC=32,NSG=4,RT=2,PF=2,QS=1,SB=32,PAD=0,$N
W14=BC=16,NSG=4,RT=2,PF=2,QS=1,SB=16,PAD=1,$N
W15=BC=32,NSG=2,RT=2,PF=3,QS=1,SB=32,PAD=1,$N
W16=BC=64,NSG=2,RT=2,PF=0,QS=1,SB=32,PAD=0,$N
W17=BC=32,NSG=4,RT=2,PF=0,QS=0,SB=32,PAD=1,LM=0,PH=0,EW=0,RS=2,STAGES=2,THR=8,SG=32
W18=BC=32,NSG=4,RT=2,PF=2,QS=1,SB=32,PAD=1,LM=0,PH=0,EW=0,RS=2,STAGES=1,THR=0,SG=32
W19=BC=64,NSG=8,RT=2,PF=2,QS=0,SB=64,PAD=1,$N
W21=BC=64,NSG=2,RT=2,PF=2,QS=1,SB=64,PAD=0,$N
W22=BC=32,NSG=8,RT=2,PF=2,QS=0,SB=32,PAD=1,$N
B2=BC=32,NSG=4,RT=2,STAGES=1,PF=2,PAD=1,THR=8,QS=1,SB=32,LM=1,PH=0,EW=0,RS=0,SG=32
export W01 W02 W03 W04 W05 W06 W07 W08 W09 W10 W11 W12 W13 W14 W15 W16 W17 W18 W19 W21 W22 B2
ISO='$BIN shaders/attention_fa_nv.comp.in --space bench/isolate/attention_fa_nv_iso_f16.ini --db $RUN/iso.db --no-race --stats --strategy random --budget 1 --top 1 --start $W01 --problem ISO='
BIN=./vkautotune sh bench/device_run.sh --top 24 s9-attn-call2 \
  'exp: timeout 100 $BIN shaders/attention_fa_nv.comp.in --space spaces/attention_fa_nv_wide_f16.ini --db $RUN/exp.db --no-race --stats --strategy random --budget 21 --top 21 --start $W01 --start $W02 --start $W03 --start $W04 --start $W05 --start $W06 --start $W07 --start $W08 --start $W09 --start $W10 --start $W11 --start $W12 --start $W13 --start $W14 --start $W15 --start $W16 --start $W17 --start $W18 --start $W19 --start $W21 --start $W22' \
  "iso3: timeout 30 ${ISO}3" "iso4: timeout 30 ${ISO}4" "iso7: timeout 30 ${ISO}7" \
  'table: timeout 150 python3 bench/llm_kernels.py --binary $BIN --budget 7 --eager-only --only attention_fa_nv_f16,attention_fa_nv_bf16 --db $RUN/attn.db --out $RUN/llm_attn.md --start $W01 --start $W02 --start $W09 --start $W10 --start $W13 --start $W14 --start $B2' \
  'scratch: timeout 90 $BIN shaders/attention_fa_nv.comp.in --space spaces/attention_fa_nv_f16.ini --db $RUN/scratch.db --stats --budget 60s --top 8'
