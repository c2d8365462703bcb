#!/bin/sh
# session 8, int8 call 1 (issue 21 items 3 and 5), H200. (a) The K-loop isolation ISO = 0..3 of int8
# (bench/isolate/cmgemm_iso_s8.ini) for the best BT = 1 configuration (C1, lead call 0) and the best BT = 0 one of
# session 6 (C0), in both layouts of B, 4096^3. (b) C1 and C0 re-measured (checked) on the three problems in both
# layouts. (c) bench/gemm_vs_cublas.py int8 from scratch (no --start): BT = 1 45 s per problem, BT = 0 20 s, each
# against torch._int_mm with B stored the same way and the int8 peak measured in the same call. (d) split K for
# int8 (spaces/cmgemm_splitk_s8.ini) on M=4096,N=512,K=14336, BT = 1, 30 s seeded with C1 at KS = 1, 2, 4.
# The binary has the device-side integer check (commit 86e41b7 on s8-int8).
X=$PWD/.xfer-int8; T=$X/tree; B=$X/vkautotune; export BIN=$B
C1='FM=16,FN=16,FK=32,WG_M=4,WG_N=2,TM=2,TN=2,BK=128,STAGES=1,PF=0,FB=0,PAD=1,SWZ=4'
C0='FM=16,FN=16,FK=32,WG_M=2,WG_N=2,TM=4,TN=4,BK=128,STAGES=1,PF=1,FB=0,PAD=1,SWZ=4'
K='CL=0,WS=0,WC=0'
G="python3 $T/bench/gemm_vs_cublas.py --bin $B --src $T --db \$RUN/scratch.db"
set --
for BT in 0 1; do for I in 0 1 2 3; do
  set -- "$@" "iso_bt${BT}_$I: timeout 30 $B $T/shaders/cmgemm.comp.in --space $T/bench/isolate/cmgemm_iso_s8.ini --problem M=4096,N=4096,K=4096,BT=$BT,ISO=$I --db \$RUN/iso.db --no-race --stats -q --strategy random --budget 2 --start $C1 --start $C0 --top 2"
done; done
for P in M=4096,N=4096,K=4096 M=8192,N=8192,K=8192 M=4096,N=512,K=14336; do for BT in 0 1; do
  set -- "$@" "seeded_$(echo $P | tr -d 'MNK=' | tr , x)_bt$BT: timeout 40 $B $T/shaders/cmgemm.comp.in --space $T/spaces/cmgemm_s8.ini --problem $P,BT=$BT --db \$RUN/seeded.db --no-race --stats -q --strategy random --budget 2 --start $C1,$K --start $C0,$K --top 2"
done; done
set -- "$@" "scratch_bt1: timeout 200 $G --templates cmgemm --only int8 --bt 1 --budget 45s --out \$RUN/int8_bt1.md"
set -- "$@" "scratch_bt0: timeout 110 $G --templates cmgemm --only int8 --bt 0 --budget 20s --out \$RUN/int8_bt0.md"
set -- "$@" "splitk_bt1: timeout 60 $G --templates cmgemm_splitk --only int8 --bt 1 --problems 4096x512x14336 --budget 30s --start $C1,CL=0,KS=1 --start $C1,CL=0,KS=2 --start $C1,CL=0,KS=4 --out \$RUN/splitk_bt1.md"
sh bench/device_run.sh --top 3 s8-int8-call1 "$@"
R=$OUT/s8-int8-call1
echo "---- iso / seeded"; for f in $R/iso_*.log $R/seeded_*.log; do echo "== $(basename $f .log)"; grep -E "^ +[12] " $f | cut -c1-170; done 2>/dev/null
for m in int8_bt1 int8_bt0 splitk_bt1; do echo "---- $m"; grep -E "^\| cmgemm" $R/$m.md | cut -d'|' -f4-12; done 2>/dev/null
grep -h "torch._int_mm\|Tensor-core" $R/scratch_bt*.log 2>/dev/null | cut -c1-200
