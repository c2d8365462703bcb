#!/bin/sh
# Session 10, issue 21 item 2 (part gemm), H200 call 2. Call 1: fragments loaded from the buffer (AG / BG) are 2-5x
# slower than staged ones, L1 hits or not, and the driver lists no SPIR-V-level asynchronous copy, but it lists
# VK_NVX_binary_import (CUDA binaries run from a Vulkan command buffer). This call:
#  - nvx: builds bench/isolate/nvx_cpasync.cu (cp.async global -> shared) to a cubin and to PTX here, shows the
#    copy instructions in its SASS, and runs each through VK_NVX_binary_import with bench/isolate/nvx_probe;
#  - table: bench/gemm_vs_cublas.py (peaks and cuBLAS in the same call, winners re-timed by gemm_verify) over the
#    spaces as on the branch (= main's), cmgemm, cm2gemm and cmgemm_splitk, fp16 and bf16, seeded with the best
#    configurations known (cm2gemm LQ = 1 now among them).
# Ran as: . .gl/enter.sh && sh .xfer-gemm/call2.sh (from the repository root); kept as the record of what ran.
X=$PWD/.xfer-gemm; B=$X/vkautotune; export BIN=$B
st() { for c in "$@"; do printf ' --start %s' "$c"; done; }
CU=$X/bench/isolate/nvx_cpasync.cu
set --
set -- "$@" "nvx: nvcc --version | tail -n 2; nvcc -arch=sm_90 -cubin -o \$RUN/cpasync.cubin $CU && nvcc -arch=sm_90 -ptx -o \$RUN/cpasync.ptx $CU && cuobjdump -sass \$RUN/cpasync.cubin | grep -E 'LDGSTS|DEPBAR|LDS|STG' ; grep -E 'cp.async' \$RUN/cpasync.ptx; echo '-- cubin'; $X/bench/nvx_probe \$RUN/cpasync.cubin cpasync_copy; echo \"rc=\$?\"; echo '-- ptx'; $X/bench/nvx_probe \$RUN/cpasync.ptx cpasync_copy; echo \"rc=\$?\""
TC="FM=16,FN=16,FK=16,WG_M=2,WG_N=2,TM=4,TN=4,BK=64,STAGES=1,PF=1,FB=0,PAD=1,SWZ=16,CL=0,BS=0,WS=0,WC=0,LQ=0"
TL="FM=16,FN=16,FK=16,WG_M=2,WG_N=2,TM=4,TN=4,BK=64,STAGES=1,PF=0,FB=0,PAD=1,SWZ=16,CL=0,BS=0,WS=0,WC=0,LQ=1"
TS="FM=16,FN=16,FK=16,WG_M=4,WG_N=4,TM=2,TN=2,BK=64,STAGES=1,PF=1,FB=1,PAD=1,SWZ=1,CL=0,BS=0,WS=0,WC=0,LQ=0"
M2="BM=128,BN=128,BK=64,NSG=4,LOAD=0,KU=8,KW=16,STAGES=1,PAD=0,SWZ=8"
M3="BM=64,BN=128,BK=64,NSG=4,LOAD=0,KU=8,KW=16,STAGES=1,PAD=0,SWZ=1"
M4="BM=128,BN=64,BK=64,NSG=4,LOAD=0,KU=8,KW=16,STAGES=1,PAD=0,SWZ=1"
K2="FM=16,FN=16,FK=16,WG_M=2,WG_N=2,TM=4,TN=4,BK=64,STAGES=1,PF=1,FB=0,PAD=1,SWZ=16,CL=0,BS=0,KS=2"
K1="FM=16,FN=16,FK=16,WG_M=4,WG_N=4,TM=2,TN=2,BK=64,STAGES=1,PF=1,FB=1,PAD=1,SWZ=1,CL=0,BS=0,KS=1"
set -- "$@" "table: timeout 200 python3 $X/tab/bench/gemm_vs_cublas.py --bin $B --verify-bin $X/bench/gemm_verify --src $X/tab --templates cmgemm,cm2gemm,cmgemm_splitk --only fp16,bf16 --budget 5 --refresh-peaks --db \$RUN/gemm.db --out \$RUN/gemm_vs_cublas.md $(st $TC $TL $TS $M2,LQ=1 $M2,LQ=0 $M3,LQ=1 $M4,LQ=1 $K2 $K1)"
sh bench/device_run.sh --top 0 s10-gemm-call2 "$@"
R=$OUT/s10-gemm-call2; L=/tmp/s10-gemm-logs2; mkdir -p $L; tar xzf $R/s10-gemm-call2.tgz -C $L 2>/dev/null
cat $L/nvx.log 2>/dev/null | cut -c1-200
cut -d'|' -f2-11 $R/gemm_vs_cublas.md 2>/dev/null | head -20
