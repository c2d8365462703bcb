#!/bin/sh
# init_trial22.sh — `vkautotune init` and a tune on idioms of session 22's trial of public compute shaders
# (records/session22-thirdparty-trial.md), each in a shader written here; every file tunes as written:
#   - a 2-D pass that nothing bounds, made 2-D by the image it writes, indexes its buffers x + W * y (W the image's
#     width): the one size spans both axes, so the buffers hold N * N items, not one row's N.
set -u
. "$(dirname "$0")/lib/common.sh" "$@"
need_device
D=$(cd "$SRC/tests/data/init_trial22" && pwd)

"$BIN" init "$D/image_pitch.comp" -o "$T/pitch.ini" 2>/dev/null
check "an image makes the pass 2-D: the buffers hold N * N items" \
    lines "$T/pitch.ini" '^Src = float32, N \* N, random(-1, 1), in @set(0) @binding(0)' \
    '^Dst = float32, N \* N, zero, out @set(0) @binding(1)' '^shade = rgba8, image(N, N), zero, out'
check_tunes_as_written "$T/pitch.ini" "a 2-D pass indexed by the image's width"
finish
