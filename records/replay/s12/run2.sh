#!/bin/sh
# Session 12 replay, second set: the MI50's device limit (clblast_xgemm_mi50.ini), the validity ceiling with
# constraints (--known-after 1), and traces of MI50_GEMM (step 5). Run from the repository root.
set -e
T=/work/shared/data/tuning-caches
C=bench/replay_constraints
R=${R:-records/replay/s12}
B=${B:-build/bench/strategy_replay}
dev() { # OUT MISSING [extra options]
    out=$1; m=$2; shift 2
    mkdir -p $R/$out
    nice $B --seeds 50 --threads 2 --missing $m --strategies auto --out $R/$out "$@" \
        --constraints $C/clblast_xgemm.ini $T/GEMM_A100.json --constraints $C/clblast_xgemm_mi50.ini $T/MI50_GEMM.json \
        --constraints $C/convolution.ini $T/convolution_A100.json --constraints none $T/pnpoly_A100.json \
        > $R/$out/stdout.txt
    rm -f $R/$out/strategies.svg
}
dev four-device-charged charged
dev four-device-free free
dev four-device-known1 charged --known-after 1
mkdir -p $R/four-constraints-known1
nice $B --seeds 50 --threads 2 --missing charged --known-after 1 --strategies auto --out $R/four-constraints-known1 \
    --constraints $C/clblast_xgemm.ini $T/GEMM_A100.json $T/MI50_GEMM.json \
    --constraints $C/convolution.ini $T/convolution_A100.json --constraints none $T/pnpoly_A100.json \
    > $R/four-constraints-known1/stdout.txt
rm -f $R/four-constraints-known1/strategies.svg
for f in clblast_xgemm clblast_xgemm_mi50; do
    mkdir -p /tmp/s12-trace-$f
    nice $B --seeds 50 --threads 2 --missing charged --strategies auto --trace --out /tmp/s12-trace-$f \
        --constraints $C/$f.ini $T/MI50_GEMM.json > /dev/null
    python3 bench/trace_summary.py /tmp/s12-trace-$f/trace-MI50_GEMM.json-auto.csv > $R/trace-MI50-$f.txt
done
