#!/bin/sh
# init_trial.sh — `vkautotune init` and a tune on idioms of session 20's trial of public compute shaders
# (records/session20-thirdparty-trial.md), each in a shader written here; every file tunes as written:
#   - a push-constant block declared `restrict readonly` (Godot's compute files): glslang's NonWritable
#     decoration on it, which SPIR-V validation refused, is dropped, since it means nothing on a push constant;
#   - images of 16-bit UNORM texels (r16, rg16, rgba16) are made, initialised and compared like the 8-bit ones;
#   - a shader that bounds gl_WorkGroupID.x (one workgroup per row, llama.cpp's soft_max) gets one workgroup per
#     row of that size, not cdiv(size, workgroup size): that left rows unwritten at every size but 1;
#   - 64-bit integer atomics and storage images of extended formats (r16) are features that init writes and the
#     tuner knows (enabled on the device, refused by name on one without), not a comment that nothing checks.
set -u
. "$(dirname "$0")/lib/common.sh" "$@"
need_device
D=$(cd "$SRC/tests/data/init_trial" && pwd)

"$BIN" init "$D/push_readonly.comp" -o "$T/push.ini" 2>/dev/null
check_tunes_as_written "$T/push.ini" "a restrict readonly push-constant block"

"$BIN" init "$D/r16_image.comp" -o "$T/r16.ini" 2>/dev/null
check "an r16 image: a [buffers] entry of its format" \
    grep -q '^frame = r16, image(N, N), random(0, 1), inout @set(0) @binding(0)' "$T/r16.ini"
check "an rg16 image too" grep -q '^flow = rg16, image(N, N), random(0, 1), in @set(0) @binding(1)' "$T/r16.ini"
check_tunes_as_written "$T/r16.ini" "16-bit UNORM images"
check "r16 storage: shaderStorageImageExtendedFormats" grep -q '^features = shaderStorageImageExtendedFormats ' \
    "$T/r16.ini"

"$BIN" init "$D/atomic_max64.comp" -o "$T/a64.ini" 2>/dev/null
check "64-bit atomics: shaderBufferInt64Atomics" grep -q '^features = shaderInt64, shaderBufferInt64Atomics ' \
    "$T/a64.ini"
check_tunes_as_written "$T/a64.ini" "64-bit atomics with their feature"

"$BIN" init "$D/row_sum.comp" -o "$T/rows.ini" 2>/dev/null
check "bounded by gl_WorkGroupID.x: the size is the push member it is compared with" \
    grep -q '^rows = 1024 @push .*(the shader bounds its workgroups (gl_WorkGroupID.x) by it)' "$T/rows.ini"
check "one workgroup per row" grep -q '^groups = rows   ; ' "$T/rows.ini"
check_tunes_as_written "$T/rows.ini" "one workgroup per row"
finish
