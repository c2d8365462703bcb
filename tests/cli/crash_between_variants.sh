#!/bin/sh
# A measuring process that dies between variants, after evaluating some, is restarted, not given up on: variants
# that overrun a 64-float shared array corrupt lavapipe's heap, which a later free() notices (a SIGABRT or SIGSEGV
# outside any variant). Every finished row is stored, so the new process resumes and the run ends normally.
# Usage (ctest): sh crash_between_variants.sh BINARY SOURCE_DIR
set -u
. "$(dirname "$0")/lib/common.sh" "$@"
need_device
need_python "to read the database"
D=$SRC/tests/data/robust
timeout 300 "$BIN" "$D/shared_overrun.comp" --space "$D/shared_overrun.ini" --db "$T/r.db" --strategy exhaustive \
    --warmup 0.01 --repetitions 3 --pipeline-cache none --no-race --watchdog 30 > "$T/out" 2> "$T/err"
rc=$?
cat "$T/err"
check "the run finishes with exit 0 (got $rc)" test $rc -eq 0
check "it did not give up" sh -c "! grep -q 'giving up' '$T/err'"
status() {
    python3 -c "import sqlite3,sys; r=sqlite3.connect(sys.argv[1]).execute(\"SELECT status FROM results WHERE config=?\", (sys.argv[2],)).fetchone(); print(r[0] if r else 'missing')" "$T/r.db" "$1"
}
# The variants within the array are measured in full whatever the others did to the heap.
for wg in 16 32 64; do
    check "WG=$wg is measured ok ($(status "WG=$wg"))" test "$(status "WG=$wg")" = ok
done
n=$(python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute(\"SELECT COUNT(*) FROM results\").fetchone()[0])" "$T/r.db")
check "every variant has a row ($n of 6)" test "$n" -eq 6
check "the table is printed" grep -q "WG=" "$T/out"
finish
