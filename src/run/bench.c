/* bench.c — runs compiled kernels on one vkat_gpu and times them: workspaces (buffers, seeded data, poison,
 * canaries, descriptors), kernels (pipelines), single checked runs and timestamped measurements.
 *
 * It must not print, exit, or know about spaces and templates; it must never wait without a bound (a kernel that
 * hangs yields VKAT_ERR_TIMEOUT and leaves the workspace able to recover), and it must not destroy a Vulkan
 * object that a timed-out submission may still be using. */
#include "bench.h"
#include "workspace_image.h"
#include "workspace_texel.h"
#include "capabilities.h"
#include "check.h"
#include "slices.h"
#include "spec_encode.h"
#include "util.h"
#include "warmup.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Guard zones around every output (out/inout), filled with a known pattern and checked after each checked run.
 * The smallest one after the data; a buffer whose data leaves the descriptor range no room for it is refused. */
#define CANARY_BYTES 256u
/* The guard after the data, and the one before it, when the range allows: 64 KiB catches a stride or tile
 * off-by-one of up to 16,384 float32 elements (a 128 x 128 float tile, or one row of a 16K-wide matrix) past
 * either end. The front guard is where the descriptor's offset starts; 64 KiB is a multiple of every
 * minStorageBufferOffsetAlignment (at most 256 by the specification). */
#define GUARD_BYTES (64ull << 10)
/* Uploads and read-backs go through a staging buffer of at most this size, so that huge problems do not need
 * a second host-visible copy of every buffer. A multiple of every element size. */
#define STAGING_CHUNK (64ull << 20)
/* Bound on waits that have no caller-supplied timeout (uploads, read-backs, waiting out a timed-out kernel). */
#define TRANSFER_TIMEOUT_NS (60ull * 1000000000ull)
#define MAX_BATCH 65536u

typedef struct ws_buffer {
    vkat_buffer_spec spec; /* spec.name is owned (copied) */
    uint64_t front;        /* guard bytes before the data (out/inout only); the descriptor starts after them */
    uint64_t bytes;        /* data bytes */
    uint64_t canary;       /* guard bytes after the data (out/inout only) */
    /* what the last read-back found in the guards: 0 intact, else where the first damaged byte is */
    int hit_before;
    uint64_t hit_at; /* bytes before the start (hit_before) or past the end of the data */
    VkBuffer buffer;
    VkDeviceMemory memory;
    /* A device-side copy of the initial contents (data, poison, canary), so that a reset is one GPU copy instead
     * of regenerating and uploading everything from the host; VK_NULL_HANDLE when memory did not allow it. */
    VkBuffer pristine;
    VkDeviceMemory pristine_memory;
    vkat_ws_image img; /* an image entry's image (spec.image); its texels mirror `buffer` */
    vkat_ws_texel texel; /* a texel buffer's views of `buffer` (spec.texel) */
} ws_buffer;

struct vkat_workspace {
    vkat_gpu *gpu;
    uint64_t seed;
    size_t count;
    ws_buffer *bufs;
    VkBuffer staging;
    VkDeviceMemory staging_memory;
    unsigned char *staging_map;
    uint64_t staging_size;
    uint32_t set_count; /* descriptor sets 0..set_count-1, the highest any buffer takes (empty ones in between) */
    VkDescriptorSetLayout set_layouts[VKAT_MAX_SETS];
    VkDescriptorPool descriptor_pool;
    VkDescriptorSet sets[VKAT_MAX_SETS];
    /* The same buffers with ranges of their data alone, for a kernel that takes an array's .length(): there the
     * range is what the shader reads, so the guard after an output cannot be in it. */
    VkDescriptorSet exact_sets[VKAT_MAX_SETS];
    VkCommandPool command_pool;
    VkCommandBuffer cmd;
    VkFence fence;
    VkQueryPool queries; /* two timestamps; VK_NULL_HANDLE when the queue has none */
    int pending;         /* a submission timed out: cmd, fence and the resources it uses may still be busy */
    double last_done;    /* vkat_now() when a submission last finished (0: none yet): how long the GPU idled */
    int warned_host_timing;
};

struct vkat_kernel {
    vkat_workspace *ws;
    VkShaderModule module;
    VkPipelineLayout layout;
    VkPipeline pipeline;
    uint32_t push_size;
    char stats[512]; /* driver statistics, "name=value; ...", empty when the driver offers none */
    /* A sequence (vkat_kernel_create_sequence) has no pipeline of its own: it owns `kernels` and dispatches
     * `steps` in order. step_count 0: a plain kernel. */
    vkat_kernel **kernels;
    size_t kernel_count;
    vkat_sequence_step *steps;
    size_t step_count;
    VkDescriptorPool step_pool; /* the sets of remapped steps (VK_NULL_HANDLE: none) */
    VkDescriptorSet *step_sets; /* [step_count]; VK_NULL_HANDLE: the workspace's set */
    const VkDescriptorSet *sets; /* ws->sets, or ws->exact_sets when the shader takes a buffer's .length() */
};

/* ---- Initial data, poison and canaries -------------------------------------------------------------------- */

static uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* Counter-based (splitmix64 at position i of a stream keyed by seed and buffer), so any element can be made
 * without the ones before it and a chunked upload gives the same data as a whole one. */
static uint64_t stream_key(uint64_t seed, size_t buffer_index)
{
    return mix64(seed ^ mix64(0xA0761D6478BD642Full * (uint64_t)(buffer_index + 1)));
}

static double init_value(const vkat_buffer_spec *s, uint64_t key, uint64_t i)
{
    switch (s->init) {
    case VKAT_INIT_CONST: return s->a;
    case VKAT_INIT_IOTA: return s->a + s->b * (double)i;
    case VKAT_INIT_RANDOM: {
        double u = (double)(mix64(key + (i + 1) * 0x9E3779B97F4A7C15ull) >> 11) * 0x1.0p-53; /* [0, 1) */
        return s->a + (s->b - s->a) * u;
    }
    default: return 0.0;
    }
}

/* Integers truncate toward zero and wrap to the element's width; out-of-range doubles clamp first, because
 * converting them to int64 directly is undefined. */
static uint64_t to_bits(double v)
{
    if (v != v)
        return 0;
    if (v >= 9.2e18)
        return (uint64_t)INT64_MAX;
    if (v <= -9.2e18)
        return (uint64_t)INT64_MIN;
    return (uint64_t)(int64_t)v;
}

static void store_element(vkat_elem_type t, double v, unsigned char *p)
{
    switch (t) {
    case VKAT_FLOAT32: {
        float f = (float)v;
        memcpy(p, &f, 4);
        break;
    }
    case VKAT_FLOAT16: {
        uint16_t h = vkat_float_to_half((float)v);
        memcpy(p, &h, 2);
        break;
    }
    case VKAT_BFLOAT16: {
        uint16_t h = vkat_float_to_bf16((float)v);
        memcpy(p, &h, 2);
        break;
    }
    case VKAT_INT32:
    case VKAT_UINT32: {
        uint32_t u = (uint32_t)to_bits(v);
        memcpy(p, &u, 4);
        break;
    }
    case VKAT_UNORM8: *p = (unsigned char)(v != v || v <= 0 ? 0 : v >= 1 ? 255 : (int)(v * 255.0 + 0.5)); break;
    case VKAT_UNORM16: {
        uint16_t u = (uint16_t)(v != v || v <= 0 ? 0 : v >= 1 ? 65535 : (int)(v * 65535.0 + 0.5));
        memcpy(p, &u, 2);
        break;
    }
    default: *p = (unsigned char)to_bits(v); break;
    }
}

void vkat_poison_element(vkat_elem_type type, void *out)
{
    /* NaNs with payloads no arithmetic produces (hardware makes the canonical 0x7FC00000 / 0x7E00 / 0x7FC0) so a
     * computed NaN is not mistaken for an unwritten element; for integers, values that tests rarely produce. */
    uint32_t f32 = 0x7FC0DEADu, i32 = 0xDEADBEEFu;
    uint16_t f16 = 0x7E01u, bf16 = 0x7FC1u;
    switch (type) {
    case VKAT_FLOAT32: memcpy(out, &f32, 4); break;
    case VKAT_FLOAT16: memcpy(out, &f16, 2); break;
    case VKAT_BFLOAT16: memcpy(out, &bf16, 2); break;
    case VKAT_UNORM16: memcpy(out, &f16, 2); break;
    case VKAT_INT32:
    case VKAT_UINT32: memcpy(out, &i32, 4); break;
    default: *(unsigned char *)out = 0xAD; break;
    }
}

static unsigned char canary_byte(uint64_t k)
{
    return (unsigned char)(0xC3u ^ (k * 0x3Bu));
}

/* The guard pattern at byte o of buffer b's region (front guard, data, back guard); its bytes differ along the
 * guard, so a kernel that copies a block of the guard elsewhere in it still changes it. */
static unsigned char guard_byte(const ws_buffer *b, uint64_t o)
{
    return o < b->front ? canary_byte(b->front - o + 0x55u) : canary_byte(o - b->front - b->bytes);
}

/* Writes the fields' bytes that fall in bytes [from, to) of the data into dst (which holds byte `from`). */
static void put_fields(const vkat_buffer_spec *s, uint64_t from, uint64_t to, unsigned char *dst)
{
    for (size_t i = 0; i < s->field_count; i++) {
        const unsigned char *w = (const unsigned char *)&s->field_words[i];
        for (uint64_t o = s->field_offsets[i], k = 0; k < 4; k++)
            if (o + k >= from && o + k < to)
                dst[o + k - from] = w[k];
    }
}

/* Writes bytes [from, to) of buffer b's region (front guard, data, back guard) into dst, as reset leaves them. */
static void fill_region(const vkat_workspace *ws, size_t index, uint64_t from, uint64_t to, unsigned char *dst)
{
    const ws_buffer *b = &ws->bufs[index];
    size_t size = vkat_elem_type_size(b->spec.type);
    uint64_t data_begin = from > b->front ? from : b->front;
    uint64_t data_end = to < b->front + b->bytes ? to : b->front + b->bytes;
    for (uint64_t o = from; o < to && o < b->front; o++) /* the guards only: not a test per byte of the data */
        dst[o - from] = guard_byte(b, o);
    for (uint64_t o = from > b->front + b->bytes ? from : b->front + b->bytes; o < to; o++)
        dst[o - from] = guard_byte(b, o);
    if (data_begin < data_end) {
        /* the front guard and the chunks are multiples of every element size */
        uint64_t first = (data_begin - b->front) / size, last = (data_end - b->front) / size;
        unsigned char *d = dst + (data_begin - from);
        if (b->spec.dir == VKAT_DIR_OUT) {
            unsigned char poison[4];
            vkat_poison_element(b->spec.type, poison);
            for (uint64_t i = first; i < last; i++)
                memcpy(d + (i - first) * size, poison, size);
        } else {
            uint64_t key = stream_key(ws->seed, index);
            for (uint64_t i = first; i < last; i++)
                store_element(b->spec.type, init_value(&b->spec, key, i), d + (i - first) * size);
            put_fields(&b->spec, data_begin - b->front, data_end - b->front, d);
        }
    }
}

/* fill_region in slices on several threads (slices.h): each element's bytes depend on its index alone. */
typedef struct fill_job {
    const vkat_workspace *ws;
    size_t index;
    uint64_t from;
    unsigned char *dst;
} fill_job;

static void fill_slice(void *user, uint64_t from, uint64_t to)
{
    const fill_job *f = user;
    fill_region(f->ws, f->index, f->from + from, f->from + to, f->dst + from);
}

/* Bytes of buffer b's allocation: front guard, data, back guard. */
static uint64_t region_bytes(const ws_buffer *b)
{
    return b->front + b->bytes + b->canary;
}

/* The guards of an output of `data` bytes: GUARD_BYTES after it as far as maxStorageBufferRange (which the
 * descriptor's range, data and back guard, must fit; a texel buffer's view maxTexelBufferElements) allows,
 * CANARY_BYTES at least (check_sizes refused the rest); GUARD_BYTES before it when maxBufferSize leaves room. */
static void plan_guards(const vkat_gpu *gpu, const vkat_buffer_spec *s, uint64_t data, uint64_t *front,
                        uint64_t *back)
{
    *front = *back = 0;
    if (!(s->dir & VKAT_DIR_OUT) || s->image) /* a kernel cannot write outside an image */
        return;
    /* a texel buffer's view (data and back guard) is bounded by maxTexelBufferElements instead */
    uint64_t range = s->texel ? vkat_ws_texel_range_limit(gpu, s) : gpu->info->max_storage_buffer_range;
    uint64_t limit = gpu->info->max_buffer_size, unit = s->texel ? vkat_ws_texel_bytes(s) : 4;
    *back = range - data < GUARD_BYTES ? range - data : GUARD_BYTES;
    if (limit && data + *back > limit)
        *back = CANARY_BYTES;
    *back -= *back % unit; /* a whole number of elements (of texels for a texel buffer's view) */
    if (!limit || data + *back + GUARD_BYTES <= limit)
        *front = GUARD_BYTES;
}

/* ---- Submissions ---------------------------------------------------------------------------------------------- */

static vkat_result timeout_error(vkat_error *err, uint64_t timeout_ns, const char *what)
{
    vkat_fail(err, VKAT_ERR_TIMEOUT, NULL, 0, "%s did not finish within %.3g s (the time limit of one submission)",
              what, (double)timeout_ns * 1e-9);
    if (err)
        err->vk_result = VK_TIMEOUT;
    return VKAT_ERR_TIMEOUT;
}

/* Waits out a submission that timed out earlier, so its command buffer and fence can be used again. */
static vkat_result settle(vkat_workspace *ws, uint64_t timeout_ns, vkat_error *err)
{
    if (!ws->pending)
        return VKAT_OK;
    VkResult vr = vkWaitForFences(ws->gpu->device, 1, &ws->fence, VK_TRUE, timeout_ns);
    if (vr == VK_TIMEOUT)
        return timeout_error(err, timeout_ns, "an earlier submission that timed out");
    if (vr != VK_SUCCESS)
        return vkat_fail_vk(err, vr, "vkWaitForFences (earlier submission)");
    ws->pending = 0;
    return VKAT_OK;
}

static vkat_result begin(vkat_workspace *ws, uint64_t timeout_ns, vkat_error *err)
{
    vkat_result r = settle(ws, timeout_ns, err);
    if (r)
        return r;
    VkResult vr = vkResetCommandBuffer(ws->cmd, 0);
    if (vr != VK_SUCCESS)
        return vkat_fail_vk(err, vr, "vkResetCommandBuffer");
    VkCommandBufferBeginInfo bi = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO};
    bi.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
    vr = vkBeginCommandBuffer(ws->cmd, &bi);
    if (vr != VK_SUCCESS)
        return vkat_fail_vk(err, vr, "vkBeginCommandBuffer");
    return VKAT_OK;
}

static vkat_result submit_wait(vkat_workspace *ws, uint64_t timeout_ns, const char *what, vkat_error *err)
{
    VkResult vr = vkEndCommandBuffer(ws->cmd);
    if (vr != VK_SUCCESS)
        return vkat_fail_vk(err, vr, "vkEndCommandBuffer");
    vr = vkResetFences(ws->gpu->device, 1, &ws->fence);
    if (vr != VK_SUCCESS)
        return vkat_fail_vk(err, vr, "vkResetFences");
    VkSubmitInfo si = {VK_STRUCTURE_TYPE_SUBMIT_INFO};
    si.commandBufferCount = 1;
    si.pCommandBuffers = &ws->cmd;
    vr = vkQueueSubmit(ws->gpu->queue, 1, &si, ws->fence);
    if (vr != VK_SUCCESS)
        return vkat_fail_vk(err, vr, "vkQueueSubmit");
    vr = vkWaitForFences(ws->gpu->device, 1, &ws->fence, VK_TRUE, timeout_ns);
    if (vr == VK_SUCCESS) {
        ws->last_done = vkat_now();
        return VKAT_OK;
    }
    ws->pending = 1;
    if (vr == VK_TIMEOUT)
        return timeout_error(err, timeout_ns, what);
    return vkat_fail_vk(err, vr, "vkWaitForFences");
}

static void memory_barrier(VkCommandBuffer cmd, VkPipelineStageFlags src_stage, VkAccessFlags src_access,
                           VkPipelineStageFlags dst_stage, VkAccessFlags dst_access)
{
    VkMemoryBarrier mb = {VK_STRUCTURE_TYPE_MEMORY_BARRIER};
    mb.srcAccessMask = src_access;
    mb.dstAccessMask = dst_access;
    vkCmdPipelineBarrier(cmd, src_stage, dst_stage, 0, 1, &mb, 0, NULL, 0, NULL);
}

/* Submits what `record` records, working in `stage` with `access` (of which `writes` write), between barriers
 * that order it after earlier dispatches and transfers and make its writes visible to later dispatches, transfers
 * and the host; waiting on a fence alone gives no memory dependency. */
static vkat_result submit_between_barriers(vkat_workspace *ws, vkat_record_fn record, void *user,
                                           VkPipelineStageFlags stage, VkAccessFlags access, VkAccessFlags writes,
                                           uint64_t timeout_ns, const char *what, vkat_error *err)
{
    vkat_result r = begin(ws, timeout_ns, err);
    if (r)
        return r;
    memory_barrier(ws->cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                   VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT, stage, access);
    record(ws->cmd, user);
    memory_barrier(ws->cmd, stage, writes,
                   VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT | VK_PIPELINE_STAGE_HOST_BIT,
                   VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_READ_BIT |
                       VK_ACCESS_TRANSFER_WRITE_BIT | VK_ACCESS_HOST_READ_BIT);
    return submit_wait(ws, timeout_ns, what, err);
}

typedef struct chunk_copy {
    VkBuffer src, dst;
    VkBufferCopy region;
} chunk_copy;

static void record_copy(VkCommandBuffer cmd, void *user)
{
    const chunk_copy *c = user;
    vkCmdCopyBuffer(cmd, c->src, c->dst, 1, &c->region);
}

/* Copies one chunk between the staging buffer and `buffer` at `offset` (to_device: upload). */
static vkat_result copy_chunk(vkat_workspace *ws, VkBuffer buffer, uint64_t offset, uint64_t size, int to_device,
                              vkat_error *err)
{
    chunk_copy c = {ws->staging, buffer, {0, offset, size}};
    if (!to_device)
        c = (chunk_copy){buffer, ws->staging, {offset, 0, size}};
    return submit_between_barriers(ws, record_copy, &c, VK_PIPELINE_STAGE_TRANSFER_BIT,
                                   VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT,
                                   VK_ACCESS_TRANSFER_WRITE_BIT, TRANSFER_TIMEOUT_NS,
                                   to_device ? "an upload" : "a read-back", err);
}

/* ---- Workspaces ------------------------------------------------------------------------------------------------ */

static int largest_heap(const VkPhysicalDeviceMemoryProperties *m, uint64_t *size)
{
    int best = -1, best_local = 0;
    for (uint32_t i = 0; i < m->memoryHeapCount; i++) {
        int local = !!(m->memoryHeaps[i].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT);
        if (best < 0 || local > best_local || (local == best_local && m->memoryHeaps[i].size > *size)) {
            best = (int)i;
            best_local = local;
            *size = m->memoryHeaps[i].size;
        }
    }
    return best;
}

/* Everything that can be rejected without allocating: empty or oversized buffers, and a total beyond the
 * device-local heap. */
static vkat_result check_sizes(const vkat_gpu *gpu, const vkat_buffer_spec *buffers, size_t count, vkat_error *err)
{
    uint64_t heap = 0, total = 0;
    largest_heap(&gpu->memory, &heap);
    for (size_t i = 0; i < count; i++) {
        const vkat_buffer_spec *s = &buffers[i];
        const char *name = s->name ? s->name : "?";
        size_t size = vkat_elem_type_size(s->type);
        if (size == 0)
            return vkat_fail(err, VKAT_ERR_INTERNAL, NULL, 0, "buffer '%s' has an unknown element type", name);
        if (s->count == 0)
            return vkat_fail(err, VKAT_ERR_LIMITS, NULL, 0, "buffer '%s' has no elements", name);
        if (s->count > (UINT64_MAX - CANARY_BYTES) / size)
            return vkat_fail(err, VKAT_ERR_LIMITS, NULL, 0, "buffer '%s': %llu elements overflow a 64-bit size", name,
                             (unsigned long long)s->count);
        uint64_t canary = s->dir & VKAT_DIR_OUT && !s->image ? CANARY_BYTES : 0;
        uint64_t alloc = s->count * size + canary; /* the descriptor's range, canary included */
        vkat_result r = s->image   ? vkat_ws_image_check(gpu, s, err)
                        : s->texel ? vkat_ws_texel_check(gpu, s, alloc, err)
                                   : VKAT_OK;
        if (r)
            return r;
        if (!s->image && !s->texel && alloc > gpu->info->max_storage_buffer_range)
            return vkat_fail(err, VKAT_ERR_LIMITS, NULL, 0,
                             "buffer '%s' needs %llu bytes (%llu of them canary), beyond the device's "
                             "maxStorageBufferRange of %u bytes",
                             name, (unsigned long long)alloc, (unsigned long long)canary,
                             gpu->info->max_storage_buffer_range);
        uint32_t ubo_range = gpu->info->max_uniform_buffer_range ? gpu->info->max_uniform_buffer_range : 16384;
        if (s->uniform && !s->texel && alloc > ubo_range)
            return vkat_fail(err, VKAT_ERR_LIMITS, NULL, 0,
                             "uniform buffer '%s' needs %llu bytes, beyond the device's maxUniformBufferRange of %u "
                             "bytes", name, (unsigned long long)alloc, ubo_range);
        if (gpu->info->max_buffer_size && alloc > gpu->info->max_buffer_size)
            return vkat_fail(err, VKAT_ERR_LIMITS, NULL, 0,
                             "buffer '%s' needs %llu bytes, beyond the device's maxBufferSize of %llu bytes", name,
                             (unsigned long long)alloc, (unsigned long long)gpu->info->max_buffer_size);
        total += s->image ? 2 * alloc : alloc; /* an image and the buffer its texels mirror */
        if (total > heap)
            return vkat_fail(err, VKAT_ERR_LIMITS, NULL, 0,
                             "buffer '%s' brings the problem to %llu bytes, beyond the device-local heap of %llu "
                             "bytes",
                             name, (unsigned long long)total, (unsigned long long)heap);
    }
    return VKAT_OK;
}

/* The space says which buffers are uniform; the template's bindings were checked against it (tune.c). */
static VkDescriptorType descriptor_type(const vkat_buffer_spec *spec)
{
    if (spec->image)
        return vkat_ws_image_descriptor_type(spec);
    if (spec->texel)
        return vkat_ws_texel_descriptor_type(spec);
    return spec->uniform ? VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER : VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
}

/* Descriptors of each type the workspace's entries take, for a pool of `sets` copies of its sets. */
#define POOL_TYPES 6
static uint32_t pool_sizes(const vkat_workspace *ws, uint32_t sets, VkDescriptorPoolSize sizes[POOL_TYPES])
{
    static const VkDescriptorType types[POOL_TYPES] = {
        VK_DESCRIPTOR_TYPE_STORAGE_BUFFER,       VK_DESCRIPTOR_TYPE_UNIFORM_BUFFER,
        VK_DESCRIPTOR_TYPE_STORAGE_IMAGE,        VK_DESCRIPTOR_TYPE_COMBINED_IMAGE_SAMPLER,
        VK_DESCRIPTOR_TYPE_STORAGE_TEXEL_BUFFER, VK_DESCRIPTOR_TYPE_UNIFORM_TEXEL_BUFFER};
    uint32_t n = 0;
    for (int t = 0; t < POOL_TYPES; t++) {
        uint32_t count = 0;
        for (size_t i = 0; i < ws->count; i++)
            count += descriptor_type(&ws->bufs[i].spec) == types[t];
        if (count || (t == 0 && ws->count == 0))
            sizes[n++] = (VkDescriptorPoolSize){types[t], (count ? count : 1) * sets};
    }
    return n;
}

/* Buffer i's descriptor slot: where the space placed it, else set 0 at its index. */
static void buffer_slot(const vkat_workspace *ws, size_t i, uint32_t *set, uint32_t *binding)
{
    const vkat_buffer_spec *spec = &ws->bufs[i].spec;
    *set = spec->placed ? spec->set : 0;
    *binding = spec->placed ? spec->binding : (uint32_t)i;
}

/* The descriptor write of buffer i into the workspace's sets (exact: its exact_sets). The range of an output
 * covers the canary too, except in the exact sets: drivers that clamp accesses to the descriptor's range (lavapipe
 * and the H200's do, robustness or not: records/h200/s15-lead-call1) would otherwise drop an overrun silently
 * instead of letting it hit the canary. */
static void describe_buffer(const vkat_workspace *ws, size_t i, int exact, VkDescriptorBufferInfo *info,
                            VkDescriptorImageInfo *image_info, VkWriteDescriptorSet *write)
{
    uint32_t set, binding;
    buffer_slot(ws, i, &set, &binding);
    const ws_buffer *b = &ws->bufs[i];
    *info = (VkDescriptorBufferInfo){b->buffer, b->front, b->bytes + (exact ? 0 : b->canary)};
    *write = (VkWriteDescriptorSet){VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET};
    write->dstSet = exact ? ws->exact_sets[set] : ws->sets[set];
    write->dstBinding = binding;
    write->descriptorCount = 1;
    write->descriptorType = descriptor_type(&b->spec);
    write->pBufferInfo = info;
    if (b->spec.image) {
        *image_info = vkat_ws_image_descriptor(&b->img);
        write->pBufferInfo = NULL;
        write->pImageInfo = image_info;
    } else if (b->spec.texel) { /* the view over the data and the guard, or the data alone */
        write->pBufferInfo = NULL;
        write->pTexelBufferView = exact ? &b->texel.exact_view : &b->texel.view;
    }
}

/* One layout and one descriptor set per set number up to the highest a buffer takes; each set holds its buffers. */
static vkat_result create_descriptors(vkat_workspace *ws, vkat_error *err)
{
    VkDevice dev = ws->gpu->device;
    vkat_result r = VKAT_OK;
    size_t n = ws->count ? ws->count : 1;
    VkDescriptorSetLayoutBinding *bindings = calloc(n, sizeof *bindings);
    VkDescriptorBufferInfo *infos = calloc(n, sizeof *infos);
    VkDescriptorImageInfo *image_infos = calloc(n, sizeof *image_infos);
    VkWriteDescriptorSet *writes = calloc(n, sizeof *writes);
    if (!bindings || !infos || !image_infos || !writes) {
        r = vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
        goto cleanup;
    }
    VkPhysicalDeviceProperties props;
    vkGetPhysicalDeviceProperties(ws->gpu->physical, &props);
    ws->set_count = 1;
    for (size_t i = 0; i < ws->count; i++) {
        uint32_t set, binding;
        buffer_slot(ws, i, &set, &binding);
        if (set >= VKAT_MAX_SETS || set >= props.limits.maxBoundDescriptorSets) {
            r = vkat_fail(err, VKAT_ERR_LIMITS, NULL, 0,
                          "buffer '%s' takes descriptor set %u; the device binds sets 0..%u (maxBoundDescriptorSets)",
                          ws->bufs[i].spec.name, set, props.limits.maxBoundDescriptorSets - 1);
            goto cleanup;
        }
        ws->set_count = set + 1 > ws->set_count ? set + 1 : ws->set_count;
    }
    for (uint32_t set = 0; set < ws->set_count; set++) {
        uint32_t k = 0;
        for (size_t i = 0; i < ws->count; i++) {
            uint32_t s, binding;
            buffer_slot(ws, i, &s, &binding);
            if (s != set)
                continue;
            bindings[k].binding = binding;
            bindings[k].descriptorType = descriptor_type(&ws->bufs[i].spec);
            bindings[k].descriptorCount = 1;
            bindings[k++].stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
        }
        VkDescriptorSetLayoutCreateInfo lci = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
        lci.bindingCount = k;
        lci.pBindings = bindings;
        VkResult vr = vkCreateDescriptorSetLayout(dev, &lci, NULL, &ws->set_layouts[set]);
        if (vr != VK_SUCCESS) {
            ws->set_layouts[set] = VK_NULL_HANDLE;
            r = vkat_fail_vk(err, vr, "vkCreateDescriptorSetLayout");
            goto cleanup;
        }
    }
    VkDescriptorPoolSize ps[POOL_TYPES];
    VkDescriptorPoolCreateInfo pci = {VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    pci.maxSets = 2 * ws->set_count;
    pci.poolSizeCount = pool_sizes(ws, 2, ps);
    pci.pPoolSizes = ps;
    VkResult vr = vkCreateDescriptorPool(dev, &pci, NULL, &ws->descriptor_pool);
    if (vr != VK_SUCCESS) {
        r = vkat_fail_vk(err, vr, "vkCreateDescriptorPool");
        goto cleanup;
    }
    VkDescriptorSetAllocateInfo ai = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    ai.descriptorPool = ws->descriptor_pool;
    ai.descriptorSetCount = ws->set_count;
    ai.pSetLayouts = ws->set_layouts;
    vr = vkAllocateDescriptorSets(dev, &ai, ws->sets);
    if (vr == VK_SUCCESS)
        vr = vkAllocateDescriptorSets(dev, &ai, ws->exact_sets);
    if (vr != VK_SUCCESS) {
        r = vkat_fail_vk(err, vr, "vkAllocateDescriptorSets");
        goto cleanup;
    }
    for (int exact = 0; exact < 2 && ws->count; exact++) {
        for (size_t i = 0; i < ws->count; i++)
            describe_buffer(ws, i, exact, &infos[i], &image_infos[i], &writes[i]);
        vkUpdateDescriptorSets(dev, (uint32_t)ws->count, writes, 0, NULL);
    }
cleanup:
    free(bindings);
    free(infos);
    free(image_infos);
    free(writes);
    return r;
}

static vkat_result create_commands(vkat_workspace *ws, vkat_error *err)
{
    VkDevice dev = ws->gpu->device;
    VkCommandPoolCreateInfo cpci = {VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO};
    cpci.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    cpci.queueFamilyIndex = ws->gpu->queue_family;
    VkResult vr = vkCreateCommandPool(dev, &cpci, NULL, &ws->command_pool);
    if (vr != VK_SUCCESS)
        return vkat_fail_vk(err, vr, "vkCreateCommandPool");
    VkCommandBufferAllocateInfo cbai = {VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO};
    cbai.commandPool = ws->command_pool;
    cbai.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    cbai.commandBufferCount = 1;
    vr = vkAllocateCommandBuffers(dev, &cbai, &ws->cmd);
    if (vr != VK_SUCCESS)
        return vkat_fail_vk(err, vr, "vkAllocateCommandBuffers");
    VkFenceCreateInfo fci = {VK_STRUCTURE_TYPE_FENCE_CREATE_INFO};
    vr = vkCreateFence(dev, &fci, NULL, &ws->fence);
    if (vr != VK_SUCCESS)
        return vkat_fail_vk(err, vr, "vkCreateFence");
    if (ws->gpu->info->timestamp_valid_bits > 0) {
        VkQueryPoolCreateInfo qci = {VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO};
        qci.queryType = VK_QUERY_TYPE_TIMESTAMP;
        qci.queryCount = 2;
        vr = vkCreateQueryPool(dev, &qci, NULL, &ws->queries);
        if (vr != VK_SUCCESS)
            return vkat_fail_vk(err, vr, "vkCreateQueryPool");
    }
    return VKAT_OK;
}

/* Is entry `index` an image (SIZE_MAX: is any)? */
static int has_images(const vkat_workspace *ws, size_t index)
{
    for (size_t i = 0; i < ws->count; i++)
        if (ws->bufs[i].spec.image && (index == SIZE_MAX || index == i))
            return 1;
    return 0;
}

/* The images of the workspace into GENERAL, once after creation (submit_between_barriers' record function). */
static void record_image_init(VkCommandBuffer cmd, void *user)
{
    const vkat_workspace *ws = user;
    for (size_t i = 0; i < ws->count; i++)
        if (ws->bufs[i].spec.image)
            vkat_ws_image_record_init(cmd, &ws->bufs[i].img);
}

typedef struct image_sync {
    const vkat_workspace *ws;
    size_t index; /* SIZE_MAX: every image */
    int to_image;
} image_sync;

static void record_image_sync(VkCommandBuffer cmd, void *user)
{
    const image_sync *y = user;
    for (size_t i = 0; i < y->ws->count; i++)
        if (y->ws->bufs[i].spec.image && (y->index == SIZE_MAX || y->index == i))
            vkat_ws_image_record_copy(cmd, &y->ws->bufs[i].img, y->ws->bufs[i].buffer, y->ws->bufs[i].front,
                                      y->to_image);
}

/* Copies image entry `index` (SIZE_MAX: every one) from its buffer into its image (to_image) or back, in one
 * submission between barriers; nothing when there is no such image. */
static vkat_result sync_images(vkat_workspace *ws, size_t index, int to_image, vkat_error *err)
{
    if (!has_images(ws, index))
        return VKAT_OK;
    image_sync y = {ws, index, to_image};
    return submit_between_barriers(ws, record_image_sync, &y, VK_PIPELINE_STAGE_TRANSFER_BIT,
                                   VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT,
                                   VK_ACCESS_TRANSFER_WRITE_BIT, TRANSFER_TIMEOUT_NS,
                                   to_image ? "an image upload" : "an image read-back", err);
}

/* Copies every buffer's pristine copy over it (to_pristine = 0) or the other way round, in one submission. */
static vkat_result copy_pristine(vkat_workspace *ws, int to_pristine, vkat_error *err)
{
    vkat_result r = begin(ws, TRANSFER_TIMEOUT_NS, err);
    if (r)
        return r;
    memory_barrier(ws->cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                   VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT,
                   VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT);
    for (size_t i = 0; i < ws->count; i++) {
        VkBufferCopy region = {0, 0, region_bytes(&ws->bufs[i])};
        if (to_pristine)
            vkCmdCopyBuffer(ws->cmd, ws->bufs[i].buffer, ws->bufs[i].pristine, 1, &region);
        else
            vkCmdCopyBuffer(ws->cmd, ws->bufs[i].pristine, ws->bufs[i].buffer, 1, &region);
    }
    memory_barrier(ws->cmd, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT,
                   VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                   VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_READ_BIT);
    return submit_wait(ws, TRANSFER_TIMEOUT_NS, "a reset", err);
}

static int has_pristine(const vkat_workspace *ws)
{
    for (size_t i = 0; i < ws->count; i++)
        if (!ws->bufs[i].pristine)
            return 0;
    return ws->count > 0;
}

/* Makes the pristine copies after the first upload. Out of memory is not an error: resets then take the host
 * path, which is slower but the same. */
static vkat_result make_pristine(vkat_workspace *ws, vkat_error *err)
{
    const VkMemoryPropertyFlags prefer[] = {VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT};
    for (size_t i = 0; i < ws->count; i++) {
        ws_buffer *b = &ws->bufs[i];
        vkat_error ignored = {0};
        if (vkat_gpu_make_buffer(ws->gpu, region_bytes(b),
                        VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT, prefer,
                        VKAT_COUNTOF(prefer), &b->pristine, &b->pristine_memory, &ignored) != VKAT_OK) {
            vkat_log(VKAT_LOG_DEBUG, "no room for a device-side copy of buffer '%s'; resets go through the host",
                     b->spec.name);
            return VKAT_OK;
        }
    }
    return copy_pristine(ws, 1, err);
}

vkat_result vkat_workspace_create(vkat_gpu *gpu, const vkat_buffer_spec *buffers, size_t count, uint64_t seed,
                                  vkat_workspace **out, vkat_error *err)
{
    *out = NULL;
    vkat_result r = check_sizes(gpu, buffers, count, err);
    if (r)
        return r;
    vkat_workspace *ws = calloc(1, sizeof *ws);
    if (!ws)
        return vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
    ws->gpu = gpu;
    ws->seed = seed;
    ws->bufs = calloc(count ? count : 1, sizeof *ws->bufs);
    if (!ws->bufs) {
        r = vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
        goto cleanup;
    }
    uint64_t largest = 0;
    for (size_t i = 0; i < count; i++) {
        ws_buffer *b = &ws->bufs[i];
        b->spec = buffers[i];
        b->spec.name = vkat_strdup(buffers[i].name ? buffers[i].name : "");
        b->spec.field_offsets = b->spec.field_words = NULL;
        uint32_t *fields = buffers[i].field_count ? malloc(2 * buffers[i].field_count * sizeof *fields) : NULL;
        if (fields) {
            memcpy(fields, buffers[i].field_offsets, buffers[i].field_count * sizeof *fields);
            memcpy(fields + buffers[i].field_count, buffers[i].field_words, buffers[i].field_count * sizeof *fields);
            b->spec.field_offsets = fields;
            b->spec.field_words = fields + buffers[i].field_count;
        }
        ws->count = i + 1; /* from here on destroy releases this buffer */
        if (!b->spec.name || (buffers[i].field_count && !fields)) {
            r = vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
            goto cleanup;
        }
        b->bytes = b->spec.count * vkat_elem_type_size(b->spec.type);
        plan_guards(gpu, &b->spec, b->bytes, &b->front, &b->canary);
        if (region_bytes(b) > largest)
            largest = region_bytes(b);
        /* Device-local when the device has it (every GPU); the upload goes through staging regardless, so the
         * path real GPUs take is the one tested on lavapipe, whose memory is all host-visible. */
        const VkMemoryPropertyFlags prefer[] = {VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0};
        VkBufferUsageFlags usage = b->spec.image     ? 0 /* only copied to and from the image */
                                   : b->spec.texel   ? vkat_ws_texel_usage(&b->spec)
                                   : b->spec.uniform ? VK_BUFFER_USAGE_UNIFORM_BUFFER_BIT
                                                     : VK_BUFFER_USAGE_STORAGE_BUFFER_BIT;
        r = vkat_gpu_make_buffer(gpu, region_bytes(b),
                                 usage | VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT, prefer,
                                 VKAT_COUNTOF(prefer), &b->buffer, &b->memory, err);
        if (!r && b->spec.image)
            r = vkat_ws_image_create(gpu, &b->spec, &b->img, err);
        if (!r && b->spec.texel)
            r = vkat_ws_texel_create(gpu, &b->spec, b->buffer, b->front, b->bytes, b->canary, &b->texel, err);
        if (r)
            goto cleanup;
    }
    ws->staging_size = largest < STAGING_CHUNK ? largest : STAGING_CHUNK;
    if (ws->staging_size == 0)
        ws->staging_size = 4;
    const VkMemoryPropertyFlags host[] = {VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT |
                                              VK_MEMORY_PROPERTY_HOST_CACHED_BIT,
                                          VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT};
    r = vkat_gpu_make_buffer(gpu, ws->staging_size, VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT, host,
                    VKAT_COUNTOF(host), &ws->staging, &ws->staging_memory, err);
    if (r)
        goto cleanup;
    void *map = NULL;
    VkResult vr = vkMapMemory(gpu->device, ws->staging_memory, 0, VK_WHOLE_SIZE, 0, &map);
    if (vr != VK_SUCCESS) {
        r = vkat_fail_vk(err, vr, "vkMapMemory");
        goto cleanup;
    }
    ws->staging_map = map;
    r = create_descriptors(ws, err);
    if (r)
        goto cleanup;
    r = create_commands(ws, err);
    if (r)
        goto cleanup;
    if (has_images(ws, SIZE_MAX) &&
        (r = submit_between_barriers(ws, record_image_init, ws, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 0,
                                     TRANSFER_TIMEOUT_NS, "preparing images", err)) != VKAT_OK)
        goto cleanup;
    r = vkat_workspace_reset(ws, err);
    if (r == VKAT_OK)
        r = make_pristine(ws, err);
cleanup:
    if (r) {
        vkat_workspace_destroy(ws);
        return r;
    }
    *out = ws;
    return VKAT_OK;
}

void vkat_workspace_destroy(vkat_workspace *ws)
{
    if (!ws)
        return;
    VkDevice dev = ws->gpu->device;
    int leak = 0;
    if (ws->pending) {
        VkResult vr = vkWaitForFences(dev, 1, &ws->fence, VK_TRUE, TRANSFER_TIMEOUT_NS);
        /* Destroying objects a running submission uses is undefined behaviour; after a loss nothing runs. */
        leak = vr == VK_TIMEOUT;
        if (leak)
            vkat_log(VKAT_LOG_ERROR,
                     "a timed-out kernel is still running after %.0f s; its workspace's Vulkan "
                     "objects are left for the device's destruction",
                     TRANSFER_TIMEOUT_NS * 1e-9);
    }
    if (!leak) {
        if (ws->queries)
            vkDestroyQueryPool(dev, ws->queries, NULL);
        if (ws->fence)
            vkDestroyFence(dev, ws->fence, NULL);
        if (ws->command_pool)
            vkDestroyCommandPool(dev, ws->command_pool, NULL); /* frees ws->cmd */
        if (ws->descriptor_pool)
            vkDestroyDescriptorPool(dev, ws->descriptor_pool, NULL); /* frees ws->sets */
        for (uint32_t i = 0; i < VKAT_MAX_SETS; i++)
            if (ws->set_layouts[i])
                vkDestroyDescriptorSetLayout(dev, ws->set_layouts[i], NULL);
        if (ws->staging_map)
            vkUnmapMemory(dev, ws->staging_memory);
        if (ws->staging)
            vkDestroyBuffer(dev, ws->staging, NULL);
        if (ws->staging_memory)
            vkFreeMemory(dev, ws->staging_memory, NULL);
    }
    for (size_t i = ws->count; i-- > 0;) {
        ws_buffer *b = &ws->bufs[i];
        if (!leak && b->pristine)
            vkDestroyBuffer(dev, b->pristine, NULL);
        if (!leak && b->pristine_memory)
            vkFreeMemory(dev, b->pristine_memory, NULL);
        if (!leak)
            vkat_ws_texel_destroy(dev, &b->texel); /* its views before their buffer */
        if (!leak && b->buffer)
            vkDestroyBuffer(dev, b->buffer, NULL);
        if (!leak && b->memory)
            vkFreeMemory(dev, b->memory, NULL);
        if (!leak)
            vkat_ws_image_destroy(dev, &b->img);
        free((char *)b->spec.name);
        free((uint32_t *)b->spec.field_offsets); /* one allocation with the words */
    }
    free(ws->bufs);
    free(ws);
}

/* Every buffer back to its initial contents: from its device-side copy, else from the host. */
static vkat_result restore_buffers(vkat_workspace *ws, vkat_error *err)
{
    if (has_pristine(ws))
        return copy_pristine(ws, 0, err);
    for (size_t i = 0; i < ws->count; i++) {
        uint64_t total = region_bytes(&ws->bufs[i]);
        for (uint64_t off = 0; off < total; off += ws->staging_size) {
            uint64_t n = total - off < ws->staging_size ? total - off : ws->staging_size;
            /* The staging buffer may still be read by a timed-out upload: settle before writing into it. */
            vkat_result r = settle(ws, TRANSFER_TIMEOUT_NS, err);
            if (r)
                return r;
            fill_job f = {ws, i, off, ws->staging_map};
            vkat_slices_run(n, 64, 1u << 20, fill_slice, &f); /* 64: a multiple of every element size */
            r = copy_chunk(ws, ws->bufs[i].buffer, off, n, 1, err);
            if (r)
                return r;
        }
    }
    return VKAT_OK;
}

vkat_result vkat_workspace_reset(vkat_workspace *ws, vkat_error *err)
{
    vkat_result r = restore_buffers(ws, err);
    return r ? r : sync_images(ws, SIZE_MAX, 1, err);
}

/* Are the guard bytes among [off, off + n) of buffer b's region, as the staging buffer holds them, intact? The
 * first damaged byte is kept in b->hit_*: the farthest before the data, else the nearest after it (where a
 * write past the end starts). */
static int guards_intact(const vkat_workspace *ws, ws_buffer *b, uint64_t off, uint64_t n)
{
    int ok = 1;
    uint64_t data_end = b->front + b->bytes;
    for (uint64_t o = off; o < off + n && o < b->front; o++)
        if (ws->staging_map[o - off] != guard_byte(b, o)) {
            ok = 0;
            if (!b->hit_at) {
                b->hit_before = 1;
                b->hit_at = b->front - o;
            }
        }
    for (uint64_t o = off > data_end ? off : data_end; o < off + n; o++)
        if (ws->staging_map[o - off] != guard_byte(b, o)) {
            if (!b->hit_at) {
                b->hit_before = 0;
                b->hit_at = o - data_end + 1;
            }
            return 0;
        }
    return ok;
}

vkat_result vkat_workspace_read(vkat_workspace *ws, size_t index, void **data, int *canary_ok, vkat_error *err)
{
    *data = NULL;
    *canary_ok = 0;
    if (index >= ws->count)
        return vkat_fail(err, VKAT_ERR_INTERNAL, NULL, 0, "buffer index %zu out of range (%zu buffers)", index,
                         ws->count);
    ws_buffer *b = &ws->bufs[index];
    vkat_result sr = sync_images(ws, index, 0, err);
    if (sr)
        return sr;
    unsigned char *host = malloc(b->bytes);
    if (!host)
        return vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory reading buffer '%s'", b->spec.name);
    int ok = 1;
    b->hit_before = 0;
    b->hit_at = 0;
    uint64_t total = region_bytes(b), data_end = b->front + b->bytes;
    for (uint64_t off = 0; off < total; off += ws->staging_size) {
        uint64_t n = total - off < ws->staging_size ? total - off : ws->staging_size;
        vkat_result r = copy_chunk(ws, b->buffer, off, n, 0, err);
        if (r) {
            free(host);
            return r;
        }
        uint64_t from = off > b->front ? off : b->front, to = off + n < data_end ? off + n : data_end;
        if (from < to)
            memcpy(host + (from - b->front), ws->staging_map + (from - off), to - from);
        if (!guards_intact(ws, b, off, n))
            ok = 0;
    }
    *data = host;
    *canary_ok = ok;
    return VKAT_OK;
}

vkat_result vkat_workspace_read_canary(vkat_workspace *ws, size_t index, int *canary_ok, vkat_error *err)
{
    *canary_ok = 0;
    if (index >= ws->count)
        return vkat_fail(err, VKAT_ERR_INTERNAL, NULL, 0, "buffer index %zu out of range (%zu buffers)", index,
                         ws->count);
    ws_buffer *b = &ws->bufs[index];
    int ok = 1;
    b->hit_before = 0;
    b->hit_at = 0;
    /* The staging buffer holds at least the largest region, so one chunk takes a whole guard. */
    const uint64_t at[2] = {0, b->front + b->bytes}, len[2] = {b->front, b->canary};
    for (int g = 0; g < 2; g++) {
        if (!len[g])
            continue;
        vkat_result r = copy_chunk(ws, b->buffer, at[g], len[g], 0, err);
        if (r)
            return r;
        if (!guards_intact(ws, b, at[g], len[g]))
            ok = 0;
    }
    *canary_ok = ok;
    return VKAT_OK;
}

const char *vkat_workspace_guard_hit(const vkat_workspace *ws, size_t index, char *buf, size_t size)
{
    const ws_buffer *b = &ws->bufs[index];
    if (!b->hit_at)
        snprintf(buf, size, "did not write outside buffer '%s'", b->spec.name);
    else if (b->hit_before)
        snprintf(buf, size, "wrote before the start of buffer '%s' (%llu bytes before it)", b->spec.name,
                 (unsigned long long)b->hit_at);
    else if (b->hit_at == 1)
        snprintf(buf, size, "wrote past the end of buffer '%s' (from the first byte after it)", b->spec.name);
    else
        snprintf(buf, size, "wrote past the end of buffer '%s' (%llu bytes past it)", b->spec.name,
                 (unsigned long long)b->hit_at - 1);
    return buf;
}

/* ---- Access for device-side work of other modules (the GPU check) -------------------------------------------- */

vkat_gpu *vkat_workspace_gpu(const vkat_workspace *ws)
{
    return ws->gpu;
}

VkBuffer vkat_workspace_buffer(const vkat_workspace *ws, size_t index, uint64_t *data_bytes, uint64_t *range)
{
    const ws_buffer *b = &ws->bufs[index];
    if (data_bytes)
        *data_bytes = b->bytes;
    if (range)
        *range = b->bytes + b->canary;
    return b->buffer;
}

uint64_t vkat_workspace_data_offset(const vkat_workspace *ws, size_t index)
{
    return ws->bufs[index].front;
}

vkat_result vkat_workspace_upload_at(vkat_workspace *ws, VkBuffer dst, uint64_t at, const void *data,
                                     uint64_t bytes, vkat_error *err)
{
    for (uint64_t off = 0; off < bytes; off += ws->staging_size) {
        uint64_t n = bytes - off < ws->staging_size ? bytes - off : ws->staging_size;
        vkat_result r = settle(ws, TRANSFER_TIMEOUT_NS, err); /* a timed-out copy may still read the staging */
        if (r)
            return r;
        memcpy(ws->staging_map, (const unsigned char *)data + off, n);
        r = copy_chunk(ws, dst, at + off, n, 1, err);
        if (r)
            return r;
    }
    return VKAT_OK;
}

vkat_result vkat_workspace_upload(vkat_workspace *ws, VkBuffer dst, const void *data, uint64_t bytes,
                                  vkat_error *err)
{
    return vkat_workspace_upload_at(ws, dst, 0, data, bytes, err);
}

vkat_result vkat_workspace_upload_data(vkat_workspace *ws, size_t index, const void *data, vkat_error *err)
{
    if (index >= ws->count)
        return vkat_fail(err, VKAT_ERR_INTERNAL, NULL, 0, "buffer index %zu out of range (%zu buffers)", index,
                         ws->count);
    const ws_buffer *b = &ws->bufs[index];
    vkat_result r = vkat_workspace_upload_at(ws, b->buffer, b->front, data, b->bytes, err);
    return r ? r : sync_images(ws, index, 1, err);
}

vkat_result vkat_workspace_submit(vkat_workspace *ws, vkat_record_fn record, void *user, uint64_t timeout_ns,
                                  const char *what, vkat_error *err)
{
    return submit_between_barriers(ws, record, user, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                                   VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT, VK_ACCESS_SHADER_WRITE_BIT,
                                   timeout_ns, what, err);
}

/* ---- Kernels ---------------------------------------------------------------------------------------------------- */

/* A GroupNonUniform* capability needs its operation class in the device's subgroupSupportedOperations, and compute
 * in subgroupSupportedStages, or the module is invalid usage: lavapipe (Mesa 22.3) runs the clustered operations it
 * does not list, and sums clusters of 4 wrongly (tests/cli/subgroup_ops.sh). Devices that do not say (0) pass. */
static vkat_result check_subgroup_operations(const vkat_device_info *d, const vkat_spirv_info *info,
                                             vkat_error *err)
{
    if (!d->subgroup_operations)
        return VKAT_OK;
    for (uint32_t i = 0; i < info->capability_count; i++) {
        int op = vkat_capability_subgroup_operation(info->capabilities[i]);
        if (op < 0)
            continue;
        const char *name = vkat_subgroup_operation_name((unsigned)op);
        if (!(d->subgroup_operations >> op & 1))
            return vkat_fail(err, VKAT_ERR_LIMITS, NULL, 0,
                             "the shader uses subgroup %s operations (its SPIR-V declares the capability), which %s "
                             "does not list in subgroupSupportedOperations (0x%x); a [constraints] line testing "
                             "device.subgroup_%s keeps such configurations off this device",
                             name, d->name, d->subgroup_operations, name);
        if (!d->subgroup_in_compute)
            return vkat_fail(err, VKAT_ERR_LIMITS, NULL, 0,
                             "the shader uses subgroup operations, which %s does not support in compute shaders "
                             "(subgroupSupportedStages)", d->name);
    }
    return VKAT_OK;
}

static vkat_result check_kernel_limits(const vkat_gpu *gpu, const vkat_spirv *spirv, const vkat_spec_value *spec,
                                       size_t spec_count, uint32_t push_size, vkat_spirv_info *info, vkat_error *err)
{
    const vkat_device_info *d = gpu->info;
    if (push_size % 4 || push_size > d->max_push_constants_size)
        return vkat_fail(err, VKAT_ERR_LIMITS, NULL, 0,
                         "push constants of %u bytes: must be a multiple of 4 and at most maxPushConstantsSize (%u)",
                         push_size, d->max_push_constants_size);
    vkat_result r = vkat_spirv_reflect(spirv, spec, spec_count, info, err);
    if (r)
        return r;
    /* A capability the device does not enable is invalid usage: drivers fail the pipeline with no reason
     * (lavapipe: VK_ERROR_UNKNOWN) or run it miscompiled. */
    const char *needs[VKAT_FEATURE_COUNT];
    size_t need_count = vkat_spirv_features(info, needs, VKAT_COUNTOF(needs));
    for (size_t i = 0; i < need_count; i++) {
        char missing[64];
        if (!vkat_device_meets(d, NULL, 0, &needs[i], 1, missing, sizeof missing))
            return vkat_fail(err, VKAT_ERR_LIMITS, NULL, 0,
                             "the shader needs the device feature %s (for what its SPIR-V declares), which %s does "
                             "not support; [kernel] features = %s skips such devices",
                             needs[i], d->name, needs[i]);
    }
    if ((r = check_subgroup_operations(d, info, err)) != VKAT_OK)
        return r;
    uint64_t inv = (uint64_t)info->local_size[0] * info->local_size[1] * info->local_size[2];
    for (int i = 0; i < 3; i++)
        if (info->local_size[i] > d->max_workgroup_size[i])
            return vkat_fail(err, VKAT_ERR_LIMITS, NULL, 0,
                             "workgroup size %u in dimension %c exceeds maxComputeWorkGroupSize (%u)",
                             info->local_size[i], "xyz"[i], d -> max_workgroup_size[i]);
    if (inv > d->max_workgroup_invocations)
        return vkat_fail(err, VKAT_ERR_LIMITS, NULL, 0,
                         "workgroup of %llu invocations exceeds maxComputeWorkGroupInvocations (%u)",
                         (unsigned long long)inv, d->max_workgroup_invocations);
    /* Some drivers accept such a pipeline and lose the device on its first dispatch (NVIDIA, docs H200.md). */
    if (info->shared_bytes > d->max_shared_memory)
        return vkat_fail(err, VKAT_ERR_LIMITS, NULL, 0,
                         "shared memory of %llu bytes exceeds maxComputeSharedMemorySize (%u bytes)",
                         (unsigned long long)info->shared_bytes, d->max_shared_memory);
    return VKAT_OK;
}

void vkat_pipeline_stats_text(VkDevice dev, VkPipeline pipeline, char *out, size_t size)
{
    out[0] = 0;
    VkPipelineExecutableInfoKHR ei = {VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR};
    ei.pipeline = pipeline;
    ei.executableIndex = 0;
    uint32_t n = 0;
    if (vkGetPipelineExecutableStatisticsKHR(dev, &ei, &n, NULL) != VK_SUCCESS || n == 0)
        return;
    VkPipelineExecutableStatisticKHR *st = calloc(n, sizeof *st);
    if (!st)
        return;
    for (uint32_t i = 0; i < n; i++)
        st[i].sType = VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR;
    if (vkGetPipelineExecutableStatisticsKHR(dev, &ei, &n, st) == VK_SUCCESS || n > 0) {
        size_t used = 0;
        for (uint32_t i = 0; i < n && used + 1 < size; i++) {
            char val[64];
            switch (st[i].format) {
            case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR:
                snprintf(val, sizeof val, "%s", st[i].value.b32 ? "true" : "false");
                break;
            case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_INT64_KHR:
                snprintf(val, sizeof val, "%lld", (long long)st[i].value.i64);
                break;
            case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR:
                snprintf(val, sizeof val, "%llu", (unsigned long long)st[i].value.u64);
                break;
            default:
                snprintf(val, sizeof val, "%g", st[i].value.f64);
                break;
            }
            int w = snprintf(out + used, size - used, "%s%s=%s", used ? "; " : "", st[i].name, val);
            if (w < 0 || (size_t)w >= size - used) {
                out[used] = 0;
                break;
            }
            used += (size_t)w;
        }
    }
    free(st);
}

const char *vkat_kernel_stats(const vkat_kernel *k)
{
    return k->stats;
}

vkat_result vkat_kernel_create(vkat_workspace *ws, const vkat_spirv *spirv, const char *entry,
                               const vkat_spec_value *spec, size_t spec_count, uint32_t push_size, vkat_kernel **out,
                               vkat_error *err)
{
    *out = NULL;
    vkat_spirv_info *info = malloc(sizeof *info);
    vkat_result r = info ? check_kernel_limits(ws->gpu, spirv, spec, spec_count, push_size, info, err)
                         : vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
    if (r) {
        free(info);
        return r;
    }
    VkDevice dev = ws->gpu->device;
    VkSpecializationMapEntry *entries = calloc(spec_count ? spec_count : 1, sizeof *entries);
    uint8_t *values = calloc(spec_count ? spec_count : 1, 8);
    vkat_kernel *k = calloc(1, sizeof *k);
    if (!entries || !values || !k) {
        r = vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
        goto cleanup;
    }
    k->ws = ws;
    k->push_size = push_size;
    k->sets = ws->sets;
    for (uint32_t i = 0; i < info->binding_count; i++)
        if (info->bindings[i].reads_length)
            k->sets = ws->exact_sets;

    VkShaderModuleCreateInfo smci = {VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    smci.codeSize = spirv->count * sizeof(uint32_t);
    smci.pCode = spirv->words;
    VkResult vr = vkCreateShaderModule(dev, &smci, NULL, &k->module);
    if (vr != VK_SUCCESS) {
        r = vkat_fail_vk(err, vr, "vkCreateShaderModule");
        goto cleanup;
    }
    VkPushConstantRange range = {VK_SHADER_STAGE_COMPUTE_BIT, 0, push_size};
    VkPipelineLayoutCreateInfo plci = {VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    plci.setLayoutCount = ws->set_count;
    plci.pSetLayouts = ws->set_layouts;
    plci.pushConstantRangeCount = push_size > 0;
    plci.pPushConstantRanges = &range;
    vr = vkCreatePipelineLayout(dev, &plci, NULL, &k->layout);
    if (vr != VK_SUCCESS) {
        r = vkat_fail_vk(err, vr, "vkCreatePipelineLayout");
        goto cleanup;
    }
    /* each value in the bytes of the type the module declares for it (a float's bits for a float constant) */
    for (size_t i = 0; i < spec_count; i++) {
        entries[i].constantID = spec[i].id;
        entries[i].offset = (uint32_t)(i * 8);
        entries[i].size = vkat_spec_encode(vkat_spec_decl_find(info, spec[i].id), spec[i].value, values + 8 * i);
    }
    VkSpecializationInfo si = {(uint32_t)spec_count, entries, spec_count * 8, values};
    VkComputePipelineCreateInfo cpci = {VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    cpci.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    cpci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    cpci.stage.module = k->module;
    cpci.stage.pName = entry ? entry : "main";
    cpci.stage.pSpecializationInfo = spec_count ? &si : NULL;
    cpci.layout = k->layout;
    if (ws->gpu->pipeline_statistics)
        cpci.flags |= VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR;
    vr = vkCreateComputePipelines(dev, ws->gpu->pipeline_cache, 1, &cpci, NULL, &k->pipeline);
    if (vr != VK_SUCCESS) {
        k->pipeline = VK_NULL_HANDLE;
        r = vkat_fail_vk(err, vr, "vkCreateComputePipelines");
        goto cleanup;
    }
    if (ws->gpu->pipeline_statistics)
        vkat_pipeline_stats_text(dev, k->pipeline, k->stats, sizeof k->stats);
cleanup:
    free(entries);
    free(values);
    free(info);
    if (r) {
        vkat_kernel_destroy(k);
        return r;
    }
    *out = k;
    return VKAT_OK;
}

void vkat_kernel_destroy(vkat_kernel *k)
{
    if (!k)
        return;
    for (size_t i = 0; i < k->kernel_count; i++)
        vkat_kernel_destroy(k->kernels[i]);
    free(k->kernels);
    free(k->steps);
    free(k->step_sets);
    if (k->step_pool && !k->ws->pending) /* with a timed-out submission in flight, left to the device's end */
        vkDestroyDescriptorPool(k->ws->gpu->device, k->step_pool, NULL);
    VkDevice dev = k->ws->gpu->device;
    /* A timed-out dispatch may still be using the pipeline. */
    if (k->ws->pending && settle(k->ws, TRANSFER_TIMEOUT_NS, NULL) == VKAT_ERR_TIMEOUT) {
        vkat_log(VKAT_LOG_ERROR, "a timed-out kernel is still running; its pipeline is left for the device's "
                                 "destruction");
        free(k);
        return;
    }
    if (k->pipeline)
        vkDestroyPipeline(dev, k->pipeline, NULL);
    if (k->layout)
        vkDestroyPipelineLayout(dev, k->layout, NULL);
    if (k->module)
        vkDestroyShaderModule(dev, k->module, NULL);
    free(k);
}

/* A descriptor set per remapped step (bind.N), its bindings copied from the workspace's set: the copies keep each
 * descriptor's type and range, so this needs to know nothing of how the workspace made them. */
static vkat_result create_step_sets(vkat_kernel *k, vkat_error *err)
{
    vkat_workspace *ws = k->ws;
    VkDevice dev = ws->gpu->device;
    uint32_t remapped = 0, nb = (uint32_t)(ws->count < VKAT_MAX_STEP_BINDINGS ? ws->count : VKAT_MAX_STEP_BINDINGS);
    for (size_t i = 0; i < k->step_count; i++)
        remapped += k->steps[i].remapped != 0;
    k->step_sets = calloc(k->step_count, sizeof *k->step_sets);
    if (!k->step_sets)
        return vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
    if (!remapped)
        return VKAT_OK;
    for (size_t i = 0; i < k->step_count; i++)
        for (uint32_t b = 0; k->steps[i].remapped && b < nb; b++)
            if (k->steps[i].binding_buffer[b] >= ws->count)
                return vkat_fail(err, VKAT_ERR_INTERNAL, NULL, 0, "step %zu binds buffer %u of %zu", i,
                                 k->steps[i].binding_buffer[b], ws->count);
    VkDescriptorPoolSize sizes[POOL_TYPES];
    VkDescriptorPoolCreateInfo pci = {VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    pci.maxSets = remapped;
    pci.poolSizeCount = pool_sizes(ws, remapped, sizes);
    pci.pPoolSizes = sizes;
    VkResult vr = vkCreateDescriptorPool(dev, &pci, NULL, &k->step_pool);
    if (vr != VK_SUCCESS) {
        k->step_pool = VK_NULL_HANDLE;
        return vkat_fail_vk(err, vr, "vkCreateDescriptorPool");
    }
    VkCopyDescriptorSet copies[VKAT_MAX_STEP_BINDINGS];
    for (size_t i = 0; i < k->step_count; i++) {
        if (!k->steps[i].remapped)
            continue;
        VkDescriptorSetAllocateInfo ai = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
        ai.descriptorPool = k->step_pool;
        ai.descriptorSetCount = 1;
        ai.pSetLayouts = &ws->set_layouts[0]; /* bind.N needs every buffer in set 0 (the space checks it) */
        if ((vr = vkAllocateDescriptorSets(dev, &ai, &k->step_sets[i])) != VK_SUCCESS)
            return vkat_fail_vk(err, vr, "vkAllocateDescriptorSets");
        /* Bindings past the first VKAT_MAX_STEP_BINDINGS keep their own buffers. */
        uint32_t n = 0;
        for (uint32_t b = 0; b < ws->count; b++) {
            VkCopyDescriptorSet c = {VK_STRUCTURE_TYPE_COPY_DESCRIPTOR_SET};
            c.srcSet = k->kernels[k->steps[i].kernel]->sets[0];
            c.srcBinding = b < nb ? k->steps[i].binding_buffer[b] : b;
            c.dstSet = k->step_sets[i];
            c.dstBinding = b;
            c.descriptorCount = 1;
            copies[n++] = c;
            if (n == VKAT_MAX_STEP_BINDINGS || b + 1 == ws->count) {
                vkUpdateDescriptorSets(dev, 0, NULL, n, copies);
                n = 0;
            }
        }
    }
    return VKAT_OK;
}

vkat_result vkat_kernel_create_sequence(vkat_workspace *ws, vkat_kernel **kernels, size_t kernel_count,
                                        const vkat_sequence_step *steps, size_t step_count, vkat_kernel **out,
                                        vkat_error *err)
{
    *out = NULL;
    vkat_kernel *k = calloc(1, sizeof *k);
    vkat_kernel **ks = malloc((kernel_count ? kernel_count : 1) * sizeof *ks);
    vkat_sequence_step *st = malloc((step_count ? step_count : 1) * sizeof *st);
    vkat_result r = VKAT_OK;
    if (!k || !ks || !st)
        r = vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
    for (size_t i = 0; !r && i < step_count; i++)
        if (steps[i].kernel >= kernel_count || !kernels[steps[i].kernel])
            r = vkat_fail(err, VKAT_ERR_INTERNAL, NULL, 0, "step %zu names kernel %u of %zu", i, steps[i].kernel,
                          kernel_count);
    if (!r && step_count == 0)
        r = vkat_fail(err, VKAT_ERR_INTERNAL, NULL, 0, "a sequence of no dispatches");
    if (r) {
        for (size_t i = 0; i < kernel_count; i++)
            vkat_kernel_destroy(kernels[i]);
        free(k);
        free(ks);
        free(st);
        return r;
    }
    memcpy(ks, kernels, kernel_count * sizeof *ks);
    memcpy(st, steps, step_count * sizeof *st);
    k->ws = ws;
    k->sets = ws->sets;
    k->kernels = ks;
    k->kernel_count = kernel_count;
    k->steps = st;
    k->step_count = step_count;
    snprintf(k->stats, sizeof k->stats, "%s", ks[steps[0].kernel]->stats);
    if ((r = create_step_sets(k, err))) {
        vkat_kernel_destroy(k);
        return r;
    }
    *out = k;
    return VKAT_OK;
}

static vkat_result check_groups(const vkat_kernel *k, const uint32_t groups[3], const void *push, vkat_error *err)
{
    for (size_t i = 0; i < k->step_count; i++) {
        vkat_result r = check_groups(k->kernels[k->steps[i].kernel], k->steps[i].groups, k->steps[i].push, err);
        if (r)
            return r;
    }
    if (k->step_count)
        return VKAT_OK;
    const vkat_device_info *d = k->ws->gpu->info;
    for (int i = 0; i < 3; i++) {
        if (groups[i] == 0 || groups[i] > d->max_workgroup_count[i])
            return vkat_fail(err, VKAT_ERR_LIMITS, NULL, 0,
                             "%u workgroups in dimension %c: must be 1..maxComputeWorkGroupCount (%u)", groups[i],
                             "xyz"[i], d -> max_workgroup_count[i]);
    }
    if (k->push_size && !push)
        return vkat_fail(err, VKAT_ERR_INTERNAL, NULL, 0, "the kernel takes %u bytes of push constants; none given",
                         k->push_size);
    return VKAT_OK;
}

static void record_with_sets(vkat_kernel *k, const VkDescriptorSet *sets, uint32_t set_count, const uint32_t groups[3],
                             const void *push, uint32_t n);

/* Records `n` dispatches (of a sequence: n times its steps) into the workspace's command buffer, each ordered
 * after the previous one's writes so that they never overlap: the time of a sample is n times the time of one. */
static void record_dispatches(vkat_kernel *k, const uint32_t groups[3], const void *push, uint32_t n)
{
    /* A sequence: every step after the barrier before it, as a driver of the passes would record them. */
    for (uint32_t i = 0; k->step_count && i < n; i++)
        for (size_t j = 0; j < k->step_count; j++) {
            vkat_kernel *step = k->kernels[k->steps[j].kernel];
            if (k->step_sets[j]) /* a rebinding step: every buffer is in set 0 (the space checks it) */
                record_with_sets(step, &k->step_sets[j], 1, k->steps[j].groups, k->steps[j].push, 1);
            else
                record_with_sets(step, step->sets, k->ws->set_count, k->steps[j].groups, k->steps[j].push, 1);
        }
    if (!k->step_count)
        record_with_sets(k, k->sets, k->ws->set_count, groups, push, n);
}

/* n dispatches of one pipeline with `sets` bound (sets 0..set_count-1), each after a barrier on the writes before
 * it. */
static void record_with_sets(vkat_kernel *k, const VkDescriptorSet *sets, uint32_t set_count, const uint32_t groups[3],
                             const void *push, uint32_t n)
{
    VkCommandBuffer cmd = k->ws->cmd;
    const VkAccessFlags rw = VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT;
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, k->pipeline);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, k->layout, 0, set_count, sets, 0, NULL);
    if (k->push_size)
        vkCmdPushConstants(cmd, k->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, k->push_size, push);
    for (uint32_t i = 0; i < n; i++) {
        /* Before the first too: the previous submission's dispatches and uploads. */
        memory_barrier(cmd, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT | VK_PIPELINE_STAGE_TRANSFER_BIT,
                       VK_ACCESS_SHADER_WRITE_BIT | VK_ACCESS_TRANSFER_WRITE_BIT, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                       rw);
        vkCmdDispatch(cmd, groups[0], groups[1], groups[2]);
    }
}

vkat_result vkat_kernel_run(vkat_kernel *k, const uint32_t groups[3], const void *push, uint64_t timeout_ns,
                            vkat_error *err)
{
    vkat_result r = check_groups(k, groups, push, err);
    if (r)
        return r;
    r = begin(k->ws, timeout_ns, err);
    if (r)
        return r;
    record_dispatches(k, groups, push, 1);
    return submit_wait(k->ws, timeout_ns, "the kernel", err);
}

static vkat_result read_timestamps(vkat_workspace *ws, uint32_t n, double *seconds, vkat_error *err);

vkat_result vkat_kernel_run_timed(vkat_kernel *k, const uint32_t groups[3], const void *push, uint64_t timeout_ns,
                                  double *gpu_s, vkat_error *err)
{
    *gpu_s = NAN;
    vkat_workspace *ws = k->ws;
    vkat_result r = check_groups(k, groups, push, err);
    if (r == VKAT_OK)
        r = begin(ws, timeout_ns, err);
    if (r)
        return r;
    if (ws->queries) {
        vkCmdResetQueryPool(ws->cmd, ws->queries, 0, 2);
        vkCmdWriteTimestamp(ws->cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, ws->queries, 0);
    }
    record_dispatches(k, groups, push, 1);
    if (ws->queries)
        vkCmdWriteTimestamp(ws->cmd, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, ws->queries, 1);
    r = submit_wait(ws, timeout_ns, "the kernel", err);
    return r == VKAT_OK && ws->queries ? read_timestamps(ws, 1, gpu_s, err) : r;
}

/* ---- Measurement ------------------------------------------------------------------------------------------------ */

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median of a sorted array. */
static double median_sorted(const double *v, uint32_t n)
{
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

/* Seconds per dispatch between the two timestamps of a finished batch of `n`. */
static vkat_result read_timestamps(vkat_workspace *ws, uint32_t n, double *seconds, vkat_error *err)
{
    uint64_t ticks[2];
    /* The fence has signalled, so WAIT returns at once; it guards against a driver that reports late. */
    VkResult vr = vkGetQueryPoolResults(ws->gpu->device, ws->queries, 0, 2, sizeof ticks, ticks, sizeof ticks[0],
                                        VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT);
    if (vr != VK_SUCCESS)
        return vkat_fail_vk(err, vr, "vkGetQueryPoolResults");
    uint32_t bits = ws->gpu->info->timestamp_valid_bits;
    uint64_t mask = bits >= 64 ? ~0ull : (1ull << bits) - 1;
    uint64_t delta = ((ticks[1] & mask) - (ticks[0] & mask)) & mask; /* modular: survives one wrap-around */
    *seconds = (double)delta * ws->gpu->info->timestamp_period * 1e-9 / n;
    return VKAT_OK;
}

/* Seconds per dispatch of one batch of `n`: GPU timestamps when the queue has them, else host time around the
 * fence (which includes submission overhead, hence the warning). */
static vkat_result timed_batch(vkat_kernel *k, const uint32_t groups[3], const void *push, uint32_t n, int host_timing,
                               uint64_t timeout_ns, double *seconds, vkat_error *err)
{
    vkat_workspace *ws = k->ws;
    vkat_result r = begin(ws, timeout_ns, err);
    if (r)
        return r;
    if (!host_timing) {
        vkCmdResetQueryPool(ws->cmd, ws->queries, 0, 2);
        vkCmdWriteTimestamp(ws->cmd, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, ws->queries, 0);
    }
    record_dispatches(k, groups, push, n);
    if (!host_timing)
        vkCmdWriteTimestamp(ws->cmd, VK_PIPELINE_STAGE_ALL_COMMANDS_BIT, ws->queries, 1);
    double t0 = vkat_now();
    r = submit_wait(ws, timeout_ns, "a timed batch of the kernel", err);
    double t1 = vkat_now();
    if (r)
        return r;
    if (host_timing) {
        *seconds = (t1 - t0) / n;
        return VKAT_OK;
    }
    return read_timestamps(ws, n, seconds, err);
}

/* The next batch when `batch` dispatches of `per` seconds each fell short of `min_sample_s`: enough to reach it
 * with a margin, at least double, at most MAX_BATCH. */
static uint32_t grow_batch(uint32_t batch, double per, double min_sample_s)
{
    double want = per > 0 ? ceil(1.2 * min_sample_s / per) : (double)MAX_BATCH;
    if (want < 2.0 * batch)
        want = 2.0 * batch;
    return want > MAX_BATCH ? MAX_BATCH : (uint32_t)want;
}

double vkat_workspace_idle_s(const vkat_workspace *ws)
{
    return ws->last_done > 0 ? vkat_now() - ws->last_done : 0;
}

/* The options with defaults filled in (zero fields mean "default", as everywhere in the library; a warm-up of 0 is
 * spelt as a negative value). */
vkat_timing_opts vkat_timing_defaults(const vkat_timing_opts *opts)
{
    vkat_timing_opts o = {0};
    if (opts)
        o = *opts;
    o.warmup_s = o.warmup_s < 0 ? 0 : o.warmup_s ? o.warmup_s : 0.2;
    o.min_warmup_s = o.min_warmup_s < 0 ? 0 : o.min_warmup_s ? o.min_warmup_s : 0.02;
    if (o.min_warmup_s > o.warmup_s)
        o.min_warmup_s = o.warmup_s;
    if (!(o.min_sample_s > 0))
        o.min_sample_s = 1e-4;
    if (!o.repetitions)
        o.repetitions = 10;
    if (!(o.max_time_s > 0))
        o.max_time_s = 2.0;
    if (!o.timeout_ns)
        o.timeout_ns = 10ull * 1000000000ull;
    return o;
}

/* Warm-up: timed batches back to back (each a few milliseconds, so the GPU never waits long for the host) until
 * the kernel's times stop falling (warmup.h) after at least min_warmup_s, or until warmup_s. Leaves in *per the
 * last batch's seconds per dispatch, which sizes the timed samples. */
static vkat_result warm_up(vkat_kernel *k, const uint32_t groups[3], const void *push, const vkat_timing_opts *o,
                           int host_timing, vkat_timing *out, double *per, vkat_error *err)
{
    enum { MAX_WARMUP_BATCHES = 4096 };
    double *times = malloc(2 * MAX_WARMUP_BATCHES * sizeof *times), *at = times + MAX_WARMUP_BATCHES;
    if (!times)
        return vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
    /* Batches of 2.5 ms (less for a short minimum: each comparison window, half the minimum, holds two at least):
     * long against the host's gap between them, short enough to see the clocks' ramp, whatever the maximum. */
    double target = fmax(o->min_sample_s, fmin(2.5e-3, o->min_warmup_s / 4));
    out->idle_s = vkat_workspace_idle_s(k->ws);
    double start = vkat_now();
    uint32_t batch = 1, n = 0;
    vkat_result r = VKAT_OK;
    for (;;) {
        r = timed_batch(k, groups, push, batch, host_timing, o->timeout_ns, per, err);
        if (r)
            break;
        times[n] = *per;
        at[n] = vkat_now() - start;
        if (o->warmup_trace) {
            vkat_warmup_batch b = {n, batch, at[n], *per, out->idle_s};
            o->warmup_trace(o->warmup_trace_user, &b);
        }
        n++;
        double left = o->warmup_s - at[n - 1];
        if (left <= 0 || n == MAX_WARMUP_BATCHES)
            break;
        if (vkat_warmup_settled(times, at, n, o->min_warmup_s)) {
            out->warmup_settled = 1; /* before the maximum, so never with a fixed warm-up */
            break;
        }
        /* The next batch: about `target` long, at most twice the last (the first dispatches after a pause can be
         * slow and would overestimate), never past what the maximum leaves. */
        double want = *per > 0 ? fmin(target, left) / *per : (double)MAX_BATCH;
        want = fmin(fmin(want, 2.0 * batch), (double)MAX_BATCH);
        batch = want < 1 ? 1 : (uint32_t)want;
    }
    out->warmup_s = vkat_now() - start;
    out->warmup_batches = n;
    if (n) {
        out->warmup_first_s = times[0];
        out->warmup_last_s = times[n - 1];
    }
    free(times);
    return r;
}

/* Timed samples of `batch` dispatches each into samples[], until the repetitions (or what after_sample asks for,
 * up to cap) or max_time_s. A sample that comes out shorter than min_sample_s is dropped and the batch grows;
 * times are per dispatch, so samples of different batches compare. */
static vkat_result take_samples(vkat_kernel *k, const uint32_t groups[3], const void *push, const vkat_timing_opts *o,
                                int host_timing, uint32_t batch, double *samples, uint32_t cap, vkat_timing *out,
                                vkat_error *err)
{
    double sample_start = vkat_now();
    uint32_t dropped = 0;
    while (out->samples < cap) {
        double per;
        vkat_result r = timed_batch(k, groups, push, batch, host_timing, o->timeout_ns, &per, err);
        if (r)
            return r;
        if (per * batch < o->min_sample_s && batch < MAX_BATCH && dropped < 8) {
            dropped++;
            batch = grow_batch(batch, per, o->min_sample_s);
            continue;
        }
        samples[out->samples++] = per;
        int more = o->after_sample ? o->after_sample(o->after_sample_user, samples, out->samples) : 0;
        if (more == 2) {
            out->cut = 1;
            break;
        }
        if (more != 1 && out->samples >= o->repetitions)
            break;
        if (vkat_now() - sample_start > o->max_time_s)
            break;
    }
    out->batch = batch;
    return VKAT_OK;
}

/* Median, extremes, mean and median absolute deviation of n >= 1 samples (reorders them). */
static void summarize(double *samples, uint32_t n, vkat_timing *out)
{
    double sum = 0;
    for (uint32_t i = 0; i < n; i++)
        sum += samples[i];
    qsort(samples, n, sizeof *samples, cmp_double);
    out->min_s = samples[0];
    out->max_s = samples[n - 1];
    out->mean_s = sum / n;
    out->median_s = median_sorted(samples, n);
    for (uint32_t i = 0; i < n; i++)
        samples[i] = fabs(samples[i] - out->median_s);
    qsort(samples, n, sizeof *samples, cmp_double);
    out->mad_s = median_sorted(samples, n);
}

vkat_result vkat_kernel_measure(vkat_kernel *k, const uint32_t groups[3], const void *push,
                                const vkat_timing_opts *opts, vkat_timing *out, vkat_error *err)
{
    memset(out, 0, sizeof *out);
    vkat_timing_opts o = vkat_timing_defaults(opts);
    uint32_t cap = o.after_sample && o.max_repetitions > o.repetitions ? o.max_repetitions : o.repetitions;
    vkat_workspace *ws = k->ws;
    int host_timing = o.host_timing || !ws->queries;
    if (!ws->queries && !ws->warned_host_timing) {
        ws->warned_host_timing = 1;
        vkat_log(VKAT_LOG_WARN,
                 "%s has no timestamps on its compute queue: timing on the host around each "
                 "submission, which adds the submission overhead",
                 ws->gpu->info->name);
    }
    vkat_result r = check_groups(k, groups, push, err);
    if (r)
        return r;
    double *samples = calloc(cap, sizeof *samples);
    if (!samples)
        return vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
    double per = 0;
    r = warm_up(k, groups, push, &o, host_timing, out, &per, err);
    /* A sample spans at least min_sample_s (timestamps have a resolution): the warm-up's last, warm batch says how
     * many dispatches that takes. */
    uint32_t batch = per * 1 >= o.min_sample_s ? 1 : grow_batch(1, per, o.min_sample_s);
    if (r == VKAT_OK)
        r = take_samples(k, groups, push, &o, host_timing, batch, samples, cap, out, err);
    if (r == VKAT_OK && vkat_warmup_ended_early(out->warmup_last_s, samples, out->samples)) {
        /* The samples ran clearly faster than the warm-up's end: it stopped on a plateau (warmup.h). Warm up and
         * sample again, once; the warm-up time is the sum. */
        double spent = out->warmup_s;
        uint32_t batches = out->warmup_batches;
        out->samples = 0;
        out->cut = 0;
        r = warm_up(k, groups, push, &o, host_timing, out, &per, err);
        out->warmup_s += spent;
        out->warmup_batches += batches;
        out->warmup_retaken = 1;
        batch = per * 1 >= o.min_sample_s ? 1 : grow_batch(1, per, o.min_sample_s);
        if (r == VKAT_OK)
            r = take_samples(k, groups, push, &o, host_timing, batch, samples, cap, out, err);
    }
    if (r == VKAT_OK) {
        summarize(samples, out->samples, out);
        out->host_timed = host_timing;
    }
    free(samples);
    return r;
}
