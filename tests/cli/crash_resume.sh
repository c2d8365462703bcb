#!/bin/sh
# Crash safety: kill -9 a tuning run part-way, rerun the same command, and check that nothing finished was lost,
# nothing was measured twice, and the database is intact.
# Usage (ctest): sh crash_resume.sh BINARY SOURCE_DIR
set -u
BIN=$1
SRC=$2
command -v python3 >/dev/null 2>&1 || { echo "SKIPPED: python3 is needed to read the database"; exit 77; }
TMP=$(mktemp -d)
trap 'kill -9 $pid 2>/dev/null; rm -rf "$TMP"' EXIT
DB=$TMP/results.db
passed=0
failed=0
check() { # check DESCRIPTION COMMAND...
    what=$1
    shift
    if "$@"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: $what"; fi
}
run() {
    "$BIN" "$SRC/tests/data/tune/scale.comp.in" --space "$SRC/tests/data/tune/scale.ini" --db "$DB" \
        --strategy exhaustive --budget 36 --warmup 0.05 --repetitions 20 --jobs 1 --pipeline-cache none \
        --problem N=1048576 "$@"
}
rows() { # prints "config|created|median" for every row, sorted
    python3 - "$DB" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
for r in sorted(db.execute("SELECT config, created, median_s, status FROM results")):
    print("|".join(str(x) for x in r))
PY
}

"$BIN" devices >/dev/null 2>&1 || { echo "SKIPPED: no Vulkan device (install mesa-vulkan-drivers for lavapipe)"; exit 77; }
# exec, so that $! is the tuner itself and not a subshell that would survive as its parent's orphan.
(exec "$BIN" "$SRC/tests/data/tune/scale.comp.in" --space "$SRC/tests/data/tune/scale.ini" --db "$DB" \
    --strategy exhaustive --budget 36 --warmup 0.05 --repetitions 20 --jobs 1 --pipeline-cache none \
    --problem N=1048576 -q >/dev/null 2>&1) &
pid=$!
# Kill once a few results are in, while the run is still going.
n=0
i=0
while [ $i -lt 600 ]; do
    n=$( [ -f "$DB" ] && python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('SELECT COUNT(*) FROM results').fetchone()[0])" "$DB" 2>/dev/null || echo 0)
    [ "$n" -ge 6 ] && break
    kill -0 $pid 2>/dev/null || break
    sleep 0.05
    i=$((i + 1))
done
kill -9 $pid 2>/dev/null
wait $pid 2>/dev/null
rows > "$TMP/all-before"
# The variant running at the kill is stored as "aborted" (written before it runs): it is measured again.
grep -v '|aborted$' "$TMP/all-before" > "$TMP/before"
before=$(wc -l < "$TMP/before")
check "the run was killed part-way ($before of 36 rows finished)" test "$before" -ge 5 -a "$before" -lt 36

run > "$TMP/out" 2> "$TMP/err"
rc=$?
check "the rerun exits 0 (got $rc)" test $rc -eq 0
rows > "$TMP/after"
check "the rerun completes the space (36 rows, got $(wc -l < "$TMP/after"))" test "$(wc -l < "$TMP/after")" -eq 36
# Every row finished before the kill is still there, unchanged: same timestamp, same timing (not re-measured).
missing=$(grep -vxFf "$TMP/after" "$TMP/before" | wc -l)
check "rows finished before the kill are kept unchanged ($missing changed or lost)" test "$missing" -eq 0
check "the rerun says it took $before results from the database ($(grep -o '[0-9]* from the database' "$TMP/out"))" \
    grep -q "($before from the database)" "$TMP/out"
check "no variant is left aborted after the rerun" test "$(grep -c '|aborted$' "$TMP/after")" -eq 0
integrity=$(python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('PRAGMA integrity_check').fetchone()[0])" "$DB")
check "the database passes integrity_check ($integrity)" test "$integrity" = ok
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
