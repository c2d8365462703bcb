/* sequence_runtime.c — replays an exported sequence of dispatches through the runtime library with plain Vulkan
 * (libvulkan by dlopen, nothing of vkautotune but the runtime) and checks the result on the CPU: the multi-pass
 * sum of tests/data/sequence/reduce.ini (X[0] must be the sum of X), the ping-pong sum of pingpong.ini (Y[0], its
 * passes binding other buffers) or the split-K GEMM of splitk.ini (C = A B).
 * One pipeline per dispatch, the dispatches in order with a compute-to-compute barrier between them, as
 * runtime/vkautotune_runtime.h says a sequence runs.
 *
 *   sequence_runtime KERNEL      (built with -DVKAT_KERNELS_HEADER='"x.h"' -DVKAT_KERNELS_TABLE=x)
 * Exit: 0 right result, 1 wrong, 3 no variant, 4 Vulkan error. A test driver: errors end the program. */
#define _POSIX_C_SOURCE 200809L
#define VK_NO_PROTOTYPES
#include "vkautotune_runtime.h"

#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include VKAT_KERNELS_HEADER

/* clang-format off */
#define FUNCS(X) \
    X(vkEnumeratePhysicalDevices) \
    X(vkGetPhysicalDeviceProperties) \
    X(vkGetPhysicalDeviceQueueFamilyProperties) \
    X(vkGetPhysicalDeviceMemoryProperties) \
    X(vkCreateDevice) \
    X(vkGetDeviceQueue) \
    X(vkCreateBuffer) \
    X(vkGetBufferMemoryRequirements) \
    X(vkAllocateMemory) \
    X(vkBindBufferMemory) \
    X(vkMapMemory) \
    X(vkCreateShaderModule) \
    X(vkCreateDescriptorSetLayout) \
    X(vkCreatePipelineLayout) \
    X(vkCreateComputePipelines) \
    X(vkCreateDescriptorPool) \
    X(vkAllocateDescriptorSets) \
    X(vkUpdateDescriptorSets) \
    X(vkCreateCommandPool) \
    X(vkAllocateCommandBuffers) \
    X(vkBeginCommandBuffer) \
    X(vkEndCommandBuffer) \
    X(vkCmdBindPipeline) \
    X(vkCmdBindDescriptorSets) \
    X(vkCmdPushConstants) \
    X(vkCmdDispatch) \
    X(vkCmdPipelineBarrier) \
    X(vkQueueSubmit) \
    X(vkQueueWaitIdle)
/* clang-format on */
#define DECLARE(name) static PFN_##name name;
FUNCS(DECLARE)
#undef DECLARE

static void fail(int code, const char *what, int vr)
{
    fprintf(stderr, "sequence_runtime: %s (%d)\n", what, vr);
    exit(code);
}
#define VK(call)                                                                                                       \
    do {                                                                                                               \
        VkResult vr_ = (call);                                                                                         \
        if (vr_ != VK_SUCCESS)                                                                                         \
            fail(4, #call, (int)vr_);                                                                                  \
    } while (0)

static float value_at(size_t i, unsigned seed) /* deterministic, in [0, 1) */
{
    uint32_t h = (uint32_t)(i * 2654435761u) ^ (seed * 40503u);
    h ^= h >> 15;
    h *= 2246822519u;
    h ^= h >> 13;
    return (float)(h & 0xffffff) / 16777216.0f;
}

/* Binding bindings[i].binding of `set` holds the buffer of bindings[map[i]] (map NULL: bindings[i]'s). */
static void write_set(VkDevice dev, VkDescriptorSet set, const vkat_rt_variant *v, const VkBuffer *bufs,
                      const uint32_t *map)
{
    for (uint32_t i = 0; i < v->binding_count; i++) {
        VkDescriptorBufferInfo info = {bufs[map ? map[i] : i], 0, VK_WHOLE_SIZE};
        VkWriteDescriptorSet w = {VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
        w.dstSet = set;
        w.dstBinding = v->bindings[i].binding;
        w.descriptorCount = 1;
        w.descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        w.pBufferInfo = &info;
        vkUpdateDescriptorSets(dev, 1, &w, 0, NULL);
    }
}

int main(int argc, char **argv)
{
    if (argc != 2)
        fail(2, "usage: sequence_runtime KERNEL", 0);
    const char *kernel = argv[1];
    void *lib = dlopen("libvulkan.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib)
        fail(4, "cannot load libvulkan.so.1", 0);
    PFN_vkGetInstanceProcAddr gipa = (PFN_vkGetInstanceProcAddr)dlsym(lib, "vkGetInstanceProcAddr");
    PFN_vkCreateInstance create_instance = (PFN_vkCreateInstance)gipa(VK_NULL_HANDLE, "vkCreateInstance");
    VkApplicationInfo app = {VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.apiVersion = VK_API_VERSION_1_3;
    VkInstanceCreateInfo ici = {VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    ici.pApplicationInfo = &app;
    VkInstance inst;
    VK(create_instance(&ici, NULL, &inst));
#define LOAD(name)                                                                                                     \
    if (!(name = (PFN_##name)gipa(inst, #name)))                                                                       \
        fail(4, "missing " #name, 0);
    FUNCS(LOAD)
#undef LOAD
    VkPhysicalDevice pd;
    uint32_t npd = 1;
    VkResult er = vkEnumeratePhysicalDevices(inst, &npd, &pd);
    if ((er != VK_SUCCESS && er != VK_INCOMPLETE) || npd == 0)
        fail(4, "no Vulkan device", (int)er);

    const vkat_rt_variant *v;
    vkat_rt_match how;
    if (vkat_rt_select_physical_device(&VKAT_KERNELS_TABLE, kernel, pd, vkGetPhysicalDeviceProperties, NULL, 0, &v,
                                       &how) != VKAT_RT_OK)
        fail(3, "no variant for this device", 0);
    vkat_rt_launch launch;
    if (vkat_rt_launch_eval(v, NULL, 0, &launch) != VKAT_RT_OK)
        fail(3, "the variant's buffer sizes", 0);
    uint32_t nd = vkat_rt_dispatch_count(v);
    printf("variant: %s %s, %u dispatch(es) (match: %s)\n", v->kernel, v->config, nd, vkat_rt_match_name(how));

    /* A compute queue and host-visible buffers (filled and read in place). */
    VkQueueFamilyProperties qf[16];
    uint32_t nqf = 16, family = 0;
    vkGetPhysicalDeviceQueueFamilyProperties(pd, &nqf, qf);
    while (family < nqf && !(qf[family].queueFlags & VK_QUEUE_COMPUTE_BIT))
        family++;
    float prio = 1;
    VkDeviceQueueCreateInfo qci = {VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    qci.queueFamilyIndex = family;
    qci.queueCount = 1;
    qci.pQueuePriorities = &prio;
    VkDeviceCreateInfo dci = {VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    dci.queueCreateInfoCount = 1;
    dci.pQueueCreateInfos = &qci;
    VkDevice dev;
    VK(vkCreateDevice(pd, &dci, NULL, &dev));
    VkQueue queue;
    vkGetDeviceQueue(dev, family, 0, &queue);
    VkPhysicalDeviceMemoryProperties mp;
    vkGetPhysicalDeviceMemoryProperties(pd, &mp);
    VkBuffer bufs[VKAT_RT_MAX_BINDINGS];
    float *data[VKAT_RT_MAX_BINDINGS];
    VkDescriptorSetLayoutBinding lb[VKAT_RT_MAX_BINDINGS];
    for (uint32_t i = 0; i < v->binding_count; i++) {
        VkBufferCreateInfo bi = {VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
        bi.size = launch.buffer_bytes[i];
        bi.usage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
        VK(vkCreateBuffer(dev, &bi, NULL, &bufs[i]));
        VkMemoryRequirements req;
        vkGetBufferMemoryRequirements(dev, bufs[i], &req);
        VkMemoryPropertyFlags want = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
        VkMemoryAllocateInfo ai = {VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
        ai.allocationSize = req.size;
        while (ai.memoryTypeIndex < mp.memoryTypeCount &&
               (!(req.memoryTypeBits >> ai.memoryTypeIndex & 1) ||
                (mp.memoryTypes[ai.memoryTypeIndex].propertyFlags & want) != want))
            ai.memoryTypeIndex++;
        VkDeviceMemory mem;
        VK(vkAllocateMemory(dev, &ai, NULL, &mem));
        VK(vkBindBufferMemory(dev, bufs[i], mem, 0));
        VK(vkMapMemory(dev, mem, 0, VK_WHOLE_SIZE, 0, (void **)&data[i]));
        /* Operands get values, outputs NaN (unwritten elements then fail), scratch zero (as the tuner had it). */
        size_t n = launch.buffer_bytes[i] / 4;
        for (size_t e = 0; e < n; e++)
            data[i][e] = v->bindings[i].direction == VKAT_RT_OUT       ? NAN
                         : v->bindings[i].direction == VKAT_RT_SCRATCH ? 0.0f
                                                                       : value_at(e, i + 1);
        memset(&lb[i], 0, sizeof lb[i]);
        lb[i].binding = v->bindings[i].binding;
        lb[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        lb[i].descriptorCount = 1;
        lb[i].stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
    }
    /* The CPU's answer, from the inputs before the kernel overwrites any of them. */
    size_t nx = launch.buffer_bytes[0] / 4;
    double want_sum = 0;
    for (size_t e = 0; e < nx; e++)
        want_sum += data[0][e];

    VkDescriptorSetLayoutCreateInfo dli = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    dli.bindingCount = v->binding_count;
    dli.pBindings = lb;
    VkDescriptorSetLayout dsl;
    VK(vkCreateDescriptorSetLayout(dev, &dli, NULL, &dsl));
    VkPushConstantRange pcr = {VK_SHADER_STAGE_COMPUTE_BIT, 0, launch.push_size};
    VkPipelineLayoutCreateInfo pli = {VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    pli.setLayoutCount = 1;
    pli.pSetLayouts = &dsl;
    pli.pushConstantRangeCount = launch.push_size ? 1 : 0;
    pli.pPushConstantRanges = &pcr;
    VkPipelineLayout layout;
    VK(vkCreatePipelineLayout(dev, &pli, NULL, &layout));
    /* One set as the bindings say, and one more for each dispatch that binds other buffers. */
    VkDescriptorPoolSize ps = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, v->binding_count * (nd + 1)};
    VkDescriptorPoolCreateInfo dpi = {VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    dpi.maxSets = nd + 1;
    dpi.poolSizeCount = 1;
    dpi.pPoolSizes = &ps;
    VkDescriptorPool pool;
    VK(vkCreateDescriptorPool(dev, &dpi, NULL, &pool));
    VkDescriptorSetAllocateInfo dai = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    dai.descriptorPool = pool;
    dai.descriptorSetCount = 1;
    dai.pSetLayouts = &dsl;
    VkDescriptorSet set;
    VK(vkAllocateDescriptorSets(dev, &dai, &set));
    write_set(dev, set, v, bufs, NULL);

    /* Every dispatch of the variant, in order, each after a barrier on the one before. */
    VkCommandPoolCreateInfo cpi = {VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    cpi.queueFamilyIndex = family;
    VkCommandPool cmd_pool;
    VK(vkCreateCommandPool(dev, &cpi, NULL, &cmd_pool));
    VkCommandBufferAllocateInfo cai = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    cai.commandPool = cmd_pool;
    cai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    cai.commandBufferCount = 1;
    VkCommandBuffer cmd;
    VK(vkAllocateCommandBuffers(dev, &cai, &cmd));
    VkCommandBufferBeginInfo cbi = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    VK(vkBeginCommandBuffer(cmd, &cbi));
    for (uint32_t d = 0; d < nd; d++) {
        vkat_rt_dispatch dispatch;
        if (vkat_rt_dispatch_eval(v, d, NULL, 0, &dispatch) != VKAT_RT_OK)
            fail(3, "vkat_rt_dispatch_eval", (int)d);
        VkDescriptorSet pass_set = set;
        if (dispatch.binding_buffers) {
            VK(vkAllocateDescriptorSets(dev, &dai, &pass_set));
            write_set(dev, pass_set, v, bufs, dispatch.binding_buffers);
        }
        vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &pass_set, 0, NULL);
        VkShaderModuleCreateInfo smi = {VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
        smi.codeSize = dispatch.spirv_size_bytes;
        smi.pCode = dispatch.spirv;
        VkShaderModule module;
        VK(vkCreateShaderModule(dev, &smi, NULL, &module));
        VkSpecializationMapEntry entries[VKAT_RT_MAX_SPEC_CONSTANTS];
        VkSpecializationInfo spec;
        vkat_rt_dispatch_specialization(&dispatch, entries, &spec);
        VkComputePipelineCreateInfo cp = {VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
        cp.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
        cp.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
        cp.stage.module = module;
        cp.stage.pName = v->entry_point;
        cp.stage.pSpecializationInfo = &spec;
        cp.layout = layout;
        VkPipeline pipeline; /* left to the device's end, like the module: a test driver */
        VK(vkCreateComputePipelines(dev, VK_NULL_HANDLE, 1, &cp, NULL, &pipeline));
        VkMemoryBarrier mb = {VK_STRUCTURE_TYPE_MEMORY_BARRIER};
        mb.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_HOST_WRITE_BIT;
        mb.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
        vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_HOST_BIT,
                             VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, 0, 1, &mb, 0, NULL, 0, NULL);
        vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);
        if (dispatch.push_size)
            vkCmdPushConstants(cmd, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, dispatch.push_size, dispatch.push);
        vkCmdDispatch(cmd, dispatch.groups[0], dispatch.groups[1], dispatch.groups[2]);
        printf("dispatch %u: %u x %u x %u groups of %u x %u x %u\n", d, dispatch.groups[0], dispatch.groups[1],
               dispatch.groups[2], dispatch.local_size[0], dispatch.local_size[1], dispatch.local_size[2]);
    }
    VkMemoryBarrier to_host = {VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    to_host.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
    to_host.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
    vkCmdPipelineBarrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &to_host, 0, NULL,
                         0, NULL);
    VK(vkEndCommandBuffer(cmd));
    VkSubmitInfo si = {VK_STRUCTURE_TYPE_SUBMIT_INFO};
    si.commandBufferCount = 1;
    si.pCommandBuffers = &cmd;
    VK(vkQueueSubmit(queue, 1, &si, VK_NULL_HANDLE));
    VK(vkQueueWaitIdle(queue));

    /* The check. */
    double err2 = 0, ref2 = 0;
    if (!strcmp(kernel, "reduce_passes") || !strcmp(kernel, "reduce_pingpong")) {
        float got = data[!strcmp(kernel, "reduce_passes") ? 0 : 3][0]; /* X[0], or the ping-pong's Y[0] */
        err2 = ((double)got - want_sum) * ((double)got - want_sum);
        ref2 = want_sum * want_sum;
        printf("result %.6f, CPU sum %.6f\n", got, want_sum);
    } else { /* split-K GEMM: A (M x K), B (K x N), C (M x N) */
        int64_t m = v->problem[0], n = v->problem[1], k = v->problem[2];
        for (int64_t i = 0; i < m; i++)
            for (int64_t j = 0; j < n; j++) {
                double want = 0;
                for (int64_t x = 0; x < k; x++)
                    want += (double)data[0][i * k + x] * data[1][x * n + j];
                double got = data[2][i * n + j];
                err2 += isfinite(got) ? (got - want) * (got - want) : INFINITY;
                ref2 += want * want;
            }
    }
    double rel = sqrt(err2 / (ref2 > 0 ? ref2 : 1));
    /* Against an fp64 sum on the CPU, not the tuner's fp32 reference: an fp32 tree sum of 10^5 values of 0..1
     * carries about 1e-5 of rounding (seen: 1.14e-5 with B = 64), so allow 1e-4; a dropped or doubled block
     * is off by 1e-3 or more. */
    int ok = rel <= 1e-4;
    printf("check: %s (rel_l2 %.3g)\n", ok ? "ok" : "WRONG", rel);
    return ok ? 0 : 1;
}
