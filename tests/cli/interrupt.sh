#!/bin/sh
# Ctrl-C: the run stops after the variant in flight, prints the best so far, exits 130 (docs/exit-codes.md), and
# leaves every finished result in the database with nothing half-written.
# Usage (ctest): sh interrupt.sh BINARY SOURCE_DIR
set -u
. "$(dirname "$0")/lib/common.sh" "$@"
need_device
need_python "to read the database"
pid=
trap '[ -n "$pid" ] && kill -9 $pid 2>/dev/null; rm -rf "$T"' EXIT
DB=$T/r.db
count() {
    [ -f "$DB" ] || { echo 0; return; }
    python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute(\"SELECT COUNT(*) FROM results WHERE status != 'aborted'\").fetchone()[0])" "$DB" 2>/dev/null || echo 0
}
(exec "$BIN" "$SRC/tests/data/tune/scale.comp.in" --space "$SRC/tests/data/tune/scale.ini" --db "$DB" \
    --strategy exhaustive --budget 36 --warmup 0.05 --repetitions 20 --pipeline-cache none \
    --problem N=1048576 > "$T/out" 2> "$T/err") &
pid=$!
i=0
while [ "$(count)" -lt 3 ] && [ $i -lt 600 ] && kill -0 $pid 2>/dev/null; do
    sleep 0.05
    i=$((i + 1))
done
kill -INT $pid
wait $pid
rc=$?
n=$(count)
check "exit code 130 after Ctrl-C (got $rc)" test $rc -eq 130
check "stopped early ($n of 36 measured)" test "$n" -ge 3 -a "$n" -lt 36
check "the best so far is printed" grep -q "^rank" "$T/out"
check "it says it was interrupted" grep -q "interrupted" "$T/err"
aborted=$(python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute(\"SELECT COUNT(*) FROM results WHERE status = 'aborted'\").fetchone()[0])" "$DB")
check "no variant left half-measured ($aborted aborted)" test "$aborted" -eq 0
finish
