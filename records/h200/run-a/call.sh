#!/bin/sh
# One call on the H200 (2026-11-29 session): devices, measured peaks, tuning throughput (issue 6), and a
# brute-force GEMM table for strategy replay (issue 8). Run from the repository root after `. .gl/enter.sh`;
# results go to $OUT (default ./out-h200).
set -eu
OUT=${OUT:-out-h200}
mkdir -p "$OUT"
B=./build/vkautotune
$B devices > "$OUT/devices.txt"
$B peaks --db "$OUT/h200.db" | tee "$OUT/peaks.txt"
python3 bench/throughput.py --bin $B --space spaces/gemm.ini --budget 200 --jobs 1,16 --out "$OUT/throughput.md"
# Every valid GEMM configuration at 2048^3, for replaying the search strategies against a real table.
$B shaders/gemm.comp.in --space spaces/gemm.ini --problem M=2048,N=2048,K=2048 --strategy exhaustive \
    --budget 100000 --db "$OUT/h200.db" --top 5 | tee "$OUT/gemm2048-bruteforce.txt"
$B replay "$OUT/h200.db" --kernel sgemm --seeds 50 --budget 400 | tee "$OUT/replay.txt" || true
