#!/bin/bash
T=/work/shared/data/tuning-caches
S=$(ls /tmp/s10r/synth/synth*.json | sort -V)
run() { # name bin env
  mkdir -p var-$1-4 var-$1-synth
  env $3 nice /tmp/s10r/bin/sr-$2 --seeds 50 --threads 2 --missing charged --strategies auto --out var-$1-4 $T/GEMM_A100.json $T/MI50_GEMM.json $T/convolution_A100.json $T/pnpoly_A100.json > var-$1-4/out.txt 2>&1
  env $3 nice /tmp/s10r/bin/sr-$2 --seeds 50 --threads 2 --missing charged --strategies auto --out var-$1-synth $S > var-$1-synth/out.txt 2>&1
}
run veto veto VKAT_VETO=0.5
run initok initok VKAT_INITOK=8
run blame blame "VKAT_BLAME=0.5 VKAT_BLAME_MIN=0.3"
run basin basin "VKAT_BASIN=1 VKAT_BASIN_SHARE=0.5"
run trades trades VKAT_TRADES=2
echo done
