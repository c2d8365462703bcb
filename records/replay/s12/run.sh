#!/bin/sh
# Session 12 replay figures (records/session12-issue-22-replay.md). Run from the repository root after
# `nice cmake --build build -j2`; writes $R/OUT/{strategies.md,stdout.txt} (R default records/replay/s12; B the
# strategy_replay binary, default build/bench/strategy_replay: rules-known/ is R=records/replay/s12/rules-known
# with B a build of tried-rules-known.patch).
set -e
T=/work/shared/data/tuning-caches
C=bench/replay_constraints
R=${R:-records/replay/s12}
B=${B:-build/bench/strategy_replay}
four() { # OUT MISSING [constraints]
    mkdir -p $R/$1
    if [ "$3" = constraints ]; then
        nice $B --seeds 50 --threads 2 --missing $2 --strategies auto --out $R/$1 \
            --constraints $C/clblast_xgemm.ini $T/GEMM_A100.json $T/MI50_GEMM.json \
            --constraints $C/convolution.ini $T/convolution_A100.json --constraints none $T/pnpoly_A100.json \
            > $R/$1/stdout.txt
    else
        nice $B --seeds 50 --threads 2 --missing $2 --strategies auto --out $R/$1 \
            $T/GEMM_A100.json $T/MI50_GEMM.json $T/convolution_A100.json $T/pnpoly_A100.json > $R/$1/stdout.txt
    fi
    rm -f $R/$1/strategies.svg
}
four four-charged charged
four four-free free
four four-constraints-charged charged constraints
four four-constraints-free free constraints
S=/tmp/s12-synth
mkdir -p $S
for s in $(seq 13 24); do [ -f $S/synth$s.json ] || python3 bench/synthetic_table.py $s $S/synth$s.json; done
for m in charged free; do
    mkdir -p $R/synth-$m
    nice $B --seeds 50 --threads 2 --missing $m --strategies auto --out $R/synth-$m $(for s in $(seq 13 24); do echo $S/synth$s.json; done) > $R/synth-$m/stdout.txt
    rm -f $R/synth-$m/strategies.svg
done
