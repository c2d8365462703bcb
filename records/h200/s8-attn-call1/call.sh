# s8-attn call 1 (branch s8-attn, run from .xfer-attn): peaks, the prefill table, RT = 2 shapes the space prunes, ISO
cd "$(dirname "$0")" || exit 2
T1=BC=64,NSG=8,RT=1,STAGES=1,PF=2,PAD=1,THR=8,QS=0,SB=64,SG=32
T2=BC=32,NSG=4,RT=2,STAGES=1,PF=2,PAD=1,THR=8,QS=1,SB=32,SG=32
T3=BC=32,NSG=4,RT=2,STAGES=1,PF=3,PAD=1,THR=8,QS=1,SB=32,SG=32
T4=BC=32,NSG=2,RT=2,STAGES=1,PF=3,PAD=1,THR=8,QS=1,SB=32,SG=32
T5=BC=64,NSG=8,RT=1,STAGES=1,PF=3,PAD=1,THR=8,QS=0,SB=64,SG=32
W1=BC=64,NSG=2,RT=2,STAGES=1,PF=3,PAD=1,THR=8,QS=1,SB=64,SG=32
W2=BC=64,NSG=2,RT=2,STAGES=1,PF=2,PAD=1,THR=8,QS=1,SB=64,SG=32
W3=BC=32,NSG=4,RT=2,STAGES=1,PF=2,PAD=1,THR=8,QS=0,SB=32,SG=32
W4=BC=32,NSG=4,RT=2,STAGES=1,PF=3,PAD=1,THR=8,QS=0,SB=32,SG=32
W5=BC=16,NSG=4,RT=2,STAGES=1,PF=2,PAD=1,THR=8,QS=0,SB=16,SG=32
W6=BC=64,NSG=4,RT=2,STAGES=1,PF=0,PAD=1,THR=8,QS=0,SB=16,SG=32
W7=BC=64,NSG=4,RT=2,STAGES=1,PF=3,PAD=1,THR=8,QS=0,SB=64,SG=32
W8=BC=64,NSG=1,RT=2,STAGES=1,PF=3,PAD=1,THR=8,QS=1,SB=64,SG=32
export T1 T2 T3 T4 T5 W1 W2 W3 W4 W5 W6 W7 W8
sed -e 's/ <= 240$/ <= 400/' -e 's/^name = attention_fa_nv_f16/name = attention_fa_nv_wide_f16/' \
    spaces/attention_fa_nv_f16.ini >spaces/attention_fa_nv_wide_f16.ini
ISO='$BIN shaders/attention_fa_nv.comp.in --space bench/isolate/attention_fa_nv_iso_f16.ini --db $RUN/iso.db --no-race --stats --strategy random --budget 4 --top 4 --start $T1 --start $T2 --start $W1 --start $W7 --problem ISO='
BIN=./vkautotune sh bench/device_run.sh --top 10 s8-attn-call1 \
  'peaks: timeout 120 $BIN peaks --db $RUN/attn.db --refresh' \
  'table: timeout 240 python3 bench/llm_kernels.py --binary $BIN --budget 90s --eager-only --only attention_fa_nv_f16 --db $RUN/attn.db --out $RUN/llm_attn.md --start $T1 --start $T2 --start $T3 --start $T4 --start $T5' \
  'wide: timeout 120 $BIN shaders/attention_fa_nv.comp.in --space spaces/attention_fa_nv_wide_f16.ini --db $RUN/wide.db --no-race --stats --strategy random --budget 8 --top 8 --start $W1 --start $W2 --start $W3 --start $W4 --start $W5 --start $W6 --start $W7 --start $W8' \
  "iso0: timeout 60 ${ISO}0" "iso1: timeout 60 ${ISO}1" "iso3: timeout 60 ${ISO}3" "iso7: timeout 60 ${ISO}7" \
  'nvsmi: nvidia-smi'
