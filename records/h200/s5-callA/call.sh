#!/bin/bash
# session 5, call A: attention_fa_nv_f16 with register prefetch into one shared stage (PF = 1) and K and V taking
# turns in one area (PF = 2, BC = 128), against SDPA's backends, one run
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/w
date -u
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv > $OUT/nvsmi.txt 2>&1
timeout 400 python3 bench/llm_kernels.py --binary ./build/vkautotune --budget 150s --only attention_fa_nv_f16 \
  --db /tmp/w/attn.db --out $OUT/llm_attn.md > $OUT/llm_attn.log 2>&1
date -u
cp /tmp/w/attn.db $OUT/
python3 bench/db_top.py /tmp/w/attn.db --top 20 > $OUT/top.txt
tail -5 $OUT/llm_attn.log
cat $OUT/top.txt
cat $OUT/llm_attn.md
