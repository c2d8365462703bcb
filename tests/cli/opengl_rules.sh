#!/bin/sh
# opengl_rules.sh — GLSL written for OpenGL (uniforms outside a block, a buffer without a binding) goes through as
# it is: init compiles it by glslang's relaxed Vulkan rules and writes [kernel] opengl_rules = true, the loose
# uniforms as [fields] of gl_DefaultUniformBlock and each buffer at the binding those rules give it; the tuner's
# variants match a Vulkan reference with the same values written in (so the uniforms land where the shader reads
# them), and differ from it when a value does. Without the key the shader is refused at its line. An image and a
# buffer at one OpenGL binding number (binding points are per kind there) get opengl_rules = separate_bindings.
set -u
. "$(dirname "$0")/lib/common.sh" "$@"
need_device
D=$(cd "$SRC/tests/data/opengl_rules" && pwd)

"$BIN" init "$D/scale.comp" -o "$T/i.ini" 2>"$T/i.err"
rc=$?
check "init: an OpenGL shader is read (exit $rc: $(tail -n 1 "$T/i.err"))" [ $rc -eq 0 ]
lines "$T/i.ini" '^opengl_rules = true ' '^gl_DefaultUniformBlock = .* uniform @set(0) @binding(0) ' \
    '^Values = .*@binding(1) ' '^Result = .*@binding(3) ' '^\[fields.gl_DefaultUniformBlock\]' \
    '^count = uint32, count ' \
    '^scale = float32, 1.0 ' '^offset = float32, 1.0, 1.0 '
check_tunes_as_written "$T/i.ini" "init's file"

"$BIN" --space "$D/scale.ini" --db "$T/s.db" --budget 5 --no-race --json --top 5 >"$T/s.json" 2>"$T/tune.err"
check_tune "the uniforms' values reach the shader: every variant matches the reference" "$T/s.json" $? 3

"$BIN" init "$D/shared_number.comp" -o "$T/n.ini" 2>"$T/n.err"
rc=$?
check "init: an image and a buffer at OpenGL's binding 0 (exit $rc: $(tail -n 1 "$T/n.err"))" [ $rc -eq 0 ]
lines "$T/n.ini" '^opengl_rules = separate_bindings ' '^target = rgba32f, .* @set(0) @binding(200) ' \
    '^Weights = .* @set(0) @binding(0) ' '^gl_DefaultUniformBlock = .* @set(0) @binding(100) '
check_tunes_as_written "$T/n.ini" "init's file with the kinds' bindings apart"

"$BIN" init "$D/sampled_and_buffer.comp" -o "$T/sb.ini" 2>"$T/sb.err"
rc=$?
check "init: Vulkan GLSL with a texture and a buffer at binding 0 (exit $rc: $(tail -n 1 "$T/sb.err"))" [ $rc -eq 0 ]
lines "$T/sb.ini" '^opengl_rules = separate_bindings ' '^source = .* @set(0) @binding(300) ' \
    '^Texels = .* @set(0) @binding(0) '
check_tunes_as_written "$T/sb.ini" "init's file for the texture and the buffer"

"$BIN" init "$D/no_version.comp" -o "$T/nv.ini" 2>"$T/nv.err"
rc=$?
check "init: no #version, loose uniforms, images without a binding (exit $rc: $(tail -n 1 "$T/nv.err"))" [ $rc -eq 0 ]
lines "$T/nv.ini" '^glsl_version = 450 ' '^opengl_rules = true ' '^\[fields.gl_DefaultUniformBlock\]' \
    '^radius = int32, 1 ' '^direction = int32, 1, 1 '
check_tunes_as_written "$T/nv.ini" "init's file for the shader without #version"

sed "s|^scale = float32, 2.5|scale = float32, 3.0|; s|= scale|= $D/scale|" "$D/scale.ini" >"$T/other.ini"
"$BIN" --space "$T/other.ini" --db "$T/o.db" --budget 5 --no-race >"$T/o.out" 2>"$T/o.err"
check "another value of a uniform changes the result (the check fails)" grep -q "3 failed" "$T/o.out"

sed "/^opengl_rules = true/d; s|= scale|= $D/scale|" "$D/scale.ini" >"$T/vulkan.ini"
"$BIN" --space "$T/vulkan.ini" --db "$T/v.db" --budget 5 --no-race >/dev/null 2>"$T/v.err"
rc=$?
check "without opengl_rules: refused (exit $rc)" [ $rc -ne 0 ]
check "at the shader's line, in glslang's words" \
    grep -q "scale.comp:6: 'non-opaque uniforms outside a block'" "$T/v.err"

sed "s|^opengl_rules = true|opengl_rules = yes|; s|= scale|= $D/scale|" "$D/scale.ini" >"$T/bad.ini"
"$BIN" --space "$T/bad.ini" --dry-run >/dev/null 2>"$T/b.err"
check "opengl_rules takes true, false or separate_bindings, at its line" \
    grep -q "bad.ini:7: opengl_rules must be true, false or separate_bindings, got 'yes'" \
    "$T/b.err"
finish
