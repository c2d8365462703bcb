#!/bin/sh
# shard_merge.sh — a search split with --shard and put back together: three exhaustive shards of
# tests/data/tune/scale.ini (36 configurations) into three databases on lavapipe are disjoint, each skips the other
# shards' configurations, and merged they hold exactly the configurations of one unsharded exhaustive run; export
# from the merged database picks its best ok row. Timings on a CPU vary, so sets are compared, not winners.
#
#   sh tests/cli/shard_merge.sh BINARY SOURCE_DIR
set -u
. "$(dirname "$0")/lib/common.sh" "$@"
need_device
need_python "to read the databases"
SPACE=$SRC/tests/data/tune/scale.ini
ARGS="--space $SPACE --strategy exhaustive --warmup 0 --repetitions 2 --pipeline-cache none"


# ---- three shards and one whole run ---------------------------------------------------------------------------------
total=0
for k in 0 1 2; do
    "$BIN" $ARGS --shard $k/3 --db "$T/shard$k.db" >"$T/shard$k.out" 2>"$T/shard$k.err"
    rc=$?
    n=$(sed -n 's/^strategy exhaustive: \([0-9]*\) evaluated.*/\1/p' "$T/shard$k.out")
    other=$(sed -n "s#^shard $k/3: \([0-9]*\) configurations of other shards skipped#\1#p" "$T/shard$k.out")
    if [ $rc -ne 0 ] || [ -z "$n" ] || [ -z "$other" ]; then
        fail "shard $k/3" "exit $rc; $(cat "$T/shard$k.err")"
        n=0
    elif [ $((n + other)) -ne 36 ] || ! grep -q '^strategy exhaustive: .* 0 invalid skipped' "$T/shard$k.out"; then
        fail "shard $k/3" "$n evaluated + $other other shards' != 36, or some counted invalid"
    else
        ok "shard $k/3 ($n evaluated, $other other shards')"
    fi
    total=$((total + n))
done
[ $total -eq 36 ] && ok "shards evaluated 36 in all" || fail "shards" "evaluated $total in all, not 36"

"$BIN" $ARGS --db "$T/whole.db" >"$T/whole.out" 2>"$T/whole.err" || fail "whole run" "$(cat "$T/whole.err")"
"$BIN" merge "$T/merged.db" "$T/shard0.db" "$T/shard1.db" "$T/shard2.db" >"$T/merge.out" 2>&1 ||
    fail "merge" "$(cat "$T/merge.out")"
"$BIN" export --db "$T/merged.db" --space "$SPACE" -o "$T/exported" >"$T/export.out" 2>&1 ||
    fail "export" "$(cat "$T/export.out")"

# ---- the databases ----------------------------------------------------------------------------------------------------
if python3 - "$T" >"$T/check.out" 2>&1 <<'EOF'; then
import json, sqlite3, sys
t = sys.argv[1]
def configs(db):
    rows = sqlite3.connect(db).execute("SELECT device_name, kernel, problem, config FROM results").fetchall()
    assert len(rows) == len(set(rows)), f"{db}: duplicate rows"
    return set(rows)
shards = [configs(f"{t}/shard{k}.db") for k in range(3)]
whole, merged = configs(f"{t}/whole.db"), configs(f"{t}/merged.db")
assert len(whole) == 36, f"the whole run stored {len(whole)} configurations, not 36"
for a in range(3):
    for b in range(a + 1, 3):
        assert not shards[a] & shards[b], f"shards {a} and {b} share {sorted(shards[a] & shards[b])}"
assert merged == whole, f"merged minus whole {sorted(merged - whole)}, whole minus merged {sorted(whole - merged)}"
best = sqlite3.connect(f"{t}/merged.db").execute(
    "SELECT config FROM results WHERE status = 'ok' ORDER BY median_s, id LIMIT 1").fetchone()[0]
kernels = [k for k in json.load(open(f"{t}/exported/manifest.json"))["kernels"] if k["role"] == "winner"]
assert len(kernels) == 1, f"{len(kernels)} winners exported"
assert kernels[0]["config"] == best, f"export chose {kernels[0]['config']}, the merged best is {best}"
print(f"36 configurations, best {best}")
EOF
    ok "merged = whole run, export = merged best ($(cat "$T/check.out"))"
else
    fail "databases" "$(cat "$T/check.out")"
fi

finish
