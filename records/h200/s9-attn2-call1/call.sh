# s9-attn2 call 1 (branch s9-attn2, run from .xfer-attn2): QR (Q fragments held in registers) on the best shape and on the shapes it opens (NSG = 8 at RT = 2, the 32 x 64 tile); ISO 4 / 7; the prefill table
# (spaces/attention_fa_nv_wide_f16.ini: the real space with the register bound 400 and QR = 6 added)
cd "$(dirname "$0")" || exit 2
N=LM=0,PH=0,EW=0,RS=2,THR=8,SG=32,PAD=1
E01=BC=32,NSG=4,RT=2,STAGES=1,PF=2,QS=1,SB=32,$N,XP=1,QR=0
E02=BC=32,NSG=4,RT=2,STAGES=1,PF=2,QS=1,SB=32,$N,XP=1,QR=2
E03=BC=32,NSG=4,RT=2,STAGES=1,PF=2,QS=1,SB=32,$N,XP=1,QR=4
E04=BC=32,NSG=4,RT=2,STAGES=1,PF=2,QS=1,SB=32,$N,XP=0,QR=2
E05=BC=32,NSG=4,RT=2,STAGES=1,PF=2,QS=1,SB=32,$N,XP=0,QR=4
E06=BC=32,NSG=4,RT=2,STAGES=1,PF=3,QS=1,SB=32,$N,XP=1,QR=2
E07=BC=32,NSG=4,RT=2,STAGES=1,PF=3,QS=1,SB=32,$N,XP=1,QR=4
E08=BC=32,NSG=8,RT=2,STAGES=1,PF=2,QS=1,SB=32,$N,XP=1,QR=4
E09=BC=32,NSG=8,RT=2,STAGES=1,PF=2,QS=1,SB=32,$N,XP=0,QR=4
E10=BC=16,NSG=8,RT=2,STAGES=1,PF=2,QS=1,SB=16,$N,XP=1,QR=4
E11=BC=16,NSG=8,RT=2,STAGES=1,PF=2,QS=1,SB=16,$N,XP=0,QR=4
E12=BC=32,NSG=8,RT=2,STAGES=1,PF=3,QS=1,SB=32,$N,XP=1,QR=4
E13=BC=64,NSG=4,RT=2,STAGES=1,PF=3,QS=1,SB=64,$N,XP=1,QR=4
E14=BC=64,NSG=4,RT=2,STAGES=1,PF=3,QS=1,SB=64,$N,XP=1,QR=2
E15=BC=64,NSG=4,RT=2,STAGES=1,PF=2,QS=1,SB=64,$N,XP=1,QR=4
E16=BC=32,NSG=4,RT=2,STAGES=1,PF=2,QS=1,SB=32,$N,XP=1,QR=6
X05=BC=16,NSG=8,RT=2,STAGES=2,PF=0,QS=0,SB=16,$N,XP=0,QR=0
export N E01 E02 E03 E04 E05 E06 E07 E08 E09 E10 E11 E12 E13 E14 E15 E16 X05
ISO='$BIN shaders/attention_fa_nv.comp.in --space bench/isolate/attention_fa_nv_iso_f16.ini --db $RUN/iso.db --no-race --stats --strategy random --budget 5 --top 5 --start $E01 --start $E02 --start $E03 --start $E08 --start $X05 --problem ISO='
BIN=./vkautotune sh bench/device_run.sh --top 20 s9-attn2-call1 \
  'exp: timeout 100 $BIN shaders/attention_fa_nv.comp.in --space spaces/attention_fa_nv_wide_f16.ini --db $RUN/exp.db --no-race --stats --strategy random --budget 17 --top 17 --start $E01 --start $E02 --start $E03 --start $E04 --start $E05 --start $E06 --start $E07 --start $E08 --start $E09 --start $E10 --start $E11 --start $E12 --start $E13 --start $E14 --start $E15 --start $E16 --start $X05' \
  "iso4: timeout 40 ${ISO}4" "iso7: timeout 40 ${ISO}7" \
  'table: timeout 150 python3 bench/llm_kernels.py --binary $BIN --budget 8 --eager-only --only attention_fa_nv_f16,attention_fa_nv_bf16 --db $RUN/attn.db --out $RUN/llm_attn.md --start $E01 --start $E02 --start $E04 --start $E08 --start $E09 --start $E10 --start $E11 --start $X05'
