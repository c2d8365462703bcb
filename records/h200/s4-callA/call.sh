#!/bin/bash
# session 4, call A: the softmax-in-accumulators flash attention (attention_fa_nv_f16) against attention_fa_f16 and
# SDPA's backends, one run
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/w
date -u
./build/vkautotune devices > $OUT/devices.txt 2>&1
./build/vkautotune devices --json > $OUT/devices.json 2>&1
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.max.sm,power.draw,temperature.gpu --format=csv > $OUT/nvsmi.txt 2>&1
timeout 280 python3 bench/llm_kernels.py --binary ./build/vkautotune --budget 45s --only attention_fa_nv_f16,attention_fa_f16 \
  --db /tmp/w/attn.db --out $OUT/llm_attn.md > $OUT/llm_attn.log 2>&1
date -u
cp /tmp/w/attn.db $OUT/
python3 - /tmp/w/attn.db <<'PY' > $OUT/top.txt
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
for (k,) in db.execute("select distinct kernel from results"):
    print(k, db.execute("select count(*), sum(status='ok'), group_concat(distinct status) from results where kernel=?", (k,)).fetchone())
    for c, t, s in db.execute("select config, tflops, pipeline_stats from results where kernel=? and status='ok' order by median_s limit 8", (k,)):
        print("  %6.1f  %s  [%s]" % (t, c, (s or "")[:60]))
    for c, st, e in db.execute("select config, status, substr(reason,1,200) from results where kernel=? and status!='ok' limit 4", (k,)):
        print("  FAILED %s %s: %s" % (c, st, e))
PY
cat $OUT/top.txt
tail -5 $OUT/llm_attn.log
cat $OUT/llm_attn.md
