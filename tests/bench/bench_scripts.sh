#!/bin/sh
# bench_scripts.sh — the H200 benchmark scripts run end to end on lavapipe at their small sizes, with PyTorch
# replaced by tests/bench/faketorch (names only, 1 ms per timing): a script error shows here, not after minutes of
# a GPU machine's time. bench/gemm_vs_cublas.py --cpu (tune, export, gemm_verify, the cuBLAS side) and
# bench/llm_kernels.py --cpu-shapes for one space of each PyTorch code path; bench/runtime_tune.sh at tiny sizes.
#   sh bench_scripts.sh VKAUTOTUNE SOURCE_DIR
. "$(dirname "$0")/../cli/lib/common.sh" "$@"
need_device
need_python "to run the benchmark scripts"
FAKE="$SRC/tests/bench/faketorch"

# --start goes to the searches whose space names exactly its parameters: sgemm's here, not cmgemm's.
# SPACE:CONFIG goes to that space only, whatever parameters it names: START_SG to sgemm.ini, START_CM to cmgemm_f16.ini
# only (its search is skipped on lavapipe), and sgemm.ini must not take it although it names sgemm's parameters.
START=WG_X=8,WG_Y=8,TM=2,TN=2,BK=8,PAD=0,VEC=1,DB=1,SV=1
START_SG=WG_X=16,WG_Y=4,TM=4,TN=2,BK=16,PAD=1,VEC=1,DB=0,SV=2
START_CM=WG_X=32,WG_Y=16,TM=8,TN=8,BK=32,PAD=4,VEC=4,DB=1,SV=4
PYTHONPATH="$FAKE" python3 "$SRC/bench/gemm_vs_cublas.py" --cpu --bin "$BIN" --templates sgemm,cmgemm \
    --start "$START" --start "sgemm:$START_SG" --start "cmgemm_f16:$START_CM" \
    --out "$T/gemm/gemm.md" >"$T/gemm.out" 2>"$T/gemm.err"
rc=$?
check "gemm_vs_cublas.py --cpu runs (exit $rc)" [ $rc -eq 0 ]
[ $rc -eq 0 ] || tail -n 5 "$T/gemm.err"
check "its table has re-measured sgemm rows with a cuBLAS ratio" \
    grep -q "^| sgemm | fp32 | M=256,N=256,K=256,BT=0 | K x N | [0-9.e-]* | [0-9.e-]* | [0-9.]* | [0-9]*% |" "$T/gemm/gemm.md"
# cuBLAS is timed in back-to-back calls (bench/torch_timing.py): faketorch's 1 ms a sample over 10 calls is 0.1 ms a
# call, 0.34 TFLOP/s at 256^3 (the per-call timer gave 1 ms, 0.03)
check "cuBLAS is timed in batches of back-to-back calls" \
    grep -q "^| sgemm | fp32 | M=256,N=256,K=256,BT=0 | K x N | [0-9.e-]* | [0-9.e-]* | 0.34 |" "$T/gemm/gemm.md"
check "its sgemm rows say how many variants were checked and where" \
    grep -q "^| sgemm | fp32 | M=256,N=256,K=256,BT=0 | .* | [0-9]* (0 on the device), [0-9.]* s each |$" "$T/gemm/gemm.md"
check "its cmgemm rows say why they were skipped" grep -q "^| cmgemm | fp16 .*skipped: " "$T/gemm/gemm.md"
check "int8 runs with B stored K x N and N x K (BT=0 and BT=1)" sh -c 'grep -q "^| cmgemm | int8 | [^|]* | K x N |" "$1" &&
    grep -q "^| cmgemm | int8 | [^|]* | N x K |" "$1" && grep -q "cmgemm_s8\.ini .*--problem BT=1" "$1"' - "$T/gemm/gemm.md"
check "--start went to the sgemm searches" grep -q "sgemm\.ini .*--start $START" "$T/gemm/gemm.md"
check "sgemm:CONFIG went to the sgemm searches, without its prefix" grep -q "sgemm\.ini .*--start $START_SG" "$T/gemm/gemm.md"
check "cmgemm_f16:CONFIG went to the cmgemm_f16 search" grep -q "cmgemm_f16\.ini .*--start $START_CM" "$T/gemm/gemm.md"
# shellcheck disable=SC2016 # $1 and $2 are the inner shell's
check "cmgemm_f16:CONFIG did not go to the sgemm searches" sh -c '! grep "/sgemm\.ini" "$1" | grep -q -- "--start $2"' - \
    "$T/gemm/gemm.md" "$START_CM"
# shellcheck disable=SC2016 # $1 and $2 are the inner shell's
check "the plain --start did not go to the cmgemm searches" sh -c '! grep "cmgemm_f16\.ini" "$1" | grep -q -- "--start $2"' - \
    "$T/gemm/gemm.md" "$START"
# shellcheck disable=SC2016 # $1 is the inner shell's
# gemm_verify re-times the winner in samples of back-to-back dispatches, as many as cuBLAS's samples hold calls
check "gemm_verify is given a --batch" grep -q "bench/gemm_verify .* --batch [0-9][0-9]*" "$T/gemm/gemm.md"
check "one rule sizes both sides' samples (about 2 ms, 1 to 10 calls)" env PYTHONPATH="$SRC/bench" python3 -c '
from torch_timing import calls_per_sample as c
assert (c(0.125, 2.0), c(0.25, 2.0), c(0.9, 2.0), c(5.0, 2.0), c(0, 2.0)) == (10, 8, 2, 1, 10)'
check "no search got a SPACE: prefix" sh -c '! grep -q -- "--start [a-z_0-9]*:" "$1"' - "$T/gemm/gemm.md"

ONLY=softmax_f16,rmsnorm_f32,layernorm_bf16,reduce_sum_f16,reduce_max_f32,xent_f16,rope_f16,swiglu_f32,transpose,attention_f32
ONLY=$ONLY,attention_decode_f16
PYTHONPATH="$FAKE" python3 "$SRC/bench/llm_kernels.py" --binary "$BIN" --cpu-shapes --budget 1 --only "$ONLY" \
    --baseline-rounds 3 --db "$T/k.db" --out "$T/llm.md" >"$T/llm.out" 2>"$T/llm.err"
rc=$?
check "llm_kernels.py --cpu-shapes runs (exit $rc)" [ $rc -eq 0 ]
[ $rc -eq 0 ] || tail -n 5 "$T/llm.err"
# (the main table's rows: the prefill table below it repeats the attention kernels)
rows=$(sed '/^## Attention prefill/,$d' "$T/llm.md" | grep -c '^| [a-z_]* | [a-z0-9]* | .* | [0-9.]* | ')
check "a measured row per kernel (${rows:-0} of 11)" [ "${rows:-0}" -eq 11 ]
# every PyTorch figure (eager and torch.compile columns, not only SDPA's) is timed in batches of 10 back-to-back calls:
# faketorch gives 1 ms a sample, so 0.1000 ms a call; the old per-call timer gave 1.0000
check "the eager and torch.compile columns are timed in batches of back-to-back calls" \
    grep -q "^| softmax | f16 | .* | 0.1000 | 0.1000 |" "$T/llm.md"
PYTHONPATH="$FAKE" python3 "$SRC/bench/torch_timers.py" --cpu-shapes --rounds 2 --gemm --only softmax_f16,transpose_f16,attention_decode_f16 \
    --out "$T/timers.md" >"$T/timers.out" 2>"$T/timers.err"
rc=$?
check "torch_timers.py runs (exit $rc)" [ $rc -eq 0 ]
[ $rc -eq 0 ] || tail -n 5 "$T/timers.err"
check "torch_timers.py times the copy, cuBLAS, eager, compiled and SDPA both ways (faketorch: old 1.0000, new 0.1000)" sh -c \
    '[ "$(grep -c "^| .* | 1.0000 | 0.1000 | 10.000 |$" "$1")" -eq 9 ]' - "$T/timers.md"
# vkautotune times these kernels as the PyTorch columns are timed, in batches of back-to-back dispatches: every timed
# sample of the stored rows spans llm_kernels.py's --min-sample (0.002 s) at least (vkautotune's own 0.1 ms timed
# lavapipe's shortest kernels one dispatch a sample)
check "llm_kernels.py times vkautotune's kernels in batches too (samples of 2 ms at least)" python3 -c '
import sqlite3, sys
spans = [m * b for m, b in sqlite3.connect(sys.argv[1]).execute("SELECT median_s, batch FROM results WHERE status = \x27ok\x27")]
assert spans and min(spans) >= 0.0018, "sample spans %.6f-%.6f s" % (min(spans), max(spans))' "$T/k.db"
check "the RMSNorm composite baseline is reported" grep -q "rmsnorm_f32: the textbook eager composite" "$T/llm.md"
check "attention is timed with SDPA's FlashAttention-2 backend" \
    grep -q "attention_f32: SDPA backend FLASH_ATTENTION: [0-9.]* ms, [0-9.]* TFLOP/s; vkautotune is" "$T/llm.md"
check "a backend that refuses the inputs says why" grep -q "attention_f32: SDPA backend CUDNN_ATTENTION: No available" "$T/llm.md"
check "decode attention is timed with SDPA's backends, as a bandwidth" \
    grep -q "attention_decode_f16: SDPA backend FLASH_ATTENTION: [0-9.]* ms, [0-9]* GB/s; vkautotune is" "$T/llm.md"
# the prefill table: its rate against FlashAttention-2's in the same run, over rounds (median (range) of vkautotune's
# best measured again, of FlashAttention-2 and of the paired ratios); no tensor-core peak for a kernel without
# cooperative matrices, and cuDNN's refusal leaves its columns empty; decode is not in it
R='[0-9.]* ([0-9.]*-[0-9.]*)'
check "attention prefill has a row against FlashAttention-2, with the rounds' ranges" \
    grep -q "^| attention | f32 | HEADS=2,S=128,D=128 | $R | [0-9.]* |  |  | $R | $R |  |  | 3 |$" "$T/llm.md"
check "the baseline's note gives the rounds and the paired ratios" \
    grep -q "attention_f32: SDPA backend FLASH_ATTENTION: .*; median of 3 rounds, $R ms; vkautotune $R ms; paired ratios $R$" "$T/llm.md"
check "the rounds time SDPA in batches of 10 back-to-back calls (faketorch: 1 ms a sample, 0.1 ms a call)" \
    grep -q "attention_f32: SDPA backend FLASH_ATTENTION: 0.1000 ms, " "$T/llm.md"
check "each of the 3 rounds measured vkautotune's best again and timed FlashAttention-2" \
    sh -c '[ "$(grep -c "^  round [123]: vkautotune [0-9.]* ms, FLASH_ATTENTION 0.1000, " "$1")" -eq 3 ]' - "$T/llm.err"
# round_summary: the ratio is the median of the rounds' paired ratios (not the ratio of the medians), a round whose
# re-measurement failed counts for the backend's time but not for a ratio, and a backend refused in every round
# keeps its reason
check "round_summary pairs the ratios per round" env PYTHONPATH="$FAKE:$SRC/bench" python3 -c '
import llm_kernels as k
s = k.round_summary([(1.0, {"F": 2.0, "C": "no"}), (2.0, {"F": 2.2, "C": "no"}), (4.0, {"F": 4.0, "C": "no"}),
                     (None, {"F": 9.0, "C": "no"})])
assert s["rounds"] == 4 and s["ms"] == (2.0, 1.0, 4.0), s
assert s["F"]["ms"] == (3.1, 2.0, 9.0) and s["F"]["ratio"] == (1.1, 1.0, 2.0), s
assert s["C"] == "no", s'
check "decode is not in the prefill table" sh -c '! grep -q "^| attention_decode | f16 | .* |  |  |$" "$1"' - "$T/llm.md"

# The runtime tuner's measurement (issue 24): candidates from M=N=K=32, the real problem 64; it builds the example
# against the build's runtime library, so it runs from the source tree with BUILD next to the binary.
# Not in the sanitizer build: the script compiles C against the runtime library, which that build instruments
# (runtime_example and runtime_tune are left out of it for the same reason, tests/CMakeLists.txt).
if grep -q '^VKAT_SANITIZE:BOOL=ON' "$(dirname "$BIN")/CMakeCache.txt" 2>/dev/null; then
    echo "skipped: runtime_tune.sh in a sanitizer build (it links C against the instrumented runtime library)"
else
    (cd "$SRC" && SMALL=32 REAL=64 BUDGET_SMALL=4 BUDGET_REAL=4 CANDIDATES=3 TIME_LIMIT=5 BUILD=$(dirname "$BIN") \
        OUT="$T/rtb" sh bench/runtime_tune.sh) >"$T/rtb.out" 2>&1
    rc=$?
    check "runtime_tune.sh runs (exit $rc)" [ $rc -eq 0 ]
    [ $rc -eq 0 ] || tail -n 20 "$T/rtb.out"
    check "it reports the first launch's tuning time" \
        grep -q "^first launch, tuning: *[0-9.]* s (measured)" "$T/rtb/summary.txt"
    check "the second launch takes the pick from the cache" \
        grep -q "^second launch, tuning: .*(from the cache)" "$T/rtb/summary.txt"
    check "it reports the pick's and the fallback's fraction of the own winner's speed" \
        grep -q "^tier fallback .* = [0-9.]* of the own winner's speed" "$T/rtb/summary.txt"
fi

# bench/race.py: the baseline (unraced, fixed warm-up) and the new path on the same variants and from scratch, at
# 64^3, with traces; cmgemm's rows say why it was skipped (lavapipe has no cooperative matrices).
python3 "$SRC/bench/race.py" --bin "$BIN" --spaces "$SRC/spaces/gemm.ini,$SRC/spaces/cmgemm_f16.ini" \
    --search-spaces 1 --problem M=64,N=64,K=64 --pair-budget 8 --search-seconds 5 --jobs 1 --trace-dir "$T/traces" \
    --out "$T/race.md" >"$T/race.out" 2>"$T/race.err"
rc=$?
check "race.py runs (exit $rc)" [ $rc -eq 0 ]
[ $rc -eq 0 ] || tail -n 5 "$T/race.err"
check "its paired rows: the baseline, and the new path with the winners' agreement and the same variants' figures" \
    grep -q "^| gemm.ini | M=64,N=64,K=64 | new | 8 | .* | \(same variant\|within spread\|DIFFERENT\).* full figures agree; raced out [0-9]*: " "$T/race.md"
check "the baseline's row: every fixed warm-up capped, none waived for a busy GPU" \
    grep -q "^| gemm.ini | M=64,N=64,K=64 | baseline | 8 | .* | 0 | .* | 8 / 0 | " "$T/race.md"
check "the same-winner table" grep -q "^| gemm.ini | new | \(yes\|NO\) | " "$T/race.md"
check "cmgemm says why it was skipped" grep -q "^| cmgemm_f16.ini | skipped: " "$T/race.md"
check "the from-scratch searches, baseline and new" grep -q "^| gemm.ini | 2 | baseline | [0-9]* | [0-9.]* | 0 | " "$T/race.md"
check "and the time-to-0.95 comparison" grep -q "^| gemm.ini | new | \(not reached\|[0-9][0-9.]*\) | " "$T/race.md"
check "the traces, with the rule replayed on the baseline's fixed warm-ups" \
    grep -q "^| gemm.ini | pair | baseline | [0-9]* | .* | 0.02 s: " "$T/race.md"
# throughput.py: a first run as users run it, then a first run and a warm rerun in proposal order (results reach the
# strategy as they finish, so only the ordered pair proposes the same variants and the rerun's cache covers them)
python3 "$SRC/bench/throughput.py" --bin "$BIN" --space "$SRC/spaces/gemm.ini" --problem M=64,N=64,K=64 --budget 6 \
    --jobs 2 --out "$T/tp.md" >"$T/tp.out" 2>"$T/tp.err"
rc=$?
check "throughput.py runs (exit $rc)" [ $rc -eq 0 ]
[ $rc -eq 0 ] || tail -n 5 "$T/tp.err"
check "throughput.py has the three runs" sh -c 'grep -q "| 2 | first run | 6 |" "$1" &&
    grep -q "| 2 | first run, proposal order | 6 |" "$1" && grep -q "| 2 | rerun, warm cache, proposal order | 6 |" "$1"' - "$T/tp.md"
check "throughput.py's ordered runs name VKAT_REPORT_IN_ORDER=1 and share one cache" sh -c \
    '[ "$(grep -c "^    VKAT_REPORT_IN_ORDER=1 .*--pipeline-cache [^ ]*cache-2-ordered " "$1")" -eq 2 ]' - "$T/tp.md"
finish
