#!/bin/sh
# example_e2e.sh — the exported GEMM through the runtime library, on whatever device the loader offers (lavapipe
# in CI): tune spaces/gemm.ini on a tiny problem, export with --header (and again without any Vulkan device, from
# the database alone, which must give the same SPIR-V), build examples/gemm_runtime.c against the generated header
# and the runtime library of this build, and run it: its result must match the CPU GEMM, for the tuned problem
# and for another size through the exported formulas; a size the variant cannot run must be refused. And the sizes
# a module compiles in are found and held: none for gemm (push constants), H and DT for softmax (#defines), not the
# cache length for decode.
#   sh example_e2e.sh VKAUTOTUNE SOURCE_DIR RUNTIME_LIB CC VULKAN_INCLUDE_DIR
set -u
BIN=$1 SRC=$2 RTLIB=$3 CC=$4 VKINC=$5
T=$(mktemp -d "${TMPDIR:-/tmp}/vkat-rt.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT INT TERM
failed=0
fail() { echo "FAIL: $*"; failed=1; }

if ! "$BIN" devices >/dev/null 2>&1; then
    echo "SKIPPED: no Vulkan device (install mesa-vulkan-drivers for lavapipe)"
    exit 77
fi
"$BIN" "$SRC/shaders/gemm.comp.in" --space "$SRC/spaces/gemm.ini" --problem M=64,N=64,K=64 --budget 4 \
    --db "$T/t.db" -q --warmup 0.01 --repetitions 3 >"$T/tune.out" 2>&1 || { cat "$T/tune.out"; fail "tune"; exit 1; }

"$BIN" export --db "$T/t.db" --space "$SRC/spaces/gemm.ini" -o "$T/out" --header gemm_kernels.h 2>"$T/export.err" \
    || { cat "$T/export.err"; fail "export --header"; exit 1; }
[ -f "$T/out/gemm_kernels.h" ] && [ -f "$T/out/manifest.json" ] || fail "export wrote no header or manifest"
grep -q 'static const vkat_rt_table gemm_kernels = ' "$T/out/gemm_kernels.h" || fail "no table in the header"
# gemm.comp.in reads M, N, K from push constants: no size is compiled in, so the runtime may run other sizes.
compiled() {  # the first kernel's compiled_problem, comma-separated
    python3 -c 'import json, sys; print(",".join(json.load(open(sys.argv[1]))["kernels"][0]["compiled_problem"]))' "$1"
}
c=$(compiled "$T/out/manifest.json")
[ -z "$c" ] || fail "gemm: sizes listed as compiled in: $c"
# softmax.comp.in reads H and DT as #defines (not ROWS): the export finds that out by compiling again, lists them,
# and the header's conditions hold those sizes to their tuned values.
"$BIN" "$SRC/shaders/softmax.comp.in" --space "$SRC/spaces/softmax_f32.ini" --budget 2 --db "$T/t.db" -q \
    --warmup 0.01 --repetitions 2 >"$T/sm.out" 2>&1 || { cat "$T/sm.out"; fail "tune softmax"; }
"$BIN" export --db "$T/t.db" --space "$SRC/spaces/softmax_f32.ini" -o "$T/sm" --header sm.h -q 2>"$T/sm.err" \
    || { cat "$T/sm.err"; fail "export softmax"; }
c=$(compiled "$T/sm/manifest.json")
[ "$c" = "H,DT" ] || fail "softmax: compiled in: '$c', not H,DT"
grep -q '"H is compiled in"' "$T/sm/sm.h" && grep -q '"DT is compiled in"' "$T/sm/sm.h" \
    || fail "softmax: no condition holding H and DT"
grep -q '"ROWS is compiled in"' "$T/sm/sm.h" && fail "softmax: ROWS held though the module does not read it"
# Decode takes its cache length as a push constant: L, B and HKV stay free, and every constraint has a formula.
"$BIN" "$SRC/shaders/attention_decode.comp.in" --space "$SRC/spaces/attention_decode_f32.ini" --budget 1 \
    --db "$T/t.db" -q --warmup 0.01 --repetitions 2 >"$T/dec.out" 2>&1 || { cat "$T/dec.out"; fail "tune decode"; }
"$BIN" export --db "$T/t.db" --space "$SRC/spaces/attention_decode_f32.ini" -o "$T/dec" --header dec.h 2>"$T/dec.err" \
    || { cat "$T/dec.err"; fail "export decode"; }
c=$(compiled "$T/dec/manifest.json")
[ "$c" = "G,S,D,DT" ] || fail "decode: compiled in: '$c', not G,S,D,DT"
if grep -q "runs only its tuned problem" "$T/dec.err"; then
    cat "$T/dec.err"
    fail "decode: a constraint without a formula"
fi

# Without a device the variant comes from the database row and its stored module: same words, same hash.
VK_ICD_FILENAMES=/nonexistent VK_DRIVER_FILES=/nonexistent "$BIN" export --db "$T/t.db" \
    --space "$SRC/spaces/gemm.ini" --all-devices-in-db -o "$T/absent" --header gemm_kernels.h 2>"$T/absent.err" \
    || { cat "$T/absent.err"; fail "export --all-devices-in-db without Vulkan"; }
grep -q 'device_type = "unknown"' "$T/absent/gemm_kernels.h" || fail "the absent-device export did not come from the database"
h1=$(grep -o 'spirv_hash = "[0-9a-f]*"' "$T/out/gemm_kernels.h")
h2=$(grep -o 'spirv_hash = "[0-9a-f]*"' "$T/absent/gemm_kernels.h")
[ -n "$h1" ] && [ "$h1" = "$h2" ] || fail "SPIR-V hashes differ: '$h1' and '$h2'"
cmp -s "$T/out/manifest.json" "$T/absent/manifest.json" && fail "manifests should differ in device_type"

"$CC" -std=c99 -O2 -Wall -Wextra -Wshadow -Wstrict-prototypes -Wno-missing-field-initializers -Werror \
    -I"$SRC/runtime" -I"$VKINC" -I"$T/out" -o "$T/gemm_runtime" "$SRC/examples/gemm_runtime.c" "$RTLIB" -ldl -lm \
    2>"$T/cc.err" || { cat "$T/cc.err"; fail "building the example"; exit 1; }

"$T/gemm_runtime" --repetitions 5 --warmup 0.01 >"$T/run.out" 2>&1
rc=$?
cat "$T/run.out"
[ $rc -eq 0 ] || fail "the example exited $rc"
grep -q '^check: ok' "$T/run.out" || fail "the example's result is wrong"
grep -q 'match: exact' "$T/run.out" || fail "the variant was not an exact match for this device"
grep -q 'tuner recorded median [0-9.]* ms' "$T/run.out" || fail "no tuner median next to the measured one"

# Another size through the formulas (groups, buffer sizes, push constants), and one the conditions refuse.
"$T/gemm_runtime" --problem 128,192,64 --repetitions 3 --warmup 0 >"$T/run2.out" 2>&1 || fail "--problem 128,192,64 exited $?"
grep -q '^check: ok' "$T/run2.out" || { cat "$T/run2.out"; fail "wrong result for 128x192x64"; }
"$T/gemm_runtime" --problem 100,64,64 >"$T/run3.out" 2>&1
rc=$?
[ $rc -eq 3 ] || { cat "$T/run3.out"; fail "a size no variant can run: exit $rc, expected 3"; }

[ $failed -eq 0 ] && echo "example_e2e: ok"
exit $failed
