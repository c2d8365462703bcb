#!/bin/sh
# Step 5, third idea: tried-failskip-below.patch (built into BIN), switch VKAT_FAIL_SKIP_BELOW=share: failures stay out
# of the surrogates' performance model only while they are fewer than that share of the points. The share, 0.125, was
# set between the design half's failure shares with constraints (convolution about 0.07) and without (0.2-0.3).
# usage: failskip_below.sh BIN design|held|all|synth   (from the repository root)
BIN=$1
T=/work/shared/data/tuning-caches
C=bench/replay_constraints
R=records/replay/s12/failskip-below
mkdir -p $R
run() { # NAME SHARE MISSING ARGS...
    name=$1; sh=$2; m=$3; shift 3
    mkdir -p $R/$name
    env ${sh:+VKAT_FAIL_SKIP_BELOW=$sh} nice $BIN --seeds 50 --threads 2 --missing $m --strategies auto --out $R/$name "$@" \
        > $R/$name/stdout.txt
    rm -f $R/$name/strategies.svg
}
S=${SHARE:-0.125}
case $2 in
design) run design-off "" charged --constraints $C/clblast_xgemm.ini $T/GEMM_A100.json --constraints $C/convolution.ini $T/convolution_A100.json
        run design-con-$S $S charged --constraints $C/clblast_xgemm.ini $T/GEMM_A100.json --constraints $C/convolution.ini $T/convolution_A100.json
        run design-none-$S $S charged $T/GEMM_A100.json $T/convolution_A100.json ;;
held)   run held-con-$S $S charged --constraints $C/clblast_xgemm.ini $T/MI50_GEMM.json --constraints none $T/pnpoly_A100.json
        run held-none-$S $S charged $T/MI50_GEMM.json $T/pnpoly_A100.json ;;
all)    run four-free-$S $S free $T/GEMM_A100.json $T/MI50_GEMM.json $T/convolution_A100.json $T/pnpoly_A100.json
        run four-device-$S $S charged --constraints $C/clblast_xgemm.ini $T/GEMM_A100.json --constraints $C/clblast_xgemm_mi50.ini $T/MI50_GEMM.json --constraints $C/convolution.ini $T/convolution_A100.json --constraints none $T/pnpoly_A100.json ;;
synth)  for m in charged free; do run synth-$m-$S $S $m $(for s in $(seq 13 24); do echo /tmp/s12-synth/synth$s.json; done); done ;;
esac
