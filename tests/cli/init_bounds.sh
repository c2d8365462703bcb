#!/bin/sh
# init_bounds.sh — what `vkautotune init` takes as the problem size from the bound a shader puts on its
# invocations, in idioms of session 18's trial (records/session18-thirdparty-trial.md), each in a shader written
# here; every file tunes as written:
#   - an integer vector of the push block compared with the invocation's xy as a whole (`any(greaterThanEqual(
#     gid.xy, p.extent))`) is the size in each component; as 1, 1 the reference wrote one texel of its output;
#   - one component of such a vector (`i < p.counts.x`) is the size in that component, the others stay 1;
#   - a size per axis where each axis is bounded by something else: two push members (`g.x >= p.width || g.y >=
#     p.height`), two specialization constants, or two literals (#defines: Mandelbrot's `x >= WIDTH || y >= HEIGHT`,
#     as in the trial), the buffers their product and the workgroups over both axes; with one size the buffer was
#     overrun (literals) or one row tuned (push members);
#   - the same where each axis's index is written gl_WorkGroupID * TILE + gl_LocalInvocationID (a tiled
#     transpose): before, only the first axis was bounded and the second was 1; a literal compared with
#     gl_LocalInvocationID alone bounds part of a workgroup, not an axis;
#   - a literal that guards part of the work after a bound read from a buffer (`if (i < 16u)`) is not the size;
#   - a 2-D dispatch gets [problem.cpu] sizes of 256 for a CPU device (lavapipe, the default without a GPU), but not
#     a literal size (the shader's own) or a 1-D one.
#   - one size over three dimensions (a volume written through an image3D) is 128, not 1024: at 1024 the volume was
#     4 GiB of r32f texels, past the device's maxBufferSize, and the file was refused (session 19's trial).
#   - a push member that multiplies gl_GlobalInvocationID.y or .z (a row pitch, ncnn's cstep) is that axis's stride:
#     the sizes below it, where 1 folded every row or plane onto the first (session 20's trial, ncnn's cast);
#   - a shader that stores one result per workgroup (`partial[gl_WorkGroupID.x]`) keeps its workgroup size (each
#     other size failed the check against the default: session 19's trial) and its output is inout from zero.
set -u
. "$(dirname "$0")/lib/common.sh" "$@"
D=$(cd "$SRC/tests/data/init_bounds" && pwd)

"$BIN" init "$D/extent_bound.comp" -o "$T/extent.ini" 2>/dev/null
check "a vector bound: the size, named after it" grep -q '^extent = 1024 @push' "$T/extent.ini"
check "in each of its components" grep -q '^extent = uint32, extent, extent ' "$T/extent.ini"
check "the image sized by it" grep -q '^dst = r32f, image(extent, extent), zero, out ' "$T/extent.ini"

"$BIN" init "$D/component_bound.comp" -o "$T/component.ini" 2>/dev/null
check "a vector's component bound: the size, named after the vector" \
    grep -q '^counts = 1024 @push' "$T/component.ini"
check "in that component, the others 1" grep -q '^counts = uint32, counts, 1, 1, 1 ' "$T/component.ini"

"$BIN" init "$D/axes_push.comp" -o "$T/axes_push.ini" 2>/dev/null
check "push members per axis: width, bound @push" grep -q '^width = 1024 @push .*gl_GlobalInvocationID.x' \
    "$T/axes_push.ini"
check "and height" grep -q '^height = 1024 @push .*gl_GlobalInvocationID.y' "$T/axes_push.ini"
check "the buffers their product" grep -q '^Out = float32, width \* height, zero, out ' "$T/axes_push.ini"
check "height passed as itself, not 1" grep -q '^height = uint32, height ' "$T/axes_push.ini"
check "the workgroups over both axes" grep -q '^groups = cdiv(width, WG_X), cdiv(height, WG_Y) ' "$T/axes_push.ini"

"$BIN" init "$D/axes_spec.comp" -o "$T/axes_spec.ini" 2>/dev/null
check "specialization constants per axis: sizes @spec" \
    sh -c "grep -q '^COLS = 1024 @spec(1) ' '$T/axes_spec.ini' && grep -q '^ROWS = 1024 @spec(2) ' '$T/axes_spec.ini'"
check "neither a parameter, the float constant one" \
    sh -c "! grep -q '^COLS = 64\|^ROWS = 32' '$T/axes_spec.ini' && grep -q '^GAIN = 2 @spec(3)' '$T/axes_spec.ini'"

"$BIN" init "$D/axes_literal.comp" -o "$T/axes_literal.ini" 2>/dev/null
check "literal bounds per axis: NX and NY at their values, @none" \
    sh -c "grep -q '^NX = 96 @none ' '$T/axes_literal.ini' && grep -q '^NY = 40 @none ' '$T/axes_literal.ini'"
check "the std140 vec4 structs over both" grep -q '^Image = float32, 4 \* NX \* NY, ' "$T/axes_literal.ini"
check "the workgroups over both" grep -q '^groups = cdiv(NX, WG_X), cdiv(NY, WG_Y) ' "$T/axes_literal.ini"

check "2-D: smaller sizes on a CPU device" sh -c "sed -n '/^\[problem.cpu\]/,/^\[/p' '$T/axes_push.ini' |
    grep -q '^width = 256' && sed -n '/^\[problem.cpu\]/,/^\[/p' '$T/axes_push.ini' | grep -q '^height = 256'"
check "an image's one size too" sh -c "sed -n '/^\[problem.cpu\]/,/^\[/p' '$T/extent.ini' | grep -q '^extent = 256'"
check "not a literal size" sh -c "! grep -q '^\[problem.cpu\]' '$T/axes_literal.ini'"
check "not a 1-D problem" sh -c "! grep -q '^\[problem.cpu\]' '$T/component.ini'"

"$BIN" init "$D/tile_transpose.comp" -o "$T/transpose.ini" 2>/dev/null
check "an index written gl_WorkGroupID * TILE + gl_LocalInvocationID: a size per axis" \
    lines "$T/transpose.ini" '^width = 1024 @push ' '^height = 1024 @push ' '^height = uint32, height '
check "the tiles over both axes" lines "$T/transpose.ini" '^B = float32, width \* height, zero, out ' \
    '^groups = cdiv(width, TILE), cdiv(height, TILE) '
"$BIN" init "$D/local_guard.comp" -o "$T/local_guard.ini" 2>/dev/null
check "a literal compared with gl_LocalInvocationID.x: not an axis's size" \
    lines "$T/local_guard.ini" '^width = 1024 @push ' '^height = 1024 @push ' '^groups = cdiv(width, 16), cdiv(height, 4) '

"$BIN" init "$D/guard_literal.comp" -o "$T/guard.ini" 2>/dev/null
check "a literal guarding part of the work after a buffer's bound: not the size" \
    grep -q '^N = 1024 @none ' "$T/guard.ini"

"$BIN" init "$D/volume_image.comp" -o "$T/volume.ini" 2>/dev/null
check "one size over a 3-D volume: 128" grep -q '^N = 128 @none ' "$T/volume.ini"
check "the volume in three dimensions of it" grep -q '^vol = r32f, image(N, N, N), zero, out ' "$T/volume.ini"

if "$BIN" devices >/dev/null 2>&1; then
    check_tunes_as_written "$T/volume.ini" volume_image.comp
    check_tunes_as_written "$T/extent.ini" extent_bound.comp
    check_tunes_as_written "$T/component.ini" component_bound.comp
    check_tunes_as_written "$T/axes_push.ini" axes_push.comp
    check_tunes_as_written "$T/axes_spec.ini" axes_spec.comp
    check_tunes_as_written "$T/axes_literal.ini" axes_literal.comp
    check_tunes_as_written "$T/transpose.ini" tile_transpose.comp
    check_tunes_as_written "$T/local_guard.ini" local_guard.comp
else
    echo "skip: tuning the written files (no Vulkan device; install mesa-vulkan-drivers for lavapipe)"
fi
# strides kept in push members: each gets the sizes below the axis it multiplies (1 folded rows and planes onto one)
"$BIN" init "$D/strides_push.comp" -o "$T/strides.ini" 2>/dev/null
check "a plane stride: the sizes below it" grep -q '^cstep = int32, w \* h ' "$T/strides.ini"
check "the output's row stride: the x size" grep -q '^outw = int32, w ' "$T/strides.ini"
check "the output's plane stride" grep -q '^outcstep = int32, w \* h ' "$T/strides.ini"
"$BIN" init "$D/row_pitch.comp" -o "$T/pitch.ini" 2>/dev/null
check "a row pitch: the width" grep -q '^pitch = uint32, width ' "$T/pitch.ini"
# one result per workgroup: the workgroup size stays the shader's, the output inout from zero
"$BIN" init "$D/partial_sums.comp" -o "$T/partial.ini" 2>/dev/null
check "per-workgroup results: the size kept at the shader's" \
    grep -q '^WG = 64 @spec(0) .*one result per' "$T/partial.ini"
check "the output inout from zero" grep -q '^Partial = float32, n, zero, inout ' "$T/partial.ini"
if "$BIN" devices >/dev/null 2>&1; then
    check_tunes_as_written "$T/partial.ini" partial.ini
    check_tunes_as_written "$T/strides.ini" strides.ini
    check_tunes_as_written "$T/pitch.ini" pitch.ini
fi
finish
