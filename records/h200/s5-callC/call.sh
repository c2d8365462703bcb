#!/bin/bash
# session 5, call C: the attention spaces after PF, SB and bf16 were added (attention_fa_nv_f16, attention_fa_nv_bf16,
# attention_bf16), each against SDPA's backends in its own dtype, one run
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/w
date -u
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv > $OUT/nvsmi.txt 2>&1
timeout 520 python3 bench/llm_kernels.py --binary ./build/vkautotune --budget 150s \
  --only attention_fa_nv_f16,attention_fa_nv_bf16,attention_bf16 --eager-only \
  --db /tmp/w/attn.db --out $OUT/llm_attn.md > $OUT/llm_attn.log 2>&1
date -u
cp /tmp/w/attn.db $OUT/
python3 bench/db_top.py /tmp/w/attn.db --top 8 > $OUT/top.txt
tail -3 $OUT/llm_attn.log
cat $OUT/top.txt
cat $OUT/llm_attn.md
