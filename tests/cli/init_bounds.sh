#!/bin/sh
# init_bounds.sh — what `vkautotune init` takes as the problem size from the bound a shader puts on its
# invocations, in idioms of session 18's trial (records/session18-thirdparty-trial.md), each in a shader written
# here; every file tunes as written:
#   - an integer vector of the push block compared with the invocation's xy as a whole (`any(greaterThanEqual(
#     gid.xy, p.extent))`) is the size in each component; as 1, 1 the reference wrote one texel of its output;
#   - one component of such a vector (`i < p.counts.x`) is the size in that component, the others stay 1.
set -u
. "$(dirname "$0")/lib/common.sh" "$@"
D=$(cd "$SRC/tests/data/init_bounds" && pwd)

tune() { # tune SPACE NAME: the space as init wrote it, on the device
    "$BIN" --space "$1" --db "$T/r.db" --budget 3 --warmup 0 --repetitions 2 --no-race >"$T/t.out" 2>"$T/t.err"
    rc=$?
    check "$2 tunes as written (exit $rc: $(tail -n 1 "$T/t.err"))" grep -q " 0 failed" "$T/t.out"
}

"$BIN" init "$D/extent_bound.comp" -o "$T/extent.ini" 2>/dev/null
check "a vector bound: the size, named after it" grep -q '^extent = 1024 @push' "$T/extent.ini"
check "in each of its components" grep -q '^extent = uint32, extent, extent ' "$T/extent.ini"
check "the image sized by it" grep -q '^dst = r32f, image(extent, extent), zero, out ' "$T/extent.ini"

"$BIN" init "$D/component_bound.comp" -o "$T/component.ini" 2>/dev/null
check "a vector's component bound: the size, named after the vector" \
    grep -q '^counts = 1024 @push' "$T/component.ini"
check "in that component, the others 1" grep -q '^counts = uint32, counts, 1, 1, 1 ' "$T/component.ini"

if "$BIN" devices >/dev/null 2>&1; then
    tune "$T/extent.ini" extent_bound.comp
    tune "$T/component.ini" component_bound.comp
else
    echo "skip: tuning the written files (no Vulkan device; install mesa-vulkan-drivers for lavapipe)"
fi
finish
