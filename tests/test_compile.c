/* test_compile.c — the linked glslang and SPIRV-Tools: compile, validate, disassemble and reflect (parameter
 * blocks' members included); compile errors point at the right line; cooperative-matrix and bf16 shaders compile
 * and validate (proof that the toolchain is new enough; lavapipe cannot run them). Needs no device. */
#include "compile.h"
#include "test.h"

#include <vulkan/vulkan_core.h>

static const char *add_src = "#version 450\n"
                             "layout(local_size_x = 64) in;\n"
                             "layout(std430, binding = 0) buffer A { float a[]; };\n"
                             "void main() { a[gl_GlobalInvocationID.x] += 1.0; }\n";

static const char *error_src = "#version 450\n"
                               "layout(local_size_x = 64) in;\n"
                               "void main() {\n"
                               "    float x = undefined_thing;\n"
                               "}\n";

/* Shared memory sized by specialization constants, local size from constant ids. */
static const char *spec_src = "#version 450\n"
                              "layout(local_size_x_id = 0, local_size_y_id = 1) in;\n"
                              "layout(constant_id = 2) const int BM = 16;\n"
                              "layout(constant_id = 3) const int BK = 8;\n"
                              "shared float tile[BM * BK];\n"
                              "shared vec4 quad[4];\n"
                              "layout(std430, binding = 0) buffer A { float a[]; };\n"
                              "void main() { tile[gl_LocalInvocationIndex] = 1.0; barrier();\n"
                              "  a[gl_GlobalInvocationID.x] = tile[0] + quad[0].x; }\n";

/* Shared arrays sized by the workgroup size (gl_WorkGroupSize.x of local_size_x_id: a component of a
 * specialization-constant composite), as third-party reductions declare them. */
static const char *wg_sized_src = "#version 450\n"
                                  "layout(local_size_x_id = 0, local_size_y_id = 1) in;\n"
                                  "shared float row[gl_WorkGroupSize.x];\n"
                                  "shared uint grid[gl_WorkGroupSize.x * gl_WorkGroupSize.y + 1];\n"
                                  "layout(std430, binding = 0) buffer A { float a[]; };\n"
                                  "void main() { row[gl_LocalInvocationID.x] = 1.0; grid[0] = 2u; barrier();\n"
                                  "  a[gl_GlobalInvocationID.x] = row[0] + float(grid[0]); }\n";

static const char *coopmat_src =
    "#version 450\n"
    "#extension GL_KHR_cooperative_matrix : require\n"
    "#extension GL_KHR_memory_scope_semantics : require\n"
    "#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require\n"
    "layout(local_size_x = 32) in;\n"
    "layout(std430, binding = 0) buffer A { float16_t a[]; };\n"
    "layout(std430, binding = 1) buffer C { float c[]; };\n"
    "void main() {\n"
    "  coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseA> ma;\n"
    "  coopmat<float16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseB> mb;\n"
    "  coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator> mc = "
    "coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator>(0.0);\n"
    "  coopMatLoad(ma, a, 0, 16, gl_CooperativeMatrixLayoutRowMajor);\n"
    "  coopMatLoad(mb, a, 256, 16, gl_CooperativeMatrixLayoutRowMajor);\n"
    "  mc = coopMatMulAdd(ma, mb, mc);\n"
    "  coopMatStore(mc, c, 0, 16, gl_CooperativeMatrixLayoutRowMajor);\n"
    "}\n";

static const char *bf16_src =
    "#version 450\n"
    "#extension GL_KHR_cooperative_matrix : require\n"
    "#extension GL_KHR_memory_scope_semantics : require\n"
    "#extension GL_EXT_bfloat16 : require\n"
    "layout(local_size_x = 32) in;\n"
    "layout(std430, binding = 0) buffer A { bfloat16_t a[]; };\n"
    "layout(std430, binding = 1) buffer C { float c[]; };\n"
    "void main() {\n"
    "  coopmat<bfloat16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseA> ma;\n"
    "  coopmat<bfloat16_t, gl_ScopeSubgroup, 16, 16, gl_MatrixUseB> mb;\n"
    "  coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator> mc = "
    "coopmat<float, gl_ScopeSubgroup, 16, 16, gl_MatrixUseAccumulator>(0.0);\n"
    "  coopMatLoad(ma, a, 0, 16, gl_CooperativeMatrixLayoutRowMajor);\n"
    "  coopMatLoad(mb, a, 256, 16, gl_CooperativeMatrixLayoutRowMajor);\n"
    "  mc = coopMatMulAdd(ma, mb, mc);\n"
    "  coopMatStore(mc, c, 0, 16, gl_CooperativeMatrixLayoutRowMajor);\n"
    "}\n";

/* Parameter blocks: a std140 uniform block of a mat3 (columns 16 bytes apart), a float array (16-byte stride) and a
 * row-major mat2x3 (three rows of two); a readonly storage block of parameters; a storage block of a table (data). */
static const char *blocks_src =
    "#version 450\n"
    "layout(local_size_x = 64) in;\n"
    "layout(std140, binding = 0) uniform U { mat3 t; float w[3]; layout(row_major) mat2x3 r; uint n; } u;\n"
    "layout(std430, binding = 1) readonly buffer P { vec2 size; float k; } p;\n"
    "layout(std430, binding = 2) readonly buffer Lut { float lut[256]; };\n"
    "layout(std430, binding = 3) buffer Out { float o[]; };\n"
    "void main() { uint i = gl_GlobalInvocationID.x; if (i >= u.n) return;\n"
    "  vec3 v = u.t * vec3(u.w[0], u.w[1], u.w[2]) + u.r * vec2(p.size.x, p.k);\n"
    "  o[i] = v.x + v.y + v.z + lut[i % 256u]; }\n";

/* blocks_src's reflection, compiled for `api` (SPIR-V 1.0 keeps storage blocks in the Uniform storage class). */
static void check_blocks(uint32_t api)
{
    vkat_spirv m;
    vkat_error err = {0};
    vkat_spirv_info info;
    CHECK_MSG(vkat_compile_glsl(blocks_src, "blocks.comp", api, &m, &err) == VKAT_OK, "%s", err.message);
    CHECK(vkat_spirv_reflect(&m, NULL, 0, &info, &err) == VKAT_OK);
    CHECK_MSG(info.block_count == 2 && info.block_member_count[0] == 4 && info.block_member_count[1] == 2,
              "%u blocks", info.block_count);
    const vkat_block_member *t = &info.block_members[0][0], *w = &info.block_members[0][1],
                            *r = &info.block_members[0][2];
    CHECK(t->is_matrix && t->vectors == 3 && t->lanes == 3 && t->vector_stride == 16 && t->size == 48);
    CHECK(w->count == 3 && w->array_stride == 16 && w->offset == 48 && w->size == 48);
    CHECK(r->is_matrix && r->vectors == 3 && r->lanes == 2 && r->offset == 96);
    CHECK(vkat_block_member_scalar_at(t, 0) == 'f' && !vkat_block_member_scalar_at(t, 12) &&
          vkat_block_member_scalar_at(t, 16) == 'f');
    CHECK(vkat_block_member_scalar_at(w, 64) == 'f' && !vkat_block_member_scalar_at(w, 52));
    CHECK(vkat_block_member_scalar_at(r, 100) == 'f' && !vkat_block_member_scalar_at(r, 104));
    CHECK(info.block_members[0][3].kind == 'i' && info.block_members[0][3].offset == 144);
    CHECK(info.bindings[info.block_binding[1]].binding == 1 && info.block_members[1][0].vec_kind == 'f');
    vkat_spirv_free(&m);
}

/* A push block of a struct (vec3 then float), an array of structs, a nested array and a 64-bit member in a struct:
 * their leaves at their offsets, the bytes between leaves needing no value, a 64-bit one needing one of no type. */
static const char *push_leaves_src =
    "#version 450\n"
    "#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require\n"
    "layout(local_size_x = 64) in;\n"
    "struct L { vec3 c; float k; };\n"
    "struct R { float s; ivec2 r; };\n"
    "struct N { uint64_t seed; float a; };\n"
    "layout(push_constant) uniform P { uint n; L l; R rs[2]; uvec2 g[2][2]; N z; } p;\n"
    "layout(std430, binding = 0) buffer Out { float o[]; };\n"
    "void main() { o[0] = p.l.c.y + p.rs[1].s + float(p.g[1][0].y) + float(p.z.seed) + float(p.n); }\n";

static void check_push_leaves(void)
{
    vkat_spirv m;
    vkat_error err = {0};
    vkat_spirv_info info;
    CHECK_MSG(vkat_compile_glsl(push_leaves_src, "leaves.comp", VK_API_VERSION_1_3, &m, &err) == VKAT_OK, "%s",
              err.message);
    CHECK(vkat_spirv_reflect(&m, NULL, 0, &info, &err) == VKAT_OK);
    CHECK(info.push_member_count == 5 && info.push_leaves_of == 0x1e && info.push_leaf_count == 2 + 4 + 2 + 2);
    const vkat_block_member *c = &info.push_leaves[0], *r1 = &info.push_leaves[4], *g1 = &info.push_leaves[7];
    CHECK(!strcmp(c->name, "c") && c->offset == 16 && c->vec_kind == 'f' && c->components == 3);
    CHECK(!strcmp(r1->name, "1_s") && info.push_leaf_parent[4] == 2 && r1->offset == 48 && r1->kind == 'f');
    CHECK(!strcmp(g1->name, "1") && g1->offset == 80 && g1->count == 2 && g1->array_stride == 8 && g1->leaf == 'i');
    CHECK(!strcmp(info.push_leaves[8].name, "seed") && !info.push_leaves[8].leaf && info.push_leaves[8].size == 8);
    CHECK(vkat_push_scalar_at(&info, 1, 28) == 'f' && vkat_push_scalar_at(&info, 2, 36) == 0); /* R's padding */
    CHECK(vkat_push_scalar_at(&info, 2, 40) == 'i' && vkat_push_scalar_at(&info, 4, 100) == '?');
    CHECK(vkat_push_scalar_at(&info, 4, 104) == 'f' && vkat_push_scalar_at(&info, 0, 4) == 0);
    vkat_spirv_free(&m);
}

int main(void)
{
    vkat_spirv m;
    vkat_error err = {0};
    const uint32_t v13 = VK_API_VERSION_1_3;

    CHECK(vkat_compile_glsl(add_src, "add.comp", v13, &m, &err) == VKAT_OK);
    CHECK(m.count > 5 && m.words[0] == 0x07230203);
    CHECK(vkat_validate_spirv(&m, v13, &err) == VKAT_OK);
    CHECK(vkat_validate_spirv(&m, VK_API_VERSION_1_1, &err) == VKAT_ERR_VALIDATE); /* SPIR-V 1.6 > Vulkan 1.1 */
    char *text = NULL;
    CHECK(vkat_disassemble_spirv(&m, &text, &err) == VKAT_OK);
    CHECK(text && strstr(text, "OpEntryPoint GLCompute"));
    free(text);
    vkat_spirv_info info;
    CHECK(vkat_spirv_reflect(&m, NULL, 0, &info, &err) == VKAT_OK);
    CHECK(info.local_size[0] == 64 && info.local_size[1] == 1 && info.shared_bytes == 0);
    CHECK(vkat_spirv_hash(&m) != 0);
    vkat_spirv_free(&m);
    check_push_leaves();

    /* A corrupt module fails validation with a message. */
    CHECK(vkat_compile_glsl(add_src, "add.comp", v13, &m, &err) == VKAT_OK);
    m.words[m.count / 2] = 0xffffffffu;
    CHECK(vkat_validate_spirv(&m, v13, &err) == VKAT_ERR_VALIDATE);
    CHECK_CONTAINS(err.message, "validation failed");
    vkat_spirv_free(&m);

    CHECK(vkat_compile_glsl(error_src, "shaders/broken.comp.in", v13, &m, &err) == VKAT_ERR_COMPILE);
    CHECK_STR(err.file, "shaders/broken.comp.in");
    CHECK(err.line == 4);
    CHECK_CONTAINS(err.message, "undefined_thing");
    CHECK(m.words == NULL);

    /* #line keeps template lines after inserted defines. */
    const char *lined = "#version 450\n#define X 1\n#line 2\nlayout(local_size_x = 1) in;\nvoid main() { y = 2; }\n";
    CHECK(vkat_compile_glsl(lined, "t.comp", v13, &m, &err) == VKAT_ERR_COMPILE);
    CHECK_MSG(err.line == 3, "line %d", err.line);

    CHECK(vkat_compile_glsl(spec_src, "spec.comp", v13, &m, &err) == VKAT_OK);
    CHECK(vkat_validate_spirv(&m, v13, &err) == VKAT_OK);
    CHECK(vkat_spirv_reflect(&m, NULL, 0, &info, &err) == VKAT_OK);
    CHECK_MSG(info.shared_bytes == 16 * 8 * 4 + 4 * 16, "shared %llu", (unsigned long long)info.shared_bytes);
    vkat_spec_value spec[] = {{0, 32}, {1, 4}, {2, 64}, {3, 32}};
    CHECK(vkat_spirv_reflect(&m, spec, 4, &info, &err) == VKAT_OK);
    CHECK_MSG(info.shared_bytes == 64 * 32 * 4 + 4 * 16, "shared %llu", (unsigned long long)info.shared_bytes);
    CHECK_MSG(info.local_size[0] == 32 && info.local_size[1] == 4 && info.local_size[2] == 1, "local %u %u %u",
              info.local_size[0], info.local_size[1], info.local_size[2]);
    vkat_spirv_free(&m);

    CHECK_MSG(vkat_compile_glsl(wg_sized_src, "wg_sized.comp", v13, &m, &err) == VKAT_OK, "%s", err.message);
    vkat_spec_value wg[] = {{0, 64}, {1, 4}};
    CHECK_MSG(vkat_spirv_reflect(&m, wg, 2, &info, &err) == VKAT_OK, "%s", err.message);
    CHECK_MSG(info.shared_bytes == 64 * 4 + (64 * 4 + 1) * 4, "shared %llu", (unsigned long long)info.shared_bytes);
    CHECK_MSG(vkat_spirv_reflect(&m, NULL, 0, &info, &err) == VKAT_OK, "%s", err.message); /* defaults: 1 x 1 */
    CHECK_MSG(info.shared_bytes == 1 * 4 + 2 * 4, "shared %llu", (unsigned long long)info.shared_bytes);
    vkat_spirv_free(&m);

    CHECK_MSG(vkat_compile_glsl(coopmat_src, "coopmat.comp", v13, &m, &err) == VKAT_OK, "%s", err.message);
    CHECK_MSG(vkat_validate_spirv(&m, v13, &err) == VKAT_OK, "%s", err.message);
    CHECK(vkat_spirv_reflect(&m, NULL, 0, &info, &err) == VKAT_OK && info.uses_cooperative_matrix);
    vkat_spirv_free(&m);

    check_blocks(v13);
    check_blocks(VK_API_VERSION_1_0);

    CHECK_MSG(vkat_compile_glsl(bf16_src, "bf16.comp", v13, &m, &err) == VKAT_OK, "%s", err.message);
    CHECK_MSG(vkat_validate_spirv(&m, v13, &err) == VKAT_OK, "%s", err.message);
    vkat_spirv_free(&m);
    TEST_END();
}
