#!/bin/sh
# tune_e2e.sh — the runtime tuner end to end, on whatever device the loader offers (lavapipe in CI): tune
# spaces/gemm.ini on a tiny problem, export with --candidates 4 --header (the manifest must list the winner and
# three candidates), build tests/runtime/tune_test.c against the header and run it (a deliberately wrong candidate
# is never chosen; the cache is used; another driver version or table invalidates it; a damaged cache is ignored
# and rewritten), then examples/gemm_runtime.c --tune twice: measured on the first run, from the cache on the second,
# and its result checked against the CPU GEMM both times.
#   sh tune_e2e.sh VKAUTOTUNE SOURCE_DIR RUNTIME_LIB CC VULKAN_INCLUDE_DIR
set -u
BIN=$1 SRC=$2 RTLIB=$3 CC=$4 VKINC=$5
T=$(mktemp -d "${TMPDIR:-/tmp}/vkat-rt-tune.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT INT TERM
failed=0
fail() { echo "FAIL: $*"; failed=1; }

if ! "$BIN" devices >/dev/null 2>&1; then
    echo "SKIPPED: no Vulkan device (install mesa-vulkan-drivers for lavapipe)"
    exit 77
fi
"$BIN" "$SRC/shaders/gemm.comp.in" --space "$SRC/spaces/gemm.ini" --problem M=64,N=64,K=64 --budget 8 --no-race \
    --db "$T/t.db" -q --warmup 0.01 --repetitions 3 >"$T/tune.out" 2>&1 || { cat "$T/tune.out"; fail "tune"; exit 1; }
"$BIN" export --db "$T/t.db" --space "$SRC/spaces/gemm.ini" -o "$T/out" --header gemm_kernels.h --candidates 4 \
    2>"$T/export.err" || { cat "$T/export.err"; fail "export --candidates"; exit 1; }
roles=$(python3 -c 'import json, sys; print(" ".join(k["role"] for k in json.load(open(sys.argv[1]))["kernels"]))' \
    "$T/out/manifest.json")
[ "$roles" = "winner candidate candidate candidate" ] || fail "manifest roles: '$roles'"
"$BIN" export --db "$T/t.db" --space "$SRC/spaces/gemm.ini" -o "$T/only" --candidates 0 -q 2>/dev/null \
    || fail "--candidates 0"
n=$(python3 -c 'import json, sys; print(len(json.load(open(sys.argv[1]))["kernels"]))' "$T/only/manifest.json")
[ "$n" = 1 ] || fail "--candidates 0 exported $n variants"
"$BIN" export --db "$T/t.db" --space "$SRC/spaces/gemm.ini" -o "$T/bad" --candidates x 2>"$T/bad.err"
[ $? -eq 2 ] && grep -q -- '--candidates expects a number' "$T/bad.err" || fail "--candidates x was not refused"

CFLAGS="-std=c99 -O2 -Wall -Wextra -Wshadow -Wstrict-prototypes -Wno-missing-field-initializers -Werror"
"$CC" $CFLAGS -I"$SRC/runtime" -I"$VKINC" -I"$T/out" -DVKAT_KERNELS_HEADER='"gemm_kernels.h"' \
    -DVKAT_KERNELS_TABLE=gemm_kernels -o "$T/tune_test" "$SRC/tests/runtime/tune_test.c" "$RTLIB" -ldl -lm \
    2>"$T/cc.err" || { cat "$T/cc.err"; fail "building tune_test"; exit 1; }
"$T/tune_test" "$T/cache.txt"
rc=$?
[ $rc -eq 0 ] || fail "tune_test exited $rc"

"$CC" $CFLAGS -I"$SRC/runtime" -I"$VKINC" -I"$T/out" -o "$T/gemm_runtime" "$SRC/examples/gemm_runtime.c" "$RTLIB" \
    -ldl -lm 2>"$T/cc2.err" || { cat "$T/cc2.err"; fail "building the example"; exit 1; }
"$T/gemm_runtime" --tune "$T/app-cache.txt" --repetitions 3 --warmup 0 >"$T/run1.out" 2>&1 \
    || fail "example, first run: exit $?"
cat "$T/run1.out"
grep -q '^tuned: measured' "$T/run1.out" || fail "the first run did not measure the candidates"
grep -q '^check: ok' "$T/run1.out" || fail "the first run's result is wrong"
"$T/gemm_runtime" --tune "$T/app-cache.txt" --repetitions 3 --warmup 0 >"$T/run2.out" 2>&1 \
    || fail "example, second run: exit $?"
cat "$T/run2.out"
grep -q '^tuned: from the cache' "$T/run2.out" || fail "the second run did not use the cache"
grep -q '^check: ok' "$T/run2.out" || fail "the second run's result is wrong"
p1=$(grep '^variant:' "$T/run1.out") p2=$(grep '^variant:' "$T/run2.out")
[ "$p1" = "$p2" ] || fail "the runs picked different variants: '$p1' and '$p2'"

[ $failed -eq 0 ] && echo "tune_e2e: ok"
exit $failed
