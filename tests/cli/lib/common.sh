# common.sh — sourced by the CLI test scripts (tests/cli/*.sh): the two arguments ctest passes, skips that say why,
# a scratch directory removed on exit, and the counter behind the closing "N passed, N failed" line.
#   . "$(dirname "$0")/lib/common.sh" "$@"     # then: need_device; need_python WHY; check WHAT CMD...
#                                               # (or ok NAME / fail NAME WHY); finish
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
    [ $failed -eq 0 ]
}
