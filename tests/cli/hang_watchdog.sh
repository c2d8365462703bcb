#!/bin/sh
# A shader that never finishes must not hang the tuner: the watchdog kills the measuring process, the variant is
# stored as a timeout, and the restarted process finishes the others; rows other runs left aborted are not blamed.
# Usage (ctest): sh hang_watchdog.sh BINARY SOURCE_DIR
set -u
. "$(dirname "$0")/lib/common.sh" "$@"
need_device
need_python "to read the database"
# An aborted row another run left (a kill -9 of another kernel's run, earlier): the watchdog must not blame it.
"$BIN" "$SRC/tests/data/tune/scale.comp.in" --space "$SRC/tests/data/tune/scale.ini" --db "$T/r.db" \
    --strategy exhaustive --budget 2 --warmup 0.01 --repetitions 1 --pipeline-cache none --quiet > /dev/null 2>&1
python3 -c "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute(\"UPDATE results SET status='aborted', reason='the process ended while this variant was running' WHERE id=(SELECT MIN(id) FROM results)\"); c.commit()" "$T/r.db"
start=$(date +%s)
# A kernel run waits 10 s before it reports a timeout; the watchdog takes over when the process is stuck anyway.
# --no-race: every honest variant is measured in full, so each must end "ok" (racing is test_race.c's).
timeout 300 "$BIN" "$SRC/tests/data/robust/hang.comp.in" --space "$SRC/tests/data/robust/hang.ini" \
    --db "$T/r.db" --strategy exhaustive --warmup 0.01 --repetitions 3 --pipeline-cache none --watchdog 5 --no-race \
    > "$T/out" 2> "$T/err"
rc=$?
elapsed=$(( $(date +%s) - start ))
cat "$T/err"
check "the run finishes with exit 0 (got $rc after $elapsed s)" test $rc -eq 0
status() {
    python3 -c "import sqlite3,sys; r=sqlite3.connect(sys.argv[1]).execute(\"SELECT status FROM results WHERE config=?\", (sys.argv[2],)).fetchone(); print(r[0] if r else 'missing')" "$T/r.db" "$1"
}
for wg in 64 128; do
    check "WG=$wg,HANG=0 is measured ok ($(status "WG=$wg,HANG=0"))" test "$(status "WG=$wg,HANG=0")" = ok
    s=$(status "WG=$wg,HANG=1")
    check "WG=$wg,HANG=1 is a timeout ($s)" test "$s" = timeout
done
check "the winner is an honest variant" grep -q "HANG=0" "$T/out"
other=$(python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute(\"SELECT status FROM results WHERE kernel='scale' ORDER BY id LIMIT 1\").fetchone()[0])" "$T/r.db")
check "another kernel's aborted row stays aborted, not blamed ($other)" test "$other" = aborted

# A reference that never finishes: no variant is blamed, and the message says where the process was.
timeout 120 "$BIN" "$SRC/tests/data/robust/hang.comp.in" --space "$SRC/tests/data/robust/hang_reference.ini" \
    --db "$T/ref.db" --strategy exhaustive --warmup 0.01 --repetitions 1 --pipeline-cache none --watchdog 3 > "$T/out" 2> "$T/err"
rc=$?
cat "$T/err"
check "a hung reference ends the run with exit 6 (got $rc)" test $rc -eq 6
check "the message names the reference shader" \
    grep -q "while running the reference shader .*hang_spin_ref.comp" "$T/err"
finish
