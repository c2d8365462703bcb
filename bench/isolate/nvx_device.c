// nvx_device — see nvx_device.h.
#include "nvx_device.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int nvx_fail(const char *what, VkResult r)
{
    printf("nvx: %s failed: VkResult %d\n", what, (int)r);
    return 1;
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

int nvx_open(NvxDevice *d)
{
    VkResult r;
    memset(d, 0, sizeof *d);
    if ((r = volkInitialize()) != VK_SUCCESS)
        return nvx_fail("volkInitialize (no Vulkan loader)", r);
    VkApplicationInfo app = {VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.apiVersion = VK_API_VERSION_1_2;
    VkInstanceCreateInfo ii = {VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    ii.pApplicationInfo = &app;
    VkInstance inst;
    if ((r = vkCreateInstance(&ii, NULL, &inst)) != VK_SUCCESS)
        return nvx_fail("vkCreateInstance", r);
    volkLoadInstance(inst);
    uint32_t count = 0;
    vkEnumeratePhysicalDevices(inst, &count, NULL);
    VkPhysicalDevice *pds = calloc(count ? count : 1, sizeof *pds);
    vkEnumeratePhysicalDevices(inst, &count, pds);
    for (uint32_t i = 0; i < count && d->pd == VK_NULL_HANDLE; i++)
        if (has_extension(pds[i], VK_NVX_BINARY_IMPORT_EXTENSION_NAME))
            d->pd = pds[i];
    free(pds);
    if (d->pd == VK_NULL_HANDLE) {
        printf("nvx: no device offers %s\n", VK_NVX_BINARY_IMPORT_EXTENSION_NAME);
        return 77;
    }
    VkPhysicalDeviceProperties props;
    vkGetPhysicalDeviceProperties(d->pd, &props);
    memcpy(d->name, props.deviceName, sizeof d->name);
    d->timestamp_ns = props.limits.timestampPeriod;

    uint32_t qn = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(d->pd, &qn, NULL);
    VkQueueFamilyProperties *qf = calloc(qn ? qn : 1, sizeof *qf);
    vkGetPhysicalDeviceQueueFamilyProperties(d->pd, &qn, qf);
    d->family = UINT32_MAX;
    for (uint32_t i = 0; i < qn && d->family == UINT32_MAX; i++)
        if ((qf[i].queueFlags & VK_QUEUE_COMPUTE_BIT) && qf[i].timestampValidBits > 0)
            d->family = i;
    free(qf);
    if (d->family == UINT32_MAX)
        return nvx_fail("a compute queue with timestamps", VK_ERROR_FEATURE_NOT_PRESENT);
    float prio = 1.0f;
    VkDeviceQueueCreateInfo qi = {VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    qi.queueFamilyIndex = d->family;
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
    if ((r = vkCreateDevice(d->pd, &di, NULL, &d->dev)) != VK_SUCCESS)
        return nvx_fail("vkCreateDevice with VK_NVX_binary_import", r);
    volkLoadDevice(d->dev);
    vkGetDeviceQueue(d->dev, d->family, 0, &d->queue);
    VkCommandPoolCreateInfo pi = {VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    pi.queueFamilyIndex = d->family;
    if ((r = vkCreateCommandPool(d->dev, &pi, NULL, &d->pool)) != VK_SUCCESS)
        return nvx_fail("vkCreateCommandPool", r);
    return 0;
}

VkResult nvx_buffer(const NvxDevice *d, VkDeviceSize size, int host_visible, NvxBuffer *b)
{
    memset(b, 0, sizeof *b);
    VkBufferCreateInfo bi = {VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    bi.size = size;
    bi.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT |
               VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    VkResult r = vkCreateBuffer(d->dev, &bi, NULL, &b->buf);
    if (r != VK_SUCCESS)
        return r;
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(d->dev, b->buf, &req);
    VkPhysicalDeviceMemoryProperties mp;
    vkGetPhysicalDeviceMemoryProperties(d->pd, &mp);
    const VkMemoryPropertyFlags want = host_visible
                                           ? VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT
                                           : VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
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
    if ((r = vkAllocateMemory(d->dev, &ai, NULL, &b->mem)) != VK_SUCCESS ||
        (r = vkBindBufferMemory(d->dev, b->buf, b->mem, 0)) != VK_SUCCESS)
        return r;
    if (host_visible && (r = vkMapMemory(d->dev, b->mem, 0, size, 0, &b->map)) != VK_SUCCESS)
        return r;
    VkBufferDeviceAddressInfo ai2 = {VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO};
    ai2.buffer = b->buf;
    b->addr = vkGetBufferDeviceAddress(d->dev, &ai2);
    return VK_SUCCESS;
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

int nvx_function(const NvxDevice *d, const char *path, const char *name, VkCuFunctionNVX *fn)
{
    size_t size = 0;
    void *code = read_file(path, &size);
    if (!code) {
        printf("nvx: cannot read '%s'\n", path);
        return 1;
    }
    VkCuModuleCreateInfoNVX mi = {VK_STRUCTURE_TYPE_CU_MODULE_CREATE_INFO_NVX};
    mi.dataSize = size;
    mi.pData = code;
    VkCuModuleNVX module;
    VkResult r = vkCreateCuModuleNVX(d->dev, &mi, NULL, &module);
    free(code);
    if (r != VK_SUCCESS)
        return nvx_fail("vkCreateCuModuleNVX", r);
    printf("module: %s (%zu bytes) accepted\n", path, size);
    VkCuFunctionCreateInfoNVX fi = {VK_STRUCTURE_TYPE_CU_FUNCTION_CREATE_INFO_NVX};
    fi.module = module;
    fi.pName = name;
    if ((r = vkCreateCuFunctionNVX(d->dev, &fi, NULL, fn)) != VK_SUCCESS)
        return nvx_fail("vkCreateCuFunctionNVX", r);
    printf("function: %s\n", name);
    return 0;
}

int nvx_open_function(NvxDevice *d, const char *path, const char *name, VkCuFunctionNVX *fn)
{
    int rc = nvx_open(d);
    if (rc)
        return rc;
    printf("device: %s\n", d->name);
    return nvx_function(d, path, name, fn);
}

VkCommandBuffer nvx_begin(const NvxDevice *d)
{
    VkCommandBufferAllocateInfo ci = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    ci.commandPool = d->pool;
    ci.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    ci.commandBufferCount = 1;
    VkCommandBuffer cmd = VK_NULL_HANDLE;
    if (vkAllocateCommandBuffers(d->dev, &ci, &cmd) != VK_SUCCESS)
        return VK_NULL_HANDLE;
    VkCommandBufferBeginInfo bi = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    vkBeginCommandBuffer(cmd, &bi);
    return cmd;
}

VkResult nvx_run(const NvxDevice *d, VkCommandBuffer cmd)
{
    VkResult r = vkEndCommandBuffer(cmd);
    if (r != VK_SUCCESS)
        return r;
    VkSubmitInfo si = {VK_STRUCTURE_TYPE_SUBMIT_INFO};
    si.commandBufferCount = 1;
    si.pCommandBuffers = &cmd;
    if ((r = vkQueueSubmit(d->queue, 1, &si, VK_NULL_HANDLE)) != VK_SUCCESS)
        return r;
    r = vkQueueWaitIdle(d->queue);
    vkFreeCommandBuffers(d->dev, d->pool, 1, &cmd);
    return r;
}
