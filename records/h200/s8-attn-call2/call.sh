# s8-attn call 2 (branch s8-attn, run from .xfer-attn): peaks, the prefill table fp16 and bf16 with LM and PH, ISO
cd "$(dirname "$0")" || exit 2
T1=BC=64,NSG=8,RT=1,STAGES=1,PF=2,PAD=1,THR=8,QS=0,SB=64
T2=BC=32,NSG=4,RT=2,STAGES=1,PF=2,PAD=1,THR=8,QS=1,SB=32
T6=BC=128,NSG=8,RT=1,STAGES=1,PF=3,PAD=1,THR=8,QS=0,SB=128
A1=$T1,LM=0,PH=0,SG=32 A2=$T1,LM=1,PH=0,SG=32 A3=$T1,LM=1,PH=1,SG=32 A4=$T1,LM=0,PH=1,SG=32
B1=$T2,LM=0,PH=0,SG=32 B2=$T2,LM=1,PH=0,SG=32 B3=$T2,LM=1,PH=1,SG=32 B4=$T2,LM=0,PH=1,SG=32
C3=$T6,LM=1,PH=1,SG=32
export A1 A2 A3 A4 B1 B2 B3 B4 C3
ISO='$BIN shaders/attention_fa_nv.comp.in --space bench/isolate/attention_fa_nv_iso_f16.ini --db $RUN/iso.db --no-race --stats --strategy random --budget 4 --top 4 --start $A1 --start $A3 --start $B1 --start $B3 --problem ISO='
BIN=./vkautotune sh bench/device_run.sh --top 12 s8-attn-call2 \
  'peaks: timeout 120 $BIN peaks --db $RUN/attn.db --refresh' \
  'table: timeout 300 python3 bench/llm_kernels.py --binary $BIN --budget 75s --eager-only --only attention_fa_nv_f16,attention_fa_nv_bf16 --db $RUN/attn.db --out $RUN/llm_attn.md --start $A1 --start $A2 --start $A3 --start $A4 --start $B1 --start $B2 --start $B3 --start $B4 --start $C3' \
  "iso0: timeout 60 ${ISO}0" "iso3: timeout 60 ${ISO}3" "iso4: timeout 60 ${ISO}4" "iso7: timeout 60 ${ISO}7" \
  'nvsmi: nvidia-smi'
