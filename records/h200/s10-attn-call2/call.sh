# s10-attn call 2 (branch s10-attn, run from .xfer-attn): SH = 1 with EH = 1 (S and the exponentials in fp16) on the
# shapes call 1 ranked and the 32 x 64 tiles it opened (QR = 6 added in the wide space); the loop decomposed again
# with ISO bit 16 fixed (accumulators start apart); the prefill table
# (spaces/attention_fa_nv_wide_f16.ini: the real space with the register bound 400 instead of 240 and QR = 6)
cd "$(dirname "$0")" || exit 2
sed -e 's/^\(registers = .*\) <= 240$/\1 <= 400/' -e 's/^QR = 0, 2, 4 /QR = 0, 2, 4, 6/' -e 's/^name = attention_fa_nv_f16/name = attention_fa_nv_wide_f16/' spaces/attention_fa_nv_f16.ini >spaces/attention_fa_nv_wide_f16.ini
sed -i -e 's/^QR = 0, 2, 4 /QR = 0, 2, 4, 6/' bench/isolate/attention_fa_nv_iso_f16.ini
N=LM=0,PH=0,EW=0,RS=2,THR=8,SG=32,PAD=1
A=BC=32,NSG=4,RT=2,STAGES=1,PF=2,QS=1,SB=32,$N
B=BC=32,NSG=8,RT=2,STAGES=1,PF=2,QS=1,SB=32,$N
W00=$A,XP=1,QR=0,SH=0,EH=0
W01=$B,XP=1,QR=4,SH=1,EH=1
W02=$B,XP=0,QR=4,SH=1,EH=1
W03=$A,XP=0,QR=0,SH=1,EH=1
W04=$A,XP=0,QR=2,SH=1,EH=1
W05=$A,XP=1,QR=2,SH=1,EH=1
W06=BC=64,NSG=4,RT=2,STAGES=1,PF=3,QS=1,SB=64,$N,XP=1,QR=2,SH=1,EH=1
W07=BC=64,NSG=4,RT=2,STAGES=1,PF=3,QS=1,SB=64,$N,XP=0,QR=2,SH=1,EH=1
W08=BC=64,NSG=4,RT=2,STAGES=1,PF=3,QS=1,SB=64,$N,XP=1,QR=4,SH=1,EH=1
W09=BC=64,NSG=4,RT=2,STAGES=1,PF=2,QS=1,SB=64,$N,XP=0,QR=4,SH=1,EH=1
W10=BC=64,NSG=8,RT=2,STAGES=1,PF=3,QS=1,SB=64,$N,XP=1,QR=6,SH=1,EH=1
W11=BC=64,NSG=8,RT=2,STAGES=1,PF=2,QS=1,SB=64,$N,XP=1,QR=6,SH=1,EH=1
W12=BC=32,NSG=4,RT=2,STAGES=1,PF=3,QS=1,SB=32,$N,XP=1,QR=0,SH=1,EH=1
W13=BC=32,NSG=8,RT=2,STAGES=1,PF=3,QS=1,SB=32,$N,XP=1,QR=4,SH=1,EH=1
W14=BC=16,NSG=8,RT=2,STAGES=1,PF=2,QS=1,SB=16,$N,XP=1,QR=4,SH=1,EH=1
W15=BC=16,NSG=4,RT=2,STAGES=2,PF=0,QS=1,SB=16,$N,XP=0,QR=4,SH=1,EH=1
W16=$B,XP=1,QR=6,SH=1,EH=1
W17=BC=64,NSG=4,RT=2,STAGES=1,PF=2,QS=1,SB=64,$N,XP=1,QR=6,SH=1,EH=1
W18=BC=64,NSG=4,RT=2,STAGES=1,PF=3,QS=1,SB=64,$N,XP=1,QR=6,SH=1,EH=1
W19=$B,XP=1,QR=4,SH=0,EH=0
W20=BC=64,NSG=8,RT=1,STAGES=1,PF=2,QS=0,SB=64,$N,XP=1,QR=0,SH=1,EH=1
W21=BC=128,NSG=8,RT=1,STAGES=1,PF=2,QS=0,SB=128,$N,XP=1,QR=0,SH=1,EH=1
W22=$B,XP=1,QR=4,SH=1,EH=0
export N W00 W01 W02 W03 W04 W05 W06 W07 W08 W09 W10 W11 W12 W13 W14 W15 W16 W17 W18 W19 W20 W21 W22
EXP='$BIN shaders/attention_fa_nv.comp.in --space spaces/attention_fa_nv_wide_f16.ini --db $RUN/exp.db --no-race --stats --strategy random'
ST=''
for v in W00 W01 W02 W03 W04 W05 W06 W07 W08 W09 W10 W11 W12 W13 W14 W15 W16 W17 W18 W19 W20 W21 W22; do ST="$ST --start \$$v"; done
ISO='$BIN shaders/attention_fa_nv.comp.in --space bench/isolate/attention_fa_nv_iso_f16.ini --db $RUN/iso.db --no-race --stats --strategy random --budget 5 --top 5 --start $W00 --start $W01 --start $W03 --start $W06 --start $W19 --problem ISO='
BIN=./vkautotune sh bench/device_run.sh --top 32 s10-attn-call2 \
  "exp: timeout 120 $EXP --budget 23 --top 23 $ST" \
  "iso0: timeout 30 ${ISO}0" "iso4: timeout 30 ${ISO}4" "iso7: timeout 30 ${ISO}7" "iso15: timeout 30 ${ISO}15" "iso23: timeout 30 ${ISO}23" "iso31: timeout 30 ${ISO}31" \
  'table: timeout 150 python3 bench/llm_kernels.py --binary $BIN --budget 10 --eager-only --only attention_fa_nv_f16,attention_fa_nv_bf16 --db $RUN/attn.db --out $RUN/llm_attn.md --start $W01 --start $W02 --start $W03 --start $W04 --start $W05 --start $W06 --start $W07 --start $W00 --start BC=32,NSG=8,RT=2,STAGES=1,PF=2,PAD=1,THR=8,QS=1,SB=32,LM=0,PH=0,EW=0,RS=2,XP=1,QR=4,SG=32 --start BC=16,NSG=8,RT=2,STAGES=2,PF=0,PAD=1,THR=8,QS=0,SB=16,LM=0,PH=0,EW=0,RS=2,XP=0,QR=0,SG=32'
