#!/bin/sh
# s11-decode-call1 (session 11, #21 item 4, helper decode): attention_decode_nv's IL (blocks in turn) and PF = 2
# (prefetch issued after the barrier) against the best known, unraced with the driver's statistics; the best known
# and one new shape at L = 1024 and 2048 (time against length: what does not scale with the keys); then the
# decode table with SDPA in the same call. Run from a tree with this branch's scripts, spaces and binary:
#   . .gl/enter.sh && cd .xfer-decode && BIN=$PWD/vkautotune sh bench/device_run.sh --timeout 150 s11-decode-call1 \
#     'iso: sh call.sh iso' 'len: sh call.sh len' 'decode: sh call.sh decode'
set -u
T=shaders/attention_decode_nv.comp.in
F=spaces/attention_decode_nv_f16.ini
B=spaces/attention_decode_nv_bf16.ini
base="NSG=4,BC=16,NSPLIT=1,PAD=1,THR=0,QS=1"
starts() {  # --start for each suffix
    for s in "$@"; do printf -- '--start %s,%s,SG=32 ' "$base" "$s"; done
}
case $1 in
iso)
    # shellcheck disable=SC2046
    $BIN $T --space $F --strategy random --budget 14 --no-race --stats --top 20 --db $RUN/iso_f16.db \
        $(starts PF=1,IL=0 PF=2,IL=0 PF=1,IL=1 PF=2,IL=1 PF=0,IL=0 PF=0,IL=1) \
        --start NSG=2,BC=16,NSPLIT=2,PAD=1,THR=0,QS=1,PF=1,IL=0,SG=32 \
        --start NSG=2,BC=16,NSPLIT=2,PAD=1,THR=0,QS=1,PF=2,IL=1,SG=32 \
        --start NSG=4,BC=16,NSPLIT=2,PAD=1,THR=0,QS=1,PF=2,IL=1,SG=32 \
        --start NSG=4,BC=16,NSPLIT=1,PAD=1,THR=8,QS=1,PF=2,IL=1,SG=32 \
        --start NSG=4,BC=16,NSPLIT=1,PAD=1,THR=0,QS=0,PF=2,IL=1,SG=32 \
        --start NSG=4,BC=16,NSPLIT=1,PAD=1,THR=0,QS=0,PF=1,IL=0,SG=32 \
        --start NSG=1,BC=16,NSPLIT=4,PAD=1,THR=0,QS=1,PF=1,IL=0,SG=32 \
        --start NSG=1,BC=16,NSPLIT=4,PAD=1,THR=0,QS=1,PF=2,IL=0,SG=32
    # shellcheck disable=SC2046
    $BIN $T --space $B --strategy random --budget 4 --no-race --stats --top 20 --db $RUN/iso_bf16.db \
        $(starts PF=1,IL=0 PF=2,IL=0 PF=1,IL=1 PF=2,IL=1)
    ;;
len)
    for L in 1024 2048; do
        # shellcheck disable=SC2046
        $BIN $T --space $F --problem L=$L --strategy random --budget 3 --no-race --top 5 --db $RUN/len$L.db \
            $(starts PF=1,IL=0 PF=2,IL=1 PF=1,IL=1)
    done
    ;;
decode)
    s=""
    for sp in attention_decode_nv_f16 attention_decode_nv_bf16; do
        for x in PF=1,IL=0 PF=2,IL=0 PF=1,IL=1 PF=2,IL=1; do s="$s --start $sp:$base,$x,SG=32"; done
    done
    # shellcheck disable=SC2086
    python3 bench/llm_kernels.py --binary $BIN --budget 10s --only attention_decode_nv_f16,attention_decode_nv_bf16 \
        $s --db $RUN/decode.db --out $RUN/llm_decode.md
    ;;
esac
