# Session 22 lead call 4: sgemm_wt on the skinny problem (M=4096, N=512, K=14336) with the sliced-K fix: the KS = 2
# part of the space alone, then bench/gemm_vs_cublas.py (the whole space, seeded with the earlier best) with cuBLAS.
set -u
B=$PWD/.dev22/vkautotune
export __GL_SHADER_DISK_CACHE=0
P=M=4096,N=512,K=14336
OLD=BM=128,BN=128,BK=32,WM=16,WN=64,WMITER=1,WNITER=1,TM=8,TN=4,WARP=32,KS=1,STAGES=1,SWZ=2,GM=8,PF=1,FB=0,KU=1,CL=0,SK=0
$B --space .dev22/ks2.ini --problem $P --budget 40s --seed 1 --db /tmp/ks2.db --top 5 > $OUT/ks2.txt 2>&1; echo "ks2 rc=$?"
python3 bench/gemm_vs_cublas.py --bin $B --templates sgemm_wt --problems 4096x512x14336 --budget 60s --start $OLD \
    --db /tmp/g.db --out $OUT/gemm.md > $OUT/gemm.log 2>&1; echo "gemm rc=$?"
grep -A8 "^rank" $OUT/ks2.txt | cut -c1-200
tail -15 $OUT/gemm.md | cut -c1-300
