#!/bin/sh
# tune_e2e.sh — a whole tuning run through the CLI on tests/data/tune/scale.ini (a tiny space on lavapipe):
# the table, resuming from the database, --json, --csv, --export, and no progress when stderr is not a terminal.
# Timings vary, so this checks structure and invariants rather than golden text.
#
#   sh tests/cli/tune_e2e.sh BINARY SOURCE_DIR
set -u
. "$(dirname "$0")/lib/common.sh" "$@"
need_device
need_python "to read --json and --csv"
ARGS="--space $SRC/tests/data/tune/scale.ini --db $T/results.db --budget 12 --seed 3 --warmup 0.01 --repetitions 3"

# run NAME ARGS...: runs vkautotune with stdout/stderr in $T/NAME.out/.err; sets rc.
run() {
    name=$1
    shift
    "$BIN" "$@" >"$T/$name.out" 2>"$T/$name.err" </dev/null
    rc=$?
}
# The "strategy ...: E evaluated (R from the database)" line, as "E R".
counts() { sed -n 's/^strategy [a-z]*: \([0-9]*\) evaluated (\([0-9]*\) from the database).*/\1 \2/p' "$1"; }
# The configurations of the ranked table (last column of the rows after the 'rank' header).
table_configs() { awk '/^rank /{t=1; next} t && /^ *[0-9]+ /{print $NF; next} {t=0}' "$1"; }

# ---- first run: measures, prints the table -------------------------------------------------------------------
# shellcheck disable=SC2086 # ARGS holds several words on purpose
run first $ARGS
if [ $rc -ne 0 ]; then
    fail "first run" "exit $rc"
    sed 's/^/  | /' "$T/first.err"
elif ! grep -q '^rank ' "$T/first.out"; then
    fail "first run" "no table with a 'rank' header"
    sed 's/^/  | /' "$T/first.out"
elif [ "$(counts "$T/first.out")" != "12 0" ]; then
    fail "first run" "expected 12 evaluated, none from the database; got '$(counts "$T/first.out")'"
else
    ok "first run"
fi
ranked=$(table_configs "$T/first.out" | wc -l | tr -d ' ')
if [ "$ranked" -lt 1 ]; then
    fail "ranked rows" "no ranked variant"
elif table_configs "$T/first.out" | grep -v 'BUG=0,OOB=0$' >"$T/bad"; then
    fail "ranked rows" "a faulty variant passed the check: $(tr '\n' ' ' <"$T/bad")"
else
    ok "ranked rows ($ranked, all BUG=0,OOB=0)"
fi

# ---- progress: never on a stderr that is not a terminal --------------------------------------------------------
if grep -q "evaluated (.* resumed)" "$T/first.err" || tr -d '\n' <"$T/first.err" | grep -q "$(printf '\r')"; then
    fail "no progress without a terminal" "progress written to a redirected stderr"
    sed 's/^/  | /' "$T/first.err"
else
    ok "no progress without a terminal"
fi
# The counter-check, where script(1) can give it a terminal: progress does appear there (so the check above
# would notice if the progress line changed its wording).
if command -v script >/dev/null 2>&1 && script -qec true /dev/null >/dev/null 2>&1; then
    # shellcheck disable=SC2086
    script -qec "\"$BIN\" $ARGS --db \"$T/tty.db\"" /dev/null >"$T/tty.out" 2>&1 </dev/null
    if grep -q "evaluated (.* resumed)" "$T/tty.out"; then
        ok "progress on a terminal"
    else
        fail "progress on a terminal" "no progress line under script(1)"
        sed 's/^/  | /' "$T/tty.out"
    fi
else
    echo "progress on a terminal: skip (no usable script(1) to provide a terminal)"
fi

# ---- rerun: everything comes from the database -------------------------------------------------------------------
# shellcheck disable=SC2086
run rerun $ARGS
# shellcheck disable=SC2046 # "E R" split into $1 $2 on purpose
set -- $(counts "$T/rerun.out")
if [ $rc -ne 0 ]; then
    fail "rerun from the database" "exit $rc"
elif [ $# -ne 2 ] || [ "$1" -eq 0 ] || [ "$1" != "$2" ]; then
    fail "rerun from the database" "expected N evaluated (N from the database); got '$*'"
elif [ "$(table_configs "$T/rerun.out")" != "$(table_configs "$T/first.out")" ]; then
    fail "rerun from the database" "the ranking changed"
else
    ok "rerun from the database ($1 of $1)"
fi

# ---- --json ----------------------------------------------------------------------------------------------------------
# shellcheck disable=SC2086
run json $ARGS --json
if [ $rc -ne 0 ]; then
    fail "--json" "exit $rc"
elif ! python3 -c '
import json, sys
runs = json.load(sys.stdin)
best = runs[0]["best"]
assert best, "no best variants"
cfg = dict(kv.split("=") for kv in best[0]["config"].split(","))
assert cfg["BUG"] == "0" and cfg["OOB"] == "0", "best[0] is a faulty variant: " + best[0]["config"]
assert runs[0]["evaluated"] == runs[0]["resumed"] == 12, "expected 12 evaluated, all resumed"
assert [b["rank"] for b in best] == list(range(1, len(best) + 1)), "ranks are not 1..n"
# spill counts are of the variants measured in this run (none: all resumed); each row says whether it spills
assert runs[0]["spills"] == {"known": 0, "spilled": 0}, runs[0].get("spills")
assert all("spills" in b and b["spills"] in (None, True, False) for b in best), "a row without spills"
' <"$T/json.out" >"$T/json.py" 2>&1; then
    fail "--json" "$(tail -n 1 "$T/json.py")"
elif [ -s "$T/json.err" ]; then
    fail "--json" "stderr is not quiet: $(head -n 1 "$T/json.err")"
else
    ok "--json"
fi

# ---- --csv -----------------------------------------------------------------------------------------------------------
# shellcheck disable=SC2086
run csv $ARGS --csv
rows=$(python3 -c '
import csv, sys
rows = list(csv.reader(sys.stdin))
# device, kernel, problem, rank, median/min/mad ms, TFLOP/s, GB/s, configuration
assert all(len(r) == 10 for r in rows), "rows without 10 fields"
assert [int(r[3]) for r in rows] == list(range(1, len(rows) + 1)), "ranks are not 1..n"
print(len(rows))
' <"$T/csv.out" 2>"$T/csv.py")
if [ $rc -ne 0 ]; then
    fail "--csv" "exit $rc"
elif [ -z "$rows" ]; then
    fail "--csv" "$(tail -n 1 "$T/csv.py")"
elif [ "$rows" != "$ranked" ]; then
    fail "--csv" "$rows rows, expected one per ranked variant ($ranked)"
else
    ok "--csv ($rows rows)"
fi

# ---- --export --------------------------------------------------------------------------------------------------------
# shellcheck disable=SC2086
run export $ARGS --export "$T/exported"
spv=
for f in "$T/exported"/*.spv; do [ -f "$f" ] && spv=$f && break; done
if [ $rc -ne 0 ]; then
    fail "--export" "exit $rc"
elif [ ! -f "$T/exported/manifest.json" ]; then
    fail "--export" "no manifest.json"
elif [ -z "$spv" ]; then
    fail "--export" "no .spv"
elif [ "$(od -A n -t x1 -N 4 "$spv" | tr -d ' \n')" != 03022307 ]; then
    fail "--export" "$spv does not start with the SPIR-V magic number"
elif ! python3 -c '
import json, os, sys
m = json.load(open(sys.argv[1]))
winners = [e for e in m["kernels"] if e["role"] == "winner"]
assert len(winners) == 1, "%d winners" % len(winners)
k = winners[0]
assert os.path.basename(sys.argv[2]) in [e["spirv"] for e in m["kernels"]], "manifest does not name " + sys.argv[2]
assert os.path.exists(os.path.join(os.path.dirname(sys.argv[2]), k["spirv"])), "no " + k["spirv"]
assert k["config"] == sys.argv[3], "manifest config " + k["config"] + " is not the best " + sys.argv[3]
' "$T/exported/manifest.json" "$spv" "$(table_configs "$T/first.out" | head -n 1)" >"$T/export.py" 2>&1; then
    fail "--export" "$(tail -n 1 "$T/export.py")"
else
    ok "--export"
fi
# The export command writes the same manifest for the same database row: one export path.
"$BIN" export --space "$SRC/tests/data/tune/scale.ini" --db "$T/results.db" -o "$T/exported2" -q 2>"$T/export2.err"
check "tune --export and the export command write the same manifest" cmp -s "$T/exported/manifest.json" \
    "$T/exported2/manifest.json"

# ---- --min-sample: a short kernel is timed in batches that span at least that long -----------------------------
# The stored rows' batch (dispatches per timed sample) times their median is each sample's span: the default
# (0.1 ms) leaves this tiny kernel's samples far shorter than 20 ms, --min-sample 0.02 makes none shorter.
# sample_spans DB: the least and the most span (ms) over the ok rows, as "LEAST MOST".
sample_spans() {
    python3 -c '
import sqlite3, sys
spans = [m * b * 1e3 for m, b in sqlite3.connect(sys.argv[1]).execute(
    "SELECT median_s, batch FROM results WHERE status = \x27ok\x27")]
print("%.3f %.3f" % (min(spans), max(spans)) if spans else "none")
' "$1"
}
run minsample_default --space "$SRC/tests/data/tune/scale.ini" --db "$T/minsample_default.db" --budget 3 --seed 3 \
    --warmup 0.01 --repetitions 3 --strategy random
default_spans=$(sample_spans "$T/minsample_default.db")
run minsample --space "$SRC/tests/data/tune/scale.ini" --db "$T/minsample.db" --budget 3 --seed 3 --warmup 0.01 \
    --repetitions 3 --strategy random --min-sample 0.02
spans=$(sample_spans "$T/minsample.db")
if [ $rc -ne 0 ]; then
    fail "--min-sample" "exit $rc"
    sed 's/^/  | /' "$T/minsample.err"
elif [ "$spans" = none ] || [ "$default_spans" = none ]; then
    fail "--min-sample" "no ok rows (default: '$default_spans', --min-sample 0.02: '$spans')"
elif ! awk -v d="${default_spans#* }" -v l="${spans% *}" 'BEGIN { exit !(d < 10 && l >= 20 * 0.9) }'; then
    fail "--min-sample" "sample spans in ms: default '$default_spans', --min-sample 0.02 '$spans'"
else
    ok "--min-sample (sample spans in ms: default $default_spans, --min-sample 0.02 $spans)"
fi

finish
