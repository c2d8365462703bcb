#!/bin/sh
# local_size_replace.sh — a workgroup size fixed in the shader's source (`layout(local_size_x = 64) in;`) tuned
# unmodified: [kernel] replace_local_size = true rewrites each variant's declaration to its [dispatch] local_size,
# and init writes that, with the size as parameters, for a shader whose work depends on gl_GlobalInvocationID alone;
# one with shared memory, or that reads gl_LocalInvocationID or gl_WorkGroupID, keeps its size and says why (another
# size would write past its shared array, or compute other elements). Before, such a shader had nothing to tune: one
# configuration was measured.
set -u
. "$(dirname "$0")/lib/common.sh" "$@"
D=$(cd "$SRC/tests/data/local_size" && pwd)
need_device

# The tuner: fixed.comp.in (a workgroup of 64 in its source) over five sizes, each variant checked against the
# shader as written.
"$BIN" --space "$D/replace.ini" --db "$T/r.db" --strategy exhaustive --warmup 0 --repetitions 2 --no-race \
    >"$T/r.out" 2>"$T/r.err"
check "replace_local_size: five workgroup sizes measured, none wrong ($(tail -n 1 "$T/r.err"))" \
    grep -q "5 evaluated (0 from the database), 0 failed" "$T/r.out"

# init: the 1-D shader of fixed.comp.in and a 2-D one
"$BIN" init "$D/fixed.comp.in" -o "$T/fixed.ini" 2>/dev/null
check "init writes replace_local_size for a literal size" grep -q '^replace_local_size = true ' "$T/fixed.ini"
check "the x size a parameter, the shader's own first" grep -q '^WG_X = 64, 32, 128, 256, 512 ' "$T/fixed.ini"
check "the dispatch by it" grep -q '^local_size = WG_X, 1, 1' "$T/fixed.ini"
check "checked against the shader's own size" grep -q '^config = WG_X=64' "$T/fixed.ini"
check_tunes_as_written "$T/fixed.ini" fixed
check "over more than one size" grep -q "3 evaluated (0 from the database), 0 failed" "$T/t.out"

# the size declared in a header the shader includes: rewritten there (before, every variant was refused: "declares
# no workgroup size by value")
"$BIN" init "$D/size_in_header.comp" -o "$T/header.ini" 2>/dev/null
check "a size declared in an included header: replace_local_size too" grep -q '^replace_local_size = true ' \
    "$T/header.ini"
check_tunes_as_written "$T/header.ini" header
check "over more than one size" grep -q "3 evaluated (0 from the database), 0 failed" "$T/t.out"

"$BIN" init "$D/literal_planar.comp" -o "$T/planar.ini" 2>/dev/null
check "a 2-D literal size: x and y parameters" grep -q '^WG_X = 8, 16, 32, 64, 128 ' "$T/planar.ini"
check "y from 8" grep -q '^WG_Y = 8, 1, 2, 4, 16 ' "$T/planar.ini"
check "the dispatch over both" grep -q '^groups = cdiv(width, WG_X), cdiv(height, WG_Y) ' "$T/planar.ini"
check_tunes_as_written "$T/planar.ini" planar

# shaders whose results depend on their fixed size keep it, and the file says why
"$BIN" init "$D/literal_shared.comp" -o "$T/shared.ini" 2>/dev/null
check "shared memory: no replace_local_size" sh -c "! grep -q '^replace_local_size' '$T/shared.ini'"
check "and why" grep -q "shared memory may be sized for it" "$T/shared.ini"
"$BIN" init "$D/literal_group_index.comp" -o "$T/group.ini" 2>/dev/null
check "gl_WorkGroupID indexing: no replace_local_size" sh -c "! grep -q '^replace_local_size' '$T/group.ini'"
check "and why" grep -q "reads gl_WorkGroupID, gl_LocalInvocationID" "$T/group.ini"
check "its own size in the dispatch" grep -q '^local_size = 128, 1, 1' "$T/group.ini"
finish
