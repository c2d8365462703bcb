/* kernel_runner.c — one exported variant on one device (kernel_runner.h).
 * Unlike the tuner's vkat_gpu_create, which enables every feature the device has, the device here gets only what
 * the manifest's `requires` lists: a variant that works here works in a runtime that follows the manifest.
 * Vulkan comes through volk, loaded by vkat_instance_create (device.h). */
#include "kernel_runner.h"
#include "device.h"
#include "util.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A stuck kernel must not hang the benchmark: one submission may take this long. */
#define RUNNER_FENCE_TIMEOUT_NS (120ull * 1000000000ull)

struct kernel_runner {
    const manifest_entry *entry;
    vkat_gpu *gpu; /* made here, not by vkat_gpu_create (see above); vkat_gpu_destroy still releases it */
    VkCommandPool pool;
    VkCommandBuffer cmd;
    VkFence fence;
    VkQueryPool queries;
    VkDescriptorSetLayout set_layout;
    VkPipelineLayout layout;
    VkPipeline pipeline;
    VkDescriptorPool descriptor_pool;
    VkDescriptorSet set;
    VkBuffer buffers[MANIFEST_MAX_ITEMS], staging;
    VkDeviceMemory memory[MANIFEST_MAX_ITEMS], staging_memory;
    uint64_t staging_size;
    unsigned char push[4 * MANIFEST_MAX_ITEMS];
};

static runner_status fail(char *err, size_t size, runner_status s, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err, size, fmt, ap);
    va_end(ap);
    return s;
}

#define VK_TRY(call)                                                                                              \
    do {                                                                                                         \
        VkResult vr_ = (call);                                                                                   \
        if (vr_ != VK_SUCCESS)                                                                                   \
            return fail(err, err_size, RUNNER_VULKAN, "%s failed (VkResult %d)", #call, (int)vr_);              \
    } while (0)

/* ---- Features: names in `requires` to members of the structures that hold them ---------------------------- */

enum { S_CORE, S_V11, S_V12, S_V13, S_COOPMAT, S_COOPMAT2, S_BF16, S_COUNT };

typedef struct feature_chain {
    VkPhysicalDeviceFeatures2 core;
    VkPhysicalDeviceVulkan11Features v11;
    VkPhysicalDeviceVulkan12Features v12;
    VkPhysicalDeviceVulkan13Features v13;
    VkPhysicalDeviceCooperativeMatrixFeaturesKHR coopmat;
    VkPhysicalDeviceCooperativeMatrix2FeaturesNV coopmat2;
    VkPhysicalDeviceShaderBfloat16FeaturesKHR bf16;
} feature_chain;

/* Every name the space format accepts (vkat_feature_names); offsets are of the VkBool32 within its structure. */
static const struct {
    const char *name;
    int s;
    size_t offset;
} known_features[] = {
    {"shaderInt16", S_CORE, offsetof(VkPhysicalDeviceFeatures2, features.shaderInt16)},
    {"shaderInt64", S_CORE, offsetof(VkPhysicalDeviceFeatures2, features.shaderInt64)},
    {"shaderFloat64", S_CORE, offsetof(VkPhysicalDeviceFeatures2, features.shaderFloat64)},
    {"storageBuffer16BitAccess", S_V11, offsetof(VkPhysicalDeviceVulkan11Features, storageBuffer16BitAccess)},
    {"shaderFloat16", S_V12, offsetof(VkPhysicalDeviceVulkan12Features, shaderFloat16)},
    {"shaderInt8", S_V12, offsetof(VkPhysicalDeviceVulkan12Features, shaderInt8)},
    {"storageBuffer8BitAccess", S_V12, offsetof(VkPhysicalDeviceVulkan12Features, storageBuffer8BitAccess)},
    {"subgroupSizeControl", S_V13, offsetof(VkPhysicalDeviceVulkan13Features, subgroupSizeControl)},
    {"cooperativeMatrix", S_COOPMAT, offsetof(VkPhysicalDeviceCooperativeMatrixFeaturesKHR, cooperativeMatrix)},
    {"cooperativeMatrixWorkgroupScope", S_COOPMAT2,
     offsetof(VkPhysicalDeviceCooperativeMatrix2FeaturesNV, cooperativeMatrixWorkgroupScope)},
    {"shaderBFloat16Type", S_BF16, offsetof(VkPhysicalDeviceShaderBfloat16FeaturesKHR, shaderBFloat16Type)},
    {"shaderBFloat16CooperativeMatrix", S_BF16,
     offsetof(VkPhysicalDeviceShaderBfloat16FeaturesKHR, shaderBFloat16CooperativeMatrix)},
};

/* The core version or extension each structure needs before it may be chained. */
static const struct {
    uint32_t api;
    const char *extension;
} struct_needs[S_COUNT] = {
    [S_CORE] = {VK_API_VERSION_1_1, NULL},
    [S_V11] = {VK_API_VERSION_1_2, NULL},
    [S_V12] = {VK_API_VERSION_1_2, NULL},
    [S_V13] = {VK_API_VERSION_1_3, NULL},
    [S_COOPMAT] = {0, "VK_KHR_cooperative_matrix"},
    [S_COOPMAT2] = {0, "VK_NV_cooperative_matrix2"},
    [S_BF16] = {0, "VK_KHR_shader_bfloat16"},
};

static void *struct_of(feature_chain *c, int s)
{
    void *p[S_COUNT] = {&c->core, &c->v11, &c->v12, &c->v13, &c->coopmat, &c->coopmat2, &c->bf16};
    return p[s];
}

/* Zeroed structures for the set bits of `used`, chained behind c->core. */
static void chain_init(feature_chain *c, unsigned used)
{
    memset(c, 0, sizeof *c);
    c->core.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2;
    c->v11.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES;
    c->v12.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES;
    c->v13.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES;
    c->coopmat.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_FEATURES_KHR;
    c->coopmat2.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_COOPERATIVE_MATRIX_2_FEATURES_NV;
    c->bf16.sType = VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_BFLOAT16_FEATURES_KHR;
    VkBaseOutStructure *tail = (VkBaseOutStructure *)&c->core;
    for (int s = S_CORE + 1; s < S_COUNT; s++)
        if (used & (1u << s)) {
            tail->pNext = struct_of(c, s);
            tail = tail->pNext;
        }
}

static VkBool32 *member_of(feature_chain *c, size_t f)
{
    return (VkBool32 *)((char *)struct_of(c, known_features[f].s) + known_features[f].offset);
}

static int device_offers(const char *ext, const VkExtensionProperties *props, uint32_t n)
{
    for (uint32_t i = 0; i < n; i++)
        if (!strcmp(props[i].extensionName, ext))
            return 1;
    return 0;
}

/* ---- Device ------------------------------------------------------------------------------------------------ */

static runner_status create_device(const vkat_instance *inst, uint32_t index, const manifest_entry *e,
                                   vkat_gpu *g, char *err, size_t err_size)
{
    const vkat_device_info *d = &inst->info[index];
    if (d->compute_queue_family == UINT32_MAX)
        return fail(err, err_size, RUNNER_UNSUPPORTED, "%s has no compute queue", d->name);
    if (!d->timestamp_valid_bits)
        return fail(err, err_size, RUNNER_UNSUPPORTED, "%s has no timestamps on its compute queue", d->name);
    g->info = d;
    g->physical = inst->physical[index];
    g->queue_family = d->compute_queue_family;
    vkGetPhysicalDeviceMemoryProperties(g->physical, &g->memory);

    uint32_t next = 0;
    VK_TRY(vkEnumerateDeviceExtensionProperties(g->physical, NULL, &next, NULL));
    VkExtensionProperties *offered = calloc(next ? next : 1, sizeof *offered);
    if (!offered)
        return fail(err, err_size, RUNNER_VULKAN, "out of memory");
    VkResult vr = vkEnumerateDeviceExtensionProperties(g->physical, NULL, &next, offered);
    runner_status st = RUNNER_OK;
    const char *enable[2 * MANIFEST_MAX_ITEMS];
    uint32_t enable_count = 0;
    size_t wanted[MANIFEST_MAX_ITEMS];
    unsigned used = 0;
    if (vr != VK_SUCCESS) {
        st = fail(err, err_size, RUNNER_VULKAN, "vkEnumerateDeviceExtensionProperties failed (VkResult %d)", vr);
        goto done;
    }
    for (size_t i = 0; i < e->extension_count; i++) {
        if (!device_offers(e->extensions[i], offered, next)) {
            st = fail(err, err_size, RUNNER_UNSUPPORTED, "%s does not offer %s", d->name, e->extensions[i]);
            goto done;
        }
        enable[enable_count++] = e->extensions[i];
    }
    for (size_t i = 0; i < e->feature_count; i++) {
        size_t f = 0;
        while (f < VKAT_COUNTOF(known_features) && strcmp(known_features[f].name, e->features[i]))
            f++;
        if (f == VKAT_COUNTOF(known_features)) {
            st = fail(err, err_size, RUNNER_BAD_ENTRY, "unknown feature '%s' in requires.features", e->features[i]);
            goto done;
        }
        int s = known_features[f].s;
        const char *ext = struct_needs[s].extension;
        if (d->api_version < struct_needs[s].api || (ext && !device_offers(ext, offered, next))) {
            st = fail(err, err_size, RUNNER_UNSUPPORTED, "%s lacks %s (it needs %s)", d->name, e->features[i],
                      ext ? ext : "a newer Vulkan version");
            goto done;
        }
        /* A feature structure of an extension is only valid with the extension enabled, listed or not. */
        int listed = 0;
        for (uint32_t x = 0; ext && x < enable_count; x++)
            listed |= !strcmp(enable[x], ext);
        if (ext && !listed)
            enable[enable_count++] = ext;
        wanted[i] = f;
        used |= 1u << s;
    }

    /* Read what the device supports for the structures involved, then enable exactly the listed members. */
    feature_chain have, on;
    chain_init(&have, used);
    vkGetPhysicalDeviceFeatures2(g->physical, &have.core);
    chain_init(&on, used);
    for (size_t i = 0; i < e->feature_count; i++) {
        if (!*member_of(&have, wanted[i])) {
            st = fail(err, err_size, RUNNER_UNSUPPORTED, "%s lacks the feature %s", d->name, e->features[i]);
            goto done;
        }
        *member_of(&on, wanted[i]) = VK_TRUE;
    }

    float priority = 1.0f;
    VkDeviceQueueCreateInfo qci = {VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    qci.queueFamilyIndex = g->queue_family;
    qci.queueCount = 1;
    qci.pQueuePriorities = &priority;
    VkDeviceCreateInfo dci = {VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    dci.pNext = &on.core;
    dci.queueCreateInfoCount = 1;
    dci.pQueueCreateInfos = &qci;
    dci.enabledExtensionCount = enable_count;
    dci.ppEnabledExtensionNames = enable_count ? enable : NULL;
    vr = vkCreateDevice(g->physical, &dci, NULL, &g->device);
    if (vr != VK_SUCCESS) {
        g->device = VK_NULL_HANDLE;
        st = fail(err, err_size, RUNNER_VULKAN, "vkCreateDevice failed (VkResult %d)", vr);
        goto done;
    }
    vkGetDeviceQueue(g->device, g->queue_family, 0, &g->queue);
done:
    free(offered);
    return st;
}

/* ---- Pipeline ---------------------------------------------------------------------------------------------- */

static uint32_t *read_spirv(const char *path, size_t *size)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    uint32_t *words = NULL;
    long n = fseek(f, 0, SEEK_END) == 0 ? ftell(f) : -1;
    if (n > 0 && n % 4 == 0 && fseek(f, 0, SEEK_SET) == 0 && (words = malloc((size_t)n)) &&
        fread(words, 1, (size_t)n, f) != (size_t)n) {
        free(words);
        words = NULL;
    }
    fclose(f);
    *size = n > 0 ? (size_t)n : 0;
    return words;
}

static runner_status create_pipeline(kernel_runner *r, char *err, size_t err_size)
{
    const manifest_entry *e = r->entry;
    VkDevice dev = r->gpu->device;
    VkDescriptorSetLayoutBinding lb[MANIFEST_MAX_ITEMS];
    for (size_t i = 0; i < e->binding_count; i++) {
        memset(&lb[i], 0, sizeof lb[i]);
        lb[i].binding = e->bindings[i].binding;
        lb[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        lb[i].descriptorCount = 1;
        lb[i].stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
    }
    VkDescriptorSetLayoutCreateInfo dli = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    dli.bindingCount = (uint32_t)e->binding_count;
    dli.pBindings = lb;
    VK_TRY(vkCreateDescriptorSetLayout(dev, &dli, NULL, &r->set_layout));
    VkPushConstantRange pcr = {VK_SHADER_STAGE_COMPUTE_BIT, 0, e->push_size};
    VkPipelineLayoutCreateInfo pli = {VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    pli.setLayoutCount = 1;
    pli.pSetLayouts = &r->set_layout;
    pli.pushConstantRangeCount = e->push_size ? 1 : 0;
    pli.pPushConstantRanges = &pcr;
    VK_TRY(vkCreatePipelineLayout(dev, &pli, NULL, &r->layout));

    size_t code_size;
    uint32_t *code = read_spirv(e->spirv_path, &code_size);
    if (!code)
        return fail(err, err_size, RUNNER_BAD_ENTRY, "%s: cannot read a SPIR-V module from it", e->spirv_path);
    if (code[0] != 0x07230203u) {
        free(code);
        return fail(err, err_size, RUNNER_BAD_ENTRY, "%s: not SPIR-V (no magic number)", e->spirv_path);
    }
    VkShaderModuleCreateInfo smi = {VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    smi.codeSize = code_size;
    smi.pCode = code;
    VkShaderModule module;
    VkResult vr = vkCreateShaderModule(dev, &smi, NULL, &module);
    free(code);
    if (vr != VK_SUCCESS)
        return fail(err, err_size, RUNNER_VULKAN, "vkCreateShaderModule failed (VkResult %d)", vr);

    VkSpecializationMapEntry map[MANIFEST_MAX_ITEMS];
    uint32_t values[MANIFEST_MAX_ITEMS];
    for (size_t i = 0; i < e->spec_count; i++) {
        map[i].constantID = e->spec[i].id;
        map[i].offset = (uint32_t)(4 * i);
        map[i].size = 4;
        values[i] = e->spec[i].bits;
    }
    VkSpecializationInfo spec = {(uint32_t)e->spec_count, map, 4 * e->spec_count, values};
    VkComputePipelineCreateInfo cpi = {VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    cpi.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    cpi.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    cpi.stage.module = module;
    cpi.stage.pName = e->entry_point;
    cpi.stage.pSpecializationInfo = e->spec_count ? &spec : NULL;
    cpi.layout = r->layout;
    vr = vkCreateComputePipelines(dev, VK_NULL_HANDLE, 1, &cpi, NULL, &r->pipeline);
    vkDestroyShaderModule(dev, module, NULL);
    if (vr != VK_SUCCESS)
        return fail(err, err_size, RUNNER_VULKAN, "vkCreateComputePipelines failed (VkResult %d)", vr);

    for (size_t i = 0; i < e->push_count; i++)
        memcpy(r->push + e->push[i].id, &e->push[i].bits, 4);
    return RUNNER_OK;
}

/* ---- Buffers and descriptors ----------------------------------------------------------------------------- */

static runner_status create_buffers(kernel_runner *r, char *err, size_t err_size)
{
    const manifest_entry *e = r->entry;
    vkat_error verr;
    /* The kernel's buffers in device-local memory, as the tuner measured them; staging in host memory. */
    const VkMemoryPropertyFlags device_local[] = {VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0};
    const VkMemoryPropertyFlags host[] = {VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT};
    VkDescriptorBufferInfo dbi[MANIFEST_MAX_ITEMS];
    VkWriteDescriptorSet wr[MANIFEST_MAX_ITEMS];
    for (size_t i = 0; i < e->binding_count; i++) {
        uint64_t size = e->bindings[i].bytes ? e->bindings[i].bytes : 4;
        if (vkat_gpu_make_buffer(r->gpu, size,
                                 VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                                     VK_BUFFER_USAGE_TRANSFER_DST_BIT,
                                 device_local, 2, &r->buffers[i], &r->memory[i], &verr))
            return fail(err, err_size, RUNNER_VULKAN, "buffer '%s': %s", e->bindings[i].name, verr.message);
        if (size > r->staging_size)
            r->staging_size = size;
        dbi[i] = (VkDescriptorBufferInfo){r->buffers[i], 0, VK_WHOLE_SIZE};
        wr[i] = (VkWriteDescriptorSet){VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
        wr[i].dstBinding = e->bindings[i].binding;
        wr[i].descriptorCount = 1;
        wr[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        wr[i].pBufferInfo = &dbi[i];
    }
    if (r->staging_size &&
        vkat_gpu_make_buffer(r->gpu, r->staging_size,
                             VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT, host, 1,
                             &r->staging, &r->staging_memory, &verr))
        return fail(err, err_size, RUNNER_VULKAN, "staging buffer: %s", verr.message);

    VkDevice dev = r->gpu->device;
    VkDescriptorPoolSize ps = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, (uint32_t)(e->binding_count ? e->binding_count : 1)};
    VkDescriptorPoolCreateInfo dpi = {VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    dpi.maxSets = 1;
    dpi.poolSizeCount = 1;
    dpi.pPoolSizes = &ps;
    VK_TRY(vkCreateDescriptorPool(dev, &dpi, NULL, &r->descriptor_pool));
    VkDescriptorSetAllocateInfo dai = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    dai.descriptorPool = r->descriptor_pool;
    dai.descriptorSetCount = 1;
    dai.pSetLayouts = &r->set_layout;
    VK_TRY(vkAllocateDescriptorSets(dev, &dai, &r->set));
    for (size_t i = 0; i < e->binding_count; i++)
        wr[i].dstSet = r->set;
    vkUpdateDescriptorSets(dev, (uint32_t)e->binding_count, wr, 0, NULL);
    return RUNNER_OK;
}

/* ---- Commands ---------------------------------------------------------------------------------------------- */

static runner_status begin(kernel_runner *r, char *err, size_t err_size)
{
    VK_TRY(vkResetCommandBuffer(r->cmd, 0));
    VkCommandBufferBeginInfo bi = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    VK_TRY(vkBeginCommandBuffer(r->cmd, &bi));
    return RUNNER_OK;
}

static runner_status submit(kernel_runner *r, char *err, size_t err_size)
{
    VK_TRY(vkEndCommandBuffer(r->cmd));
    VkSubmitInfo si = {VK_STRUCTURE_TYPE_SUBMIT_INFO};
    si.commandBufferCount = 1;
    si.pCommandBuffers = &r->cmd;
    VK_TRY(vkResetFences(r->gpu->device, 1, &r->fence));
    VK_TRY(vkQueueSubmit(r->gpu->queue, 1, &si, r->fence));
    VkResult vr = vkWaitForFences(r->gpu->device, 1, &r->fence, VK_TRUE, RUNNER_FENCE_TIMEOUT_NS);
    if (vr == VK_TIMEOUT)
        return fail(err, err_size, RUNNER_VULKAN, "the GPU did not finish within %llu s",
                    RUNNER_FENCE_TIMEOUT_NS / 1000000000ull);
    VK_TRY(vr);
    return RUNNER_OK;
}

static void barrier(kernel_runner *r)
{
    VkMemoryBarrier mb = {VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    mb.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
    mb.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_READ_BIT;
    VkPipelineStageFlags stages = VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT;
    vkCmdPipelineBarrier(r->cmd, stages, stages, 0, 1, &mb, 0, NULL, 0, NULL);
}

static runner_status transfer(kernel_runner *r, size_t i, void *data, uint64_t size, int upload, char *err,
                              size_t err_size)
{
    if (i >= r->entry->binding_count || size > r->entry->bindings[i].bytes)
        return fail(err, err_size, RUNNER_BAD_ENTRY, "transfer of %llu bytes does not fit binding %zu",
                    (unsigned long long)size, i);
    if (!size)
        return RUNNER_OK;
    void *p;
    VK_TRY(vkMapMemory(r->gpu->device, r->staging_memory, 0, size, 0, &p));
    if (upload)
        memcpy(p, data, (size_t)size);
    runner_status st = begin(r, err, err_size);
    if (!st) {
        VkBufferCopy region = {0, 0, size};
        barrier(r);
        if (upload)
            vkCmdCopyBuffer(r->cmd, r->staging, r->buffers[i], 1, &region);
        else
            vkCmdCopyBuffer(r->cmd, r->buffers[i], r->staging, 1, &region);
        barrier(r);
        st = submit(r, err, err_size);
    }
    if (!st && !upload)
        memcpy(data, p, (size_t)size);
    vkUnmapMemory(r->gpu->device, r->staging_memory);
    return st;
}

runner_status runner_upload(kernel_runner *r, size_t i, const void *data, uint64_t size, char *err, size_t err_size)
{
    return transfer(r, i, (void *)data, size, 1, err, err_size);
}

runner_status runner_download(kernel_runner *r, size_t i, void *data, uint64_t size, char *err, size_t err_size)
{
    return transfer(r, i, data, size, 0, err, err_size);
}

runner_status runner_dispatch(kernel_runner *r, uint32_t count, double *ms, char *err, size_t err_size)
{
    const manifest_entry *e = r->entry;
    runner_status st = begin(r, err, err_size);
    if (st)
        return st;
    if (ms) {
        vkCmdResetQueryPool(r->cmd, r->queries, 0, 2);
        vkCmdWriteTimestamp(r->cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, r->queries, 0);
    }
    vkCmdBindPipeline(r->cmd, VK_PIPELINE_BIND_POINT_COMPUTE, r->pipeline);
    vkCmdBindDescriptorSets(r->cmd, VK_PIPELINE_BIND_POINT_COMPUTE, r->layout, 0, 1, &r->set, 0, NULL);
    if (e->push_size)
        vkCmdPushConstants(r->cmd, r->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, e->push_size, r->push);
    for (uint32_t i = 0; i < count; i++) {
        barrier(r);
        vkCmdDispatch(r->cmd, e->workgroup_count[0], e->workgroup_count[1], e->workgroup_count[2]);
    }
    if (ms)
        vkCmdWriteTimestamp(r->cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, r->queries, 1);
    if ((st = submit(r, err, err_size)) || !ms)
        return st;
    uint64_t ticks[2];
    VK_TRY(vkGetQueryPoolResults(r->gpu->device, r->queries, 0, 2, sizeof ticks, ticks, sizeof ticks[0],
                                 VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
    uint32_t bits = r->gpu->info->timestamp_valid_bits;
    uint64_t mask = bits >= 64 ? ~0ull : (1ull << bits) - 1;
    uint64_t delta = ((ticks[1] & mask) - (ticks[0] & mask)) & mask; /* survives one wrap of the counter */
    *ms = (double)delta * r->gpu->info->timestamp_period * 1e-6 / (count ? count : 1);
    return RUNNER_OK;
}

/* ---- Lifetime ---------------------------------------------------------------------------------------------- */

runner_status runner_create(const vkat_instance *inst, uint32_t index, const manifest_entry *e, kernel_runner **out,
                            char *err, size_t err_size)
{
    *out = NULL;
    if (index >= inst->count)
        return fail(err, err_size, RUNNER_BAD_ENTRY, "device index %u out of range", index);
    kernel_runner *r = calloc(1, sizeof *r);
    if (!r || !(r->gpu = calloc(1, sizeof *r->gpu))) {
        free(r);
        return fail(err, err_size, RUNNER_VULKAN, "out of memory");
    }
    r->entry = e;
    runner_status st = create_device(inst, index, e, r->gpu, err, err_size);
    if (st)
        goto fail;
    VkDevice dev = r->gpu->device;
    VkCommandPoolCreateInfo cpi = {VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    cpi.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    cpi.queueFamilyIndex = r->gpu->queue_family;
    VkCommandBufferAllocateInfo cai = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    cai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    cai.commandBufferCount = 1;
    VkFenceCreateInfo fci = {VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    VkQueryPoolCreateInfo qpi = {VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
    qpi.queryType = VK_QUERY_TYPE_TIMESTAMP;
    qpi.queryCount = 2;
    VkResult vr = vkCreateCommandPool(dev, &cpi, NULL, &r->pool);
    if (vr == VK_SUCCESS) {
        cai.commandPool = r->pool;
        vr = vkAllocateCommandBuffers(dev, &cai, &r->cmd);
    }
    if (vr == VK_SUCCESS)
        vr = vkCreateFence(dev, &fci, NULL, &r->fence);
    if (vr == VK_SUCCESS)
        vr = vkCreateQueryPool(dev, &qpi, NULL, &r->queries);
    if (vr != VK_SUCCESS) {
        st = fail(err, err_size, RUNNER_VULKAN, "command pool, fence or query pool: VkResult %d", (int)vr);
        goto fail;
    }
    if ((st = create_pipeline(r, err, err_size)) || (st = create_buffers(r, err, err_size)))
        goto fail;
    *out = r;
    return RUNNER_OK;
fail:
    runner_destroy(r);
    return st;
}

void runner_destroy(kernel_runner *r)
{
    if (!r)
        return;
    VkDevice dev = r->gpu ? r->gpu->device : VK_NULL_HANDLE;
    if (dev) {
        vkDeviceWaitIdle(dev);
        vkDestroyBuffer(dev, r->staging, NULL);
        vkFreeMemory(dev, r->staging_memory, NULL);
        for (size_t i = 0; i < MANIFEST_MAX_ITEMS; i++) {
            vkDestroyBuffer(dev, r->buffers[i], NULL);
            vkFreeMemory(dev, r->memory[i], NULL);
        }
        vkDestroyDescriptorPool(dev, r->descriptor_pool, NULL);
        vkDestroyPipeline(dev, r->pipeline, NULL);
        vkDestroyPipelineLayout(dev, r->layout, NULL);
        vkDestroyDescriptorSetLayout(dev, r->set_layout, NULL);
        vkDestroyQueryPool(dev, r->queries, NULL);
        vkDestroyFence(dev, r->fence, NULL);
        vkDestroyCommandPool(dev, r->pool, NULL);
    }
    vkat_gpu_destroy(r->gpu); /* the device last */
    free(r);
}
