# s11-lead call 3 (s11-lead 129062c: main + s11-attn + s11-pipe + s11-decode + the lead's timer): decode attention as
# merged (the template of b1dcc85, whose PF 0-2 differ from the measured 305c3e0 in instruction order only), with
# helper decode's next steps (PF = 3, IL = 1 at L = 4001, short lengths), against SDPA with the batch timer; and the
# per-call timer's bias on the cuBLAS / torch._int_mm rows (torch_timers.py --gemm).
cd "$(dirname "$0")" || exit 2
X=$PWD
export BIN=$X/vkautotune
D1=attention_decode_nv_f16:NSG=4,BC=16,NSPLIT=1,PAD=1,THR=8,QS=1,PF=2,IL=1,SG=32
D2=attention_decode_nv_bf16:NSG=4,BC=16,NSPLIT=1,PAD=1,THR=0,QS=1,PF=1,IL=1,SG=32
sh bench/device_run.sh --top 3 s11-lead-call3 \
  "pf3: timeout 60 sh bench/isolate/decode_next.sh pf3" \
  "tails: timeout 60 sh bench/isolate/decode_next.sh tails" \
  "short: timeout 40 sh bench/isolate/decode_next.sh short" \
  "decode: PYTHONUNBUFFERED=1 timeout 80 python3 bench/llm_kernels.py --binary \$BIN --budget 6s --only attention_decode_nv_f16,attention_decode_nv_bf16 --start $D1 --start $D2 --db \$RUN/decode.db --out \$RUN/llm_decode.md" \
  "gemmtimers: PYTHONUNBUFFERED=1 timeout 60 python3 bench/torch_timers.py --gemm --only softmax_f16 --eager-only --rounds 3 --out \$RUN/timers_gemm.md"
