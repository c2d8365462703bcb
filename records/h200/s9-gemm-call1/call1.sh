#!/bin/sh
# Session 9, issue 21 item 2 (part gemm), H200 call 1: where the exposed global loads go (ISO 4: loads that hit
# L1, ISO 5: loads that hit L2) and the new cmgemm knobs measured one at a time against C1 in the same call, every
# real variant checked: TP (touch prefetch), SP (split register prefetch), PF = 2 (loads before the barrier).
# Ran as: . .gl/enter.sh && sh .xfer-gemm/call1.sh (from the repository root); kept as the record of what ran.
X=$PWD/.xfer-gemm; B=$X/vkautotune; export BIN=$B
Q="--no-race --stats -q --strategy random"
F="FM=16,FN=16,FK=16,FB=0,PAD=1,SWZ=16,CL=0,BS=0,WS=0,WC=0,SP=0"
C1="FM=16,FN=16,FK=16,WG_M=2,WG_N=2,TM=4,TN=4,BK=64,STAGES=1,FB=0,PAD=1,SWZ=16,CL=0,BS=0,WS=0,WC=0"
K2="FM=16,FN=16,FK=16,WG_M=2,WG_N=2,TM=4,TN=4,BK=32,STAGES=2,PF=0,FB=0,PAD=1,SWZ=16,CL=0,BS=0,WS=0,WC=0"
S1="FM=16,FN=16,FK=16,WG_M=4,WG_N=4,TM=2,TN=2,BK=64,STAGES=1,FB=0,PAD=1,SWZ=16,CL=0,BS=0,WS=0,WC=0"
ISOC="FM=16,FN=16,FK=16,WG_M=2,WG_N=2,TM=4,TN=4,BK=64,STAGES=1,FB=0,PAD=1,SWZ=16,SP=0"
set --
for I in 0 1 2 4 5; do
  set -- "$@" "iso$I: timeout 25 $B $X/shaders/cmgemm.comp.in --space $X/bench/isolate/cmgemm_iso_f16_s9.ini --problem M=4096,N=4096,K=4096,ISO=$I --db \$RUN/iso.db $Q --budget 3 --top 3 --start $ISOC,PF=1,TP=0 --start $ISOC,PF=0,TP=0 --start $ISOC,PF=0,TP=1"
done
V4="--start $C1,PF=1,TP=0,SP=0 --start $C1,PF=1,TP=2,SP=0 --start $C1,PF=2,TP=0,SP=0 --start $C1,PF=2,TP=2,SP=0 --start $C1,PF=0,TP=0,SP=0 --start $C1,PF=0,TP=1,SP=0 --start $C1,PF=1,TP=1,SP=0"
V4="$V4 --start $(echo $C1 | sed s/CL=0/CL=1/),PF=1,TP=2,SP=0 --start $(echo $C1 | sed s/FB=0/FB=1/),PF=1,TP=2,SP=0"
V4="$V4 --start $K2,TP=0,SP=0 --start $K2,TP=2,SP=0 --start $K2,TP=0,SP=1 --start $K2,TP=2,SP=1 --start $K2,TP=1,SP=1"
set -- "$@" "r4096: timeout 75 $B $X/shaders/cmgemm.comp.in --space $X/spaces/cmgemm_f16_s9.ini --problem M=4096,N=4096,K=4096 --db \$RUN/real.db $Q --budget 14 --top 14 $V4"
set -- "$@" "r4096_tpg128: timeout 30 $B $X/shaders/cmgemm.comp.in --space $X/spaces/cmgemm_f16_s9.ini --problem M=4096,N=4096,K=4096,TPG=128 --db \$RUN/real.db $Q --budget 4 --top 4 --start $C1,PF=1,TP=2,SP=0 --start $C1,PF=0,TP=1,SP=0 --start $C1,PF=2,TP=2,SP=0 --start $K2,TP=2,SP=1"
set -- "$@" "r8192: timeout 60 $B $X/shaders/cmgemm.comp.in --space $X/spaces/cmgemm_f16_s9.ini --problem M=8192,N=8192,K=8192 --db \$RUN/real.db $Q --budget 6 --top 6 --start $C1,PF=1,TP=0,SP=0 --start $C1,PF=1,TP=2,SP=0 --start $C1,PF=2,TP=2,SP=0 --start $C1,PF=0,TP=1,SP=0 --start $K2,TP=0,SP=0 --start $K2,TP=2,SP=1"
set -- "$@" "skinny: timeout 40 $B $X/shaders/cmgemm.comp.in --space $X/spaces/cmgemm_f16_s9.ini --problem M=4096,N=512,K=14336 --db \$RUN/real.db $Q --budget 4 --top 4 --start $C1,PF=1,TP=0,SP=0 --start $C1,PF=1,TP=2,SP=0 --start $S1,PF=1,TP=0,SP=0 --start $S1,PF=1,TP=2,SP=0"
sh bench/device_run.sh --top 0 s9-gemm-call1 "$@"
R=$OUT/s9-gemm-call1; L=/tmp/s9-gemm-logs; mkdir -p $L; tar xzf $R/s9-gemm-call1.tgz -C $L 2>/dev/null
for f in $L/*.log; do echo "== $(basename $f .log)"; grep -E "^ +[0-9]+ |wrong|WRONG|rror" $f | cut -c1-230; done 2>/dev/null
