#!/bin/sh
# init_trial25.sh — `vkautotune init` and a tune on users' own compute shaders as other engines write them
# (records/session25-trial.md), each in a shader written here (tests/data/init_trial25):
#   - stage tags before or around #version: `#shader compute` (TheCherno-style engines), `#type compute` (Hazel) in a
#     file that holds vertex and fragment stages too, `#pragma stage compute` and `#pragma shader_stage(compute)`
#     (shaderc's) before #version. Each compiles as its compute stage, the other stages' lines blanked, so that an
#     error still names the file's line; a file of tagged stages without a compute one is refused at its first tag.
set -u
. "$(dirname "$0")/lib/common.sh" "$@"
need_device
D=$(cd "$SRC/tests/data/init_trial25" && pwd)

for f in cherno_scale.glsl hazel_stages.glsl pragma_stage.comp shader_stage.comp; do
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
finish
