#!/bin/sh
# init_index.sh — `vkautotune init` sizes a run-time array by how the shader indexes it, as a multiple and an offset
# of the invocation index (records/session19-thirdparty-trial.md, "More than one element per invocation"), each in a
# shader written here; every file tunes as written:
#   - two elements per invocation through gl_WorkGroupID.x * gl_WorkGroupSize.x + gl_LocalInvocationID.x (a scan's
#     `id * 2`, `id * 2 + 1` read, `id * 2 + 1`, `id * 2 + 2` written): 2 * n and 2 * n + 1, the output inout from
#     zero since element 0 is never written; sized n, the reference wrote past the end of the output;
#   - a vec4 as four floats in a loop of a constant trip count (`4 * i + k`, k < 4): 4 * count, the output still
#     out (every element written); sized count, the reference wrote past the end;
#   - a shift by one (`dst[i + 1]`): n + 1; sized n, the reference wrote past the end;
#   - a butterfly in place with a fixed workgroup size (`i << 1`, `w0 + 1` through local variables, vec2 items):
#     4 * pairs floats; sized 2 * pairs, it read and wrote past the end;
#   - the shader bounding the scaled index itself (`i = 2 * gid; if (i >= n)`, or `i >= n / 2`): n + 1, not 2 * n,
#     inout from zero; as 2 * n and out, the reference left half of the output unwritten;
#   - a reduction's two loads an invocation (`gl_WorkGroupID.x * 256 + l`, that + 128, 128 invocations a
#     workgroup): 2 * n; sized n, its upper half read zeros past the end;
#   - an index through a push member (`src[i * p.stride]`), and one element per invocation: the problem size, as
#     before; a 2-D pass's product of sizes stays too, with a note.
set -u
. "$(dirname "$0")/lib/common.sh" "$@"
D=$(cd "$SRC/tests/data/init_index" && pwd)

"$BIN" init "$D/scan_pairs.comp" -o "$T/scan.ini" 2>/dev/null
check "a scan's input: 2 * n" grep -q '^Src = float32, 2 \* n, random(-1, 1), in ' "$T/scan.ini"
check "its output: 2 * n + 1, inout from zero" grep -q '^Sums = float32, 2 \* n + 1, zero, inout ' "$T/scan.ini"
check "saying why" grep -q '^; Sums: the shader indexes it up to 2 \* i + 2 for i < n' "$T/scan.ini"
check "the dispatch as before" grep -q '^groups = cdiv(n, WG_X) ' "$T/scan.ini"

"$BIN" init "$D/vec4_floats.comp" -o "$T/vec4.ini" 2>/dev/null
check "a vec4 as four floats: 4 * count, out" grep -q '^Out = float32, 4 \* count, zero, out ' "$T/vec4.ini"
check "its input too" grep -q '^In = float32, 4 \* count, random(-1, 1), in ' "$T/vec4.ini"

"$BIN" init "$D/shift_one.comp" -o "$T/shift.ini" 2>/dev/null
check "a shift by one: n + 1" grep -q '^Out = int32, n + 1, ' "$T/shift.ini"
check "its input n" grep -q '^In = int32, n, ' "$T/shift.ini"

"$BIN" init "$D/butterfly_pairs.comp" -o "$T/butterfly.ini" 2>/dev/null
check "a butterfly of vec2 pairs: 4 * pairs floats" \
    grep -q '^Data = float32, 4 \* pairs, random(-1, 1), inout ' "$T/butterfly.ini"

"$BIN" init "$D/guarded_pairs.comp" -o "$T/guarded.ini" 2>/dev/null
check "the scaled index bounded itself: n + 1" grep -q '^In = float32, n + 1, ' "$T/guarded.ini"

"$BIN" init "$D/half_guard.comp" -o "$T/half.ini" 2>/dev/null
check "invocations bounded by half the size: n + 1, inout" grep -q '^Out = float32, n + 1, zero, inout ' "$T/half.ini"
check "saying why" grep -q '^; Out: the shader bounds its index by n itself' "$T/half.ini"

"$BIN" init "$D/reduce_pairs.comp" -o "$T/reduce.ini" 2>/dev/null
check "a reduction's two loads an invocation: 2 * n" grep -q '^In = float32, 2 \* n, ' "$T/reduce.ini"
check "its output n, out" grep -q '^Out = float32, n, zero, out ' "$T/reduce.ini"

"$BIN" init "$D/stride_push.comp" -o "$T/stride.ini" 2>/dev/null
check "an index through a push member: n" \
    sh -c "grep -q '^In = float32, n, ' '$T/stride.ini' && grep -q '^Out = float32, n, zero, out ' '$T/stride.ini'"

"$BIN" init "$D/plain_copy.comp" -o "$T/plain.ini" 2>/dev/null
check "one element per invocation: n, no note" \
    sh -c "grep -q '^In = float32, n, ' '$T/plain.ini' && grep -q '^Out = float32, n, zero, out ' '$T/plain.ini' &&
        ! grep -q 'indexes it' '$T/plain.ini'"

"$BIN" init "$D/rows_pairs.comp" -o "$T/rows.ini" 2>/dev/null
check "a 2-D pass: the product of its sizes, with a note" sh -c "grep -q '^Out = float32, width \* height, ' \
    '$T/rows.ini' && grep -q '^; Out: indexed up to 2 \* i + 1 .*not followed for a 2-D problem' '$T/rows.ini'"

if "$BIN" devices >/dev/null 2>&1; then
    check_tunes_as_written "$T/scan.ini" scan_pairs.comp
    check_tunes_as_written "$T/vec4.ini" vec4_floats.comp
    check_tunes_as_written "$T/shift.ini" shift_one.comp
    check_tunes_as_written "$T/butterfly.ini" butterfly_pairs.comp
    check_tunes_as_written "$T/guarded.ini" guarded_pairs.comp
    check_tunes_as_written "$T/half.ini" half_guard.comp
    check_tunes_as_written "$T/reduce.ini" reduce_pairs.comp
    check_tunes_as_written "$T/stride.ini" stride_push.comp
    check_tunes_as_written "$T/plain.ini" plain_copy.comp
else
    echo "skip: tuning the written files (no Vulkan device; install mesa-vulkan-drivers for lavapipe)"
fi
finish
