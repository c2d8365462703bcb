# Session 22 lead call 2: the spills line on the NVIDIA driver, and which of the library's spaces have variants
# that keep values in local memory (40 random variants each, default problem, racing on).
set -u
B=$PWD/.dev22/vkautotune
export __GL_SHADER_DISK_CACHE=0
starts=""; while read c; do starts="$starts --start $c"; done < .dev22/cfgs.txt
$B --space .dev22/old.ini --problem M=4096,N=4096,K=4096 $starts --budget 20 --jobs 16 --pipeline-cache none \
    --db /tmp/old.db --top 3 > $OUT/old-table.txt 2>&1; echo "old rc=$?"
$B --space .dev22/old.ini --problem M=4096,N=4096,K=4096 $starts --budget 20 --jobs 16 --pipeline-cache none \
    --db /tmp/old2.db --json > $OUT/old.json 2>/dev/null; echo "old json rc=$?"
for s in sgemm_wt cm2gemm_f16 cmgemm_f16 cmgemm_splitk_f16 cmgemm_s8 attention_fa_nv_f16 attention_decode_nv_f16 \
         sgemm gemm softmax_f16 rmsnorm_f16; do
  timeout 120 $B --space spaces/$s.ini --strategy random --seed 1 --budget 40 --jobs 16 --pipeline-cache none \
      --db /tmp/$s.db --top 1 > $OUT/$s.txt 2>&1; echo "$s rc=$?"
done
cd $OUT && python3 - <<'PY'
import json, sqlite3, re
j = json.load(open('old.json'))[0]
print('old.json: spills', j.get('spills'), 'per row', [r.get('spills') for r in j.get('best', [])])
print('| space | variants | spilling | best ms | best spilling ms (of best) | example spilling config |')
for s in ['sgemm_wt', 'cm2gemm_f16', 'cmgemm_f16', 'cmgemm_splitk_f16', 'cmgemm_s8', 'attention_fa_nv_f16',
          'attention_decode_nv_f16', 'sgemm', 'gemm', 'softmax_f16', 'rmsnorm_f16']:
    try:
        rows = sqlite3.connect(f'/tmp/{s}.db').execute(
            'select status, median_s, config, pipeline_stats from results').fetchall()
    except Exception as e:
        print('|', s, '| error', e, '|'); continue
    def sp(t):
        m = re.search(r'Local Memory Size=(\d+)', t or '')
        return int(m.group(1)) - (1 << 36) if m else -1
    ok = [r for r in rows if r[0] == 'ok' and r[1]]
    best = min((r[1] for r in ok), default=0)
    spl = sorted([r for r in rows if sp(r[3]) > 0 and r[1]], key=lambda r: r[1])
    ex = spl[0] if spl else None
    print('| %s | %d | %d | %.4f | %s | %s |' % (s, len(rows), len(spl), best * 1e3,
          '%.4f (%.2f), %s, %d B' % (ex[1] * 1e3, best / ex[1], ex[0], sp(ex[3])) if ex else '-',
          ex[2][:90] if ex else '-'))
PY
grep -h "^spills:" $OUT/*.txt | cut -c1-200
