# s10-lead call 3 (s10-lead 85e7225): does SPIRV-Tools' -O (VKAT_SPIRV_OPT=full) make the best known kernels faster
# or slower? The same configurations measured in full (--no-race) from glslang's module and after -O, same call.
cd "$(dirname "$0")" || exit 2
W1=BM=128,BN=128,BK=16,WM=64,WN=32,WMITER=2,WNITER=2,TM=4,TN=4,WARP=32,KS=1,STAGES=1,SWZ=1,GM=8,PF=1,FB=0,KU=1,CL=0,SK=1
W2=BM=64,BN=256,BK=16,WM=32,WN=64,WMITER=2,WNITER=2,TM=4,TN=4,WARP=32,KS=1,STAGES=1,SWZ=1,GM=8,PF=0,FB=0,KU=1,CL=0,SK=0
W3=BM=128,BN=256,BK=8,WM=128,WN=32,WMITER=2,WNITER=1,TM=8,TN=8,WARP=32,KS=1,STAGES=2,SWZ=1,GM=1,PF=1,FB=0,KU=2,CL=1,SK=0
A1=BC=32,NSG=4,RT=2,STAGES=1,PF=2,PAD=1,THR=8,QS=1,SB=32,LM=0,PH=0,EW=0,RS=2,XP=1,QR=0,SH=0,EH=0,SG=32
A2=BC=32,NSG=8,RT=2,STAGES=1,PF=2,PAD=1,THR=8,QS=1,SB=32,LM=0,PH=0,EW=0,RS=2,XP=1,QR=4,SG=32
C1=BM=128,BN=128,BK=64,NSG=4,LOAD=0,KU=8,KW=16,STAGES=1,PAD=0,SWZ=8,LQ=1
export W1 W2 W3 A1 A2 C1
steps=""
for opt in 0 full; do
  set -- "$@" "sg$opt: VKAT_SPIRV_OPT=$opt timeout 60 \$BIN shaders/sgemm_wt.comp.in --space spaces/sgemm_wt.ini --problem M=4096,N=4096,K=4096 --db \$RUN/sg$opt.db --no-race --stats -q --strategy random --budget 3 --start \$W1 --start \$W2 --start \$W3 --top 3" \
    "af$opt: VKAT_SPIRV_OPT=$opt timeout 60 \$BIN shaders/attention_fa_nv.comp.in --space spaces/attention_fa_nv_f16.ini --db \$RUN/af$opt.db --no-race --stats -q --strategy random --budget 1 --start \$A1 --top 1" \
    "ab$opt: VKAT_SPIRV_OPT=$opt timeout 60 \$BIN shaders/attention_fa_nv.comp.in --space spaces/attention_fa_nv_bf16.ini --db \$RUN/ab$opt.db --no-race --stats -q --strategy random --budget 1 --start \$A2 --top 1" \
    "cm$opt: VKAT_SPIRV_OPT=$opt timeout 60 \$BIN shaders/cm2gemm.comp.in --space spaces/cm2gemm_f16.ini --problem M=4096,N=4096,K=4096 --db \$RUN/cm$opt.db --no-race --stats -q --strategy random --budget 1 --start \$C1 --top 1"
done
BIN=$PWD/vkautotune sh bench/device_run.sh --top 3 s10-lead-call3 "$@"
