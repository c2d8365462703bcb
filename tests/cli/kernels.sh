#!/bin/sh
# kernels.sh — tunes every space of the kernel library (spaces/*.ini but gemm.ini, which tune_e2e.sh and the
# README cover) on the default device at its [problem.cpu] size with a small budget, and checks
# that each run exits 0 and ranks at least one variant that passed the reference check — or, for a space whose
# [kernel] needs what the device lacks (cooperative matrices, bf16 on lavapipe), that it was skipped with a
# message naming the missing extension.
# ctest runs it in four parts side by side, each taking every fourth space (tests/README.md):
# ctest parts: 1 2 3 4
#
#   sh tests/cli/kernels.sh BINARY SOURCE_DIR           # every space
#   VKAT_TEST_PART=2 sh tests/cli/kernels.sh ...        # spaces 2, 6, 10, ...
set -u
. "$(dirname "$0")/lib/common.sh" "$@"
need_device
need_python "to read --json"

PARTS=$(sed -n 's/^# ctest parts: //p' "$0" | wc -w)
n=0
for space in "$SRC"/spaces/*.ini; do
    name=$(basename "$space" .ini)
    case $name in gemm) continue ;; esac
    n=$((n + 1))
    in_part $(((n - 1) % PARTS + 1)) || continue
    # the [kernel] template: the first 'template =' (a space with pass sections names theirs after it)
    template="$SRC/shaders/$(sed -n 's|^template = \.\./shaders/\(.*\)$|\1|p' "$space" | head -n 1)"
    # Spaces that need an extension: on a device without it, the run must say so and skip.
    need=$(sed -n 's/^extensions = //p' "$space")
    # --kernel-timeout: lavapipe compiles a shader at its first (checked) run, which on busy cores can pass 10 s.
    "$BIN" "$template" --space "$space" --db "$T/kernels.db" --budget 6 --seed 1 --warmup 0.01 --repetitions 2 \
        --kernel-timeout 300 --json >"$T/$name.json" 2>"$T/$name.err" </dev/null
    rc=$?
    if [ $rc -ne 0 ]; then
        echo "$name: FAIL (exit $rc)"
        sed 's/^/  | /' "$T/$name.err"
        failed=$((failed + 1))
        continue
    fi
    if ! python3 - "$T/$name.json" "$need" >"$T/$name.py" 2>&1 <<'PY'; then
import json, sys
run = json.load(open(sys.argv[1]))[0]
need = sys.argv[2]
if "skipped" in run:
    assert need, "skipped, but the space needs no extension: " + run["skipped"]
    assert any(e.strip() in run["skipped"] for e in need.split(",")), "skip message does not name " + need
    print("skipped: " + run["skipped"])
else:
    best = run["best"]
    assert best, "no variant passed the check (%d evaluated, %d failed)" % (run["evaluated"], run["failed"])
    print("%d ranked, best %s at %.4g ms" % (len(best), best[0]["config"], best[0]["median_ms"]))
PY
        echo "$name: FAIL ($(tail -n 1 "$T/$name.py"))"
        sed 's/^/  | /' "$T/$name.err"
        failed=$((failed + 1))
        continue
    fi
    # A skip must also reach stderr as a warning naming the extension (what a user at a terminal sees).
    if grep -q '^skipped' "$T/$name.py" && ! grep -q "skipped: .*lacks" "$T/$name.err"; then
        echo "$name: FAIL (skipped without a 'skipped: ... lacks ...' warning on stderr)"
        failed=$((failed + 1))
        continue
    fi
    echo "$name: ok ($(cat "$T/$name.py"))"
    passed=$((passed + 1))
done
if [ $n -eq 0 ]; then
    echo "FAIL: no kernel spaces under $SRC/spaces"
    exit 1
fi
# The cooperative-matrix attentions, the bf16 ones and decode must be among them (and, on a device without their
# extensions, skipped).
in_part 1 || { finish; exit; }
for cm in attention_cm_f16 attention_fa_f16 attention_fa_nv_f16 attention_fa_nv_bf16 attention_bf16 \
    attention_decode_f16 attention_decode_nv_f16 attention_decode_nv_bf16; do
    [ -f "$SRC/spaces/$cm.ini" ] || { echo "FAIL: spaces/$cm.ini is missing"; failed=$((failed + 1)); }
done
finish
