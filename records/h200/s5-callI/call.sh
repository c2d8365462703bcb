#!/bin/bash
# session 5, call I: the decode templates with the cache length as a push constant (len = L <= S, tails masked):
# attention_decode_nv fp16 / bf16 against SDPA at L = S = 4096 (performance), then every template at L = 4001
# (a length that is no whole number of blocks or splits: the tails), checked against the reference
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/w
date -u
timeout 300 python3 bench/llm_kernels.py --binary ./build/vkautotune --budget 60s \
  --only attention_decode_nv_f16,attention_decode_nv_bf16 \
  --db /tmp/w/decode_i.db --out $OUT/llm_decode.md > $OUT/llm_decode.log 2>&1
date -u
for sp in attention_decode_nv_f16 attention_decode_nv_bf16 attention_decode_f16; do
  t=$(sed -n 's|^template = \.\./shaders/\(.*\)$|\1|p' spaces/$sp.ini)
  timeout 120 ./build/vkautotune shaders/$t --space spaces/$sp.ini --problem L=4001 --budget 40 --seed 5 \
    --db /tmp/w/tails.db > $OUT/tails_$sp.txt 2>&1
done
date -u
cp /tmp/w/decode_i.db /tmp/w/tails.db $OUT/
python3 bench/db_top.py /tmp/w/tails.db --top 3 > $OUT/tails_top.txt
python3 bench/db_top.py /tmp/w/decode_i.db --top 4 > $OUT/top.txt
cat $OUT/tails_top.txt $OUT/top.txt
cat $OUT/llm_decode.md
