#!/bin/bash
# session 5, call E: attention decode (new: one token per sequence against a 4096-token KV cache, grouped-query
# heads as Llama-3-8B, batch 32), fp32 / fp16 / bf16, against SDPA (eager, torch.compile and each backend)
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/w
date -u
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv > $OUT/nvsmi.txt 2>&1
timeout 420 python3 bench/llm_kernels.py --binary ./build/vkautotune --budget 60s \
  --only attention_decode_f32,attention_decode_f16,attention_decode_bf16 \
  --db /tmp/w/decode.db --out $OUT/llm_decode.md > $OUT/llm_decode.log 2>&1
date -u
cp /tmp/w/decode.db $OUT/
python3 bench/db_top.py /tmp/w/decode.db --top 6 > $OUT/top.txt
tail -3 $OUT/llm_decode.log
cat $OUT/top.txt
cat $OUT/llm_decode.md
