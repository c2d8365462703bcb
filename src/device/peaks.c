/* peaks.c — measures a device's peaks: memory bandwidth, fp32/fp16 FMA throughput, host<->device transfers.
 *
 * The compute peaks run through bench.c (workspace, kernel, timestamped measure) with small GLSL kernels compiled
 * here; the transfers need a host-visible buffer the workspace does not expose, so they are recorded here directly
 * and timed with timestamps around the copy (host clock when the queue has none). Must not print or exit, and must
 * not know about spaces or the results database beyond the plain vkat_peaks it fills. */
#include "peaks.h"
#include "bench.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define PEAK_TIMEOUT_NS (60ull * 1000000000ull)

/* ---- Kernels ------------------------------------------------------------------------------------------------- */

/* A vec4 copy over a 2D grid (group counts stay under 65535 per dimension). Reads and writes each byte once. */
static const char copy_glsl[] =
    "#version 450\n"
    "layout(local_size_x = 256) in;\n"
    "layout(set = 0, binding = 0) readonly buffer Src { vec4 src[]; };\n"
    "layout(set = 0, binding = 1) writeonly buffer Dst { vec4 dst[]; };\n"
    "layout(push_constant) uniform P { uint n; };\n"
    "void main() {\n"
    "    uint i = gl_GlobalInvocationID.x + gl_GlobalInvocationID.y * gl_NumWorkGroups.x * 256u;\n"
    "    if (i < n) dst[i] = src[i];\n"
    "}\n";

/* Eight independent vec4 FMA chains per invocation (32 lanes of ILP), `iters` rounds of eight FMAs each. The
 * multiplier and addend come from push constants so nothing folds; the sum is written so nothing is dead.
 * TYPE/VEC are float/vec4 or float16_t/f16vec4. 2 flops per FMA lane: 8 chains * 4 lanes * 8 FMAs * 2 = 512
 * flops per invocation per round. */
#define FMA_GLSL(EXT, TYPE, VEC)                                                                                 \
    "#version 450\n#extension GL_EXT_control_flow_attributes : require\n" EXT                                 \
    "layout(local_size_x = 256) in;\n"                                                      \
    "layout(set = 0, binding = 0) writeonly buffer Out { float outv[]; };\n"                                     \
    "layout(push_constant) uniform P { uint iters; float mul; float add; };\n"                                   \
    "void main() {\n"                                                                                            \
    "    " VEC " m = " VEC "(" TYPE "(mul)), c = " VEC "(" TYPE "(add));\n"                                      \
    "    uint id = gl_GlobalInvocationID.x;\n"                                                                   \
    "    " VEC " a0 = " VEC "(" TYPE "(id & 7u)), a1 = a0 + " TYPE "(1), a2 = a0 + " TYPE "(2), a3 = a0 + " TYPE  \
    "(3);\n"                                                                                                     \
    "    " VEC " a4 = a0 + " TYPE "(4), a5 = a0 + " TYPE "(5), a6 = a0 + " TYPE "(6), a7 = a0 + " TYPE "(7);\n"  \
    "    for (uint i = 0u; i < iters; i++) {\n"                                                                  \
    "        [[unroll]] for (int j = 0; j < 8; j++) {\n"                                                         \
    "            a0 = fma(a0, m, c); a1 = fma(a1, m, c); a2 = fma(a2, m, c); a3 = fma(a3, m, c);\n"              \
    "            a4 = fma(a4, m, c); a5 = fma(a5, m, c); a6 = fma(a6, m, c); a7 = fma(a7, m, c);\n"              \
    "        }\n"                                                                                                \
    "    }\n"                                                                                                    \
    "    " VEC " s = ((a0 + a1) + (a2 + a3)) + ((a4 + a5) + (a6 + a7));\n"                                       \
    "    outv[id] = float(s.x + s.y + s.z + s.w);\n"                                                             \
    "}\n"
#define FMA_FLOPS_PER_ROUND 512.0

static const char fma32_glsl[] = FMA_GLSL("", "float", "vec4");
static const char fma16_glsl[] =
    FMA_GLSL("#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require\n", "float16_t", "f16vec4");

/* Problem sizes per device type: a CPU device is slow and small, a GPU needs many invocations in flight. */
typedef struct peak_sizes {
    uint64_t copy_bytes;     /* per buffer */
    uint32_t fma_groups;     /* of 256 invocations */
    uint32_t fma_iters;
    uint64_t transfer_bytes;
} peak_sizes;

static peak_sizes sizes_for(const vkat_device_info *info)
{
    peak_sizes s;
    if (!strcmp(info->device_type, "cpu")) {
        s.copy_bytes = 32ull << 20;
        s.fma_groups = 32;
        s.fma_iters = 256;
        s.transfer_bytes = 32ull << 20;
    } else {
        s.copy_bytes = 512ull << 20;
        s.fma_groups = 8192;
        s.fma_iters = 512;
        s.transfer_bytes = 256ull << 20;
    }
    /* Both copy buffers and their canaries must fit one descriptor range. */
    uint64_t range = info->max_storage_buffer_range;
    if (range > 4096 && s.copy_bytes > range - 4096)
        s.copy_bytes = (range - 4096) & ~(uint64_t)0xFFFF;
    return s;
}

static const vkat_timing_opts peak_timing = {
    .warmup_s = 0.1, .min_sample_s = 1e-3, .repetitions = 5, .max_time_s = 3, .timeout_ns = PEAK_TIMEOUT_NS};

/* Compiles `glsl` and measures it over the given buffers: *best_s is the fastest sample. */
static vkat_result run_kernel(vkat_gpu *gpu, const char *name, const char *glsl, const vkat_buffer_spec *bufs,
                              size_t nbufs, const void *push, uint32_t push_size, const uint32_t groups[3],
                              double *best_s, vkat_error *err)
{
    vkat_spirv spv = {0};
    vkat_workspace *ws = NULL;
    vkat_kernel *k = NULL;
    vkat_timing t;
    vkat_result r = vkat_compile_glsl(glsl, name, gpu->info->api_version, &spv, err);
    if (!r)
        r = vkat_workspace_create(gpu, bufs, nbufs, 1, &ws, err);
    if (!r)
        r = vkat_kernel_create(ws, &spv, "main", NULL, 0, push_size, &k, err);
    if (!r)
        r = vkat_kernel_measure(k, groups, push, &peak_timing, &t, err);
    if (!r)
        *best_s = t.min_s;
    vkat_kernel_destroy(k);
    vkat_workspace_destroy(ws);
    vkat_spirv_free(&spv);
    return r;
}

static vkat_result measure_copy(vkat_gpu *gpu, const peak_sizes *sz, double *gbps, vkat_error *err)
{
    uint64_t vec4s = sz->copy_bytes / 16;
    vkat_buffer_spec bufs[2] = {
        {"src", VKAT_FLOAT32, vec4s * 4, VKAT_INIT_CONST, 1.0, 0, VKAT_DIR_IN},
        {"dst", VKAT_FLOAT32, vec4s * 4, VKAT_INIT_ZERO, 0, 0, VKAT_DIR_OUT},
    };
    uint32_t n = (uint32_t)vec4s;
    uint64_t groups_total = (vec4s + 255) / 256;
    uint32_t gx = groups_total < 4096 ? (uint32_t)groups_total : 4096;
    uint32_t groups[3] = {gx, (uint32_t)((groups_total + gx - 1) / gx), 1};
    double s;
    vkat_result r = run_kernel(gpu, "<peaks: copy>", copy_glsl, bufs, 2, &n, sizeof n, groups, &s, err);
    if (!r)
        *gbps = 2.0 * (double)(vec4s * 16) / s / 1e9;
    return r;
}

static vkat_result measure_fma(vkat_gpu *gpu, const peak_sizes *sz, int fp16, double *tflops, vkat_error *err)
{
    uint32_t invocations = sz->fma_groups * 256;
    vkat_buffer_spec out = {"out", VKAT_FLOAT32, invocations, VKAT_INIT_ZERO, 0, 0, VKAT_DIR_OUT};
    struct {
        uint32_t iters;
        float mul, add;
    } push = {sz->fma_iters, 0.999f, 0.001f};
    uint32_t groups[3] = {sz->fma_groups, 1, 1};
    double s;
    vkat_result r = run_kernel(gpu, fp16 ? "<peaks: fma16>" : "<peaks: fma32>", fp16 ? fma16_glsl : fma32_glsl,
                               &out, 1, &push, sizeof push, groups, &s, err);
    if (!r)
        *tflops = (double)invocations * sz->fma_iters * FMA_FLOPS_PER_ROUND / s / 1e12;
    return r;
}

/* ---- Transfers ----------------------------------------------------------------------------------------------- */

typedef struct xfer {
    vkat_gpu *gpu;
    VkBuffer host, dev;
    VkDeviceMemory host_mem, dev_mem;
    VkCommandPool pool;
    VkCommandBuffer cmd;
    VkFence fence;
    VkQueryPool queries;
} xfer;

static void xfer_destroy(xfer *x)
{
    VkDevice d = x->gpu->device;
    if (x->queries)
        vkDestroyQueryPool(d, x->queries, NULL);
    if (x->fence)
        vkDestroyFence(d, x->fence, NULL);
    if (x->pool)
        vkDestroyCommandPool(d, x->pool, NULL);
    if (x->dev)
        vkDestroyBuffer(d, x->dev, NULL);
    if (x->dev_mem)
        vkFreeMemory(d, x->dev_mem, NULL);
    if (x->host)
        vkDestroyBuffer(d, x->host, NULL);
    if (x->host_mem)
        vkFreeMemory(d, x->host_mem, NULL);
}

static vkat_result xfer_create(xfer *x, uint64_t bytes, vkat_error *err)
{
    vkat_gpu *gpu = x->gpu;
    const VkMemoryPropertyFlags host_pref[] = {
        VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT |
            VK_MEMORY_PROPERTY_HOST_CACHED_BIT,
        VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT};
    const VkMemoryPropertyFlags dev_pref[] = {VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0};
    VkBufferUsageFlags both = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
    vkat_result r = vkat_gpu_make_buffer(gpu, bytes, both, host_pref, 2, &x->host, &x->host_mem, err);
    if (!r)
        r = vkat_gpu_make_buffer(gpu, bytes, both, dev_pref, 2, &x->dev, &x->dev_mem, err);
    if (r)
        return r;
    /* Touch the host pages once so the first copy does not pay for faulting them in. */
    void *map = NULL;
    VkResult vr = vkMapMemory(gpu->device, x->host_mem, 0, VK_WHOLE_SIZE, 0, &map);
    if (vr != VK_SUCCESS)
        return vkat_fail_vk(err, vr, "vkMapMemory");
    memset(map, 0x5a, bytes);
    vkUnmapMemory(gpu->device, x->host_mem);
    VkCommandPoolCreateInfo pci = {VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    pci.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    pci.queueFamilyIndex = gpu->queue_family;
    if ((vr = vkCreateCommandPool(gpu->device, &pci, NULL, &x->pool)) != VK_SUCCESS)
        return vkat_fail_vk(err, vr, "vkCreateCommandPool");
    VkCommandBufferAllocateInfo cai = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    cai.commandPool = x->pool;
    cai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    cai.commandBufferCount = 1;
    if ((vr = vkAllocateCommandBuffers(gpu->device, &cai, &x->cmd)) != VK_SUCCESS)
        return vkat_fail_vk(err, vr, "vkAllocateCommandBuffers");
    VkFenceCreateInfo fci = {VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    if ((vr = vkCreateFence(gpu->device, &fci, NULL, &x->fence)) != VK_SUCCESS)
        return vkat_fail_vk(err, vr, "vkCreateFence");
    if (gpu->info->timestamp_valid_bits) {
        VkQueryPoolCreateInfo qci = {VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
        qci.queryType = VK_QUERY_TYPE_TIMESTAMP;
        qci.queryCount = 2;
        if ((vr = vkCreateQueryPool(gpu->device, &qci, NULL, &x->queries)) != VK_SUCCESS)
            return vkat_fail_vk(err, vr, "vkCreateQueryPool");
    }
    return VKAT_OK;
}

/* One timed copy of `bytes` (to_device: host -> device); seconds in *s. */
static vkat_result xfer_once(xfer *x, uint64_t bytes, int to_device, double *s, vkat_error *err)
{
    VkDevice d = x->gpu->device;
    VkResult vr = vkResetCommandBuffer(x->cmd, 0);
    if (vr != VK_SUCCESS)
        return vkat_fail_vk(err, vr, "vkResetCommandBuffer");
    VkCommandBufferBeginInfo bi = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    if ((vr = vkBeginCommandBuffer(x->cmd, &bi)) != VK_SUCCESS)
        return vkat_fail_vk(err, vr, "vkBeginCommandBuffer");
    if (x->queries) {
        vkCmdResetQueryPool(x->cmd, x->queries, 0, 2);
        vkCmdWriteTimestamp(x->cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, x->queries, 0);
    }
    VkBufferCopy region = {0, 0, bytes};
    if (to_device)
        vkCmdCopyBuffer(x->cmd, x->host, x->dev, 1, &region);
    else
        vkCmdCopyBuffer(x->cmd, x->dev, x->host, 1, &region);
    if (x->queries)
        vkCmdWriteTimestamp(x->cmd, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, x->queries, 1);
    if ((vr = vkEndCommandBuffer(x->cmd)) != VK_SUCCESS)
        return vkat_fail_vk(err, vr, "vkEndCommandBuffer");
    if ((vr = vkResetFences(d, 1, &x->fence)) != VK_SUCCESS)
        return vkat_fail_vk(err, vr, "vkResetFences");
    VkSubmitInfo si = {VK_STRUCTURE_TYPE_SUBMIT_INFO};
    si.commandBufferCount = 1;
    si.pCommandBuffers = &x->cmd;
    double t0 = vkat_now();
    if ((vr = vkQueueSubmit(x->gpu->queue, 1, &si, x->fence)) != VK_SUCCESS)
        return vkat_fail_vk(err, vr, "vkQueueSubmit");
    vr = vkWaitForFences(d, 1, &x->fence, VK_TRUE, PEAK_TIMEOUT_NS);
    double host_s = vkat_now() - t0;
    if (vr == VK_TIMEOUT) {
        /* Wait it out so the buffers can be destroyed safely. */
        vkDeviceWaitIdle(d);
        return vkat_fail(err, VKAT_ERR_TIMEOUT, NULL, 0, "a transfer-peak copy did not finish in 60 s");
    }
    if (vr != VK_SUCCESS)
        return vkat_fail_vk(err, vr, "vkWaitForFences");
    *s = host_s;
    if (x->queries) {
        uint64_t ts[2];
        vr = vkGetQueryPoolResults(d, x->queries, 0, 2, sizeof ts, ts, sizeof ts[0],
                                   VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
        if (vr != VK_SUCCESS)
            return vkat_fail_vk(err, vr, "vkGetQueryPoolResults");
        uint32_t bits = x->gpu->info->timestamp_valid_bits;
        uint64_t mask = bits >= 64 ? ~0ull : (1ull << bits) - 1;
        uint64_t ticks = ((ts[1] & mask) - (ts[0] & mask)) & mask;
        double dev_s = (double)ticks * x->gpu->info->timestamp_period * 1e-9;
        if (dev_s > 0)
            *s = dev_s;
    }
    return VKAT_OK;
}

static vkat_result measure_transfers(vkat_gpu *gpu, const peak_sizes *sz, double *h2d, double *d2h, vkat_error *err)
{
    xfer x = {.gpu = gpu};
    vkat_result r = xfer_create(&x, sz->transfer_bytes, err);
    for (int dir = 0; !r && dir < 2; dir++) {
        double best = INFINITY, s = 0;
        /* One untimed copy first (page tables, caches), then the best of five. */
        for (int i = 0; !r && i < 6; i++) {
            r = xfer_once(&x, sz->transfer_bytes, dir == 0, &s, err);
            if (!r && i > 0 && s < best)
                best = s;
        }
        if (!r)
            *(dir == 0 ? h2d : d2h) = (double)sz->transfer_bytes / best / 1e9;
    }
    xfer_destroy(&x);
    return r;
}

/* ---- Public -------------------------------------------------------------------------------------------------- */

vkat_result vkat_peaks_measure(const vkat_instance *inst, uint32_t device_index, vkat_peaks *out, vkat_error *err)
{
    memset(out, 0, sizeof *out);
    out->mem_gbps = out->fp32_tflops = out->fp16_tflops = out->h2d_gbps = out->d2h_gbps = NAN;
    const vkat_device_info *info = vkat_instance_device(inst, device_index);
    if (!info)
        return vkat_fail(err, VKAT_ERR_USAGE, NULL, 0, "no device %u", device_index);
    vkat_device_key_from_info(info, &out->device);
    vkat_gpu *gpu = NULL;
    vkat_result r = vkat_gpu_create(inst, device_index, &gpu, err);
    if (r)
        return r;
    peak_sizes sz = sizes_for(info);
    vkat_log(VKAT_LOG_DEBUG, "peaks on %s: copy %llu MiB, fma %u x 256 invocations x %u rounds, transfers %llu MiB",
             info->name, (unsigned long long)(sz.copy_bytes >> 20), sz.fma_groups, sz.fma_iters,
             (unsigned long long)(sz.transfer_bytes >> 20));
    r = measure_copy(gpu, &sz, &out->mem_gbps, err);
    if (!r)
        r = measure_fma(gpu, &sz, 0, &out->fp32_tflops, err);
    if (!r && gpu->float16)
        r = measure_fma(gpu, &sz, 1, &out->fp16_tflops, err);
    if (!r)
        r = measure_transfers(gpu, &sz, &out->h2d_gbps, &out->d2h_gbps, err);
    if (!r)
        r = vkat_peaks_measure_coopmat(gpu, out, err);
    vkat_gpu_destroy(gpu);
    return r;
}

double vkat_peaks_fraction(const vkat_peaks *peaks, const vkat_row *row)
{
    if (!peaks || !(row->median_s > 0))
        return NAN;
    double bound = 0;
    double arith = row->tensor[0] ? vkat_peaks_tensor_tflops(peaks, row->tensor) : peaks->fp32_tflops;
    if (row->tensor[0] && row->flops > 0 && !(arith > 0))
        return NAN;
    if (row->flops > 0 && arith > 0)
        bound = fmax(bound, row->flops / (arith * 1e12));
    if (row->bytes > 0 && peaks->mem_gbps > 0)
        bound = fmax(bound, row->bytes / (peaks->mem_gbps * 1e9));
    return bound > 0 ? bound / row->median_s : NAN;
}

double vkat_peaks_transfer_s(const vkat_peaks *peaks, double bytes_in, double bytes_out)
{
    if (!peaks)
        return NAN;
    double s = 0;
    if (bytes_in > 0)
        s += peaks->h2d_gbps > 0 ? bytes_in / (peaks->h2d_gbps * 1e9) : NAN;
    if (bytes_out > 0)
        s += peaks->d2h_gbps > 0 ? bytes_out / (peaks->d2h_gbps * 1e9) : NAN;
    return s;
}
