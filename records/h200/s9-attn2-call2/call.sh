# s9-attn2 call 2 (branch s9-attn2, run from .xfer-attn2): PF = 1 and two stages at RT = 2, QS = 1, which QR makes fit in 48 KiB; ISO 4 / 7 (PF = 1 against PF = 2: the barriers); the prefill table; a 60 s search from scratch
# (spaces/attention_fa_nv_wide_f16.ini: the real space with the register bound 400 and QR = 6 added)
cd "$(dirname "$0")" || exit 2
N=LM=0,PH=0,EW=0,RS=2,THR=8,SG=32,PAD=1
E01=BC=32,NSG=4,RT=2,STAGES=1,PF=2,QS=1,SB=32,$N,XP=1,QR=0
E03=BC=32,NSG=4,RT=2,STAGES=1,PF=2,QS=1,SB=32,$N,XP=1,QR=4
E08=BC=32,NSG=8,RT=2,STAGES=1,PF=2,QS=1,SB=32,$N,XP=1,QR=4
X05=BC=16,NSG=8,RT=2,STAGES=2,PF=0,QS=0,SB=16,$N,XP=0,QR=0
F01=BC=32,NSG=4,RT=2,STAGES=1,PF=1,QS=1,SB=32,$N,XP=1,QR=4
F02=BC=32,NSG=4,RT=2,STAGES=1,PF=1,QS=1,SB=32,$N,XP=0,QR=4
F03=BC=32,NSG=4,RT=2,STAGES=1,PF=1,QS=1,SB=32,$N,XP=1,QR=2
F04=BC=32,NSG=4,RT=2,STAGES=1,PF=1,QS=1,SB=32,$N,XP=0,QR=2
F05=BC=16,NSG=4,RT=2,STAGES=2,PF=0,QS=1,SB=16,$N,XP=0,QR=4
F06=BC=16,NSG=4,RT=2,STAGES=2,PF=0,QS=1,SB=16,$N,XP=1,QR=4
F07=BC=16,NSG=4,RT=2,STAGES=2,PF=0,QS=1,SB=16,$N,XP=0,QR=2
F08=BC=32,NSG=4,RT=2,STAGES=1,PF=0,QS=1,SB=16,$N,XP=0,QR=4
F09=BC=32,NSG=4,RT=2,STAGES=1,PF=0,QS=1,SB=32,$N,XP=1,QR=4
F10=BC=16,NSG=8,RT=2,STAGES=1,PF=1,QS=1,SB=16,$N,XP=0,QR=4
F11=BC=32,NSG=8,RT=2,STAGES=1,PF=2,QS=1,SB=32,$N,XP=1,QR=6
F12=BC=64,NSG=4,RT=2,STAGES=1,PF=1,QS=1,SB=64,$N,XP=1,QR=6
export N E01 E03 E08 X05 F01 F02 F03 F04 F05 F06 F07 F08 F09 F10 F11 F12
ISO='$BIN shaders/attention_fa_nv.comp.in --space bench/isolate/attention_fa_nv_iso_f16.ini --db $RUN/iso.db --no-race --stats --strategy random --budget 5 --top 5 --start $E01 --start $E03 --start $F01 --start $F03 --start $F05 --problem ISO='
BIN=./vkautotune sh bench/device_run.sh --top 20 s9-attn2-call2 \
  'exp: timeout 100 $BIN shaders/attention_fa_nv.comp.in --space spaces/attention_fa_nv_wide_f16.ini --db $RUN/exp.db --no-race --stats --strategy random --budget 16 --top 16 --start $E01 --start $E03 --start $E08 --start $X05 --start $F01 --start $F02 --start $F03 --start $F04 --start $F05 --start $F06 --start $F07 --start $F08 --start $F09 --start $F10 --start $F11 --start $F12' \
  'expb: timeout 60 $BIN shaders/attention_fa_nv.comp.in --space spaces/attention_fa_nv_wide_bf16.ini --db $RUN/expb.db --no-race --stats --strategy random --budget 6 --top 6 --start $E01 --start $E08 --start $F01 --start $F02 --start $F03 --start $F05' \
  "iso4: timeout 40 ${ISO}4" "iso7: timeout 40 ${ISO}7" \
  'table: timeout 150 python3 bench/llm_kernels.py --binary $BIN --budget 10 --eager-only --only attention_fa_nv_f16,attention_fa_nv_bf16 --db $RUN/attn.db --out $RUN/llm_attn.md --start $E01 --start $E08 --start $X05 --start $F03 --start $F04 --start $F05 --start $F07 --start $F08 --start $F09 --start $F10' \
  'scratch: timeout 80 $BIN shaders/attention_fa_nv.comp.in --space spaces/attention_fa_nv_f16.ini --db $RUN/scratch.db --stats --budget 60s --top 8'
