#!/bin/bash
# session 4, call B: attention_fa_nv_f16 with Q in shared memory (QS), RT = 2 possible
set -u
export PYTHONUNBUFFERED=1
mkdir -p /tmp/w
date -u
timeout 280 python3 bench/llm_kernels.py --binary ./build/vkautotune --budget 60s --only attention_fa_nv_f16 \
  --db /tmp/w/attn.db --out $OUT/llm_attn.md > $OUT/llm_attn.log 2>&1
date -u
cp /tmp/w/attn.db $OUT/
python3 - /tmp/w/attn.db <<'PY' > $OUT/top.txt
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
for (k,) in db.execute("select distinct kernel from results"):
    print(k, db.execute("select count(*), sum(status='ok'), group_concat(distinct status) from results where kernel=?", (k,)).fetchone())
    for c, t, s in db.execute("select config, tflops, pipeline_stats from results where kernel=? and status='ok' order by median_s limit 14", (k,)):
        print("  %6.1f  %s  [%s]" % (t, c, (s or "")[:60]))
    for c, st, e in db.execute("select config, status, substr(reason,1,200) from results where kernel=? and status!='ok' limit 4", (k,)):
        print("  FAILED %s %s: %s" % (c, st, e))
PY
cat $OUT/top.txt
tail -5 $OUT/llm_attn.log
cat $OUT/llm_attn.md
