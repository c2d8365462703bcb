#!/bin/sh
# Issue 11 on the two-GPU H200 machine: a brute-force run of the GEMM space (its default 1024^3, every valid
# configuration) on
# one GPU, then the same search shared by both GPUs (`--device all` groups identical GPUs into one search).
# Fresh databases and no pipeline cache, so both runs compile, check and time everything.
# Run from the repository root after `. .gl/enter.sh`; results go to $OUT (default ./out-h200x2).
set -eu
OUT=${OUT:-out-h200x2}
mkdir -p "$OUT"
B=./build/vkautotune
$B devices > "$OUT/devices.txt"
nvidia-smi --query-gpu=index,name,driver_version --format=csv > "$OUT/nvsmi.txt" || true
args="shaders/gemm.comp.in --space spaces/gemm.ini --strategy exhaustive --budget 100000 --pipeline-cache none --top 3"
$B $args --device 0 --db "$OUT/one.db" | tee "$OUT/one-gpu.txt"
$B $args --device all --db "$OUT/two.db" | tee "$OUT/two-gpus.txt"
grep -h "^strategy" "$OUT/one-gpu.txt" "$OUT/two-gpus.txt"
grep -h -A1 "^rank" "$OUT/one-gpu.txt" "$OUT/two-gpus.txt"
