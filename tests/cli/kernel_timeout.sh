#!/bin/sh
# --kernel-timeout: how long one submission may take. A variant slower than the limit is stored as a timeout whose
# reason names the limit; with the default (10 s) the same variant is measured ok; a bad value is a usage error.
# Usage (ctest): sh kernel_timeout.sh BINARY SOURCE_DIR
set -u
. "$(dirname "$0")/lib/common.sh" "$@"
need_device
need_python "to read the database"
row() {
    python3 -c "import sqlite3,sys; r=sqlite3.connect(sys.argv[1]).execute(\"SELECT status || ': ' || reason FROM results WHERE config=?\", (sys.argv[2],)).fetchone(); print(r[0] if r else 'missing')" "$T/$1.db" "$2"
}
# run DB OPTIONS...: the slow space into $T/DB.db
run() {
    db=$1
    shift
    "$BIN" "$SRC/tests/data/robust/slow.comp.in" --space "$SRC/tests/data/robust/slow.ini" --db "$T/$db.db" \
        --strategy exhaustive --warmup 0.01 --repetitions 2 --pipeline-cache none "$@" > "$T/out" 2> "$T/err"
}
run short --kernel-timeout 0.1 # well above the copy's first submission (lavapipe compiles there), well below the spin
rc=$?
check "a run with --kernel-timeout 0.1 finishes (exit $rc)" test $rc -eq 0
slow=$(row short WG=64,SLOW=1)
check "the slow variant is a timeout naming the limit ($slow)" sh -c "echo '$slow' | grep -q '^timeout: .*did not finish within 0.1 s (the time limit of one submission)'"
check "the fast one is ok ($(row short WG=64,SLOW=0))" test "$(row short WG=64,SLOW=0)" = "ok: "
run default --no-race # counted as measured in full, not raced out behind the fast copy
check "with the default limit the slow variant is measured ok ($(row default WG=64,SLOW=1))" test "$(row default WG=64,SLOW=1)" = "ok: "
for bad in 0 -1 abc 1e9; do
    run bad --kernel-timeout "$bad"
    rc=$?
    check "--kernel-timeout $bad is a usage error (exit $rc: $(cat "$T/err"))" test $rc -eq 2
done
finish
