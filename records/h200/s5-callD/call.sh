#!/bin/bash
# session 5, call D: the whole kernel library in one run, as issue 12 asks: the 27 memory-bound spaces (8 s each,
# PyTorch eager and torch.compile), then flash attention fp16 and bf16 (attention_fa_nv, every valid configuration)
# against SDPA and each of its backends
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/w
date -u
./build/vkautotune devices > $OUT/devices.txt 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv > $OUT/nvsmi.txt 2>&1
MB=softmax_f32,softmax_f16,softmax_bf16,rmsnorm_f32,rmsnorm_f16,rmsnorm_bf16,layernorm_f32,layernorm_f16,layernorm_bf16,reduce_sum_f32,reduce_sum_f16,reduce_sum_bf16,reduce_max_f32,reduce_max_f16,reduce_max_bf16,xent_f32,xent_f16,xent_bf16,rope_f32,rope_f16,rope_bf16,swiglu_f32,swiglu_f16,swiglu_bf16,transpose,transpose_f16,transpose_bf16
timeout 350 python3 bench/llm_kernels.py --binary ./build/vkautotune --budget 8s --only $MB \
  --db /tmp/w/kernels.db --out $OUT/llm_all.md > $OUT/llm_all.log 2>&1
date -u
timeout 190 python3 bench/llm_kernels.py --binary ./build/vkautotune --budget 90s --eager-only \
  --only attention_fa_nv_f16,attention_fa_nv_bf16 --db /tmp/w/kernels.db --out $OUT/llm_attn.md > $OUT/llm_attn.log 2>&1
date -u
cp /tmp/w/kernels.db $OUT/
tail -4 $OUT/llm_all.log
cat $OUT/llm_all.md $OUT/llm_attn.md
