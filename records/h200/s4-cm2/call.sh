#!/bin/sh
# (Kept as the record of what calls 1-2 ran; attention_fa_cm2 was removed after the merge, see BENCHMARKS.md.)
# h200_cm2.sh — the VK_NV_cooperative_matrix2 templates on the H200 (issues 5 and 12), one device session:
#   1. bench/cm2gemm_sweep.sh: every loading path of shaders/cm2gemm.comp.in, fp16 and bf16, both B layouts, on
#      small non-square problems, each variant checked against the reference;
#   2. bench/gemm_vs_cublas.py --templates cm2gemm at GEMM_PROBLEMS for GEMM_DTYPES, cuBLAS in the same run;
#   3. attention_fa_cm2_f16: probes (below), a seeded tune (--stats: registers, spills), then bench/llm_kernels.py resumes it from
#      the same database and measures SDPA on the same shape.
# Run from a tree holding build/vkautotune, build/bench/gemm_verify, shaders/, spaces/, bench/ after
# `. .gl/enter.sh`; results go to $OUT. Budgets in seconds: coopmat2 pipelines take seconds each to create.
set -u
OUT=${OUT:-out-h200}
B=./build/vkautotune
GEMM_PROBLEMS=${GEMM_PROBLEMS:-4096x4096x4096}
GEMM_DTYPES=${GEMM_DTYPES:-fp16}
GEMM_BUDGET=${GEMM_BUDGET:-40s}
FA_BUDGET=${FA_BUDGET:-30s}
SWEEP=${SWEEP:-6}
mkdir -p "$OUT"
$B devices > "$OUT/devices.txt" 2>&1
head -n 4 "$OUT/devices.txt"

if [ "$SWEEP" != 0 ]; then
    echo "== sweep"
    timeout "${SWEEP_TIMEOUT:-80}" sh bench/cm2gemm_sweep.sh $B "$OUT/sweep" "$SWEEP" 2>&1 | tee "$OUT/sweep.txt"
fi

echo "== gemm"
GEMM_SEEDS="BM=128,BN=128,BK=64,NSG=4,LOAD=0,KU=4,KW=16,STAGES=1,PAD=0,SWZ=8
BM=128,BN=128,BK=64,NSG=4,LOAD=0,KU=8,KW=16,STAGES=1,PAD=0,SWZ=8
BM=128,BN=128,BK=128,NSG=4,LOAD=0,KU=2,KW=16,STAGES=1,PAD=0,SWZ=8
BM=128,BN=128,BK=128,NSG=4,LOAD=0,KU=4,KW=16,STAGES=1,PAD=0,SWZ=8
BM=128,BN=128,BK=64,NSG=4,LOAD=1,KU=1,KW=32,STAGES=1,PAD=1,SWZ=1
${EXTRA_GEMM_SEEDS:-}"
starts=""
for c in $GEMM_SEEDS; do starts="$starts --start $c"; done
# shellcheck disable=SC2086 # starts holds several words on purpose
timeout "${GEMM_TIMEOUT:-150}" python3 bench/gemm_vs_cublas.py --bin $B --templates cm2gemm --only "$GEMM_DTYPES" \
    --problems "$GEMM_PROBLEMS" --budget "$GEMM_BUDGET" --out "$OUT/gemm/gemm_vs_cublas.md" --warm-start $starts \
    > "$OUT/gemm.txt" 2>&1
echo "gemm exit $?"

echo "== attention"
# Probe first: one configuration per process (--jobs 1) on a small problem, each differing from a base in one
# feature, so that a driver crash while creating a pipeline (which the tuner cannot blame on a variant) is
# pinned to a feature; values that only ever crashed are then dropped from (this copy of) the space.
FA_SPACE=spaces/attention_fa_cm2_f16.ini
FA_PROBES="BR=64,BC=64,NSG=4,LOAD=0,STAGES=1,PAD=0,RSUM=1
BR=64,BC=64,NSG=4,LOAD=0,STAGES=1,PAD=0,RSUM=0
BR=64,BC=64,NSG=4,LOAD=1,STAGES=1,PAD=1,RSUM=1
BR=64,BC=32,NSG=4,LOAD=0,STAGES=1,PAD=0,RSUM=1
BR=64,BC=32,NSG=4,LOAD=1,STAGES=2,PAD=1,RSUM=1
BR=128,BC=64,NSG=8,LOAD=0,STAGES=1,PAD=0,RSUM=1
BR=32,BC=64,NSG=2,LOAD=0,STAGES=1,PAD=0,RSUM=1
BR=64,BC=128,NSG=8,LOAD=0,STAGES=1,PAD=0,RSUM=1
BR=64,BC=16,NSG=4,LOAD=0,STAGES=1,PAD=0,RSUM=1"
: > "$OUT/fa_probe.txt"
for c in $FA_PROBES; do
    timeout 40 $B shaders/attention_fa_cm2.comp.in --space $FA_SPACE --problem HEADS=2,S=512 --budget 1 \
        --strategy random --start "$c" --jobs 1 --watchdog 30 --db "$OUT/fa_probe.db" --top 1 > "$OUT/fa_probe_one.txt" 2>&1
    rc=$?
    echo "$c rc=$rc $(grep -m1 -E '^ *1 ' "$OUT/fa_probe_one.txt" | tr -s ' ' | cut -c1-60)" | tee -a "$OUT/fa_probe.txt"
    tail -n 3 "$OUT/fa_probe_one.txt" >> "$OUT/fa_probe.txt"
done
python3 - "$OUT/fa_probe.txt" $FA_SPACE <<'PY'
import re, sys
ok, bad = [], []
for line in open(sys.argv[1]):
    m = re.match(r"(\S+=\S+) rc=(\d+)", line)
    if m:
        (ok if m.group(2) == "0" else bad).append(dict(kv.split("=") for kv in m.group(1).split(",")))
drop = {}
for cfg in bad:
    for k, v in cfg.items():
        if not any(c.get(k) == v for c in ok):
            drop.setdefault(k, set()).add(v)
print("probes: %d ok, %d failed; dropped values: %s" % (len(ok), len(bad), drop or "none"))
with open(sys.argv[1] + ".ok", "w") as f:  # the probes that ran: the tune's seeds
    f.write("".join(",".join("%s=%s" % kv for kv in c.items()) + "\n" for c in ok))
if drop:
    lines = open(sys.argv[2]).read().split("\n")
    for i, l in enumerate(lines):
        m = re.match(r"(\w+) = ([^;]*)(;.*)?$", l)
        if m and m.group(1) in drop:
            vals = [v.strip() for v in m.group(2).split(",") if v.strip() not in drop[m.group(1)]]
            lines[i] = "%s = %s %s" % (m.group(1), ", ".join(vals), m.group(3) or "")
    open(sys.argv[2], "w").write("\n".join(lines))
PY
starts=""
for c in $(cat "$OUT/fa_probe.txt.ok") ${EXTRA_FA_SEEDS:-}; do starts="$starts --start $c"; done
# shellcheck disable=SC2086
timeout "${FA_TIMEOUT:-60}" $B shaders/attention_fa_cm2.comp.in --space spaces/attention_fa_cm2_f16.ini \
    --budget "$FA_BUDGET" --db "$OUT/kernels.db" --stats --top 20 $starts > "$OUT/attention_fa_cm2.txt" 2>&1
rc=$?
echo "attention tune exit $rc"
if [ $rc = 6 ]; then  # the measuring process died outside a variant: again, one pipeline at a time
    # shellcheck disable=SC2086
    timeout "${FA_TIMEOUT:-60}" $B shaders/attention_fa_cm2.comp.in --space spaces/attention_fa_cm2_f16.ini \
        --budget "$FA_BUDGET" --db "$OUT/kernels.db" --stats --top 20 --jobs 1 $starts >> "$OUT/attention_fa_cm2.txt" 2>&1
    echo "attention tune (--jobs 1) exit $?"
fi
timeout "${LLM_TIMEOUT:-60}" python3 bench/llm_kernels.py --only attention_fa_cm2_f16 --budget 5s --db "$OUT/kernels.db" \
    --out "$OUT/llm_kernels.md" --eager-only > "$OUT/llm.txt" 2>&1
echo "llm_kernels exit $?"

tar czf "$OUT/all.tgz" -C "$OUT" --exclude all.tgz . 2>/dev/null
echo "== tables"
tail -n 30 "$OUT/sweep.txt" 2>/dev/null | grep -v '^$' | tail -n 14
sed -n '1,8p' "$OUT/gemm/gemm_vs_cublas.md" 2>/dev/null
grep 'rc=' "$OUT/fa_probe.txt"
grep -v '^$' "$OUT/attention_fa_cm2.txt" | tail -n 24
grep '^|' "$OUT/llm_kernels.md" 2>/dev/null
