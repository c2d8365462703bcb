#!/bin/sh
# session 8, int8 call 2 (issue 21 item 3): BS = 1 for int8 (B K x N transposed into N-major shared rows while
# staging, new in cmgemm.comp.in) against BS = 0, same configurations, checked, three problems; ISO 2 and 3 with
# BS = 1; a 20 s search from scratch at 4096^3 BT = 0 with BS in the space. Peak: call 1's 1287.3 TOPS.
X=$PWD/.xfer-int8; T=$X/tree; B=$X/vkautotune; export BIN=$B
P0='FM=16,FN=16,FK=32,WG_M=2,WG_N=2,TM=4,TN=4,BK=128'
S="--start $P0,STAGES=1,PF=1,FB=0,PAD=1,SWZ=4,CL=0,BS=0,WS=0,WC=0 --start $P0,STAGES=1,PF=1,FB=0,PAD=1,SWZ=4,CL=0,BS=1,WS=0,WC=0 --start $P0,STAGES=1,PF=1,FB=1,PAD=1,SWZ=1,CL=1,BS=0,WS=0,WC=0 --start $P0,STAGES=1,PF=1,FB=1,PAD=1,SWZ=1,CL=1,BS=1,WS=0,WC=0"
set --
for P in M=4096,N=4096,K=4096 M=8192,N=8192,K=8192 M=4096,N=512,K=14336; do
  set -- "$@" "bs_$(echo $P | tr -d 'MNK=' | tr , x): timeout 40 $B $T/shaders/cmgemm.comp.in --space $T/spaces/cmgemm_s8.ini --problem $P,BT=0 --db \$RUN/bs.db --no-race --stats -q --strategy random --budget 4 $S --top 4"
done
for I in 2 3; do
  set -- "$@" "iso_bs_$I: timeout 30 $B $T/shaders/cmgemm.comp.in --space $T/bench/isolate/cmgemm_iso_s8.ini --problem M=4096,N=4096,K=4096,BT=0,ISO=$I --db \$RUN/iso.db --no-race --stats -q --strategy random --budget 2 --start $P0,STAGES=1,PF=1,FB=0,PAD=1,SWZ=4,BS=0 --start $P0,STAGES=1,PF=1,FB=0,PAD=1,SWZ=4,BS=1 --top 2"
done
set -- "$@" "scratch_bt0: timeout 35 $B $T/shaders/cmgemm.comp.in --space $T/spaces/cmgemm_s8.ini --problem M=4096,N=4096,K=4096,BT=0 --db \$RUN/scratch.db --budget 20s --stats -q --top 3"
sh bench/device_run.sh --top 4 s8-int8-call2 "$@"
R=$OUT/s8-int8-call2
for f in $R/bs_*.log $R/iso_bs_*.log $R/scratch_bt0.log; do echo "== $(basename $f .log)"; grep -E "^ +[1-4] |wrong|WRONG" $f | cut -c1-190; done 2>/dev/null
