#!/bin/sh
# sequence_e2e.sh — variants that are sequences of dispatches, from tuning to the runtime library, on whatever
# device the loader offers (lavapipe in CI): tune tests/data/sequence's multi-pass reduction (its pass count
# depends on N and the block size; N = 100000 takes 3 passes even at B = 64), its ping-pong form (passes that bind
# other buffers) and split-K GEMM (a reduce pass with its own shader), export each with
# --header, check the manifest's passes against the winning configuration, and replay the sequence through the
# runtime library (tests/runtime/sequence_runtime.c), whose result must match the CPU's. The database-only export
# (no Vulkan) must compile the same modules.
#   sh sequence_e2e.sh VKAUTOTUNE SOURCE_DIR RUNTIME_LIB CC VULKAN_INCLUDE_DIR
set -u
BIN=$1 SRC=$2 RTLIB=$3 CC=$4 VKINC=$5
T=$(mktemp -d "${TMPDIR:-/tmp}/vkat-seq.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT INT TERM
failed=0
fail() { echo "FAIL: $*"; failed=1; }

if ! "$BIN" devices >/dev/null 2>&1; then
    echo "SKIPPED: no Vulkan device (install mesa-vulkan-drivers for lavapipe)"
    exit 77
fi
for name in reduce pingpong splitk; do
    case $name in
    reduce) kernel=reduce_passes problem=N=100000 ;;
    pingpong) kernel=reduce_pingpong problem=N=100000 ;;
    *) kernel=gemm_splitk problem=M=32,N=24,K=64 ;;
    esac
    "$BIN" --space "$SRC/tests/data/sequence/$name.ini" --problem $problem --db "$T/t.db" -q --warmup 0.01 --repetitions 3 \
        >"$T/$name.tune" 2>&1 || { cat "$T/$name.tune"; fail "tune $name"; continue; }
    "$BIN" export --db "$T/t.db" --space "$SRC/tests/data/sequence/$name.ini" -o "$T/$name" --header "${name}_k.h" \
        2>"$T/$name.err" || { cat "$T/$name.err"; fail "export $name"; continue; }
    # The manifest: version 2, one entry per dispatch the tuner ran, module files that exist.
    python3 - "$T/$name/manifest.json" "$name" <<'PY' || fail "$name: manifest"
import json, math, os, sys
m = json.load(open(sys.argv[1]))
k = m["kernels"][0]
assert m["version"] == 2, m["version"]
passes = k["passes"]
cfg = dict(kv.split("=") for kv in k["config"].split(","))
for p in passes:
    path = os.path.join(os.path.dirname(sys.argv[1]), p["spirv"])
    assert os.path.getsize(path) == p["spirv_size_bytes"], p
if sys.argv[2] == "reduce":
    b, n = int(cfg["B"]), k["problem"]["N"]
    want = 0
    while b ** want < n:
        want += 1
    assert len(passes) == want, (len(passes), want, cfg)
    for i, p in enumerate(passes):
        spec = {s["id"]: s["value"] for s in p["specialization_constants"]}
        assert spec == {0: b, 1: b ** i}, (i, spec)
        assert p["workgroup_count"][0] == -(-n // b ** (i + 1)), p
        assert p["local_size"] == [b, 1, 1], p
        assert p["pass"] == "reduce" and p["index"] == i
elif sys.argv[2] == "pingpong":
    b, n = int(cfg["B"]), k["problem"]["N"]
    assert len(passes) >= 2, passes
    assert passes[0]["buffers"][:2] == ["X", "P"], passes[0]
    assert passes[-1]["buffers"][1] == "Y", passes[-1]
    for i, p in enumerate(passes[1:-1], 1):
        assert p["buffers"][:2] == (["P", "Q"] if i % 2 else ["Q", "P"]), (i, p["buffers"])
else:
    assert [p["pass"] for p in passes] == ["partial", "reduce"], passes
    assert all(p["buffers"] == ["A", "B", "C", "P"] for p in passes), passes
    assert passes[0]["spirv"] != passes[1]["spirv"]
    assert passes[0]["workgroup_count"][2] == int(cfg["SPLIT"]), passes[0]
    assert [b["direction"] for b in k["bindings"]] == ["in", "in", "out", "scratch"], k["bindings"]
print("%s: manifest ok (%s, %d passes)" % (sys.argv[2], k["config"], len(passes)))
PY
    "$CC" -std=c99 -O2 -Wall -Wextra -Wshadow -Wstrict-prototypes -Wno-missing-field-initializers -Werror \
        -DVKAT_KERNELS_HEADER="\"${name}_k.h\"" -DVKAT_KERNELS_TABLE="${name}_k" -I"$SRC/runtime" -I"$VKINC" \
        -I"$T/$name" -o "$T/$name.run" "$SRC/tests/runtime/sequence_runtime.c" "$RTLIB" -ldl -lm \
        2>"$T/$name.cc" || { cat "$T/$name.cc"; fail "$name: building the driver"; continue; }
    "$T/$name.run" "$kernel" >"$T/$name.out" 2>&1
    rc=$?
    cat "$T/$name.out"
    [ $rc -eq 0 ] && grep -q '^check: ok' "$T/$name.out" || fail "$name: the runtime's replay is wrong (exit $rc)"
    # From the database alone: the same modules as the export with the device (both write the measured bytes).
    VK_ICD_FILENAMES=/nonexistent VK_DRIVER_FILES=/nonexistent "$BIN" export --db "$T/t.db" \
        --space "$SRC/tests/data/sequence/$name.ini" --all-devices-in-db -o "$T/$name-absent" 2>"$T/$name.abs" \
        || { cat "$T/$name.abs"; fail "$name: export without Vulkan"; }
    for spv in "$T/$name"/*.spv; do
        cmp -s "$spv" "$T/$name-absent/${spv##*/}" || fail "$name: ${spv##*/} differs in the export without Vulkan"
    done
done
[ $failed -eq 0 ] && echo "sequence_e2e: ok"
exit $failed
