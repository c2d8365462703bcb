#!/bin/sh
# init_trial21.sh — `vkautotune init` and a tune on idioms of session 21's trial of public compute shaders
# (records/session21-thirdparty-trial.md), each in a shader written here; every file tunes as written:
#   - a push member the shader shifts by (`1u << p.level`, a bitonic sort's stage) is an exponent, not a size:
#     a comparison of the invocation with a value so derived does not make it the problem size;
#   - a loop counter compared after a conversion (`int d < uint DIAGONALS`) is bounded like one compared as it is,
#     so an index of it (`A[ROWS * d + r]`, diagonal storage) sizes the buffer;
#   - an index the shader reaches whatever the invocation (`pos[j]` for j below a #define, an n-body loop) sizes the
#     buffer to at least that: sized by the invocations alone, the loop read far past its end;
#   - a shader without a #version line (MNN's: its build adds one) takes [kernel] glsl_version, which init writes;
#     the key with a shader that has its own #version, or a version without compute shaders, is an error at its line;
#   - a buffer whose elements i and i + 1 are a range's ends (CSR's row offsets: their difference a count, or a
#     loop from one to the other) starts as iota(0, 1): random ones made ranges that wrapped below zero;
#   - a reference that writes only zeros (a size at 0: a float specialization constant's default, Kompute's way) is
#     warned of: every variant that does nothing passed its check.
set -u
. "$(dirname "$0")/lib/common.sh" "$@"
need_device
D=$(cd "$SRC/tests/data/init_trial21" && pwd)

"$BIN" init "$D/log2_bound.comp" -o "$T/log2.ini" 2>/dev/null
check "a shifted push member is not the size: the member compared after it is" \
    grep -q '^n = 1024 @push .*(the shader bounds its invocations by it)' "$T/log2.ini"
check "the exponent keeps a plain value" grep -q '^level = uint32, 1   ; TODO: its value' "$T/log2.ini"
check_tunes_as_written "$T/log2.ini" "a power-of-two block given as its exponent"

"$BIN" init "$D/loop_cast.comp" -o "$T/band.ini" 2>/dev/null
check "a converted loop counter bounds its index: three diagonals of N" \
    grep -q '^Band = float32, N + 2048, random(-1, 1), in @set(0) @binding(0)' "$T/band.ini"
check_tunes_as_written "$T/band.ini" "diagonal storage"

"$BIN" init "$D/fixed_reach.comp" -o "$T/reach.ini" 2>/dev/null
check "a loop over a fixed count reads that many whatever N" \
    grep -q '^Pos = float32, max(N, 4096), random(-1, 1), in @set(0) @binding(0)' "$T/reach.ini"
check "the note says why" grep -q '^; Pos: the shader reads element 4095 whatever the invocation' "$T/reach.ini"
check_tunes_as_written "$T/reach.ini" "a loop over a fixed count"
check "a reference with real outputs: no warning of zeros" sh -c "! grep -q 'wrote only zeros' '$T/t.err'"

"$BIN" init "$D/no_version.comp" -D FLOAT=float -o "$T/nover.ini" 2>/dev/null
check "no #version: init writes glsl_version" grep -q '^glsl_version = 450   ; the shader has no #version' \
    "$T/nover.ini"
check_tunes_as_written "$T/nover.ini" "a shader without #version"
sed 's/^glsl_version = 450 .*/glsl_version = 450/; s#^template = .*#template = '"$D"'/log2_bound.comp#' "$T/nover.ini" \
    >"$T/own.ini"
"$BIN" --space "$T/own.ini" --db "$T/own.db" --budget 1 >/dev/null 2>"$T/own.err"
check "glsl_version with a #version of its own: an error at the key's line" \
    grep -q "own.ini:7: glsl_version: .*log2_bound.comp has a #version line of its own; remove the key" "$T/own.err"
sed 's/^glsl_version = 450 .*/glsl_version = 330/' "$T/nover.ini" >"$T/v330.ini"
"$BIN" --space "$T/v330.ini" --db "$T/v330.db" --budget 1 >/dev/null 2>"$T/v330.err"
check "a version without compute shaders is refused at its line" \
    grep -q "v330.ini:7: glsl_version must be 430, 440, 450 or 460, got '330'" "$T/v330.err"

"$BIN" init "$D/csr_rows.comp" -o "$T/csr.ini" 2>/dev/null
check "row offsets: iota(0, 1)" grep -q '^RowStart = uint32, rows + 1, iota(0, 1), in @set(0) @binding(0)' "$T/csr.ini"
check "the note says why" grep -q '^; RowStart: the shader reads elements i and i + 1 as the ends of a range' \
    "$T/csr.ini"
check "the column indices stay small" grep -q '^Cols = uint32, rows, random(0, 16), in' "$T/csr.ini"
check_tunes_as_written "$T/csr.ini" "a CSR matrix times a vector"

"$BIN" init "$D/spec_zero.comp" -o "$T/zero.ini" 2>/dev/null
check_tunes_as_written "$T/zero.ini" "a size left at 0"
check "a reference of zeros is warned of" grep -q "zero.ini: the reference wrote only zeros to 'B': a variant that \
does nothing passes the check too" "$T/t.err"
finish
