#!/bin/sh
# usage: t.sh NAME MISSING [tables: four|synth]  (env passed through)
cd /work/wt/s9-replay
T=/work/shared/data/tuning-caches
O=/tmp/rp/$1-$2-${3:-four}; mkdir -p $O
if [ "${3:-four}" = synth ]; then TABS=$(for s in $(seq 13 24); do echo /tmp/s12-synth/synth$s.json; done)
else TABS="$T/GEMM_A100.json $T/MI50_GEMM.json $T/convolution_A100.json $T/pnpoly_A100.json"; fi
nice ${B:-build/bench/strategy_replay} --seeds ${SEEDS:-50} --threads 2 --missing $2 --strategies auto --out $O $TABS > $O/stdout.txt
python3 - $O/strategies.md <<'PY'
import sys,re
cur=None
for line in open(sys.argv[1]):
    m=re.match(r'\| (\S+?)(\.json)? .*\| 25 \|',line)
    if line.startswith('| mean over') : cur='MEAN'
    elif m: cur=m.group(1)
    if line.startswith('| auto |') and cur:
        cells=[c.split('±')[0].strip() for c in line.split('|')[2:-1]]
        print(f'{cur:18s}', ' '.join(cells))
PY
