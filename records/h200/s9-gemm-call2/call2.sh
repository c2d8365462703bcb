#!/bin/sh
# Session 9, issue 21 item 2 (part gemm), H200 call 2. Call 1 showed the loop's global loads cost about as much when
# they hit L1 (ISO 4) as when they come from L2, and touch prefetch and split prefetch lost: a throughput cost, not
# latency. This call measures what would cut the bytes through the SM's L1/shared-memory array per flop: LQ (A and
# B coherent: loads that skip L1; or restrict), larger workgroup tiles (256 x 128, 128 x 256), 8 subgroups of
# 64 x 32 (2 workgroups per SM if they fit in 128 registers), the store of C (ISO 6) and the loop ceilings of the
# larger tiles (ISO 1, 2). Every real variant checked. fp16 4096^3 unless named; 8192^3, the skinny problem, bf16.
# Ran as: . .gl/enter.sh && sh .xfer-gemm/call2.sh (from the repository root); kept as the record of what ran.
X=$PWD/.xfer-gemm; B=$X/vkautotune; export BIN=$B
Q="--no-race --stats -q --strategy random"
T="FM=16,FN=16,FK=16,FB=0,PAD=1,SWZ=16,CL=0,BS=0,WS=0,WC=0,TP=0,SP=0"
C1="$T,WG_M=2,WG_N=2,TM=4,TN=4,BK=64,STAGES=1"
W256="$T,WG_M=4,WG_N=2,TM=4,TN=4,BK=32,STAGES=1"
N256="$T,WG_M=2,WG_N=4,TM=4,TN=4,BK=32,STAGES=1"
E8A="$T,WG_M=2,WG_N=4,TM=4,TN=2,BK=64,STAGES=1"
E8B="$T,WG_M=4,WG_N=2,TM=2,TN=4,BK=64,STAGES=1"
K2="$T,WG_M=2,WG_N=2,TM=4,TN=4,BK=32,STAGES=2,PF=0"
S1="$T,WG_M=4,WG_N=4,TM=2,TN=2,BK=64,STAGES=1"
IT="FM=16,FN=16,FK=16,FB=0,PAD=1,SWZ=16,TP=0,SP=0"
st() { for c in "$@"; do printf ' --start %s' "$c"; done; }
set --
V=$(st $C1,PF=1,LQ=0 $C1,PF=1,LQ=1 $C1,PF=1,LQ=2 $C1,PF=0,LQ=0 $C1,PF=0,LQ=1 $C1,PF=0,LQ=2 \
  $(echo $C1 | sed s/FB=0/FB=1/),PF=0,LQ=0 $K2,LQ=1 \
  $W256,PF=0,LQ=0 $W256,PF=1,LQ=0 $W256,PF=0,LQ=1 $W256,PF=1,LQ=1 \
  $N256,PF=0,LQ=0 $N256,PF=1,LQ=0 $N256,PF=0,LQ=1 $N256,PF=1,LQ=1 \
  $E8A,PF=0,LQ=0 $E8A,PF=1,LQ=0 $E8A,PF=0,LQ=1 $E8A,PF=1,LQ=1 $E8B,PF=0,LQ=0 $E8B,PF=0,LQ=1)
set -- "$@" "r4096: timeout 90 $B $X/shaders/cmgemm.comp.in --space $X/spaces/cmgemm_f16_s9.ini --problem M=4096,N=4096,K=4096 --db \$RUN/real.db $Q --budget 22 --top 22 $V"
V=$(st $C1,PF=1,LQ=0 $C1,PF=1,LQ=1 $C1,PF=0,LQ=0 $C1,PF=0,LQ=1 $W256,PF=0,LQ=0 $W256,PF=0,LQ=1 $N256,PF=0,LQ=1 $E8A,PF=0,LQ=1)
set -- "$@" "r8192: timeout 60 $B $X/shaders/cmgemm.comp.in --space $X/spaces/cmgemm_f16_s9.ini --problem M=8192,N=8192,K=8192 --db \$RUN/real.db $Q --budget 8 --top 8 $V"
V=$(st $S1,PF=1,LQ=0 $S1,PF=1,LQ=1 $S1,PF=0,LQ=1 $C1,PF=1,LQ=0 $C1,PF=1,LQ=1 $E8A,PF=0,LQ=1)
set -- "$@" "skinny: timeout 40 $B $X/shaders/cmgemm.comp.in --space $X/spaces/cmgemm_f16_s9.ini --problem M=4096,N=512,K=14336 --db \$RUN/real.db $Q --budget 6 --top 6 $V"
V=$(st $C1,PF=1,LQ=0 $C1,PF=1,LQ=1 $C1,PF=0,LQ=1)
set -- "$@" "bf16: timeout 30 $B $X/shaders/cmgemm.comp.in --space $X/spaces/cmgemm_bf16_s9.ini --problem M=4096,N=4096,K=4096 --db \$RUN/real.db $Q --budget 3 --top 3 $V"
for I in 0 1 2 4 6; do
  V=$(st $IT,WG_M=2,WG_N=2,TM=4,TN=4,BK=64,STAGES=1,PF=1,LQ=0 $IT,WG_M=2,WG_N=2,TM=4,TN=4,BK=64,STAGES=1,PF=0,LQ=1 $IT,WG_M=4,WG_N=2,TM=4,TN=4,BK=32,STAGES=1,PF=0,LQ=0 $IT,WG_M=2,WG_N=4,TM=4,TN=2,BK=64,STAGES=1,PF=0,LQ=0)
  set -- "$@" "iso$I: timeout 25 $B $X/shaders/cmgemm.comp.in --space $X/bench/isolate/cmgemm_iso_f16_s9.ini --problem M=4096,N=4096,K=4096,ISO=$I --db \$RUN/iso.db $Q --budget 4 --top 4 $V"
done
sh bench/device_run.sh --top 0 s9-gemm-call2 "$@"
R=$OUT/s9-gemm-call2; L=/tmp/s9-gemm-logs2; mkdir -p $L; tar xzf $R/s9-gemm-call2.tgz -C $L 2>/dev/null
for f in $L/*.log; do echo "== $(basename $f .log)"; grep -E "evaluated|^ +[0-9]+ |wrong|WRONG|rror" $f | cut -c1-200 | sed 's/FM=16,FN=16,FK=16,//; s/,CL=0,BS=0,WS=0,WC=0//; s/Binary Size=.*//'; done 2>/dev/null
