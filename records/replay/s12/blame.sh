#!/bin/sh
# Step 5: session 10's failure-blame rule (records/replay/s10/tried-blame.patch, built into BIN) with the kernels'
# constraints, charged, 50 seeds: the design half first (GEMM_A100 + convolution), then every table.
# usage: blame.sh BIN   (run from the repository root)
BIN=$1
T=/work/shared/data/tuning-caches
C=bench/replay_constraints
R=records/replay/s12/blame
mkdir -p $R
run() { # NAME B M TABLE-ARGS...
    name=$1; b=$2; m=$3; shift 3
    mkdir -p $R/$name
    env ${b:+VKAT_BLAME=$b} ${m:+VKAT_BLAME_MIN=$m} nice $BIN --seeds 50 --threads 2 --missing charged --strategies auto \
        --out $R/$name "$@" > $R/$name/stdout.txt
    rm -f $R/$name/strategies.svg
}
design="--constraints $C/clblast_xgemm.ini $T/GEMM_A100.json --constraints $C/convolution.ini $T/convolution_A100.json"
run design-base "" "" $design
run design-b0.5 0.5 "" $design
run design-b0.5-m0.3 0.5 0.3 $design
run design-b1-m0.3 1 0.3 $design
run design-b0.25 0.25 "" $design
# held out (after the design half): MI50_GEMM (published restrictions) and pnpoly, for the one setting that moved
held="--constraints $C/clblast_xgemm.ini $T/MI50_GEMM.json --constraints none $T/pnpoly_A100.json"
run held-b0.5-m0.3 0.5 0.3 $held
run held-base "" "" $held
