#!/bin/sh
# Runs a whole tuning run on the default device (lavapipe here) under valgrind memcheck and fails on any memory
# error or definite leak. Slow (minutes): not part of ctest; the result is recorded in fuzz/RESULTS.md.
#   sh tools/valgrind-e2e.sh [BINARY]
set -eu
cd "$(dirname "$0")/.."
BIN=${1:-build/vkautotune}
db=$(mktemp -d)
trap 'rm -rf "$db"' EXIT
valgrind --error-exitcode=9 --leak-check=full --errors-for-leak-kinds=definite --show-leak-kinds=definite \
    --suppressions=tools/valgrind.supp --num-callers=30 \
    "$BIN" tests/data/tune/scale.comp.in --space tests/data/tune/scale.ini --budget 6 --strategy exhaustive \
    --watchdog 0 --jobs 1 --warmup 0.01 --repetitions 2 --pipeline-cache none --db "$db/results.db"
