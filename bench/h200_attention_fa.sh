#!/bin/sh
# attention_fa_f16 on the H200 (issue 12): every valid configuration (exhaustive), each checked against
# shaders/attention_ref.comp, with the driver's register/spill statistics, then PyTorch's
# scaled_dot_product_attention on the same shape in the same command. Run from the repository root after
# `. .gl/enter.sh` (../shared/device/prepare.sh); results go to $OUT (default ./out-h200).
set -u
OUT=${OUT:-out-h200}
mkdir -p "$OUT"
B=./build/vkautotune
$B devices > "$OUT/devices.txt" 2>&1
timeout "${TUNE_TIMEOUT:-450}" $B shaders/attention_fa.comp.in --space spaces/attention_fa_f16.ini --strategy exhaustive \
    --budget 10000 --db "$OUT/attention_fa.db" --top 25 --stats --repetitions 5 2>&1 | tee "$OUT/attention_fa.txt"
# the same run again from the database (resumes: nothing is measured twice), as JSON for the failed count
$B shaders/attention_fa.comp.in --space spaces/attention_fa_f16.ini --strategy exhaustive --budget 10000 \
    --db "$OUT/attention_fa.db" --top 1000 --json > "$OUT/attention_fa.json" 2>/dev/null
python3 - "$OUT/attention_fa.json" <<'PY' | tee "$OUT/attention_fa_summary.txt"
import json, sys
r = json.load(open(sys.argv[1]))[0]
print("evaluated %s, failed %s, ranked %d" % (r.get("evaluated"), r.get("failed"), len(r.get("best", []))))
worst = max((b.get("rel_l2", 0) for b in r.get("best", [])), default=None)
print("worst rel_l2 among ranked:", worst)
PY
python3 - <<'PY' 2>&1 | tee "$OUT/sdpa.txt"
import torch, torch.nn.functional as F
q, k, v = (torch.rand(1, 32, 4096, 128, device="cuda", dtype=torch.float16) * 4 - 2 for _ in range(3))
for _ in range(20):
    F.scaled_dot_product_attention(q, k, v)
ts = []
for _ in range(50):
    a, b = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    a.record(); F.scaled_dot_product_attention(q, k, v); b.record(); torch.cuda.synchronize()
    ts.append(a.elapsed_time(b))
ts.sort(); ms = ts[len(ts) // 2]
print("sdpa fp16 32x4096x128: median %.4f ms, %.1f TFLOP/s" % (ms, 4 * 32 * 4096 * 4096 * 128 / ms / 1e9))
PY
