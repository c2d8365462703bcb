#!/bin/sh
# init_idioms.sh — `vkautotune init` on idioms of public compute shaders (session 15's trial,
# records/session15-thirdparty-trial.md), each in a shader written here; every file tunes as written:
#   - a specialization constant a plain constant aliases (`const uint stride = COUNT;`) keeps its declared name;
#   - a buffer the shader adds to with atomics, declared writeonly (a histogram), is inout from zero: the shader
#     reads it back, and as `out` the check refused the reference for bins it never wrote;
#   - a writeonly buffer of structs the shader writes one member of (a culling pass's draw commands) is inout from
#     zero as well; a struct of floats (particles of vec4s) is counted in float32, not 32-bit words;
#   - a writeonly buffer stored to under a bound read from a buffer (a header's count) is inout from zero: init's
#     random data decides how much of it is written; one written before that bound stays out;
#   - an OpenGL compute shader (a loose `uniform uint n;`) is read by OpenGL's rules (opengl_rules.sh has more); one
#     using what even those do not take (a subroutine) fails to compile with a hint that says so;
#   - function-like macros given with -D (ncnn's buffer_ld1(buf, i)) go to [defines], which takes NAME(a, b);
#   - an append buffer filled through an atomic counter is compared unordered ([check] compare.NAME = unordered,
#     which init writes), so it tunes over lavapipe's four threads; without that line a reference whose output
#     changes from one run to the next is refused, naming the buffer and the line, instead of every variant being
#     reported wrong;
#   - the other integer push members are 1, not the size (a range of 1024 made a loop of 2049^2 per invocation);
#   - the problem size is the push member the shader bounds its invocations by, not the block's first integer
#     (a flag); one a specialization constant bounds is a problem size bound @spec(N).
set -u
. "$(dirname "$0")/lib/common.sh" "$@"
D=$(cd "$SRC/tests/data/init_idioms" && pwd)

"$BIN" init "$D/alias_spec.comp" -o "$T/alias.ini" 2>/dev/null
check "an aliased constant: its declared name" grep -q '^COUNT = 1024 @spec(0)' "$T/alias.ini"
check "not the alias's" sh -c "! grep -q '^stride' '$T/alias.ini'"
check "the constant the invocations are bounded by: the problem size, @spec" \
    sh -c "sed -n '/^\[problem\]/,/^\[params\]/p' '$T/alias.ini' | grep -q '^COUNT = 1024 @spec(0)'"

"$BIN" init "$D/atomic_hist.comp" -o "$T/hist.ini" 2>/dev/null
check "a writeonly buffer atomics add to: inout, from zero" \
    grep -q '^Hist = uint32, count, zero, inout @set(0) @binding(0) ' "$T/hist.ini"
check "and why" grep -q "^; Hist: the shader's atomics read and write it, so inout, from zero" "$T/hist.ini"

"$BIN" init "$D/partial_struct.comp" -o "$T/partial.ini" 2>/dev/null
check "a writeonly buffer written in parts: inout, from zero" \
    grep -q '^Commands = uint32, 5 \* count, zero, inout @set(0) @binding(1) ' "$T/partial.ini"
check "and why" grep -q "^; Commands: the shader writes parts of its elements, so inout, from zero" "$T/partial.ini"
"$BIN" init "$D/particles.comp" -o "$T/particles.ini" 2>/dev/null
check "a struct of vec4s: float32, 8 per element" grep -q '^Pos = float32, 8 \* count, random(-1, 1), inout ' \
    "$T/particles.ini"

"$BIN" init "$D/header_bound.comp" -o "$T/header.ini" 2>/dev/null
check "written under a bound read from a buffer: inout, from zero" \
    grep -q '^Y = float32, N, zero, inout ' "$T/header.ini"
check "and why" grep -q "^; Y: how much of it the shader writes depends on a bound read from a buffer" \
    "$T/header.ini"
check "written before that bound: out" grep -q '^Flags = uint32, N, zero, out ' "$T/header.ini"

cat >"$T/gl.comp" <<'GLSL'
#version 450
layout(local_size_x = 64) in;
uniform uint n;
layout(std430, binding = 0) buffer B { uint v[]; };
void main() { if (gl_GlobalInvocationID.x < n) v[gl_GlobalInvocationID.x] = 1u; }
GLSL
"$BIN" init "$T/gl.comp" -o "$T/gl.ini" 2>"$T/gl.err"
rc=$?
check "an OpenGL shader: read by OpenGL's rules (exit $rc)" grep -q '^opengl_rules = true ' "$T/gl.ini"
cat >"$T/sub.comp" <<'GLSL'
#version 450
layout(local_size_x = 64) in;
subroutine float op(float x);
subroutine(op) float twice(float x) { return 2.0 * x; }
subroutine uniform op current;
layout(std430, binding = 0) buffer B { float v[]; };
void main() { v[gl_GlobalInvocationID.x] = current(1.0); }
GLSL
"$BIN" init "$T/sub.comp" >/dev/null 2>"$T/sub.err"
rc=$?
check "an OpenGL subroutine: a compile error (exit $rc)" [ $rc -eq 4 ]
check "with the hint that it is written for OpenGL" \
    grep -q "the shader is written for OpenGL, and even glslang's relaxed rules" "$T/sub.err"

"$BIN" init "$D/macro_fn.comp" -D 'LOAD(buf,i)=buf[i]' -D 'STORE(buf, i, v)=buf[i] = v' -o "$T/fn.ini" 2>"$T/fn.err"
check "function-like macros: compiled ($(tail -n 1 "$T/fn.err"))" [ -f "$T/fn.ini" ]
check "function-like macros: [defines]" grep -q '^\[defines\]' "$T/fn.ini"
check "LOAD(buf,i) as given" grep -q '^LOAD(buf,i) = buf\[i\]' "$T/fn.ini"
check "STORE(buf, i, v) as given" grep -q '^STORE(buf, i, v) = buf\[i\] = v' "$T/fn.ini"
check "not a parameter" sh -c "! sed -n '/^\[params\]/,/^\[/p' '$T/fn.ini' | grep -q LOAD"

"$BIN" init "$D/bound_size.comp" -o "$T/bound.ini" 2>/dev/null
check "the size the invocations are bounded by" grep -q '^count = 1024 @push' "$T/bound.ini"
check "the flag is not the size, and 1" grep -q '^flags = uint32, 1   ; TODO' "$T/bound.ini"
check "buffers sized by it" grep -q '^X = float32, count, ' "$T/bound.ini"

if "$BIN" devices >/dev/null 2>&1; then
    check_tunes_as_written "$T/alias.ini" alias_spec.comp
    check_tunes_as_written "$T/hist.ini" atomic_hist.comp
    check_tunes_as_written "$T/partial.ini" partial_struct.comp
    check_tunes_as_written "$T/particles.ini" particles.comp
    check_tunes_as_written "$T/fn.ini" macro_fn.comp
    check_tunes_as_written "$T/header.ini" header_bound.comp
    check_tunes_as_written "$T/bound.ini" bound_size.comp
    "$BIN" init "$D/append.comp" -o "$T/append.ini" 2>/dev/null
    check "an append buffer: compared unordered" grep -q '^compare.Out = unordered   ; ' "$T/append.ini"
    sed 's/^count = 1024 @push/count = 60000 @push/' "$T/append.ini" >"$T/append1.ini"
    LP_NUM_THREADS=4 "$BIN" --space "$T/append1.ini" --db "$T/a1.db" --budget 2 --warmup 0 --repetitions 2 \
        --no-race >"$T/a1.out" 2>"$T/a1.err"
    check "compared unordered, it tunes ($(tail -n 1 "$T/a1.err"))" grep -q " 0 failed" "$T/a1.out"
    sed '/^compare.Out = unordered/d' "$T/append1.ini" >"$T/append2.ini"
    LP_NUM_THREADS=4 "$BIN" --space "$T/append2.ini" --db "$T/a.db" --budget 2 --warmup 0 --repetitions 2 \
        --no-race >"$T/a.out" 2>"$T/a.err"
    rc=$?
    check "a reference that changes between runs: refused, as bad input (exit $rc)" [ $rc -eq 3 ]
    check "naming its buffer and why" grep -q "append2.ini:[0-9]*: the reference's output changes from one run to \
the next (a second run against the first: buffer 'Out': " "$T/a.err"
    check "the hint to compare it unordered" grep -q "compare it as a collection (\[check\] compare.Out = unordered)" \
        "$T/a.err"
    check "an integer buffer: the hint that float bits may be declared float32" \
        grep -q "an integer buffer is compared exactly: one that holds float bits" "$T/a.err"
else
    echo "skip: tuning the written files (no Vulkan device; install mesa-vulkan-drivers for lavapipe)"
fi
finish
