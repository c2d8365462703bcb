// nvx_probe — does this Vulkan driver run a CUDA module inside a Vulkan command buffer (VK_NVX_binary_import), and
// with it an asynchronous global -> shared copy (cp.async), which no SPIR-V instruction reaches (issue 21)?
//
//   nvx_probe MODULE FUNCTION [N]
//
// MODULE is a CUDA binary (cubin) or PTX text that the driver is given as is (vkCreateCuModuleNVX); FUNCTION a kernel
// in it with the parameters (const uint4 *src, uint4 *dst, unsigned n), run with 256 threads per block over n = N
// 16-byte elements (default 1 Mi). The probe fills src with element i = (i, 2i, 3i, 4i) in host-visible memory, passes
// both buffers by their Vulkan buffer device addresses, launches the kernel with vkCmdCuLaunchKernelNVX and checks
// dst[i] == src[i] + (1, 1, 1, 1) (bench/isolate/nvx_cpasync.cu copies each element through shared memory with
// cp.async, then adds one). Prints one line per stage; exit 0 when dst is exact, 1 when a stage fails or an element
// is wrong, 77 when no device offers the extension (lavapipe). An experiment, not part of the tool.
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "nvx_device.h"

#define THREADS 256u

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: nvx_probe MODULE FUNCTION [N]\n");
        return 2;
    }
    uint32_t n = argc > 3 ? (uint32_t)strtoul(argv[3], NULL, 10) : 1u << 20;
    if (n == 0 || n % THREADS) {
        fprintf(stderr, "nvx_probe: N must be a positive multiple of %u\n", THREADS);
        return 2;
    }
    NvxDevice d;
    VkCuFunctionNVX function;
    int rc = nvx_open_function(&d, argv[1], argv[2], &function);
    if (rc)
        return rc;
    NvxBuffer src, dst;
    VkResult r;
    if ((r = nvx_buffer(&d, (VkDeviceSize)n * 16, 1, &src)) != VK_SUCCESS ||
        (r = nvx_buffer(&d, (VkDeviceSize)n * 16, 1, &dst)) != VK_SUCCESS)
        return nvx_fail("a host-visible buffer with a device address", r);
    uint32_t *s = src.map, *o = dst.map;
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t c = 0; c < 4; c++) {
            s[4 * i + c] = i * (c + 1);
            o[4 * i + c] = 0xdeadbeefu;
        }
    VkCommandBuffer cmd = nvx_begin(&d);
    uint64_t a_src = src.addr, a_dst = dst.addr; // the kernel's parameters, as cuLaunchKernel takes them
    const void *params[] = {&a_src, &a_dst, &n};
    VkCuLaunchInfoNVX li = {VK_STRUCTURE_TYPE_CU_LAUNCH_INFO_NVX};
    li.function = function;
    li.gridDimX = n / THREADS;
    li.gridDimY = li.gridDimZ = 1;
    li.blockDimX = THREADS;
    li.blockDimY = li.blockDimZ = 1;
    li.paramCount = 3;
    li.pParams = params;
    vkCmdCuLaunchKernelNVX(cmd, &li);
    if ((r = nvx_run(&d, cmd)) != VK_SUCCESS)
        return nvx_fail("the kernel's submission", r);
    uint32_t wrong = 0, first = UINT32_MAX;
    for (uint32_t i = 0; i < 4 * n; i++)
        if (o[i] != s[i] + 1u && wrong++ == 0)
            first = i;
    if (wrong) {
        printf("result: %" PRIu32 " of %" PRIu32 " words wrong (first: word %" PRIu32 " = 0x%08x, want 0x%08x)\n", wrong,
               4 * n, first, o[first], s[first] + 1u);
        return 1;
    }
    printf("result: %" PRIu32 " elements of 16 bytes exact (the kernel ran inside a Vulkan command buffer)\n", n);
    return 0;
}
