#!/bin/sh
# spirv_opt_export.sh — a variant timed from SPIRV-Tools' passes (VKAT_SPIRV_OPT=full) is exported as the module
# that was timed: the exported .spv is the stored module byte for byte, the module `compile` makes with the same
# set, not glslang's own, even when export runs without the variable (session 10, records/session10-issue-22-pipe.md).
. "$(dirname "$0")/lib/common.sh" "$@"
need_device
need_python "to read the --json output"

SPACE="$SRC/tests/data/tune/race.ini"
VKAT_SPIRV_OPT=full "$BIN" --space "$SPACE" --strategy random --seed 3 --budget 3 --warmup 0 --repetitions 2 \
    --pipeline-cache none --db "$T/r.db" --json -q --top 1 >"$T/t.json" 2>"$T/err"
rc=$?
check "the run with VKAT_SPIRV_OPT=full (exit $rc)" [ $rc -eq 0 ]
[ $rc -eq 0 ] || sed 's/^/  | /' "$T/err"
best=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))[0]["best"][0]["config"])' "$T/t.json")

"$BIN" export --db "$T/r.db" --space "$SPACE" -o "$T/ex" --candidates 0 -q 2>"$T/err"
rc=$?
check "export without the variable (exit $rc)" [ $rc -eq 0 ]
spv=$(find "$T/ex" -name "*.spv" 2>/dev/null | head -n 1)
check "one module exported" [ -n "$spv" ]
VKAT_SPIRV_OPT=full "$BIN" compile --space "$SPACE" --config "$best" -o "$T/full.spv" >/dev/null 2>"$T/err"
"$BIN" compile --space "$SPACE" --config "$best" -o "$T/none.spv" >/dev/null 2>>"$T/err"
check "the two compiles of the winner ($best) differ, so the comparison can tell them apart" \
    sh -c "! cmp -s '$T/full.spv' '$T/none.spv'"
check "the exported module is the one timed (the passes' module)" cmp -s "$spv" "$T/full.spv"
hash=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["kernels"][0]["spirv_hash"])' "$T/ex/manifest.json" 2>/dev/null)
check "the manifest's hash is the stored row's" \
    python3 -c 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); sys.exit(0 if c.execute("select count(*) from results where spirv_hash = ? and config = ?", (sys.argv[2], sys.argv[3])).fetchone()[0] == 1 else 1)' "$T/r.db" "$hash" "$best"
finish
