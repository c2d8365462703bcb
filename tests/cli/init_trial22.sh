#!/bin/sh
# init_trial22.sh — `vkautotune init` and a tune on idioms of session 22's trial of public compute shaders
# (records/session22-thirdparty-trial.md), each in a shader written here; every file tunes as written:
#   - a 2-D pass that nothing bounds, made 2-D by the image it writes, indexes its buffers x + W * y (W the image's
#     width): the one size spans both axes, so the buffers hold N * N items, not one row's N;
#   - a pass that nothing bounds reads gl_GlobalInvocationID's y or z (`vec3(gl_GlobalInvocationID)`, a volume; `.xy`
#     of the vector kept whole in a local first, a plane): its dispatch has as many axes, not one row of the work;
#     the vector passed whole to a helper that reads its x is read as the helper reads it (1-D);
#   - a 2-D workgroup whose sizes init tunes (8-128 by 1-16) has combinations beyond the device's invocations: a
#     constraint skips them, where each counted as a failed variant;
#   - an image declared without qualifiers that nothing writes (a filter's source) is `in`, not an output; one
#     written by imageStore or an image atomic stays `inout`;
#   - an output stored at the slot an atomic hands out (a stream compaction's list) is `inout` from zero and
#     compared unordered: element by element, variants failed at random (the order the invocations ran in).
set -u
. "$(dirname "$0")/lib/common.sh" "$@"
need_device
D=$(cd "$SRC/tests/data/init_trial22" && pwd)

"$BIN" init "$D/image_pitch.comp" -o "$T/pitch.ini" 2>/dev/null
check "an image makes the pass 2-D: the buffers hold N * N items" \
    lines "$T/pitch.ini" '^Src = float32, N \* N, random(-1, 1), in @set(0) @binding(0)' \
    '^Dst = float32, N \* N, zero, out @set(0) @binding(1)' '^shade = rgba8, image(N, N), zero, out'
check_tunes_as_written "$T/pitch.ini" "a 2-D pass indexed by the image's width"
check "the workgroup's invocations are constrained to the device's" \
    grep -q '^invocations = WG_X \* WG_Y <= device.max_workgroup_invocations' "$T/pitch.ini"
"$BIN" --space "$T/pitch.ini" --db "$T/all.db" --budget 40 --warmup 0 --repetitions 1 --no-race >"$T/all.out" 2>&1
check "every workgroup size tried: none beyond the device's limit fails ($(grep strategy "$T/all.out"))" \
    grep -q " 0 failed" "$T/all.out"

"$BIN" init "$D/image_source.comp" -o "$T/source.ini" 2>/dev/null
check "an image only read is an input, those written stay inout" \
    lines "$T/source.ini" '^source = r8, image(N, N), random(0, 1), in @set(0) @binding(0)' \
    '^result = r8, image(N, N), random(0, 1), inout @set(0) @binding(1)' '^bright = r32ui, image(N, N), .*, inout'
check_tunes_as_written "$T/source.ini" "a box filter between unqualified images"

"$BIN" init "$D/append.comp" -o "$T/append.ini" 2>/dev/null
check "append buffers: inout from zero, compared unordered" \
    lines "$T/append.ini" '^Kept = uint32, N, zero, inout' '^compare.Kept = unordered   ; ' \
    '^Dropped = uint32, N, zero, inout' '^compare.Dropped = unordered   ; '
for run in 1 2 3; do
    LP_NUM_THREADS=4 "$BIN" --space "$T/append.ini" --db "$T/ap$run.db" --budget 10 --warmup 0 --repetitions 1 \
        --no-race >"$T/ap.out" 2>"$T/ap.err"
    check "a stream compaction tunes, run $run ($(tail -n 1 "$T/ap.err"))" grep -q " 0 failed" "$T/ap.out"
done

"$BIN" init "$D/volume_field.comp" -o "$T/volume.ini" 2>/dev/null
check "the vector read whole makes a 3-D dispatch over N * N * N items" \
    lines "$T/volume.ini" '^Field = float32, N \* N \* N, zero, out' '^groups = cdiv(N, 8), cdiv(N, 8), cdiv(N, 8) '
check_tunes_as_written "$T/volume.ini" "a density field over a volume"

"$BIN" init "$D/plane_copy.comp" -o "$T/plane.ini" 2>/dev/null
check "its x and y make a 2-D dispatch, the whole copy in a local reading no z" \
    lines "$T/plane.ini" '^Dst = float32, N \* N, zero, out' '^groups = cdiv(N, 16), cdiv(N, 16) '
check_tunes_as_written "$T/plane.ini" "a plane laid out by the dispatch's width"

"$BIN" init "$D/helper_x.comp" -o "$T/helper.ini" 2>/dev/null
check "a helper given the whole index reads its x alone: a 1-D dispatch over N items" \
    lines "$T/helper.ini" '^Data = float32, N, random(-1, 1), inout' '^groups = cdiv(N, WG_X) '
check_tunes_as_written "$T/helper.ini" "a helper's 1-D work"
finish
