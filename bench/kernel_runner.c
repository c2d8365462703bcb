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
    vkat_gpu *gpu; /* vkat_gpu_create_exact: only what the manifest requires */
    VkCommandPool pool;
    VkCommandBuffer cmd;
    VkFence fence;
    VkQueryPool queries;
    VkDescriptorSetLayout set_layout;
    VkPipelineLayout layout;
    VkPipeline pipelines[MANIFEST_MAX_PASSES]; /* one per pass of the entry, in order */
    VkDescriptorPool descriptor_pool;
    VkDescriptorSet set;
    VkBuffer buffers[MANIFEST_MAX_ITEMS], staging;
    VkDeviceMemory memory[MANIFEST_MAX_ITEMS], staging_memory;
    uint64_t staging_size;
    unsigned char push[MANIFEST_MAX_PASSES][4 * MANIFEST_MAX_ITEMS];
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

/* ---- Pipeline ---------------------------------------------------------------------------------------------- */

/* The module's words (a whole number of them), or NULL; vkat_read_file's buffer, which the caller frees. */
static uint32_t *read_spirv(const char *path, size_t *size)
{
    char *bytes = vkat_read_file(path, size);
    if (bytes && (*size == 0 || *size % 4)) {
        free(bytes);
        return NULL;
    }
    return (uint32_t *)(void *)bytes;
}

static runner_status create_layout(kernel_runner *r, char *err, size_t err_size)
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
    return RUNNER_OK;
}

/* The pipeline of pass `i` (its module, its specialization) and its push-constant block. */
static runner_status create_pipeline(kernel_runner *r, size_t i, char *err, size_t err_size)
{
    const manifest_pass *p = &r->entry->passes[i];
    VkDevice dev = r->gpu->device;
    size_t code_size;
    uint32_t *code = read_spirv(p->spirv_path, &code_size);
    if (!code)
        return fail(err, err_size, RUNNER_BAD_ENTRY, "%s: cannot read a SPIR-V module from it", p->spirv_path);
    if (code[0] != 0x07230203u) {
        free(code);
        return fail(err, err_size, RUNNER_BAD_ENTRY, "%s: not SPIR-V (no magic number)", p->spirv_path);
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
    for (size_t s = 0; s < p->spec_count; s++) {
        map[s].constantID = p->spec[s].id;
        map[s].offset = (uint32_t)(4 * s);
        map[s].size = 4;
        values[s] = p->spec[s].bits;
    }
    VkSpecializationInfo spec = {(uint32_t)p->spec_count, map, 4 * p->spec_count, values};
    VkComputePipelineCreateInfo cpi = {VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    cpi.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    cpi.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    cpi.stage.module = module;
    cpi.stage.pName = r->entry->entry_point;
    cpi.stage.pSpecializationInfo = p->spec_count ? &spec : NULL;
    cpi.layout = r->layout;
    vr = vkCreateComputePipelines(dev, VK_NULL_HANDLE, 1, &cpi, NULL, &r->pipelines[i]);
    vkDestroyShaderModule(dev, module, NULL);
    if (vr != VK_SUCCESS)
        return fail(err, err_size, RUNNER_VULKAN, "vkCreateComputePipelines failed (VkResult %d)", vr);

    for (size_t c = 0; c < p->push_count; c++)
        memcpy(r->push[i] + p->push[c].id, &p->push[c].bits, 4);
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
    vkCmdBindDescriptorSets(r->cmd, VK_PIPELINE_BIND_POINT_COMPUTE, r->layout, 0, 1, &r->set, 0, NULL);
    for (uint32_t i = 0; i < count; i++)
        for (size_t p = 0; p < e->pass_count; p++) {
            const manifest_pass *pass = &e->passes[p];
            barrier(r);
            if (i == 0 || e->pass_count > 1) { /* one pass: bound once, as before sequences */
                vkCmdBindPipeline(r->cmd, VK_PIPELINE_BIND_POINT_COMPUTE, r->pipelines[p]);
                if (e->push_size)
                    vkCmdPushConstants(r->cmd, r->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, e->push_size, r->push[p]);
            }
            vkCmdDispatch(r->cmd, pass->workgroup_count[0], pass->workgroup_count[1], pass->workgroup_count[2]);
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
    if (!r)
        return fail(err, err_size, RUNNER_VULKAN, "out of memory");
    r->entry = e;
    runner_status st = RUNNER_OK;
    const vkat_device_info *d = &inst->info[index];
    if (!d->timestamp_valid_bits) {
        st = fail(err, err_size, RUNNER_UNSUPPORTED, "%s has no timestamps on its compute queue", d->name);
        goto fail;
    }
    vkat_error verr = {0};
    if (vkat_gpu_create_exact(inst, index, e->extensions, e->extension_count, e->features, e->feature_count,
                              &r->gpu, &verr) != VKAT_OK) {
        st = fail(err, err_size,
                  verr.code == VKAT_ERR_UNSUPPORTED ? RUNNER_UNSUPPORTED
                  : verr.code == VKAT_ERR_USAGE     ? RUNNER_BAD_ENTRY
                                                    : RUNNER_VULKAN,
                  "%s", verr.message);
        goto fail;
    }
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
    if ((st = create_layout(r, err, err_size)))
        goto fail;
    for (size_t i = 0; i < e->pass_count; i++)
        if ((st = create_pipeline(r, i, err, err_size)))
            goto fail;
    if ((st = create_buffers(r, err, err_size)))
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
        for (size_t i = 0; i < MANIFEST_MAX_PASSES; i++)
            vkDestroyPipeline(dev, r->pipelines[i], NULL);
        vkDestroyPipelineLayout(dev, r->layout, NULL);
        vkDestroyDescriptorSetLayout(dev, r->set_layout, NULL);
        vkDestroyQueryPool(dev, r->queries, NULL);
        vkDestroyFence(dev, r->fence, NULL);
        vkDestroyCommandPool(dev, r->pool, NULL);
    }
    vkat_gpu_destroy(r->gpu); /* the device last */
    free(r);
}
