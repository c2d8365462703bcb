#!/bin/sh
# Crash safety: kill -9 a tuning run part-way, rerun the same command, and check that nothing finished was lost,
# nothing was measured twice, and the database is intact.
# Usage (ctest): sh crash_resume.sh BINARY SOURCE_DIR
set -u
. "$(dirname "$0")/lib/common.sh" "$@"
need_device
need_python "to read the database"
pid=
trap '[ -n "$pid" ] && kill -9 $pid 2>/dev/null; rm -rf "$T"' EXIT
DB=$T/results.db
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
rows > "$T/all-before"
# The variant running at the kill is stored as "aborted" (written before it runs): it is measured again.
grep -v '|aborted$' "$T/all-before" > "$T/before"
before=$(wc -l < "$T/before")
check "the run was killed part-way ($before of 36 rows finished)" test "$before" -ge 5 -a "$before" -lt 36

run > "$T/out" 2> "$T/err"
rc=$?
check "the rerun exits 0 (got $rc)" test $rc -eq 0
rows > "$T/after"
check "the rerun completes the space (36 rows, got $(wc -l < "$T/after"))" test "$(wc -l < "$T/after")" -eq 36
# Every row finished before the kill is still there, unchanged: same timestamp, same timing (not re-measured).
missing=$(grep -vxFf "$T/after" "$T/before" | wc -l)
check "rows finished before the kill are kept unchanged ($missing changed or lost)" test "$missing" -eq 0
check "the rerun says it took $before results from the database ($(grep -o '[0-9]* from the database' "$T/out"))" \
    grep -q "($before from the database)" "$T/out"
check "no variant is left aborted after the rerun" test "$(grep -c '|aborted$' "$T/after")" -eq 0
integrity=$(python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('PRAGMA integrity_check').fetchone()[0])" "$DB")
check "the database passes integrity_check ($integrity)" test "$integrity" = ok
finish
