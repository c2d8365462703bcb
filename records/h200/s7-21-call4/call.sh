#!/bin/sh
# Session 7, issue 21, fourth H200 call (the third with the reduce pass fixed: it lacked GL_EXT_control_flow_attributes): split K for the skinny problem (M=4096, N=512, K=14336: 128 output tiles
# of 128 x 128 for 132 SMs), spaces/cmgemm_splitk_f16.ini / _bf16.ini: the two best one-pass configurations at
# KS = 1, 2, 4, then from scratch (issue item 5) for fp16 and bf16.
#   Ran as: X=.xfer-21 sh .xfer-21/bench/s7/issue21_call4.sh (from the repository root, after `. .gl/enter.sh`); kept here as the record of what ran.
set -u
X=${X:-.xfer-21}
export BIN=$X/vkautotune X
C1="FM=16,FN=16,FK=16,WG_M=2,WG_N=2,TM=4,TN=4,BK=64,STAGES=1,PF=1,FB=0,PAD=1,SWZ=16,CL=0,BS=0"
S1="FM=16,FN=16,FK=16,WG_M=4,WG_N=4,TM=2,TN=2,BK=64,STAGES=1,PF=1,FB=1,PAD=1,SWZ=1,CL=0,BS=0"
S2="FM=16,FN=16,FK=16,WG_M=2,WG_N=4,TM=4,TN=2,BK=64,STAGES=1,PF=1,FB=0,PAD=1,SWZ=1,CL=0,BS=0"
ST=""
for ks in 1 2 4; do ST="$ST --start $C1,KS=$ks --start $S1,KS=$ks --start $S2,KS=$ks"; done
SK="--problem M=4096,N=512,K=14336"
exec sh bench/device_run.sh --timeout 200 --top 8 s7-21-call4 \
  "peaks: $BIN peaks --db \$RUN/t.db" \
  "splitk_seeds: $BIN $X/shaders/cmgemm.comp.in --space $X/spaces/cmgemm_splitk_f16.ini $SK --db \$RUN/t.db --no-race --stats -q --strategy random --budget 9 --top 9 $ST" \
  "splitk_f16_scratch: $BIN $X/shaders/cmgemm.comp.in --space $X/spaces/cmgemm_splitk_f16.ini $SK --db \$RUN/s.db --stats -q --budget 45s --top 5" \
  "splitk_bf16_scratch: $BIN $X/shaders/cmgemm.comp.in --space $X/spaces/cmgemm_splitk_bf16.ini $SK --db \$RUN/s.db --stats -q --budget 30s --top 5"
