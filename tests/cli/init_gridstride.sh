#!/bin/sh
# init_gridstride.sh — `vkautotune init` on shaders with a grid-stride loop (i from the global x index, i +=
# gl_NumWorkGroups.x * gl_WorkGroupSize.x), each written here: they compute the same at any workgroup size and
# count, so init tunes both (the size replaced or by its specialization constant, GROUPS_PER_CU capping the count)
# and checks every variant against the shader's own dispatch. Before, init saw gl_NumWorkGroups and kept the size
# fixed, and wrote groups = cdiv(n, 256): nothing was tuned.
#   - scale_loop.comp: a size fixed in the source, the stride in a variable, a for loop;
#   - axpy_while.comp: a spec-constant size, the start from gl_WorkGroupID and gl_LocalInvocationID, a while loop,
#     the stride size first, integers (every variant must match exactly);
#   - kept as before: gl_NumWorkGroups flattening a 2-D index (flatten_2d.comp), a grid-stride reduction that
#     stores each invocation's partial sum at its own index (partial_sums.comp), and a stride written as the
#     size's literal (literal_stride.comp), right at the shader's own size only.
set -u
. "$(dirname "$0")/lib/common.sh" "$@"
D=$(cd "$SRC/tests/data/init_gridstride" && pwd)

"$BIN" init "$D/scale_loop.comp" -o "$T/scale.ini" 2>/dev/null
check "a fixed size replaced, though the shader reads gl_NumWorkGroups" grep -q '^replace_local_size = true ' \
    "$T/scale.ini"
check "its x size a parameter, the shader's first" grep -q '^WG_X = 256, 32, 64, 128, 512 ' "$T/scale.ini"
check "the workgroup count a parameter, 0 (one invocation an element) first" \
    grep -q '^GROUPS_PER_CU = 0, 1, 2, 4, 8, 16, 32 ' "$T/scale.ini"
check "the count capped per compute unit, at least one group where the device does not say" grep -qF \
    'groups = GROUPS_PER_CU == 0 ? cdiv(n, WG_X) : min(cdiv(n, WG_X), max(device.compute_units, 1) * GROUPS_PER_CU)' \
    "$T/scale.ini"
check "the check's reference: the shader as written, dispatched as it is" grep -q '^config = WG_X=256,GROUPS_PER_CU=0$' \
    "$T/scale.ini"
check "saying why" grep -q '^; A grid-stride loop (i from gl_GlobalInvocationID.x' "$T/scale.ini"
check "the reason a size stays fixed is gone" sh -c "! grep -q 'reads gl_WorkGroupID' '$T/scale.ini'"

"$BIN" init "$D/axpy_while.comp" -o "$T/while.ini" 2>/dev/null
check "a spec-constant size tuned by its constant" grep -q '^BLOCK = 32, 64, 128, 256, 512 @spec(0) ' "$T/while.ini"
check "the count too" grep -q '^GROUPS_PER_CU = 0, ' "$T/while.ini"
check "by the size the loop is bounded by" grep -qF 'min(cdiv(count, BLOCK), max(device.compute_units, 1) * ' \
    "$T/while.ini"
check "its reference at the constant's default" grep -q '^config = BLOCK=64,GROUPS_PER_CU=0$' "$T/while.ini"

# as before: nothing tuned, and why
for s in flatten_2d literal_stride partial_sums; do
    "$BIN" init "$D/$s.comp" -o "$T/$s.ini" 2>/dev/null
    check "$s: the size kept" sh -c "! grep -q '^replace_local_size' '$T/$s.ini' && grep -q '^local_size = [0-9]*, 1, 1' \
        '$T/$s.ini'"
    check "$s: and why" grep -q 'reads gl_WorkGroupID, gl_LocalInvocationID' "$T/$s.ini"
    check "$s: the count not tuned" sh -c "! grep -q 'GROUPS_PER_CU' '$T/$s.ini' && grep -q '^groups = cdiv(n, [0-9]*) ' \
        '$T/$s.ini'"
done

# Every configuration on the device, at a size no workgroup divides: on lavapipe (no compute units said) a
# GROUPS_PER_CU of 1 to 32 runs 1 to 32 workgroups where the shader's dispatch runs 20 to 157, so the loops go round.
if "$BIN" devices >/dev/null 2>&1; then
    TUNE="--strategy exhaustive --warmup 0 --repetitions 2 --no-race --json --top 100"
    # shellcheck disable=SC2086 # TUNE holds several words on purpose
    "$BIN" --space "$T/scale.ini" --db "$T/scale.db" --problem n=5003 $TUNE >"$T/tune.json" 2>"$T/tune.err"
    check_tune "scale_loop: 5 sizes x 7 counts, each as the shader computes" "$T/tune.json" $? 35
    # shellcheck disable=SC2086
    "$BIN" --space "$T/while.ini" --db "$T/while.db" --problem count=5003 $TUNE >"$T/tune.json" 2>"$T/tune.err"
    check_tune "axpy_while: 5 sizes x 7 counts, exactly" "$T/tune.json" $? 35
    check_tunes_as_written "$T/flatten_2d.ini" flatten_2d
    check_tunes_as_written "$T/partial_sums.ini" partial_sums
else
    echo "skip: tuning the written files (no Vulkan device; install mesa-vulkan-drivers for lavapipe)"
fi
finish
