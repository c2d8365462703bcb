#!/bin/sh
# warm_start.sh — start points: --start measures the given configuration first; --warm-start first measures the
# winners the database holds for the same kernel at other problem sizes; a malformed --start is a usage error.
. "$(dirname "$0")/lib/common.sh" "$@"
need_device
need_python "to read the --json output"

SPACE="$SRC/spaces/gemm.ini"
RUN="--warmup 0 --repetitions 2 --pipeline-cache none --db $T/r.db --json -q --top 100"
# first_config JSONFILE: the configuration of the best row and how many were evaluated, as "N CONFIG"
first_config() {
    python3 -c 'import json, sys; r = json.load(open(sys.argv[1]))[0]; print(r["evaluated"], r["best"][0]["config"])' "$1"
}

"$BIN" --space "$SPACE" --start WG_X=8 --budget 2 --db "$T/bad.db" -q 2>"$T/err"
rc=$?
check "a partial --start is a usage error (exit $rc)" [ $rc -eq 2 ]
check "its message names the missing parameters" grep -q "^vkautotune: --start 'WG_X=8': missing parameters 'WG_Y', 'TM', 'TN', 'BK', 'PAD'$" "$T/err"

START=WG_X=8,WG_Y=16,TM=4,TN=2,BK=16,PAD=1
# shellcheck disable=SC2086 # RUN holds several words on purpose
"$BIN" --space "$SPACE" --start "$START" --strategy random --budget 1 $RUN >"$T/s.json" 2>"$T/err"
check "--start is measured first ($(first_config "$T/s.json"))" [ "$(first_config "$T/s.json")" = "1 $START" ]

# A winner at 128^3, then one evaluation at 192x192x128 with --warm-start: it must be that winner.
# shellcheck disable=SC2086
"$BIN" --space "$SPACE" --problem M=128,N=128,K=128 --budget 6 $RUN >"$T/a.json" 2>"$T/err"
winner=$(first_config "$T/a.json" | cut -d' ' -f2)
# shellcheck disable=SC2086
"$BIN" --space "$SPACE" --problem M=192,N=192,K=128 --warm-start --strategy random --seed 5 --budget 1 $RUN \
    >"$T/b.json" 2>"$T/err"
check "--warm-start measures the 128^3 winner first ($winner)" [ "$(first_config "$T/b.json")" = "1 $winner" ]
# shellcheck disable=SC2086
"$BIN" --space "$SPACE" --problem M=192,N=192,K=64 --strategy random --seed 5 --budget 1 $RUN >"$T/c.json" 2>"$T/err"
check "without it the same seed measures something else" [ "$(first_config "$T/c.json")" != "1 $winner" ]
finish
