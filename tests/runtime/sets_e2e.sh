#!/bin/sh
# sets_e2e.sh — descriptor layouts through the runtime tuner, on whatever device the loader offers (lavapipe in CI):
# buffers in several descriptor sets with gaps (tests/data/unmodified/axpy_sets.ini), a uniform block
# (affine_ubo.ini), storage images (blur_image.ini), an image read through a sampler (downsample_sampled.ini), two
# passes through a scratch image (blur_separable.ini), uniform and storage texel buffers (texel_dot.ini) and two
# passes through a scratch texel buffer (texel_passes.ini), and a uniform block whose count, scale and stride the
# space gives as [fields.P] (tests/data/fields/scale_ubo.ini), which the runtime tuner must write over its fill.
# Each is tuned, exported with --candidates 3 --header,
# and tests/runtime/sets_test.c is built against the header and run: every candidate runs with its layout and
# agrees. Where the Khronos validation layer is installed the runs are under it too, and it must report nothing
# (lavapipe ran a uniform block bound as a storage buffer, which other drivers need not).
#   sh sets_e2e.sh VKAUTOTUNE SOURCE_DIR RUNTIME_LIB CC VULKAN_INCLUDE_DIR
set -u
BIN=$1 SRC=$2 RTLIB=$3 CC=$4 VKINC=$5
T=$(mktemp -d "${TMPDIR:-/tmp}/vkat-rt-sets.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT INT TERM

if ! "$BIN" devices >/dev/null 2>&1; then
    echo "SKIPPED: no Vulkan device (install mesa-vulkan-drivers for lavapipe)"
    exit 77
fi
LAYER=
if VK_LOADER_DEBUG=layer VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation "$BIN" devices 2>&1 >/dev/null |
    grep -q "VkLayer_khronos_validation"; then
    LAYER=VK_LAYER_KHRONOS_validation
else
    echo "note: no Khronos validation layer; the runs are not validated (Debian: vulkan-validationlayers)"
fi
CFLAGS="-std=c99 -O2 -Wall -Wextra -Wshadow -Wstrict-prototypes -Wno-missing-field-initializers -Werror"
failures=0

# one DIR/NAME IN_SET1 HALF_GRID_IS_WRONG: tune, export and run sets_test on tests/data/DIR/NAME.ini, whose
# reference candidate has IN_SET1 bindings in descriptor set 1 (HALF_GRID_IS_WRONG 1: a candidate of half its grid
# leaves outputs unwritten and must be found wrong).
one() {
    name=$(basename "$1")
    space=$SRC/tests/data/$1.ini
    "$BIN" --space "$space" --no-race --db "$T/$name.db" -q --warmup 0.01 --repetitions 3 >"$T/tune.out" 2>&1 ||
        { cat "$T/tune.out"; echo "FAIL: $name: tune"; return 1; }
    "$BIN" export --db "$T/$name.db" --space "$space" -o "$T/$name" --header kernels.h --candidates 3 \
        2>"$T/export.err" || { cat "$T/export.err"; echo "FAIL: $name: export --candidates"; return 1; }
    # shellcheck disable=SC2086 # CFLAGS holds several words on purpose
    "$CC" $CFLAGS -I"$SRC/runtime" -I"$SRC/tests/runtime" -I"$VKINC" -I"$T/$name" \
        -DVKAT_KERNELS_HEADER='"kernels.h"' -DVKAT_KERNELS_TABLE=kernels -DEXPECT_IN_SET1="$2" \
        -DHALF_GRID_IS_WRONG="$3" -o "$T/sets_test" \
        "$SRC/tests/runtime/sets_test.c" "$RTLIB" -ldl -lm 2>"$T/cc.err" ||
        { cat "$T/cc.err"; echo "FAIL: $name: building sets_test"; return 1; }
    VK_INSTANCE_LAYERS=$LAYER "$T/sets_test" >"$T/run.out" 2>&1
    status=$?
    cat "$T/run.out"
    [ "$status" -eq 0 ] || { echo "FAIL: $name: sets_test exited $status"; return 1; }
    # not counted: a layer older than the driver does not know its newer structures (validation_layer.sh)
    if grep "Validation Error\|Validation Warning" "$T/run.out" | grep -vq "unknown VkStructureType"; then
        echo "FAIL: $name: the validation layer reported the runtime tuner's usage"
        return 1
    fi
    echo "$name: ok"
}
one unmodified/axpy_sets 1 0 || failures=$((failures + 1))
one unmodified/affine_ubo 0 1 || failures=$((failures + 1))
one unmodified/blur_image 0 1 || failures=$((failures + 1))
one unmodified/downsample_sampled 0 1 || failures=$((failures + 1))
one unmodified/blur_separable 0 0 || failures=$((failures + 1))
one unmodified/texel_dot 0 1 || failures=$((failures + 1))
one unmodified/texel_passes 0 0 || failures=$((failures + 1))
one fields/scale_ubo 0 1 || failures=$((failures + 1))
[ "$failures" -eq 0 ] || { echo "sets_e2e: $failures failure(s)"; exit 1; }
echo "sets_e2e: ok"
