#!/bin/sh
# Session 7, issue 21, fifth H200 call: the A fragments loaded straight from the buffer (cmgemm.comp.in AG = 1, no A
# in shared memory: A's share of the shared-memory traffic gone) against C1 staged as usual, fp16 4096^3, every
# variant checked. AG is a problem #define; the space is cmgemm_f16.ini with AG = 1 added to [problem].
# Ran as: X=.xfer-21 sh .xfer-21/bench/s7/issue21_call5.sh (from the repository root, after `. .gl/enter.sh`);
# kept as the record of what ran.
set -u
X=${X:-.xfer-21}
export BIN=$X/vkautotune X
sed -e 's/^BF16 = 0$/BF16 = 0\nAG = 1/' -e 's/^name = cmgemm_f16$/name = cmgemm_ag_f16/' $X/spaces/cmgemm_f16.ini > $X/spaces/cmgemm_ag_f16.ini
C="FM=16,FN=16,FK=16,PAD=1,SWZ=16,CL=0,BS=0"
C1="$C,WG_M=2,WG_N=2,TM=4,TN=4,BK=64,STAGES=1,PF=1"
K2="$C,WG_M=2,WG_N=2,TM=4,TN=4,BK=32,STAGES=2,PF=0"
W="$C,WG_M=1,WG_N=4,TM=4,TN=2,BK=64,STAGES=1,PF=1"
COMMON="--db \$RUN/t.db --no-race --stats -q --strategy random"
exec sh bench/device_run.sh --timeout 60 --top 8 s7-21-call5 \
  "staged: $BIN $X/shaders/cmgemm.comp.in --space $X/spaces/cmgemm_f16.ini $COMMON --budget 2 --top 2 --start $C1,FB=0 --start $W,FB=0" \
  "ag: $BIN $X/shaders/cmgemm.comp.in --space $X/spaces/cmgemm_ag_f16.ini $COMMON --budget 6 --top 6 --start $C1,FB=0 --start $C1,FB=1 --start $K2,FB=0 --start $K2,FB=1 --start $W,FB=0 --start $W,FB=1"
