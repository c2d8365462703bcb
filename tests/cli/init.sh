#!/bin/sh
# init.sh — `vkautotune init`: a starting space file written from a shader's SPIR-V.
#   - for axpy_sets.comp (buffers in two descriptor sets with gaps, a push block whose first member is the size, the
#     workgroup size a specialization constant named WG): each buffer in its slot with its direction, the size bound
#     @push, WG tunable, and its grid-stride loop's workgroup count too (GROUPS_PER_CU), the check against the shader
#     at its defaults ([check] config); the file tunes as written on the device, every variant checked, and its
#     template path is relative to where it was written;
#   - reverse_wg.comp (three workgroup constants, an anonymous push block) tunes as written too;
#   - a template that needs macros fails with its compile error and a hint, and compiles with -D (the macros become
#     parameters of one value);
#   - blocks sized from their layout (blocks.comp): a std140 uniform block of mixed members by its bytes, a std140
#     storage array by its 16-byte stride after the member before it, a fixed-size array by its length;
#   - what the module's capabilities need: [kernel] features (16-bit storage: half_subgroup.comp; int64:
#     spec_types.comp; a float atomicAdd: float_atomic.comp), and a comment for subgroup operations; float, bool
#     and int64 specialization constants are parameters (their values pass as the declared type);
#   - image and texel-buffer bindings are entries of their declared format (texel_dot.comp tunes as written); a
#     separate sampler and buffer addresses in the push block are written as comments saying why;
#   - a Godot RenderingDevice file (`#[compute]` before #version: godot_marker.comp) compiles as Godot compiles it
#     and tunes as written; glslang alone refused the marker ("invalid directive", session 19's trial); so does
#     one with a `#[versions]` section and `#VERSION_DEFINES` after #version (godot_versions.comp), which failed;
#   - two kinds of descriptor in one binding (an OpenGL shader's image unit 0 beside its buffer binding 0:
#     binding_reused.comp) are read with each kind's bindings apart (opengl_rules = separate_bindings); two that
#     share one even so (two images: one image unit) are refused by init naming both, not written as two [buffers]
#     entries the tuner then refused as a clash of the file's own lines;
#   - a buffer without qualifiers that nothing stores to is `in`, one stored to stays `inout`
#     (unqualified_read.comp): the input was compared as an output before (session 19's trial);
#   - an existing -o file is kept without --force; no shader is a usage error.
set -u
. "$(dirname "$0")/lib/common.sh" "$@"
D=$(cd "$SRC/tests/data/unmodified" && pwd)

mkdir -p "$T/sub"
"$BIN" init "$D/shaders/axpy_sets.comp" -o "$T/sub/axpy.ini" 2>"$T/a.err"
check "init -o exits 0 ($(tail -n 1 "$T/a.err"))" [ -f "$T/sub/axpy.ini" ]
check "BufY in set 1, binding 0, read-only" grep -q '^BufY = float32, n, random(-1, 1), in @set(1) @binding(0)' "$T/sub/axpy.ini"
check "BufZ write-only at binding 5" grep -q '^BufZ = float32, n, zero, out @set(0) @binding(5)' "$T/sub/axpy.ini"
check "the push block's first integer is the problem size, @push" grep -q '^n = 1024 @push' "$T/sub/axpy.ini"
check "the float member a float32" grep -q '^a = float32, 1.0' "$T/sub/axpy.ini"
check "the workgroup constant WG tunable, by its name" grep -q '^WG = 32, 64, 128, 256, 512 @spec(0)' "$T/sub/axpy.ini"
check "local_size follows WG" grep -q '^local_size = WG, 1, 1' "$T/sub/axpy.ini"
check "its grid-stride loop: the workgroup count a parameter" grep -q '^GROUPS_PER_CU = 0, ' "$T/sub/axpy.ini"
check "the check: the shader at its own defaults" grep -q '^config = WG=64,GROUPS_PER_CU=0$' "$T/sub/axpy.ini"
check "the template relative to the file" grep -q "^template = \.\./.*tests/data/unmodified/shaders/axpy_sets.comp$" \
    "$T/sub/axpy.ini"

# the shader below the file's directory, and in it
mkdir -p "$T/own/deeper"
cp "$D/shaders/axpy_sets.comp" "$T/own/deeper/"
"$BIN" init "$T/own/deeper/axpy_sets.comp" -o "$T/own/below.ini" 2>/dev/null
check "a shader below the file: its path from there" grep -q '^template = deeper/axpy_sets.comp$' "$T/own/below.ini"
"$BIN" init "$T/own/deeper/axpy_sets.comp" -o "$T/own/deeper/beside.ini" 2>/dev/null
check "a shader beside the file: its name" grep -q '^template = axpy_sets.comp$' "$T/own/deeper/beside.ini"

"$BIN" init "$D/shaders/reverse_wg.comp" >"$T/rev.ini" 2>"$T/r.err"
check "init to standard output" grep -q '^local_size = WG_X, WG_Y, WG_Z' "$T/rev.ini"
sed "s|^template = .*|template = $D/shaders/reverse_wg.comp|" "$T/rev.ini" >"$T/rev2.ini"
"$BIN" init "$D/shaders/blur_image.comp" -o "$T/blur.ini" 2>/dev/null
check "2D images: two sizes each, two axes of groups" grep -q '^groups = cdiv(N, WG_X), cdiv(N, WG_Y)' "$T/blur.ini"
sed 's|^N = 1024 @none|N = 40 @none|' "$T/blur.ini" >"$T/blur2.ini"

"$BIN" init "$D/shaders/blocks.comp" -o "$T/blocks.ini" 2>/dev/null
check "a uniform block of mixed members: its 64 bytes" grep -q '^params = int32, 16, random(0, 16), uniform @set(0) @binding(0)' \
    "$T/blocks.ini"
check "a std140 array: its stride, after the header" \
    grep -q '^Padded = float32, 4 + 4 \* counts, random(-1, 1), inout' "$T/blocks.ini"
check "a fixed-size array: its length" grep -q '^Hist = uint32, 64, zero, out @set(0) @binding(2)' "$T/blocks.ini"

"$BIN" init "$D/shaders/half_subgroup.comp" >"$T/h.ini" 2>/dev/null
check "16-bit storage: its feature" grep -q '^features = storageBuffer16BitAccess ' "$T/h.ini"
check "subgroup arithmetic: a comment" grep -q '^; the shader needs subgroup arithmetic operations of the device' "$T/h.ini"
"$BIN" init "$SRC/tests/data/spec_types/spec_types.comp" >"$T/st.ini" 2>/dev/null
check "an int64 constant: shaderInt64" grep -q '^features = shaderInt64 ' "$T/st.ini"
"$BIN" init "$D/shaders/float_atomic.comp" >"$T/fa.ini" 2>/dev/null
check "a float atomicAdd: shaderBufferFloat32AtomicAdd" grep -q '^features = shaderBufferFloat32AtomicAdd ' "$T/fa.ini"
check "a float constant: a parameter" grep -q '^SCALE = 1 @spec(1)' "$T/st.ini"
check "a bool constant: a parameter" grep -q '^NEGATE = 0 @spec(2)' "$T/st.ini"
check "an int64 constant: a parameter" grep -q '^OFFSET = 0 @spec(3)' "$T/st.ini"

if "$BIN" devices >/dev/null 2>&1; then
    for space in "$T/sub/axpy.ini" "$T/rev2.ini" "$T/blur2.ini"; do
        "$BIN" --space "$space" --db "$T/r.db" --budget 5 --warmup 0 --repetitions 2 --no-race >"$T/t.out" 2>"$T/t.err"
        rc=$?
        check "$(basename "$space") tunes as written (exit $rc: $(tail -n 1 "$T/t.err"))" \
            grep -q "5 evaluated (0 from the database), 0 failed" "$T/t.out"
    done
    "$BIN" --space "$T/blocks.ini" --db "$T/r.db" --budget 5 --warmup 0 --repetitions 2 --no-race >"$T/t.out" 2>"$T/t.err"
    rc=$?
    check "blocks.ini tunes as written, over the workgroup size it fixes (exit $rc: $(tail -n 1 "$T/t.err"))" \
        grep -q "5 evaluated (0 from the database), 0 failed" "$T/t.out"
else
    echo "skip: tuning the written files (no Vulkan device; install mesa-vulkan-drivers for lavapipe)"
fi

"$BIN" init "$D/shaders/matmul_push.comp" >"$T/m.out" 2>"$T/m.err"
rc=$?
check "a template needing macros: compile error (exit $rc)" [ $rc -eq 4 ]
check "its line and the -D hint" grep -q "matmul_push.comp:[0-9]*: .*WG.*" "$T/m.err"
check "the -D hint names the macro" grep -q "if 'WG' is a macro its build defines, give it with -D WG=VALUE" "$T/m.err"
# the hint follows what glslang says, not every compile error: a plain mistake gets only its message
hint() { printf '#version 450\n%s\nvoid main() {}\n' "$1" > "$T/h.comp"; "$BIN" init "$T/h.comp" 2>&1 | sed -n 2p; }
check "a type conversion: no hint" [ -z "$(hint 'int x = 1.0;')" ]
check "a missing include: -I" sh -c "echo '$(hint '#include "absent.glsl"')' | grep -q 'with -I DIR$'"
check "an #error: -D" sh -c "echo '$(hint '#error needs FOO')' | grep -q '(#error): give the macros its build'"
check "an undefined function-like macro: -D with its arguments" \
    sh -c "echo \"$(hint 'float f() { return LD(1); }')\" | grep -q \"give it with -D 'LD(ARGS)=BODY'\""
"$BIN" init "$D/shaders/matmul_push.comp" -D WG=8 -D VEC=vec2 -D VEC_WIDTH=2 -D A_TYPE=float >"$T/m.ini" 2>"$T/m2.err"
check "with -D it compiles; the macros are parameters" grep -q '^VEC = vec2' "$T/m.ini"
check "the push block's M is the problem size" grep -q '^M = 1024 @push' "$T/m.ini"

"$BIN" init "$D/bad/image_binding.comp" >"$T/i.ini" 2>/dev/null
check "a storage image: an image entry of its declared format, read-only" \
    grep -q '^src = r32f, image(N, N), random(0, 1), in @set(0) @binding(1)' "$T/i.ini"
"$BIN" init "$D/bad/image_separate.comp" >"$T/i2.ini" 2>/dev/null
check "a separate texture and sampler: a comment saying why" \
    grep -q "^; set 0, binding 1 ('tex') is a sampled image, which vkautotune cannot bind" "$T/i2.ini"
"$BIN" init "$D/bad/image_reads.comp" >"$T/i4.ini" 2>/dev/null
check "an image read through a usampler2D: a format of unsigned integers (rgba8ui)" \
    grep -q '^tex = rgba8ui, image(N, N), random(0, 16), sampled @set(0) @binding(1)' "$T/i4.ini"
# A smaller problem than the written N = 1024: a million one-invocation workgroups take minutes under AddressSanitizer.
"$BIN" --space "$T/i4.ini" --db "$T/i4.db" --budget 2 --problem N=64 >"$T/i4.out" 2>&1
check "and it tunes as written (the binding check takes its format)" \
    grep -q "[1-9][0-9]* evaluated (0 from the database), 0 failed" "$T/i4.out"
"$BIN" init "$D/shaders/downsample_sampled.comp" >"$T/i3.ini" 2>/dev/null
check "an image read through a sampler: sampled (rgba8 and a TODO for its format)" \
    grep -q '^src = rgba8, image(out_size, out_size), random(0, 1), sampled @set(0) @binding(0) .*and format' \
    "$T/i3.ini"
check "its bound, p.x >= pc.out_size.x || p.y >= pc.out_size.y: the size in both components" \
    grep -q '^out_size = uint32, out_size, out_size ' "$T/i3.ini"
check "an rgba8 output: the check's tolerance for rounding" grep -q '^rel_l2 = 1e-2' "$T/i3.ini"
"$BIN" init "$D/shaders/texel_dot.comp" -o "$T/t.ini" 2>/dev/null
check "a storage texel buffer: its declared format, in texels, write-only" \
    grep -q '^dst = r32f, texels(n), zero, out @set(0) @binding(2)' "$T/t.ini"
check "a storage texel buffer read with imageLoad: in" \
    grep -q '^w = rgba8ui, texels(n), random(0, 16), in @set(0) @binding(1)' "$T/t.ini"
check "a samplerBuffer: a uniform texel buffer, r32f and a TODO for its format" \
    grep -q '^src = r32f, texels(n), random(-1, 1), uniform @set(0) @binding(0) .*TODO: its texel count and format' \
    "$T/t.ini"
"$BIN" --space "$T/t.ini" --db "$T/t.db" --warmup 0 --repetitions 2 --pipeline-cache none >"$T/t.out" 2>&1
check "it tunes as written, every variant checked correct" grep -q "6 evaluated (0 from the database), 0 failed" \
    "$T/t.out"
"$BIN" init "$D/bad/texel_kinds.comp" >"$T/t2.ini" 2>/dev/null
check "a usamplerBuffer: a uniform texel buffer of unsigned integers (r32ui)" \
    grep -q '^tex = r32ui, texels(N), random(0, 16), uniform @set(0) @binding(2)' "$T/t2.ini"
printf '#version 460\n#extension GL_EXT_buffer_reference : require\nlayout(local_size_x = 64) in;\nlayout(buffer_reference, std430) buffer F { float v[]; };\nlayout(push_constant) uniform P { F src; uint n; } p;\nvoid main() { if (gl_GlobalInvocationID.x < p.n) p.src.v[0] = 1.0; }\n' >"$T/bda.comp"
"$BIN" init "$T/bda.comp" >"$T/b.ini" 2>/dev/null
check "a buffer address in the push block: a comment" grep -q "^; 'src' is a buffer address" "$T/b.ini"

"$BIN" init "$D/shaders/godot_marker.comp" -o "$T/godot.ini" 2>"$T/g.err"
check "a Godot file's #[compute] marker: init compiles it ($(tail -n 1 "$T/g.err"))" \
    grep -q '^count = 1024 @push' "$T/godot.ini"
"$BIN" --space "$T/godot.ini" --db "$T/g.db" --budget 3 --warmup 0 --repetitions 2 >"$T/g.out" 2>&1
check "and it tunes as written" grep -q "evaluated (0 from the database), 0 failed" "$T/g.out"
"$BIN" init "$D/shaders/godot_versions.comp" -o "$T/versions.ini" 2>"$T/v.err"
check "a Godot file's #[versions] section and #VERSION_DEFINES: init compiles it ($(tail -n 1 "$T/v.err"))" \
    grep -q '^count = 1024 @push' "$T/versions.ini"
"$BIN" --space "$T/versions.ini" --db "$T/v.db" --budget 3 --warmup 0 --repetitions 2 >"$T/v.out" 2>&1
check "and it tunes as written" grep -q "evaluated (0 from the database), 0 failed" "$T/v.out"
sed 's/^    buf.data\[i\] = v + 1.0;/    buf.data[i] = v + ;/' "$D/shaders/godot_versions.comp" > "$T/versions_bad.comp"
"$BIN" init "$T/versions_bad.comp" -o "$T/vb.ini" 2>"$T/vb.err"
check "an error in it names the line of the file ($(head -c 160 "$T/vb.err"))" \
    grep -q "versions_bad.comp:27:" "$T/vb.err"
"$BIN" init "$D/shaders/binding_reused.comp" -o "$T/reused.ini" 2>"$T/reused.err"
check "an image and a buffer at OpenGL's binding 0: read with their kinds' bindings apart" \
    lines "$T/reused.ini" '^opengl_rules = separate_bindings ' '^img = rgba8, .* @binding(200) ' \
    '^Bins = .* @binding(0) '
cat >"$T/units.comp" <<'GLSL'
#version 450
layout(local_size_x = 64) in;
layout(binding = 0, r32f) uniform readonly imageBuffer table;
layout(binding = 0, rgba8) uniform writeonly image2D img;
void main() { imageStore(img, ivec2(gl_GlobalInvocationID.xy), vec4(imageLoad(table, 0).x)); }
GLSL
"$BIN" init "$T/units.comp" -o "$T/units.ini" 2>"$T/units.err"
rc=$?
check "two images at one binding (one image unit in OpenGL too): refused by init (exit $rc)" \
    sh -c "[ $rc -ne 0 ] && [ ! -f '$T/units.ini' ]"
check "naming both and why" grep -q "set 0, binding 0 holds both 'img' (a storage image) and 'table' (a storage texel buffer), but" \
    "$T/units.err"

"$BIN" init "$D/shaders/unqualified_read.comp" -o "$T/unq.ini" 2>/dev/null
check "a buffer without qualifiers that is only read: in" \
    grep -q '^Values = float32, N, random(-1, 1), in @set(0) @binding(0)' "$T/unq.ini"
check "one without qualifiers that is stored to: inout" \
    grep -q '^Sums = float32, N, random(-1, 1), inout @set(0) @binding(1)' "$T/unq.ini"

"$BIN" init "$D/shaders/axpy_sets.comp" -o "$T/sub/axpy.ini" 2>"$T/e.err"
rc=$?
check "an existing file is kept (exit $rc)" [ $rc -eq 2 ]
check "and says --force" grep -q "exists; give --force" "$T/e.err"
"$BIN" init "$D/shaders/reverse_wg.comp" -o "$T/sub/axpy.ini" --force 2>/dev/null
check "--force replaces it" grep -q "^name = reverse_wg" "$T/sub/axpy.ini"
"$BIN" init >/dev/null 2>&1
rc=$?
check "no shader: usage (exit $rc)" [ $rc -eq 2 ]
finish
