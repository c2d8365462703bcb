#!/bin/sh
# Session 10, issue 21 item 2 (part gemm), H200 call 1. Session 9 found the K loop's staging (global -> registers ->
# shared) costs the SM's L1/shared throughput and concluded 0.65 of the peak needs a copy that skips that array.
# This call tests it and the alternatives, every real variant checked against the reference:
#  - AG / BG (new): A and/or B fragments loaded with coopMatLoad straight from the buffer, one K step ahead (2) or
#    at use (1), the other operand staged; both from the buffer: no shared memory, no barrier. B from the buffer
#    reads K-pairs N apart with B K x N (BT = 0) and adjacent with B stored N x K (BT = 1): both measured.
#  - the fragments-from-shared ceiling: ISO 1 / 2 with B's fragments row-major (BT = 0) against column-major (BT = 1);
#    ISO 4 for the no-shared-memory kernel (every fragment load an L1 hit).
#  - the skinny problem with cm2gemm LQ = 0 / 1 and cmgemm_splitk with LQ and AG; cm2gemm bf16 LQ = 0 / 1.
#  - every device extension the driver lists (bench/isolate/vk_extensions.py).
# Ran as: . .gl/enter.sh && sh .xfer-gemm/call1.sh (from the repository root); kept as the record of what ran.
X=$PWD/.xfer-gemm; B=$X/vkautotune; export BIN=$B
Q="--no-race --stats -q --strategy random"
T="FM=16,FN=16,FK=16,FB=0,PAD=1,SWZ=16,CL=0,BS=0,WS=0,WC=0"
C1="$T,WG_M=2,WG_N=2,TM=4,TN=4,BK=64,STAGES=1"
G32="$T,WG_M=2,WG_N=2,TM=4,TN=4,BK=32,STAGES=1,PF=0"
G16="$T,WG_M=2,WG_N=2,TM=4,TN=4,BK=16,STAGES=1,PF=0"
K2="$T,WG_M=2,WG_N=2,TM=4,TN=4,BK=32,STAGES=2,PF=0"
W42="$T,WG_M=4,WG_N=2,TM=4,TN=4,BK=32,STAGES=1,PF=0"
W11="$T,WG_M=1,WG_N=1,TM=4,TN=4,BK=32,STAGES=1,PF=0"
st() { for c in "$@"; do printf ' --start %s' "$c"; done; }
cnt() { echo $#; }
R0="$C1,PF=1,LQ=0,AG=0,BG=0 $C1,PF=0,LQ=1,AG=0,BG=0 $C1,PF=0,LQ=0,AG=2,BG=0 $C1,PF=1,LQ=0,AG=2,BG=0 $C1,PF=0,LQ=1,AG=2,BG=0"
R0="$R0 $G32,LQ=0,AG=2,BG=0 $G32,LQ=1,AG=2,BG=0 $G32,LQ=0,AG=1,BG=0 $K2,LQ=0,AG=2,BG=0 $G32,LQ=0,AG=0,BG=2 $G32,LQ=0,AG=2,BG=2 $G16,LQ=0,AG=2,BG=2"
R1="$C1,PF=1,LQ=0,AG=0,BG=0 $C1,PF=0,LQ=1,AG=0,BG=0 $G32,LQ=0,AG=2,BG=2 $G32,LQ=1,AG=2,BG=2 $G16,LQ=0,AG=2,BG=2 $G32,LQ=0,AG=0,BG=2"
R1="$R1 $C1,PF=0,LQ=0,AG=0,BG=2 $W42,LQ=0,AG=2,BG=2 $W11,LQ=0,AG=2,BG=2 $G32,LQ=0,AG=1,BG=1"
set --
set -- "$@" "ext: python3 $X/bench/isolate/vk_extensions.py"
set -- "$@" "r4096: timeout 60 $B $X/shaders/cmgemm.comp.in --space $X/spaces/cmgemm_f16_s10.ini --problem M=4096,N=4096,K=4096 --db \$RUN/real.db $Q --budget $(cnt $R0) --top $(cnt $R0) $(st $R0)"
set -- "$@" "r4096bt1: timeout 60 $B $X/shaders/cmgemm.comp.in --space $X/spaces/cmgemm_f16_s10.ini --problem M=4096,N=4096,K=4096,BT=1 --db \$RUN/real.db $Q --budget $(cnt $R1) --top $(cnt $R1) $(st $R1)"
V="$C1,PF=1,LQ=0,AG=0,BG=0 $C1,PF=0,LQ=1,AG=0,BG=0 $G32,LQ=0,AG=2,BG=0 $C1,PF=0,LQ=0,AG=2,BG=0"
set -- "$@" "r8192: timeout 45 $B $X/shaders/cmgemm.comp.in --space $X/spaces/cmgemm_f16_s10.ini --problem M=8192,N=8192,K=8192 --db \$RUN/real.db $Q --budget 4 --top 4 $(st $V)"
V="$C1,PF=1,LQ=0,AG=0,BG=0 $G32,LQ=0,AG=2,BG=2 $W42,LQ=0,AG=2,BG=2"
set -- "$@" "r8192bt1: timeout 40 $B $X/shaders/cmgemm.comp.in --space $X/spaces/cmgemm_f16_s10.ini --problem M=8192,N=8192,K=8192,BT=1 --db \$RUN/real.db $Q --budget 3 --top 3 $(st $V)"
# the skinny problem: split K with LQ and AG, cm2gemm with LQ
C1S="FM=16,FN=16,FK=16,WG_M=2,WG_N=2,TM=4,TN=4,BK=64,STAGES=1,FB=0,PAD=1,SWZ=16,CL=0,BS=0"
S1S="FM=16,FN=16,FK=16,WG_M=4,WG_N=4,TM=2,TN=2,BK=64,STAGES=1,PF=1,FB=1,PAD=1,SWZ=1,CL=0,BS=0"
G32S="FM=16,FN=16,FK=16,WG_M=2,WG_N=2,TM=4,TN=4,BK=32,STAGES=1,PF=0,FB=0,PAD=1,SWZ=16,CL=0,BS=0"
V="$C1S,PF=1,KS=2,LQ=0,AG=0,BG=0 $C1S,PF=0,KS=2,LQ=1,AG=0,BG=0 $C1S,PF=0,KS=4,LQ=1,AG=0,BG=0 $C1S,PF=1,KS=1,LQ=0,AG=0,BG=0"
V="$V $S1S,KS=1,LQ=0,AG=0,BG=0 $S1S,KS=1,LQ=1,AG=0,BG=0 $G32S,KS=2,LQ=0,AG=2,BG=0 $G32S,KS=1,LQ=0,AG=2,BG=0"
set -- "$@" "splitk: timeout 60 $B $X/shaders/cmgemm.comp.in --space $X/spaces/cmgemm_splitk_f16_s10.ini --problem M=4096,N=512,K=14336 --db \$RUN/real.db $Q --budget 8 --top 8 $(st $V)"
M2="BM=128,BN=128,BK=64,NSG=4,LOAD=0,KU=8,KW=16,STAGES=1,PAD=0,SWZ=8"
M3="BM=64,BN=128,BK=64,NSG=4,LOAD=0,KU=8,KW=16,STAGES=1,PAD=0,SWZ=1"
M4="BM=128,BN=64,BK=64,NSG=4,LOAD=0,KU=8,KW=16,STAGES=1,PAD=0,SWZ=1"
set -- "$@" "cm2skinny: timeout 40 $B $X/shaders/cm2gemm.comp.in --space $X/spaces/cm2gemm_f16.ini --problem M=4096,N=512,K=14336 --db \$RUN/real.db $Q --budget 6 --top 6 $(st $M2,LQ=0 $M2,LQ=1 $M3,LQ=0 $M3,LQ=1 $M4,LQ=0 $M4,LQ=1)"
for P in M=4096,N=4096,K=4096 M=8192,N=8192,K=8192; do
  S=$(echo $P | cut -d, -f1 | tr -d 'M=')
  set -- "$@" "cm2bf16_$S: timeout 30 $B $X/shaders/cm2gemm.comp.in --space $X/spaces/cm2gemm_bf16.ini --problem $P --db \$RUN/real.db $Q --budget 2 --top 2 $(st $M2,LQ=0 $M2,LQ=1)"
  set -- "$@" "cm2f16_$S: timeout 30 $B $X/shaders/cm2gemm.comp.in --space $X/spaces/cm2gemm_f16.ini --problem $P --db \$RUN/real.db $Q --budget 2 --top 2 $(st $M2,LQ=0 $M2,LQ=1)"
done
# isolations (no check: the results are wrong by design)
IT="FM=16,FN=16,FK=16,FB=0,PAD=1,SWZ=16,TP=0,SP=0,WG_M=2,WG_N=2,TM=4,TN=4,BK=64,STAGES=1,PF=0,LQ=0"
IG="FM=16,FN=16,FK=16,FB=0,PAD=1,SWZ=16,TP=0,SP=0,WG_M=2,WG_N=2,TM=4,TN=4,BK=32,STAGES=1,PF=0,LQ=0"
for I in 0 1 2 4; do
  for BT in 0 1; do
    set -- "$@" "iso${I}bt$BT: timeout 25 $B $X/shaders/cmgemm.comp.in --space $X/bench/isolate/cmgemm_iso_f16_s10.ini --problem M=4096,N=4096,K=4096,ISO=$I,BT=$BT --db \$RUN/iso.db $Q --budget 3 --top 3 $(st $IT,AG=0,BG=0 $IG,AG=2,BG=0 $IG,AG=2,BG=2)"
  done
done
sh bench/device_run.sh --top 0 s10-gemm-call1 "$@"
R=$OUT/s10-gemm-call1; L=/tmp/s10-gemm-logs1; mkdir -p $L; tar xzf $R/s10-gemm-call1.tgz -C $L 2>/dev/null
for f in $L/*.log; do echo "== $(basename $f .log)"; grep -E "^ +[0-9]+ |wrong|WRONG|rror|failed" $f | cut -c1-200 | sed 's/FM=16,FN=16,FK=16,//; s/,CL=0,BS=0,WS=0,WC=0//; s/Binary Size=[0-9]*; //; s/Local Memory Size=[0-9]*; //'; done 2>/dev/null
grep -i -E "copy|async|tensor|coop|memory|cluster|shader" $L/ext.log 2>/dev/null | head -40
