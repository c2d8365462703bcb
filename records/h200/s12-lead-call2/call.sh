# s12-lead call 2 (s12-lead 196f731: main + tune --min-sample): do the memory-bound kernels and decode attention that
# trail PyTorch by 2-4% do so because vkautotune timed each of their samples as one dispatch, while the PyTorch
# columns time batches of 10 back-to-back calls? The same searches twice: the default (0.1 ms samples, so one
# dispatch each for these 0.12-0.26 ms kernels) and --min-sample 0.002 (batches of 8-16 dispatches, each after a
# barrier); PyTorch, torch.compile, SDPA and the copy in the same call for each.
cd "$(dirname "$0")" || exit 2
export BIN=$PWD/vkautotune
D1=attention_decode_nv_f16:NSG=4,BC=16,NSPLIT=1,PAD=1,THR=0,QS=1,PF=3,IL=1,SG=32
D2=attention_decode_nv_bf16:NSG=4,BC=16,NSPLIT=1,PAD=1,THR=8,QS=0,PF=3,IL=1,SG=32
K=rmsnorm_f16,rmsnorm_bf16,reduce_sum_f16,reduce_sum_bf16,swiglu_f16,swiglu_bf16,softmax_f16
export D1 D2 K
sh bench/device_run.sh --top 2 s12-lead-call2 \
  'mem_default: PYTHONUNBUFFERED=1 timeout 150 python3 bench/llm_kernels.py --binary $BIN --budget 4s --only $K --db $RUN/mem_default.db --out $RUN/llm_mem_default.md' \
  'mem_batch: PYTHONUNBUFFERED=1 timeout 150 python3 bench/llm_kernels.py --binary $BIN --budget 4s --only $K --min-sample 0.002 --db $RUN/mem_batch.db --out $RUN/llm_mem_batch.md' \
  'decode_default: PYTHONUNBUFFERED=1 timeout 80 python3 bench/llm_kernels.py --binary $BIN --budget 4s --only attention_decode_nv_f16,attention_decode_nv_bf16 --start $D1 --start $D2 --db $RUN/decode_default.db --out $RUN/llm_decode_default.md' \
  'decode_batch: PYTHONUNBUFFERED=1 timeout 80 python3 bench/llm_kernels.py --binary $BIN --budget 4s --only attention_decode_nv_f16,attention_decode_nv_bf16 --start $D1 --start $D2 --min-sample 0.002 --db $RUN/decode_batch.db --out $RUN/llm_decode_batch.md'
