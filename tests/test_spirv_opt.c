/* test_spirv_opt.c — the SPIRV-Tools passes vkat_compile_cached can run on a variant's module after glslang
 * (compile.h's vkat_spirv_opt, VKAT_SPIRV_OPT): none by default (glslang's module word for word), each set gives a
 * valid module and does what it says, and the set is part of the compile cache's key. Needs no device. */
#include "compile.h"
#include "test.h"
#include "util.h"

#include <stdlib.h>
#include <vulkan/vulkan_core.h>

/* A local accumulator array in [[unroll]] loops, as the GEMM templates keep theirs, and loop counters: glslang leaves
 * each a Function-storage variable; the passes turn the scalars into SSA values (the array, indexed by a loop counter,
 * stays a variable unless the loops are unrolled: VKAT_SPIRV_OPT_FULL). */
static const char *acc_src = "#version 450\n"
                             "#extension GL_EXT_control_flow_attributes : enable\n"
                             "layout(local_size_x = 64) in;\n"
                             "layout(std430, binding = 0) buffer A { vec4 a[]; };\n"
                             "void main() {\n"
                             "  vec4 acc[4];\n"
                             "  [[unroll]] for (uint i = 0; i < 4; i++) acc[i] = vec4(0.0);\n"
                             "  for (uint k = 0; k < 64; k++)\n"
                             "    [[unroll]] for (uint i = 0; i < 4; i++) acc[i] = fma(a[k * 4 + i], a[k], acc[i]);\n"
                             "  [[unroll]] for (uint i = 0; i < 4; i++) a[gl_GlobalInvocationID.x * 4 + i] = acc[i];\n"
                             "}\n";

enum { OP_LOOP_MERGE = 246, OP_VARIABLE = 59, STORAGE_FUNCTION = 7 };

/* How many instructions of `opcode` the module holds (for OpVariable: of Function storage only). */
static int count_op(const vkat_spirv *m, uint32_t opcode)
{
    int n = 0;
    for (size_t i = 5; i < m->count;) {
        uint32_t len = m->words[i] >> 16, op = m->words[i] & 0xffffu;
        if (!len)
            break;
        if (op == opcode && (op != OP_VARIABLE || (i + 3 < m->count && m->words[i + 3] == STORAGE_FUNCTION)))
            n++;
        i += len;
    }
    return n;
}

static int same_words(const vkat_spirv *a, const vkat_spirv *b)
{
    return a->count == b->count && !memcmp(a->words, b->words, a->count * sizeof *a->words);
}

int main(void)
{
    const uint32_t v13 = VK_API_VERSION_1_3;
    vkat_error err = {0};
    vkat_spirv glslang = {0}, m = {0};
    int hit = -1;
    CHECK_MSG(vkat_compile_glsl(acc_src, "acc.comp", v13, &glslang, &err) == VKAT_OK, "%s", err.message);
    CHECK_MSG(count_op(&glslang, OP_VARIABLE) == 5, "glslang's module has %d Function variables",
              count_op(&glslang, OP_VARIABLE)); /* acc and four loop counters */

    /* The default (a zero opts, and NULL): glslang's module word for word. */
    vkat_compile_opts opts = {0};
    CHECK_MSG(vkat_compile_cached(NULL, acc_src, "acc.comp", v13, &opts, &m, &hit, NULL, NULL, &err) == VKAT_OK, "%s",
              err.message);
    CHECK(hit == 0 && same_words(&m, &glslang));
    vkat_spirv_free(&m);
    CHECK(vkat_compile_cached(NULL, acc_src, "acc.comp", v13, NULL, &m, NULL, NULL, NULL, &err) == VKAT_OK);
    CHECK(same_words(&m, &glslang));
    vkat_spirv_free(&m);

    /* The sets: valid modules; ssa and nounroll leave only the array a variable and the loops loops (the [[unroll]]
     * hints are left to the driver); full unrolls the [[unroll]] loops (only the k loop stays) and the array goes. */
    vkat_spirv_opt sets[] = {VKAT_SPIRV_OPT_SSA, VKAT_SPIRV_OPT_NOUNROLL, VKAT_SPIRV_OPT_FULL};
    for (size_t i = 0; i < VKAT_COUNTOF(sets); i++) {
        int full = sets[i] == VKAT_SPIRV_OPT_FULL;
        opts.spirv_opt = sets[i];
        CHECK(vkat_compile_cached(NULL, acc_src, "acc.comp", v13, &opts, &m, NULL, NULL, NULL, &err) == VKAT_OK);
        CHECK_MSG(vkat_validate_spirv(&m, v13, &err) == VKAT_OK, "set %d: %s", (int)sets[i], err.message);
        CHECK_MSG(count_op(&m, OP_VARIABLE) == (full ? 0 : 1), "set %d: %d Function variables", (int)sets[i],
                  count_op(&m, OP_VARIABLE));
        CHECK_MSG(count_op(&m, OP_LOOP_MERGE) == (full ? 1 : count_op(&glslang, OP_LOOP_MERGE)), "set %d: %d loops",
                  (int)sets[i], count_op(&m, OP_LOOP_MERGE));
        vkat_spirv_free(&m);
    }
    opts.spirv_opt = VKAT_SPIRV_OPT_NONE;
    CHECK(vkat_spirv_optimize(&glslang, v13, VKAT_SPIRV_OPT_NONE, &m, &err) == VKAT_ERR_INTERNAL);

    /* The cache tells the sets apart: glslang's module after an optimized one of the same source is not a hit. */
    vkat_compile_cache *cache = vkat_compile_cache_create(4);
    CHECK(cache != NULL);
    opts.spirv_opt = VKAT_SPIRV_OPT_SSA;
    CHECK(vkat_compile_cached(cache, acc_src, "acc.comp", v13, &opts, &m, &hit, NULL, NULL, &err) == VKAT_OK);
    CHECK(hit == 0 && count_op(&m, OP_VARIABLE) == 1);
    vkat_spirv_free(&m);
    opts.spirv_opt = VKAT_SPIRV_OPT_NONE;
    CHECK(vkat_compile_cached(cache, acc_src, "acc.comp", v13, &opts, &m, &hit, NULL, NULL, &err) == VKAT_OK);
    CHECK(hit == 0 && same_words(&m, &glslang));
    vkat_spirv_free(&m);
    opts.spirv_opt = VKAT_SPIRV_OPT_SSA;
    CHECK(vkat_compile_cached(cache, acc_src, "acc.comp", v13, &opts, &m, &hit, NULL, NULL, &err) == VKAT_OK);
    CHECK(hit == 1 && count_op(&m, OP_VARIABLE) == 1);
    vkat_spirv_free(&m);
    vkat_compile_cache_destroy(cache);

    /* The environment's names; anything else is the default, none. */
    unsetenv("VKAT_SPIRV_OPT");
    CHECK(vkat_spirv_opt_from_env() == VKAT_SPIRV_OPT_NONE);
    setenv("VKAT_SPIRV_OPT", "0", 1);
    CHECK(vkat_spirv_opt_from_env() == VKAT_SPIRV_OPT_NONE);
    setenv("VKAT_SPIRV_OPT", "full", 1);
    CHECK(vkat_spirv_opt_from_env() == VKAT_SPIRV_OPT_FULL);
    setenv("VKAT_SPIRV_OPT", "ssa", 1);
    CHECK(vkat_spirv_opt_from_env() == VKAT_SPIRV_OPT_SSA);
    setenv("VKAT_SPIRV_OPT", "nounroll", 1);
    CHECK(vkat_spirv_opt_from_env() == VKAT_SPIRV_OPT_NOUNROLL);
    setenv("VKAT_SPIRV_OPT", "fast please", 1);
    CHECK(vkat_spirv_opt_from_env() == VKAT_SPIRV_OPT_NONE);
    unsetenv("VKAT_SPIRV_OPT");

    vkat_spirv_free(&glslang);
    TEST_END();
}
