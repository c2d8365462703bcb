#!/bin/sh
# gemm_verify.sh — bench/gemm_verify end to end on whatever device the loader offers (lavapipe in CI):
#   - spaces/gemm.ini tuned at its [problem.cpu] size, exported, run again from the manifest: the fp64 check passes
#     and the JSON line says so;
#   - the check bites: the same export with a wrong problem claim (BT=1), or a push constant that skips one of K
#     products, exits 1;
#   - an fp16-input GEMM (tests/data/verify/hgemm.ini: shaderFloat16 and 16-bit storage, both B layouts, a
#     specialization constant) passes, each layout picked with --problem;
#   - an int8-input GEMM with an int32 C (tests/data/verify/igemm.ini) passes, compared exactly, in both layouts;
#     one product short or a wrong layout claim fails, and mixed float/integer operands are refused;
#   - a two-pass split-K GEMM (tests/data/sequence/splitk.ini, manifest version 2) runs whole: its reduce pass
#     left out or cut short fails the check, and a pass that rebinds buffers is refused;
#   - a manifest that is not one, a kernel it lacks, exit 2; a requirement the device lacks, exit 3 "skipped: ...".
#   sh gemm_verify.sh VKAUTOTUNE SOURCE_DIR GEMM_VERIFY
set -u
[ $# -eq 3 ] || { echo "usage: $0 VKAUTOTUNE SOURCE_DIR GEMM_VERIFY" >&2; exit 2; }
VERIFY=$3
set -- "$1" "$2"
. "$(dirname "$0")/../cli/lib/common.sh" "$@"
need_device
need_python "to edit manifests"
TUNE="--warmup 0.01 --repetitions 3 --seed 1 -q"
RUN="--warmup 0.01 --repetitions 5"

# run NAME EXPECTED_EXIT ARGS...: runs gemm_verify into $T/NAME.out and checks its exit status.
run() {
    name=$1 want=$2
    shift 2
    "$VERIFY" "$@" >"$T/$name.out" 2>&1
    rc=$?
    if [ $rc -eq "$want" ]; then ok "$name (exit $rc)"; else fail "$name" "exit $rc, expected $want"; sed 's/^/  | /' "$T/$name.out"; fi
}

# edit SRC DST PYTHON: copies export SRC to DST and applies PYTHON to the manifest's first entry `e`.
edit() {
    rm -rf "$2" && cp -r "$1" "$2" && python3 - "$2/manifest.json" "$3" <<'PY'
import json, sys
path, code = sys.argv[1], sys.argv[2]
m = json.load(open(path))
e = m["kernels"][0]
exec(code)
json.dump(m, open(path, "w"))
PY
}

# tune_export_both_layouts NAME TAG BUDGET: tunes tests/data/verify/NAME.ini at BT=0 and BT=1 into $T/TAG.db and
# exports both winners into $T/TAG.
tune_export_both_layouts() {
    for bt in 0 1; do
        "$BIN" "$SRC/tests/data/verify/$1.comp.in" --space "$SRC/tests/data/verify/$1.ini" --problem BT=$bt \
            --budget "$3" --db "$T/$2.db" $TUNE >"$T/$2tune.out" 2>&1 ||
            { sed 's/^/  | /' "$T/$2tune.out"; fail "tune $1 BT=$bt" "exit $?"; }
    done
    "$BIN" export --db "$T/$2.db" --space "$SRC/tests/data/verify/$1.ini" -o "$T/$2" -q 2>"$T/$2export.err" \
        || { cat "$T/$2export.err"; fail "export $1" "exit $?"; }
}

# ---- fp32: tune, export, verify --------------------------------------------------------------------------------
"$BIN" "$SRC/shaders/gemm.comp.in" --space "$SRC/spaces/gemm.ini" --budget 3 --db "$T/g.db" $TUNE >"$T/tune.out" 2>&1 \
    || { sed 's/^/  | /' "$T/tune.out"; fail "tune spaces/gemm.ini" "exit $?"; finish; exit 1; }
"$BIN" export --db "$T/g.db" --space "$SRC/spaces/gemm.ini" -o "$T/g" -q 2>"$T/export.err" \
    || { cat "$T/export.err"; fail "export" "exit $?"; finish; exit 1; }
run sgemm_ok 0 "$T/g" sgemm $RUN --json "$T/g.json"
check "the [problem.cpu] size" grep -q '^problem: M=256,N=256,K=256 BT=0; A float32, B float32, C float32' "$T/sgemm_ok.out"
check "check line" grep -q '^check: ok: max rel err .* (tolerance 1e-05) over 4100 sampled elements' "$T/sgemm_ok.out"
check "time line" grep -q '^time: median [0-9.]* ms, min [0-9.]* ms over 5 samples' "$T/sgemm_ok.out"
check "JSON line" python3 -c '
import json, sys
r = json.loads(open(sys.argv[1]).read().splitlines()[-1])
assert r["ok"] is True and r["kernel"] == "sgemm" and r["problem"] == {"M": 256, "N": 256, "K": 256}, r
assert r["median_ms"] > 0 and r["min_ms"] <= r["median_ms"] and r["tflops"] > 0 and r["samples"] == 5, r
assert 0 <= r["max_rel_err"] <= 1e-5 and r["checked"] == 4100, r' "$T/g.json"

# ---- the check bites -------------------------------------------------------------------------------------------
edit "$T/g" "$T/bt" 'e["problem"]["BT"] = 1'
run wrong_layout_claim 1 "$T/bt" sgemm --repetitions 0
check "a wrong result says WRONG" grep -q '^check: WRONG' "$T/wrong_layout_claim.out"
edit "$T/g" "$T/k" '[p.update(value=p["value"] - 1) for p in e["push_constants"] if p["name"] == "k"]'
run one_product_short 1 "$T/k" sgemm --repetitions 0 --json "$T/k.json"
check "JSON line of a wrong result" grep -q '"ok":false' "$T/k.json"

# ---- errors ----------------------------------------------------------------------------------------------------
run missing_kernel 2 "$T/g" no_such_kernel
check "missing kernel message" grep -q "no kernel 'no_such_kernel' (it has: sgemm)" "$T/missing_kernel.out"
edit "$T/g" "$T/fmt" 'm["format"] = "something-else"'
run bad_manifest 2 "$T/fmt" sgemm
check "bad manifest message" grep -q 'manifest.json: not a vkautotune manifest' "$T/bad_manifest.out"
edit "$T/g" "$T/nob" 'del e["bindings"]'
run manifest_without_bindings 2 "$T/nob" sgemm
run no_manifest 2 "$T/nowhere" sgemm
edit "$T/g" "$T/cm" 'e["requires"] = {"extensions": ["VK_KHR_cooperative_matrix"], "features": ["cooperativeMatrix"]}'
if "$BIN" devices 2>/dev/null | grep -q VK_KHR_cooperative_matrix; then
    echo "skip: missing-feature exit (this device has cooperative matrices)"
else
    run missing_feature 3 "$T/cm" sgemm
    check "skipped line" grep -q '^skipped: .*VK_KHR_cooperative_matrix' "$T/missing_feature.out"
fi

# ---- fp16 inputs, both layouts ---------------------------------------------------------------------------------
tune_export_both_layouts hgemm h 3
check "hgemm requires fp16 features" python3 -c '
import json, sys
for e in json.load(open(sys.argv[1]))["kernels"]:
    assert set(e["requires"]["features"]) == {"shaderFloat16", "storageBuffer16BitAccess"}, e["requires"]
    assert e["specialization_constants"] and e["push_constants"], e' "$T/h/manifest.json"
for bt in 0 1; do
    run hgemm_bt$bt 0 "$T/h" hgemm --problem BT=$bt $RUN
    check "hgemm BT=$bt: fp16 inputs, 16-bit tolerance" grep -q "^problem: M=64,N=48,K=96 BT=$bt; A float16, B float16" "$T/hgemm_bt$bt.out"
done
edit "$T/h" "$T/hbt" 'e["problem"]["BT"] = 1 - e["problem"]["BT"]'
run hgemm_wrong_layout_claim 1 "$T/hbt" hgemm --problem M=64 --repetitions 0

# ---- int8 inputs, exact int32 C, both layouts ------------------------------------------------------------------
tune_export_both_layouts igemm i 2
for bt in 0 1; do
    run igemm_bt$bt 0 "$T/i" igemm --problem BT=$bt $RUN
    check "igemm BT=$bt: int8 inputs" grep -q "^problem: M=64,N=48,K=96 BT=$bt; A int8, B int8, C int32" "$T/igemm_bt$bt.out"
    check "igemm BT=$bt: compared exactly" grep -q '^check: ok: max rel err 0 (tolerance 0) over 4100 sampled elements' "$T/igemm_bt$bt.out"
    check "igemm BT=$bt: TOPS" grep -q '^time: .*[0-9] TOPS' "$T/igemm_bt$bt.out"
done
# one product of 96 short: a relative error of about 1/96, which a float tolerance of 1e-3 would not even need
edit "$T/i" "$T/ik" '[p.update(value=p["value"] - 1) for p in e["push_constants"] if p["name"] == "k"]'
run igemm_one_product_short 1 "$T/ik" igemm --problem BT=0 --repetitions 0
edit "$T/i" "$T/ibt" 'e["problem"]["BT"] = 1 - e["problem"]["BT"]'
run igemm_wrong_layout_claim 1 "$T/ibt" igemm --problem M=64 --repetitions 0
# a mixed GEMM is refused, not compared
edit "$T/i" "$T/imix" '[b.update(type="float32") for b in e["bindings"] if b["name"] == "C"]'
run igemm_mixed_types 2 "$T/imix" igemm --problem BT=0
check "mixed types message" grep -q 'A, B and C must be all floating-point or all integer' "$T/igemm_mixed_types.out"
# ---- a sequence: split K and its reduce pass (manifest version 2) ----------------------------------------------
"$BIN" "$SRC/tests/data/sequence/splitk_partial.comp" --space "$SRC/tests/data/sequence/splitk.ini" --budget 1 \
    --start SPLIT=4,TILE=4 --db "$T/sk.db" $TUNE >"$T/sktune.out" 2>&1 || { sed 's/^/  | /' "$T/sktune.out"; fail "tune splitk" "exit $?"; }
"$BIN" export --db "$T/sk.db" --space "$SRC/tests/data/sequence/splitk.ini" -o "$T/sk" -q 2>"$T/skexport.err" \
    || { cat "$T/skexport.err"; fail "export splitk" "exit $?"; }
check "the split-K export is a version-2 manifest of two passes" python3 -c '
import json, sys
m = json.load(open(sys.argv[1]))
assert m["version"] == 2 and [p["pass"] for p in m["kernels"][0]["passes"]] == ["partial", "reduce"], m' "$T/sk/manifest.json"
run splitk_ok 0 "$T/sk" gemm_splitk $RUN
check "splitk: both passes' groups" grep -q '^problem: M=32,N=24,K=64 BT=0; .*; groups 6 x 8 x 4 (partial), 12 x 1 x 1 (reduce)$' "$T/splitk_ok.out"
check "splitk: checked" grep -q '^check: ok: ' "$T/splitk_ok.out"
check "splitk: timed per sequence" grep -q '^time: .* of the 2-pass sequence; ' "$T/splitk_ok.out"
edit "$T/sk" "$T/sk1" 'e["passes"] = e["passes"][:1]'
run splitk_without_reduce 1 "$T/sk1" gemm_splitk --repetitions 0
edit "$T/sk" "$T/skh" 'e["passes"][1]["workgroup_count"][0] //= 2'
run splitk_reduce_cut_short 1 "$T/skh" gemm_splitk --repetitions 0
edit "$T/sk" "$T/skb" 'e["passes"][1]["buffers"] = ["A", "B", "P", "C"]'
run splitk_rebinding_pass 2 "$T/skb" gemm_splitk
check "rebinding message" grep -q "passes\[1\] ('reduce'): binding 2 holds buffer 'P', not its own 'C'" "$T/splitk_rebinding_pass.out"
finish
