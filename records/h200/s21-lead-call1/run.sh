#!/bin/sh
# Session 21 device call: the init / third-party / robustness CLI tests on the H200's NVIDIA driver as the default
# device, and short tunes of shipped spaces counting variants the shared-bounds check refused (validate-error rows).
B=$PWD/.dev21/vkautotune
O=${OUT:-/tmp/out}
# The call (2026-12-03 19:17 UTC, NVIDIA H200, driver 580.159.04, main at cc557c9, binary copied into .dev21):
#   . .gl/enter.sh && mkdir -p $OUT && sh records/h200/s21-lead-call1/run.sh
$B devices 2>&1 | head -4
echo "## CLI tests (written here), default device"
for t in local_size_replace init init_bounds init_idioms init_index init_params init_trial init_macros init_gridstride \
         shared_bounds crash_between_variants fields unmodified_e2e push_vectors; do
    [ -f tests/cli/$t.sh ] || continue
    sh tests/cli/$t.sh "$B" . > "$O/$t.log" 2>&1
    echo "$t: $(tail -n 1 "$O/$t.log")"
done > "$O/cli.txt" 2>&1
cat "$O/cli.txt"
echo "## shipped spaces: 40 random variants each, 16 jobs; rows by status"
for sp in sgemm_wt cm2gemm_f16 cmgemm_f16 attention_fa_nv_f16 attention_f16 softmax_f16 transpose reduce_sum_f32 \
          layernorm_f16 rmsnorm_f16; do
    rm -f /tmp/s21.db
    timeout 150 $B --space spaces/$sp.ini --strategy random --seed 5 --budget 40 --jobs 16 --db /tmp/s21.db -q \
        > /dev/null 2> "$O/$sp.err"
    rc=$?
    echo "$sp rc=$rc $(python3 -c "import sqlite3; print(' '.join(f'{s}={n}' for s, n in sqlite3.connect('/tmp/s21.db').execute('SELECT status, COUNT(*) FROM results GROUP BY status')))")"
done > "$O/spaces.txt" 2>&1
cat "$O/spaces.txt"
