#!/bin/sh
# Session 9, issue 21 item 2 (part gemm), H200 call 3. Call 2: coherent A and B (loads that skip L1) made the
# L1-hit isolation faster (the L1 array's fills and reads cost what shared memory does) but the real kernel gained
# at most 1% (PF = 0; with PF = 1 it lost 12%). This call: LQ = 3 (nontemporal A and B) in cmgemm and LQ in cm2gemm
# (the coopmat2 driver path), against the same configurations without, every real variant checked; a 45 s search
# from scratch in the space with all the new knobs; then the benchmark table (bench/gemm_vs_cublas.py: peaks,
# cuBLAS, the spaces as on main, seeded with the best known configurations).
# Ran as: . .gl/enter.sh && sh .xfer-gemm/call3.sh (from the repository root); kept as the record of what ran.
X=$PWD/.xfer-gemm; B=$X/vkautotune; export BIN=$B
Q="--no-race --stats -q --strategy random"
T="FM=16,FN=16,FK=16,FB=0,PAD=1,SWZ=16,CL=0,BS=0,WS=0,WC=0,TP=0"
C1="$T,WG_M=2,WG_N=2,TM=4,TN=4,BK=64,STAGES=1,SP=0"
K2="$T,WG_M=2,WG_N=2,TM=4,TN=4,BK=32,STAGES=2,PF=0"
S1="$T,WG_M=4,WG_N=4,TM=2,TN=2,BK=64,STAGES=1,SP=0"
IT="FM=16,FN=16,FK=16,FB=0,PAD=1,SWZ=16,TP=0,SP=0,WG_M=2,WG_N=2,TM=4,TN=4,BK=64,STAGES=1"
M2="BM=128,BN=128,BK=64,NSG=4,LOAD=0,KU=8,KW=16,STAGES=1,PAD=0,SWZ=8"
st() { for c in "$@"; do printf ' --start %s' "$c"; done; }
set --
V=$(st $C1,PF=1,LQ=0 $C1,PF=1,LQ=3 $C1,PF=0,LQ=3 $C1,PF=0,LQ=1 $K2,SP=0,LQ=3 $K2,SP=1,LQ=3 $K2,SP=1,LQ=1)
set -- "$@" "r4096: timeout 45 $B $X/shaders/cmgemm.comp.in --space $X/spaces/cmgemm_f16_s9.ini --problem M=4096,N=4096,K=4096 --db \$RUN/real.db $Q --budget 7 --top 7 $V"
V=$(st $C1,PF=1,LQ=0 $C1,PF=1,LQ=3 $C1,PF=0,LQ=3 $C1,PF=0,LQ=1)
set -- "$@" "r8192: timeout 45 $B $X/shaders/cmgemm.comp.in --space $X/spaces/cmgemm_f16_s9.ini --problem M=8192,N=8192,K=8192 --db \$RUN/real.db $Q --budget 4 --top 4 $V"
set -- "$@" "bf16: timeout 30 $B $X/shaders/cmgemm.comp.in --space $X/spaces/cmgemm_bf16_s9.ini --problem M=4096,N=4096,K=4096 --db \$RUN/real.db $Q --budget 3 --top 3 $(st $C1,PF=1,LQ=0 $C1,PF=1,LQ=3 $C1,PF=0,LQ=3)"
set -- "$@" "skinny: timeout 30 $B $X/shaders/cmgemm.comp.in --space $X/spaces/cmgemm_f16_s9.ini --problem M=4096,N=512,K=14336 --db \$RUN/real.db $Q --budget 2 --top 2 $(st $S1,PF=1,LQ=0 $S1,PF=1,LQ=3)"
for I in 0 4; do
  set -- "$@" "iso$I: timeout 25 $B $X/shaders/cmgemm.comp.in --space $X/bench/isolate/cmgemm_iso_f16_s9.ini --problem M=4096,N=4096,K=4096,ISO=$I --db \$RUN/iso.db $Q --budget 4 --top 4 $(st $IT,PF=0,LQ=0 $IT,PF=0,LQ=1 $IT,PF=0,LQ=3 $IT,PF=1,LQ=3)"
done
for P in M=4096,N=4096,K=4096 M=8192,N=8192,K=8192; do
  set -- "$@" "cm2_$(echo $P | cut -d, -f1 | tr -d 'M='): timeout 40 $B $X/shaders/cm2gemm.comp.in --space $X/spaces/cm2gemm_f16_s9.ini --problem $P --db \$RUN/real.db $Q --budget 4 --top 4 $(st $M2,LQ=0 $M2,LQ=1 $M2,LQ=2 $M2,LQ=3)"
done
set -- "$@" "scratch: timeout 60 $B $X/shaders/cmgemm.comp.in --space $X/spaces/cmgemm_f16_s9.ini --problem M=4096,N=4096,K=4096 --db \$RUN/scratch.db --budget 45s --stats -q --top 5"
TC="FM=16,FN=16,FK=16,WG_M=2,WG_N=2,TM=4,TN=4,BK=64,STAGES=1,PF=1,FB=0,PAD=1,SWZ=16,CL=0,BS=0,WS=0,WC=0"
TS="FM=16,FN=16,FK=16,WG_M=4,WG_N=4,TM=2,TN=2,BK=64,STAGES=1,PF=1,FB=1,PAD=1,SWZ=1,CL=0,BS=0,WS=0,WC=0"
M3="BM=64,BN=128,BK=64,NSG=4,LOAD=0,KU=8,KW=16,STAGES=1,PAD=0,SWZ=1"
M4="BM=128,BN=64,BK=64,NSG=4,LOAD=0,KU=8,KW=16,STAGES=1,PAD=0,SWZ=1"
set -- "$@" "table: timeout 190 python3 $X/tab/bench/gemm_vs_cublas.py --bin $B --verify-bin $X/gemm_verify --src $X/tab --templates cmgemm,cm2gemm --only fp16,bf16 --budget 5 --refresh-peaks --db \$RUN/gemm.db --out \$RUN/gemm_vs_cublas.md $(st $TC $TS $M2 $M3 $M4)"
sh bench/device_run.sh --top 0 s9-gemm-call3 "$@"
R=$OUT/s9-gemm-call3; L=/tmp/s9-gemm-logs3; mkdir -p $L; tar xzf $R/s9-gemm-call3.tgz -C $L 2>/dev/null
for f in $L/*.log; do echo "== $(basename $f .log)"; grep -E "evaluated|^ +[0-9]+ |wrong|WRONG|rror" $f | cut -c1-190 | sed 's/FM=16,FN=16,FK=16,//; s/,CL=0,BS=0,WS=0,WC=0//; s/Binary Size=.*//'; done 2>/dev/null
