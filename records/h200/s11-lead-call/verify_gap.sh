#!/bin/sh
# verify_gap.sh SPACE PROBLEM CONFIG KERNEL — why gemm_verify's figure sits below the tuner's: the same variant
# timed by the tuner (default racing run, then unraced 51 samples after a fixed 0.3 s warm-up, like gemm_verify) and
# by gemm_verify (default; longer warm-up; more samples; batches), with the SM clock and power sampled throughout.
set -u
S=$1 P=$2 C=$3 K=$4
V=${VERIFY:-bench/gemm_verify}
SMI=
if command -v nvidia-smi >/dev/null; then
    nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu --format=csv,noheader -lms 50 >$RUN/smi.csv &
    SMI=$!
fi
mark() { echo "$(date -u +%H:%M:%S.%N) $*" >>$RUN/marks.txt; }
mark tune-default
$BIN --space $S --problem $P --start $C --budget 1 --db $RUN/a.db --json --top 1 -q >$RUN/tune-a.json
mark tune-fixed
$BIN --space $S --problem $P --start $C --budget 1 --db $RUN/b.db --json --top 1 -q --no-race --repetitions 51 --warmup 0.3 --warmup-min 0.3 >$RUN/tune-b.json
$BIN export --db $RUN/a.db --space $S --problem $P -o $RUN/ex --candidates 0 -q
for v in "default:" "warm2:--warmup 2" "rep501:--repetitions 501" "batch10:--batch 10" "default2:"; do
    mark "verify-${v%%:*}"
    $V $RUN/ex $K --problem $P ${v#*:} --json $RUN/verify.jsonl >$RUN/verify-${v%%:*}.txt 2>&1 || echo "verify ${v%%:*} exit $?"
done
mark end
[ -n "$SMI" ] && kill $SMI
python3 - "$RUN" <<'PY'
import json, sys, os
run = sys.argv[1]
def tflops(ms, flops): return flops / (ms * 1e-3) / 1e12
for n in ("a", "b"):
    r = json.load(open(os.path.join(run, f"tune-{n}.json")))[0]
    b = r["best"][0]
    print(f"tuner {'default' if n == 'a' else 'fixed 0.3 s warm-up, 51 samples, no race'}: median {b['median_ms']:.4f} ms")
names = ["default (0.3 s warm-up, 51 samples)", "2 s warm-up", "501 samples", "batches of 10", "default again"]
for name, line in zip(names, open(os.path.join(run, "verify.jsonl"))):
    j = json.loads(line)
    print(f"gemm_verify {name}: median {j['median_ms']:.4f} ms, min {j['min_ms']:.4f}, ok {j['ok']}")
PY
