#!/bin/sh
# init_params.sh — what `vkautotune init` writes for a block's members beyond scalars and vectors, in shaders
# written here:
#   - a uniform block's mat4 and mat3 are their identities (a mat3's columns 16 bytes apart in std140), its float
#     array 1 each: as zero words every output was the same whatever the input.
# Each file tunes as written, and its output is checked against a reference that assumes init's values.
set -u
. "$(dirname "$0")/lib/common.sh" "$@"
D=$(cd "$SRC/tests/data/init_params" && pwd)

# lines FILE PATTERN...: FILE has a line matching each PATTERN
lines() {
    f=$1
    shift
    for p in "$@"; do grep -q -- "$p" "$f" || return 1; done
}

"$BIN" init "$D/matrix_ubo.comp" -o "$T/matrix.ini" 2>/dev/null
check "a mat4: its identity, column by column" \
    lines "$T/matrix.ini" '^model_0 = float32, 1.0, 0.0, 0.0, 0.0 ' '^model_3 = float32, 0.0, 0.0, 0.0, 1.0$'
check "a std140 float array: 1.0 each, 16 bytes apart" \
    lines "$T/matrix.ini" '^weights_0 = float32, 1.0 ' '^weights_3 = float32, 1.0 @offset(112)$'
check "a std140 mat3: three columns of three" \
    lines "$T/matrix.ini" '^tint_0 = float32, 1.0, 0.0, 0.0 ' '^tint_2 = float32, 0.0, 0.0, 1.0$'
check "no 32-bit words of zero" sh -c "! grep -q '= uint32, 0 ' '$T/matrix.ini'"
sed "s|^config = .*|reference = $D/matrix_ubo_ref.comp\nlocal_size = 64\ngroups = cdiv(count, 64)|" \
    "$T/matrix.ini" >"$T/matrix_ref.ini"
sed 's/^model_1 = float32, 0.0, 1.0, 0.0, 0.0$/model_1 = uint32, 0, 1, 0, 0/' "$T/matrix.ini" >"$T/matrix_kind.ini"

if "$BIN" devices >/dev/null 2>&1; then
    check_tunes_as_written "$T/matrix.ini" matrix_ubo.comp
    check_tunes_as_written "$T/matrix_ref.ini" "matrix_ubo.comp against a reference that assumes init's values"
    # refuse SPACE NAME MESSAGE: a field of the other kind than its member is refused, naming both
    refuse() {
        "$BIN" --space "$1" --db "$T/k.db" --budget 1 --no-race >/dev/null 2>"$T/k.err"
        rc=$?
        check "$2: refused (exit $rc)" [ $rc -eq 3 ]
        check "$2: $3" grep -q "$3" "$T/k.err"
    }
    refuse "$T/matrix_kind.ini" "an integer for a matrix's float" \
        "a uniform block whose 'model' (offset 0) is a float, but the field 'model_1.x' there"
else
    echo "skip: tuning the written files (no Vulkan device; install mesa-vulkan-drivers for lavapipe)"
fi
finish
