# s11-attn call 2 (branch s11-attn, run from .xfer-attn): FZ (fp32 denormals flushed to zero, so exp2 needs no
# denormal fix-up around the MUFU) against FZ = 0 on the best fp32-S shapes, fp16 and bf16, full measurements with
# the check; the prefill table (fp16, bf16, fp16 with FP16_S=1) with the new
# baseline: 3 rounds of FlashAttention-2 / cuDNN and our best measured again, alternating; the tensor-core peak.
cd "$(dirname "$0")" || exit 2
for d in f16 bf16; do
  sed -e 's/^\(registers = .*\) <= 240$/\1 <= 400/' -e "s/^name = attention_fa_nv_$d/name = attention_fa_nv_wide_$d/" \
      spaces/attention_fa_nv_$d.ini >spaces/attention_fa_nv_wide_$d.ini
done
N=PAD=1,THR=8,LM=0,PH=0,EW=0,RS=2,SG=32
A=BC=32,NSG=4,RT=2,STAGES=1,PF=2,QS=1,SB=32,$N
B=BC=32,NSG=8,RT=2,STAGES=1,PF=2,QS=1,SB=32,$N
C=BC=16,NSG=8,RT=2,STAGES=2,PF=0,QS=0,SB=16,$N
ST='' SB='' T=''
for z in 0 1; do
  ST="$ST --start $A,XP=1,QR=0,SH=0,EH=0,FZ=$z --start $A,XP=0,QR=0,SH=0,EH=0,FZ=$z"
  ST="$ST --start $C,XP=0,QR=0,SH=0,EH=0,FZ=$z --start $B,XP=1,QR=4,SH=0,EH=0,FZ=$z"
  SB="$SB --start $B,XP=1,QR=4,FZ=$z --start $A,XP=1,QR=0,FZ=$z"
  T="$T --start $A,XP=1,QR=0,SH=0,EH=0,FZ=$z --start $B,XP=1,QR=4,FZ=$z --start $A,XP=1,QR=2,SH=1,EH=1,FZ=$z"
done
T="$T --start $C,XP=0,QR=0,SH=0,EH=0,FZ=1 --start $A,XP=0,QR=0,SH=0,EH=0,FZ=1 --start $A,XP=1,QR=0,FZ=1"
export A B C N
BIN=./vkautotune sh bench/device_run.sh --top 16 s11-attn-call2 \
  "exp: timeout 60 \$BIN shaders/attention_fa_nv.comp.in --space spaces/attention_fa_nv_wide_f16.ini --db \$RUN/exp.db --no-race --stats --strategy random --budget 8 --top 8 $ST" \
  "expb: timeout 40 \$BIN shaders/attention_fa_nv.comp.in --space spaces/attention_fa_nv_wide_bf16.ini --db \$RUN/expb.db --no-race --stats --strategy random --budget 4 --top 4 $SB" \
  "table: timeout 240 python3 bench/llm_kernels.py --binary \$BIN --budget 6 --eager-only --baseline-rounds 3 --only attention_fa_nv_f16,attention_fa_nv_bf16 --db \$RUN/attn.db --out \$RUN/llm_attn.md $T"
