#!/bin/bash
# session 5, call J: as call I, after whole blocks of attention_decode_nv load without conditions: fp16 / bf16
# against SDPA at L = S = 4096 (performance), then every decode template at L = 4001 (the tails), checked
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/w
date -u
timeout 300 python3 bench/llm_kernels.py --binary ./build/vkautotune --budget 60s \
  --only attention_decode_nv_f16,attention_decode_nv_bf16 \
  --db /tmp/w/decode_j.db --out $OUT/llm_decode.md > $OUT/llm_decode.log 2>&1
date -u
# the tensor-core spaces start from prefetching configurations, one and four splits, so that the tails meet PF too
PF1="--start NSG=4,BC=16,NSPLIT=1,PAD=1,THR=8,QS=0,PF=1,SG=32 --start NSG=4,BC=16,NSPLIT=4,PAD=1,THR=0,QS=1,PF=1,SG=32"
for sp in attention_decode_nv_f16 attention_decode_nv_bf16 attention_decode_f16; do
  t=$(sed -n 's|^template = \.\./shaders/\(.*\)$|\1|p' spaces/$sp.ini)
  start=""; case $sp in *_nv_*) start=$PF1 ;; esac
  timeout 120 ./build/vkautotune shaders/$t --space spaces/$sp.ini --problem L=4001 --budget 40 --seed 5 $start \
    --db /tmp/w/tails_j.db > $OUT/tails_$sp.txt 2>&1
done
date -u
cp /tmp/w/decode_j.db /tmp/w/tails_j.db $OUT/
python3 bench/db_top.py /tmp/w/tails_j.db --top 3 > $OUT/tails_top.txt
cat $OUT/tails_top.txt
cat $OUT/llm_decode.md
