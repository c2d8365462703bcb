#!/bin/sh
# decode_next.sh — the next experiments on attention_decode_nv (records/session11-issue-21-decode.md): one step of a
# bench/device_run.sh call each (it sets BIN and RUN), run from the repository root.
#   pf3    PF = 3 (first block's loads before the query tile) against PF = 1 and 2, IL = 1, unraced, fp16 and bf16
#   tails  IL = 1 at a cut length, L = 4001 (no whole number of blocks, rounds or splits): every variant checked
#   short  the best shape at L = 16, 256 and 512 (S = 4096): the per-call constant and the time against length
#   sh bench/isolate/decode_next.sh pf3|tails|short
set -u
T=shaders/attention_decode_nv.comp.in
base="NSG=4,BC=16,NSPLIT=1,PAD=1,THR=0,QS=1"
starts() {  # --start base,SUFFIX,SG=32 for each SUFFIX
    for s in "$@"; do printf -- '--start %s,%s,SG=32 ' "$base" "$s"; done
}
case ${1:-} in
pf3)
    for dt in f16 bf16; do
        # shellcheck disable=SC2046
        $BIN $T --space spaces/attention_decode_nv_$dt.ini --strategy random --budget 6 --no-race --stats \
            --db "$RUN/pf3_$dt.db" $(starts PF=1,IL=1 PF=2,IL=1 PF=3,IL=1 PF=3,IL=0 PF=1,IL=0 PF=0,IL=1)
    done
    ;;
tails)
    for dt in f16 bf16; do
        # shellcheck disable=SC2046
        $BIN $T --space spaces/attention_decode_nv_$dt.ini --problem L=4001 --strategy random --budget 12 \
            --db "$RUN/tails_$dt.db" $(starts PF=1,IL=1 PF=2,IL=1 PF=3,IL=1 PF=0,IL=1) \
            --start NSG=4,BC=16,NSPLIT=2,PAD=1,THR=0,QS=1,PF=1,IL=1,SG=32 \
            --start NSG=2,BC=32,NSPLIT=4,PAD=1,THR=0,QS=1,PF=0,IL=1,SG=32 \
            --start NSG=2,BC=16,NSPLIT=8,PAD=0,THR=8,QS=0,PF=3,IL=1,SG=32
    done
    ;;
short)
    for L in 16 256 512; do
        # shellcheck disable=SC2046
        $BIN $T --space spaces/attention_decode_nv_f16.ini --problem L=$L --strategy random --budget 3 --no-race \
            --db "$RUN/len$L.db" $(starts PF=1,IL=1 PF=3,IL=1 PF=1,IL=0)
    done
    ;;
*)
    echo "usage: sh bench/isolate/decode_next.sh pf3|tails|short" >&2
    exit 2
    ;;
esac
