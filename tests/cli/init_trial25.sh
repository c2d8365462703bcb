#!/bin/sh
# init_trial25.sh — `vkautotune init` and a tune on users' own compute shaders as other engines write them
# (records/session25-trial.md), each in a shader written here (tests/data/init_trial25):
#   - stage tags before or around #version: `#shader compute` (TheCherno-style engines), `#type compute` (Hazel) in a
#     file that holds vertex and fragment stages too, `#pragma stage compute` and `#pragma shader_stage(compute)`
#     (shaderc's) before #version, Saiga's `##GL_COMPUTE_SHADER` after a vertex stage. Each compiles as its compute
#     stage, the other stages' lines blanked, so that an error still names the file's line; a file of tagged stages
#     without a compute one is refused at its first tag.
#   - push-constant blocks init could not fill: struct members, arrays of structs, nested arrays, a std140 block with
#     explicit offsets (its array's elements 16 bytes apart), a block wider than 128 bytes, and 64-bit members. Each
#     value init writes lands where the shader reads it: the kernels write each pushed value to the output, the test
#     numbers the values 2, 3, 4, ... (lib/push_renumber.awk) and a reference writes those numbers; a member init
#     cannot give is said on stderr with its file and line and written as a commented placeholder, which the tuner
#     refuses, never as zeros.
set -u
. "$(dirname "$0")/lib/common.sh" "$@"
need_device
D=$(cd "$SRC/tests/data/init_trial25" && pwd)

for f in cherno_scale.glsl hazel_stages.glsl pragma_stage.comp shader_stage.comp \
    saiga_stages.glsl; do
    "$BIN" init "$D/$f" -o "$T/$f.ini" 2>"$T/$f.err"
    check "$f: init compiles its compute stage ($(tail -n 1 "$T/$f.err"))" grep -q '^\[push\]' "$T/$f.ini"
    check_tunes_as_written "$T/$f.ini" "$f"
done
check "the compute stage's own #define WG: replace_defines, not another stage's" \
    grep -q '^replace_defines = WG ' "$T/hazel_stages.glsl.ini"
"$BIN" init "$D/hazel_stages.glsl" -D WG=32 -o "$T/hd.ini" 2>"$T/hd.err"
check "-D goes after the compute stage's #version ($(tail -n 1 "$T/hd.err"))" \
    grep -q 'fixed in the shader at 32' "$T/hd.ini"
sed 's/dst\[i\] = 2.0 \* src\[i\];/dst[i] = 2.0 * ;/' "$D/hazel_stages.glsl" >"$T/hazel_bad.glsl"
"$BIN" init "$T/hazel_bad.glsl" -o "$T/hb.ini" 2>"$T/hb.err"
check "an error in the compute stage names the file's line ($(head -c 160 "$T/hb.err"))" \
    grep -q "hazel_bad.glsl:32: " "$T/hb.err"
"$BIN" init "$D/no_compute.glsl" -o "$T/nc.ini" 2>"$T/nc.err"
rc=$?
check "vertex and fragment stages only: refused (exit $rc)" sh -c "[ $rc -ne 0 ] && [ ! -f '$T/nc.ini' ]"
check "at the first tag, naming the stages ($(head -c 200 "$T/nc.err"))" grep -q \
    "no_compute.glsl:2: the file's stage tags (the first here, '#shader vertex') mark no compute stage (it has vertex" \
    "$T/nc.err"
printf '#shader compute\n#version 450\nlayout(local_size_x = 1) in;\nvoid main() {}\n' >"$T/two.comp"
printf '#shader vertex\n#shader compute\n' >>"$T/two.comp"
"$BIN" init "$T/two.comp" -o "$T/two.ini" 2>"$T/two.err"
check "two compute sections: refused at the second ($(head -c 160 "$T/two.err"))" \
    grep -q "two.comp:6: a second compute section (the first is tagged at line 1)" "$T/two.err"

# push_tunes NAME: NAME.comp's space as init writes it, its values numbered, checked against NAME_ref.comp
push_tunes() {
    awk -f "$SRC/tests/cli/lib/push_renumber.awk" "$T/$1.ini" |
        sed "s|^config = .*|reference = $D/$1_ref.comp\nlocal_size = 64, 1, 1\ngroups = cdiv(n, 64)|" >"$T/$1.num.ini"
    check_tunes_as_written "$T/$1.num.ini" "$1: each numbered value where the shader reads it"
}
"$BIN" init "$D/push_struct.comp" -o "$T/push_struct.ini" 2>"$T/ps.err"
check "structs, an array of structs and a nested array: their members' entries ($(tail -n 1 "$T/ps.err"))" \
    lines "$T/push_struct.ini" '^light_color = float32, 1.0, 1.0, 1.0 ' '^light_intensity = float32, 1.0 ' \
    '^ramps_0_start = float32, 1.0 @offset(48) ' '^ramps_1_range = int32, 1, 1 ' '^grid_1_1 = uint32, 1, 1$'
check "and no words of zeros" sh -c "! grep -q 'uint32, 0' '$T/push_struct.ini'"
push_tunes push_struct
sed 's/^weights_1 = float32, 7.0/weights_1 = float32, 99.0/' "$T/push_struct.num.ini" >"$T/misplaced.ini"
"$BIN" --space "$T/misplaced.ini" --db "$T/m.db" --budget 2 --warmup 0 --repetitions 2 --no-race >"$T/m.out" 2>&1
check "a value not the reference's is caught (so the check above would see a misplaced one)" \
    grep -q "element 6: got 99, want 7" "$T/m.out"
"$BIN" init "$D/push_offset.comp" -o "$T/push_offset.ini" 2>"$T/po.err"
check "explicit offsets and std140's array stride: @offset where std430's order would not put it" \
    lines "$T/push_offset.ini" '^n = uint32, n @offset(16) ' '^bias = float32, 1.0 @offset(40) ' \
    '^light_color = float32, 1.0, 1.0, 1.0 ' '^w_1 = float32, 1.0 @offset(112)'
push_tunes push_offset

"$BIN" init "$D/push_wide.comp" -o "$T/push_wide.ini" 2>"$T/pw.err"
check "a 148-byte block: every member written, the size noted ($(tail -n 1 "$T/pw.err"))" \
    lines "$T/push_wide.ini" '^tint_4 = float32, 1.0, 1.0, 1.0, 1.0$' '^n = uint32, n ' '^; the block is 148 bytes'
"$BIN" compile --space "$T/push_wide.ini" --device-profile "$SRC/tests/data/profiles/h200.json" -o "$T/w.spv" \
    >"$T/pw.out" 2>&1
check "the space is valid for a device of 256 bytes of push constants ($(tail -n 1 "$T/pw.out"))" \
    grep -q "valid for NVIDIA H200" "$T/pw.out"
"$BIN" --space "$T/push_wide.ini" --db "$T/w.db" --budget 2 --warmup 0 --repetitions 2 --no-race >"$T/pw.out" 2>&1
limit=$("$BIN" devices --json 2>/dev/null | sed -n 's/.*"max_push_constants_size": *\([0-9]*\).*/\1/p' | head -n 1)
if [ "${limit:-0}" -ge 148 ]; then # a GPU's 256: its values past byte 128 land where the shader reads them
    push_tunes push_wide
else
    check "a device of ${limit:-?} bytes (lavapipe's 128) refuses it by its limit ($(tail -n 1 "$T/pw.out"))" \
        grep -q "push constants of 148 bytes: .*maxPushConstantsSize (${limit:-128})" "$T/pw.out"
    echo "push_wide tuned and checked: not here (maxPushConstantsSize ${limit:-?} < 148; on a GPU of 256 it is)"
fi

"$BIN" init "$D/push_unfillable.comp" -o "$T/push_unfillable.ini" 2>"$T/pu.err"
check "64-bit members: said with the file and line ($(head -c 200 "$T/pu.err"))" \
    lines "$T/pu.err" "push_unfillable.comp:8: the push-constant block's 'base' (8 bytes at offset 8) has no \[push\]" \
    "push_unfillable.comp:9: the push-constant block's 'noise.seed' (8 bytes at offset 16)"
check "written as commented placeholders, the member beside them as a value" \
    lines "$T/push_unfillable.ini" '^; base_0 = uint32, BITS @offset(8)$' \
    '^; noise_seed_1 = uint32, BITS @offset(20)$' '^noise_amount = float32, 1.0 @offset(24) '
check "never as words of zeros" sh -c "! grep -q '^base_0 = ' '$T/push_unfillable.ini'"
"$BIN" --space "$T/push_unfillable.ini" --db "$T/u.db" --budget 2 --warmup 0 --repetitions 2 --no-race \
    >"$T/pu.out" 2>&1
check "the tuner refuses the space until they are given ($(tail -n 1 "$T/pu.out" | head -c 160))" \
    grep -q "'base' at offset 8 has none" "$T/pu.out"
finish
