#!/bin/sh
# init_trial24.sh — `vkautotune init` and a tune on idioms of session 24's trial of public compute shaders
# (records/session24-thirdparty-trial.md), each in a shader written here:
#   - blocks laid out by GL_EXT_scalar_block_layout (`layout(scalar)`, vec3s 12 bytes apart): validated by the scalar
#     rules on a device with scalarBlockLayout (enabled there), [kernel] features names it, and a device without it
#     is refused by a message naming the feature, not the validator's stride arithmetic.
set -u
. "$(dirname "$0")/lib/common.sh" "$@"
need_device
D=$(cd "$SRC/tests/data/init_trial24" && pwd)

"$BIN" init "$D/scalar_points.comp" -o "$T/scalar.ini" 2>/dev/null
check "init names the feature a scalar block layout needs" \
    grep -q '^features = scalarBlockLayout ' "$T/scalar.ini"
check_tunes_as_written "$T/scalar.ini" "packed vec3 points under layout(scalar)"
"$BIN" devices --json >"$T/dev.json" 2>/dev/null
sed 's/"scalarBlockLayout": *true/"scalarBlockLayout": false/' "$T/dev.json" >"$T/noscalar.json"
grep -v '^features' "$T/scalar.ini" >"$T/nofeature.ini"
"$BIN" compile --space "$T/nofeature.ini" --device-profile "$T/noscalar.json" -o "$T/x.spv" >"$T/c.out" 2>&1
check "a device without scalarBlockLayout: the error names the feature ($(head -n 1 "$T/c.out"))" \
    grep -q 'needs the device feature scalarBlockLayout' "$T/c.out"
finish
