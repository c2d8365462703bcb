#!/bin/sh
# Files and databases a user (or someone sharing the directory) may have tampered with: symlinks planted where
# export and report put their temporary files are never written through.
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

finish
