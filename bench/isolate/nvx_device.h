// nvx_device — the Vulkan side of running CUDA modules through VK_NVX_binary_import (bench/isolate/nvx_probe.c,
// nvx_gemm.c): a device with that extension and buffer device addresses, buffers, modules and one-shot submits.
#ifndef NVX_DEVICE_H
#define NVX_DEVICE_H
#include <stddef.h>
#include <volk.h>

typedef struct {
    VkPhysicalDevice pd;
    VkDevice dev;
    VkQueue queue;
    uint32_t family;
    VkCommandPool pool;
    float timestamp_ns; // nanoseconds per timestamp tick
    char name[VK_MAX_PHYSICAL_DEVICE_NAME_SIZE];
} NvxDevice;

typedef struct {
    VkBuffer buf;
    VkDeviceMemory mem;
    void *map; // host-visible buffers only
    VkDeviceAddress addr;
} NvxBuffer;

// 0 and the first device offering VK_NVX_binary_import, 77 when none does, 1 (message printed) on a failure
int nvx_open(NvxDevice *d);
// A buffer of `size` bytes with a device address: host-visible and coherent (mapped) or device-local
VkResult nvx_buffer(const NvxDevice *d, VkDeviceSize size, int host_visible, NvxBuffer *b);
// The CUDA module in file `path` (a cubin or PTX text, given to the driver as it is) and its kernel `name`;
// 0, or 1 with the failing stage printed
int nvx_function(const NvxDevice *d, const char *path, const char *name, VkCuFunctionNVX *fn);
// nvx_open, the device's name printed, then nvx_function: 0, 77 without the extension, 1 on a failure
int nvx_open_function(NvxDevice *d, const char *path, const char *name, VkCuFunctionNVX *fn);
// A primary command buffer in recording state; nvx_run ends, submits and waits for it
VkCommandBuffer nvx_begin(const NvxDevice *d);
VkResult nvx_run(const NvxDevice *d, VkCommandBuffer cmd);
// Prints "nvx: WHAT failed: VkResult R" and returns 1
int nvx_fail(const char *what, VkResult r);
#endif
