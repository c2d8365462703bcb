# s10-attn call 1 (branch s10-attn, run from .xfer-attn): the loop decomposed (ISO 8: no barriers, 16: no fragment
# load traffic), S in fp16 accumulators (SH) and fp16 exponentials (EH) on the known shapes and on the shapes the
# freed registers open (32 x 64 a subgroup); the prefill table
# (spaces/attention_fa_nv_wide_f16.ini: the real space with the register bound 400 instead of 240)
cd "$(dirname "$0")" || exit 2
sed -e 's/^\(registers = .*\) <= 240$/\1 <= 400/' -e 's/^name = attention_fa_nv_f16/name = attention_fa_nv_wide_f16/' spaces/attention_fa_nv_f16.ini >spaces/attention_fa_nv_wide_f16.ini
N=LM=0,PH=0,EW=0,RS=2,THR=8,SG=32,PAD=1
A=BC=32,NSG=4,RT=2,STAGES=1,PF=2,QS=1,SB=32,$N      # the best shape (fp16)
B=BC=32,NSG=8,RT=2,STAGES=1,PF=2,QS=1,SB=32,$N      # the bf16 winner's (with QR = 4)
C=BC=16,NSG=8,RT=2,STAGES=2,PF=0,QS=0,SB=16,$N      # Q in registers, two stages
E00=$A,XP=1,QR=0,SH=0,EH=0
E01=$A,XP=1,QR=0,SH=1,EH=0
E02=$A,XP=0,QR=0,SH=1,EH=0
E03=$A,XP=1,QR=0,SH=1,EH=1
E04=$A,XP=0,QR=0,SH=1,EH=1
E05=$B,XP=1,QR=4,SH=0,EH=0
E06=$B,XP=1,QR=4,SH=1,EH=0
E07=$B,XP=1,QR=4,SH=1,EH=1
E08=$B,XP=0,QR=4,SH=1,EH=0
E09=$C,XP=0,QR=0,SH=1,EH=0
E10=$C,XP=1,QR=0,SH=1,EH=0
E11=$C,XP=0,QR=0,SH=1,EH=1
E12=BC=64,NSG=4,RT=2,STAGES=1,PF=2,QS=1,SB=64,$N,XP=1,QR=4,SH=1,EH=0
E13=BC=64,NSG=4,RT=2,STAGES=1,PF=3,QS=1,SB=64,$N,XP=1,QR=2,SH=1,EH=0
E14=BC=64,NSG=4,RT=2,STAGES=1,PF=3,QS=1,SB=64,$N,XP=1,QR=2,SH=0,EH=0
E15=BC=64,NSG=2,RT=2,STAGES=1,PF=2,QS=1,SB=64,$N,XP=1,QR=0,SH=1,EH=0
E16=BC=64,NSG=2,RT=2,STAGES=1,PF=3,QS=1,SB=64,$N,XP=1,QR=0,SH=1,EH=1
E17=BC=64,NSG=8,RT=1,STAGES=1,PF=2,QS=0,SB=64,$N,XP=1,QR=0,SH=1,EH=0
E18=BC=128,NSG=8,RT=1,STAGES=1,PF=2,QS=0,SB=128,$N,XP=1,QR=0,SH=1,EH=0
E19=BC=64,NSG=4,RT=2,STAGES=1,PF=2,QS=1,SB=64,$N,XP=1,QR=4,SH=1,EH=1
E20=BC=32,NSG=4,RT=2,STAGES=1,PF=0,QS=1,SB=16,$N,XP=0,QR=4,SH=1,EH=0
E21=BC=16,NSG=4,RT=2,STAGES=2,PF=0,QS=1,SB=16,$N,XP=0,QR=4,SH=1,EH=0
E22=BC=16,NSG=4,RT=2,STAGES=2,PF=0,QS=1,SB=16,$N,XP=0,QR=2,SH=1,EH=0
E23=BC=32,NSG=4,RT=2,STAGES=1,PF=1,QS=1,SB=32,$N,XP=1,QR=2,SH=1,EH=0
E24=BC=64,NSG=4,RT=1,STAGES=1,PF=2,QS=1,SB=64,$N,XP=1,QR=0,SH=1,EH=0
export N E00 E01 E02 E03 E04 E05 E06 E07 E08 E09 E10 E11 E12 E13 E14 E15 E16 E17 E18 E19 E20 E21 E22 E23 E24
EXP='$BIN shaders/attention_fa_nv.comp.in --space spaces/attention_fa_nv_wide_f16.ini --db $RUN/exp.db --no-race --stats --strategy random'
ST='--start $E00 --start $E01 --start $E02 --start $E03 --start $E04 --start $E05 --start $E06 --start $E07 --start $E08 --start $E09 --start $E10 --start $E11 --start $E12 --start $E13 --start $E14 --start $E15 --start $E16 --start $E17 --start $E18 --start $E19 --start $E20 --start $E21 --start $E22 --start $E23 --start $E24'
ISO='$BIN shaders/attention_fa_nv.comp.in --space bench/isolate/attention_fa_nv_iso_f16.ini --db $RUN/iso.db --no-race --stats --strategy random --budget 7 --top 7 --start $E00 --start $E01 --start $E05 --start $E09 --start $E12 --start $E13 --start $E17 --problem ISO='
BIN=./vkautotune sh bench/device_run.sh --top 32 s10-attn-call1 \
  "exp: timeout 120 $EXP --budget 25 --top 25 $ST" \
  "iso4: timeout 30 ${ISO}4" "iso7: timeout 30 ${ISO}7" "iso15: timeout 30 ${ISO}15" "iso23: timeout 30 ${ISO}23" "iso31: timeout 30 ${ISO}31" "iso0: timeout 30 ${ISO}0" \
  'table: timeout 150 python3 bench/llm_kernels.py --binary $BIN --budget 10 --eager-only --only attention_fa_nv_f16,attention_fa_nv_bf16 --db $RUN/attn.db --out $RUN/llm_attn.md --start $E00 --start $E01 --start $E03 --start $E06 --start $E09 --start $E12 --start $E13 --start BC=32,NSG=8,RT=2,STAGES=1,PF=2,PAD=1,THR=8,QS=1,SB=32,LM=0,PH=0,EW=0,RS=2,XP=1,QR=4,SG=32 --start BC=16,NSG=8,RT=2,STAGES=2,PF=0,PAD=1,THR=8,QS=0,SB=16,LM=0,PH=0,EW=0,RS=2,XP=0,QR=0,SG=32'
