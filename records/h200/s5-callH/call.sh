#!/bin/bash
# session 5, call H: attention_decode_nv with PF (the next block prefetched into registers), fp16 and bf16, against SDPA
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/w
date -u
timeout 420 python3 bench/llm_kernels.py --binary ./build/vkautotune --budget 60s \
  --only attention_decode_nv_f16,attention_decode_nv_bf16 \
  --db /tmp/w/decode_h.db --out $OUT/llm_decode.md > $OUT/llm_decode.log 2>&1
date -u
cp /tmp/w/decode_h.db $OUT/
python3 bench/db_top.py /tmp/w/decode_h.db --top 6 > $OUT/top.txt
tail -3 $OUT/llm_decode.log
cat $OUT/top.txt
cat $OUT/llm_decode.md
