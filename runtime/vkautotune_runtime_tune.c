/* vkautotune_runtime_tune.c — times a kernel's exported candidates on the application's device and picks the fastest
 * correct one (vkautotune_runtime_tune.h, docs/runtime.md). The cache file is vkautotune_runtime_cache.c, the
 * generated inputs and the comparison of outputs vkautotune_runtime_check.c.
 *
 * One measurement per candidate, in this order: build its pipeline; upload the inputs (the application's or the
 * exported fills) and run it once; read its outputs back and compare them with the reference candidate's; then
 * warm up and time samples of `batch` dispatches between two timestamps, each dispatch after a barrier on the
 * previous one (as vkautotune measures). Every Vulkan object has one owner here and is destroyed before return.
 * C99, libc and the Vulkan headers; Vulkan only through the application's proc-address functions; never prints. */
#if defined(__unix__) || defined(__APPLE__)
#define _POSIX_C_SOURCE 200809L
#endif
#define VK_NO_PROTOTYPES
#include "vkautotune_runtime_tune.h"
#include "vkautotune_runtime_check.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- Entry points ------------------------------------------------------------------------------------------- */

#define TUNE_INSTANCE_FUNCS(X)                                                                                    \
    X(vkGetPhysicalDeviceProperties) X(vkGetPhysicalDeviceMemoryProperties)                                      \
    X(vkGetPhysicalDeviceQueueFamilyProperties) X(vkGetPhysicalDeviceFormatProperties)
#define TUNE_DEVICE_FUNCS(X)                                                                                      \
    X(vkCreateBuffer) X(vkDestroyBuffer) X(vkGetBufferMemoryRequirements) X(vkAllocateMemory) X(vkFreeMemory)    \
    X(vkBindBufferMemory) X(vkMapMemory) X(vkUnmapMemory) X(vkInvalidateMappedMemoryRanges)                      \
    X(vkFlushMappedMemoryRanges) X(vkCreateShaderModule) X(vkDestroyShaderModule)                                \
    X(vkCreateDescriptorSetLayout) X(vkDestroyDescriptorSetLayout) X(vkCreatePipelineLayout)                     \
    X(vkDestroyPipelineLayout) X(vkCreateComputePipelines) X(vkDestroyPipeline) X(vkCreateDescriptorPool)        \
    X(vkDestroyDescriptorPool) X(vkAllocateDescriptorSets) X(vkUpdateDescriptorSets) X(vkCreateCommandPool)      \
    X(vkDestroyCommandPool) X(vkAllocateCommandBuffers) X(vkBeginCommandBuffer) X(vkEndCommandBuffer)            \
    X(vkResetCommandBuffer) X(vkCmdBindPipeline) X(vkCmdBindDescriptorSets) X(vkCmdPushConstants)                \
    X(vkCmdDispatch) X(vkCmdPipelineBarrier) X(vkCmdCopyBuffer) X(vkCmdWriteTimestamp) X(vkCmdResetQueryPool)    \
    X(vkCreateQueryPool) X(vkDestroyQueryPool) X(vkGetQueryPoolResults) X(vkQueueSubmit) X(vkCreateFence)        \
    X(vkDestroyFence) X(vkWaitForFences) X(vkResetFences) X(vkCreateImage) X(vkDestroyImage)                    \
    X(vkGetImageMemoryRequirements) X(vkBindImageMemory) X(vkCreateImageView) X(vkDestroyImageView)              \
    X(vkCreateSampler) X(vkDestroySampler) X(vkCmdCopyBufferToImage) X(vkCmdCopyImageToBuffer)                  \
    X(vkCreateBufferView) X(vkDestroyBufferView)

typedef struct funcs {
#define DECLARE(name) PFN_##name name;
    TUNE_INSTANCE_FUNCS(DECLARE)
    TUNE_DEVICE_FUNCS(DECLARE)
#undef DECLARE
    PFN_vkGetPhysicalDeviceProperties2 vkGetPhysicalDeviceProperties2; /* may be NULL (Vulkan 1.0) */
} funcs;

static int load_funcs(const vkat_rt_vulkan *vk, funcs *f)
{
    PFN_vkGetDeviceProcAddr gdpa = vk->get_device_proc_addr;
    if (!gdpa)
        gdpa = (PFN_vkGetDeviceProcAddr)vk->get_instance_proc_addr(vk->instance, "vkGetDeviceProcAddr");
    if (!gdpa)
        return 0;
#define LOAD_I(name)                                                                                              \
    if (!(f->name = (PFN_##name)vk->get_instance_proc_addr(vk->instance, #name)))                                \
        return 0;
#define LOAD_D(name)                                                                                              \
    if (!(f->name = (PFN_##name)gdpa(vk->device, #name)))                                                        \
        return 0;
    TUNE_INSTANCE_FUNCS(LOAD_I)
    TUNE_DEVICE_FUNCS(LOAD_D)
#undef LOAD_I
#undef LOAD_D
    f->vkGetPhysicalDeviceProperties2 =
        (PFN_vkGetPhysicalDeviceProperties2)vk->get_instance_proc_addr(vk->instance, "vkGetPhysicalDeviceProperties2");
    if (!f->vkGetPhysicalDeviceProperties2)
        f->vkGetPhysicalDeviceProperties2 = (PFN_vkGetPhysicalDeviceProperties2)vk->get_instance_proc_addr(
            vk->instance, "vkGetPhysicalDeviceProperties2KHR");
    return 1;
}

vkat_rt_result vkat_rt_device_identity_get(const vkat_rt_vulkan *vk, vkat_rt_device_identity *id)
{
    if (!vk || !id || !vk->get_instance_proc_addr || !vk->physical_device)
        return VKAT_RT_ERR_ARGUMENT;
    memset(id, 0, sizeof *id);
    PFN_vkGetPhysicalDeviceProperties gp =
        (PFN_vkGetPhysicalDeviceProperties)vk->get_instance_proc_addr(vk->instance, "vkGetPhysicalDeviceProperties");
    PFN_vkGetPhysicalDeviceProperties2 gp2 =
        (PFN_vkGetPhysicalDeviceProperties2)vk->get_instance_proc_addr(vk->instance, "vkGetPhysicalDeviceProperties2");
    if (!gp)
        return VKAT_RT_ERR_ARGUMENT;
    VkPhysicalDeviceProperties p;
    gp(vk->physical_device, &p);
    id->vendor_id = p.vendorID;
    id->device_id = p.deviceID;
    id->driver_version = p.driverVersion;
    if (gp2 && p.apiVersion >= VK_API_VERSION_1_1) {
        VkPhysicalDeviceIDProperties idp;
        memset(&idp, 0, sizeof idp);
        idp.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES;
        VkPhysicalDeviceProperties2 p2;
        memset(&p2, 0, sizeof p2);
        p2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2;
        p2.pNext = &idp;
        gp2(vk->physical_device, &p2);
        memcpy(id->device_uuid, idp.deviceUUID, VK_UUID_SIZE);
    }
    return VKAT_RT_OK;
}

/* ---- Errors --------------------------------------------------------------------------------------------------- */

static void say(char *buf, size_t size, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, size, fmt, ap);
    va_end(ap);
}

/* A failed Vulkan call's result code: lost and out-of-memory are their own codes. */
static vkat_rt_result from_vk(VkResult r)
{
    if (r == VK_ERROR_DEVICE_LOST)
        return VKAT_RT_ERR_DEVICE_LOST;
    if (r == VK_ERROR_OUT_OF_HOST_MEMORY || r == VK_ERROR_OUT_OF_DEVICE_MEMORY)
        return VKAT_RT_ERR_NO_MEMORY;
    return VKAT_RT_ERR_VULKAN;
}

static double now_s(void)
{
    return (double)clock() / CLOCKS_PER_SEC;
}

/* Wall time where the platform has it (CPU time would count nothing while the GPU works). */
static double wall_s(void)
{
#if defined(_POSIX_C_SOURCE) && _POSIX_C_SOURCE >= 199309L
    struct timespec ts;
    if (clock_gettime(CLOCK_MONOTONIC, &ts) == 0)
        return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
#endif
    return now_s();
}

/* ---- Candidates ----------------------------------------------------------------------------------------------- */

static int listed(const char *const *list, const char *name)
{
    for (size_t i = 0; list && list[i]; i++)
        if (strcmp(list[i], name) == 0)
            return 1;
    return 0;
}

/* The first requirement of v that the application did not enable, or NULL. */
static const char *missing_requirement(const vkat_rt_variant *v, const vkat_rt_tune_desc *d)
{
    for (size_t i = 0; v->extensions && v->extensions[i]; i++)
        if (!listed(d->enabled_extensions, v->extensions[i]))
            return v->extensions[i];
    for (size_t i = 0; v->features && v->features[i]; i++)
        if (!listed(d->enabled_features, v->features[i]))
            return v->features[i];
    return NULL;
}

static int same_configuration(const vkat_rt_variant *a, const vkat_rt_variant *b)
{
    return strcmp(a->config ? a->config : "", b->config ? b->config : "") == 0 &&
           strcmp(a->spirv_hash ? a->spirv_hash : "", b->spirv_hash ? b->spirv_hash : "") == 0;
}

static int same_bindings(const vkat_rt_variant *a, const vkat_rt_variant *b)
{
    if (a->binding_count != b->binding_count)
        return 0;
    for (uint32_t i = 0; i < a->binding_count; i++)
        if (a->bindings[i].binding != b->bindings[i].binding || a->bindings[i].set != b->bindings[i].set ||
            a->bindings[i].element_size != b->bindings[i].element_size ||
            a->bindings[i].direction != b->bindings[i].direction ||
            a->bindings[i].vk_format != b->bindings[i].vk_format || a->bindings[i].sampled != b->bindings[i].sampled ||
            a->bindings[i].uniform != b->bindings[i].uniform ||
            a->bindings[i].texel_buffer != b->bindings[i].texel_buffer)
            return 0;
    return 1;
}

/* ---- One tuning run ------------------------------------------------------------------------------------------- */

/* A binding's memory: a buffer (a texel buffer's views are each candidate's, in its pipe), or for an image binding
 * an image (its texels packed as `size` bytes in the staging buffers), its view and, read through a sampler, its
 * sampler. */
typedef struct gpu_buffer {
    VkBuffer buf;
    VkDeviceMemory mem;
    VkDeviceSize size;
    int coherent;
    VkImage image;
    VkImageView view;
    VkSampler sampler;
    uint32_t extent[3];
} gpu_buffer;

typedef struct run {
    const vkat_rt_vulkan *vk;
    const vkat_rt_tune_desc *desc;
    const vkat_rt_table *table;
    funcs f;
    VkPhysicalDeviceProperties props;
    VkPhysicalDeviceMemoryProperties mem;
    uint64_t ts_mask;
    VkCommandPool pool;
    VkCommandBuffer cmd;
    VkFence fence;
    VkQueryPool queries;
    uint32_t binding_count;
    const vkat_rt_binding *bindings; /* the reference layout */
    gpu_buffer bufs[VKAT_RT_MAX_BINDINGS];
    gpu_buffer upload, download;     /* host-visible staging: every binding, the outputs */
    VkDeviceSize offset[VKAT_RT_MAX_BINDINGS], out_offset[VKAT_RT_MAX_BINDINGS];
    unsigned char *host;             /* the inputs, laid out as `upload` */
    unsigned char *ref_out;          /* the reference candidate's outputs, laid out as `download` */
    int have_ref, have_chal;
    uint32_t ref_index, chal_index;  /* the reference candidate, the first that disagreed with it */
    unsigned char *chal_out;         /* the challenger's outputs */
    uint8_t votes[VKAT_RT_MAX_CANDIDATES];
    vkat_rt_launch launches[VKAT_RT_MAX_CANDIDATES];
    VkResult vr;                     /* the last failed call */
    char detail[256];
} run;

#define VKR(call, what)                                                                                           \
    do {                                                                                                         \
        VkResult vr_ = (call);                                                                                   \
        if (vr_ != VK_SUCCESS) {                                                                                 \
            g->vr = vr_;                                                                                         \
            say(g->detail, sizeof g->detail, "%s failed (VkResult %d)", what, (int)vr_);                         \
            return from_vk(vr_);                                                                                 \
        }                                                                                                        \
    } while (0)

static uint32_t memory_type(const run *g, uint32_t bits, VkMemoryPropertyFlags want)
{
    for (uint32_t i = 0; i < g->mem.memoryTypeCount; i++)
        if ((bits & (1u << i)) && (g->mem.memoryTypes[i].propertyFlags & want) == want)
            return i;
    return UINT32_MAX;
}

static VkResult allocate(run *g, VkDeviceSize size, uint32_t type, VkDeviceMemory *mem)
{
    VkMemoryAllocateInfo ai;
    memset(&ai, 0, sizeof ai);
    ai.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
    ai.allocationSize = size;
    ai.memoryTypeIndex = type;
    return g->f.vkAllocateMemory(g->vk->device, &ai, NULL, mem);
}

/* A buffer of `size` bytes, host-visible or device-local; `texel` adds the texel-buffer usages its views need. */
static vkat_rt_result make_buffer(run *g, gpu_buffer *b, VkDeviceSize size, int host, int texel)
{
    VkBufferCreateInfo bi;
    memset(&bi, 0, sizeof bi);
    bi.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
    bi.size = size ? size : 4;
    bi.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT |
               VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT |
               (texel ? VK_BUFFER_USAGE_UNIFORM_TEXEL_BUFFER_BIT | VK_BUFFER_USAGE_STORAGE_TEXEL_BUFFER_BIT : 0);
    bi.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    b->size = bi.size;
    VKR(g->f.vkCreateBuffer(g->vk->device, &bi, NULL, &b->buf), "vkCreateBuffer");
    VkMemoryRequirements req;
    g->f.vkGetBufferMemoryRequirements(g->vk->device, b->buf, &req);
    VkMemoryPropertyFlags want = host ? VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT
                                      : VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
    uint32_t type = memory_type(g, req.memoryTypeBits, want);
    b->coherent = host;
    if (type == UINT32_MAX && host) {
        type = memory_type(g, req.memoryTypeBits, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT);
        b->coherent = 0;
    } else if (type == UINT32_MAX) {
        type = memory_type(g, req.memoryTypeBits, 0);
    }
    if (type == UINT32_MAX) {
        say(g->detail, sizeof g->detail, "no memory type for a %s buffer", host ? "host-visible" : "device");
        return VKAT_RT_ERR_VULKAN;
    }
    VKR(allocate(g, req.size, type, &b->mem), "vkAllocateMemory");
    VKR(g->f.vkBindBufferMemory(g->vk->device, b->buf, b->mem, 0), "vkBindBufferMemory");
    return VKAT_RT_OK;
}

static void free_buffer(run *g, gpu_buffer *b)
{
    if (b->sampler)
        g->f.vkDestroySampler(g->vk->device, b->sampler, NULL);
    if (b->view)
        g->f.vkDestroyImageView(g->vk->device, b->view, NULL);
    if (b->image)
        g->f.vkDestroyImage(g->vk->device, b->image, NULL);
    if (b->buf)
        g->f.vkDestroyBuffer(g->vk->device, b->buf, NULL);
    if (b->mem)
        g->f.vkFreeMemory(g->vk->device, b->mem, NULL);
    memset(b, 0, sizeof *b);
}

/* ---- Images ---------------------------------------------------------------------------------------------------- */

static int integer_type(const char *type)
{
    return type && (strncmp(type, "int", 3) == 0 || strncmp(type, "uint", 4) == 0);
}

/* Image binding b's image of `extent` in VK_IMAGE_LAYOUT_UNDEFINED (images_to_general moves it), its view and,
 * when sampled, a sampler as vkautotune sampled it with: bilinear where the format filters, else nearest; edges
 * clamp. A format the device cannot store, sample or copy this way is VKAT_RT_ERR_UNSUPPORTED. */
static vkat_rt_result make_image(run *g, const vkat_rt_binding *b, const uint32_t extent[3], gpu_buffer *m)
{
    VkDevice d = g->vk->device;
    VkFormat format = (VkFormat)b->vk_format;
    VkFormatProperties fp;
    g->f.vkGetPhysicalDeviceFormatProperties(g->vk->physical_device, format, &fp);
    VkFormatFeatureFlags need = VK_FORMAT_FEATURE_TRANSFER_SRC_BIT | VK_FORMAT_FEATURE_TRANSFER_DST_BIT;
    need |= b->sampled ? VK_FORMAT_FEATURE_SAMPLED_IMAGE_BIT : VK_FORMAT_FEATURE_STORAGE_IMAGE_BIT;
    if (!format || (fp.optimalTilingFeatures & need) != need) {
        say(g->detail, sizeof g->detail, "image '%s': the device cannot %s format %s (VkFormat %u) with optimal "
            "tiling", b->name, b->sampled ? "sample" : "store", b->image_format, b->vk_format);
        return VKAT_RT_ERR_UNSUPPORTED;
    }
    VkImageCreateInfo ci;
    memset(&ci, 0, sizeof ci);
    ci.sType = VK_STRUCTURE_TYPE_IMAGE_CREATE_INFO;
    ci.imageType = b->dims >= 3 ? VK_IMAGE_TYPE_3D : b->dims == 2 ? VK_IMAGE_TYPE_2D : VK_IMAGE_TYPE_1D;
    ci.format = format;
    ci.extent.width = extent[0];
    ci.extent.height = extent[1];
    ci.extent.depth = extent[2];
    ci.mipLevels = ci.arrayLayers = 1;
    ci.samples = VK_SAMPLE_COUNT_1_BIT;
    ci.tiling = VK_IMAGE_TILING_OPTIMAL;
    ci.usage = VK_IMAGE_USAGE_TRANSFER_SRC_BIT | VK_IMAGE_USAGE_TRANSFER_DST_BIT |
               (b->sampled ? VK_IMAGE_USAGE_SAMPLED_BIT : VK_IMAGE_USAGE_STORAGE_BIT);
    ci.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    ci.initialLayout = VK_IMAGE_LAYOUT_UNDEFINED;
    VKR(g->f.vkCreateImage(d, &ci, NULL, &m->image), "vkCreateImage");
    memcpy(m->extent, extent, sizeof m->extent);
    VkMemoryRequirements req;
    g->f.vkGetImageMemoryRequirements(d, m->image, &req);
    uint32_t type = memory_type(g, req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    if (type == UINT32_MAX)
        type = memory_type(g, req.memoryTypeBits, 0);
    if (type == UINT32_MAX) {
        say(g->detail, sizeof g->detail, "no memory type for image '%s'", b->name);
        return VKAT_RT_ERR_VULKAN;
    }
    VKR(allocate(g, req.size, type, &m->mem), "vkAllocateMemory");
    VKR(g->f.vkBindImageMemory(d, m->image, m->mem, 0), "vkBindImageMemory");
    VkImageViewCreateInfo vi;
    memset(&vi, 0, sizeof vi);
    vi.sType = VK_STRUCTURE_TYPE_IMAGE_VIEW_CREATE_INFO;
    vi.image = m->image;
    vi.viewType = (VkImageViewType)ci.imageType; /* 1D, 2D and 3D have the same numbers in both enums */
    vi.format = format;
    vi.subresourceRange.aspectMask = VK_IMAGE_ASPECT_COLOR_BIT;
    vi.subresourceRange.levelCount = vi.subresourceRange.layerCount = 1;
    VKR(g->f.vkCreateImageView(d, &vi, NULL, &m->view), "vkCreateImageView");
    if (!b->sampled)
        return VKAT_RT_OK;
    int linear =
        !integer_type(b->type) && (fp.optimalTilingFeatures & VK_FORMAT_FEATURE_SAMPLED_IMAGE_FILTER_LINEAR_BIT);
    VkSamplerCreateInfo si;
    memset(&si, 0, sizeof si);
    si.sType = VK_STRUCTURE_TYPE_SAMPLER_CREATE_INFO;
    si.magFilter = si.minFilter = linear ? VK_FILTER_LINEAR : VK_FILTER_NEAREST;
    si.mipmapMode = VK_SAMPLER_MIPMAP_MODE_NEAREST;
    si.addressModeU = si.addressModeV = si.addressModeW = VK_SAMPLER_ADDRESS_MODE_CLAMP_TO_EDGE;
    VKR(g->f.vkCreateSampler(d, &si, NULL, &m->sampler), "vkCreateSampler");
    return VKAT_RT_OK;
}

/* Can the device read (and for a storage texel buffer write) binding b's format through a buffer view? */
static vkat_rt_result check_texel_format(run *g, const vkat_rt_binding *b)
{
    VkFormatProperties fp;
    g->f.vkGetPhysicalDeviceFormatProperties(g->vk->physical_device, (VkFormat)b->vk_format, &fp);
    VkFormatFeatureFlags need =
        b->uniform ? VK_FORMAT_FEATURE_UNIFORM_TEXEL_BUFFER_BIT : VK_FORMAT_FEATURE_STORAGE_TEXEL_BUFFER_BIT;
    if (b->vk_format && (fp.bufferFeatures & need))
        return VKAT_RT_OK;
    say(g->detail, sizeof g->detail, "texel buffer '%s': the device cannot use format %s (VkFormat %u) in a %s texel "
        "buffer", b->name, b->image_format, b->vk_format, b->uniform ? "uniform" : "storage");
    return VKAT_RT_ERR_UNSUPPORTED;
}

/* The region of image m that the packed texels at `offset` of a staging buffer fill. */
static VkBufferImageCopy image_region(const gpu_buffer *m, VkDeviceSize offset)
{
    VkBufferImageCopy c;
    memset(&c, 0, sizeof c);
    c.bufferOffset = offset;
    c.imageSubresource.aspectMask = VK_IMAGE_ASPECT_COLOR_BIT;
    c.imageSubresource.layerCount = 1;
    c.imageExtent.width = m->extent[0];
    c.imageExtent.height = m->extent[1];
    c.imageExtent.depth = m->extent[2];
    return c;
}

/* Host <-> staging: a mapped copy (flushed or invalidated when the memory is not coherent). */
static vkat_rt_result staging_copy(run *g, gpu_buffer *b, unsigned char *host, VkDeviceSize size, int to_device)
{
    void *p;
    if (size == 0)
        return VKAT_RT_OK;
    VKR(g->f.vkMapMemory(g->vk->device, b->mem, 0, VK_WHOLE_SIZE, 0, &p), "vkMapMemory");
    VkMappedMemoryRange range;
    memset(&range, 0, sizeof range);
    range.sType = VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE;
    range.memory = b->mem;
    range.size = VK_WHOLE_SIZE;
    VkResult r = VK_SUCCESS;
    if (to_device) {
        memcpy(p, host, (size_t)size);
        if (!b->coherent)
            r = g->f.vkFlushMappedMemoryRanges(g->vk->device, 1, &range);
    } else {
        if (!b->coherent)
            r = g->f.vkInvalidateMappedMemoryRanges(g->vk->device, 1, &range);
        memcpy(host, p, (size_t)size);
    }
    g->f.vkUnmapMemory(g->vk->device, b->mem);
    VKR(r, to_device ? "vkFlushMappedMemoryRanges" : "vkInvalidateMappedMemoryRanges");
    return VKAT_RT_OK;
}

static void barrier(run *g)
{
    VkMemoryBarrier mb;
    memset(&mb, 0, sizeof mb);
    mb.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER;
    mb.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
    mb.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_READ_BIT |
                       VK_ACCESS_TRANSFER_WRITE_BIT;
    g->f.vkCmdPipelineBarrier(g->cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                              VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &mb, 0, NULL,
                              0, NULL);
}

static vkat_rt_result begin(run *g)
{
    VKR(g->f.vkResetCommandBuffer(g->cmd, 0), "vkResetCommandBuffer");
    VkCommandBufferBeginInfo bi;
    memset(&bi, 0, sizeof bi);
    bi.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
    bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    VKR(g->f.vkBeginCommandBuffer(g->cmd, &bi), "vkBeginCommandBuffer");
    return VKAT_RT_OK;
}

static vkat_rt_result submit_wait(run *g)
{
    VKR(g->f.vkEndCommandBuffer(g->cmd), "vkEndCommandBuffer");
    VkSubmitInfo si;
    memset(&si, 0, sizeof si);
    si.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
    si.commandBufferCount = 1;
    si.pCommandBuffers = &g->cmd;
    VKR(g->f.vkResetFences(g->vk->device, 1, &g->fence), "vkResetFences");
    VKR(g->f.vkQueueSubmit(g->vk->queue, 1, &si, g->fence), "vkQueueSubmit");
    /* A minute: a candidate that hangs the device ends as a lost device, not as a hung application. */
    VKR(g->f.vkWaitForFences(g->vk->device, 1, &g->fence, VK_TRUE, 60ull * 1000000000ull), "vkWaitForFences");
    return VKAT_RT_OK;
}

/* Every image into VK_IMAGE_LAYOUT_GENERAL, where copies and the kernels use it from then on. */
static vkat_rt_result images_to_general(run *g)
{
    VkImageMemoryBarrier ib[VKAT_RT_MAX_BINDINGS];
    uint32_t n = 0;
    for (uint32_t b = 0; b < g->binding_count; b++) {
        if (!g->bufs[b].image)
            continue;
        memset(&ib[n], 0, sizeof ib[n]);
        ib[n].sType = VK_STRUCTURE_TYPE_IMAGE_MEMORY_BARRIER;
        ib[n].dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
        ib[n].oldLayout = VK_IMAGE_LAYOUT_UNDEFINED;
        ib[n].newLayout = VK_IMAGE_LAYOUT_GENERAL;
        ib[n].srcQueueFamilyIndex = ib[n].dstQueueFamilyIndex = VK_QUEUE_FAMILY_IGNORED;
        ib[n].image = g->bufs[b].image;
        ib[n].subresourceRange.aspectMask = VK_IMAGE_ASPECT_COLOR_BIT;
        ib[n].subresourceRange.levelCount = ib[n].subresourceRange.layerCount = 1;
        n++;
    }
    if (!n)
        return VKAT_RT_OK;
    vkat_rt_result r = begin(g);
    if (r)
        return r;
    VkPipelineStageFlags dst = VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT;
    g->f.vkCmdPipelineBarrier(g->cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, dst, 0, 0, NULL, 0, NULL, n, ib);
    return submit_wait(g);
}

/* The shared objects: command buffer, fence, timestamps, the buffers (largest size any candidate needs) and the
 * inputs. */
static vkat_rt_result setup(run *g, const vkat_rt_variant *const *cands, uint32_t n)
{
    vkat_rt_result r;
    VkCommandPoolCreateInfo cpi;
    memset(&cpi, 0, sizeof cpi);
    cpi.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO;
    cpi.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    cpi.queueFamilyIndex = g->vk->queue_family_index;
    VKR(g->f.vkCreateCommandPool(g->vk->device, &cpi, NULL, &g->pool), "vkCreateCommandPool");
    VkCommandBufferAllocateInfo cai;
    memset(&cai, 0, sizeof cai);
    cai.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
    cai.commandPool = g->pool;
    cai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    cai.commandBufferCount = 1;
    VKR(g->f.vkAllocateCommandBuffers(g->vk->device, &cai, &g->cmd), "vkAllocateCommandBuffers");
    VkFenceCreateInfo fci;
    memset(&fci, 0, sizeof fci);
    fci.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO;
    VKR(g->f.vkCreateFence(g->vk->device, &fci, NULL, &g->fence), "vkCreateFence");
    VkQueryPoolCreateInfo qpi;
    memset(&qpi, 0, sizeof qpi);
    qpi.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO;
    qpi.queryType = VK_QUERY_TYPE_TIMESTAMP;
    qpi.queryCount = 2;
    VKR(g->f.vkCreateQueryPool(g->vk->device, &qpi, NULL, &g->queries), "vkCreateQueryPool");

    VkDeviceSize total = 0, total_out = 0;
    for (uint32_t b = 0; b < g->binding_count; b++) {
        VkDeviceSize size = 4;
        for (uint32_t c = 0; c < n; c++)
            if (cands[c] && g->launches[c].buffer_bytes[b] > size)
                size = g->launches[c].buffer_bytes[b];
        size = (size + 15) & ~(VkDeviceSize)15;
        const vkat_rt_binding *bd = &g->bindings[b];
        r = bd->image_format && !bd->texel_buffer ? make_image(g, bd, g->launches[0].image_extent[b], &g->bufs[b])
                                                  : make_buffer(g, &g->bufs[b], size, 0, bd->texel_buffer);
        if (!r && bd->texel_buffer)
            r = check_texel_format(g, bd);
        if (r)
            return r;
        g->bufs[b].size = size; /* an image's texels, packed, in the staging buffers */
        g->offset[b] = total;
        total += size;
        g->out_offset[b] = total_out;
        if (g->bindings[b].direction & VKAT_RT_OUT)
            total_out += size;
    }
    if ((r = make_buffer(g, &g->upload, total, 1, 0)) || (r = make_buffer(g, &g->download, total_out, 1, 0)))
        return r;
    g->host = malloc((size_t)total ? (size_t)total : 1);
    g->ref_out = malloc((size_t)total_out ? (size_t)total_out : 1);
    g->chal_out = malloc((size_t)total_out ? (size_t)total_out : 1);
    if (!g->host || !g->ref_out || !g->chal_out) {
        say(g->detail, sizeof g->detail, "out of host memory for %llu bytes of inputs and outputs",
            (unsigned long long)(total + total_out));
        return VKAT_RT_ERR_NO_MEMORY;
    }
    const vkat_rt_check *chk = &g->table->checks[cands[0] - g->table->variants];
    /* the fields' values for the problem tuned: a field without a formula holds for its own tuned problem only */
    const vkat_rt_variant *first = cands[0];
    const int64_t *problem = g->desc->problem_count ? g->desc->problem : first->problem;
    uint32_t problem_count = g->desc->problem_count ? g->desc->problem_count : first->problem_count;
    int tuned = problem_count == first->problem_count;
    for (uint32_t i = 0; tuned && i < problem_count; i++)
        tuned = problem[i] == first->problem[i];
    for (uint32_t b = 0; b < g->binding_count; b++) {
        unsigned char *dst = g->host + g->offset[b];
        size_t bytes = (size_t)g->bufs[b].size;
        const vkat_rt_input *in = g->desc->inputs && b < g->desc->input_count ? &g->desc->inputs[b] : NULL;
        if (in && in->data) {
            size_t need = 0;
            for (uint32_t c = 0; c < n; c++)
                if (cands[c] && g->launches[c].buffer_bytes[b] > need)
                    need = (size_t)g->launches[c].buffer_bytes[b];
            if (in->bytes < need) {
                say(g->detail, sizeof g->detail, "input for binding '%s' has %zu bytes; the candidates need %zu",
                    g->bindings[b].name, in->bytes, need);
                return VKAT_RT_ERR_ARGUMENT;
            }
            memset(dst, 0, bytes);
            memcpy(dst, in->data, in->bytes < bytes ? in->bytes : bytes);
        } else {
            const vkat_rt_fill *fill = chk->fills ? &chk->fills[b] : NULL;
            vkat_rt_fill_buffer(dst, bytes, &g->bindings[b], fill, 0x5eed0000ull + b);
            if ((r = vkat_rt_fill_fields(dst, bytes, fill, problem, problem_count, tuned)) != VKAT_RT_OK) {
                say(g->detail, sizeof g->detail, "the fields of binding '%s' cannot be given for this problem: %s",
                    g->bindings[b].name, vkat_rt_result_string(r));
                return r;
            }
        }
    }
    if ((r = staging_copy(g, &g->upload, g->host, total, 1)))
        return r;
    return images_to_general(g);
}

static void teardown(run *g)
{
    VkDevice d = g->vk->device;
    if (g->queries)
        g->f.vkDestroyQueryPool(d, g->queries, NULL);
    if (g->fence)
        g->f.vkDestroyFence(d, g->fence, NULL);
    if (g->pool)
        g->f.vkDestroyCommandPool(d, g->pool, NULL);
    for (uint32_t b = 0; b < VKAT_RT_MAX_BINDINGS; b++)
        free_buffer(g, &g->bufs[b]);
    free_buffer(g, &g->upload);
    free_buffer(g, &g->download);
    free(g->host);
    free(g->ref_out);
    free(g->chal_out);
}

/* A binding's descriptor type: a uniform block binds as a uniform buffer (binding it as a storage buffer is invalid
 * usage that some drivers run and others do not). */
static VkDescriptorType descriptor_type(const vkat_rt_binding *b)
{
    if (b->texel_buffer)
        return b->uniform ? VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER : VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER;
    if (b->image_format)
        return b->sampled ? VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER : VK_DESCRIPTOR_TYPE_STORAGE_IMAGE;
    return b->uniform ? VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER : VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
}

/* One candidate's pipeline and descriptor set. */
typedef struct pipe {
    VkShaderModule module;
    uint32_t set_count; /* sets 0..set_count-1: the highest any binding takes */
    VkDescriptorSetLayout dsl[VKAT_RT_MAX_SETS];
    VkPipelineLayout layout;
    VkPipeline pipeline;
    VkDescriptorPool dpool;
    VkDescriptorSet sets[VKAT_RT_MAX_SETS];
    VkBufferView views[VKAT_RT_MAX_BINDINGS]; /* texel buffers: a view of this candidate's range */
} pipe;

static vkat_rt_result make_pipe(run *g, const vkat_rt_variant *v, const vkat_rt_launch *l, pipe *p)
{
    VkDevice d = g->vk->device;
    p->set_count = 1;
    for (uint32_t i = 0; i < v->binding_count; i++) {
        if (v->bindings[i].set >= VKAT_RT_MAX_SETS) {
            say(g->detail, sizeof g->detail, "binding '%s' takes descriptor set %u (at most %d)", v->bindings[i].name,
                v->bindings[i].set, VKAT_RT_MAX_SETS - 1);
            return VKAT_RT_ERR_ARGUMENT;
        }
        if (v->bindings[i].set + 1 > p->set_count)
            p->set_count = v->bindings[i].set + 1;
    }
    for (uint32_t s = 0; s < p->set_count; s++) {
        VkDescriptorSetLayoutBinding lb[VKAT_RT_MAX_BINDINGS];
        uint32_t n = 0;
        for (uint32_t i = 0; i < v->binding_count; i++) {
            if (v->bindings[i].set != s)
                continue;
            memset(&lb[n], 0, sizeof lb[n]);
            lb[n].binding = v->bindings[i].binding;
            lb[n].descriptorType = descriptor_type(&v->bindings[i]);
            lb[n].descriptorCount = 1;
            lb[n++].stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
        }
        VkDescriptorSetLayoutCreateInfo dli;
        memset(&dli, 0, sizeof dli);
        dli.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO;
        dli.bindingCount = n;
        dli.pBindings = lb;
        VKR(g->f.vkCreateDescriptorSetLayout(d, &dli, NULL, &p->dsl[s]), "vkCreateDescriptorSetLayout");
    }
    VkPushConstantRange pcr = {VK_SHADER_STAGE_COMPUTE_BIT, 0, l->push_size};
    VkPipelineLayoutCreateInfo pli;
    memset(&pli, 0, sizeof pli);
    pli.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO;
    pli.setLayoutCount = p->set_count;
    pli.pSetLayouts = p->dsl;
    pli.pushConstantRangeCount = l->push_size ? 1 : 0;
    pli.pPushConstantRanges = &pcr;
    VKR(g->f.vkCreatePipelineLayout(d, &pli, NULL, &p->layout), "vkCreatePipelineLayout");
    VkShaderModuleCreateInfo smi;
    memset(&smi, 0, sizeof smi);
    smi.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO;
    smi.codeSize = v->spirv_size_bytes;
    smi.pCode = v->spirv;
    VKR(g->f.vkCreateShaderModule(d, &smi, NULL, &p->module), "vkCreateShaderModule");
    VkSpecializationMapEntry entries[64];
    VkSpecializationInfo spec;
    if (v->spec_constant_count > 64) {
        say(g->detail, sizeof g->detail, "more than 64 specialization constants");
        return VKAT_RT_ERR_ARGUMENT;
    }
    vkat_rt_specialization(v, entries, &spec);
    VkComputePipelineCreateInfo cpci;
    memset(&cpci, 0, sizeof cpci);
    cpci.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO;
    cpci.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    cpci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    cpci.stage.module = p->module;
    cpci.stage.pName = v->entry_point ? v->entry_point : "main";
    cpci.stage.pSpecializationInfo = v->spec_constant_count ? &spec : NULL;
    cpci.layout = p->layout;
    VKR(g->f.vkCreateComputePipelines(d, VK_NULL_HANDLE, 1, &cpci, NULL, &p->pipeline), "vkCreateComputePipelines");
    VkDescriptorPoolSize ps[6] = {
        {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 0},       {VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER, 0},
        {VK_DESCRIPTOR_TYPE_STORAGE_IMAGE, 0},        {VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER, 0},
        {VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER, 0}, {VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER, 0}};
    for (uint32_t i = 0; i < v->binding_count; i++)
        for (uint32_t t = 0; t < 6; t++)
            ps[t].descriptorCount += ps[t].type == descriptor_type(&v->bindings[i]);
    uint32_t nps = 0;
    for (uint32_t t = 0; t < 6; t++)
        if (ps[t].descriptorCount || (t == 0 && !v->binding_count))
            ps[nps++] = (VkDescriptorPoolSize){ps[t].type, ps[t].descriptorCount ? ps[t].descriptorCount : 1};
    VkDescriptorPoolCreateInfo dpi;
    memset(&dpi, 0, sizeof dpi);
    dpi.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO;
    dpi.maxSets = p->set_count;
    dpi.poolSizeCount = nps;
    dpi.pPoolSizes = ps;
    VKR(g->f.vkCreateDescriptorPool(d, &dpi, NULL, &p->dpool), "vkCreateDescriptorPool");
    VkDescriptorSetAllocateInfo dai;
    memset(&dai, 0, sizeof dai);
    dai.sType = VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO;
    dai.descriptorPool = p->dpool;
    dai.descriptorSetCount = p->set_count;
    dai.pSetLayouts = p->dsl;
    VKR(g->f.vkAllocateDescriptorSets(d, &dai, p->sets), "vkAllocateDescriptorSets");
    VkDescriptorBufferInfo dbi[VKAT_RT_MAX_BINDINGS];
    VkDescriptorImageInfo dii[VKAT_RT_MAX_BINDINGS];
    VkWriteDescriptorSet wr[VKAT_RT_MAX_BINDINGS];
    for (uint32_t i = 0; i < v->binding_count; i++) {
        const gpu_buffer *m = &g->bufs[i];
        if (m->image && memcmp(m->extent, l->image_extent[i], sizeof m->extent) != 0) {
            say(g->detail, sizeof g->detail, "image '%s' is %u x %u x %u here, %u x %u x %u for the reference",
                v->bindings[i].name, l->image_extent[i][0], l->image_extent[i][1], l->image_extent[i][2], m->extent[0],
                m->extent[1], m->extent[2]);
            return VKAT_RT_ERR_ARGUMENT;
        }
        dii[i].sampler = m->sampler;
        dii[i].imageView = m->view;
        dii[i].imageLayout = VK_IMAGE_LAYOUT_GENERAL;
        dbi[i].buffer = g->bufs[i].buf;
        dbi[i].offset = 0;
        /* This candidate's own size, as vkautotune bound it: a kernel may read its buffers' lengths. */
        dbi[i].range = l->buffer_bytes[i] ? l->buffer_bytes[i] : VK_WHOLE_SIZE;
        memset(&wr[i], 0, sizeof wr[i]);
        wr[i].sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
        wr[i].dstSet = p->sets[v->bindings[i].set];
        wr[i].dstBinding = v->bindings[i].binding;
        wr[i].descriptorCount = 1;
        wr[i].descriptorType = descriptor_type(&v->bindings[i]);
        wr[i].pBufferInfo = m->image ? NULL : &dbi[i];
        wr[i].pImageInfo = m->image ? &dii[i] : NULL;
        if (v->bindings[i].texel_buffer) {
            VkBufferViewCreateInfo bv;
            memset(&bv, 0, sizeof bv);
            bv.sType = VK_STRUCTURE_TYPE_BUFFER_VIEW_CREATE_INFO;
            bv.buffer = m->buf;
            bv.format = (VkFormat)v->bindings[i].vk_format;
            bv.range = dbi[i].range; /* this candidate's texels, as vkautotune bound them */
            VKR(g->f.vkCreateBufferView(d, &bv, NULL, &p->views[i]), "vkCreateBufferView");
            wr[i].pBufferInfo = NULL;
            wr[i].pTexelBufferView = &p->views[i];
        }
    }
    g->f.vkUpdateDescriptorSets(d, v->binding_count, wr, 0, NULL);
    return VKAT_RT_OK;
}

static void free_pipe(run *g, pipe *p)
{
    VkDevice d = g->vk->device;
    if (p->dpool)
        g->f.vkDestroyDescriptorPool(d, p->dpool, NULL);
    for (uint32_t i = 0; i < VKAT_RT_MAX_BINDINGS; i++)
        if (p->views[i])
            g->f.vkDestroyBufferView(d, p->views[i], NULL);
    if (p->pipeline)
        g->f.vkDestroyPipeline(d, p->pipeline, NULL);
    if (p->module)
        g->f.vkDestroyShaderModule(d, p->module, NULL);
    if (p->layout)
        g->f.vkDestroyPipelineLayout(d, p->layout, NULL);
    for (uint32_t s = 0; s < VKAT_RT_MAX_SETS; s++)
        if (p->dsl[s])
            g->f.vkDestroyDescriptorSetLayout(d, p->dsl[s], NULL);
}

static void record_dispatches(run *g, const pipe *p, const vkat_rt_launch *l, uint32_t count)
{
    g->f.vkCmdBindPipeline(g->cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p->pipeline);
    g->f.vkCmdBindDescriptorSets(g->cmd, VK_PIPELINE_BIND_POINT_COMPUTE, p->layout, 0, p->set_count, p->sets, 0, NULL);
    if (l->push_size)
        g->f.vkCmdPushConstants(g->cmd, p->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, l->push_size, l->push);
    for (uint32_t i = 0; i < count; i++) {
        barrier(g);
        g->f.vkCmdDispatch(g->cmd, l->groups[0], l->groups[1], l->groups[2]);
    }
}

/* Fresh inputs, one dispatch, the outputs into `download` and then into `out` (host). */
static vkat_rt_result run_once(run *g, const pipe *p, const vkat_rt_launch *l, unsigned char *out)
{
    vkat_rt_result r;
    if ((r = begin(g)))
        return r;
    for (uint32_t b = 0; b < g->binding_count; b++) {
        VkBufferCopy c = {g->offset[b], 0, g->bufs[b].size};
        VkBufferImageCopy ic = image_region(&g->bufs[b], g->offset[b]);
        if (g->bufs[b].image)
            g->f.vkCmdCopyBufferToImage(g->cmd, g->upload.buf, g->bufs[b].image, VK_IMAGE_LAYOUT_GENERAL, 1, &ic);
        else
            g->f.vkCmdCopyBuffer(g->cmd, g->upload.buf, g->bufs[b].buf, 1, &c);
    }
    record_dispatches(g, p, l, 1);
    barrier(g);
    VkDeviceSize total_out = 0;
    for (uint32_t b = 0; b < g->binding_count; b++) {
        if (!(g->bindings[b].direction & VKAT_RT_OUT))
            continue;
        VkBufferCopy c = {0, g->out_offset[b], g->bufs[b].size};
        VkBufferImageCopy ic = image_region(&g->bufs[b], g->out_offset[b]);
        if (g->bufs[b].image)
            g->f.vkCmdCopyImageToBuffer(g->cmd, g->bufs[b].image, VK_IMAGE_LAYOUT_GENERAL, g->download.buf, 1, &ic);
        else
            g->f.vkCmdCopyBuffer(g->cmd, g->bufs[b].buf, g->download.buf, 1, &c);
        total_out = g->out_offset[b] + g->bufs[b].size;
    }
    VkMemoryBarrier mb;
    memset(&mb, 0, sizeof mb);
    mb.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER;
    mb.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
    mb.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    g->f.vkCmdPipelineBarrier(g->cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &mb, 0, NULL,
                              0, NULL);
    if ((r = submit_wait(g)))
        return r;
    return staging_copy(g, &g->download, out, total_out, 0);
}

/* One timed sample of `count` dispatches, in ms per dispatch. */
static vkat_rt_result time_sample(run *g, const pipe *p, const vkat_rt_launch *l, uint32_t count, double *ms)
{
    vkat_rt_result r;
    if ((r = begin(g)))
        return r;
    g->f.vkCmdResetQueryPool(g->cmd, g->queries, 0, 2);
    g->f.vkCmdWriteTimestamp(g->cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, g->queries, 0);
    record_dispatches(g, p, l, count);
    g->f.vkCmdWriteTimestamp(g->cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, g->queries, 1);
    if ((r = submit_wait(g)))
        return r;
    uint64_t t[2];
    VKR(g->f.vkGetQueryPoolResults(g->vk->device, g->queries, 0, 2, sizeof t, t, sizeof t[0],
                                   VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
        "vkGetQueryPoolResults");
    uint64_t delta = ((t[1] & g->ts_mask) - (t[0] & g->ts_mask)) & g->ts_mask;
    *ms = (double)delta * g->props.limits.timestampPeriod * 1e-6 / count;
    return VKAT_RT_OK;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Do `got`'s outputs agree with `base`'s (the outputs of candidate base_index) over every output binding? The
 * largest differences go to *rel_l2 and *max_abs, the first disagreement's description to `why`. */
static int agrees_with(const run *g, const unsigned char *base, uint32_t base_index, const unsigned char *got,
                       const vkat_rt_launch *l, const vkat_rt_check *chk, double *rel_l2, double *max_abs, char *why,
                       size_t why_size)
{
    *rel_l2 = *max_abs = 0;
    for (uint32_t b = 0; b < g->binding_count; b++) {
        if (!(g->bindings[b].direction & VKAT_RT_OUT))
            continue;
        /* The shorter of the two: a candidate may pad its buffers differently. */
        size_t bytes = (size_t)g->launches[base_index].buffer_bytes[b];
        if ((size_t)l->buffer_bytes[b] < bytes)
            bytes = (size_t)l->buffer_bytes[b];
        double rl2, mabs;
        int ok = vkat_rt_outputs_agree(base + g->out_offset[b], got + g->out_offset[b], bytes, &g->bindings[b], chk,
                                       &rl2, &mabs, why, why_size);
        *rel_l2 = rl2 > *rel_l2 ? rl2 : *rel_l2;
        *max_abs = mabs > *max_abs ? mabs : *max_abs;
        if (!ok)
            return 0;
    }
    return 1;
}

/* Measures candidate c: its check, then timing until `deadline`. The first candidate that runs is the reference;
 * the first that disagrees with it becomes the challenger, and every later one is compared with both: g->votes[c]
 * says whom it agrees with (1 the reference, 2 the challenger), and vkat_rt_tune lets the larger group win. One that
 * agrees with neither is skipped here. A failure that concerns only this candidate is its status; the return value
 * is nonzero only for what ends the whole run. */
static vkat_rt_result measure(run *g, uint32_t c, const vkat_rt_variant *v, double deadline,
                              vkat_rt_candidate_report *rep, unsigned char *scratch)
{
    const vkat_rt_launch *l = &g->launches[c];
    const vkat_rt_check *chk = &g->table->checks[v - g->table->variants];
    pipe p;
    memset(&p, 0, sizeof p);
    g->detail[0] = 0;
    vkat_rt_result r = make_pipe(g, v, l, &p);
    if (r == VKAT_RT_OK)
        r = run_once(g, &p, l, g->have_ref ? scratch : g->ref_out);
    g->votes[c] = 0;
    if (r == VKAT_RT_OK) {
        double rl2 = 0, mabs = 0;
        char other[192];
        if (!g->have_ref || agrees_with(g, g->ref_out, g->ref_index, scratch, l, chk, &rep->rel_l2, &rep->max_abs,
                                        rep->detail, sizeof rep->detail)) {
            g->votes[c] = 1;
        } else if (!g->have_chal) {
            memcpy(g->chal_out, scratch, (size_t)g->download.size);
            g->have_chal = 1;
            g->chal_index = c;
            g->votes[c] = 2;
        } else if (agrees_with(g, g->chal_out, g->chal_index, scratch, l, chk, &rl2, &mabs, other, sizeof other)) {
            g->votes[c] = 2;
        } else {
            r = VKAT_RT_ERR_CHECK;
        }
    }
    /* Timing: warm-up, one dispatch to size the batch (samples of at least 1 ms, so timestamps' resolution and the
     * barrier's cost stay small), then samples until the repetitions or the candidate's time are used up. */
    double samples[256];
    uint32_t ns = 0, reps = g->desc->repetitions ? g->desc->repetitions : 7, batch = 1;
    if (reps > 256)
        reps = 256;
    if (r == VKAT_RT_OK) {
        if ((r = begin(g)) == VKAT_RT_OK) {
            record_dispatches(g, &p, l, g->desc->warmup ? g->desc->warmup : 3);
            r = submit_wait(g);
        }
        double one = 0;
        if (r == VKAT_RT_OK)
            r = time_sample(g, &p, l, 1, &one);
        if (r == VKAT_RT_OK) {
            batch = one > 0 ? (uint32_t)ceil(1.0 / one) : 64;
            batch = batch < 1 ? 1 : batch > 64 ? 64 : batch;
            if (v->batch > batch)
                batch = v->batch > 64 ? 64 : v->batch;
            samples[ns++] = one;
        }
        while (r == VKAT_RT_OK && ns < reps && (ns < 2 || wall_s() < deadline)) {
            double ms;
            if ((r = time_sample(g, &p, l, batch, &ms)) == VKAT_RT_OK)
                samples[ns++] = ms;
        }
    }
    free_pipe(g, &p);
    rep->status = r;
    if (r == VKAT_RT_ERR_CHECK)
        return VKAT_RT_OK;
    if (r != VKAT_RT_OK) {
        rep->vk_result = g->vr;
        say(rep->detail, sizeof rep->detail, "%s", g->detail[0] ? g->detail : vkat_rt_result_string(r));
        /* A lost device, or work still running after a minute, ends everything; anything else is this candidate's
         * problem (its pipeline may not compile on this driver, or need more memory than is left). */
        if (g->vr == VK_TIMEOUT)
            say(rep->detail, sizeof rep->detail, "still running after 60 s (the queue is left busy)");
        return r == VKAT_RT_ERR_DEVICE_LOST || g->vr == VK_TIMEOUT ? r : VKAT_RT_OK;
    }
    /* The first sample (one dispatch) sized the batch; the median is over the batched ones when there are any. */
    double *s = ns > 1 ? samples + 1 : samples;
    uint32_t k = ns > 1 ? ns - 1 : ns;
    qsort(s, k, sizeof *s, cmp_double);
    rep->median_ms = k % 2 ? s[k / 2] : 0.5 * (s[k / 2 - 1] + s[k / 2]);
    rep->min_ms = s[0];
    rep->samples = k;
    rep->batch = ns > 1 ? batch : 1;
    if (!g->have_ref) {
        g->have_ref = 1;
        g->ref_index = c;
        say(rep->detail, sizeof rep->detail, "the reference");
    } else if (g->votes[c] == 1) {
        say(rep->detail, sizeof rep->detail, "agrees with the reference (rel L2 %.3g)", rep->rel_l2);
    } /* else the difference from the reference stays in rep->detail */
    return VKAT_RT_OK;
}

/* ---- The entry point ------------------------------------------------------------------------------------------ */

vkat_rt_result vkat_rt_tune(const vkat_rt_table *table, const vkat_rt_vulkan *vk, const vkat_rt_tune_desc *desc,
                            const vkat_rt_variant **out, vkat_rt_tune_report *report)
{
    double t0 = wall_s();
    vkat_rt_tune_report local;
    vkat_rt_tune_report *rep = report ? report : &local;
    memset(rep, 0, sizeof *rep);
    if (out)
        *out = NULL;
    if (!table || !vk || !desc || !out || !desc->kernel || !vk->get_instance_proc_addr || !vk->device || !vk->queue ||
        !vk->physical_device || (desc->problem_count && !desc->problem) || table->version != VKAT_RT_TABLE_VERSION) {
        say(rep->detail, sizeof rep->detail, "a required argument is NULL, or the table is of another version");
        return VKAT_RT_ERR_ARGUMENT;
    }
    if (!table->checks) {
        say(rep->detail, sizeof rep->detail, "the table has no checks: export it again with vkautotune export "
                                             "--header (this version writes candidates and checks)");
        return VKAT_RT_ERR_NO_TUNE_DATA;
    }
    run *g = calloc(1, sizeof *g);
    unsigned char *scratch = NULL;
    if (!g) {
        say(rep->detail, sizeof rep->detail, "out of host memory");
        return VKAT_RT_ERR_NO_MEMORY;
    }
    g->vk = vk;
    g->desc = desc;
    g->table = table;
    vkat_rt_result r = VKAT_RT_OK;
    vkat_rt_device_identity id;
    if (!load_funcs(vk, &g->f) || vkat_rt_device_identity_get(vk, &id) != VKAT_RT_OK) {
        say(rep->detail, sizeof rep->detail, "a Vulkan entry point the tuner needs is missing");
        free(g);
        return VKAT_RT_ERR_ARGUMENT;
    }
    g->f.vkGetPhysicalDeviceProperties(vk->physical_device, &g->props);
    g->f.vkGetPhysicalDeviceMemoryProperties(vk->physical_device, &g->mem);
    vkat_rt_select(table, desc->kernel, &g->props, desc->problem, desc->problem_count, &rep->fallback, NULL);

    /* The cache first: a hit measures nothing. */
    if (desc->cache_path && vkat_rt_cache_lookup(desc->cache_path, &id, table, desc->kernel, desc->problem,
                                                 desc->problem_count, out) == VKAT_RT_OK) {
        rep->chosen = *out;
        rep->from_cache = 1;
        goto done;
    }

    VkQueueFamilyProperties qf[64];
    uint32_t nqf = 64;
    g->f.vkGetPhysicalDeviceQueueFamilyProperties(vk->physical_device, &nqf, qf);
    if (vk->queue_family_index >= nqf || !(qf[vk->queue_family_index].queueFlags & VK_QUEUE_COMPUTE_BIT) ||
        qf[vk->queue_family_index].timestampValidBits == 0) {
        say(rep->detail, sizeof rep->detail, "queue family %u has no compute or no timestamps",
            vk->queue_family_index);
        r = VKAT_RT_ERR_ARGUMENT;
        goto done;
    }
    uint32_t bits = qf[vk->queue_family_index].timestampValidBits;
    g->ts_mask = bits >= 64 ? ~0ull : (1ull << bits) - 1;

    /* The candidates: the fallback first, then the table's order; one per configuration. */
    const vkat_rt_variant *cands[VKAT_RT_MAX_CANDIDATES];
    uint32_t n = 0;
    if (rep->fallback)
        cands[n++] = rep->fallback;
    for (uint32_t i = 0; i < table->count && n < VKAT_RT_MAX_CANDIDATES; i++) {
        const vkat_rt_variant *v = &table->variants[i];
        int dup = 0;
        for (uint32_t k = 0; k < n && !dup; k++)
            dup = same_configuration(cands[k], v);
        if (!dup && strcmp(v->kernel, desc->kernel) == 0 && vkat_rt_fits_limits(v, &g->props.limits) &&
            v->problem_count == desc->problem_count)
            cands[n++] = v;
    }
    /* Which of them can run this problem with what the application enabled. */
    uint32_t runnable = 0;
    for (uint32_t c = 0; c < n; c++) {
        vkat_rt_candidate_report *cr = &rep->candidates[rep->count++];
        cr->variant = cands[c];
        const char *missing = missing_requirement(cands[c], desc);
        vkat_rt_result lr = vkat_rt_launch_eval(cands[c], desc->problem, desc->problem_count, &g->launches[c]);
        if (lr == VKAT_RT_OK && missing)
            lr = VKAT_RT_ERR_UNSUPPORTED;
        if (lr == VKAT_RT_OK && runnable && !same_bindings(cands[c], cands[0]))
            lr = VKAT_RT_ERR_ARGUMENT;
        cr->status = lr;
        if (lr != VKAT_RT_OK) {
            say(cr->detail, sizeof cr->detail, "%s%s", lr == VKAT_RT_ERR_UNSUPPORTED ? "needs " : "",
                lr == VKAT_RT_ERR_UNSUPPORTED ? missing : lr == VKAT_RT_ERR_ARGUMENT
                                                              ? "its bindings differ from the reference's"
                                                              : vkat_rt_result_string(lr));
            cands[c] = NULL;
            continue;
        }
        /* The first runnable one leads: move it (and its launch) to the front. */
        if (!runnable) {
            const vkat_rt_variant *v = cands[c];
            vkat_rt_launch l = g->launches[c];
            vkat_rt_candidate_report tmp = *cr;
            memmove(&cands[1], &cands[0], c * sizeof cands[0]);
            memmove(&g->launches[1], &g->launches[0], c * sizeof g->launches[0]);
            memmove(&rep->candidates[1], &rep->candidates[0], c * sizeof rep->candidates[0]);
            cands[0] = v;
            g->launches[0] = l;
            rep->candidates[0] = tmp;
            g->bindings = v->bindings;
            g->binding_count = v->binding_count;
        }
        runnable++;
    }
    if (!runnable) {
        say(rep->detail, sizeof rep->detail, "no exported candidate of '%s' fits this device and problem",
            desc->kernel);
        r = VKAT_RT_ERR_NOT_FOUND;
        goto done;
    }
    if ((r = setup(g, cands, n))) {
        rep->vk_result = g->vr;
        say(rep->detail, sizeof rep->detail, "%s", g->detail);
        goto done;
    }
    scratch = malloc((size_t)g->download.size);
    if (!scratch) {
        r = VKAT_RT_ERR_NO_MEMORY;
        say(rep->detail, sizeof rep->detail, "out of host memory");
        goto done;
    }

    /* Measure, each candidate with an equal share of the time that is left. */
    double limit = desc->time_limit_s > 0 ? desc->time_limit_s : 5.0, start = wall_s(), best = 0;
    uint32_t left = runnable;
    for (uint32_t c = 0; c < n && r == VKAT_RT_OK; c++) {
        if (!cands[c])
            continue;
        double now = wall_s(), remaining = start + limit - now;
        if (c > 0 && remaining <= 0 && g->have_ref) {
            rep->candidates[c].status = VKAT_RT_ERR_TIME_LIMIT;
            say(rep->candidates[c].detail, sizeof rep->candidates[c].detail, "%.3g s time limit used up", limit);
            left--;
            continue;
        }
        r = measure(g, c, cands[c], now + remaining / left, &rep->candidates[c], scratch);
        left--;
    }
    if (r) {
        rep->vk_result = g->vr;
        say(rep->detail, sizeof rep->detail, "%s", g->detail);
        goto done;
    }
    /* Who was right: the reference's group unless more candidates agree with the challenger (a tie trusts the
     * reference, the variant that vkautotune checked against the space's reference kernel where it was tuned). */
    uint32_t ref_votes = 0, chal_votes = 0;
    for (uint32_t c = 0; c < n; c++)
        if (rep->candidates[c].status == VKAT_RT_OK) {
            ref_votes += g->votes[c] & 1;
            chal_votes += (g->votes[c] & 2) != 0;
        }
    int chal_wins = g->have_chal && chal_votes > ref_votes;
    for (uint32_t c = 0; c < n; c++) {
        vkat_rt_candidate_report *cr = &rep->candidates[c];
        if (cr->status != VKAT_RT_OK || (g->votes[c] & (chal_wins ? 2 : 1)))
            continue;
        cr->status = VKAT_RT_ERR_CHECK;
        if (chal_wins)
            say(cr->detail, sizeof cr->detail, "outvoted: its outputs agree with %u candidate(s), the others' with "
                "each other (%u)", ref_votes, chal_votes);
    }
    if (chal_wins)
        for (uint32_t c = 0; c < n; c++)
            if (rep->candidates[c].status == VKAT_RT_OK)
                say(rep->candidates[c].detail, sizeof rep->candidates[c].detail, "agrees with the majority (%u of "
                    "%u), not with the first candidate", chal_votes, chal_votes + ref_votes);
    if (chal_wins)
        g->ref_index = g->chal_index;

    /* The fastest correct one. */
    for (uint32_t c = 0; c < n; c++) {
        const vkat_rt_candidate_report *cr = &rep->candidates[c];
        if (cr->status == VKAT_RT_OK && (!*out || cr->median_ms < best))
            *out = cr->variant, best = cr->median_ms;
    }
    rep->reference = g->have_ref ? rep->candidates[g->ref_index].variant : NULL;
    rep->chosen = *out;
    if (!*out) {
        say(rep->detail, sizeof rep->detail, "none of the %u candidates of '%s' ran correctly on this device", n,
            desc->kernel);
        r = VKAT_RT_ERR_NO_CANDIDATE;
        goto done;
    }
    if (desc->cache_path)
        rep->cache_result = vkat_rt_cache_store(desc->cache_path, &id, table, desc->kernel, desc->problem,
                                                desc->problem_count, *out, rep->detail, sizeof rep->detail);
done:
    free(scratch);
    teardown(g); /* destroys only what was created */
    free(g);
    rep->seconds = wall_s() - t0;
    return r;
}
