#!/bin/bash
# session 5, call K: the portable decode with KAL (keys across lanes for the scores, elements across lanes for P V),
# fp32 / fp16 / bf16 against PyTorch at L = S = 4096, then fp16 at L = 4001 (the tails), checked
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/w
date -u
timeout 330 python3 bench/llm_kernels.py --binary ./build/vkautotune --budget 60s \
  --only attention_decode_f32,attention_decode_f16,attention_decode_bf16 \
  --db /tmp/w/decode_k.db --out $OUT/llm_decode.md > $OUT/llm_decode.log 2>&1
date -u
timeout 100 ./build/vkautotune shaders/attention_decode.comp.in --space spaces/attention_decode_f16.ini --problem L=4001 \
  --budget 40 --seed 5 --start TPK=1,WG=256,NSPLIT=1,UNR=1,KAL=1,SG=32 --start TPK=1,WG=128,NSPLIT=4,UNR=1,KAL=1,SG=32 \
  --db /tmp/w/tails_k.db > $OUT/tails.txt 2>&1
date -u
cp /tmp/w/decode_k.db /tmp/w/tails_k.db $OUT/
python3 bench/db_top.py /tmp/w/tails_k.db --top 3 > $OUT/tails_top.txt
python3 bench/db_top.py /tmp/w/decode_k.db --top 4 > $OUT/top.txt
cat $OUT/tails_top.txt $OUT/top.txt
cat $OUT/llm_decode.md
