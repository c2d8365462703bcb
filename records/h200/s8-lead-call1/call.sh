# session 8, lead call 1, merged main: (a) attention prefill from scratch (issue #21 item 5) against the best
# configuration the attn helper found, in the same call; (b) bench/race.py on the merged tree (issue #22: out-of-order
# measuring, blind look-ahead, the checked-run cut, progress without lag), baseline and new, pairs and from scratch.
B=$PWD/.xfer-lead8/vkautotune; export BIN=$B
A='--space spaces/attention_fa_nv_f16.ini shaders/attention_fa_nv.comp.in'
BEST='BC=32,NSG=4,RT=2,STAGES=1,PF=2,PAD=1,THR=8,QS=1,SB=32,LM=1,PH=0,EW=0,SG=32'
sh bench/device_run.sh --top 4 s8-lead-call1 \
 "attnbest: timeout 40 $B $A --db \$RUN/attnbest.db --no-race --stats -q --strategy random --budget 1 --start $BEST" \
 "attnscratch: timeout 75 $B $A --db \$RUN/attnscratch.db --stats -q --budget 60s --top 5" \
 "race: timeout 200 env PYTHONUNBUFFERED=1 python3 bench/race.py --bin $B --jobs 16 --spaces spaces/sgemm_wt.ini,spaces/cm2gemm_f16.ini --pair-budget 40 --modes baseline,new --search-modes baseline,new --search-seconds 20,8 --search-seeds 2 --trace-dir \$RUN/traces --out \$RUN/race.md"
R=$OUT/s8-lead-call1
tail -n 4 $R/attnbest.log; tail -n 9 $R/attnscratch.log; sed -n 1,40p $R/race.md | cut -c1-260
