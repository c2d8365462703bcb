#!/bin/bash
# session 5, call B: attention_fa_nv_f16 with sub-blocks (SB) and Q fragments from global memory (QS = 2)
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/w
date -u
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv > $OUT/nvsmi.txt 2>&1
timeout 400 python3 bench/llm_kernels.py --binary ./build/vkautotune --budget 240s --only attention_fa_nv_f16 \
  --db /tmp/w/attn.db --out $OUT/llm_attn.md > $OUT/llm_attn.log 2>&1
date -u
cp /tmp/w/attn.db $OUT/
python3 bench/db_top.py /tmp/w/attn.db --top 20 > $OUT/top.txt
tail -5 $OUT/llm_attn.log
cat $OUT/top.txt
cat $OUT/llm_attn.md
