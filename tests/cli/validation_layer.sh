#!/bin/sh
# validation_layer.sh — the tuner's own Vulkan usage under the Khronos validation layer: every buffer, uniform, image,
# sampler, descriptor-set placement, push block, multi-pass sequence and guard layout of the test spaces is tuned,
# checked and timed with VK_LAYER_KHRONOS_validation on, and the layer must report nothing. Drivers are lenient in
# different ways (lavapipe ran a uniform block bound as a storage buffer), so usage that is invalid but runs here
# could fail on another vendor's GPU; the layer sees it on any device. Skips when the layer is not installed
# (tools/setup.sh installs Debian's vulkan-validationlayers). A layer older than the driver does not know the
# driver's newer structures (the H200's cooperative-matrix and bfloat16 features): those messages say "unknown
# VkStructureType" and are not counted.
. "$(dirname "$0")/lib/common.sh" "$@"
need_device
if ! VK_LOADER_DEBUG=layer VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation "$BIN" devices 2>&1 >/dev/null |
    grep -q "VkLayer_khronos_validation"; then
    echo "SKIPPED: the Khronos validation layer is not installed (Debian: vulkan-validationlayers)"
    exit 77
fi

# under_layer NAME ARGS...: a tune with the layer on; its stdout and stderr in $T/NAME.
under_layer() {
    name=$1
    shift
    VK_INSTANCE_LAYERS=VK_LAYER_KHRONOS_validation "$BIN" "$@" --db "$T/v.db" --warmup 0 --repetitions 2 \
        >"$T/$name" 2>&1
    status=$?
    check "$name: tuned under the validation layer (exit $status)" [ "$status" -eq 0 ]
    n=$(grep "Validation Error\|Validation Warning" "$T/$name" | grep -vc "unknown VkStructureType")
    check "$name: the layer reported nothing ($n messages)" [ "$n" -eq 0 ]
    [ "$n" -eq 0 ] || grep "Validation" "$T/$name" | grep -v "unknown VkStructureType" | head -n 3 | cut -c 1-600
}

for space in "$SRC"/tests/data/unmodified/*.ini; do
    under_layer "$(basename "$space" .ini)" --space "$space" --budget 4
done
under_layer gemm --space "$SRC/spaces/gemm.ini" --budget 3
under_layer splitk --space "$SRC/tests/data/sequence/splitk.ini" --budget 3
under_layer reduce_passes --space "$SRC/tests/data/sequence/reduce.ini" --budget 3
under_layer check_on_device --space "$SRC/spaces/gemm.ini" --budget 2 --check-on gpu
# Reductions across the lanes of a subgroup: every attention variant sums clusters of lanes, which lavapipe does
# not list among its subgroup operations (the space takes xor shuffles there)
under_layer attention --space "$SRC/spaces/attention_f32.ini" --budget 2
finish
