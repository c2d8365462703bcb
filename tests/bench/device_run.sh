#!/bin/sh
# device_run.sh — bench/device_run.sh, the driver for GPU calls, without a GPU: a bad command line is refused
# before any step runs; each step's output lands in its log; the record names the driver's version, the dates, the
# command and every step's exit status; a failing step fails the call without stopping the next; databases are
# summarised; a tree the device tool could not bring back whole (more than 8 files, or files too deep) is packed.
#   sh device_run.sh VKAUTOTUNE SOURCE_DIR
. "$(dirname "$0")/../cli/lib/common.sh" "$@"
need_python "for bench/db_top.py"
DRV="$SRC/bench/device_run.sh"
export BIN
OUT=$T/out
export OUT

sh "$DRV" call1 'no colon here' >"$T/bad.out" 2>&1
check "a step without 'LABEL:' is refused (exit 2)" [ $? -eq 2 ]
check "... saying which" grep -q "step 1 is not 'LABEL: COMMAND'" "$T/bad.out"
check "... before anything ran" [ ! -e "$OUT/call1" ]
sh "$DRV" 'a/b' 'x: true' >"$T/bad.out" 2>&1
check "a NAME with a slash is refused (exit 2)" [ $? -eq 2 ]
BIN=$T/none sh "$DRV" call1 'x: true' >"$T/bad.out" 2>&1
check "a missing binary is refused (exit 2), the driver builds nothing" [ $? -eq 2 ]
check "... saying so" grep -q "builds nothing" "$T/bad.out"

# A database of the kind the tuner writes, for the summary (the columns bench/db_top.py reads).
cat >"$T/mkdb.py" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.execute("create table results (kernel, problem, config, status, median_s, tflops, pipeline_stats, reason)")
db.execute("insert into results values ('k', 'N=1', 'A=1', 'ok', 0.002, 1.5, '', '')")
db.commit()
PY
sh "$DRV" --top 3 call1 "first: echo hello from \$NAME; python3 $T/mkdb.py \$RUN/k.db" \
    'second: echo oops >&2; exit 3' 'third: echo "| table |" > $RUN/t.md' >"$T/run.out" 2>&1
rc=$?
R=$OUT/call1
check "a failing step fails the call (exit $rc)" [ $rc -eq 1 ]
check "each step's output is in its log" grep -q "hello from call1" "$R/first.log"
check "stderr too" grep -q oops "$R/second.log"
check "a failing step does not stop the next" [ -f "$R/t.md" ]
check "the record names the driver's version" grep -q '^device_run.sh version [0-9]' "$R/run.txt"
check "the start and end dates" sh -c 'grep -q "^started: 20" "$1" && grep -q "^finished: 20" "$1"' - "$R/run.txt"
check "the command, every step quoted" grep -q "^command: sh bench/device_run.sh .* call1 'first: echo" "$R/run.txt"
check "each step's exit status" sh -c 'grep -q "first rc=0 " "$1" && grep -q "second rc=3 " "$1"' - "$R/run.txt"
check "the binary's version" grep -q '^binary: vkautotune' "$R/run.txt"
check "the database is summarised" grep -q '^k: 1 results, 1 ok' "$R/top.txt"
check "the tables are shown" grep -q '^| table |' "$T/run.out"
check "the record ends the output" sh -c 'tail -n 1 "$1" | grep -q "^finished: "' - "$T/run.out"
check "a few files are not packed" [ ! -e "$R/call1.tgz" ]

sh "$DRV" --top 0 call2 'many: for i in 1 2 3 4 5 6 7 8 9; do echo $i > $RUN/f$i.txt; done; echo "| t |" > $RUN/t.md' \
    'deep: mkdir -p $RUN/a/b && echo deep > $RUN/a/b/c.txt' >"$T/run2.out" 2>&1
rc=$?
R=$OUT/call2
check "steps that pass pass the call (exit $rc)" [ $rc -eq 0 ]
check "more than 8 files are packed into NAME.tgz" [ -f "$R/call2.tgz" ]
check "... the record and the tables stay outside" sh -c '[ -f "$1/run.txt" ] && [ -f "$1/t.md" ]' - "$R"
check "... so at most 8 files come back" [ "$(find "$R" -type f | wc -l)" -le 8 ]
check "... and none of them deeper than the device tool brings back" [ -z "$(find "$R" -mindepth 2 -type f)" ]
tar xzf "$R/call2.tgz" -C "$T" 2>/dev/null
check "... the pack holds the files, the deep one too" sh -c '[ -f "$1/f9.txt" ] && grep -q deep "$1/a/b/c.txt"' - "$T"
check "the record says what was packed" grep -q '^packed into call2.tgz: .*f1.txt' "$R/run.txt"
finish
