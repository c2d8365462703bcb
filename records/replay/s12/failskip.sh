#!/bin/sh
# Step 5, second idea: failures kept out of the surrogates' performance model (tried-failskip.patch, switch
# VKAT_FAIL_SKIP=1, built into BIN): they stay in the validity model only. Charged, with the kernels' constraints,
# 50 seeds; design half first. usage: failskip.sh BIN design|held|all|synth
BIN=$1
T=/work/shared/data/tuning-caches
C=bench/replay_constraints
R=records/replay/s12/failskip
mkdir -p $R
run() { # NAME SWITCH MISSING ARGS...
    name=$1; sw=$2; m=$3; shift 3
    mkdir -p $R/$name
    env ${sw:+VKAT_FAIL_SKIP=1} nice $BIN --seeds 50 --threads 2 --missing $m --strategies auto --out $R/$name "$@" \
        > $R/$name/stdout.txt
    rm -f $R/$name/strategies.svg
}
case $2 in
design) run design-base "" charged --constraints $C/clblast_xgemm.ini $T/GEMM_A100.json --constraints $C/convolution.ini $T/convolution_A100.json
        run design-skip 1 charged --constraints $C/clblast_xgemm.ini $T/GEMM_A100.json --constraints $C/convolution.ini $T/convolution_A100.json ;;
held)   run held-skip 1 charged --constraints $C/clblast_xgemm.ini $T/MI50_GEMM.json --constraints none $T/pnpoly_A100.json ;;
all)    run four-skip-charged 1 charged $T/GEMM_A100.json $T/MI50_GEMM.json $T/convolution_A100.json $T/pnpoly_A100.json
        run four-skip-free 1 free $T/GEMM_A100.json $T/MI50_GEMM.json $T/convolution_A100.json $T/pnpoly_A100.json
        run four-device-skip-charged 1 charged --constraints $C/clblast_xgemm.ini $T/GEMM_A100.json --constraints $C/clblast_xgemm_mi50.ini $T/MI50_GEMM.json --constraints $C/convolution.ini $T/convolution_A100.json --constraints none $T/pnpoly_A100.json ;;
synth)  for m in charged free; do run synth-skip-$m 1 $m $(for s in $(seq 13 24); do echo /tmp/s12-synth/synth$s.json; done); done ;;
esac
