#!/bin/sh
# unmodified_e2e.sh — shaders that take their sizes the way third-party shaders do, end to end on the device: sizes as
# specialization constants and as push-constant members, at the space's problem and at another one (--problem), every
# variant checked; a text parameter stored, resumed and exported; a uniform block bound and exported as a uniform
# buffer; buffers placed in two descriptor sets with gaps in the numbering (@set, @binding); a shared array sized by
# the specialized workgroup size; a check against the template's own configuration ([check] config) that finds a wrong
# variant; a shader bounded by its buffers' .length(); storage images and an image read through a sampler, with wrong
# variants found among them, and two passes through a scratch image; uniform and storage texel buffers, with wrong
# values and an overrun into the output's guard found, and two passes through a scratch one; the manifest says how each size is bound, marks
# the specialization constants that are problem sizes, and gives each binding its set.
. "$(dirname "$0")/lib/common.sh" "$@"
need_device
need_python "to read the manifest"

D=$SRC/tests/data/unmodified
RUN="--db $T/r.db --warmup 0 --repetitions 2 --pipeline-cache none"

# shellcheck disable=SC2086 # RUN holds several words on purpose
"$BIN" --space "$D/matmul_spec.ini" $RUN >"$T/a" 2>"$T/ae"
check "sizes as spec constants: all six checked correct" grep -q "6 evaluated (0 from the database), 0 failed" "$T/a"
# shellcheck disable=SC2086
"$BIN" --space "$D/matmul_spec.ini" --problem M=8,N=32,K=40 $RUN >"$T/b" 2>"$T/be"
check "another problem through --problem (M=8,N=32,K=40): checked correct" grep -q "evaluated (0 from the database), 0 failed" "$T/b"
# shellcheck disable=SC2086
"$BIN" --space "$D/matmul_push.ini" --problem M=4,N=64,K=8 $RUN >"$T/c" 2>"$T/ce"
check "sizes as push-constant members M, N, K at M=4,N=64,K=8: checked correct" grep -q "6 evaluated (0 from the database), 0 failed" "$T/c"
# shellcheck disable=SC2086
"$BIN" --space "$D/matmul_push.ini" --problem M=4,N=64,K=8 $RUN >"$T/d" 2>"$T/de"
check "text-valued parameter VEC resumes from the database" grep -q "6 evaluated (6 from the database)" "$T/d"

# shellcheck disable=SC2086
"$BIN" --space "$D/affine_ubo.ini" $RUN >"$T/u" 2>"$T/ue"
check "a uniform block bound as a uniform buffer: checked correct" grep -q "2 evaluated (0 from the database), 0 failed" "$T/u"

# shellcheck disable=SC2086
"$BIN" --space "$D/axpy_sets.ini" $RUN >"$T/s" 2>"$T/se"
check "buffers placed by @set/@binding (two sets, gaps): all nine checked correct" \
    grep -q "9 evaluated (0 from the database), 0 failed" "$T/s"

# shellcheck disable=SC2086
"$BIN" --space "$D/reverse_wg.ini" $RUN >"$T/w" 2>"$T/we"
check "a shared array sized by gl_WorkGroupSize.x (local_size_x_id): all four checked correct" \
    grep -q "4 evaluated (0 from the database), 0 failed" "$T/w"

# shellcheck disable=SC2086
"$BIN" --space "$D/scale_blocks.ini" $RUN --no-race >"$T/c1" 2>"$T/c1e"
check "[check] config (the template at BLOCK=1 is the reference): 3 evaluated, the buggy BLOCK=4 the one failed" \
    grep -q "3 evaluated (0 from the database), 1 failed" "$T/c1"
statuses=$(python3 -c "import sqlite3, sys; print(' '.join(c + ':' + s for c, s in sqlite3.connect(sys.argv[1])
    .execute(\"SELECT config, status FROM results WHERE kernel = 'scale_blocks' ORDER BY config\")))" "$T/r.db")
check "and it is BLOCK=4 that is wrong ($statuses)" [ "$statuses" = "BLOCK=1:ok BLOCK=2:ok BLOCK=4:wrong" ]

# shellcheck disable=SC2086
"$BIN" --space "$D/length_bound.ini" $RUN --no-race >"$T/l1" 2>"$T/l1e"
check "a shader bounded by its buffers' .length(): 4 evaluated, the 2 with BUG=1 the ones failed" \
    grep -q "4 evaluated (0 from the database), 2 failed" "$T/l1"
statuses=$(python3 -c "import sqlite3, sys; print(' '.join(c + ':' + s for c, s in sqlite3.connect(sys.argv[1])
    .execute(\"SELECT config, status FROM results WHERE kernel = 'length_bound' ORDER BY config\")))" "$T/r.db")
check "and they fail on their values, not on the guard ($statuses)" \
    [ "$statuses" = "WG=128,BUG=0:ok WG=128,BUG=1:wrong WG=64,BUG=0:ok WG=64,BUG=1:wrong" ]

sql() { python3 -c "import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute(sys.argv[2]).fetchone()[0])" "$@"; }
# shellcheck disable=SC2086
"$BIN" --space "$D/blur_image.ini" $RUN --no-race >"$T/i1" 2>"$T/i1e"
check "storage images (an rgba32f blur): 16 evaluated, the 8 with the shifted window wrong" \
    grep -q "16 evaluated (0 from the database), 8 failed" "$T/i1"
wrong=$(sql "$T/r.db" "SELECT group_concat(DISTINCT status) FROM results WHERE kernel = 'blur_image' AND
    config LIKE '%SHIFT=1'")
check "and exactly the SHIFT=1 ones ($wrong)" [ "$wrong" = "wrong" ]
reason=$(sql "$T/r.db" "SELECT reason FROM results WHERE kernel = 'blur_image' AND status = 'wrong' LIMIT 1")
check "the reason names the image and the texel ($reason)" \
    sh -c 'echo "$1" | grep -q "^image .dst.: .*; element [0-9]* is texel ([0-9]*, [0-9]*), component [0-3]$"' - "$reason"
# shellcheck disable=SC2086
"$BIN" --space "$D/blur_separable.ini" $RUN --no-race >"$T/i3" 2>"$T/i3e"
check "two passes through a scratch image (a separable blur): all four checked correct against the one-pass box" \
    grep -q "4 evaluated (0 from the database), 0 failed" "$T/i3"
# shellcheck disable=SC2086
"$BIN" --space "$D/downsample_sampled.ini" $RUN --no-race >"$T/i2" 2>"$T/i2e"
check "an image read through a sampler into an rgba8 image: 12 evaluated, the 6 point-sampled ones wrong" \
    grep -q "12 evaluated (0 from the database), 6 failed" "$T/i2"
wrong=$(sql "$T/r.db" "SELECT group_concat(DISTINCT status) FROM results WHERE kernel =
    'downsample_sampled' AND config LIKE '%POINT=1'")
check "and exactly the POINT=1 ones ($wrong)" [ "$wrong" = "wrong" ]
# shellcheck disable=SC2086
"$BIN" --space "$D/texel_dot.ini" $RUN --no-race >"$T/t1" 2>"$T/t1e"
check "texel buffers (uniform rgba16f; storage rgba8ui, r32f): 16 evaluated, 12 (SHIFT=1 or OVER=1) failed" \
    grep -q "16 evaluated (0 from the database), 12 failed" "$T/t1"
statuses=$(sql "$T/r.db" "SELECT group_concat(s, ' ') FROM (SELECT DISTINCT (CASE WHEN config LIKE '%SHIFT=1%'
    THEN 'S' ELSE '' END) || (CASE WHEN config LIKE '%OVER=1' THEN 'O' ELSE '' END) || ':' || status AS s
    FROM results WHERE kernel = 'texel_dot' ORDER BY s)")
check "SHIFT=1 reads wrong values, OVER=1 writes past the end, the rest are right ($statuses)" \
    [ "$statuses" = ":ok O:canary S:wrong SO:canary" ]
reason=$(sql "$T/r.db" "SELECT reason FROM results WHERE kernel = 'texel_dot' AND status = 'wrong' LIMIT 1")
check "the reason names the texel buffer and the texel ($reason)" \
    sh -c 'echo "$1" | grep -q "^texel buffer .dst.: .*; element [0-9]* is texel [0-9]*, component 0$"' - "$reason"
reason=$(sql "$T/r.db" "SELECT reason FROM results WHERE kernel = 'texel_dot' AND status = 'canary' LIMIT 1")
check "an overrun lands in the output's guard, inside the view ($reason)" \
    sh -c 'echo "$1" | grep -q "^wrote past the end of buffer .dst."' - "$reason"
# shellcheck disable=SC2086
"$BIN" --space "$D/texel_passes.ini" $RUN --no-race >"$T/t3" 2>"$T/t3e"
check "two passes through a scratch texel buffer (bind.N): 4 evaluated, the 2 with ADD=2 failed" \
    grep -q "4 evaluated (0 from the database), 2 failed" "$T/t3"
wrong=$(sql "$T/r.db" "SELECT group_concat(DISTINCT status) FROM results WHERE kernel = 'texel_passes' AND
    config LIKE 'ADD=2%'")
check "and exactly the ADD=2 ones ($wrong)" [ "$wrong" = "wrong" ]
# shellcheck disable=SC2086
"$BIN" --space "$D/texel_dot.ini" $RUN --db "$T/t.db" --no-race --check-on gpu >"$T/t2" 2>"$T/t2e"
check "and compared on the device (the texel buffer's data bound as a storage buffer): the same 12 failed" \
    grep -q "16 evaluated (0 from the database), 12 failed" "$T/t2"

"$BIN" export --space "$D/matmul_spec.ini" --space "$D/matmul_push.ini" --space "$D/affine_ubo.ini" \
    --space "$D/axpy_sets.ini" --space "$D/downsample_sampled.ini" --space "$D/texel_dot.ini" --db "$T/r.db" \
    -o "$T/out" --header k.h \
    >"$T/e" 2>"$T/ee"
check "export (exit $?)" [ -f "$T/out/manifest.json" ]
python3 - "$T/out/manifest.json" >"$T/py" 2>&1 <<'PY'
import json, sys
m = json.load(open(sys.argv[1]))["kernels"]
spec = [k for k in m if k["kernel"] == "matmul_spec"]
push = [k for k in m if k["kernel"] == "matmul_push"]
assert spec and push, "both kernels exported"
for k in spec:
    assert k["problem_binding"] == {"M": "spec", "N": "spec", "K": "spec"}, k["problem_binding"]
    sizes = {c["name"]: c for c in k["specialization_constants"] if c.get("problem")}
    assert sorted(sizes) == ["K", "M", "N"], sizes
    assert all(sizes[n]["value"] == k["problem"][n] for n in sizes), (sizes, k["problem"])
    assert k["compiled_problem"] == [], k["compiled_problem"]
ubo = [k for k in m if k["kernel"] == "affine_ubo"]
assert ubo, "the uniform-buffer kernel exported"
for k in ubo:
    kinds = [b["descriptor_type"] for b in k["bindings"]]
    assert kinds == ["uniform_buffer", "storage_buffer", "storage_buffer"], kinds
sets = [k for k in m if k["kernel"] == "axpy_sets"]
assert sets, "the placed kernel exported"
for k in sets:
    slots = {b["name"]: (b["set"], b["binding"]) for b in k["bindings"]}
    assert slots == {"Y": (1, 0), "X": (0, 2), "Z": (0, 5)}, slots
images = [k for k in m if k["kernel"] == "downsample_sampled"]
assert images and all("POINT=0" in k["config"] for k in images), [k["config"] for k in images]
for k in images:
    b = {x["name"]: x for x in k["bindings"]}
    assert b["src"]["descriptor_type"] == "combined_image_sampler", b["src"]
    assert b["dst"]["descriptor_type"] == "storage_image", b["dst"]
    assert b["src"]["image_format"] == "rgba8" and b["src"]["image_extent"] == [64, 38, 1], b["src"]
    assert b["dst"]["image_extent"] == [32, 19, 1] and b["dst"]["elements"] == 32 * 19 * 4, b["dst"]
texels = [k for k in m if k["kernel"] == "texel_dot"]
assert texels and all("SHIFT=0" in k["config"] and "OVER=0" in k["config"] for k in texels), texels
for k in texels:
    b = {x["name"]: x for x in k["bindings"]}
    kinds = [(b[n]["descriptor_type"], b[n]["image_format"], b[n]["elements"]) for n in ("src", "w", "dst")]
    assert kinds == [("uniform_texel_buffer", "rgba16f", 4000), ("storage_texel_buffer", "rgba8ui", 4000),
                     ("storage_texel_buffer", "r32f", 1000)], kinds
for k in push:
    assert k["problem_binding"]["M"] == "push"
    assert k["parameters"]["VEC"]["value"] in ("float", "vec2", "vec4"), k["parameters"]["VEC"]
    assert ("VEC=" + k["parameters"]["VEC"]["value"]) in k["config"]
PY
check "manifest: bindings, problem spec constants, text value ($(tail -n 1 "$T/py"))" [ ! -s "$T/py" ]
check "header lists M as problem size 1 of its spec constants" grep -q '{0, [0-9]*u, "M", 1}' "$T/out/k.h"
check "header marks src a 2D rgba8 image (VkFormat 37) read through a sampler, with its extent" \
    grep -q '{0, "src", "unorm8", 1, VKAT_RT_IN, .*, 0, 0u, "rgba8", 1, 0, 37u, 2u, {.*}, {[0-9]*u, [0-9]*u, 1u}},' \
    "$T/out/k.h"
check "header marks src a uniform texel buffer of rgba16f (VkFormat 97)" \
    grep -q '{0, "src", "float16", 2, VKAT_RT_IN, .*, 4000u, 1, 0u, "rgba16f", 0, 1, 97u},' "$T/out/k.h"
check "header puts Y in set 1 (binding 0)" grep -q '{0, "Y", "float32", 4, VKAT_RT_IN, .*, 0, 1u},' "$T/out/k.h"
finish
