import sys,collections
rows=collections.defaultdict(list)
for line in open(sys.argv[1]):
    if line[0] in '#s': continue
    f=line.strip().split(',')
    rows[int(f[0])].append((int(f[1]),f[2],int(f[3]),float(f[4]),tuple(map(int,f[5:]))))
N=int(sys.argv[2]) if len(sys.argv)>2 else 100
stuck=0
for seed,r in sorted(rows.items()):
    r=[x for x in r if x[0]<=N]
    frac=r[-1][3]
    fam=[x for x in r if x[4][0]==3 and x[4][1]==3 and x[4][12]==1 and x[4][13]==1]
    famok=[x for x in fam if not x[2]]
    first=min([x[0] for x in famok],default=None)
    nfail=sum(x[2] for x in r)
    print(seed, round(frac,3), 'fails',nfail,'in-fam',len(fam),'ok',len(famok),'first ok',first, 'by', collections.Counter(x[1] for x in fam).most_common())
