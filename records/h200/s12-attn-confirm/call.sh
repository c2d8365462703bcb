# s12-attn confirmation (not run by the helper: its three calls were spent; for the lead's call): OV with the race
# fix of the two-stage path (block 0's barrier before its first store of K two blocks ahead). The XB configurations
# whose rel_l2 rose in calls 1-3 and the bf16 winner, against OV = 0, full measurements with the check, --no-race;
# then the prefill table of the spaces as committed (5 baseline rounds, the tensor-core peak). Last: each result's
# median ms and rel_l2 (OV > 0 should match its OV = 0 twin's rel_l2: 3.20e-4 fp16, 4.19e-3 bf16).
#   . .gl/enter.sh && sh .xfer-attn12c/confirm.sh      (carry .gl and .xfer-attn12c)
cd "$(dirname "$0")" || exit 2
N=PAD=1,THR=8,LM=0,PH=0,EW=0,RS=2,SG=32
A0=BC=32,NSG=4,RT=2,STAGES=1,PF=2,QS=1,SB=32,$N,XP=1
A=$A0,QR=0
Bb=BC=32,NSG=8,RT=2,STAGES=1,PF=2,QS=1,SB=32,$N,XP=1,QR=4
W=BC=16,NSG=4,RT=2,STAGES=2,PF=0,QS=1,SB=16,$N,QR=2
C=BC=16,NSG=8,RT=2,STAGES=2,PF=0,QS=0,SB=16,$N,QR=0
R1=BC=32,NSG=8,RT=1,STAGES=2,PF=0,QS=0,SB=32,$N,QR=0
F='' NF=0 B='' NB=0
f() { F="$F --start $1,SH=0,EH=0"; NF=$((NF + 1)); }
b() { B="$B --start $1"; NB=$((NB + 1)); }
f $A,OV=0; b $Bb,OV=0
for o in 0 1 2; do f $C,XP=0,OV=$o; f $R1,XP=0,OV=$o; f $W,XP=1,OV=$o; b $W,XP=1,OV=$o; b $W,XP=0,OV=$o; done
T="--start $A,SH=0,EH=0 --start $Bb,OV=0 --start $W,XP=1,OV=2 --start $W,XP=0,OV=2 --start $A0,QR=2,SH=1,EH=1"
export F B T
BIN=./vkautotune sh bench/device_run.sh --top 20 s12-attn-confirm \
  "ovf: timeout 100 \$BIN shaders/attention_fa_nv.comp.in --space spaces/attention_fa_nv_ov_f16.ini --db \$RUN/ovf.db --no-race --stats --strategy random --budget $NF --top $NF $F" \
  "ovb: timeout 100 \$BIN shaders/attention_fa_nv.comp.in --space spaces/attention_fa_nv_ov_bf16.ini --db \$RUN/ovb.db --no-race --stats --strategy random --budget $NB --top $NB $B" \
  "table: timeout 300 python3 bench/llm_kernels.py --binary \$BIN --budget 6 --eager-only --baseline-rounds 5 --only attention_fa_nv_f16,attention_fa_nv_bf16 --db \$RUN/attn.db --out \$RUN/llm_attn.md $T"
mkdir -p /tmp/confirm && tar xzf "$OUT"/s12-attn-confirm/s12-attn-confirm.tgz -C /tmp/confirm 2>/dev/null
for db in /tmp/confirm/ovf.db /tmp/confirm/ovb.db; do
  [ -f "$db" ] && python3 -c 'import sqlite3, sys
for r in sqlite3.connect(sys.argv[1]).execute("select median_s * 1e3, rel_l2, status, config from results order by config"):
    print("%8.4f ms  rel_l2 %.3e  %s  %s" % (r[0] or 0, r[1] or 0, r[2], r[3]))' "$db"
done
grep "^| attention" "$OUT"/s12-attn-confirm/llm_attn.md | tail -3
