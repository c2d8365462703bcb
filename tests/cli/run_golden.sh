#!/bin/sh
# run_golden.sh — end-to-end CLI tests against checked-in golden files (in the manner of zstd's tests/cli-tests
# and inih's tests/runtest.sh).
#
#   sh tests/cli/run_golden.sh BINARY SOURCE_DIR [--regen] [CASE...]
#
# Each case is a directory tests/cli/cases/NAME/ holding:
#   cmd       one line: the arguments to vkautotune, as shell words ($SRC is the source dir, $TMP a scratch
#             directory for this case, which is also the working directory)
#   env       optional: VAR=value lines exported for the command (e.g. to hide the Vulkan driver)
#   setup     optional: sh script run first in $TMP; exit 77 skips the case (its output says why)
#   check     optional: sh script run after, with $OUT and $ERR (the raw stdout/stderr files), $BIN, $SRC, $TMP;
#             non-zero fails the case
#   exit      golden: the exit code
#   stderr    golden: the normalised stderr
#   stdout    golden: the normalised stdout, unless the case has a file `nostdout` (saying why stdout is not
#             deterministic; its `check` looks at it instead)
# Output is normalised before comparing: the source dir becomes $SRC, the scratch dir $TMP, device names <device>,
# timings and tool-dependent counts placeholders (see normalise below).
#
# VKAT_REGEN=1 or --regen rewrites the golden files from the current output (review them with git diff).
# Prints "NAME: ok" or "NAME: FAIL" (with a diff) per case and ends with "N passed, N failed"; exits 1 on any
# failure.
set -u

if [ $# -lt 2 ]; then
    echo "usage: $0 BINARY SOURCE_DIR [--regen] [CASE...]" >&2
    exit 2
fi
BIN=$1
SRC=$2
shift 2
REGEN=${VKAT_REGEN:-0}
if [ "${1:-}" = "--regen" ]; then
    REGEN=1
    shift
fi
case "$REGEN" in "" | 0) REGEN=0 ;; *) REGEN=1 ;; esac
case "$BIN" in /*) ;; *) BIN=$(pwd)/$BIN ;; esac
case "$SRC" in /*) ;; *) SRC=$(cd "$SRC" && pwd) ;; esac
CASES=$SRC/tests/cli/cases
export BIN SRC

WORK=$(mktemp -d "${TMPDIR:-/tmp}/vkat-cli.XXXXXX") || exit 1
trap 'chmod -R u+rwx "$WORK" 2>/dev/null; rm -rf "$WORK"' EXIT INT TERM

# Device names vary between machines: collect them once (none when there is no Vulkan) and replace them.
"$BIN" devices 2>/dev/null | sed -n 's/^device [0-9]*: //p' >"$WORK/devices"

TIMEOUT=
command -v timeout >/dev/null 2>&1 && TIMEOUT="timeout 300"

# normalise RAW TMPDIR: prints the normalised text.
normalise() {
    awk -v src="$SRC" -v tmp="$2" '
        function lit(s, from, to,    out, i) {
            if (from == "") return s
            out = ""
            while ((i = index(s, from)) > 0) {
                out = out substr(s, 1, i - 1) to
                s = substr(s, i + length(from))
            }
            return out s
        }
        FILENAME == ARGV[1] { if ($0 != "") dev[++ndev] = $0; next }
        {
            line = lit($0, tmp, "$TMP")
            line = lit(line, src, "$SRC")
            for (d = 1; d <= ndev; d++) line = lit(line, dev[d], "<device>")
            # "device 0: <device> (cpu, llvmpipe 0.0.1)": type and driver version vary
            sub(/device [0-9]+: <device> \(.*\)$/, "device N: <device> (<type, driver>)", line)
            # the Vulkan version a shader was validated for, the device count, timings, SPIR-V sizes
            gsub(/<device> \([0-9.]+\)/, "<device> (<vulkan>)", line)
            gsub(/only [0-9]+ device\(s\) found \([0-9.]+\)/, "only N device(s) found (0..N-1)", line)
            gsub(/[0-9]+\.[0-9]+ s/, "<time> s", line)
            gsub(/[0-9]+ words/, "N words", line)
            # how many random configurations a time-bounded count checked
            gsub(/\([0-9]+ of [0-9]+ sampled\)/, "(N of N sampled)", line)
            # --version: the versions of the libraries it was built with
            gsub(/glslang [0-9][0-9.]*, SPIRV-Tools [0-9][0-9.]*, Vulkan headers [0-9][0-9.]*/,
                 "glslang <version>, SPIRV-Tools <version>, Vulkan headers <version>", line)
            print line
        }' "$WORK/devices" "$1"
}

passed=0
failed=0
skipped=0
names=${*:-$(ls "$CASES")}
for name in $names; do
    dir=$CASES/$name
    if [ ! -f "$dir/cmd" ]; then
        echo "$name: FAIL (no such case: $dir/cmd missing)"
        failed=$((failed + 1))
        continue
    fi
    TMP=$WORK/$name
    mkdir -p "$TMP"
    export TMP
    if [ -f "$dir/setup" ]; then
        (cd "$TMP" && sh "$dir/setup") >"$WORK/setup.out" 2>&1
        rc=$?
        if [ $rc -eq 77 ]; then
            echo "$name: skip ($(tr '\n' ' ' <"$WORK/setup.out"))"
            skipped=$((skipped + 1))
            continue
        elif [ $rc -ne 0 ]; then
            echo "$name: FAIL (setup exited $rc)"
            cat "$WORK/setup.out"
            failed=$((failed + 1))
            continue
        fi
    fi
    OUT=$WORK/$name.stdout
    ERR=$WORK/$name.stderr
    export OUT ERR
    cmd=$(cat "$dir/cmd")
    (
        cd "$TMP" || exit 99
        if [ -f "$dir/env" ]; then
            while IFS= read -r kv; do
                case "$kv" in '' | '#'*) continue ;; esac
                export "${kv%%=*}=${kv#*=}"
            done <"$dir/env"
        fi
        eval "exec $TIMEOUT \"\$BIN\" $cmd"
    ) >"$OUT" 2>"$ERR" </dev/null
    code=$?
    normalise "$ERR" "$TMP" >"$WORK/$name.stderr.norm"
    normalise "$OUT" "$TMP" >"$WORK/$name.stdout.norm"

    if [ "$REGEN" != 0 ]; then
        echo "$code" >"$dir/exit"
        cp "$WORK/$name.stderr.norm" "$dir/stderr"
        [ -f "$dir/nostdout" ] || cp "$WORK/$name.stdout.norm" "$dir/stdout"
    fi

    ok=1
    why=
    expected=$(cat "$dir/exit" 2>/dev/null)
    if [ "$code" != "$expected" ]; then
        ok=0
        why="exit code $code, expected ${expected:-<no golden exit file>}"
    fi
    if ! diff -u "$dir/stderr" "$WORK/$name.stderr.norm" >"$WORK/diff" 2>&1; then
        ok=0
        why="${why:+$why; }stderr differs"
        cat "$WORK/diff" >>"$WORK/report"
    fi
    if [ ! -f "$dir/nostdout" ] && ! diff -u "$dir/stdout" "$WORK/$name.stdout.norm" >"$WORK/diff" 2>&1; then
        ok=0
        why="${why:+$why; }stdout differs"
        cat "$WORK/diff" >>"$WORK/report"
    fi
    if [ -f "$dir/check" ]; then
        if ! (cd "$TMP" && sh "$dir/check") >"$WORK/check.out" 2>&1; then
            ok=0
            why="${why:+$why; }check failed"
            cat "$WORK/check.out" >>"$WORK/report"
        fi
    fi
    if [ $ok = 1 ]; then
        [ "$REGEN" != 0 ] && echo "$name: ok (regenerated)" || echo "$name: ok"
        passed=$((passed + 1))
    else
        echo "$name: FAIL ($why)"
        echo "  command: vkautotune $cmd"
        [ -f "$WORK/report" ] && sed 's/^/  /' "$WORK/report"
        echo "  stderr was:"
        sed 's/^/  | /' "$ERR"
        failed=$((failed + 1))
    fi
    rm -f "$WORK/report"
done
[ $skipped -gt 0 ] && echo "$skipped skipped"
echo "$passed passed, $failed failed"
[ $failed -eq 0 ]
