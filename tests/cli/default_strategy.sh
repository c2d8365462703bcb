#!/bin/sh
# default_strategy.sh — which strategy a run picks when --strategy is not given: exhaustive when an evaluation
# budget covers the space, auto when it does not, and with a time budget (no evaluation limit) exhaustive only for
# a small space: walking a large one in index order would spend the time on its first corner.
. "$(dirname "$0")/lib/common.sh" "$@"
need_device

strategy_of() { # SPACE BUDGET: the strategy field of the run's JSON
    "$BIN" --space "$SRC/spaces/$1" --budget "$2" --warmup 0 --repetitions 2 --pipeline-cache none \
        --db "$T/$1.$2.db" --json -q >"$T/out.json" 2>"$T/err" || { cat "$T/err"; return 1; }
    sed -n 's/.*"strategy": *"\([a-z]*\)".*/\1/p' "$T/out.json" | head -n 1
}

s=$(strategy_of transpose.ini 2s)
check "a time budget over a small space (transpose, $s) is exhaustive" [ "$s" = exhaustive ]
s=$(strategy_of gemm.ini 2s)
check "a time budget over a large space (gemm, $s) is auto" [ "$s" = auto ]
s=$(strategy_of gemm.ini 3)
check "3 evaluations of a large space ($s) are auto" [ "$s" = auto ]
s=$(strategy_of transpose.ini 1000)
check "1000 evaluations of a small space ($s) are exhaustive" [ "$s" = exhaustive ]
finish
