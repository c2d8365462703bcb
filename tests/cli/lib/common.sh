# common.sh — sourced by the CLI test scripts (tests/cli/*.sh): the two arguments ctest passes, skips that say why,
# a scratch directory removed on exit, and the counter behind the closing "N passed, N failed" line.
#   . "$(dirname "$0")/lib/common.sh" "$@"     # then: need_device; need_python WHY; check WHAT CMD...; check_tune
#                                               # or check_tunes_as_written (or ok NAME / fail NAME WHY); finish
#                                               # lines FILE PATTERN...: FILE has a line matching each
# A long script may be split into parts that ctest runs side by side: a header line "# ctest parts: A B ..." makes
# tests/CMakeLists.txt register one test per part with VKAT_TEST_PART set, and the script runs a section only when
# `in_part A` says so. Run by hand (VKAT_TEST_PART unset), a script runs every part.
if [ $# -ne 2 ]; then
    echo "usage: $0 BINARY SOURCE_DIR" >&2
    exit 2
fi
BIN=$1
SRC=$2
T=$(mktemp -d "${TMPDIR:-/tmp}/vkat-test.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT INT TERM
passed=0
failed=0
if [ -n "${VKAT_TEST_PART:-}" ] &&
    ! sed -n 's/^# ctest parts: //p' "$0" | tr ' ' '\n' | grep -qx -- "$VKAT_TEST_PART"; then
    echo "$0: VKAT_TEST_PART=$VKAT_TEST_PART is not among its '# ctest parts:'" >&2
    exit 2
fi

# in_part NAME: does this run do part NAME? (Every part when VKAT_TEST_PART is unset.)
in_part() {
    [ -z "${VKAT_TEST_PART:-}" ] || [ "$VKAT_TEST_PART" = "$1" ]
}

need_device() {
    "$BIN" devices >/dev/null 2>&1 || { echo "SKIPPED: no Vulkan device (install mesa-vulkan-drivers for lavapipe)"; exit 77; }
}

need_python() {
    command -v python3 >/dev/null 2>&1 || { echo "SKIPPED: python3 is needed $1"; exit 77; }
}

# check DESCRIPTION COMMAND...: counts COMMAND's success; prints the description of a failure.
check() {
    what=$1
    shift
    if "$@"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: $what"; fi
}

# lines FILE PATTERN...: FILE has a line matching each PATTERN
lines() {
    f=$1
    shift
    for p in "$@"; do grep -q -- "$p" "$f" || return 1; done
}

ok() {
    echo "$1: ok"
    passed=$((passed + 1))
}

fail() {
    echo "$1: FAIL ($2)"
    failed=$((failed + 1))
}

finish() {
    echo "$passed passed, $failed failed"
    if [ -n "${VKAT_TEST_PART:-}" ] && [ $((passed + failed)) -eq 0 ]; then
        echo "FAIL: part $VKAT_TEST_PART checked nothing"
        return 1
    fi
    [ $failed -eq 0 ]
}

# check_tune NAME JSONFILE RC EXPECTED_EVALUATED: a tune run (--json --top covering every variant) exited 0,
# measured that many variants, none failed, all are ranked or raced out (both passed the check) and every ranked
# one is within rel L2 1e-5. The run's stderr is expected in $T/tune.err.
check_tune() {
    if [ "$3" -ne 0 ]; then
        fail "$1" "exit $3"
        sed 's/^/  | /' "$T/tune.err"
    elif ! python3 -c '
import json, sys
rep = json.load(open(sys.argv[1]))[0]
assert "skipped" not in rep, "skipped: " + rep.get("skipped", "")
assert rep["evaluated"] == int(sys.argv[2]), "evaluated %d, expected %s" % (rep["evaluated"], sys.argv[2])
assert rep["failed"] == 0, "%d variants failed (wrong results or errors)" % rep["failed"]
# Raced-out variants passed the check too (racing times them only briefly and never ranks them).
assert len(rep["best"]) + rep.get("raced_out", 0) == rep["evaluated"], "%d ranked, %d raced out of %d" % (
    len(rep["best"]), rep.get("raced_out", 0), rep["evaluated"])
worst = max(b["rel_l2"] for b in rep["best"])
assert worst <= 1e-5, "a ranked variant has rel_l2 %g" % worst
' "$2" "$4" >"$T/py.out" 2>&1; then
        fail "$1" "$(tail -n 1 "$T/py.out")"
    else
        ok "$1"
    fi
}

# check_tunes_as_written SPACE NAME: a short tune of a space as `vkautotune init` wrote it, on the device, ends
# with none of its variants failed.
check_tunes_as_written() {
    "$BIN" --space "$1" --db "$T/r.db" --budget 3 --warmup 0 --repetitions 2 --no-race >"$T/t.out" 2>"$T/t.err"
    rc=$?
    check "$2 tunes as written (exit $rc: $(tail -n 1 "$T/t.err"))" grep -q " 0 failed" "$T/t.out"
}
