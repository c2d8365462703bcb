#!/bin/sh
# runtime_tune.sh — what the runtime tuner (vkautotune_runtime_tune.h) buys on a device whose own tuning it never
# saw, in one call (issue 24). Candidates come from another problem's tuning: tune spaces/gemm.ini at SMALL, export
# its winner plus candidates (--candidates N); then tune the real problem REAL on the same device for its own winner.
# examples/gemm_runtime, built once against each header, then runs REAL:
#   1. candidates header, fresh cache: the tuner measures every candidate (first launch);
#   2. the same again: the pick comes from the cache;
#   3. the device's own winner's header: the tuner times that one variant, with the same timing code.
# Reported: the first launch's tuning time, the cached launch's, and the fraction of the own winner's speed (its
# median over theirs) that the tuner's pick and the tier fallback reach (vkat_rt_select's pick: the SMALL winner,
# or with CAND_DEVICE another device's variant by the vendor or generic tier).
#
#   sh bench/runtime_tune.sh            (from the repository root, after building ./build)
# Environment (defaults for the H200; tests/bench runs it on lavapipe with tiny sizes):
#   SMALL=256 REAL=2048 (M=N=K), BUDGET_SMALL=100 BUDGET_REAL=300 (the H200 tunes gemm.ini at ~28 variants/s,
#   records/h200/run-a/throughput.md), CANDIDATES=6, TIME_LIMIT=20 (s, for the first launch's tuning),
#   BUILD=build, OUT=out/runtime_tune (bench/ keeps programs only), CC=cc;
#   CAND_DEVICE: `vkautotune --device` for the SMALL tuning and its export (default: the default device), e.g. the
#   index of lavapipe to take the candidates from another device; RUN_DEVICE: the device index for the REAL tuning
#   and the example's runs (set it with CAND_DEVICE: the example otherwise runs on the device its table matches best)
set -eu
SMALL=${SMALL:-256} REAL=${REAL:-2048} BUDGET_SMALL=${BUDGET_SMALL:-100} BUDGET_REAL=${BUDGET_REAL:-300}
CANDIDATES=${CANDIDATES:-6} TIME_LIMIT=${TIME_LIMIT:-20} BUILD=${BUILD:-build} OUT=${OUT:-out/runtime_tune}
CC=${CC:-cc}
B=$BUILD/vkautotune
RTLIB=$BUILD/runtime/libvkautotune-runtime.a
VKINC=$(sed -n 's/^VKAT_VULKAN_INCLUDE_DIR:[A-Z]*=//p' "$BUILD/CMakeCache.txt")
[ -x "$B" ] && [ -f "$RTLIB" ] || { echo "runtime_tune.sh: build $BUILD first" >&2; exit 2; }
mkdir -p "$OUT"
W=$(mktemp -d "${TMPDIR:-/tmp}/vkat-rtb.XXXXXX")
trap 'rm -rf "$W"' EXIT INT TERM
p() { echo "M=$1,N=$1,K=$1"; }
CAND_OPT= RUN_OPT=
[ -n "${CAND_DEVICE:-}" ] && CAND_OPT="--device $CAND_DEVICE"
[ -n "${RUN_DEVICE:-}" ] && RUN_OPT="--device $RUN_DEVICE"

t0=$(date +%s)
# shellcheck disable=SC2086 # the options split at spaces
"$B" shaders/gemm.comp.in --space spaces/gemm.ini --problem "$(p "$SMALL")" --budget "$BUDGET_SMALL" $CAND_OPT \
    --db "$W/small.db" -q >"$OUT/tune-small.txt" 2>&1
# shellcheck disable=SC2086
"$B" shaders/gemm.comp.in --space spaces/gemm.ini --problem "$(p "$REAL")" --budget "$BUDGET_REAL" $RUN_OPT \
    --db "$W/real.db" -q >"$OUT/tune-real.txt" 2>&1
# shellcheck disable=SC2086
"$B" export --db "$W/small.db" --space spaces/gemm.ini -o "$W/cand" --header cand.h --candidates "$CANDIDATES" \
    $CAND_OPT -q
# shellcheck disable=SC2086
"$B" export --db "$W/real.db" --space spaces/gemm.ini -o "$W/own" --header own.h --candidates 0 $RUN_OPT -q
cp "$W/cand/manifest.json" "$OUT/candidates-manifest.json"
for t in cand own; do
    "$CC" -std=c99 -O2 -I runtime -I "$VKINC" -I "$W/$t" -DVKAT_KERNELS_HEADER="\"$t.h\"" -DVKAT_KERNELS_TABLE=$t \
        -o "$W/app-$t" examples/gemm_runtime.c "$RTLIB" -ldl -lm
done
t1=$(date +%s)
run() {
    # shellcheck disable=SC2086
    "$W/app-$1" --problem "$REAL,$REAL,$REAL" --tune "$W/$2" --time-limit "$TIME_LIMIT" --repetitions 10 \
        --warmup 0.1 $RUN_OPT
}
run cand cache >"$OUT/first-launch.txt" 2>&1
run cand cache >"$OUT/second-launch.txt" 2>&1
run own own-cache >"$OUT/own-winner.txt" 2>&1
t2=$(date +%s)

# The figures, from the example's "tuned:" and "candidate:" lines.
python3 - "$OUT" "$SMALL" "$REAL" "$CANDIDATES" "$((t1 - t0))" "$((t2 - t1))" <<'PY'
import re, sys
out, small, real, ncand, setup_s, run_s = sys.argv[1:]
def read(name):
    text = open(f"{out}/{name}").read()
    tuned = re.search(r"^tuned: (measured|from the cache) in ([0-9.]+) s", text, re.M)
    cands = re.findall(r"^candidate: (\S+)( \[fallback\])?( \[pick\])?: (.*?), median ([0-9.]+) ms", text, re.M)
    check = re.search(r"^check: (\S+)", text, re.M)
    if not tuned or not check:
        sys.exit(f"runtime_tune.sh: {out}/{name} lacks the tuned: or check: line:\n{text}")
    return tuned, cands, check.group(1), text
t1, c1, ok1, text1 = read("first-launch.txt")
device = re.search(r"^device: (.*)$", text1, re.M).group(1)
cand_device = re.search(r"tuned on (.*?), driver", text1).group(1)
t2, _, ok2, _ = read("second-launch.txt")
t3, c3, ok3, _ = read("own-winner.txt")
pick = [c for c in c1 if c[2]]
fallback = [c for c in c1 if c[1]]
own = [c for c in c3 if c[3] == "ok"]
if not pick or not fallback or not own:
    sys.exit("runtime_tune.sh: no pick, fallback or own-winner timing in the example's output")
pm, fm, om = float(pick[0][4]), float(fallback[0][4]), float(own[0][4])
lines = [
    f"# Runtime tuning (issue 24): gemm.ini, candidates from M=N=K={small}, run at M=N=K={real}",
    f"device: {device}; candidates tuned on: {cand_device}",
    f"candidates measured on the first launch: {len(c1)} ({sum(1 for c in c1 if c[3] == 'ok')} correct; "
    f"--candidates {ncand})",
    f"first launch, tuning:       {float(t1.group(2)):.3f} s ({t1.group(1)})",
    f"second launch, tuning:      {float(t2.group(2)):.4f} s ({t2.group(1)})",
    f"own winner (tuned at {real}): {om:.4f} ms  {own[0][0]}",
    f"runtime tuner's pick:       {pm:.4f} ms  {pick[0][0]}  = {om / pm:.3f} of the own winner's speed",
    f"tier fallback (selection): {fm:.4f} ms  {fallback[0][0]}  = {om / fm:.3f} of the own winner's speed",
    f"results checked against the CPU: first {ok1}, second {ok2}, own {ok3}",
    f"wall time: tuning both problems and building {setup_s} s, the three runs {run_s} s",
]
open(f"{out}/summary.txt", "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
PY
