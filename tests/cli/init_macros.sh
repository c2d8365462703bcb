#!/bin/sh
# init_macros.sh — a workgroup size the shader #defines itself (`#define TILE 16`, `layout(local_size_x = TILE,
# local_size_y = TILE) in;`, `shared float tile[TILE][TILE + 1];`), in shaders written here. init writes
# `[kernel] replace_defines = TILE` and TILE as a parameter: each variant's value replaces the shader's own #define,
# so the tiles, strides and loops it sizes follow. Before, a shader with shared memory kept its one size, and a
# parameter named like the shader's own macro failed to compile ("Macro redefined") in every variant but one.
#   - a square tile (a transpose) over 4-32, a 1-D block with a halo over 32-512, a rectangular BX x BY tile each
#     over its own list; every variant passes the check;
#   - a tile whose result depends on its size (a box filter with zero edges per tile): the check refuses the
#     other sizes, and the winner is the shader's own;
#   - one result per workgroup (a reduction's partial sums) keeps the shader's size: no replace_defines;
#   - the macro #defined in a header the shader includes (tile_include.comp, tile_size.glsl): the same, each
#     variant's value in the header's line (before, init kept the size and a space naming it was refused); the
#     header in a directory given with -I: init writes it as [kernel] include_dirs, relative to the written file
#     (before, the file it wrote could not find the header);
#   - the space's own errors: a name that is no parameter, a specialization constant, a template without the line.
set -u
. "$(dirname "$0")/lib/common.sh" "$@"
D=$(cd "$SRC/tests/data/init_macros" && pwd)
B=$(cd "$SRC/tests/data/init_bounds" && pwd)

"$BIN" init "$B/tile_transpose.comp" -o "$T/transpose.ini" 2>/dev/null
check "a square tile: replace_defines and one parameter over 4-32, the shader's 16 first" \
    lines "$T/transpose.ini" '^replace_defines = TILE ' '^TILE = 16, 4, 8, 32 ' '^local_size = TILE, TILE, 1$' \
    '^groups = cdiv(width, TILE), cdiv(height, TILE) ' '^config = TILE=16$'
check "not replace_local_size" sh -c "! grep -q '^replace_local_size' '$T/transpose.ini'"

"$BIN" init "$D/stencil_block.comp" -o "$T/stencil.ini" 2>/dev/null
check "a 1-D block with a halo: over 32-512, the shader's 128 first" \
    lines "$T/stencil.ini" '^replace_defines = BLOCK ' '^BLOCK = 128, 32, 64, 256, 512 ' '^groups = cdiv(n, BLOCK) '

"$BIN" init "$D/rect_transpose.comp" -o "$T/rect.ini" 2>/dev/null
check "a BX x BY tile: two parameters (4u is a value too)" \
    lines "$T/rect.ini" '^replace_defines = BX, BY ' '^BX = 32, 8, 16, 64, 128 ' '^BY = 4, 1, 2, 8, 16 ' \
    '^local_size = BX, BY, 1$' '^config = BX=32,BY=4$'

"$BIN" init "$D/tile_include.comp" -o "$T/include.ini" 2>/dev/null
check "the tile's #define in an included header: replace_defines and the parameter as for the shader's own" \
    lines "$T/include.ini" '^replace_defines = TILE ' '^TILE = 16, 4, 8, 32 ' '^local_size = TILE, TILE, 1$' \
    '^config = TILE=16$'

"$BIN" init "$D/stencil_header.comp" -o "$T/sheader.ini" 2>/dev/null
check "the macro and the declaration by it both in a header: replace_defines, the shared tile following it" \
    lines "$T/sheader.ini" '^replace_defines = BLOCK ' '^BLOCK = 128, 32, 64, 256, 512 ' '^local_size = BLOCK, 1, 1$'

mkdir -p "$T/src" "$T/headers" "$T/spaces"
cp "$D/tile_include.comp" "$T/src/"
cp "$D/tile_size.glsl" "$T/headers/"
"$BIN" init "$T/src/tile_include.comp" -I "$T/headers" -o "$T/spaces/dirs.ini" 2>/dev/null
check "the header found with -I: include_dirs relative to the written file" \
    lines "$T/spaces/dirs.ini" '^template = ../src/tile_include.comp$' '^include_dirs = ../headers$' \
    '^replace_defines = TILE '

"$BIN" init "$D/group_sums.comp" -o "$T/sums.ini" 2>/dev/null
check "one result per workgroup: the size stays the shader's" \
    sh -c "! grep -q '^replace_defines' '$T/sums.ini' && grep -q '^local_size = 256, 1, 1' '$T/sums.ini'"

"$BIN" init "$D/edge_tile.comp" -o "$T/edge.ini" 2>/dev/null
# statuses DB: "status count" per status, one line each
statuses() {
    python3 -c "import sqlite3,sys
for s, n in sqlite3.connect(sys.argv[1]).execute('SELECT status, COUNT(*) FROM results GROUP BY status'):
    print(s, n)" "$1"
}
if "$BIN" devices >/dev/null 2>&1 && command -v python3 >/dev/null 2>&1; then
    for f in transpose stencil rect include sheader; do
        "$BIN" --space "$T/$f.ini" --db "$T/$f.db" --strategy exhaustive --no-race --warmup 0.01 --repetitions 2 \
            > "$T/$f.out" 2>&1
        rc=$?
        statuses "$T/$f.db" > "$T/$f.st"
        check "$f: every variant within the device's limits passes the check (exit $rc; $(tr '\n' ' ' < "$T/$f.st"))" \
            sh -c "[ $rc -eq 0 ] && ! grep -qv '^ok \|^limits ' '$T/$f.st' && grep -q '^ok ' '$T/$f.st'"
    done
    check "transpose: all four tile sizes measured" grep -q '^ok 4$' "$T/transpose.st"
    check "stencil: all five block sizes measured" grep -q '^ok 5$' "$T/stencil.st"
    check "the header's tile: all four sizes measured" grep -q '^ok 4$' "$T/include.st"
    check "the header's block: all five sizes measured" grep -q '^ok 5$' "$T/sheader.st"
    "$BIN" --space "$T/spaces/dirs.ini" --db "$T/dirs.db" --strategy exhaustive --no-race --warmup 0.01 \
        --repetitions 2 > "$T/dirs.out" 2>&1
    statuses "$T/dirs.db" > "$T/dirs.st"
    check "the file init wrote with -I tunes as written ($(tail -n 1 "$T/dirs.out"))" grep -q '^ok 4$' "$T/dirs.st"
    "$BIN" --space "$T/edge.ini" --db "$T/edge.db" --strategy exhaustive --no-race --warmup 0.01 --repetitions 2 \
        > "$T/edge.out" 2>&1
    statuses "$T/edge.db" > "$T/edge.st"
    check "a tile whose sums depend on its size: the other widths are wrong ($(tr '\n' ' ' < "$T/edge.st"))" \
        grep -q '^wrong 19$' "$T/edge.st"
    check "and the winner is the shader's own width" grep -q '^ *1 .*BX=32,BY=' "$T/edge.out"
else
    echo "skip: tuning the written files (no Vulkan device or no python3)"
fi

# the space's own errors, with the line of replace_defines
sed 's/^replace_defines = TILE .*/replace_defines = TILES/' "$T/transpose.ini" > "$T/bad_name.ini"
"$BIN" --space "$T/bad_name.ini" --dry-run > /dev/null 2> "$T/bad_name.err"
check "a name that is no parameter: refused at its line" \
    grep -q "bad_name.ini:7: replace_defines: 'TILES' is not a parameter in \[params\]" "$T/bad_name.err"
sed 's/^TILE = 16, 4, 8, 32 .*/TILE = 16, 8 @spec(0)/' "$T/transpose.ini" > "$T/bad_spec.ini"
"$BIN" --space "$T/bad_spec.ini" --dry-run > /dev/null 2> "$T/bad_spec.err"
check "a specialization constant: refused" \
    grep -q "bad_spec.ini:7: replace_defines: 'TILE' is a specialization constant" "$T/bad_spec.err"
sed 's/^#define TILE 16$/const uint TILE_UNUSED = 16u;/' "$B/tile_transpose.comp" > "$T/nodefine.comp"
sed "s|^template = .*|template = $T/nodefine.comp|" "$T/transpose.ini" > "$T/bad_line.ini"
"$BIN" --space "$T/bad_line.ini" --budget 1 --no-race > /dev/null 2> "$T/bad_line.err"
check "a template without the line: refused, naming both" \
    grep -q "bad_line.ini:7: replace_defines: .*nodefine.comp has no \`#define TILE ...\` line of its own (nor" \
    "$T/bad_line.err"
mkdir -p "$T/noheader"
cp "$D/tile_include.comp" "$T/noheader/"
sed 's/^#define TILE 16 .*/const uint TILE_UNUSED = 16u;/' "$D/tile_size.glsl" > "$T/noheader/tile_size.glsl"
sed "s|^template = .*|template = $T/noheader/tile_include.comp|" "$T/include.ini" > "$T/bad_header.ini"
"$BIN" --space "$T/bad_header.ini" --budget 1 --no-race > /dev/null 2> "$T/bad_header.err"
check "nor a header it includes: refused the same way" \
    grep -q "bad_header.ini:7: replace_defines: .*tile_include.comp has no \`#define TILE ...\` line of its own" \
    "$T/bad_header.err"
finish
