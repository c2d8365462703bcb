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
// is wrong, 77 when no device offers the extension (lavapipe). A benchmark-style probe, not part of the tool.
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <volk.h>

#define THREADS 256u

static int fail(const char *what, VkResult r)
{
    printf("nvx_probe: %s failed: VkResult %d\n", what, (int)r);
    return 1;
}

static void *read_file(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *data = n > 0 ? malloc((size_t)n + 1) : NULL;
    if (data && fread(data, 1, (size_t)n, f) != (size_t)n) {
        free(data);
        data = NULL;
    }
    fclose(f);
    if (data) {
        data[n] = 0; // PTX is text: the driver may want it terminated
        *size = (size_t)n + 1;
    }
    return data;
}

static int has_extension(VkPhysicalDevice pd, const char *name)
{
    uint32_t n = 0;
    vkEnumerateDeviceExtensionProperties(pd, NULL, &n, NULL);
    VkExtensionProperties *p = calloc(n ? n : 1, sizeof *p);
    vkEnumerateDeviceExtensionProperties(pd, NULL, &n, p);
    int found = 0;
    for (uint32_t i = 0; i < n && !found; i++)
        found = strcmp(p[i].extensionName, name) == 0;
    free(p);
    return found;
}

// A host-visible, coherent buffer of `size` bytes with a device address
typedef struct {
    VkBuffer buf;
    VkDeviceMemory mem;
    void *map;
    VkDeviceAddress addr;
} Buffer;

static VkResult make_buffer(VkPhysicalDevice pd, VkDevice dev, VkDeviceSize size, Buffer *b)
{
    VkBufferCreateInfo bi = {VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    bi.size = size;
    bi.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT;
    VkResult r = vkCreateBuffer(dev, &bi, NULL, &b->buf);
    if (r != VK_SUCCESS)
        return r;
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(dev, b->buf, &req);
    VkPhysicalDeviceMemoryProperties mp;
    vkGetPhysicalDeviceMemoryProperties(pd, &mp);
    const VkMemoryPropertyFlags want = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    uint32_t type = UINT32_MAX;
    for (uint32_t i = 0; i < mp.memoryTypeCount && type == UINT32_MAX; i++)
        if ((req.memoryTypeBits & (1u << i)) && (mp.memoryTypes[i].propertyFlags & want) == want)
            type = i;
    if (type == UINT32_MAX)
        return VK_ERROR_FEATURE_NOT_PRESENT;
    VkMemoryAllocateFlagsInfo fi = {VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO};
    fi.flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT;
    VkMemoryAllocateInfo ai = {VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO, &fi};
    ai.allocationSize = req.size;
    ai.memoryTypeIndex = type;
    if ((r = vkAllocateMemory(dev, &ai, NULL, &b->mem)) != VK_SUCCESS ||
        (r = vkBindBufferMemory(dev, b->buf, b->mem, 0)) != VK_SUCCESS ||
        (r = vkMapMemory(dev, b->mem, 0, size, 0, &b->map)) != VK_SUCCESS)
        return r;
    VkBufferDeviceAddressInfo di = {VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO};
    di.buffer = b->buf;
    b->addr = vkGetBufferDeviceAddress(dev, &di);
    return VK_SUCCESS;
}

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
    size_t code_size = 0;
    void *code = read_file(argv[1], &code_size);
    if (!code) {
        fprintf(stderr, "nvx_probe: cannot read '%s'\n", argv[1]);
        return 2;
    }
    VkResult r;
    if ((r = volkInitialize()) != VK_SUCCESS)
        return fail("volkInitialize (no Vulkan loader)", r);
    VkApplicationInfo app = {VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.apiVersion = VK_API_VERSION_1_2;
    VkInstanceCreateInfo ii = {VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    ii.pApplicationInfo = &app;
    VkInstance inst;
    if ((r = vkCreateInstance(&ii, NULL, &inst)) != VK_SUCCESS)
        return fail("vkCreateInstance", r);
    volkLoadInstance(inst);
    uint32_t count = 0;
    vkEnumeratePhysicalDevices(inst, &count, NULL);
    VkPhysicalDevice *pds = calloc(count ? count : 1, sizeof *pds);
    vkEnumeratePhysicalDevices(inst, &count, pds);
    VkPhysicalDevice pd = VK_NULL_HANDLE;
    for (uint32_t i = 0; i < count && pd == VK_NULL_HANDLE; i++)
        if (has_extension(pds[i], VK_NVX_BINARY_IMPORT_EXTENSION_NAME))
            pd = pds[i];
    free(pds);
    if (pd == VK_NULL_HANDLE) {
        printf("nvx_probe: no device offers %s\n", VK_NVX_BINARY_IMPORT_EXTENSION_NAME);
        return 77;
    }
    VkPhysicalDeviceProperties props;
    vkGetPhysicalDeviceProperties(pd, &props);
    printf("device: %s\n", props.deviceName);

    uint32_t qn = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(pd, &qn, NULL);
    VkQueueFamilyProperties *qf = calloc(qn ? qn : 1, sizeof *qf);
    vkGetPhysicalDeviceQueueFamilyProperties(pd, &qn, qf);
    uint32_t family = UINT32_MAX;
    for (uint32_t i = 0; i < qn && family == UINT32_MAX; i++)
        if (qf[i].queueFlags & VK_QUEUE_COMPUTE_BIT)
            family = i;
    free(qf);
    float prio = 1.0f;
    VkDeviceQueueCreateInfo qi = {VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    qi.queueFamilyIndex = family;
    qi.queueCount = 1;
    qi.pQueuePriorities = &prio;
    VkPhysicalDeviceVulkan12Features f12 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES};
    f12.bufferDeviceAddress = VK_TRUE;
    const char *exts[] = {VK_NVX_BINARY_IMPORT_EXTENSION_NAME};
    VkDeviceCreateInfo di = {VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO, &f12};
    di.queueCreateInfoCount = 1;
    di.pQueueCreateInfos = &qi;
    di.enabledExtensionCount = 1;
    di.ppEnabledExtensionNames = exts;
    VkDevice dev;
    if ((r = vkCreateDevice(pd, &di, NULL, &dev)) != VK_SUCCESS)
        return fail("vkCreateDevice with VK_NVX_binary_import", r);
    volkLoadDevice(dev);

    VkCuModuleCreateInfoNVX mi = {VK_STRUCTURE_TYPE_CU_MODULE_CREATE_INFO_NVX};
    mi.dataSize = code_size;
    mi.pData = code;
    VkCuModuleNVX module;
    if ((r = vkCreateCuModuleNVX(dev, &mi, NULL, &module)) != VK_SUCCESS)
        return fail("vkCreateCuModuleNVX", r);
    printf("module: %s (%zu bytes) accepted\n", argv[1], code_size);
    VkCuFunctionCreateInfoNVX fi = {VK_STRUCTURE_TYPE_CU_FUNCTION_CREATE_INFO_NVX};
    fi.module = module;
    fi.pName = argv[2];
    VkCuFunctionNVX function;
    if ((r = vkCreateCuFunctionNVX(dev, &fi, NULL, &function)) != VK_SUCCESS)
        return fail("vkCreateCuFunctionNVX", r);
    printf("function: %s\n", argv[2]);

    const VkDeviceSize bytes = (VkDeviceSize)n * 16;
    Buffer src, dst;
    if ((r = make_buffer(pd, dev, bytes, &src)) != VK_SUCCESS || (r = make_buffer(pd, dev, bytes, &dst)) != VK_SUCCESS)
        return fail("a host-visible buffer with a device address", r);
    uint32_t *s = src.map, *d = dst.map;
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t c = 0; c < 4; c++) {
            s[4 * i + c] = i * (c + 1);
            d[4 * i + c] = 0xdeadbeefu;
        }

    VkCommandPoolCreateInfo pi = {VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    pi.queueFamilyIndex = family;
    VkCommandPool pool;
    if ((r = vkCreateCommandPool(dev, &pi, NULL, &pool)) != VK_SUCCESS)
        return fail("vkCreateCommandPool", r);
    VkCommandBufferAllocateInfo ci = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    ci.commandPool = pool;
    ci.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    ci.commandBufferCount = 1;
    VkCommandBuffer cmd;
    if ((r = vkAllocateCommandBuffers(dev, &ci, &cmd)) != VK_SUCCESS)
        return fail("vkAllocateCommandBuffers", r);
    VkCommandBufferBeginInfo bi = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    vkBeginCommandBuffer(cmd, &bi);
    // the kernel's parameters, as cuLaunchKernel takes them: one pointer to each value
    uint64_t a_src = src.addr, a_dst = dst.addr;
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
    if ((r = vkEndCommandBuffer(cmd)) != VK_SUCCESS)
        return fail("vkEndCommandBuffer", r);
    VkQueue queue;
    vkGetDeviceQueue(dev, family, 0, &queue);
    VkSubmitInfo si = {VK_STRUCTURE_TYPE_SUBMIT_INFO};
    si.commandBufferCount = 1;
    si.pCommandBuffers = &cmd;
    if ((r = vkQueueSubmit(queue, 1, &si, VK_NULL_HANDLE)) != VK_SUCCESS)
        return fail("vkQueueSubmit", r);
    if ((r = vkQueueWaitIdle(queue)) != VK_SUCCESS)
        return fail("vkQueueWaitIdle (the kernel)", r);

    uint32_t wrong = 0, first = UINT32_MAX;
    for (uint32_t i = 0; i < 4 * n; i++)
        if (d[i] != s[i] + 1u && wrong++ == 0)
            first = i;
    if (wrong) {
        printf("result: %" PRIu32 " of %" PRIu32 " words wrong (first: word %" PRIu32 " = 0x%08x, want 0x%08x)\n", wrong,
               4 * n, first, d[first], s[first] + 1u);
        return 1;
    }
    printf("result: %" PRIu32 " elements of 16 bytes exact (the kernel ran inside a Vulkan command buffer)\n", n);
    vkDestroyCuFunctionNVX(dev, function, NULL);
    vkDestroyCuModuleNVX(dev, module, NULL);
    return 0;
}
