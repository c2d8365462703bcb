#!/bin/sh
# push_vectors.sh — [push] vectors (one value per component), std430 placement (a vec4 after a uint at 16) and
# @offset(N): the variant's block of vectors must match a reference that declares the same bytes as scalars at
# explicit offsets; a vector placed elsewhere is refused naming the member; init writes such a block as vectors
# with @offset where the shader's layout is not std430's next place.
set -u
. "$(dirname "$0")/lib/common.sh" "$@"
need_device
D=$(cd "$SRC/tests/data/push_vectors" && pwd)

"$BIN" --space "$D/push_vectors.ini" --db "$T/p.db" --budget 5 --no-race >"$T/t.out" 2>"$T/t.err"
rc=$?
check "vectors and padding match the scalar reference (exit $rc: $(tail -n 1 "$T/t.err"))" \
    grep -q "1 evaluated (0 from the database), 0 failed" "$T/t.out"

sed "s|^size = int32, 7, 3 .*|size = int32, 7, 3 @offset(36)|; s|= push_vectors|= $D/push_vectors|" \
    "$D/push_vectors.ini" >"$T/bad.ini"
"$BIN" --space "$T/bad.ini" --db "$T/b.db" --budget 5 --no-race >/dev/null 2>"$T/b.err"
rc=$?
check "a vector at the wrong offset: refused (exit $rc)" [ $rc -eq 3 ]
check "naming the member it leaves uncovered" grep -q "'sx' at offset 32 has none" "$T/b.err"

"$BIN" init "$D/push_vectors.comp" -o "$T/i.ini" 2>/dev/null
check "init: a vec4 as one entry of 4 values" grep -q '^tint = float32, 1.0, 1.0, 1.0, 1.0 ' "$T/i.ini"
check "init: an ivec2, of int32" grep -q '^size = int32, 1, 1 ' "$T/i.ini"
check "init: an explicit offset" grep -q '^bias = float32, 1.0 @offset(48) ' "$T/i.ini"
"$BIN" --space "$T/i.ini" --db "$T/i.db" --budget 5 --no-race >"$T/i.out" 2>"$T/i.err"
rc=$?
check "init's file tunes as written (exit $rc: $(tail -n 1 "$T/i.err"))" grep -q "0 failed" "$T/i.out"
finish
