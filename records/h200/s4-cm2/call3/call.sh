#!/bin/sh
# h200_cm2_fa.sh — attention_fa_cm2_f16 on the H200, one configuration per process first: at HEADS=2,S=512 the
# templates ran, but a tune at the [problem] size (32 x 4096 x 128) had its measuring process die outside any
# variant twice (bench/h200_cm2.sh). Here each run is in-process (--watchdog 0, -v) so the log shows where it
# stops; then a short tune and bench/llm_kernels.py (SDPA in the same command). Results go to $OUT.
set -u
OUT=${OUT:-out-h200}
B=./build/vkautotune
S=spaces/attention_fa_cm2_f16.ini
T=shaders/attention_fa_cm2.comp.in
mkdir -p "$OUT"
one() {  # one PROBLEM CONFIG [extra options]: one variant, in this process
    problem=$1 cfg=$2
    shift 2
    log="$OUT/one-$(echo "$problem-$cfg" | tr ',=' '-_').txt"
    timeout 45 $B $T --space $S --problem "$problem" --budget 1 --strategy random --start "$cfg" --jobs 1 \
        --watchdog 0 -v --stats --db "$OUT/fa_one.db" --top 1 "$@" > "$log" 2>&1
    echo "$problem $cfg $*: rc=$? | $(grep -E '^ +1 ' "$log" | tr -s ' ' | cut -c1-70)" | tee -a "$OUT/one.txt"
    [ -s "$log" ] && grep -v '^$' "$log" | tail -n 4 | cut -c1-200 | sed 's/^/    /'
}
one HEADS=2,S=512 BR=64,BC=64,NSG=4,LOAD=0,STAGES=1,PAD=0,RSUM=1,NARROW=1
one HEADS=2,S=512 BR=64,BC=32,NSG=4,LOAD=1,STAGES=2,PAD=1,RSUM=1,NARROW=0
one HEADS=32,S=1024 BR=32,BC=64,NSG=2,LOAD=0,STAGES=1,PAD=0,RSUM=1,NARROW=0
one HEADS=32,S=4096 BR=32,BC=64,NSG=2,LOAD=0,STAGES=1,PAD=0,RSUM=1,NARROW=0
one HEADS=32,S=4096 BR=64,BC=64,NSG=4,LOAD=0,STAGES=1,PAD=0,RSUM=1,NARROW=1 --check-on host
# the full size died in the set-up twice; if only the default check (on the GPU at this size) fails, check on the host
CHECK=auto
if grep -q "S=4096 BR=32.*rc=[1-9]" "$OUT/one.txt" && grep -q "S=4096 BR=64.*rc=0" "$OUT/one.txt"; then CHECK=host; fi
echo "== tune (--check-on $CHECK)"
timeout "${FA_TIMEOUT:-45}" $B $T --space $S --budget "${FA_BUDGET:-25s}" --db "$OUT/kernels.db" --stats --top 12 \
    --check-on $CHECK --jobs 4 --start BR=64,BC=64,NSG=4,LOAD=0,STAGES=1,PAD=0,RSUM=1,NARROW=1 \
    --start BR=32,BC=64,NSG=2,LOAD=0,STAGES=1,PAD=0,RSUM=1,NARROW=1 > "$OUT/tune.txt" 2>&1
echo "tune rc=$?"
grep -v '^$' "$OUT/tune.txt" | tail -n 16 | cut -c1-220
timeout "${LLM_TIMEOUT:-30}" python3 bench/llm_kernels.py --only attention_fa_cm2_f16 --budget 3 --db "$OUT/kernels.db" \
    --out "$OUT/llm_kernels.md" --eager-only --check-on $CHECK > "$OUT/llm.txt" 2>&1
echo "llm_kernels rc=$?"
grep -E '^\||^- ' "$OUT/llm_kernels.md"
tar czf "$OUT/all.tgz" -C "$OUT" --exclude all.tgz . 2>/dev/null
