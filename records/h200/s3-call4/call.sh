#!/bin/bash
# session 3, call 4: the whole kernel library in one run (memory-bound spaces 8 s each, flash attention 40 s)
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/w
date -u
MB=softmax_f32,softmax_f16,softmax_bf16,rmsnorm_f32,rmsnorm_f16,rmsnorm_bf16,layernorm_f32,layernorm_f16,layernorm_bf16,reduce_sum_f32,reduce_sum_f16,reduce_sum_bf16,reduce_max_f32,reduce_max_f16,reduce_max_bf16,xent_f32,xent_f16,xent_bf16,rope_f32,rope_f16,rope_bf16,swiglu_f32,swiglu_f16,swiglu_bf16,transpose,transpose_f16,transpose_bf16
timeout 340 python3 bench/llm_kernels.py --binary ./build/vkautotune --budget 8s --only $MB \
  --db /tmp/w/kernels.db --out $OUT/llm_all.md > $OUT/llm_all.log 2>&1
date -u
timeout 90 python3 bench/llm_kernels.py --binary ./build/vkautotune --budget 40s --only attention_fa_f16 \
  --db /tmp/w/kernels.db --out $OUT/llm_attn.md > $OUT/llm_attn.log 2>&1
date -u
cp /tmp/w/kernels.db $OUT/
cat $OUT/llm_all.md $OUT/llm_attn.md
