#!/bin/sh
# spec_types.sh — specialization constants the shader declares as a float, a bool or a 64-bit integer, given the
# space's integers (tests/data/spec_types/): each encoded for its declared type (a float's bits, VK_TRUE, 8 bytes),
# so every variant matches a reference that declares the same constants as 32-bit integers and converts them; a
# value the type would round is refused with both lines; the export names each constant's type in the manifest and
# holds the float's bits in the header (the runtime converts a problem size bound to a float constant), and refuses
# a 64-bit constant, which its 4-byte values cannot carry.
set -u
. "$(dirname "$0")/lib/common.sh" "$@"
need_device
D="$SRC/tests/data/spec_types"

"$BIN" --space "$D/spec_types.ini" --db "$T/s.db" --budget 5 --warmup 0 --repetitions 2 --no-race >"$T/t.out" 2>"$T/t.err"
rc=$?
check "float, bool and int64 constants: every variant checked (exit $rc: $(tail -n 1 "$T/t.err"))" \
    grep -q "2 evaluated (0 from the database), 0 failed" "$T/t.out"

"$BIN" --space "$D/spec_types.ini" --db "$T/s.db" --budget 5 --no-race --problem S=16777217 >/dev/null 2>"$T/r.err"
rc=$?
check "a value a float32 rounds: refused (exit $rc)" [ $rc -eq 3 ]
check "with the shader's and the space's lines" \
    grep -q "spec_types.comp:7: specialization constant 1 is of type float32, but the space gives it 16777217 ('S', .*spec_types.ini:9), which a float32 rounds" "$T/r.err"

"$BIN" --space "$D/spec_types_f32.ini" --db "$T/f.db" --budget 5 --warmup 0 --repetitions 2 --no-race >"$T/f.out" 2>&1
"$BIN" export --space "$D/spec_types_f32.ini" --db "$T/f.db" -o "$T/x" --header k.h >"$T/x.out" 2>&1
rc=$?
check "export (exit $rc: $(tail -n 1 "$T/x.out"))" [ $rc -eq 0 ]
check "the manifest names a float constant's type" grep -q '"type": *"float32"' "$T/x/manifest.json"
check "and a bool's" grep -q '"type": *"bool"' "$T/x/manifest.json"
check "the header: a float parameter's bits (32.0f or 64.0f)" grep -Eq '\{4, 0x4(2000000|2800000)u, "FB"\}' "$T/x/k.h"
check "the header: a problem size the runtime converts to a float" \
    grep -q '{1, 0x40400000u, "S", 2, VKAT_RT_SPEC_FLOAT32}' "$T/x/k.h"

"$BIN" export --space "$D/spec_types.ini" --db "$T/s.db" -o "$T/y" >"$T/y.out" 2>&1
rc=$?
check "a 64-bit constant is not exported (exit $rc)" [ $rc -ne 0 ]
check "saying why" grep -q "specialization constant 3 is of type int64: an exported manifest and header carry 4-byte" \
    "$T/y.out"
finish
