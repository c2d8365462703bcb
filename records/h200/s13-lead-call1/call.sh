# s13-lead call 1 (s13-lead 9a260fd: main + VEC = 8 for the 16-bit memory-bound kernels): the same eight spaces
# tuned and compared with torch.compile twice in one call, main's spaces (VEC <= 4, old/) and the branch's (VEC = 8
# added), both sides timed in batches (llm_kernels.py's default --min-sample 0.002), 3 baseline rounds each.
cd "$(dirname "$0")" || exit 2
export BIN=$PWD/vkautotune
L=rmsnorm_f16,rmsnorm_bf16,swiglu_f16,swiglu_bf16,reduce_sum_f16,reduce_sum_bf16,reduce_max_f16,reduce_max_bf16
export L
sh bench/device_run.sh --top 3 s13-lead-call1 \
  'old: PYTHONUNBUFFERED=1 timeout 240 python3 old/bench/llm_kernels.py --binary $BIN --budget 6s --baseline-rounds 3 --only $L --db $RUN/old.db --out $RUN/llm_old.md' \
  'new: PYTHONUNBUFFERED=1 timeout 240 python3 bench/llm_kernels.py --binary $BIN --budget 6s --baseline-rounds 3 --only $L --db $RUN/new.db --out $RUN/llm_new.md'
