# session 8, lead call 0: (a) int8 GEMM with B stored N x K (BT=1) against B K x N (BT=0) and torch._int_mm in both
# layouts; (b) NVIDIA pipeline creation: is it parallel across the tuner's workers? sgemm_wt 4096^3, the same 16
# random variants at --jobs 1, 4, 16, pipeline cache and the driver's disk cache off.
B=$PWD/.xfer-lead8/vkautotune; export BIN=$B
export __GL_SHADER_DISK_CACHE=0
C1='FN=16,FK=32,WG_M=2,WG_N=2,TM=4,TN=4,BK=128,STAGES=1,PF=1,FB=0,PAD=1,SWZ=16'
sh bench/device_run.sh --top 6 s8-lead-call0 \
 "s8bt0: timeout 40 $B shaders/cmgemm.comp.in --space spaces/cmgemm_s8.ini --problem M=4096,N=4096,K=4096,BT=0 --db \$RUN/s8.db --no-race --stats -q --strategy random --budget 1 --start $C1" \
 "s8bt1seed: timeout 40 $B shaders/cmgemm.comp.in --space spaces/cmgemm_s8.ini --problem M=4096,N=4096,K=4096,BT=1 --db \$RUN/s8.db --no-race --stats -q --strategy random --budget 1 --start $C1" \
 "s8bt1: timeout 60 $B shaders/cmgemm.comp.in --space spaces/cmgemm_s8.ini --problem M=4096,N=4096,K=4096,BT=1 --db \$RUN/s8.db --stats -q --budget 30s --top 8" \
 "intmm: timeout 60 python3 -c \"
import torch,statistics,time
def t(op):
  op(); torch.cuda.synchronize(); e=time.monotonic()+0.3
  while time.monotonic()<e: op(); torch.cuda.synchronize()
  ts=[]
  for _ in range(50):
    a0=torch.cuda.Event(enable_timing=True);a1=torch.cuda.Event(enable_timing=True);a0.record();op();a1.record();a1.synchronize();ts.append(a0.elapsed_time(a1)/1e3)
  return statistics.median(ts)
for (m,n,k) in [(4096,4096,4096),(8192,8192,8192),(4096,512,14336)]:
  a=torch.randint(-128,128,(m,k),device='cuda',dtype=torch.int8)
  br=torch.randint(-128,128,(k,n),device='cuda',dtype=torch.int8)
  bc=torch.randint(-128,128,(n,k),device='cuda',dtype=torch.int8).t()
  print('int_mm %dx%dx%d B row-major %.1f TOPS, B column-major (N x K stored) %.1f TOPS'%(m,n,k,2e-12*m*n*k/t(lambda:torch._int_mm(a,br)),2e-12*m*n*k/t(lambda:torch._int_mm(a,bc))))
\"" \
 "pipe1: timeout 60 $B --space spaces/sgemm_wt.ini --db \$RUN/p1.db --pipeline-cache none --jobs 1 --strategy random --seed 1 --budget 16 --json -q > \$RUN/pipe1.json" \
 "pipe4: timeout 60 $B --space spaces/sgemm_wt.ini --db \$RUN/p4.db --pipeline-cache none --jobs 4 --strategy random --seed 1 --budget 16 --json -q > \$RUN/pipe4.json" \
 "pipe16: timeout 60 $B --space spaces/sgemm_wt.ini --db \$RUN/p16.db --pipeline-cache none --jobs 16 --strategy random --seed 1 --budget 16 --json -q > \$RUN/pipe16.json"
for j in 1 4 16; do python3 -c "
import json,sys; d=json.load(open('$OUT/s8-lead-call0/pipe$j.json'))[0]; print('jobs $j', {k:v for k,v in d.items() if not isinstance(v,(list,dict)) or k=='time_split_s'})" 2>&1 | head -3; done
cat $OUT/s8-lead-call0/intmm.log; for f in s8bt0 s8bt1seed; do tail -n 3 $OUT/s8-lead-call0/$f.log; done; tail -n 12 $OUT/s8-lead-call0/s8bt1.log
