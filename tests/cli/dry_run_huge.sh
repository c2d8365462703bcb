#!/bin/sh
# --dry-run on spaces far too large to walk (10^12 raw, and 10^21, beyond a 64-bit count) answers within a few
# seconds: a sampled estimate of the valid fraction whose 95% interval holds the true 1/8, said to be an estimate;
# an overflowing raw count is reported as such, never a saturated number; a progress line on a terminal.
# Usage (ctest): sh dry_run_huge.sh BINARY SOURCE_DIR
set -u
. "$(dirname "$0")/lib/common.sh" "$@"
command -v timeout > /dev/null 2>&1 || { echo "SKIPPED: timeout (coreutils) is needed to stop a hung dry run"; exit 77; }
# No Vulkan needed: the counts use Vulkan's minimum limits, and hiding the driver keeps the run small.
export VK_DRIVER_FILES=/nonexistent.json VK_ICD_FILENAMES=/nonexistent.json
# within(TRUE_PERCENT): the interval printed holds it
within() {
    python3 - "$1" "$T/out" <<'PY'
import re, sys
m = re.search(r"95% confidence interval ([0-9.e+-]+)% to ([0-9.e+-]+)%", open(sys.argv[2]).read())
sys.exit(0 if m and float(m.group(1)) <= float(sys.argv[1]) <= float(m.group(2)) else 1)
PY
}
for space in huge huge_overflow; do
    # 300 s stops a hang (the old walk ran for hours); the run itself takes a few seconds.
    timeout 300 "$BIN" --space "$SRC/tests/data/cli/$space.ini" --dry-run --seed 3 > "$T/out" 2> "$T/err"
    rc=$?
    check "$space: the dry run finishes (exit $rc: $(cat "$T/err"))" test $rc -eq 0
    check "$space: the valid count is said to be an estimate" grep -q "^valid configurations: about .*an estimate" "$T/out"
    if command -v python3 > /dev/null 2>&1; then
        check "$space: its 95% interval holds the true 12.5% ($(grep '^valid' "$T/out"))" within 12.5
    fi
    check "$space: no saturated count" sh -c "! grep -q 18446744073709551615 '$T/out'"
done
timeout 300 "$BIN" --space "$SRC/tests/data/cli/huge.ini" --dry-run > "$T/out" 2>&1
check "10^12: the raw count is exact" grep -q "^raw configurations: 1000000000000$" "$T/out"
timeout 300 "$BIN" --space "$SRC/tests/data/cli/huge_overflow.ini" --dry-run > "$T/out" 2>&1
check "10^21: the raw count overflows, and says so ($(grep '^raw' "$T/out"))" grep -q "^raw configurations: more than 2^64 (about 1e+21" "$T/out"
# The same seed, the same estimate.
"$BIN" --space "$SRC/tests/data/cli/huge_overflow.ini" --dry-run --seed 5 > "$T/a" 2>&1
"$BIN" --space "$SRC/tests/data/cli/huge_overflow.ini" --dry-run --seed 5 > "$T/b" 2>&1
check "the estimate is reproducible with --seed" cmp -s "$T/a" "$T/b"
# A progress line on a terminal (script(1) gives the run one).
if command -v script > /dev/null 2>&1; then
    script -qec "timeout 300 '$BIN' --space '$SRC/tests/data/cli/huge.ini' --dry-run" /dev/null > "$T/tty" 2>&1
    check "a progress line on a terminal" grep -q "counting: .* of 1000000000000 raw configurations" "$T/tty"
else
    echo "note: script(1) not found: the terminal progress line is not checked"
fi
finish
