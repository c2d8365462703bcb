#!/bin/bash
T=/work/shared/data/tuning-caches
B=/tmp/s10r/bin
S=$(ls /tmp/s10r/synth/synth*.json | sort -V)
for m in charged free; do
  mkdir -p main-4-$m main-synth-$m
  nice $B/sr-main --seeds 50 --threads 2 --missing $m --strategies auto --out main-4-$m $T/GEMM_A100.json $T/MI50_GEMM.json $T/convolution_A100.json $T/pnpoly_A100.json > main-4-$m/out.txt 2>&1
  nice $B/sr-main --seeds 50 --threads 2 --missing $m --strategies auto --out main-synth-$m $S > main-synth-$m/out.txt 2>&1
done
echo done
