# s11-lead call (merged s11-lead: main + s11-attn + s11-pipe + the lead's PyTorch timer): (1) the workspace fill and
# bench/throughput.py (the issue's own measure of variants/s) on the merged code; (2) why gemm_verify's figure sits
# 2-5% below the tuner's at 8192^3 (the same cm2gemm fp16 variant timed by the tuner and by gemm_verify in several
# ways, SM clock and power sampled); (3) completion order's share of the from-scratch gain (race.py new10 = the same
# code with results in proposal order, against new); (4) what the per-call PyTorch timer did to llm_kernels.py's
# baselines (bench/torch_timers.py); (5) memory-bound kernels against PyTorch with the batch timer (a subset).
cd "$(dirname "$0")" || exit 2
X=$PWD
export BIN=$X/vkautotune
M2=BM=128,BN=128,BK=64,NSG=4,LOAD=0,KU=8,KW=16,STAGES=1,PAD=0,SWZ=8,LQ=1
sh bench/device_run.sh --top 4 s11-lead-call \
  "ws: timeout 30 $X/workspace_time \$RUN/workspace_time.txt" \
  "tp: timeout 60 python3 bench/throughput.py --bin \$BIN --space spaces/sgemm_wt.ini --problem M=4096,N=4096,K=4096 --budget 150 --jobs 16 --out \$RUN/tp-sgemm_wt.md" \
  "tpc: timeout 60 python3 bench/throughput.py --bin \$BIN --space spaces/cm2gemm_f16.ini --problem M=4096,N=4096,K=4096 --budget 150 --jobs 16 --out \$RUN/tp-cm2gemm_f16.md" \
  "gap: VERIFY=$X/gemm_verify timeout 100 sh $X/verify_gap.sh spaces/cm2gemm_f16.ini M=8192,N=8192,K=8192 $M2 cm2gemm_f16" \
  "race: PYTHONUNBUFFERED=1 timeout 80 python3 bench/race.py --bin \$BIN --jobs 16 --spaces spaces/sgemm_wt.ini --pair-budget 0 --modes new10,new --search-seconds 8,8 --search-seeds 3 --best-known-ms sgemm_wt.ini=2.8866 --trace-dir \$RUN/traces --out \$RUN/race.md" \
  "timers: PYTHONUNBUFFERED=1 timeout 110 python3 bench/torch_timers.py --only softmax_f16,rmsnorm_f16,layernorm_f16,swiglu_f16,rope_f16,attention_decode_f16 --rounds 3 --out \$RUN/timers.md" \
  "kernels: PYTHONUNBUFFERED=1 timeout 130 python3 bench/llm_kernels.py --binary \$BIN --budget 10s --only softmax_f16,rmsnorm_f16,layernorm_f16,attention_decode_f16 --db \$RUN/kernels.db --out \$RUN/llm_kernels.md"
