# s10-lead call 4 (s10-lead 85e7225: main + s10-attn + s10-pipe + s10-gemm + the lead's FP16_S opt-in): the attention
# prefill table with fp32 S (FP16_S=0, the default) and fp16 S (FP16_S=1) as separate rows, FlashAttention-2 and
# the peak in the same call; and bench/race.py on the merged defaults (busy warm-up, no confirming dispatch where
# the first dispatch is known to carry little): pairs on the same 40 random variants and from-scratch searches,
# the best known medians those of call 3 (same day, same device, full measurements).
cd "$(dirname "$0")" || exit 2
A1=BC=32,NSG=4,RT=2,STAGES=1,PF=2,PAD=1,THR=8,QS=1,SB=32,LM=0,PH=0,EW=0,RS=2,XP=1,QR=0,SH=0,EH=0,SG=32
AH=BC=32,NSG=4,RT=2,STAGES=1,PF=2,PAD=1,THR=8,QS=1,SB=32,LM=0,PH=0,EW=0,RS=2,XP=1,QR=2,SH=1,EH=1,SG=32
A2=BC=32,NSG=8,RT=2,STAGES=1,PF=2,PAD=1,THR=8,QS=1,SB=32,LM=0,PH=0,EW=0,RS=2,XP=1,QR=4,SG=32
export A1 AH A2
BIN=$PWD/vkautotune sh bench/device_run.sh --top 4 s10-lead-call4 \
  'attn: timeout 120 python3 bench/llm_kernels.py --binary $BIN --budget 3 --eager-only --only attention_fa_nv_f16,attention_fa_nv_bf16 --db $RUN/attn.db --out $RUN/llm_attn.md --start $A1 --start $AH --start $A2' \
  'race: timeout 240 python3 bench/race.py --bin $BIN --spaces spaces/sgemm_wt.ini,spaces/cm2gemm_f16.ini --modes baseline,new --search-modes baseline,new --jobs 16 --pair-budget 40 --search-seconds 25 --best-known-ms sgemm_wt.ini=2.8928,cm2gemm_f16.ini=0.4156 --out $RUN/race.md'
