#!/bin/sh
# spirv_input.sh — a compiled SPIR-V module as the template, for shaders built by another compiler (DXC, Slang,
# glslc at build time): init reads it, the tuner tunes its specialization constants and, with replace_local_size,
# its workgroup size (the LocalSize execution mode patched in the words); nothing is compiled. The modules are
# compiled here from shaders written here (tests/data/spirv_input/). Before, a .spv was refused ("vkautotune compiles
# a shader from its GLSL source").
set -u
. "$(dirname "$0")/lib/common.sh" "$@"
D=$(cd "$SRC/tests/data/spirv_input" && pwd)
need_python "to rename an entry point and swap a module's bytes"

# compile_to NAME.comp OUT.spv [ARGS]: the shader as a module, by the tool itself
compile_to() {
    sed "s|^template = .*|template = $D/$1|" "$D/compile.ini" > "$T/compile.ini"
    "$BIN" compile --space "$T/compile.ini" -o "$2" ${3:-} > /dev/null 2>&1
}
compile_to scale.comp "$T/scale.spv"
check "the module compiled" [ -s "$T/scale.spv" ]

"$BIN" init "$T/scale.spv" -o "$T/scale.ini" 2>"$T/init.err"
check "init reads the module: the size as a parameter, the push member the problem size" \
    lines "$T/scale.ini" '^template = scale.spv$' '^replace_local_size = true ' '^WG_X = 64, 32, 128, 256, 512 ' \
    '^n = 1024 @push ' '^REPEAT = ' '^config = WG_X=64'
check "no entry line for main" sh -c "! grep -q '^entry' '$T/scale.ini'"

statuses() {
    python3 -c "import sqlite3,sys
for s, n in sqlite3.connect(sys.argv[1]).execute('SELECT status, COUNT(*) FROM results GROUP BY status'):
    print(s, n)" "$1"
}
if "$BIN" devices > /dev/null 2>&1; then
    "$BIN" --space "$T/scale.ini" --db "$T/s.db" --strategy exhaustive --no-race --warmup 0.01 --repetitions 2 \
        > "$T/s.out" 2>&1
    rc=$?
    statuses "$T/s.db" > "$T/s.st"
    check "every workgroup size and REPEAT value measured and checked (exit $rc; $(tr '\n' ' ' < "$T/s.st"))" \
        sh -c "[ $rc -eq 0 ] && grep -q '^ok ' '$T/s.st' && ! grep -qv '^ok ' '$T/s.st'"
    check "more than one workgroup size among them" sh -c "grep -q 'WG_X=32' '$T/s.out' && grep -q 'WG_X=512' '$T/s.out'"

    # the same module with its entry point named as another compiler names it, and written big-endian
    python3 - "$T/scale.spv" "$T/kern.spv" "$T/swapped.spv" << 'PY'
import struct, sys
words = list(struct.unpack('<%dI' % (len(open(sys.argv[1], 'rb').read()) // 4), open(sys.argv[1], 'rb').read()))
i = 5
while i < len(words):  # OpEntryPoint GLCompute %main "main": the name's word becomes "kern"
    n, op = words[i] >> 16, words[i] & 0xffff
    if op == 15:
        words[i + 3] = struct.unpack('<I', b'kern')[0]
    i += n
open(sys.argv[2], 'wb').write(struct.pack('<%dI' % len(words), *words))
open(sys.argv[3], 'wb').write(struct.pack('>%dI' % len(words), *words))
PY
    "$BIN" init "$T/kern.spv" -o "$T/kern.ini" 2>/dev/null
    check "another entry point's name: init writes it" grep -q '^entry = kern ' "$T/kern.ini"
    "$BIN" --space "$T/kern.ini" --db "$T/k.db" --budget 3 --no-race --warmup 0.01 --repetitions 2 > "$T/k.out" 2>&1
    check "and the module tunes under it ($(tail -n 1 "$T/k.out"))" grep -q '3 evaluated (0 from the database), 0 failed' \
        "$T/k.out"
    sed 's/^entry = .*//' "$T/kern.ini" > "$T/noentry.ini"
    "$BIN" --space "$T/noentry.ini" --db "$T/n.db" --budget 1 --no-race > /dev/null 2> "$T/noentry.err"
    check "without the entry line: refused, naming the module's entry points" \
        grep -q "kern.spv: the module has no compute entry point 'main' (it has: kern); give \[kernel\] entry = NAME" \
        "$T/noentry.err"
    sed 's|^template = .*|template = swapped.spv|' "$T/kern.ini" > "$T/swapped.ini"
    "$BIN" --space "$T/swapped.ini" --db "$T/w.db" --budget 3 --no-race --warmup 0.01 --repetitions 2 > "$T/w.out" 2>&1
    check "a big-endian module tunes too ($(tail -n 1 "$T/w.out"))" grep -q '3 evaluated (0 from the database), 0 failed' \
        "$T/w.out"
else
    echo "skip: tuning the modules (no Vulkan device)"
fi

# what a module cannot do, said at its file. For Vulkan 1.1 (SPIR-V 1.3) glslang makes gl_WorkGroupSize a constant
# decorated WorkgroupSize, which sets the size whatever LocalSize says.
sed 's/"vulkan_version": "[^"]*"/"vulkan_version": "1.1.0"/' "$SRC/tests/data/profiles/h200.json" > "$T/vk11.json"
compile_to group_size.comp "$T/group.spv" "--device-profile $T/vk11.json"
check "the Vulkan 1.1 module compiled" [ -s "$T/group.spv" ]
"$BIN" init "$T/group.spv" -o "$T/group.ini" 2>/dev/null
printf '[kernel]\nname = g\ntemplate = group.spv\nreplace_local_size = true\n[params]\nWG_X = 32, 64\n[buffers]\n%s\n%s\n' \
    'B = uint32, 1024, zero, out' '[dispatch]' > "$T/group_replace.ini"
printf 'local_size = WG_X\ngroups = 1024 / WG_X\n[check]\nconfig = WG_X=64\n' >> "$T/group_replace.ini"
"$BIN" --space "$T/group_replace.ini" --db "$T/g.db" --budget 2 --no-race > /dev/null 2> "$T/group.err"
check "gl_WorkGroupSize read in the code: replace_local_size refused" \
    grep -q "replace_local_size: the module's workgroup size is a WorkgroupSize constant" "$T/group.err"
check "and init does not offer it" sh -c "! grep -q '^replace_local_size' '$T/group.ini'"
# a #define cannot reach a module: what only the shader would read is refused
printf '[defines]\nTILE = 4\n' | cat "$T/scale.ini" - > "$T/define.ini"
"$BIN" --space "$T/define.ini" --db "$T/def.db" --budget 2 > /dev/null 2> "$T/def.err"
line=$(grep -n '^TILE = ' "$T/define.ini" | cut -d: -f1)
check "a [defines] macro with a module: refused at its line ($(head -c 200 "$T/def.err"))" \
    grep -q "define.ini:$line: \\[defines\\] 'TILE': the template .* is a compiled SPIR-V module" "$T/def.err"
sed 's/^replace_local_size = .*/&\nreplace_defines = WG_X/' "$T/scale.ini" > "$T/rdef.ini"
"$BIN" --space "$T/rdef.ini" --db "$T/rdef.db" --budget 2 > /dev/null 2> "$T/rdef.err"
check "replace_defines with a module: refused ($(head -c 200 "$T/rdef.err"))" \
    grep -q "rdef.ini:[0-9]*: replace_defines: the template .* is a compiled SPIR-V module" "$T/rdef.err"
sed 's/^replace_local_size = .*/&\nopengl_rules = true/' "$T/scale.ini" > "$T/gl.ini"
"$BIN" --space "$T/gl.ini" --db "$T/gl.db" --budget 2 > /dev/null 2> "$T/gl.err"
line=$(grep -n '^opengl_rules = ' "$T/gl.ini" | cut -d: -f1)
check "opengl_rules with a module: refused at its line ($(head -c 200 "$T/gl.err"))" \
    grep -q "gl.ini:$line: opengl_rules: the template .* is a compiled SPIR-V module" "$T/gl.err"
"$BIN" init "$T/scale.spv" -D X=1 > /dev/null 2> "$T/d.err"
check "-D with a module: refused" grep -q "a compiled SPIR-V module takes no -D macros" "$T/d.err"
head -c 22 "$T/scale.spv" > "$T/cut.spv"
"$BIN" init "$T/cut.spv" > /dev/null 2> "$T/cut.err"
check "a module cut short: refused with its size" grep -q "cut.spv: a SPIR-V module cut short: 22 bytes" "$T/cut.err"
finish
