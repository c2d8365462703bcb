#!/bin/sh
# Files and databases a user (or someone sharing the directory) may have tampered with: symlinks planted where
# export and report put their temporary files are never written through; databases that are only read (compare,
# report, export, merge's inputs) are not changed, even switched to WAL, and may be read-only files; a foreign
# SQLite file is refused unchanged; a failed merge leaves no output behind; names with terminal escapes are shown
# escaped; a device name of 5,000 characters does not stop an export; a missing template creates no database.
# Usage (ctest): sh untrusted_files.sh BINARY SOURCE_DIR
set -u
. "$(dirname "$0")/lib/common.sh" "$@"
need_device
need_python "to read the databases"
SPACE="$SRC/tests/data/tune/scale.ini"
DB=$T/r.db
"$BIN" "$SRC/tests/data/tune/scale.comp.in" --space "$SPACE" --db "$DB" --strategy exhaustive --budget 3 \
    --warmup 0.01 --repetitions 1 --pipeline-cache none --quiet > /dev/null 2> "$T/tune.err"
check "a small database to work on" test -s "$DB"

# ---- Symlinks at temporary names: the old fixed names, and the names the next writes would take ----------------
mkdir -p "$T/out" "$T/victim"
for name in .manifest.json.tmp .scale.h.tmp; do
    ln -s "$T/victim/$name" "$T/out/$name"
done
ln -s "$T/victim/report" "$T/r.html.tmp"
"$BIN" export --space "$SPACE" --db "$DB" -o "$T/out" --header scale.h --quiet > "$T/export.out" 2> "$T/export.err"
rc=$?
check "export succeeds with symlinks planted (exit $rc: $(cat "$T/export.err"))" test $rc -eq 0
check "the manifest is a real file in -o" test -f "$T/out/manifest.json" -a ! -L "$T/out/manifest.json"
check "the header is a real file in -o" test -f "$T/out/scale.h" -a ! -L "$T/out/scale.h"
"$BIN" report --db "$DB" -o "$T/r.html" > /dev/null 2> "$T/report.err"
rc=$?
check "report succeeds with a symlink planted (exit $rc: $(cat "$T/report.err"))" test $rc -eq 0
check "the report is a real file" test -f "$T/r.html" -a ! -L "$T/r.html"
check "nothing was written through a symlink ($(ls -A "$T/victim" | tr '\n' ' '))" test -z "$(ls -A "$T/victim")"
leftovers=$(ls -A "$T/out" | grep '\.tmp$' | grep -v -e '^\.manifest\.json\.tmp$' -e '^\.scale\.h\.tmp$')
check "no temporary file left behind ($leftovers)" test -z "$leftovers"

# ---- Databases that are only read -----------------------------------------------------------------------------
sha() { python3 -c "import hashlib,sys; print(hashlib.sha256(open(sys.argv[1],'rb').read()).hexdigest())" "$1"; }
mode() { python3 -c "import sqlite3,sys; print(sqlite3.connect(sys.argv[1]).execute('PRAGMA journal_mode').fetchone()[0])" "$1"; }
# A copy in rollback-journal mode: any WAL switch or other write shows in its bytes.
python3 -c "import sqlite3,sys; s=sqlite3.connect(sys.argv[1]); d=sqlite3.connect(sys.argv[2]); s.backup(d); d.execute('PRAGMA journal_mode=DELETE'); d.close()" "$DB" "$T/ro.db"
before=$(sha "$T/ro.db")
"$BIN" compare --db "$T/ro.db" > "$T/compare.out" 2> "$T/compare.err"
check "compare reads a database ($(cat "$T/compare.err"))" test $? -eq 0
"$BIN" report --db "$T/ro.db" -o "$T/ro.html" > /dev/null 2> "$T/report2.err"
check "report reads a database ($(cat "$T/report2.err"))" test $? -eq 0
"$BIN" export --space "$SPACE" --db "$T/ro.db" -o "$T/out2" --quiet > /dev/null 2> "$T/export2.err"
check "export reads a database ($(cat "$T/export2.err"))" test $? -eq 0
"$BIN" merge "$T/merged.db" "$T/ro.db" > /dev/null 2> "$T/merge.err"
check "merge reads an input ($(cat "$T/merge.err"))" test $? -eq 0
check "the databases only read are unchanged, still in $(mode "$T/ro.db") mode" test "$(sha "$T/ro.db")" = "$before"
check "no -wal or -shm left next to it" test ! -e "$T/ro.db-wal" -a ! -e "$T/ro.db-shm"

# A read-only file in a read-only directory (as an unprivileged user: root writes anyway).
if [ "$(id -u)" != 0 ]; then
    AS=
elif command -v setpriv > /dev/null 2>&1 && id nobody > /dev/null 2>&1; then
    AS="setpriv --reuid=nobody --regid=nogroup --clear-groups"
else
    AS=skip
fi
if [ "$AS" = skip ]; then
    echo "note: read-only permissions not tried (root without setpriv or user nobody)"
else
    mkdir "$T/rodir" "$T/w"
    cp "$DB" "$T/rodir/r.db"
    chmod 755 "$T"
    chmod 777 "$T/w"
    chmod 444 "$T/rodir/r.db"
    chmod 555 "$T/rodir"
    before=$(sha "$T/rodir/r.db")
    $AS "$BIN" compare --db "$T/rodir/r.db" > /dev/null 2> "$T/w/compare.err"
    check "compare reads a read-only database in a read-only directory ($(cat "$T/w/compare.err"))" test $? -eq 0
    $AS "$BIN" report --db "$T/rodir/r.db" -o "$T/w/r.html" > /dev/null 2> "$T/w/report.err"
    check "report reads it ($(cat "$T/w/report.err"))" test $? -eq 0
    $AS "$BIN" merge "$T/w/m.db" "$T/rodir/r.db" > /dev/null 2> "$T/w/merge.err"
    check "merge reads it ($(cat "$T/w/merge.err"))" test $? -eq 0
    check "the read-only database is unchanged" test "$(sha "$T/rodir/r.db")" = "$before"
    chmod 755 "$T/rodir"
    chmod 700 "$T"
fi

# A foreign SQLite file: refused by readers and writers alike, not even switched to WAL.
python3 -c "import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); c.execute('CREATE TABLE notes(x)'); c.commit()" "$T/foreign.db"
before=$(sha "$T/foreign.db")
"$BIN" compare --db "$T/foreign.db" > /dev/null 2> "$T/foreign.err"
rc=$?
check "compare refuses a foreign file (exit $rc: $(cat "$T/foreign.err"))" test $rc -ne 0
"$BIN" "$SRC/tests/data/tune/scale.comp.in" --space "$SPACE" --db "$T/foreign.db" --budget 1 --quiet > /dev/null 2> "$T/foreign2.err"
rc=$?
check "tune refuses it too (exit $rc: $(cat "$T/foreign2.err"))" test $rc -ne 0
check "the foreign file is unchanged ($(mode "$T/foreign.db") mode)" test "$(sha "$T/foreign.db")" = "$before"

# merge OUT BAD: refused, and no OUT left behind (nor its -wal, -shm).
printf 'not a database at all, just text long enough to have a header of sorts..........................' > "$T/bad.db"
"$BIN" merge "$T/new.db" "$T/bad.db" > /dev/null 2> "$T/merge_bad.err"
rc=$?
check "merge OUT BAD fails (exit $rc: $(cat "$T/merge_bad.err"))" test $rc -ne 0
check "merge OUT BAD leaves no OUT ($(ls "$T" | grep new.db | tr '\n' ' '))" test -z "$(ls "$T" | grep new.db)"
"$BIN" merge "$T/new.db" "$T/foreign.db" > /dev/null 2>&1
check "merge OUT FOREIGN leaves no OUT either" test -z "$(ls "$T" | grep new.db)"

# ---- Names a database may hold ------------------------------------------------------------------------------------
python3 - "$DB" "$T/evil.db" "$T/long.db" <<'PY'
import sqlite3, sys
src = sqlite3.connect(sys.argv[1])
for path, name in ((sys.argv[2], "evil\x1b]0;pwned\x07\x1b[2J\nrank 1 forged\x9b"), (sys.argv[3], "X" * 5000)):
    d = sqlite3.connect(path)
    src.backup(d)
    d.execute("UPDATE results SET device_name = ?", (name,))
    d.commit()
    d.close()
PY
"$BIN" compare --db "$T/evil.db" > "$T/evil.out" 2> "$T/evil.err"
check "compare shows a name with escapes (exit $?)" grep -q 'evil\\e\]0;pwned\\x07\\e\[2J\\nrank 1 forged\\xC2\\x9B' "$T/evil.out"
check "no raw ESC, BEL or C1 control reaches the terminal" python3 -c "import sys; d=open(sys.argv[1],'rb').read(); sys.exit(any(b in d for b in (b'\x1b', b'\x07', b'\xc2\x9b')))" "$T/evil.out"
check "no forged line" sh -c "! grep -q '^rank 1 forged' '$T/evil.out'"
"$BIN" export --space "$SPACE" --db "$T/long.db" --all-devices-in-db -o "$T/long" --quiet > /dev/null 2> "$T/long.err"
rc=$?
check "export of a 5,000-character device name succeeds (exit $rc: $(head -c 300 "$T/long.err"))" test $rc -eq 0
longest=$(ls "$T/long" 2>/dev/null | awk '{ if (length($0) > m) m = length($0) } END { print m + 0 }')
check "its file names stay short ($longest characters)" test "$longest" -gt 0 -a "$longest" -le 200

# ---- A missing template: an input error before any database exists ---------------------------------------------
"$BIN" "$T/no-such.comp.in" --space "$SPACE" --db "$T/fresh.db" --budget 1 > /dev/null 2> "$T/missing.err"
rc=$?
check "a missing template is exit 3 (got $rc: $(cat "$T/missing.err"))" test $rc -eq 3
check "and no database was created" test ! -e "$T/fresh.db"

finish
