/* test_spirv_index.c — vkat_spirv_find_index (spirv_index.h): the multiple and offset of the invocation index each
 * buffer's run-time array is indexed at, on shaders written here as glslang compiles them, and the same modules
 * after SPIRV-Tools' ssa passes (local variables become phis, a loop's counter a phi in its header); and whether
 * the group builtins make grid-stride loops and nothing else (grid_stride). Needs no device. */
#include "compile.h"
#include "spirv_bound.h"
#include "spirv_index.h"
#include "test.h"

#include <vulkan/vulkan_core.h>

static int grid_stride_want = -1; /* what check_module expects of info->grid_stride, -1 nothing */

typedef struct want {
    uint32_t binding, multiple;
    int32_t offset;
    uint8_t unknown, covered;
} want;

static const char *scan_src =
    "#version 450\n"
    "layout(local_size_x_id = 0) in;\n"
    "layout(push_constant) uniform P { uint n; } p;\n"
    "layout(std430, binding = 0) readonly buffer S { float src[]; };\n"
    "layout(std430, binding = 1) writeonly buffer D { float sums[]; };\n"
    "void main() {\n"
    "    uint id = gl_WorkGroupID.x * gl_WorkGroupSize.x + gl_LocalInvocationID.x;\n"
    "    if (id >= p.n) return;\n"
    "    float a = src[id * 2], b = src[id * 2 + 1];\n"
    "    sums[id * 2 + 1] = a;\n"
    "    sums[id * 2 + 2] = a + b;\n"
    "}\n";

static const char *vec4_src = "#version 450\n"
                              "layout(local_size_x = 64) in;\n"
                              "layout(push_constant) uniform P { uint n; } p;\n"
                              "layout(std430, binding = 0) readonly buffer S { float src[]; };\n"
                              "layout(std430, binding = 1) writeonly buffer D { float dst[]; };\n"
                              "void main() {\n"
                              "    uint i = gl_GlobalInvocationID.x;\n"
                              "    if (i >= p.n) return;\n"
                              "    for (uint k = 0u; k < 4u; k++) dst[4u * i + k] = src[(i << 2) + k];\n"
                              "}\n";

/* A fixed workgroup size (glslang folds gl_WorkGroupSize.x to 32), a shift, an index through a push member. */
static const char *mixed_src = "#version 450\n"
                               "layout(local_size_x = 32) in;\n"
                               "layout(push_constant) uniform P { int n; int stride; } p;\n"
                               "layout(std430, binding = 0) readonly buffer S { int src[]; };\n"
                               "layout(std430, binding = 1) buffer D { int dst[]; };\n"
                               "layout(std430, binding = 2) readonly buffer T { int t[]; };\n"
                               "void main() {\n"
                               "    int i = int(gl_WorkGroupID.x * gl_WorkGroupSize.x + gl_LocalInvocationID.x);\n"
                               "    if (i < p.n) dst[i + 1] = src[i * p.stride] + t[i];\n"
                               "}\n";

/* An index that grows round a loop of a push member's count, one along y, and one read from a buffer. */
static const char *grows_src = "#version 450\n"
                               "layout(local_size_x = 64) in;\n"
                               "layout(push_constant) uniform P { uint n; uint m; } p;\n"
                               "layout(std430, binding = 0) writeonly buffer D { float dst[]; };\n"
                               "layout(std430, binding = 1) readonly buffer Y { float y[]; };\n"
                               "layout(std430, binding = 2) readonly buffer I { uint idx[]; };\n"
                               "void main() {\n"
                               "    uint i = gl_GlobalInvocationID.x;\n"
                               "    if (i >= p.n) return;\n"
                               "    uint j = 2u * i;\n"
                               "    for (uint k = 0u; k < p.m; k++) { dst[j] = y[gl_GlobalInvocationID.y]; j += 2u; }\n"
                               "    dst[idx[i]] = 1.0;\n"
                               "}\n";

/* A reduction's two loads a thread, `w * (2 * size) + l` and that + size: at most 2 * i + 1 for i < N. */
static const char *reduce_spec_src =
    "#version 450\n"
    "layout(local_size_x_id = 0) in;\n"
    "layout(std430, binding = 0) readonly buffer S { float src[]; };\n"
    "layout(std430, binding = 1) writeonly buffer D { float dst[]; };\n"
    "void main() {\n"
    "    uint l = gl_LocalInvocationID.x, i = gl_WorkGroupID.x * (gl_WorkGroupSize.x * 2u) + l;\n"
    "    dst[gl_GlobalInvocationID.x] = src[i] + src[i + gl_WorkGroupSize.x];\n"
    "}\n";

static const char *reduce_fixed_src =
    "#version 450\n"
    "layout(local_size_x = 128) in;\n"
    "layout(std430, binding = 0) readonly buffer S { float src[]; };\n"
    "layout(std430, binding = 1) writeonly buffer D { float dst[]; };\n"
    "void main() {\n"
    "    uint l = gl_LocalInvocationID.x, i = gl_WorkGroupID.x * 256u + l;\n"
    "    dst[gl_GlobalInvocationID.x] = src[i] + src[i + 128u];\n"
    "}\n";

/* Grid-stride loops (compile.h grid_stride): the shader of a CUDA port, a fixed size and the stride in a variable. */
static const char *gs_fixed_src =
    "#version 450\n"
    "layout(local_size_x = 256) in;\n"
    "layout(std430, binding = 0) readonly buffer A { float a[]; };\n"
    "layout(std430, binding = 1) writeonly buffer B { float b[]; };\n"
    "layout(push_constant) uniform P { uint n; float alpha; } p;\n"
    "void main() {\n"
    "    uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;\n"
    "    for (uint i = gl_GlobalInvocationID.x; i < p.n; i += stride) b[i] = p.alpha * a[i];\n"
    "}\n";

/* A spec-constant size, the start from the group's offset, a while loop, the stride inline the other way round. */
static const char *gs_spec_src =
    "#version 450\n"
    "layout(local_size_x_id = 0) in;\n"
    "layout(constant_id = 1) const uint N = 1000u;\n"
    "layout(std430, binding = 0) buffer B { int b[]; };\n"
    "void main() {\n"
    "    uint i = gl_WorkGroupID.x * gl_WorkGroupSize.x + gl_LocalInvocationID.x;\n"
    "    while (i < N) { b[i] = b[i] * 3 + int(i); i += gl_WorkGroupSize.x * gl_NumWorkGroups.x; }\n"
    "}\n";

/* gl_NumWorkGroups.x flattening a 2-D index: not a grid stride. */
static const char *gs_flatten_src =
    "#version 450\n"
    "layout(local_size_x = 64) in;\n"
    "layout(std430, binding = 0) writeonly buffer B { float b[]; };\n"
    "layout(push_constant) uniform P { uint n; } p;\n"
    "void main() {\n"
    "    uvec3 gid = gl_GlobalInvocationID;\n"
    "    uint i = gid.y * gl_NumWorkGroups.x * gl_WorkGroupSize.x + gid.x;\n"
    "    if (i < p.n) b[i] = 1.0;\n"
    "}\n";

/* A grid-stride reduction: each invocation's partial sum at its own index, which depends on the grid. */
static const char *gs_partial_src =
    "#version 450\n"
    "layout(local_size_x = 128) in;\n"
    "layout(std430, binding = 0) readonly buffer A { float a[]; };\n"
    "layout(std430, binding = 1) writeonly buffer B { float partial[]; };\n"
    "layout(push_constant) uniform P { uint n; } p;\n"
    "void main() {\n"
    "    float s = 0.0;\n"
    "    for (uint i = gl_GlobalInvocationID.x; i < p.n; i += gl_NumWorkGroups.x * 128u) s += a[i];\n"
    "    partial[gl_GlobalInvocationID.x] = s;\n"
    "}\n";

/* A stride of half the invocations, and a grid-stride loop beside a read of gl_LocalInvocationID. */
static const char *gs_half_src =
    "#version 450\n"
    "layout(local_size_x = 256) in;\n"
    "layout(std430, binding = 0) writeonly buffer B { float b[]; };\n"
    "layout(push_constant) uniform P { uint n; } p;\n"
    "void main() {\n"
    "    for (uint i = gl_GlobalInvocationID.x; i < p.n; i += gl_NumWorkGroups.x * 128u) b[i] = 1.0;\n"
    "}\n";

static const char *gs_local_src =
    "#version 450\n"
    "layout(local_size_x = 256) in;\n"
    "layout(std430, binding = 0) buffer B { float b[]; };\n"
    "layout(push_constant) uniform P { uint n; } p;\n"
    "void main() {\n"
    "    for (uint i = gl_GlobalInvocationID.x; i < p.n; i += gl_NumWorkGroups.x * 256u) b[i] = 1.0;\n"
    "    if (gl_LocalInvocationID.x == 0u) b[0] = 2.0;\n"
    "}\n";

/* Rows in a grid-stride loop, a column loop inside: the row indexes everything. gl_LocalInvocationIndex as the
 * local x of a 1-D workgroup. */
static const char *gs_rows_src =
    "#version 450\n"
    "layout(local_size_x = 64) in;\n"
    "layout(std430, binding = 0) writeonly buffer B { float b[]; };\n"
    "layout(push_constant) uniform P { uint rows; uint cols; } p;\n"
    "void main() {\n"
    "    uint stride = gl_WorkGroupSize.x * gl_NumWorkGroups.x;\n"
    "    for (uint r = gl_WorkGroupID.x * 64u + gl_LocalInvocationIndex; r < p.rows; r += stride)\n"
    "        for (uint c = 0u; c < p.cols; c++) b[r * p.cols + c] = float(c);\n"
    "}\n";

/* A 2-D workgroup; gl_WorkGroupID.y read beside the loop; a subgroup's position read beside it. */
static const char *gs_planar_src =
    "#version 450\n"
    "layout(local_size_x = 64, local_size_y = 2) in;\n"
    "layout(std430, binding = 0) writeonly buffer B { float b[]; };\n"
    "layout(push_constant) uniform P { uint n; } p;\n"
    "void main() {\n"
    "    for (uint i = gl_GlobalInvocationID.x; i < p.n; i += gl_NumWorkGroups.x * 64u) b[i] = 1.0;\n"
    "}\n";

static const char *gs_group_y_src =
    "#version 450\n"
    "layout(local_size_x = 64) in;\n"
    "layout(std430, binding = 0) writeonly buffer B { float b[]; };\n"
    "layout(push_constant) uniform P { uint n; } p;\n"
    "void main() {\n"
    "    for (uint i = gl_GlobalInvocationID.x; i < p.n; i += gl_NumWorkGroups.x * 64u) b[i] = 1.0;\n"
    "    b[p.n + gl_WorkGroupID.y] = 2.0;\n"
    "}\n";

static const char *gs_subgroup_src =
    "#version 450\n"
    "#extension GL_KHR_shader_subgroup_basic : require\n"
    "layout(local_size_x = 64) in;\n"
    "layout(std430, binding = 0) writeonly buffer B { float b[]; };\n"
    "layout(push_constant) uniform P { uint n; } p;\n"
    "void main() {\n"
    "    for (uint i = gl_GlobalInvocationID.x; i < p.n; i += gl_NumWorkGroups.x * 64u) b[i] = float(gl_SubgroupID);\n"
    "}\n";

static void check_module(const char *what, const vkat_spirv *m, const want *w, size_t count)
{
    vkat_error err = {0};
    vkat_spirv_info *info = calloc(1, sizeof *info);
    CHECK_MSG(vkat_spirv_reflect(m, NULL, 0, info, &err) == VKAT_OK, "%s: %s", what, err.message);
    vkat_spirv_find_bound(m->words, m->count, info);
    vkat_spirv_find_index(m->words, m->count, info);
    CHECK_MSG(grid_stride_want < 0 || info->grid_stride == grid_stride_want, "%s: grid_stride %d, want %d", what,
              info->grid_stride, grid_stride_want);
    for (size_t i = 0; i < count; i++) {
        uint32_t k = 0;
        while (k < info->binding_count && info->bindings[k].binding != w[i].binding)
            k++;
        CHECK_MSG(k < info->binding_count, "%s: binding %u", what, w[i].binding);
        if (k == info->binding_count)
            continue;
        const __typeof__(info->bindings[0]) *b = &info->bindings[k];
        CHECK_MSG(b->index_multiple == w[i].multiple && b->index_offset == w[i].offset &&
                      b->index_unknown == w[i].unknown && b->index_covered == w[i].covered,
                  "%s, binding %u: multiple %u offset %d unknown %u covered %u, want %u %d %u %u", what, w[i].binding,
                  b->index_multiple, b->index_offset, b->index_unknown, b->index_covered, w[i].multiple, w[i].offset,
                  w[i].unknown, w[i].covered);
    }
    free(info);
}

/* The module as glslang writes it, and after the ssa passes. */
static void check_shader(const char *name, const char *src, const want *w, size_t count)
{
    vkat_spirv m = {0}, ssa = {0};
    vkat_error err = {0};
    CHECK_MSG(vkat_compile_glsl(src, name, VK_API_VERSION_1_3, &m, &err) == VKAT_OK, "%s: %s", name, err.message);
    check_module(name, &m, w, count);
    CHECK_MSG(vkat_spirv_optimize(&m, VK_API_VERSION_1_3, VKAT_SPIRV_OPT_SSA, &ssa, &err) == VKAT_OK, "%s: %s", name,
              err.message);
    char what[64];
    snprintf(what, sizeof what, "%s after ssa", name);
    check_module(what, &ssa, w, count);
    vkat_spirv_free(&m);
    vkat_spirv_free(&ssa);
}

/* The module's grid_stride, as glslang writes it and after the ssa passes. */
static void check_grid_stride(const char *name, const char *src, int want_it)
{
    grid_stride_want = want_it;
    check_shader(name, src, NULL, 0);
    grid_stride_want = -1;
}

int main(void)
{
    /* 2 * id + 1 read, 2 * id + 2 written (element 0 never); gl_WorkGroupSize.x from the spec constant */
    const want scan[] = {{0, 2, 1, 0, 0}, {1, 2, 2, 0, 0}};
    check_shader("scan.comp", scan_src, scan, 2);
    /* 4 * i + k and (i << 2) + k for k < 4: up to 4 * i + 3, each of the four written */
    const want vec4[] = {{0, 4, 3, 0, 0}, {1, 4, 3, 0, 1}};
    check_shader("vec4.comp", vec4_src, vec4, 2);
    /* i + 1 written (element 0 never); i * p.stride not followed; t[i] as ever */
    const want mixed[] = {{0, 0, 0, 1, 0}, {1, 1, 1, 0, 0}, {2, 1, 0, 0, 0}};
    check_shader("mixed.comp", mixed_src, mixed, 3);
    /* j grows by 2 each trip of a loop of p.m: not followed, nor gid.y nor idx[i]; idx itself read at i */
    const want grows[] = {{0, 0, 0, 1, 0}, {1, 0, 0, 1, 0}, {2, 1, 0, 0, 0}};
    check_shader("grows.comp", grows_src, grows, 3);
    /* w * 2S + l + S: 2 * i + 1 at S = 1 (a spec constant); with S = 128, 2 * i + 1 exactly (+ 128 - 127) */
    const want reduce[] = {{0, 2, 1, 0, 0}, {1, 1, 0, 0, 1}};
    check_shader("reduce_spec.comp", reduce_spec_src, reduce, 2);
    check_shader("reduce_fixed.comp", reduce_fixed_src, reduce, 2);
    check_grid_stride("gs_fixed.comp", gs_fixed_src, 1);
    check_grid_stride("gs_spec.comp", gs_spec_src, 1);
    check_grid_stride("gs_flatten.comp", gs_flatten_src, 0);
    check_grid_stride("gs_partial.comp", gs_partial_src, 0);
    check_grid_stride("gs_half.comp", gs_half_src, 0);
    check_grid_stride("gs_local.comp", gs_local_src, 0);
    check_grid_stride("gs_rows.comp", gs_rows_src, 1);
    check_grid_stride("gs_planar.comp", gs_planar_src, 0);
    check_grid_stride("gs_group_y.comp", gs_group_y_src, 0);
    check_grid_stride("gs_subgroup.comp", gs_subgroup_src, 0);
    check_grid_stride("vec4.comp", vec4_src, 0);
    check_grid_stride("scan.comp", scan_src, 0);
    TEST_END();
}
