#!/bin/sh
# device_run.sh — one call on a GPU machine, recorded: runs the given steps from the repository root and keeps
# everything they write under $OUT/NAME, with the record of the call (run.txt: this driver's version, the UTC
# dates, the exact command, the tree's commit, the binary's version, the devices, every step's exit status and
# seconds). It builds nothing: build here, carry build/ (and .gl/), and run it there. It replaces the copied
# per-call scripts that records/h200/*/call.sh keep as records (records/INDEX.md).
#
#   . .gl/enter.sh && sh bench/device_run.sh [--timeout S] [--top N] [--pack auto|always|never] NAME \
#       'LABEL: COMMAND' ['LABEL: COMMAND' ...]
#
# NAME and each LABEL are letters, digits, '.', '_' and '-'. Each COMMAND runs in `sh -c` from the repository
# root with its output in $OUT/NAME/LABEL.log; it sees RUN (= $OUT/NAME: put databases and tables there), BIN
# (./build/vkautotune unless set) and NAME. A failing step does not stop the next. At the end every *.db in RUN is
# summarised by bench/db_top.py into top.txt, and if RUN then holds more than 8 files (what the device tool
# brings back) all but run.txt, top.txt and the *.md tables go into NAME.tgz (--pack always/never to choose).
# Exit 0 when every step exited 0, 1 when one did not, 2 for a wrong command line or a missing binary.
#
# Example (session 5, call L, as one command):
#   sh bench/device_run.sh --top 4 s5-callL \
#     'decode: timeout 330 python3 bench/llm_kernels.py --binary $BIN --budget 60s --only attention_decode_f16 \
#        --db $RUN/decode.db --out $RUN/llm_decode.md' \
#     'tails: timeout 100 $BIN shaders/attention_decode.comp.in --space spaces/attention_decode_f16.ini \
#        --problem L=4001 --budget 20 --seed 5 --db $RUN/tails.db'
set -u
DEVICE_RUN_VERSION=1

usage() {
    echo "usage: sh bench/device_run.sh [--timeout S] [--top N] [--pack auto|always|never] NAME 'LABEL: COMMAND'..." >&2
    exit 2
}
valid_name() {
    case $1 in '' | *[!A-Za-z0-9._-]*) return 1 ;; esac
}

STEP_TIMEOUT=0
TOP=12
PACK=auto
while [ $# -gt 0 ]; do
    case $1 in
    --timeout) [ $# -ge 2 ] || usage; STEP_TIMEOUT=$2; shift 2 ;;
    --top) [ $# -ge 2 ] || usage; TOP=$2; shift 2 ;;
    --pack) [ $# -ge 2 ] || usage; PACK=$2; shift 2 ;;
    --help | -h) sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "device_run.sh: unknown option '$1'" >&2; usage ;;
    *) break ;;
    esac
done
case $STEP_TIMEOUT in '' | *[!0-9]*) echo "device_run.sh: --timeout takes whole seconds, not '$STEP_TIMEOUT'" >&2; exit 2 ;; esac
case $TOP in '' | *[!0-9]*) echo "device_run.sh: --top takes a count, not '$TOP'" >&2; exit 2 ;; esac
case $PACK in auto | always | never) ;; *) echo "device_run.sh: --pack is auto, always or never, not '$PACK'" >&2; exit 2 ;; esac
[ $# -ge 2 ] || usage
NAME=$1
shift
valid_name "$NAME" || { echo "device_run.sh: NAME '$NAME' may hold only letters, digits, '.', '_' and '-'" >&2; exit 2; }

# Check every step before running any, so a typo costs no device time.
n=0
for step in "$@"; do
    n=$((n + 1))
    label=${step%%:*}
    if [ "$label" = "$step" ] || ! valid_name "$label" || [ -z "$(printf '%s' "${step#*:}" | tr -d ' ')" ]; then
        echo "device_run.sh: step $n is not 'LABEL: COMMAND' with LABEL of letters, digits, '.', '_', '-': $step" >&2
        exit 2
    fi
done

cd "$(dirname "$0")/.." || exit 2
BIN=${BIN:-./build/vkautotune}
if [ ! -x "$BIN" ]; then
    echo "device_run.sh: no executable $BIN: build it here and carry build/ (this driver builds nothing)" >&2
    exit 2
fi
OUT=${OUT:-out}
RUN=$OUT/$NAME
mkdir -p "$RUN" || exit 2
export RUN BIN NAME PYTHONUNBUFFERED=1
REC=$RUN/run.txt

if commit=$(git rev-parse HEAD 2>/dev/null); then
    changed=$(git status --porcelain 2>/dev/null | wc -l)
    [ "$changed" -eq 0 ] || commit="$commit with $changed changed files"
else
    commit="${DEVICE_RUN_COMMIT:-unknown (no git here: set DEVICE_RUN_COMMIT)}"
fi
{
    echo "device_run.sh version $DEVICE_RUN_VERSION"
    echo "name: $NAME"
    echo "started: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
    echo "host: $(uname -n) $(uname -m)"
    echo "tree: $commit"
    printf 'command: sh bench/device_run.sh --timeout %s --top %s --pack %s %s' "$STEP_TIMEOUT" "$TOP" "$PACK" "$NAME"
    for step in "$@"; do printf " '%s'" "$(printf '%s' "$step" | sed "s/'/'\\\\''/g")"; done
    echo
    echo "binary: $("$BIN" --version 2>&1 | head -n 1)"
    if command -v nvidia-smi >/dev/null 2>&1; then
        echo "nvidia-smi: $(nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.draw,temperature.gpu \
            --format=csv,noheader 2>&1 | tr '\n' ';')"
    fi
    echo "devices:"
    "$BIN" devices 2>&1 | sed 's/^/    /'
    echo "steps (label, exit status, seconds, command):"
} >"$REC"

failed=0
for step in "$@"; do
    label=${step%%:*}
    cmd=${step#*:}
    t0=$(date +%s)
    echo "== $label ($(date -u '+%H:%M:%S'))"
    if [ "$STEP_TIMEOUT" -gt 0 ]; then
        timeout "$STEP_TIMEOUT" sh -c "$cmd" >"$RUN/$label.log" 2>&1
    else
        sh -c "$cmd" >"$RUN/$label.log" 2>&1
    fi
    rc=$?
    [ $rc -eq 0 ] || failed=1
    echo "  $label rc=$rc $(($(date +%s) - t0))s:$cmd" >>"$REC"
done
echo "finished: $(date -u '+%Y-%m-%d %H:%M:%S UTC')" >>"$REC"

dbs=$(find "$RUN" -maxdepth 1 -name '*.db' | sort)
if [ -n "$dbs" ] && [ "$TOP" -gt 0 ]; then
    for db in $dbs; do
        echo "== $(basename "$db")"
        python3 bench/db_top.py "$db" --top "$TOP" 2>&1
    done >"$RUN/top.txt"
fi

# What the call's reply shows: each step's last lines, the tables, and the record last (a reply keeps the end).
for step in "$@"; do
    label=${step%%:*}
    if [ -f "$RUN/$label.log" ]; then
        echo "== $label.log (last ${TAIL:-8} lines)"
        tail -n "${TAIL:-8}" "$RUN/$label.log"
    fi
done
for f in "$RUN"/*.md "$RUN/top.txt"; do
    [ -f "$f" ] || continue
    echo "== $(basename "$f")"
    head -n "${TABLE_LINES:-40}" "$f"
done
# The device tool brings back at most 8 files, none more than two folders below $OUT: pack the rest rather than
# lose them (all but the record, the summary and the tables at the top of RUN).
count=$(find "$RUN" -type f | wc -l)
deep=$(find "$RUN" -mindepth 3 -type f | head -n 1)
if [ "$PACK" = always ] || { [ "$PACK" = auto ] && { [ "$count" -gt 8 ] || [ -n "$deep" ]; }; }; then
    packed=$(cd "$RUN" && find . -type f ! -path ./run.txt ! -path ./top.txt ! -path "./$NAME.tgz" \
        ! \( -path './*.md' ! -path './*/*' \) | sort)
    if [ -n "$packed" ]; then
        # shellcheck disable=SC2086 # one name per word: the labels are checked, the steps name their own files
        (cd "$RUN" && tar czf "$NAME.tgz" $packed && rm -f $packed && find . -mindepth 1 -type d -empty -delete) ||
            failed=1
        echo "packed into $NAME.tgz: $(echo "$packed" | tr "\n" " ")" >>"$REC"
    fi
fi
cat "$REC"
exit $failed
