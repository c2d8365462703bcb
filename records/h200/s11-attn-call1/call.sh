# s11-attn call 1 (branch s11-attn, run from .xfer-attn): EP (part of the fp32 exponentials by a polynomial on the
# FMA pipe) on the best fp32-S shapes, fp16 and bf16, full measurements with the check; the softmax's cost (ISO 4);
# a first, short bf16 prefill table with the new baseline (3 rounds of FlashAttention-2 / cuDNN and our best measured
# again, alternating; the tensor-core peak), to try it on the GPU before call 2's full table.
cd "$(dirname "$0")" || exit 2
for d in f16 bf16; do
  sed -e 's/^\(registers = .*\) <= 240$/\1 <= 400/' -e "s/^name = attention_fa_nv_$d/name = attention_fa_nv_wide_$d/" \
      -e 's/^EP = 0, 2, 4 /EP = 0, 1, 2, 3, 4, 6, 8 /' spaces/attention_fa_nv_$d.ini >spaces/attention_fa_nv_wide_$d.ini
done
N=PAD=1,THR=8,LM=0,PH=0,EW=0,RS=2,SG=32
A=BC=32,NSG=4,RT=2,STAGES=1,PF=2,QS=1,SB=32,$N
B=BC=32,NSG=8,RT=2,STAGES=1,PF=2,QS=1,SB=32,$N
C=BC=16,NSG=8,RT=2,STAGES=2,PF=0,QS=0,SB=16,$N
W=BC=64,NSG=4,RT=2,STAGES=1,PF=3,QS=1,SB=64,$N
ST=''
for e in 0 1 2 3 4 6 8; do ST="$ST --start $A,XP=1,QR=0,SH=0,EH=0,EP=$e"; done
for e in 0 4; do ST="$ST --start $A,XP=0,QR=0,SH=0,EH=0,EP=$e --start $C,XP=0,QR=0,SH=0,EH=0,EP=$e"; done
for e in 0 2 4; do ST="$ST --start $B,XP=1,QR=4,SH=0,EH=0,EP=$e"; done
ST="$ST --start $W,XP=1,QR=2,SH=0,EH=0,EP=4"
SB=''
for e in 0 2 3 4; do SB="$SB --start $B,XP=1,QR=4,EP=$e"; done
for e in 0 4; do SB="$SB --start $A,XP=1,QR=0,EP=$e"; done
export A B N
BIN=./vkautotune sh bench/device_run.sh --top 16 s11-attn-call1 \
  "exp: timeout 110 \$BIN shaders/attention_fa_nv.comp.in --space spaces/attention_fa_nv_wide_f16.ini --db \$RUN/exp.db --no-race --stats --strategy random --budget 15 --top 15 $ST" \
  "expb: timeout 60 \$BIN shaders/attention_fa_nv.comp.in --space spaces/attention_fa_nv_wide_bf16.ini --db \$RUN/expb.db --no-race --stats --strategy random --budget 6 --top 6 $SB" \
  "iso4: timeout 30 \$BIN shaders/attention_fa_nv.comp.in --space bench/isolate/attention_fa_nv_iso_f16.ini --db \$RUN/iso.db --no-race --stats --strategy random --budget 2 --top 2 --problem ISO=4 --start $A,XP=1,QR=0,SH=0,EH=0,EP=0 --start $B,XP=1,QR=4,SH=0,EH=0,EP=0" \
  "table: timeout 90 python3 bench/llm_kernels.py --binary \$BIN --budget 2 --eager-only --baseline-rounds 3 --only attention_fa_nv_bf16 --db \$RUN/attn.db --out \$RUN/llm_attn.md --start $B,XP=1,QR=4,EP=0 --start $B,XP=1,QR=4,EP=4"
