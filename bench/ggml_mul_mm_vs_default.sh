#!/bin/sh
# ggml_mul_mm_vs_default.sh — ggml-vulkan's own matrix-multiply shader (mul_mm.comp, f32), unmodified, tuned over its
# 11 tile specialization constants, against the tile choices ggml-vulkan.cpp itself uses (its l_warptile and
# m_warptile for this device's subgroup size), all measured in the same run, the same way: the defaults go first
# (--start), then the search. Prints one line per default and the winner (median ms, TFLOP/s, speed-up over the
# best default), the winner in ggml-vulkan.cpp's warptile form, and writes the same to OUTDIR/summary.txt.
#
#   GGML_VULKAN_SHADERS=DIR sh bench/ggml_mul_mm_vs_default.sh BINARY OUTDIR [BUDGET] [PROBLEM]
#   DIR: your checkout's ggml/src/ggml-vulkan/vulkan-shaders (nothing of it is in this repository)
#   BUDGET: evaluations (default 150); PROBLEM: e.g. M=4096,N=4096,K=4096 (default: the space's, which is
#   M=N=K=4096 on a GPU and 64^3 on a CPU device such as lavapipe). VKAT_TUNE_OPTS: more tune options, e.g.
#   "--watchdog 0" on lavapipe, which compiles a pipeline at its first dispatch: on a loaded CPU the largest
#   unrolled tiles pass the 10 s first-run limit (they are recorded as timeouts) and the watchdog gives up
set -eu
BIN=$1
OUT=$2
BUDGET=${3:-150}
PROBLEM=${4:-}
: "${GGML_VULKAN_SHADERS:?set GGML_VULKAN_SHADERS to your checkout of ggml/src/ggml-vulkan/vulkan-shaders}"
HERE=$(cd "$(dirname "$0")/.." && pwd)
SPACE=$HERE/examples/third-party/ggml_mul_mm.ini
mkdir -p "$OUT"
DB=$OUT/ggml_mul_mm.db

# ggml-vulkan.cpp (non-coopmat path): subgroup_size_8 = max(subgroup size, 8)
#   l_warptile = { 128, 128, 128, 16, subgroup_size_8 * 2, 64, 2, 4, 4, 1, subgroup_size_8 }
#   m_warptile = { 128,  64,  64, 16, subgroup_size_8,     32, 2, 4, 2, 1, subgroup_size_8 }
SG=$("$BIN" devices --json | python3 -c 'import json, sys; print(json.load(sys.stdin)[0]["subgroup_size"]["default"])')
S8=$((SG > 8 ? SG : 8))
warptile() { # BLOCK BM BN BK WM WN WMITER TM TN TK WARP -> a configuration
    echo "BLOCK_SIZE=$1,BM=$2,BN=$3,BK=$4,WM=$5,WN=$6,WMITER=$7,TM=$8,TN=$9,TK=${10},WARP=${11}"
}
L=$(warptile 128 128 128 16 $((S8 * 2)) 64 2 4 4 1 "$S8")
M=$(warptile 128 64 64 16 "$S8" 32 2 4 2 1 "$S8")

set -- --space "$SPACE" --db "$DB" --budget "$BUDGET" --start "$L" --start "$M" --json -q --top 1000
[ -n "$PROBLEM" ] && set -- "$@" --problem "$PROBLEM"
# shellcheck disable=SC2086 # VKAT_TUNE_OPTS holds several words on purpose
set -- "$@" ${VKAT_TUNE_OPTS:-}
"$BIN" "$@" >"$OUT/tune.json" 2>"$OUT/tune.err" || { cat "$OUT/tune.err" >&2; exit 1; }
"$BIN" export --space "$SPACE" --db "$DB" -o "$OUT/export" >/dev/null 2>>"$OUT/tune.err"

python3 - "$OUT/tune.json" "$L" "$M" "$OUT/export/manifest.json" "$HERE/examples/third-party/print_ggml_warptile.py" <<'PY' | tee "$OUT/summary.txt"
import json, subprocess, sys
run = json.load(open(sys.argv[1]))[0]
rows = {b["config"]: b for b in run["best"]}
print("device: %s (%s); problem %s; %d evaluated, %d failed" % (run["device"], run["driver"], run["problem"],
      run["evaluated"], run["failed"]))
best_default = None
for name, cfg in (("ggml l_warptile", sys.argv[2]), ("ggml m_warptile", sys.argv[3])):
    r = rows.get(cfg)
    if r is None:
        print("%-16s %s: not ranked (failed or invalid on this device)" % (name, cfg))
        continue
    print("%-16s %9.4f ms %8.2f TFLOP/s  %s" % (name, r["median_ms"], r["tflops"], cfg))
    if best_default is None or r["median_ms"] < best_default:
        best_default = r["median_ms"]
w = run["best"][0]
print("%-16s %9.4f ms %8.2f TFLOP/s  %s" % ("tuned", w["median_ms"], w["tflops"], w["config"]))
if best_default:
    print("speed-up of the tuned tile over ggml's best default: %.3fx" % (best_default / w["median_ms"]))
sys.stdout.flush()
subprocess.run([sys.executable, sys.argv[5], sys.argv[4]], check=True)
PY
