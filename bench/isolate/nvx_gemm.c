// nvx_gemm — times and checks a CUDA GEMM kernel (bench/isolate/nvx_gemm.cu) run from a Vulkan command buffer through
// VK_NVX_binary_import (issue 21: what asynchronous staging is worth, on the same device and API as the Vulkan
// kernels).
//
//   nvx_gemm MODULE FUNCTION M N K [BN [REPS [SMEM]]]
//
// FUNCTION takes (const half *A, const half *B, float *C, int M, int N, int K): C = A B with A M x K and B K x N
// row-major fp16, C fp32, in blocks of BN (default 128, the kernel's own) threads over a (N / BN) x (M / 128) grid,
// with SMEM bytes of dynamic shared memory (default 0; nvx_gemm.cu built with DYN = 1 needs its stages' size). A and B hold uniform values in
// [-1, 1) rounded to fp16 (a fixed seed), uploaded to device-local buffers. One submission warms up (0.3 s of
// launches, so the clocks ramp as the tuner's warm-up lets them), then REPS (default 51) launches are timed each
// between two timestamps; prints the median and the minimum in ms and TFLOP/s (2 M N K per launch). C is then
// checked against an fp64 dot product of the same fp16 inputs at 4096 sampled elements and the four corners:
// max |got - ref| / sum |a b| (as bench/gemm_verify reports it), which must stay under 1e-4. Exit 0 when it does, 1
// when it does not or a stage fails, 77 without the extension. An experiment, not part of the tool.
#define _POSIX_C_SOURCE 200809L // clock_gettime
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "nvx_device.h"

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static uint64_t rng = 0x9e3779b97f4a7c15ull;
static float uniform(void) // [-1, 1)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (float)((double)(rng >> 11) / 9007199254740992.0 * 2.0 - 1.0);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

// Uploads `bytes` from host memory into the device-local buffer `dst` through a host-visible staging buffer
static VkResult upload(const NvxDevice *d, const void *src, VkDeviceSize bytes, const NvxBuffer *dst)
{
    NvxBuffer st;
    VkResult r = nvx_buffer(d, bytes, 1, &st);
    if (r != VK_SUCCESS)
        return r;
    memcpy(st.map, src, bytes);
    VkCommandBuffer cmd = nvx_begin(d);
    VkBufferCopy region = {0, 0, bytes};
    vkCmdCopyBuffer(cmd, st.buf, dst->buf, 1, &region);
    r = nvx_run(d, cmd);
    vkDestroyBuffer(d->dev, st.buf, NULL);
    vkFreeMemory(d->dev, st.mem, NULL);
    return r;
}

int main(int argc, char **argv)
{
    if (argc < 6) {
        fprintf(stderr, "usage: nvx_gemm MODULE FUNCTION M N K [BN [REPS]]\n");
        return 2;
    }
    int M = atoi(argv[3]), N = atoi(argv[4]), K = atoi(argv[5]), bn = argc > 6 ? atoi(argv[6]) : 128;
    int reps = argc > 7 ? atoi(argv[7]) : 51, smem = argc > 8 ? atoi(argv[8]) : 0;
    if (M <= 0 || N <= 0 || K <= 0 || bn <= 0 || M % 128 || bn % 64 || N % bn || K % 32 || reps < 1 || smem < 0) {
        fprintf(stderr, "nvx_gemm: M must be a positive multiple of 128, BN of 64, N of BN, K of 32, REPS at least 1, "
                        "SMEM at least 0\n");
        return 2;
    }
    NvxDevice d;
    VkCuFunctionNVX function;
    int rc = nvx_open_function(&d, argv[1], argv[2], &function);
    if (rc)
        return rc;

    const size_t na = (size_t)M * K, nb = (size_t)K * N, nc = (size_t)M * N;
    _Float16 *ha = malloc(na * sizeof *ha), *hb = malloc(nb * sizeof *hb);
    if (!ha || !hb)
        return nvx_fail("host memory for A and B", VK_ERROR_OUT_OF_HOST_MEMORY);
    for (size_t i = 0; i < na; i++)
        ha[i] = (_Float16)uniform();
    for (size_t i = 0; i < nb; i++)
        hb[i] = (_Float16)uniform();
    NvxBuffer A, B, C, Ch;
    VkResult r;
    if ((r = nvx_buffer(&d, na * 2, 0, &A)) != VK_SUCCESS || (r = nvx_buffer(&d, nb * 2, 0, &B)) != VK_SUCCESS ||
        (r = nvx_buffer(&d, nc * 4, 0, &C)) != VK_SUCCESS || (r = nvx_buffer(&d, nc * 4, 1, &Ch)) != VK_SUCCESS)
        return nvx_fail("the buffers", r);
    if ((r = upload(&d, ha, na * 2, &A)) != VK_SUCCESS || (r = upload(&d, hb, nb * 2, &B)) != VK_SUCCESS)
        return nvx_fail("the upload of A and B", r);

    uint64_t pa = A.addr, pb = B.addr, pc = C.addr;
    const void *params[] = {&pa, &pb, &pc, &M, &N, &K};
    VkCuLaunchInfoNVX li = {VK_STRUCTURE_TYPE_CU_LAUNCH_INFO_NVX};
    li.function = function;
    li.gridDimX = (uint32_t)(N / bn);
    li.gridDimY = (uint32_t)(M / 128);
    li.gridDimZ = 1;
    li.blockDimX = (uint32_t)bn; // 2 x BN / 64 warps
    li.blockDimY = li.blockDimZ = 1;
    li.sharedMemBytes = (uint32_t)smem;
    li.paramCount = 6;
    li.pParams = params;

    // warm-up by time, one launch per submission until 0.3 s have passed
    for (double end = now_s() + 0.3; now_s() < end;) {
        VkCommandBuffer cmd = nvx_begin(&d);
        vkCmdCuLaunchKernelNVX(cmd, &li);
        if ((r = nvx_run(&d, cmd)) != VK_SUCCESS)
            return nvx_fail("a warm-up launch", r);
    }
    VkQueryPoolCreateInfo qi = {VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
    qi.queryType = VK_QUERY_TYPE_TIMESTAMP;
    qi.queryCount = (uint32_t)(2 * reps);
    VkQueryPool qp;
    if ((r = vkCreateQueryPool(d.dev, &qi, NULL, &qp)) != VK_SUCCESS)
        return nvx_fail("vkCreateQueryPool", r);
    VkCommandBuffer cmd = nvx_begin(&d);
    vkCmdResetQueryPool(cmd, qp, 0, qi.queryCount);
    for (int i = 0; i < reps; i++) {
        vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, qp, (uint32_t)(2 * i));
        vkCmdCuLaunchKernelNVX(cmd, &li);
        vkCmdWriteTimestamp(cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, qp, (uint32_t)(2 * i + 1));
    }
    VkBufferCopy region = {0, 0, nc * 4};
    vkCmdCopyBuffer(cmd, C.buf, Ch.buf, 1, &region);
    if ((r = nvx_run(&d, cmd)) != VK_SUCCESS)
        return nvx_fail("the timed launches", r);
    uint64_t *ts = calloc((size_t)2 * reps, sizeof *ts);
    double *ms = calloc((size_t)reps, sizeof *ms);
    if ((r = vkGetQueryPoolResults(d.dev, qp, 0, qi.queryCount, (size_t)2 * reps * 8, ts, 8,
                                   VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT)) != VK_SUCCESS)
        return nvx_fail("vkGetQueryPoolResults", r);
    for (int i = 0; i < reps; i++)
        ms[i] = (double)(ts[2 * i + 1] - ts[2 * i]) * d.timestamp_ns * 1e-6;
    qsort(ms, (size_t)reps, sizeof *ms, cmp_double);
    const double flop = 2.0 * M * N * K, med = ms[reps / 2];
    printf("time: median %.4f ms (%.1f TFLOP/s), min %.4f ms (%.1f TFLOP/s) over %d launches, M=%d N=%d K=%d BN=%d\n",
           med, flop / med * 1e-9, ms[0], flop / ms[0] * 1e-9, reps, M, N, K, bn);

    const float *c = Ch.map;
    double worst = 0.0;
    for (int s = 0; s < 4100; s++) {
        size_t i, j;
        if (s < 4) {
            i = (s & 1) ? (size_t)M - 1 : 0;
            j = (s & 2) ? (size_t)N - 1 : 0;
        } else {
            uniform(); // advances rng
            i = (rng >> 20) % (uint64_t)M;
            j = (rng >> 40) % (uint64_t)N;
        }
        double ref = 0.0, mag = 0.0;
        for (size_t k = 0; k < (size_t)K; k++) {
            double p = (double)ha[i * K + k] * (double)hb[k * N + j];
            ref += p;
            mag += fabs(p);
        }
        double e = fabs((double)c[i * N + j] - ref) / (mag > 0.0 ? mag : 1.0);
        if (!(e <= worst)) // NaN counts as the worst
            worst = isnan(e) ? INFINITY : e;
    }
    printf("check: 4100 sampled elements, max |got - ref| / sum |a b| = %.2e (%s)\n", worst,
           worst < 1e-4 ? "ok" : "WRONG");
    return worst < 1e-4 ? 0 : 1;
}
