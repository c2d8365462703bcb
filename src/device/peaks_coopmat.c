/* peaks_coopmat.c — the tensor-core peak of every cooperative-matrix shape a device lists, and the roofline term
 * that uses it.
 *
 * For each subgroup-scope shape of vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR (device.c keeps them in
 * vkat_device_info.coopmat), a generated shader loads one A and one B fragment once and then only chains
 * coopMatMulAdd into NACC independent accumulators, NSG subgroups per workgroup, eight workgroups per compute unit.
 * One accumulator per subgroup leaves the tensor cores waiting on each multiply's latency; the search over NACC and
 * NSG (1..8 each) finds how much independent work they need, and the best rate is the shape's peak. The shader
 * does no memory traffic in the loop, so nothing but the multiply-adds bounds it. Must not print or exit. */
#include "bench.h"
#include "peaks.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define COOPMAT_TIMEOUT_NS (60ull * 1000000000ull)
#define CHAIN_UNROLL 4 /* multiply-adds per accumulator per loop round, so the loop's branch costs little */

static const uint32_t search_accumulators[] = {1, 2, 4, 8};
static const uint32_t search_subgroups[] = {1, 2, 4, 8};

/* ---- Types ----------------------------------------------------------------------------------------------------- */

typedef struct glsl_type {
    const char *name; /* Vulkan component type name, as device.c spells it */
    const char *glsl;
    const char *extension; /* NULL: core */
    uint32_t bytes;
} glsl_type;

static const glsl_type glsl_types[] = {
    {"float16", "float16_t", "GL_EXT_shader_explicit_arithmetic_types_float16", 2},
    {"float32", "float", NULL, 4},
    {"bfloat16", "bfloat16_t", "GL_EXT_bfloat16", 2},
    {"int8", "int8_t", "GL_EXT_shader_explicit_arithmetic_types_int8", 1},
    {"uint8", "uint8_t", "GL_EXT_shader_explicit_arithmetic_types_int8", 1},
    {"int16", "int16_t", "GL_EXT_shader_explicit_arithmetic_types_int16", 2},
    {"uint16", "uint16_t", "GL_EXT_shader_explicit_arithmetic_types_int16", 2},
    {"int32", "int32_t", "GL_EXT_shader_explicit_arithmetic_types_int32", 4},
    {"uint32", "uint32_t", "GL_EXT_shader_explicit_arithmetic_types_int32", 4},
};

static const glsl_type *find_type(const char *name)
{
    for (size_t i = 0; name && i < sizeof glsl_types / sizeof glsl_types[0]; i++)
        if (!strcmp(glsl_types[i].name, name))
            return &glsl_types[i];
    return NULL;
}

int vkat_coopmat_peak_supported(const vkat_coopmat_shape *s)
{
    return s->scope && !strcmp(s->scope, "subgroup") && !s->saturating && find_type(s->a_name) &&
           find_type(s->b_name) && find_type(s->c_name) && find_type(s->result_name) && s->m && s->n && s->k;
}

/* ---- Shader ---------------------------------------------------------------------------------------------------- */

static void add_extension(char *buf, size_t size, size_t *used, const char *ext)
{
    if (!ext || strstr(buf, ext))
        return;
    int n = snprintf(buf + *used, size - *used, "#extension %s : require\n", ext);
    if (n > 0)
        *used += (size_t)n < size - *used ? (size_t)n : size - *used - 1;
}

vkat_result vkat_coopmat_peak_glsl(const vkat_coopmat_shape *s, uint32_t accumulators, uint32_t subgroups,
                                   uint32_t subgroup_size, char *buf, size_t size, vkat_error *err)
{
    if (!vkat_coopmat_peak_supported(s))
        return vkat_fail(err, VKAT_ERR_UNSUPPORTED, NULL, 0, "no peak shader for the %s x %s -> %s shape",
                         s->a_name ? s->a_name : "?", s->b_name ? s->b_name : "?", s->c_name ? s->c_name : "?");
    const glsl_type *a = find_type(s->a_name), *b = find_type(s->b_name), *c = find_type(s->c_name);
    size_t used = 0;
    int n = snprintf(buf, size,
                     "#version 450\n"
                     "#extension GL_EXT_control_flow_attributes : require\n"
                     "#extension GL_KHR_shader_subgroup_basic : require\n"
                     "#extension GL_KHR_memory_scope_semantics : require\n"
                     "#extension GL_KHR_cooperative_matrix : require\n");
    used = n > 0 ? (size_t)n : 0;
    add_extension(buf, size, &used, a->extension);
    add_extension(buf, size, &used, b->extension);
    add_extension(buf, size, &used, c->extension);
    /* Fragments come from 32-bit words (strides in words), so no 8/16-bit storage feature is needed. Only
     * workgroup 0 stores, one slot per subgroup: the compiler cannot prove the chains dead, and nothing races. */
    n = snprintf(buf + used, size - used,
                 "layout(local_size_x = %u) in;\n"
                 "layout(std430, binding = 0) readonly buffer BufA { uint A[]; };\n"
                 "layout(std430, binding = 1) readonly buffer BufB { uint B[]; };\n"
                 "layout(std430, binding = 2) writeonly buffer BufC { uint C[]; };\n"
                 "layout(push_constant) uniform P { uint rounds; };\n"
                 "const uint NACC = %uu;\n"
                 "void main() {\n"
                 "    coopmat<%s, gl_ScopeSubgroup, %u, %u, gl_MatrixUseA> a;\n"
                 "    coopmat<%s, gl_ScopeSubgroup, %u, %u, gl_MatrixUseB> b;\n"
                 "    coopMatLoad(a, A, 0, %u, gl_CooperativeMatrixLayoutRowMajor);\n"
                 "    coopMatLoad(b, B, 0, %u, gl_CooperativeMatrixLayoutRowMajor);\n"
                 "    coopmat<%s, gl_ScopeSubgroup, %u, %u, gl_MatrixUseAccumulator> acc[NACC];\n"
                 "    [[unroll]] for (uint i = 0; i < NACC; i++)\n"
                 "        acc[i] = coopmat<%s, gl_ScopeSubgroup, %u, %u, gl_MatrixUseAccumulator>(%s(i));\n"
                 "    for (uint r = 0; r < rounds; r++) {\n"
                 "        [[unroll]] for (uint u = 0; u < %uu; u++)\n"
                 "            [[unroll]] for (uint i = 0; i < NACC; i++)\n"
                 "                acc[i] = coopMatMulAdd(a, b, acc[i]);\n"
                 "    }\n"
                 "    [[unroll]] for (uint i = 1; i < NACC; i++)\n"
                 "        acc[0] = acc[0] + acc[i];\n"
                 "    if (gl_WorkGroupID.x == 0u)\n"
                 "        coopMatStore(acc[0], C, gl_SubgroupID * %uu, %u, gl_CooperativeMatrixLayoutRowMajor);\n"
                 "}\n",
                 subgroups * subgroup_size, accumulators, a->glsl, s->m, s->k, b->glsl, s->k, s->n,
                 (s->k * a->bytes + 3) / 4, (s->n * b->bytes + 3) / 4, c->glsl, s->m, s->n, c->glsl, s->m, s->n,
                 c->glsl, CHAIN_UNROLL, (s->m * s->n * c->bytes + 3) / 4, (s->n * c->bytes + 3) / 4);
    if (n < 0 || (size_t)n >= size - used)
        return vkat_fail(err, VKAT_ERR_LIMITS, NULL, 0, "peak shader longer than its buffer");
    return VKAT_OK;
}

/* ---- Measurement ----------------------------------------------------------------------------------------------- */

static const vkat_timing_opts coopmat_timing = {
    .warmup_s = 0.05, .min_sample_s = 1e-3, .repetitions = 3, .max_time_s = 1, .timeout_ns = COOPMAT_TIMEOUT_NS};

/* The buffer of one fragment's elements, initialised as its own type where the workspace knows it (valid numbers,
 * not random bits), else as 32-bit words. */
static vkat_buffer_spec fragment_buffer(const char *name, vkat_elem_type type, uint32_t bytes, uint64_t elements)
{
    vkat_buffer_spec b = {name, type, elements, VKAT_INIT_RANDOM, -1, 1, VKAT_DIR_IN};
    if (type == VKAT_INT8 || type == VKAT_UINT8) {
        b.a = 0;
        b.b = 3;
    } else if (type >= VKAT_ELEM_TYPE_COUNT) {
        b.type = VKAT_UINT32;
        b.count = (elements * bytes + 3) / 4;
        b.init = VKAT_INIT_IOTA;
        b.a = 0;
        b.b = 1;
    }
    return b;
}

/* One variant: *tflops from the fastest sample; a variant the driver rejects is logged and left NaN. */
static vkat_result measure_variant(vkat_gpu *gpu, const vkat_coopmat_shape *s, uint32_t nacc, uint32_t nsg,
                                   uint32_t groups, double multiplies, double *tflops, vkat_error *err)
{
    const vkat_device_info *info = gpu->info;
    char glsl[4096];
    *tflops = NAN;
    vkat_result r = vkat_coopmat_peak_glsl(s, nacc, nsg, info->subgroup_size, glsl, sizeof glsl, err);
    if (r)
        return r;
    const glsl_type *c = find_type(s->c_name);
    vkat_buffer_spec bufs[3] = {
        fragment_buffer("A", s->a_type, find_type(s->a_name)->bytes, (uint64_t)s->m * s->k),
        fragment_buffer("B", s->b_type, find_type(s->b_name)->bytes, (uint64_t)s->k * s->n),
        {"C", VKAT_UINT32, ((uint64_t)s->m * s->n * c->bytes + 3) / 4 * nsg, VKAT_INIT_ZERO, 0, 0, VKAT_DIR_OUT},
    };
    double per_round = (double)groups * nsg * nacc * CHAIN_UNROLL;
    uint32_t rounds = (uint32_t)fmax(16, multiplies / per_round);
    vkat_spirv spv = {0};
    vkat_workspace *ws = NULL;
    vkat_kernel *k = NULL;
    vkat_timing t;
    vkat_error local = {0};
    r = vkat_compile_glsl(glsl, "<peaks: coopmat>", info->api_version, &spv, &local);
    if (!r)
        r = vkat_workspace_create(gpu, bufs, 3, 1, &ws, &local);
    if (!r)
        r = vkat_kernel_create(ws, &spv, "main", NULL, 0, sizeof rounds, &k, &local);
    uint32_t dispatch[3] = {groups, 1, 1};
    if (!r)
        r = vkat_kernel_measure(k, dispatch, &rounds, &coopmat_timing, &t, &local);
    if (!r)
        *tflops = per_round * rounds * 2.0 * s->m * s->n * s->k / t.min_s / 1e12;
    vkat_kernel_destroy(k);
    vkat_workspace_destroy(ws);
    vkat_spirv_free(&spv);
    /* A lost device or a timeout ends the whole measurement; a variant the compiler or driver refuses does not. */
    if (r == VKAT_ERR_DEVICE_LOST || r == VKAT_ERR_TIMEOUT) {
        if (err)
            *err = local;
        return r;
    }
    if (r) {
        char msg[512];
        vkat_error_format(&local, msg, sizeof msg);
        vkat_log(VKAT_LOG_DEBUG, "coopmat peak %ux%ux%u %s, %u accumulators x %u subgroups: %s", s->m, s->n, s->k,
                 s->a_name, nacc, nsg, msg);
    }
    return VKAT_OK;
}

vkat_result vkat_peaks_measure_coopmat(vkat_gpu *gpu, vkat_peaks *out, vkat_error *err)
{
    const vkat_device_info *info = gpu->info;
    out->coopmat_count = 0;
    int cpu = info->device_type && !strcmp(info->device_type, "cpu");
    uint32_t groups = 8 * (info->compute_units ? info->compute_units : 128);
    if (cpu)
        groups = 16;
    for (uint32_t i = 0; i < info->coopmat_count && out->coopmat_count < VKAT_MAX_COOPMAT_PEAKS; i++) {
        const vkat_coopmat_shape *s = &info->coopmat[i];
        if (!vkat_coopmat_peak_supported(s)) {
            vkat_log(VKAT_LOG_DEBUG, "coopmat peak: skipping %ux%ux%u %s x %s -> %s (%s scope%s)", s->m, s->n, s->k,
                     s->a_name, s->b_name, s->c_name, s->scope ? s->scope : "?", s->saturating ? ", saturating" : "");
            continue;
        }
        vkat_coopmat_peak *p = &out->coopmat[out->coopmat_count++];
        memset(p, 0, sizeof *p);
        p->m = s->m;
        p->n = s->n;
        p->k = s->k;
        snprintf(p->a_type, sizeof p->a_type, "%s", s->a_name);
        snprintf(p->b_type, sizeof p->b_type, "%s", s->b_name);
        snprintf(p->c_type, sizeof p->c_type, "%s", s->c_name);
        snprintf(p->result_type, sizeof p->result_type, "%s", s->result_name);
        p->tflops = NAN;
        /* About 3e12 operations per dispatch on a GPU (a few ms at hundreds of TFLOP/s); little on a CPU. */
        double multiplies = (cpu ? 1e9 : 3e12) / (2.0 * s->m * s->n * s->k);
        for (size_t a = 0; a < sizeof search_accumulators / sizeof search_accumulators[0]; a++) {
            for (size_t g = 0; g < sizeof search_subgroups / sizeof search_subgroups[0]; g++) {
                uint32_t nacc = search_accumulators[a], nsg = search_subgroups[g];
                if (nsg * info->subgroup_size > info->max_workgroup_invocations)
                    continue;
                double tf;
                vkat_result r = measure_variant(gpu, s, nacc, nsg, groups, multiplies, &tf, err);
                if (r)
                    return r;
                vkat_log(VKAT_LOG_DEBUG, "coopmat peak %ux%ux%u %s->%s: %u acc x %u sg: %.1f TFLOP/s", s->m, s->n, s->k,
                         s->a_name, s->c_name, nacc, nsg, tf);
                if (tf > p->tflops || (isnan(p->tflops) && !isnan(tf))) {
                    p->tflops = tf;
                    p->accumulators = nacc;
                    p->subgroups = nsg;
                }
            }
        }
    }
    return VKAT_OK;
}

void vkat_coopmat_peak_format(const vkat_coopmat_peak *p, char *buf, size_t size)
{
    if (isnan(p->tflops))
        snprintf(buf, size, "%ux%ux%u %s x %s -> %s: not measured", p->m, p->n, p->k, p->a_type, p->b_type, p->c_type);
    else
        snprintf(buf, size, "%ux%ux%u %s x %s -> %s: %.4g (%u accumulators x %u subgroups)", p->m, p->n, p->k,
                 p->a_type, p->b_type, p->c_type, p->tflops, p->accumulators, p->subgroups);
}

/* ---- Roofline -------------------------------------------------------------------------------------------------- */

double vkat_peaks_tensor_tflops(const vkat_peaks *peaks, const char *tensor)
{
    if (!peaks || !tensor || !tensor[0])
        return NAN;
    char ab[16] = "", acc[16] = "";
    int any = !strcmp(tensor, "*");
    if (!any) {
        const char *comma = strchr(tensor, ',');
        if (!comma || (size_t)(comma - tensor) >= sizeof ab || strlen(comma + 1) >= sizeof acc)
            return NAN;
        memcpy(ab, tensor, (size_t)(comma - tensor));
        snprintf(acc, sizeof acc, "%s", comma + 1);
    }
    double best = NAN;
    for (uint32_t i = 0; i < peaks->coopmat_count && i < VKAT_MAX_COOPMAT_PEAKS; i++) {
        const vkat_coopmat_peak *p = &peaks->coopmat[i];
        if (!any && (strcmp(p->a_type, ab) || strcmp(p->b_type, ab) || (strcmp(acc, "*") && strcmp(p->c_type, acc))))
            continue;
        if (p->tflops > 0 && !(p->tflops <= best))
            best = p->tflops;
    }
    return best;
}
