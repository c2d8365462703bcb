// The kernel bench/isolate/nvx_probe.c runs through VK_NVX_binary_import: each 16-byte element goes global ->
// shared memory by cp.async (the asynchronous copy of sm_80 and later, which bypasses the registers), then
// shared -> registers, plus one in each word, -> global. Built on the GPU machine:
//   nvcc -arch=sm_90 -cubin -o cpasync.cubin bench/isolate/nvx_cpasync.cu   (and -ptx for the PTX text)
extern "C" __global__ void __launch_bounds__(256) cpasync_copy(const uint4 *src, uint4 *dst, unsigned n)
{
    __shared__ uint4 stage[256];
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        const unsigned s = (unsigned)__cvta_generic_to_shared(&stage[threadIdx.x]);
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" ::"r"(s), "l"(src + i));
        asm volatile("cp.async.commit_group;\n" ::);
        asm volatile("cp.async.wait_group 0;\n" ::);
    }
    __syncthreads();
    if (i < n) {
        uint4 v = stage[threadIdx.x];
        dst[i] = make_uint4(v.x + 1u, v.y + 1u, v.z + 1u, v.w + 1u);
    }
}
