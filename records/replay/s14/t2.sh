#!/bin/sh
# usage: t2.sh NAME MISSING SEEDS TABLE...   (env passed through)
cd /work/wt/s9-replay
N=$1; M=$2; S=$3; shift 3
O=/tmp/rp/$N-$M-s$S; mkdir -p $O
nice ${B:-build/bench/strategy_replay} --seeds $S --threads 2 --missing $M --strategies auto --out $O "$@" > $O/stdout.txt
python3 - $O/strategies.md <<'PY'
import sys,re
cur=None
for line in open(sys.argv[1]):
    m=re.match(r'\| (\S+?)(\.json)? .*\| 25 \|',line)
    if line.startswith('| mean over') : cur='MEAN'
    elif m: cur=m.group(1)
    if line.startswith('| auto |') and cur:
        cells=[c.split('(')[0].strip() for c in line.split('|')[2:-1]]
        print(f'{cur:18s}', ' | '.join(cells))
PY
