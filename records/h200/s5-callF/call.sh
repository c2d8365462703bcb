#!/bin/bash
# session 5, call F: attention decode on tensor cores (attention_decode_nv, fp16 and bf16, new) against the plain
# template (fp16) and SDPA (eager, torch.compile, each backend), one run
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/w
date -u
timeout 420 python3 bench/llm_kernels.py --binary ./build/vkautotune --budget 60s \
  --only attention_decode_nv_f16,attention_decode_nv_bf16,attention_decode_f16 \
  --db /tmp/w/decode.db --out $OUT/llm_decode.md > $OUT/llm_decode.log 2>&1
date -u
cp /tmp/w/decode.db $OUT/
python3 bench/db_top.py /tmp/w/decode.db --top 6 > $OUT/top.txt
tail -3 $OUT/llm_decode.log
cat $OUT/top.txt
cat $OUT/llm_decode.md
