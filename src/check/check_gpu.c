/* check_gpu.c — the device-side half of the output check: a built-in compute shader per element kind reduces
 * (variant output, reference) into one partial per workgroup, and the host adds the partials up in workgroup order,
 * so the totals do not depend on scheduling. Float kinds: float64 sums of squared differences and of squared
 * reference, the largest absolute difference, counts of unwritten and non-finite elements. Every other type is an
 * integer, compared exactly as check.c does (compare_ints): counts of unwritten and of differing elements, and no
 * float64 needed, so the check runs on devices without shaderFloat64 too.
 *
 * It mirrors check.c's element rules and must not judge a failure: a variant that is not clearly correct goes back
 * to the host check, which reads the buffer and gives the reason. Elements are classified by their bits and
 * converted to float64 by hand, so no driver's denormal flushing or fast NaN handling can change a verdict. */
#include "check_gpu.h"

#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define LOCAL_SIZE 256u
/* At most this many workgroups (and partials read back): 160 KB of partials, enough groups to fill any GPU. */
#define MAX_GROUPS 4096u
/* Each invocation takes at least this many elements, so that small buffers do not spend more on partials than on
 * comparing. */
#define MIN_PER_INVOCATION 16u
#define CHECK_TIMEOUT_NS (60ull * 1000000000ull)
/* The shader's ELEM: float32, float16, bfloat16, then exact integers of 32, 16 and 8 bits (any type check.c
 * compares with compare_ints, by its size). */
#define ELEM_KINDS 6
#define FIRST_EXACT_KIND 3

/* One workgroup's result, laid out as the float shader's std430 Partial. */
typedef struct gpu_partial {
    double diff2, ref2, max_abs;
    uint32_t unwritten, nonfinite, ref_mismatch, pad;
} gpu_partial;

/* The exact (integer) shader's Partial. */
typedef struct gpu_exact_partial {
    uint32_t unwritten, wrong;
} gpu_exact_partial;

typedef struct check_buffer {
    int used;
    int kind; /* ELEM */
    uint64_t count;
    uint32_t poison, per_group, groups;
    VkBuffer ref, partials;
    VkDeviceMemory ref_memory, partials_memory;
    const void *partials_map; /* gpu_partial[groups], or gpu_exact_partial[groups] for an exact kind */
    VkDescriptorSet set;
} check_buffer;

struct vkat_gpu_check {
    vkat_workspace *ws;
    vkat_gpu *gpu;
    size_t count;
    check_buffer *bufs;
    VkDescriptorSetLayout set_layout;
    VkDescriptorPool pool;
    VkPipelineLayout layout;
    VkShaderModule modules[ELEM_KINDS];
    VkPipeline pipelines[ELEM_KINDS];
};

typedef struct push_block {
    uint32_t count, poison, per_group;
} push_block;

/* ---- The shader ------------------------------------------------------------------------------------------------ */

/* ELEM 0 float32, 1 float16, 2 bfloat16 (a float32's top half: widened by a shift, then read as float32). Elements
 * are read as 32-bit words so that no 16-bit storage feature is needed. The per-element rules are check.c's. */
static const char shader_body[] =
    "layout(local_size_x = 256) in;\n"
    "layout(std430, binding = 0) readonly buffer Got { uint got[]; };\n"
    "layout(std430, binding = 1) readonly buffer Ref { uint ref[]; };\n"
    "struct Partial { double diff2; double ref2; double max_abs; uint unwritten; uint nonfinite; uint ref_mismatch;\n"
    "                 uint pad; };\n"
    "layout(std430, binding = 2) writeonly buffer Partials { Partial part[]; };\n"
    "layout(push_constant) uniform Push { uint count; uint poison; uint per_group; } p;\n"
    "#if ELEM == 0\n"
    "#define LOAD(a, i) a[i]\n"
    "#else\n"
    "#define LOAD(a, i) ((a[(i) >> 1] >> (((i) & 1u) * 16u)) & 0xffffu)\n"
    "#endif\n"
    "#if ELEM == 1\n"
    "#define WIDEN(b) (b)\n"
    "const uint EXP = 0x7c00u, MANT = 0x3ffu;\n"
    "#else\n"
    "#define WIDEN(b) ((b) << (ELEM == 2 ? 16u : 0u))\n"
    "const uint EXP = 0x7f800000u, MANT = 0x7fffffu;\n"
    "#endif\n"
    "// A finite element's exact value; subnormals by hand, since float32 denormals may be flushed.\n"
    "double value(uint w)\n"
    "{\n"
    "#if ELEM == 1\n"
    "    uint e = (w >> 10) & 0x1fu, m = w & 0x3ffu;\n"
    "    double v = e == 0u ? double(m) * packDouble2x32(uvec2(0u, 0x3e700000u))\n" /* 2^-24 */
    "                       : double(uintBitsToFloat(((e + 112u) << 23) | (m << 13)));\n"
    "    return (w & 0x8000u) != 0u ? -v : v;\n"
    "#else\n"
    "    uint e = w & EXP, m = w & MANT;\n"
    "    double v = e == 0u ? double(m) * packDouble2x32(uvec2(0u, 0x36a00000u))\n" /* 2^-149 */
    "                       : double(uintBitsToFloat(w & 0x7fffffffu));\n"
    "    return (w & 0x80000000u) != 0u ? -v : v;\n"
    "#endif\n"
    "}\n"
    "shared double s_diff2[256], s_ref2[256], s_max[256];\n"
    "shared uvec3 s_n[256];\n"
    "void main()\n"
    "{\n"
    "    uint t = gl_LocalInvocationID.x;\n"
    "    uint base = gl_WorkGroupID.x * p.per_group;\n"
    "    uint end = min(base + p.per_group, p.count);\n"
    "    double diff2 = 0.0LF, ref2 = 0.0LF, mx = 0.0LF;\n"
    "    uvec3 n = uvec3(0u); // unwritten, non-finite got, reference NaN/Inf missed\n"
    "    for (uint i = base + t; i < end; i += 256u) {\n"
    "        uint g = LOAD(got, i), r = LOAD(ref, i);\n"
    "        if (g == p.poison && r != p.poison) { n.x++; continue; }\n"
    "        uint gw = WIDEN(g), rw = WIDEN(r);\n"
    "        if ((rw & EXP) == EXP) {\n"
    "            bool same = (rw & MANT) != 0u ? (gw & EXP) == EXP && (gw & MANT) != 0u : gw == rw;\n"
    "            if (!same) n.z++;\n"
    "            continue;\n"
    "        }\n"
    "        if ((gw & EXP) == EXP) { n.y++; continue; }\n"
    "        double fv = value(rw), d = abs(value(gw) - fv);\n"
    "        diff2 += d * d;\n"
    "        ref2 += fv * fv;\n"
    "        mx = max(mx, d);\n"
    "    }\n"
    "    s_diff2[t] = diff2; s_ref2[t] = ref2; s_max[t] = mx; s_n[t] = n;\n"
    "    memoryBarrierShared();\n"
    "    barrier();\n"
    "    // A fixed tree: the same sums in the same order on every run.\n"
    "    for (uint s = 128u; s > 0u; s >>= 1) {\n"
    "        if (t < s) {\n"
    "            s_diff2[t] += s_diff2[t + s];\n"
    "            s_ref2[t] += s_ref2[t + s];\n"
    "            s_max[t] = max(s_max[t], s_max[t + s]);\n"
    "            s_n[t] += s_n[t + s];\n"
    "        }\n"
    "        memoryBarrierShared();\n"
    "        barrier();\n"
    "    }\n"
    "    if (t == 0u)\n"
    "        part[gl_WorkGroupID.x] = Partial(s_diff2[0], s_ref2[0], s_max[0], s_n[0].x, s_n[0].y, s_n[0].z, 0u);\n"
    "}\n";

/* Integer outputs (BITS 32, 16 or 8; narrow elements packed in 32-bit words, so no 8- or 16-bit storage feature is
 * needed): an element is right when its bits are the reference's, unwritten when it holds the poison and the
 * reference does not, and wrong otherwise, as in check.c's compare_ints. */
static const char exact_shader_body[] =
    "layout(local_size_x = 256) in;\n"
    "layout(std430, binding = 0) readonly buffer Got { uint got[]; };\n"
    "layout(std430, binding = 1) readonly buffer Ref { uint ref[]; };\n"
    "struct Partial { uint unwritten; uint wrong; };\n"
    "layout(std430, binding = 2) writeonly buffer Partials { Partial part[]; };\n"
    "layout(push_constant) uniform Push { uint count; uint poison; uint per_group; } p;\n"
    "#if BITS == 32\n"
    "#define LOAD(a, i) a[i]\n"
    "#else\n"
    "const uint PER_WORD = 32u / BITS;\n"
    "#define LOAD(a, i) ((a[(i) / PER_WORD] >> (((i) % PER_WORD) * BITS)) & ((1u << BITS) - 1u))\n"
    "#endif\n"
    "shared uvec2 s_n[256];\n"
    "void main()\n"
    "{\n"
    "    uint t = gl_LocalInvocationID.x;\n"
    "    uint base = gl_WorkGroupID.x * p.per_group;\n"
    "    uint end = min(base + p.per_group, p.count);\n"
    "    uvec2 n = uvec2(0u); // unwritten, wrong\n"
    "    for (uint i = base + t; i < end; i += 256u) {\n"
    "        uint g = LOAD(got, i), r = LOAD(ref, i);\n"
    "        if (g == r) continue;\n"
    "        if (g == p.poison && r != p.poison) n.x++; else n.y++;\n"
    "    }\n"
    "    s_n[t] = n;\n"
    "    memoryBarrierShared();\n"
    "    barrier();\n"
    "    for (uint s = 128u; s > 0u; s >>= 1) {\n"
    "        if (t < s) s_n[t] += s_n[t + s];\n"
    "        memoryBarrierShared();\n"
    "        barrier();\n"
    "    }\n"
    "    if (t == 0u) part[gl_WorkGroupID.x] = Partial(s_n[0].x, s_n[0].y);\n"
    "}\n";

static int elem_kind(vkat_elem_type type)
{
    switch (type) {
    case VKAT_FLOAT32: return 0;
    case VKAT_FLOAT16: return 1;
    case VKAT_BFLOAT16: return 2;
    case VKAT_UNORM8:
    case VKAT_UNORM16: return -1; /* compared as the floats it stands for, on the host */
    default: break;
    }
    switch (vkat_elem_type_size(type)) { /* check.c compares every other type as an integer, exactly */
    case 4: return FIRST_EXACT_KIND;
    case 2: return FIRST_EXACT_KIND + 1;
    case 1: return FIRST_EXACT_KIND + 2;
    default: return -1;
    }
}

static int is_exact_kind(int kind)
{
    return kind >= FIRST_EXACT_KIND;
}

int vkat_gpu_check_supported(const vkat_gpu *gpu, vkat_elem_type type)
{
    int kind = elem_kind(type);
    return gpu && kind >= 0 && (is_exact_kind(kind) || gpu->float64);
}

/* ---- Setting up ---------------------------------------------------------------------------------------------- */

static vkat_result create_pipeline(vkat_gpu_check *gc, int kind, vkat_error *err)
{
    if (gc->pipelines[kind])
        return VKAT_OK;
    VkDevice dev = gc->gpu->device;
    size_t size = sizeof shader_body + sizeof exact_shader_body + 64;
    char *src = malloc(size);
    if (!src)
        return vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
    if (is_exact_kind(kind))
        snprintf(src, size, "#version 450\n#define BITS %d\n%s", 32 >> (kind - FIRST_EXACT_KIND),
                 exact_shader_body);
    else
        snprintf(src, size, "#version 450\n#define ELEM %d\n%s", kind, shader_body);
    vkat_spirv spirv = {0};
    vkat_result r = vkat_compile_glsl(src, "<built-in output check>", gc->gpu->info->api_version, &spirv, err);
    free(src);
    if (r)
        return r;
    VkShaderModuleCreateInfo smci = {VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO};
    smci.codeSize = spirv.count * sizeof(uint32_t);
    smci.pCode = spirv.words;
    VkResult vr = vkCreateShaderModule(dev, &smci, NULL, &gc->modules[kind]);
    vkat_spirv_free(&spirv);
    if (vr != VK_SUCCESS)
        return vkat_fail_vk(err, vr, "vkCreateShaderModule (output check)");
    VkComputePipelineCreateInfo cpci = {VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO};
    cpci.stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
    cpci.stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
    cpci.stage.module = gc->modules[kind];
    cpci.stage.pName = "main";
    cpci.layout = gc->layout;
    vr = vkCreateComputePipelines(dev, gc->gpu->pipeline_cache, 1, &cpci, NULL, &gc->pipelines[kind]);
    if (vr != VK_SUCCESS) {
        gc->pipelines[kind] = VK_NULL_HANDLE;
        return vkat_fail_vk(err, vr, "vkCreateComputePipelines (output check)");
    }
    return VKAT_OK;
}

static vkat_result create_layouts(vkat_gpu_check *gc, uint32_t sets, vkat_error *err)
{
    VkDevice dev = gc->gpu->device;
    VkDescriptorSetLayoutBinding bindings[3];
    memset(bindings, 0, sizeof bindings);
    for (uint32_t i = 0; i < 3; i++) {
        bindings[i].binding = i;
        bindings[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        bindings[i].descriptorCount = 1;
        bindings[i].stageFlags = VK_SHADER_STAGE_COMPUTE_BIT;
    }
    VkDescriptorSetLayoutCreateInfo lci = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_LAYOUT_CREATE_INFO};
    lci.bindingCount = 3;
    lci.pBindings = bindings;
    VkResult vr = vkCreateDescriptorSetLayout(dev, &lci, NULL, &gc->set_layout);
    if (vr != VK_SUCCESS)
        return vkat_fail_vk(err, vr, "vkCreateDescriptorSetLayout (output check)");
    VkPushConstantRange range = {VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof(push_block)};
    VkPipelineLayoutCreateInfo plci = {VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO};
    plci.setLayoutCount = 1;
    plci.pSetLayouts = &gc->set_layout;
    plci.pushConstantRangeCount = 1;
    plci.pPushConstantRanges = &range;
    vr = vkCreatePipelineLayout(dev, &plci, NULL, &gc->layout);
    if (vr != VK_SUCCESS)
        return vkat_fail_vk(err, vr, "vkCreatePipelineLayout (output check)");
    VkDescriptorPoolSize ps = {VK_DESCRIPTOR_TYPE_STORAGE_BUFFER, 3 * sets};
    VkDescriptorPoolCreateInfo pci = {VK_STRUCTURE_TYPE_DESCRIPTOR_POOL_CREATE_INFO};
    pci.maxSets = sets;
    pci.poolSizeCount = 1;
    pci.pPoolSizes = &ps;
    vr = vkCreateDescriptorPool(dev, &pci, NULL, &gc->pool);
    if (vr != VK_SUCCESS)
        return vkat_fail_vk(err, vr, "vkCreateDescriptorPool (output check)");
    return VKAT_OK;
}

static void release_buffer(VkDevice dev, check_buffer *b)
{
    if (b->partials_map)
        vkUnmapMemory(dev, b->partials_memory);
    b->partials_map = NULL;
    if (b->partials)
        vkDestroyBuffer(dev, b->partials, NULL);
    if (b->partials_memory)
        vkFreeMemory(dev, b->partials_memory, NULL);
    if (b->ref)
        vkDestroyBuffer(dev, b->ref, NULL);
    if (b->ref_memory)
        vkFreeMemory(dev, b->ref_memory, NULL);
    b->partials = b->ref = VK_NULL_HANDLE;
    b->partials_memory = b->ref_memory = VK_NULL_HANDLE;
}

/* Buffers, reference upload and descriptor set of output `index`. VKAT_ERR_LIMITS: no memory for it;
 * VKAT_ERR_UNSUPPORTED: too many elements for the shader's 32-bit indices. */
static vkat_result setup_buffer(vkat_gpu_check *gc, size_t index, const vkat_buffer_spec *spec, const void *reference,
                                vkat_error *err)
{
    check_buffer *b = &gc->bufs[index];
    VkDevice dev = gc->gpu->device;
    /* The shader indexes elements with 32-bit integers (a group's end may pass count by a group's worth). */
    if (spec->count > UINT32_MAX - (uint64_t)MAX_GROUPS * LOCAL_SIZE * MIN_PER_INVOCATION * 4)
        return vkat_fail(err, VKAT_ERR_UNSUPPORTED, NULL, 0, "output check: '%s' has too many elements (%llu) for "
                         "32-bit indexing", spec->name, (unsigned long long)spec->count);
    b->kind = elem_kind(spec->type);
    b->count = spec->count;
    unsigned char poison[8] = {0};
    vkat_poison_element(spec->type, poison);
    size_t elem_size = vkat_elem_type_size(spec->type);
    b->poison = 0; /* one element's bits, little-endian, as the shader's LOAD gives them */
    for (size_t k = 0; k < elem_size && k < 4; k++)
        b->poison |= (uint32_t)poison[k] << (8 * k);
    uint64_t per = (b->count + MAX_GROUPS - 1) / MAX_GROUPS;
    per = (per + LOCAL_SIZE - 1) / LOCAL_SIZE * LOCAL_SIZE;
    if (per < LOCAL_SIZE * MIN_PER_INVOCATION)
        per = LOCAL_SIZE * MIN_PER_INVOCATION;
    b->per_group = (uint32_t)per;
    b->groups = (uint32_t)((b->count + per - 1) / per);

    uint64_t data_bytes = 0, range = 0;
    VkBuffer got = vkat_workspace_buffer(gc->ws, index, &data_bytes, &range);
    uint64_t words_bytes = (data_bytes + 3) / 4 * 4; /* narrow outputs are read as words; the canary follows */
    if (words_bytes > range)
        return vkat_fail(err, VKAT_ERR_INTERNAL, NULL, 0, "output check: buffer %zu has no room after its data",
                         index);
    const VkMemoryPropertyFlags local[] = {VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0};
    vkat_result r = vkat_gpu_make_buffer(gc->gpu, words_bytes,
                                         VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT, local,
                                         VKAT_COUNTOF(local), &b->ref, &b->ref_memory, err);
    if (r)
        return r;
    /* Host-visible: the partials are read where the GPU wrote them, no staging copy for a few kilobytes. */
    const VkMemoryPropertyFlags host[] = {VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT |
                                              VK_MEMORY_PROPERTY_HOST_CACHED_BIT,
                                          VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT};
    uint64_t partial_bytes =
        (uint64_t)b->groups * (is_exact_kind(b->kind) ? sizeof(gpu_exact_partial) : sizeof(gpu_partial));
    r = vkat_gpu_make_buffer(gc->gpu, partial_bytes, VK_BUFFER_USAGE_STORAGE_BUFFER_BIT, host, VKAT_COUNTOF(host),
                             &b->partials, &b->partials_memory, err);
    if (r)
        return r;
    void *map = NULL;
    VkResult vr = vkMapMemory(dev, b->partials_memory, 0, VK_WHOLE_SIZE, 0, &map);
    if (vr != VK_SUCCESS)
        return vkat_fail_vk(err, vr, "vkMapMemory (output check)");
    b->partials_map = map;
    r = vkat_workspace_upload(gc->ws, b->ref, reference, data_bytes, err);
    if (r)
        return r;

    VkDescriptorSetAllocateInfo ai = {VK_STRUCTURE_TYPE_DESCRIPTOR_SET_ALLOCATE_INFO};
    ai.descriptorPool = gc->pool;
    ai.descriptorSetCount = 1;
    ai.pSetLayouts = &gc->set_layout;
    vr = vkAllocateDescriptorSets(dev, &ai, &b->set);
    if (vr != VK_SUCCESS)
        return vkat_fail_vk(err, vr, "vkAllocateDescriptorSets (output check)");
    VkDescriptorBufferInfo infos[3] = {
        {got, vkat_workspace_data_offset(gc->ws, index), words_bytes}, {b->ref, 0, words_bytes},
        {b->partials, 0, partial_bytes}};
    VkWriteDescriptorSet writes[3];
    memset(writes, 0, sizeof writes);
    for (uint32_t i = 0; i < 3; i++) {
        writes[i].sType = VK_STRUCTURE_TYPE_WRITE_DESCRIPTOR_SET;
        writes[i].dstSet = b->set;
        writes[i].dstBinding = i;
        writes[i].descriptorCount = 1;
        writes[i].descriptorType = VK_DESCRIPTOR_TYPE_STORAGE_BUFFER;
        writes[i].pBufferInfo = &infos[i];
    }
    vkUpdateDescriptorSets(dev, 3, writes, 0, NULL);
    return create_pipeline(gc, b->kind, err);
}

vkat_result vkat_gpu_check_create(vkat_workspace *ws, const vkat_buffer_spec *buffers, size_t count,
                                  void *const *reference, const int *use, vkat_gpu_check **out, vkat_error *err)
{
    *out = NULL;
    vkat_gpu_check *gc = calloc(1, sizeof *gc);
    if (!gc)
        return vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
    gc->ws = ws;
    gc->gpu = vkat_workspace_gpu(ws);
    gc->count = count;
    gc->bufs = calloc(count ? count : 1, sizeof *gc->bufs);
    vkat_result r = VKAT_OK;
    if (!gc->bufs) {
        r = vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
        goto cleanup;
    }
    uint32_t sets = 0;
    for (size_t i = 0; i < count; i++)
        sets += use[i] && reference[i] && vkat_gpu_check_supported(gc->gpu, buffers[i].type);
    if (sets == 0)
        goto cleanup;
    if ((r = create_layouts(gc, sets, err)))
        goto cleanup;
    for (size_t i = 0; i < count; i++) {
        if (!use[i] || !reference[i] || !vkat_gpu_check_supported(gc->gpu, buffers[i].type))
            continue;
        r = setup_buffer(gc, i, &buffers[i], reference[i], err);
        if (r == VKAT_ERR_LIMITS || r == VKAT_ERR_UNSUPPORTED) {
            /* Out of device memory for a second copy of this output, or too large to index: the host checks it. */
            vkat_log(VKAT_LOG_DEBUG, "buffer '%s' is checked on the host: %s", buffers[i].name,
                     err ? err->message : "no room on the device for its reference");
            release_buffer(gc->gpu->device, &gc->bufs[i]);
            r = VKAT_OK;
            continue;
        }
        if (r)
            goto cleanup;
        gc->bufs[i].used = 1;
    }
cleanup:
    if (r) {
        vkat_gpu_check_destroy(gc);
        return r;
    }
    *out = gc;
    return VKAT_OK;
}

void vkat_gpu_check_destroy(vkat_gpu_check *gc)
{
    if (!gc)
        return;
    VkDevice dev = gc->gpu->device;
    for (size_t i = gc->count; gc->bufs && i-- > 0;)
        release_buffer(dev, &gc->bufs[i]);
    for (int k = ELEM_KINDS; k-- > 0;) {
        if (gc->pipelines[k])
            vkDestroyPipeline(dev, gc->pipelines[k], NULL);
        if (gc->modules[k])
            vkDestroyShaderModule(dev, gc->modules[k], NULL);
    }
    if (gc->pool)
        vkDestroyDescriptorPool(dev, gc->pool, NULL); /* frees the sets */
    if (gc->layout)
        vkDestroyPipelineLayout(dev, gc->layout, NULL);
    if (gc->set_layout)
        vkDestroyDescriptorSetLayout(dev, gc->set_layout, NULL);
    free(gc->bufs);
    free(gc);
}

int vkat_gpu_check_covers(const vkat_gpu_check *gc, size_t index)
{
    return gc && index < gc->count && gc->bufs[index].used;
}

/* ---- Comparing ------------------------------------------------------------------------------------------------ */

typedef struct record_args {
    const vkat_gpu_check *gc;
    const check_buffer *b;
} record_args;

static void record_check(VkCommandBuffer cmd, void *user)
{
    const record_args *a = user;
    push_block push = {(uint32_t)a->b->count, a->b->poison, a->b->per_group};
    vkCmdBindPipeline(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, a->gc->pipelines[a->b->kind]);
    vkCmdBindDescriptorSets(cmd, VK_PIPELINE_BIND_POINT_COMPUTE, a->gc->layout, 0, 1, &a->b->set, 0, NULL);
    vkCmdPushConstants(cmd, a->gc->layout, VK_SHADER_STAGE_COMPUTE_BIT, 0, sizeof push, &push);
    vkCmdDispatch(cmd, a->b->groups, 1, 1);
}

/* Within this relative distance of a tolerance the sums' order could tip the verdict: the host decides. */
#define TOLERANCE_MARGIN 1e-9

vkat_result vkat_gpu_check_compare(vkat_gpu_check *gc, size_t index, const vkat_check_opts *opts,
                                   vkat_gpu_check_report *out, vkat_error *err)
{
    memset(out, 0, sizeof *out);
    if (!vkat_gpu_check_covers(gc, index))
        return vkat_fail(err, VKAT_ERR_INTERNAL, NULL, 0, "output check: buffer %zu is not on the device", index);
    const check_buffer *b = &gc->bufs[index];
    record_args args = {gc, b};
    vkat_result r = vkat_workspace_submit(gc->ws, record_check, &args, CHECK_TIMEOUT_NS, "the output check", err);
    if (r)
        return r;
    if (is_exact_kind(b->kind)) {
        /* Exact: right only when every element is; tolerances do not apply (nor do they on the host). */
        const gpu_exact_partial *parts = b->partials_map;
        for (uint32_t g = 0; g < b->groups; g++) {
            out->unwritten += parts[g].unwritten;
            out->wrong += parts[g].wrong;
        }
        out->ok = !out->unwritten && !out->wrong;
        return VKAT_OK;
    }
    const gpu_partial *parts = b->partials_map;
    double diff2 = 0, ref2 = 0;
    for (uint32_t g = 0; g < b->groups; g++) {
        const gpu_partial *p = &parts[g];
        diff2 += p->diff2;
        ref2 += p->ref2;
        if (p->max_abs > out->max_abs)
            out->max_abs = p->max_abs;
        out->unwritten += p->unwritten;
        out->nonfinite += p->nonfinite;
        out->ref_mismatch += p->ref_mismatch;
    }
    out->rel_l2 = ref2 > 0 ? sqrt(diff2) / sqrt(ref2) : sqrt(diff2);
    double rel_tol = opts ? opts->rel_l2_tolerance : 1e-5, abs_tol = opts ? opts->max_abs_tolerance : INFINITY;
    out->ok = !out->unwritten && !out->nonfinite && !out->ref_mismatch &&
              out->rel_l2 <= rel_tol * (1 - TOLERANCE_MARGIN) && out->max_abs <= abs_tol;
    return VKAT_OK;
}
