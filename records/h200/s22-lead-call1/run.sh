# Session 22 lead call 1: sgemm_wt's sliced-K reduction (KS = 2) before/after the constant-index fix, at 4096^3.
set -u
B=$PWD/.dev22/vkautotune
export __GL_SHADER_DISK_CACHE=0
P=M=4096,N=4096,K=4096
nvidia-smi --query-gpu=name,driver_version,clocks.sm,power.draw --format=csv,noheader
starts=""; while read c; do starts="$starts --start $c"; done < .dev22/cfgs.txt
for v in old new; do
  sp=spaces/sgemm_wt.ini; [ $v = old ] && sp=.dev22/old.ini
  VKAT_MEASURE_TRACE=$OUT/trace-$v.tsv $B --space $sp --problem $P $starts --budget 20 --no-race --stats --jobs 16 \
      --pipeline-cache none --db /tmp/st-$v.db --top 20 > $OUT/stats-$v.txt 2>&1
  echo "stats $v rc=$?"
done
for s in 1 2; do
  for v in old new; do
    sp=spaces/sgemm_wt.ini; [ $v = old ] && sp=.dev22/old.ini
    python3 bench/throughput.py --bin $B --space $sp --problem $P --budget 150 --jobs 16 --seed $s \
        --out $OUT/tp-$v-s$s.md > /dev/null 2>$OUT/tp-$v-s$s.err; echo "tp $v seed $s rc=$?"
  done
done
cd $OUT && python3 - <<'PY'
t={}
for v in ('old','new'):
    t[v]={}
    for l in open(f'trace-{v}.tsv'):
        if l.startswith('variant'):
            r=l.rstrip('\n').split('\t'); t[v][r[-1]]=(float(r[5]),float(r[11]))
print('| # | pipeline ms old | new | median ms old | new | config (BM,BN,BK,KS,STAGES,FB) |')
for i,k in enumerate(sorted(t['old'])):
    o=t['old'][k]; n=t['new'].get(k,(0,0)); c=dict(x.split('=') for x in k.split(','))
    print('| %d | %.0f | %.0f | %.3f | %.3f | %s |'%(i,o[0],n[0],o[1],n[1],','.join(c[x] for x in ('BM','BN','BK','KS','STAGES','FB'))))
for v in t: print(v,'pipeline ms sum %.0f'%sum(x[0] for x in t[v].values()))
PY
for f in stats-old.txt stats-new.txt; do echo "== $f"; grep -E '^ +[0-9]+ ' $f | sed -E 's/^ +[0-9]+ +([0-9.]+) .*(BM=[0-9]+,BN=[0-9]+).*(KS=[12]).*\[(.*)\]$/\1 \2 \3 \4/' | sed 's/Binary Size=[0-9]*; //;s/Stack Size=0; //' | cut -c1-150; done
for f in tp-*.md; do echo "== $f"; grep "NVIDIA" $f | cut -d'|' -f3-8,13-15; done
