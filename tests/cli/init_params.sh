#!/bin/sh
# init_params.sh — parameter blocks that are not push constants, float bounds and float members, in shaders
# written here (the idioms of session 19's trial, records/session19-thirdparty-trial.md):
#   - a readonly storage block without a run-time array (Godot's compositor passes: `vec2 raster_size`) compared as
#     floats with the converted invocation index is a parameter block: [fields] for it, its vec2 the size in both
#     components. Random data there made raster_size < 1 and the pass wrote nothing;
#   - an unqualified storage block nothing stores to, with an int count bounding the invocations, the same; the
#     output stored under that count alone is `out` (init sets the count to the size), one stored under another
#     member as well stays inout from zero; a storage block holding a 256-entry table stays data;
#   - a uniform block's mat4 and mat3 are their identities (a mat3's columns 16 bytes apart in std140), its float
#     array 1 each: as zero words every output was the same whatever the input;
#   - float push constants compared per axis are a size each, passed as floats, and so are a uniform block's
#     members per axis (each by its field); float literals (`p.x >= 96.0`, `p.y > 39.5`) are sizes at the counts
#     they let through.
# Each file tunes as written, and its output is checked to be written (an `out` the reference must fill) or against
# a reference that assumes init's values.
set -u
. "$(dirname "$0")/lib/common.sh" "$@"
D=$(cd "$SRC/tests/data/init_params" && pwd)

"$BIN" init "$D/raster_params.comp" -o "$T/raster.ini" 2>/dev/null
check "a readonly storage parameter block: an input" \
    grep -q '^params = float32, 4, random(-1, 1), in @set(0) @binding(0) .*\[fields\]' "$T/raster.ini"
check "its float vector compared per component is the size" grep -q '^raster_size = 1024 @none ' "$T/raster.ini"
check "its field takes the size as a float in both components" \
    grep -q '^raster_size = float32, raster_size, raster_size ' "$T/raster.ini"
check "the other members 1.0" grep -q '^strength = float32, 1.0 ' "$T/raster.ini"
check "the written image over both axes, an output" \
    grep -q '^dst_image = r32f, image(raster_size, raster_size), zero, out ' "$T/raster.ini"

"$BIN" init "$D/count_params.comp" -o "$T/count.ini" 2>/dev/null
check "an unqualified block nothing stores to: an input with [fields]" \
    lines "$T/count.ini" '^u = float32, 3, random(-1, 1), in @set(0) @binding(0) .*\[fields\]' '^\[fields.u\]$'
check "its int count is the size, an int32" lines "$T/count.ini" '^count = 1024 @none ' '^count = int32, count '
check "the output stored under that count alone: out, which the reference must fill" \
    grep -q '^Dst = float32, count, zero, out ' "$T/count.ini"

"$BIN" init "$D/count_and_limit.comp" -o "$T/limit.ini" 2>/dev/null
check "stored under a second member that is not the size: inout, from zero" \
    lines "$T/limit.ini" '^limit = uint32, 1 ' '^Dst = float32, count, zero, inout '
sed 's/^scale = float32, 1.0/scale = uint32, 1/' "$T/count.ini" >"$T/count_kind.ini"

"$BIN" init "$D/table_block.comp" -o "$T/table.ini" 2>/dev/null
check "a storage block of a 256-entry table: data, no [fields]" \
    sh -c "grep -q '^Table = float32, 256, random(-1, 1), in .*it has no run-time array' '$T/table.ini' &&
           ! grep -q '^\[fields.Table\]' '$T/table.ini'"
check "a small one of weights and a count: [fields], the weights 1.0 each" \
    lines "$T/table.ini" '^\[fields.coef\]$' '^w_2 = float32, 1.0$' '^n = uint32, n '

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

"$BIN" init "$D/push_float_axes.comp" -o "$T/axes.ini" 2>/dev/null
check "float push constants per axis: a size each" lines "$T/axes.ini" '^width = 1024 @push ' '^height = 1024 @push '
check "passed as floats" lines "$T/axes.ini" '^width = float32, width ' '^height = float32, height '
check "the buffers over both" grep -q '^Dst = float32, width \* height, zero, out ' "$T/axes.ini"

"$BIN" init "$D/axes_ubo.comp" -o "$T/axes_ubo.ini" 2>/dev/null
check "uniform block members per axis: a size each" lines "$T/axes_ubo.ini" \
    '^width = 1024 @none .*gl_GlobalInvocationID.x' '^height = 1024 @none .*gl_GlobalInvocationID.y'
check "each given by its field" lines "$T/axes_ubo.ini" '^width = uint32, width ' '^height = uint32, height '

"$BIN" init "$D/float_literal.comp" -o "$T/literal.ini" 2>/dev/null
check "float literals: the counts they let through" lines "$T/literal.ini" '^NX = 96 @none ' '^NY = 40 @none '

if "$BIN" devices >/dev/null 2>&1; then
    check_tunes_as_written "$T/raster.ini" raster_params.comp
    check_tunes_as_written "$T/count.ini" count_params.comp
    check_tunes_as_written "$T/limit.ini" count_and_limit.comp
    check_tunes_as_written "$T/matrix.ini" matrix_ubo.comp
    check_tunes_as_written "$T/matrix_ref.ini" "matrix_ubo.comp against a reference that assumes init's values"
    check_tunes_as_written "$T/axes.ini" push_float_axes.comp
    check_tunes_as_written "$T/table.ini" table_block.comp
    check_tunes_as_written "$T/axes_ubo.ini" axes_ubo.comp
    check_tunes_as_written "$T/literal.ini" float_literal.comp
    # refuse SPACE NAME MESSAGE: a field of the other kind than its member is refused, naming both
    refuse() {
        "$BIN" --space "$1" --db "$T/k.db" --budget 1 --no-race >/dev/null 2>"$T/k.err"
        rc=$?
        check "$2: refused (exit $rc)" [ $rc -eq 3 ]
        check "$2: $3" grep -q "$3" "$T/k.err"
    }
    refuse "$T/count_kind.ini" "an integer for a storage block's float" \
        "binding 0 ('u') is a storage block whose 'scale' (offset 8) is a float, but the field 'scale' there"
    refuse "$T/matrix_kind.ini" "an integer for a matrix's float" \
        "a uniform block whose 'model' (offset 0) is a float, but the field 'model_1.x' there"
else
    echo "skip: tuning the written files (no Vulkan device; install mesa-vulkan-drivers for lavapipe)"
fi
finish
