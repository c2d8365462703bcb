/* gemm_runtime.c — runs an exported GEMM through the vkautotune runtime library with plain Vulkan: no vkautotune
 * library, no volk; libvulkan is opened with dlopen. It selects the variant for the device from the header that
 * `vkautotune export --header` wrote, checks its result against a CPU GEMM, and times its own dispatches with
 * timestamp queries (median of N samples, the tuner's batch size) next to the median the tuner recorded.
 * With --tune CACHE it lets the runtime library's tuner (vkautotune_runtime_tune.h) time the exported candidates on
 * this device instead and run the fastest correct one; the pick is kept in CACHE, so the next run measures nothing.
 *
 *   gemm_runtime [--device INDEX] [--problem M,N,K] [--repetitions N] [--warmup SECONDS] [--tune CACHE
 *                [--time-limit SECONDS]]
 *
 * Build: cc -std=c99 -DVKAT_KERNELS_HEADER='"gemm_kernels.h"' -DVKAT_KERNELS_TABLE=gemm_kernels -I<export dir>
 *        gemm_runtime.c -lvkautotune-runtime -ldl -lm   (docs/runtime.md). Exit: 0 ok, 1 wrong result,
 *        2 usage, 3 no variant for this device/problem, 4 Vulkan error.
 * It is an example: errors end the program. It must not use anything of vkautotune but the runtime library. */
#define _POSIX_C_SOURCE 200809L
#define VK_NO_PROTOTYPES
#include "vkautotune_runtime.h"
#include "vkautotune_runtime_tune.h"

#include <dlfcn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifndef VKAT_KERNELS_HEADER
#define VKAT_KERNELS_HEADER "gemm_kernels.h"
#endif
#ifndef VKAT_KERNELS_TABLE
#define VKAT_KERNELS_TABLE gemm_kernels
#endif
#ifndef VKAT_KERNEL_NAME
#define VKAT_KERNEL_NAME "sgemm"
#endif
#include VKAT_KERNELS_HEADER

/* ---- Vulkan entry points, loaded by hand ------------------------------------------------------------------- */

#define INSTANCE_FUNCS(X)                                                                                         \
    X(vkDestroyInstance) X(vkEnumeratePhysicalDevices) X(vkGetPhysicalDeviceProperties)                          \
    X(vkGetPhysicalDeviceQueueFamilyProperties) X(vkGetPhysicalDeviceMemoryProperties) X(vkCreateDevice)         \
    X(vkGetDeviceProcAddr)
#define DEVICE_FUNCS(X)                                                                                           \
    X(vkDestroyDevice) X(vkGetDeviceQueue) X(vkCreateBuffer) X(vkDestroyBuffer) X(vkGetBufferMemoryRequirements) \
    X(vkAllocateMemory) X(vkFreeMemory) X(vkBindBufferMemory) X(vkMapMemory) X(vkUnmapMemory)                    \
    X(vkCreateShaderModule) X(vkDestroyShaderModule) X(vkCreateDescriptorSetLayout)                              \
    X(vkDestroyDescriptorSetLayout) X(vkCreatePipelineLayout) X(vkDestroyPipelineLayout)                         \
    X(vkCreateComputePipelines) X(vkDestroyPipeline) X(vkCreateDescriptorPool) X(vkDestroyDescriptorPool)        \
    X(vkAllocateDescriptorSets) X(vkUpdateDescriptorSets) X(vkCreateCommandPool) X(vkDestroyCommandPool)         \
    X(vkAllocateCommandBuffers) X(vkBeginCommandBuffer) X(vkEndCommandBuffer) X(vkResetCommandBuffer)            \
    X(vkCmdBindPipeline) X(vkCmdBindDescriptorSets) X(vkCmdPushConstants) X(vkCmdDispatch)                       \
    X(vkCmdPipelineBarrier) X(vkCmdCopyBuffer) X(vkCmdWriteTimestamp) X(vkCmdResetQueryPool)                     \
    X(vkCreateQueryPool) X(vkDestroyQueryPool) X(vkGetQueryPoolResults) X(vkQueueSubmit) X(vkQueueWaitIdle)

static PFN_vkGetInstanceProcAddr vkGetInstanceProcAddr;
static PFN_vkCreateInstance vkCreateInstance;
#define DECLARE(name) static PFN_##name name;
INSTANCE_FUNCS(DECLARE)
DEVICE_FUNCS(DECLARE)
#undef DECLARE

static void die(int code, const char *what)
{
    fprintf(stderr, "gemm_runtime: %s\n", what);
    exit(code);
}

static void vk_check(VkResult r, const char *call)
{
    if (r != VK_SUCCESS) {
        fprintf(stderr, "gemm_runtime: %s failed (VkResult %d)\n", call, (int)r);
        exit(4);
    }
}
#define VK(call) vk_check((call), #call)

/* ---- Buffers --------------------------------------------------------------------------------------------------- */

typedef struct gpu {
    VkPhysicalDevice pd;
    VkDevice dev;
    VkQueue queue;
    VkCommandPool pool;
    VkCommandBuffer cmd;
    VkPhysicalDeviceMemoryProperties mem;
} gpu;

typedef struct buffer {
    VkBuffer buf;
    VkDeviceMemory mem;
    VkDeviceSize size;
} buffer;

static uint32_t memory_type(const gpu *g, uint32_t bits, VkMemoryPropertyFlags want)
{
    for (uint32_t i = 0; i < g->mem.memoryTypeCount; i++)
        if ((bits & (1u << i)) && (g->mem.memoryTypes[i].propertyFlags & want) == want)
            return i;
    return UINT32_MAX;
}

static buffer make_buffer(const gpu *g, VkDeviceSize size, VkBufferUsageFlags usage, int host)
{
    buffer b = {VK_NULL_HANDLE, VK_NULL_HANDLE, size};
    VkBufferCreateInfo bi = {VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO};
    bi.size = size;
    bi.usage = usage;
    bi.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
    VK(vkCreateBuffer(g->dev, &bi, NULL, &b.buf));
    VkMemoryRequirements req;
    vkGetBufferMemoryRequirements(g->dev, b.buf, &req);
    /* The kernel's buffers live in device-local memory, as when the tuner measured them; staging is host memory. */
    uint32_t type = host ? memory_type(g, req.memoryTypeBits, VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT |
                                                                   VK_MEMORY_PROPERTY_HOST_COHERENT_BIT)
                         : memory_type(g, req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT);
    if (type == UINT32_MAX)
        type = memory_type(g, req.memoryTypeBits, 0);
    VkMemoryAllocateInfo ai = {VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO};
    ai.allocationSize = req.size;
    ai.memoryTypeIndex = type;
    VK(vkAllocateMemory(g->dev, &ai, NULL, &b.mem));
    VK(vkBindBufferMemory(g->dev, b.buf, b.mem, 0));
    return b;
}

static void free_buffer(const gpu *g, buffer *b)
{
    vkDestroyBuffer(g->dev, b->buf, NULL);
    vkFreeMemory(g->dev, b->mem, NULL);
}

static void begin(const gpu *g)
{
    VK(vkResetCommandBuffer(g->cmd, 0));
    VkCommandBufferBeginInfo bi = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    VK(vkBeginCommandBuffer(g->cmd, &bi));
}

static void submit(const gpu *g)
{
    VK(vkEndCommandBuffer(g->cmd));
    VkSubmitInfo si = {VK_STRUCTURE_TYPE_SUBMIT_INFO};
    si.commandBufferCount = 1;
    si.pCommandBuffers = &g->cmd;
    VK(vkQueueSubmit(g->queue, 1, &si, VK_NULL_HANDLE));
    VK(vkQueueWaitIdle(g->queue));
}

static void barrier(const gpu *g)
{
    VkMemoryBarrier mb = {VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    mb.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT;
    mb.dstAccessMask = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_READ_BIT;
    vkCmdPipelineBarrier(g->cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                         VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1, &mb, 0, NULL, 0,
                         NULL);
}

/* Copies between host memory and a device buffer through the staging buffer. */
static void transfer(const gpu *g, buffer *staging, buffer *dst, void *host, VkDeviceSize size, int upload)
{
    void *p;
    VK(vkMapMemory(g->dev, staging->mem, 0, size, 0, &p));
    if (upload)
        memcpy(p, host, (size_t)size);
    begin(g);
    VkBufferCopy region = {0, 0, size};
    barrier(g);
    if (upload)
        vkCmdCopyBuffer(g->cmd, staging->buf, dst->buf, 1, &region);
    else
        vkCmdCopyBuffer(g->cmd, dst->buf, staging->buf, 1, &region);
    barrier(g);
    submit(g);
    if (!upload)
        memcpy(host, p, (size_t)size);
    vkUnmapMemory(g->dev, staging->mem);
}

/* ---- Helpers --------------------------------------------------------------------------------------------------- */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Deterministic values in [-1, 1). */
static void fill(float *v, size_t n, uint64_t seed)
{
    uint64_t s = seed * 0x9e3779b97f4a7c15ull + 1;
    for (size_t i = 0; i < n; i++) {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        v[i] = (float)((double)(s >> 11) / 9007199254740992.0 * 2.0 - 1.0);
    }
}

static double ref_element(const float *a, const float *b, int64_t n, int64_t k, int64_t i, int64_t j)
{
    double acc = 0;
    for (int64_t x = 0; x < k; x++)
        acc += (double)a[i * k + x] * (double)b[x * n + j];
    return acc;
}

int main(int argc, char **argv)
{
    int device_index = -1;
    int64_t problem[3] = {0, 0, 0};
    int have_problem = 0;
    unsigned repetitions = 25;
    double warmup_s = 0.2, time_limit_s = 0;
    const char *tune_cache = NULL;
    for (int i = 1; i < argc; i++) {
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(argv[i], "--device") && v) {
            device_index = atoi(v);
            i++;
        } else if (!strcmp(argv[i], "--problem") && v) {
            long long m, n, k;
            if (sscanf(v, "%lld,%lld,%lld", &m, &n, &k) != 3 || m <= 0 || n <= 0 || k <= 0)
                die(2, "--problem expects M,N,K");
            problem[0] = m, problem[1] = n, problem[2] = k;
            have_problem = 1;
            i++;
        } else if (!strcmp(argv[i], "--repetitions") && v) {
            repetitions = (unsigned)atoi(v);
            if (repetitions < 1 || repetitions > 100000)
                die(2, "--repetitions expects 1..100000");
            i++;
        } else if (!strcmp(argv[i], "--warmup") && v) {
            warmup_s = atof(v);
            i++;
        } else if (!strcmp(argv[i], "--tune") && v) {
            tune_cache = v;
            i++;
        } else if (!strcmp(argv[i], "--time-limit") && v) {
            time_limit_s = atof(v);
            i++;
        } else {
            fprintf(stderr, "usage: %s [--device INDEX] [--problem M,N,K] [--repetitions N] [--warmup SECONDS] "
                            "[--tune CACHE [--time-limit SECONDS]]\n", argv[0]);
            return 2;
        }
    }

    /* The loader, an instance and the physical devices. */
    void *lib = dlopen("libvulkan.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib)
        die(4, "cannot load libvulkan.so.1");
    *(void **)&vkGetInstanceProcAddr = dlsym(lib, "vkGetInstanceProcAddr");
    if (!vkGetInstanceProcAddr)
        die(4, "libvulkan.so.1 has no vkGetInstanceProcAddr");
    vkCreateInstance = (PFN_vkCreateInstance)vkGetInstanceProcAddr(VK_NULL_HANDLE, "vkCreateInstance");
    VkApplicationInfo app = {VK_STRUCTURE_TYPE_APPLICATION_INFO};
    app.pApplicationName = "gemm_runtime";
    app.apiVersion = VK_API_VERSION_1_3; /* the exported SPIR-V targets Vulkan 1.3 or later */
    VkInstanceCreateInfo ici = {VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO};
    ici.pApplicationInfo = &app;
    VkInstance instance;
    VK(vkCreateInstance(&ici, NULL, &instance));
#define LOAD_I(name)                                                                                              \
    if (!(name = (PFN_##name)vkGetInstanceProcAddr(instance, #name)))                                            \
        die(4, "missing " #name);
    INSTANCE_FUNCS(LOAD_I)
#undef LOAD_I
    VkPhysicalDevice pds[16];
    uint32_t npd = 16;
    VkResult er = vkEnumeratePhysicalDevices(instance, &npd, pds);
    if ((er != VK_SUCCESS && er != VK_INCOMPLETE) || npd == 0)
        die(4, "no Vulkan device");

    /* The variant: for --device, or the device whose match is best (exact first). */
    const vkat_rt_table *table = &VKAT_KERNELS_TABLE;
    const vkat_rt_variant *v = NULL;
    vkat_rt_match how = VKAT_RT_MATCH_NONE;
    gpu g;
    memset(&g, 0, sizeof g);
    for (uint32_t d = 0; d < npd; d++) {
        if (device_index >= 0 && (uint32_t)device_index != d)
            continue;
        const vkat_rt_variant *cand;
        vkat_rt_match m;
        if (vkat_rt_select_physical_device(table, VKAT_KERNEL_NAME, pds[d], vkGetPhysicalDeviceProperties,
                                           have_problem ? problem : NULL, 3, &cand, &m) == VKAT_RT_OK &&
            (!v || m < how)) {
            v = cand;
            how = m;
            g.pd = pds[d];
        }
    }
    if (!v)
        die(3, "no exported variant of " VKAT_KERNEL_NAME " fits this device and problem");
    if (!have_problem)
        memcpy(problem, v->problem, sizeof problem);
    if (v->problem_count != 3 || vkat_rt_problem_index(v, "M") != 0 || vkat_rt_problem_index(v, "N") != 1 ||
        vkat_rt_problem_index(v, "K") != 2 || v->binding_count != 3)
        die(3, "the exported kernel is not the M,N,K GEMM of spaces/gemm.ini");
    if (v->features && v->features[0])
        die(3, "the variant needs device features; this example enables none");
    vkat_rt_launch launch;
    vkat_rt_result rr = vkat_rt_launch_eval(v, problem, 3, &launch);
    if (rr != VKAT_RT_OK) {
        fprintf(stderr, "gemm_runtime: %s\n", vkat_rt_result_string(rr));
        return 3;
    }
    VkPhysicalDeviceProperties props;
    vkGetPhysicalDeviceProperties(g.pd, &props);
    vkGetPhysicalDeviceMemoryProperties(g.pd, &g.mem);
    printf("device: %s\nvariant: %s %s (tuned on %s, driver %s; match: %s)\n", props.deviceName, v->kernel, v->config,
           v->device_name, v->driver_version_string, vkat_rt_match_name(how));
    printf("problem: M=%lld,N=%lld,K=%lld; groups %u x %u x %u of %u x %u x %u\n", (long long)problem[0],
           (long long)problem[1], (long long)problem[2], launch.groups[0], launch.groups[1], launch.groups[2],
           v->local_size[0], v->local_size[1], v->local_size[2]);

    /* A device with a compute queue that has timestamps. */
    VkQueueFamilyProperties qf[32];
    uint32_t nqf = 32, family = UINT32_MAX;
    vkGetPhysicalDeviceQueueFamilyProperties(g.pd, &nqf, qf);
    for (uint32_t i = 0; i < nqf && family == UINT32_MAX; i++)
        if ((qf[i].queueFlags & VK_QUEUE_COMPUTE_BIT) && qf[i].timestampValidBits)
            family = i;
    if (family == UINT32_MAX)
        die(4, "no compute queue with timestamps");
    float prio = 1.0f;
    VkDeviceQueueCreateInfo qci = {VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO};
    qci.queueFamilyIndex = family;
    qci.queueCount = 1;
    qci.pQueuePriorities = &prio;
    uint32_t next = 0;
    while (v->extensions && v->extensions[next])
        next++;
    VkDeviceCreateInfo dci = {VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO};
    dci.queueCreateInfoCount = 1;
    dci.pQueueCreateInfos = &qci;
    dci.enabledExtensionCount = next;
    dci.ppEnabledExtensionNames = next ? v->extensions : NULL;
    VK(vkCreateDevice(g.pd, &dci, NULL, &g.dev));
#define LOAD_D(name)                                                                                              \
    if (!(name = (PFN_##name)vkGetDeviceProcAddr(g.dev, #name)))                                                 \
        die(4, "missing " #name);
    DEVICE_FUNCS(LOAD_D)
#undef LOAD_D
    vkGetDeviceQueue(g.dev, family, 0, &g.queue);

    /* With --tune: the runtime tuner times the candidates on this device (or reads its earlier pick from the cache)
     * and the program runs its pick instead of the selected variant. The device was created with the selected
     * variant's extensions, so candidates that need others are skipped. */
    if (tune_cache) {
        vkat_rt_vulkan tvk = {instance, g.pd, g.dev, g.queue, family, vkGetInstanceProcAddr, vkGetDeviceProcAddr};
        vkat_rt_tune_desc td;
        memset(&td, 0, sizeof td);
        td.kernel = VKAT_KERNEL_NAME;
        td.problem = problem;
        td.problem_count = 3;
        td.cache_path = tune_cache;
        td.time_limit_s = time_limit_s;
        td.enabled_extensions = v->extensions;
        vkat_rt_tune_report *rep = malloc(sizeof *rep);
        const vkat_rt_variant *pick = NULL;
        if (!rep)
            die(4, "out of memory");
        vkat_rt_result tr = vkat_rt_tune(table, &tvk, &td, &pick, rep);
        if (tr != VKAT_RT_OK) {
            fprintf(stderr, "gemm_runtime: tuning failed: %s: %s\n", vkat_rt_result_string(tr), rep->detail);
            return tr == VKAT_RT_ERR_NOT_FOUND || tr == VKAT_RT_ERR_NO_CANDIDATE ? 3 : 4;
        }
        printf("tuned: %s in %.3f s%s%s\n", rep->from_cache ? "from the cache" : "measured", rep->seconds,
               rep->cache_result ? "; cache not written: " : "", rep->cache_result ? rep->detail : "");
        for (uint32_t i = 0; i < rep->count; i++) {
            const vkat_rt_candidate_report *c = &rep->candidates[i];
            printf("candidate: %s%s%s: %s, median %.4f ms (%u samples of %u); %s\n", c->variant->config,
                   c->variant == rep->fallback ? " [fallback]" : "", c->variant == pick ? " [pick]" : "",
                   vkat_rt_result_string(c->status), c->median_ms, c->samples, c->batch, c->detail);
        }
        free(rep);
        v = pick;
        how = VKAT_RT_MATCH_NONE;
        rr = vkat_rt_launch_eval(v, problem, 3, &launch);
        if (rr != VKAT_RT_OK)
            die(3, vkat_rt_result_string(rr));
        printf("variant: %s %s (tuned on %s, driver %s; picked by the runtime tuner)\n", v->kernel, v->config,
               v->device_name, v->driver_version_string);
    }
    VkCommandPoolCreateInfo cpi = {VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    cpi.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    cpi.queueFamilyIndex = family;
    VK(vkCreateCommandPool(g.dev, &cpi, NULL, &g.pool));
    VkCommandBufferAllocateInfo cai = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    cai.commandPool = g.pool;
    cai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    cai.commandBufferCount = 1;
    VK(vkAllocateCommandBuffers(g.dev, &cai, &g.cmd));

    /* Data: A (M x K) and B (K x N) random, C (M x N) poisoned with NaN so unwritten elements fail the check. */
    size_t m = (size_t)problem[0], n = (size_t)problem[1], k = (size_t)problem[2];
    float *a = malloc(m * k * sizeof *a), *b = malloc(k * n * sizeof *b), *c = malloc(m * n * sizeof *c);
    if (!a || !b || !c)
        die(4, "out of memory");
    fill(a, m * k, 1);
    fill(b, k * n, 2);
    for (size_t i = 0; i < m * n; i++)
        c[i] = NAN;
    buffer bufs[3];
    VkDeviceSize largest = 0;
    for (int i = 0; i < 3; i++) {
        VkDeviceSize size = launch.buffer_bytes[i] ? launch.buffer_bytes[i] : 4;
        bufs[i] = make_buffer(&g, size, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                                            VK_BUFFER_USAGE_TRANSFER_DST_BIT, 0);
        largest = size > largest ? size : largest;
    }
    buffer staging = make_buffer(&g, largest, VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT, 1);
    void *host[3] = {a, b, c};
    for (int i = 0; i < 3; i++)
        transfer(&g, &staging, &bufs[i], host[i], launch.buffer_bytes[i], 1);

    /* The pipeline, exactly as the variant says: set 0 storage buffers, push constants, specialization. */
    VkDescriptorSetLayoutBinding lb[VKAT_RT_MAX_BINDINGS];
    VkDescriptorBufferInfo dbi[VKAT_RT_MAX_BINDINGS];
    VkWriteDescriptorSet wr[VKAT_RT_MAX_BINDINGS];
    for (uint32_t i = 0; i < v->binding_count; i++) {
        memset(&lb[i], 0, sizeof lb[i]);
        lb[i].binding = v->bindings[i].binding;
        lb[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        lb[i].descriptorCount = 1;
        lb[i].stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
    }
    VkDescriptorSetLayoutCreateInfo dli = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    dli.bindingCount = v->binding_count;
    dli.pBindings = lb;
    VkDescriptorSetLayout dsl;
    VK(vkCreateDescriptorSetLayout(g.dev, &dli, NULL, &dsl));
    VkPushConstantRange pcr = {VK_SHADER_STAGE_COMPUTE_BIT, 0, launch.push_size};
    VkPipelineLayoutCreateInfo pli = {VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    pli.setLayoutCount = 1;
    pli.pSetLayouts = &dsl;
    pli.pushConstantRangeCount = launch.push_size ? 1 : 0;
    pli.pPushConstantRanges = &pcr;
    VkPipelineLayout layout;
    VK(vkCreatePipelineLayout(g.dev, &pli, NULL, &layout));
    VkShaderModuleCreateInfo smi = {VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    smi.codeSize = v->spirv_size_bytes;
    smi.pCode = v->spirv;
    VkShaderModule module;
    VK(vkCreateShaderModule(g.dev, &smi, NULL, &module));
    VkSpecializationMapEntry spec_entries[64];
    VkSpecializationInfo spec;
    if (v->spec_constant_count > 64)
        die(3, "too many specialization constants");
    vkat_rt_specialization(v, spec_entries, &spec);
    VkComputePipelineCreateInfo cpci = {VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    cpci.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    cpci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    cpci.stage.module = module;
    cpci.stage.pName = v->entry_point;
    cpci.stage.pSpecializationInfo = v->spec_constant_count ? &spec : NULL;
    cpci.layout = layout;
    VkPipeline pipeline;
    VK(vkCreateComputePipelines(g.dev, VK_NULL_HANDLE, 1, &cpci, NULL, &pipeline));
    VkDescriptorPoolSize ps = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, v->binding_count};
    VkDescriptorPoolCreateInfo dpi = {VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    dpi.maxSets = 1;
    dpi.poolSizeCount = 1;
    dpi.pPoolSizes = &ps;
    VkDescriptorPool dpool;
    VK(vkCreateDescriptorPool(g.dev, &dpi, NULL, &dpool));
    VkDescriptorSetAllocateInfo dai = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    dai.descriptorPool = dpool;
    dai.descriptorSetCount = 1;
    dai.pSetLayouts = &dsl;
    VkDescriptorSet set;
    VK(vkAllocateDescriptorSets(g.dev, &dai, &set));
    for (uint32_t i = 0; i < v->binding_count; i++) {
        dbi[i].buffer = bufs[i].buf;
        dbi[i].offset = 0;
        dbi[i].range = VK_WHOLE_SIZE;
        memset(&wr[i], 0, sizeof wr[i]);
        wr[i].sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
        wr[i].dstSet = set;
        wr[i].dstBinding = v->bindings[i].binding;
        wr[i].descriptorCount = 1;
        wr[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        wr[i].pBufferInfo = &dbi[i];
    }
    vkUpdateDescriptorSets(g.dev, v->binding_count, wr, 0, NULL);

    /* n dispatches, each after a barrier on the previous one (as vkautotune measures), between two timestamps. */
    VkQueryPoolCreateInfo qpi = {VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
    qpi.queryType = VK_QUERY_TYPE_TIMESTAMP;
    qpi.queryCount = 2;
    VkQueryPool queries;
    VK(vkCreateQueryPool(g.dev, &qpi, NULL, &queries));
    uint32_t batch = v->batch ? v->batch : 1;
#define RECORD(count, timed)                                                                                      \
    do {                                                                                                         \
        begin(&g);                                                                                               \
        if (timed) {                                                                                             \
            vkCmdResetQueryPool(g.cmd, queries, 0, 2);                                                           \
            vkCmdWriteTimestamp(g.cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, queries, 0);                           \
        }                                                                                                        \
        vkCmdBindPipeline(g.cmd, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline);                                      \
        vkCmdBindDescriptorSets(g.cmd, VK_PIPELINE_BIND_POINT_COMPUTE, layout, 0, 1, &set, 0, NULL);             \
        if (launch.push_size)                                                                                    \
            vkCmdPushConstants(g.cmd, layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, launch.push_size, launch.push);    \
        for (uint32_t d_ = 0; d_ < (count); d_++) {                                                              \
            barrier(&g);                                                                                         \
            vkCmdDispatch(g.cmd, launch.groups[0], launch.groups[1], launch.groups[2]);                          \
        }                                                                                                        \
        if (timed)                                                                                               \
            vkCmdWriteTimestamp(g.cmd, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, queries, 1);                          \
        submit(&g);                                                                                              \
    } while (0)

    /* The check: one dispatch, then C against a CPU GEMM in double precision (every element when small, else a
     * fixed sample of 4096, which still catches wrong tiles and unwritten elements there). */
    RECORD(1, 0);
    transfer(&g, &staging, &bufs[2], c, launch.buffer_bytes[2], 0);
    int full = (double)m * n * k <= (double)(1u << 27);
    size_t checks = full ? m * n : 4096, bad = 0;
    double err2 = 0, ref2 = 0;
    uint64_t s = 12345;
    for (size_t t = 0; t < checks; t++) {
        size_t i, j;
        if (full) {
            i = t / n;
            j = t % n;
        } else {
            s = s * 6364136223846793005ull + 1442695040888963407ull;
            i = (size_t)((s >> 33) % m);
            j = (size_t)((s >> 7) % n);
        }
        double want = ref_element(a, b, (int64_t)n, (int64_t)k, (int64_t)i, (int64_t)j);
        double got = c[i * n + j];
        if (!isfinite(got))
            bad++;
        err2 += (got - want) * (got - want);
        ref2 += want * want;
    }
    double rel_l2 = ref2 > 0 ? sqrt(err2 / ref2) : sqrt(err2);
    int ok = bad == 0 && rel_l2 <= 1e-4;
    printf("check: %s (rel_l2 %.3g over %zu %s elements%s)\n", ok ? "ok" : "WRONG", rel_l2, checks,
           full ? "(all)" : "sampled", bad ? ", some not written" : "");

    /* Timing: warm up, then `repetitions` samples of `batch` dispatches each. */
    double t0 = now_s();
    do
        RECORD(batch, 0);
    while (now_s() - t0 < warmup_s);
    double *samples = malloc(repetitions * sizeof *samples);
    if (!samples)
        die(4, "out of memory");
    uint64_t mask = qf[family].timestampValidBits >= 64 ? ~0ull : (1ull << qf[family].timestampValidBits) - 1;
    for (unsigned r = 0; r < repetitions; r++) {
        RECORD(batch, 1);
        uint64_t ticks[2];
        VK(vkGetQueryPoolResults(g.dev, queries, 0, 2, sizeof ticks, ticks, sizeof ticks[0],
                                 VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT));
        uint64_t delta = ((ticks[1] & mask) - (ticks[0] & mask)) & mask;
        samples[r] = (double)delta * props.limits.timestampPeriod * 1e-6 / batch; /* ms per dispatch */
    }
    qsort(samples, repetitions, sizeof *samples, cmp_double);
    double median = repetitions % 2 ? samples[repetitions / 2]
                                    : 0.5 * (samples[repetitions / 2 - 1] + samples[repetitions / 2]);
    int same = memcmp(problem, v->problem, sizeof problem) == 0;
    printf("time: median %.4f ms (min %.4f) over %u samples of %u dispatch(es); tuner recorded median %.4f ms "
           "(min %.4f) for %s; ratio %.3f\n",
           median, samples[0], repetitions, batch, v->median_ms, v->min_ms,
           same ? "this problem" : "its tuned problem", v->median_ms > 0 ? median / v->median_ms : 0.0);
    printf("throughput: %.4g TFLOP/s\n", 2.0 * m * n * k / (median * 1e-3) * 1e-12);

    free(samples);
    vkDestroyQueryPool(g.dev, queries, NULL);
    vkDestroyDescriptorPool(g.dev, dpool, NULL);
    vkDestroyPipeline(g.dev, pipeline, NULL);
    vkDestroyShaderModule(g.dev, module, NULL);
    vkDestroyPipelineLayout(g.dev, layout, NULL);
    vkDestroyDescriptorSetLayout(g.dev, dsl, NULL);
    free_buffer(&g, &staging);
    for (int i = 0; i < 3; i++)
        free_buffer(&g, &bufs[i]);
    vkDestroyCommandPool(g.dev, g.pool, NULL);
    vkDestroyDevice(g.dev, NULL);
    vkDestroyInstance(instance, NULL);
    free(a);
    free(b);
    free(c);
    dlclose(lib);
    return ok ? 0 : 1;
}
