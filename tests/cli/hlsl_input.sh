#!/bin/sh
# hlsl_input.sh — an HLSL compute shader goes through as it is: glslang's HLSL front end compiles it (a .hlsl file,
# or any file with a [numthreads] attribute), its [numthreads] function is the entry point whatever its name, the
# workgroup size is tuned by rewriting [numthreads] (or its macro), and the registers of each class get bindings
# apart (u N: N, b N: 100 + N, t N: 200 + N, s N: 300 + N). init writes such a space; the tuner's variants match a
# GLSL reference with the constant buffer's values written in, and differ when one changes. A file of two kernels is
# tuned by [kernel] entry, a Direct3D Effects file (.fx) with its technique block blanked.
set -u
. "$(dirname "$0")/lib/common.sh" "$@"
need_device
D=$(cd "$SRC/tests/data/hlsl" && pwd)

"$BIN" init "$D/scale.hlsl" -o "$T/i.ini" 2>"$T/i.err"
rc=$?
check "init: an HLSL shader is read (exit $rc: $(tail -n 1 "$T/i.err"))" [ $rc -eq 0 ]
lines "$T/i.ini" '^replace_local_size = true ' '^WG_X = 64, ' '^Params = .* uniform @set(0) @binding(100) ' \
    '^values = .* in @set(0) @binding(200) ' '^result = .* @set(0) @binding(0) ' '^\[fields.Params\]' \
    '^scale = float32, 1.0 '
check "the cbuffer member SV_DispatchThreadID is compared with: the problem size" \
    lines "$T/i.ini" '^count = 1024 @none ' '^count = uint32, count ' '^groups = cdiv(count, WG_X) '
check "no glsl_version for HLSL" sh -c "! grep -q '^glsl_version' '$T/i.ini'"
check_tunes_as_written "$T/i.ini" "init's file"

"$BIN" --space "$D/scale.ini" --db "$T/s.db" --budget 5 --no-race --json --top 5 >"$T/s.json" 2>"$T/tune.err"
check_tune "every workgroup size matches the GLSL reference" "$T/s.json" $? 3
sed "s|^scale = float32, 2.5|scale = float32, 3.0|; s|= scale|= $D/scale|" "$D/scale.ini" >"$T/other.ini"
"$BIN" --space "$T/other.ini" --db "$T/o.db" --budget 5 --no-race >"$T/o.out" 2>"$T/o.err"
check "another constant changes the result (the check fails)" grep -q "3 failed" "$T/o.out"

"$BIN" init "$D/threads_macro.hlsl" -o "$T/m.ini" 2>"$T/m.err"
check "[numthreads(THREADS, 1, 1)] with the shader's own #define: replace_defines" \
    lines "$T/m.ini" '^replace_defines = THREADS ' '^THREADS = 128, '
check_tunes_as_written "$T/m.ini" "the macro-sized shader"

"$BIN" init "$D/two_kernels.hlsl" -o "$T/k.ini" 2>"$T/k.err"
check "two kernels: init reads the first and names the other" \
    grep -q "init read the first, Clear; the others (Fill) are tuned by giving \`entry = NAME\`" "$T/k.err"
check "a global outside any cbuffer: its block at binding 99, beside u0 at 0" \
    lines "$T/k.ini" '^_Global = .* uniform @set(0) @binding(99) ' '^data = .* @set(0) @binding(0) '
check_tunes_as_written "$T/k.ini" "the first kernel"
sed 's/^name = two_kernels$/&\nentry = Fill/' "$T/k.ini" >"$T/fill.ini"
check_tunes_as_written "$T/fill.ini" "entry = Fill (its [numthreads] rewritten too)"

"$BIN" init "$D/effect.fx" -o "$T/fx.ini" 2>"$T/fx.err"
check "a Direct3D Effects file: its technique block blanked ($(tail -n 1 "$T/fx.err"))" \
    lines "$T/fx.ini" '^WG_X = 64, ' '^counts = uint32, .* @set(0) @binding(0) '
check_tunes_as_written "$T/fx.ini" "the Effects file"

printf 'RWStructuredBuffer<float> o : register(u0);\nvoid main() { o[0] = 1.0; }\n' >"$T/none.hlsl"
"$BIN" init "$T/none.hlsl" -o "$T/none.ini" 2>"$T/none.err"
check "a .hlsl file without [numthreads]: refused, saying why" \
    grep -q "an HLSL shader needs a compute entry point: a function marked \[numthreads(X, Y, Z)\]" "$T/none.err"
sed 's/    result\[id.x\] = scale \* values\[id.x\] + bias;/    result[id.x] = scale * ;/' "$D/scale.hlsl" \
    >"$T/bad.hlsl"
"$BIN" init "$T/bad.hlsl" -o "$T/bad.ini" 2>"$T/bad.err"
check "an error names the file's line ($(head -c 160 "$T/bad.err"))" grep -q "bad.hlsl:18: " "$T/bad.err"
finish
