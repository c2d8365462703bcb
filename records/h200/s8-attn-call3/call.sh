# s8-attn call 3 (branch s8-attn, run from .xfer-attn): peaks and the prefill table, fp16 and bf16, with EW
cd "$(dirname "$0")" || exit 2
T1=BC=64,NSG=8,RT=1,STAGES=1,PF=2,PAD=1,THR=8,QS=0,SB=64
T2=BC=32,NSG=4,RT=2,STAGES=1,PF=2,PAD=1,THR=8,QS=1,SB=32
E0=$T2,LM=1,PH=0,EW=0,SG=32 E1=$T2,LM=1,PH=0,EW=1,SG=32 F0=$T1,LM=1,PH=0,EW=0,SG=32 F1=$T1,LM=1,PH=0,EW=1,SG=32
export E0 E1 F0 F1
BIN=./vkautotune sh bench/device_run.sh --top 8 s8-attn-call3 \
  'peaks: timeout 30 $BIN peaks --db $RUN/attn.db --refresh' \
  'table: timeout 95 python3 bench/llm_kernels.py --binary $BIN --budget 25s --eager-only --only attention_fa_nv_f16,attention_fa_nv_bf16 --db $RUN/attn.db --out $RUN/llm_attn.md --start $E0 --start $E1 --start $F0 --start $F1' \
  'nvsmi: nvidia-smi'
