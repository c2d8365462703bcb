#!/bin/sh
# Session 7, issue 21, part 21b, second H200 call: experiment 1 again (the first call's smem step failed: its space
# sized buffers by parameters, which the tool rejects; fixed in smem_frag_f16.ini), nothing else. Originally: the peaks; experiment 1 (bench/isolate/smem_frag: a K loop of
# only cooperative-matrix fragment loads from shared memory and multiply-adds, MODE 0; only fragment loads, MODE 1;
# only multiply-adds, MODE 2; over the GEMM's tile shapes, 16x16x16 and 16x8x16; with the SM clock sampled); and
# experiment 2 (cmgemm.comp.in's producer subgroups WS / WC, fp16 4096^3: the seeds measured in full, then one
# tune with WS > 0 only and one with WS = 0 only, each seeded; each winner exported and re-timed by gemm_verify).
# Ran as: X=.xfer-21b sh .xfer-21b/call.sh (from the repository root, after `. .gl/enter.sh`); kept as the record
# of what ran.
set -u
X=${X:-.xfer-21b}
export BIN=$X/vkautotune X
V=$X/gemm_verify
# the spaces of the two tunes: cmgemm_f16.ini with WS > 0 only, and with WS = 0 (today's kernel) only
sed -e 's/^WS = 0, 1, 2, 4 /WS = 1, 2, 4 /' -e 's/^WC = 0, 4, 8 /WC = 0, 4, 8 /' $X/spaces/cmgemm_f16.ini > $X/spaces/cmgemm_ws_f16.ini
sed -e 's/^WS = 0, 1, 2, 4 /WS = 0 /' -e 's/^WC = 0, 4, 8 /WC = 0 /' $X/spaces/cmgemm_f16.ini > $X/spaces/cmgemm_ws0_f16.ini
COMMON="--no-race --stats -q --strategy random"
# experiment 1: tile shapes (WG_M, WG_N, TM, TN) for 16x16x16 (FN = 16) and 16x8x16 (FN = 8, TN doubled)
F="FM=16,FK=16,PAD=1,BK=64,BAR=1"
E1=""
for t in "2,2,4,4,8" "4,2,2,4,8" "2,4,4,2,4" "2,2,2,4,8" "2,2,4,2,4"; do
    IFS=, read wm wn tm tn tn8 <<T
$t
T
    E1="$E1 --start $F,FN=16,WG_M=$wm,WG_N=$wn,TM=$tm,TN=$tn --start $F,FN=8,WG_M=$wm,WG_N=$wn,TM=$tm,TN=$tn8"
done
E1="$E1 --start FM=16,FK=16,PAD=0,BK=64,BAR=1,FN=16,WG_M=2,WG_N=2,TM=4,TN=4"
E1="$E1 --start FM=16,FK=16,PAD=1,BK=32,BAR=0,FN=16,WG_M=2,WG_N=2,TM=4,TN=4"
E1="$E1 --start FM=16,FK=16,PAD=1,BK=32,BAR=1,FN=16,WG_M=2,WG_N=2,TM=4,TN=4"
N1=13
S1="$BIN $X/bench/isolate/smem_frag.comp.in --space $X/bench/isolate/smem_frag_f16.ini --db \$RUN/iso.db $COMMON"
ISO="$BIN $X/shaders/cmgemm.comp.in --space $X/bench/isolate/cmgemm_iso_f16.ini --db \$RUN/iso.db $COMMON"
C1I="FM=16,FN=16,FK=16,WG_M=2,WG_N=2,TM=4,TN=4,BK=64,STAGES=1,PF=1,FB=0,PAD=1,SWZ=16"
# experiment 2
C="FM=16,FN=16,FK=16,PAD=1,SWZ=16,CL=0,BS=0"
C1="$C,WG_M=2,WG_N=2,TM=4,TN=4,BK=64,STAGES=1,PF=1,FB=0,WS=0,WC=0"
K2="$C,WG_M=2,WG_N=2,TM=4,TN=4,BK=32,STAGES=2,PF=0"
W8="$C,WG_M=2,WG_N=4,TM=4,TN=2,BK=32,STAGES=2,PF=0"
W8B="$C,WG_M=4,WG_N=2,TM=2,TN=4,BK=32,STAGES=2,PF=0"
SW=""
SW="--start $K2,FB=0,WS=1,WC=4 --start $K2,FB=0,WS=1,WC=8 --start $K2,FB=0,WS=2,WC=0 --start $K2,FB=0,WS=2,WC=4"
SW="$SW --start $K2,FB=0,WS=2,WC=8 --start $K2,FB=0,WS=4,WC=0 --start $K2,FB=0,WS=4,WC=4 --start $K2,FB=1,WS=2,WC=8"
SW="$SW --start $K2,FB=1,WS=4,WC=4 --start $W8,FB=0,WS=2,WC=8 --start $W8,FB=0,WS=4,WC=4 --start $W8B,FB=0,WS=2,WC=8"
S0="--start $C1 --start $K2,FB=0,WS=0,WC=0 --start $K2,FB=1,WS=0,WC=0 --start $W8,FB=0,WS=0,WC=0 --start $W8B,FB=0,WS=0,WC=0"
G="$BIN $X/shaders/cmgemm.comp.in --space $X/spaces"
P4=M=4096,N=4096,K=4096
verify() { # DB SPACE: export the DB's best for 4096^3 and re-time it (gemm_verify: fp64 check of sampled elements)
    echo "$BIN export --db \$RUN/$1.db --space $X/spaces/$2.ini --problem $P4 -o \$RUN/exp-$1 -q && $V \$RUN/exp-$1 cmgemm_f16 --problem $P4"
}
exec sh bench/device_run.sh --timeout 90 --top 12 s7-21b-call2 \
  "smem: nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu --format=csv -lms 250 > \$RUN/clocks.csv & p=\$!;
    $S1 --problem M=4096,N=4096,K=16384,MODE=0 --budget $N1 --top $N1 $E1;
    $S1 --problem M=4096,N=4096,K=16384,MODE=1 --budget $N1 --top $N1 $E1;
    $S1 --problem M=4096,N=4096,K=16384,MODE=2 --budget $N1 --top $N1 $E1;
    $S1 --problem M=4096,N=4096,K=4096,MODE=0 --budget 2 --top 2 --start $F,FN=16,WG_M=2,WG_N=2,TM=4,TN=4 --start $F,FN=8,WG_M=2,WG_N=2,TM=4,TN=8;
    for i in 0 1 2; do $ISO --problem M=4096,N=4096,K=4096,ISO=\$i --budget 1 --top 1 --start $C1I; done; kill \$p"
