#!/bin/sh
# sets_e2e.sh — buffers in several descriptor sets through the runtime tuner, on whatever device the loader offers
# (lavapipe in CI): tune tests/data/unmodified/axpy_sets.ini, export with --candidates 3 --header, build
# tests/runtime/sets_test.c against the header and run it (every candidate runs with a layout per set and agrees).
#   sh sets_e2e.sh VKAUTOTUNE SOURCE_DIR RUNTIME_LIB CC VULKAN_INCLUDE_DIR
set -u
BIN=$1 SRC=$2 RTLIB=$3 CC=$4 VKINC=$5
T=$(mktemp -d "${TMPDIR:-/tmp}/vkat-rt-sets.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT INT TERM

if ! "$BIN" devices >/dev/null 2>&1; then
    echo "SKIPPED: no Vulkan device (install mesa-vulkan-drivers for lavapipe)"
    exit 77
fi
SPACE=$SRC/tests/data/unmodified/axpy_sets.ini
"$BIN" --space "$SPACE" --no-race --db "$T/t.db" -q --warmup 0.01 --repetitions 3 >"$T/tune.out" 2>&1 ||
    { cat "$T/tune.out"; echo "FAIL: tune"; exit 1; }
"$BIN" export --db "$T/t.db" --space "$SPACE" -o "$T/out" --header axpy_kernels.h --candidates 3 2>"$T/export.err" ||
    { cat "$T/export.err"; echo "FAIL: export --candidates"; exit 1; }
CFLAGS="-std=c99 -O2 -Wall -Wextra -Wshadow -Wstrict-prototypes -Wno-missing-field-initializers -Werror"
# shellcheck disable=SC2086 # CFLAGS holds several words on purpose
"$CC" $CFLAGS -I"$SRC/runtime" -I"$SRC/tests/runtime" -I"$VKINC" -I"$T/out" \
    -DVKAT_KERNELS_HEADER='"axpy_kernels.h"' -DVKAT_KERNELS_TABLE=axpy_kernels -o "$T/sets_test" \
    "$SRC/tests/runtime/sets_test.c" "$RTLIB" -ldl -lm 2>"$T/cc.err" ||
    { cat "$T/cc.err"; echo "FAIL: building sets_test"; exit 1; }
"$T/sets_test"
