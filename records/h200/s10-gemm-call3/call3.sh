#!/bin/sh
# Session 10, issue 21 item 2 (part gemm), H200 call 3. Call 2: VK_NVX_binary_import runs a CUDA module from a
# Vulkan command buffer, cubin or PTX, and a cp.async copy in it was exact. This call measures what that staging is
# worth in a GEMM on the same device and API: bench/isolate/nvx_gemm.cu (C1's tile, 128 x 128 of 4 warps of 64 x 64,
# ldmatrix + mma.sync like the cooperative-matrix kernels, but STAGES shared stages filled by cp.async), built here
# with nvcc for three variants (S3: 3 stages; S2: 2 stages; W8: 128 x 256 of 8 warps, 2 stages), run and checked by
# bench/isolate/nvx_gemm (fp64 check of 4100 sampled elements) on the three problems, with the tensor-core peak
# (vkautotune peaks --refresh) and cuBLAS (torch.matmul, fp16) measured in the same call.
# Ran as: . .gl/enter.sh && sh .xfer-gemm/call3.sh (from the repository root); kept as the record of what ran.
X=$PWD/.xfer-gemm; B=$X/vkautotune; export BIN=$B
CU=$X/bench/isolate/nvx_gemm.cu; G=$X/bench/nvx_gemm
set --
set -- "$@" "build: for v in 'S3:-DSTAGES=3' 'S2:-DSTAGES=2' 'W8:-DSTAGES=2 -DBN=256'; do n=\${v%%:*}; f=\${v#*:}; nvcc -arch=sm_90 -cubin -Xptxas -v \$f -o \$RUN/gemm_\$n.cubin $CU 2>&1 | grep -E 'registers|spill'; cuobjdump -sass \$RUN/gemm_\$n.cubin | grep -oE 'LDGSTS[.A-Z0-9]*|LDSM[.A-Z0-9]*|HMMA[.A-Z0-9]*|BAR[.A-Z]*|LDG[.A-Z0-9]*|STS[.A-Z0-9]*' | sort | uniq -c | paste -sd' '; echo; done; nvcc -arch=sm_90 -ptx -DSTAGES=3 -o \$RUN/gemm_S3.ptx $CU"
set -- "$@" "peaks: $B peaks --db \$RUN/peaks.db --refresh"
for P in '4096 4096 4096' '8192 8192 8192' '4096 512 14336'; do
  L=$(echo $P | cut -d' ' -f2)
  set -- "$@" "nvx_$L: for v in S3:128 S2:128 W8:256; do echo \"== \${v%%:*}\"; $G \$RUN/gemm_\${v%%:*}.cubin gemm_f16 $P \${v#*:}; done"
done
set -- "$@" "nvx_ptx: $G \$RUN/gemm_S3.ptx gemm_f16 4096 4096 4096 128"
set -- "$@" "cublas: python3 -c \"import sys; sys.path.insert(0, '$X/tab/bench'); import gemm_vs_cublas as g; t = g.cublas_timer(); [(lambda s: print('cuBLAS fp16 %dx%dx%d: %.4f ms, %.1f TFLOP/s' % (m, n, k, s * 1e3, 2 * m * n * k / s * 1e-12)))(t('fp16', m, n, k)) for m, n, k in ((4096, 4096, 4096), (8192, 8192, 8192), (4096, 512, 14336))]\""
sh bench/device_run.sh --top 0 s10-gemm-call3 "$@"
R=/tmp/s10-gemm-logs3; mkdir -p $R; tar xzf $OUT/s10-gemm-call3/s10-gemm-call3.tgz -C $R 2>/dev/null
for f in $R/build.log $R/nvx_*.log $R/cublas.log; do echo "== $(basename $f .log)"; grep -vE '^(device|module|function):' $f | cut -c1-250; done
grep -E 'float16->float32' $R/peaks.log | head -3
