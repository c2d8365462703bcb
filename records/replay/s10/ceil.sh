#!/bin/bash
T=/work/shared/data/tuning-caches
for n in 1 12 25 50; do
  mkdir -p known-$n
  nice /work/wt/s9-replay/build/bench/strategy_replay --seeds 50 --threads 2 --known-after $n --strategies auto --out known-$n $T/GEMM_A100.json $T/MI50_GEMM.json $T/convolution_A100.json $T/pnpoly_A100.json > known-$n/out.txt 2>&1
done
echo done
