#!/bin/sh
# A variant whose every workgroup surely indexes a shared array past its end (before any branch, by the local
# invocation's coordinates) fails as a validate-error naming the array, its line and the index, instead of running:
# on lavapipe such a variant corrupted the heap and could still pass the check and win. What the check cannot
# prove (a guarded access, an index it does not follow) still runs.
# Usage (ctest): sh shared_bounds.sh BINARY SOURCE_DIR
set -u
. "$(dirname "$0")/lib/common.sh" "$@"
need_device
need_python "to read the database"
D=$SRC/tests/data/shared_bounds
rows() {
    python3 -c "import sqlite3,sys
for c, s, r in sqlite3.connect(sys.argv[1]).execute('SELECT config, status, reason FROM results ORDER BY id'):
    print(c, s, r, sep='|')" "$1"
}
for sp in sure tile2d; do
    "$BIN" "$D/$sp.comp" --space "$D/$sp.ini" --db "$T/$sp.db" --strategy exhaustive --warmup 0.01 --repetitions 2 \
        --pipeline-cache none --no-race > "$T/$sp.out" 2> "$T/$sp.err"
    rc=$?
    check "$sp: the run finishes with exit 0 (got $rc)" test $rc -eq 0
    rows "$T/$sp.db" > "$T/$sp.rows"
done
cat "$T/sure.rows" "$T/tile2d.rows"

# 1-D: WG > 64 overruns tile[64] through a local variable (FORM 0) and the flat index (FORM 1).
for wg in 128 256; do
    for form in 0 1; do
        check "sure WG=$wg,FORM=$form is refused" \
            grep -q "^WG=$wg,FORM=$form|validate-error|.*sure.comp:7: every workgroup of $wg x 1 x 1 invocations writes shared array 'tile' at index $((wg - 1)) of a dimension of 64" "$T/sure.rows"
    done
done
for c in WG=16,FORM=0 WG=64,FORM=0 WG=64,FORM=1 WG=16,FORM=2 WG=64,FORM=2; do
    check "sure $c fits and runs" grep -q "^$c|ok|" "$T/sure.rows"
done
check "sure: 4 variants refused" test "$(grep -c '|validate-error|' "$T/sure.rows")" -eq 4

# 2-D: tile[ly][lx + PAD] overruns where WX + PAD > 16 or WY > 16, and only without the guard.
wrong=0
while IFS='|' read -r config status reason; do
    wx=$(echo "$config" | sed 's/.*WX=\([0-9]*\).*/\1/'); wy=$(echo "$config" | sed 's/.*WY=\([0-9]*\).*/\1/')
    pad=$(echo "$config" | sed 's/.*PAD=\([0-9]*\).*/\1/'); guard=$(echo "$config" | sed 's/.*GUARD=\([0-9]*\).*/\1/')
    want=ok
    [ "$guard" -eq 0 ] && { [ $((wx + pad)) -gt 16 ] || [ "$wy" -gt 16 ]; } && want=validate-error
    [ "$status" = "$want" ] || { echo "tile2d $config: $status, expected $want"; wrong=$((wrong + 1)); }
done < "$T/tile2d.rows"
check "tile2d: each variant refused exactly where it overruns ($wrong wrong)" test $wrong -eq 0
check "tile2d: every valid variant has a row" test "$(wc -l < "$T/tile2d.rows")" -eq 24
check "tile2d: the message names the y index of a workgroup 32 tall" \
    grep -q "^WX=8,WY=32,PAD=0,GUARD=0|validate-error|.*tile2d.comp:8: .*'tile' at index 31 of a dimension of 16" \
    "$T/tile2d.rows"
finish
