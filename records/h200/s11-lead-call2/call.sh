# s11-lead call 2 (the same tree as call 1): the memory-bound kernel library and decode attention against PyTorch,
# every PyTorch figure timed with llm_kernels.py's batch timer (session 11), to restate README's ratios that the
# per-call timer had made too favourable. fp16 and bf16 (fp32 left out for the device budget).
cd "$(dirname "$0")" || exit 2
X=$PWD
export BIN=$X/vkautotune
D1=attention_decode_nv_f16:NSG=4,BC=16,NSPLIT=1,PAD=1,THR=8,QS=1,PF=1,SG=32
D2=attention_decode_nv_bf16:NSG=4,BC=16,NSPLIT=1,PAD=1,THR=8,QS=1,PF=1,SG=32
sh bench/device_run.sh --top 2 s11-lead-call2 \
  "norms: PYTHONUNBUFFERED=1 timeout 150 python3 bench/llm_kernels.py --binary \$BIN --budget 4s --only softmax_f16,softmax_bf16,rmsnorm_f16,rmsnorm_bf16,layernorm_f16,layernorm_bf16 --db \$RUN/norms.db --out \$RUN/llm_norms.md" \
  "others: PYTHONUNBUFFERED=1 timeout 240 python3 bench/llm_kernels.py --binary \$BIN --budget 4s --only reduce_sum_f16,reduce_sum_bf16,reduce_max_f16,reduce_max_bf16,xent_f16,xent_bf16,rope_f16,rope_bf16,swiglu_f16,swiglu_bf16,transpose_f16,transpose_bf16 --db \$RUN/others.db --out \$RUN/llm_others.md" \
  "decode: PYTHONUNBUFFERED=1 timeout 90 python3 bench/llm_kernels.py --binary \$BIN --budget 4s --only attention_decode_nv_f16,attention_decode_nv_bf16 --start $D1 --start $D2 --db \$RUN/decode.db --out \$RUN/llm_decode.md"
