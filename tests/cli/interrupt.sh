#!/bin/sh
# Ctrl-C: the run stops after the variant in flight, prints the best so far, exits 130 (docs/exit-codes.md), and
# leaves every finished result in the database with nothing half-written. Any stop signal stops the whole run:
# two SIGINTs 0.15 s apart, SIGINT to the whole process group (as a terminal's Ctrl-C is), SIGTERM (exit 143),
# and a Ctrl-C in the first second; the watchdog never takes that for a crash (no variant marked device-lost, no
# restart), and a rerun measures the variant that was in flight.
# Usage (ctest): sh interrupt.sh BINARY SOURCE_DIR
set -u
. "$(dirname "$0")/lib/common.sh" "$@"
need_device
need_python "to read the database"
command -v setsid > /dev/null 2>&1 || { echo "SKIPPED: setsid (util-linux) is needed for the process-group case"; exit 77; }
pid=
trap '[ -n "$pid" ] && kill -9 $pid 2>/dev/null; rm -rf "$T"' EXIT
DB=$T/r.db
sql() {
    [ -f "$DB" ] || { echo 0; return; }
    python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute(sys.argv[2]).fetchone()[0])" "$DB" "$1" 2>/dev/null || echo 0
}
count() { sql "SELECT COUNT(*) FROM results WHERE status != 'aborted'"; }
# start [setsid]: a run of 36 slow variants in the background ($pid; with setsid, in a process group of its own);
# EXTRA: more options; SPACE: another space file
start() {
    (exec ${1:-} "$BIN" "$SRC/tests/data/tune/scale.comp.in" --space "${SPACE:-$SRC/tests/data/tune/scale.ini}" --db "$DB" \
        --strategy exhaustive --budget 36 --warmup 0.05 --repetitions ${REPS:-20} --pipeline-cache none \
        --problem N=1048576 ${EXTRA:-} > "$T/out" 2> "$T/err") &
    pid=$!
}
# wait_measured N: until N variants are stored (at most 30 s)
wait_measured() {
    i=0
    while [ "$(count)" -lt "$1" ] && [ $i -lt 600 ] && kill -0 $pid 2>/dev/null; do
        sleep 0.05
        i=$((i + 1))
    done
}
finished() {
    wait $pid
    rc=$?
    pid=
}
no_blame() {
    lost=$(sql "SELECT COUNT(*) FROM results WHERE status IN ('device-lost', 'timeout')")
    check "$1: no variant blamed ($lost device-lost or timeout)" test "$lost" -eq 0
    check "$1: no restart" sh -c "! grep -q restarting '$T/err'"
}

# One SIGINT to the watchdog: a clean stop after the variant in flight.
start
wait_measured 3
kill -INT $pid
finished
n=$(count)
check "exit code 130 after Ctrl-C (got $rc)" test $rc -eq 130
check "stopped early ($n of 36 measured)" test "$n" -ge 3 -a "$n" -lt 36
check "the best so far is printed" grep -q "^rank" "$T/out"
check "it says it was interrupted" grep -q "interrupted" "$T/err"
aborted=$(sql "SELECT COUNT(*) FROM results WHERE status = 'aborted'")
check "no variant left half-measured ($aborted aborted)" test "$aborted" -eq 0

# Two SIGINTs 0.15 s apart: the second ends the run at once; still 130, nothing blamed.
# (Slower variants, and the first signal sent while one is being measured, so that the second arrives before it
# ends: each variant warms up for a fixed second and is never raced out, whatever the load. Only variants that
# pass the check: one that fails it is done in the check's time, and under a sanitizer a signal sent while its
# "aborted" row stood let the run end cleanly before the second one came.)
DB=$T/double.db
before=0
sed -e 's/^BUG = .*/BUG = 0/' -e 's/^OOB = .*/OOB = 0/' -e "s|^reference = |reference = $(cd "$SRC" && pwd)/tests/data/tune/|" \
    "$SRC/tests/data/tune/scale.ini" > "$T/scale_correct.ini"
SPACE=$T/scale_correct.ini REPS=1000 EXTRA="--no-race --warmup 1 --warmup-min 1" start
wait_measured $((before + 2))
i=0
while [ "$(sql "SELECT COUNT(*) FROM results WHERE status = 'aborted'")" -lt 1 ] && [ $i -lt 600 ] && kill -0 $pid 2>/dev/null; do
    sleep 0.02
    i=$((i + 1))
done
kill -INT $pid
sleep 0.15
kill -INT $pid
finished
unset REPS EXTRA SPACE
aborted=$(sql "SELECT COUNT(*) FROM results WHERE status = 'aborted'")
check "double SIGINT: ended in the middle of a variant ($aborted left aborted, to be measured again)" test "$aborted" -eq 1
n=$(count)
check "double SIGINT: exit 130 (got $rc)" test $rc -eq 130
check "double SIGINT: stopped early ($n of 36)" test "$n" -lt 36
no_blame "double SIGINT"

# SIGINT to the process group (the watchdog and its measuring process both get it).
DB=$T/group.db
before=0
start setsid
wait_measured $((before + 2))
kill -INT -$pid
finished
n=$(count)
check "SIGINT to the process group: exit 130 (got $rc)" test $rc -eq 130
check "SIGINT to the process group: stopped early ($n of 36)" test "$n" -lt 36
no_blame "SIGINT to the process group"

# SIGTERM: 143.
DB=$T/term.db
before=0
start
wait_measured $((before + 2))
kill -TERM $pid
finished
n=$(count)
check "SIGTERM: exit 143 (got $rc)" test $rc -eq 143
check "SIGTERM: stopped early ($n of 36)" test "$n" -lt 36
no_blame "SIGTERM"

# Ctrl-C in the first second (to the group, as a terminal sends it), before anything is measured.
for delay in 0.1 0.4 0.8; do
    DB=$T/early-$delay.db # its own: resuming the last one's results could finish the run before the signal
    start setsid
    sleep $delay
    kill -INT -$pid
    finished
    check "Ctrl-C after $delay s: exit 130 (got $rc: $(tail -1 "$T/err"))" test $rc -eq 130
    no_blame "Ctrl-C after $delay s"
done

# A rerun measures what the stops left: everything ends ok, the variants once in flight included.
# rerun DATABASE SPACE VARIANTS: the space the stopped run had, and how many variants it has in all
rerun() {
    DB=$T/$1
    "$BIN" "$SRC/tests/data/tune/scale.comp.in" --space "$2" --db "$DB" \
        --strategy exhaustive --budget 36 --warmup 0.01 --repetitions 2 --pipeline-cache none \
        --problem N=1048576 > "$T/out" 2> "$T/err"
    rc=$?
    check "the rerun on $1 finishes (exit $rc)" test $rc -eq 0
    left=$(sql "SELECT COUNT(*) FROM results WHERE status IN ('aborted', 'device-lost', 'timeout', 'error')")
    total=$(sql "SELECT COUNT(*) FROM results")
    check "the rerun on $1 leaves nothing aborted or blamed ($left of $total)" test "$left" -eq 0 -a "$total" -eq "$3"
}
rerun double.db "$T/scale_correct.ini" 9
rerun group.db "$SRC/tests/data/tune/scale.ini" 36
finish
