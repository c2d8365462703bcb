/* test_space.c — space files: the complete example (tests/data/spaces/good.ini) read back field by field, the
 * lazy walk against a brute-force count, launches, config/problem text, and every user mistake with its exact
 * file:line: message (one small file per mistake under tests/data/spaces/). */
#include "space.h"
#include "test.h"
#include "util.h"

#define XXH_INLINE_ALL
#include <xxhash.h>

#define DATA VKAT_SOURCE_DIR "/tests/data/spaces/"

static void expect_error(const char *file, vkat_result code, int line, const char *message, int exact)
{
    char path[1024];
    snprintf(path, sizeof path, DATA "%s", file);
    vkat_space *s = (vkat_space *)1;
    vkat_error err = {0};
    vkat_result r = vkat_space_load(path, &s, &err);
    CHECK_MSG(r == code, "%s: got %d (%s), want %d", file, r, err.message, code);
    CHECK(s == NULL);
    CHECK_MSG(err.line == line, "%s: line %d, want %d (%s)", file, err.line, line, err.message);
    CHECK_STR(err.file, path);
    if (exact)
        CHECK_STR(err.message, message);
    else
        CHECK_CONTAINS(err.message, message);
}

static void test_errors(void)
{
    expect_error("no_such_file.ini", VKAT_ERR_IO, 0, "cannot open: No such file or directory", 1);
    expect_error("bad_ini_syntax.ini", VKAT_ERR_SYNTAX, 9, "expected 'name = value' or '[section]'", 1);
    expect_error("bad_section.ini", VKAT_ERR_SPACE, 8,
                 "unknown section [kernal] (known: kernel, problem, problem.cpu, params, defines, constraints, buffers, "
                 "push, fields.NAME, dispatch, metrics, check, pass.NAME, check.pass.NAME)", 1);
    expect_error("bad_key.ini", VKAT_ERR_SPACE, 4,
                 "unknown key 'nmae' in [kernel] (known: name, template, entry, extensions, features, include_dirs, "
                 "replace_local_size, replace_defines, glsl_version, opengl_rules)", 1);
    expect_error("dup_key.ini", VKAT_ERR_SPACE, 3, "duplicate key 'name' in [kernel] (first at line 2)", 1);
    expect_error("outside.ini", VKAT_ERR_SPACE, 1, "'x' is outside any section", 1);
    expect_error("no_name.ini", VKAT_ERR_SPACE, 1, "[kernel] needs a name", 1);
    expect_error("no_template.ini", VKAT_ERR_SPACE, 2, "[kernel] needs a template", 1);
    expect_error("no_kernel.ini", VKAT_ERR_SPACE, 1, "missing [kernel] section (it names the kernel and its template)",
                 1);
    expect_error("missing_template.ini", VKAT_ERR_IO, 3,
                 "cannot open template '" DATA "nope.comp': No such file or directory", 1);
    expect_error("bad_feature.ini", VKAT_ERR_SPACE, 4, "unknown feature 'shaderFloat17' (known: shaderFloat16, ", 0);
    expect_error("bad_feature_line2.ini", VKAT_ERR_SPACE, 6,
                 "unknown feature 'cooperativeMatrixReduction' (known: shaderFloat16, ", 0);
    expect_error("empty_param.ini", VKAT_ERR_SPACE, 8, "parameter 'TN' has no values", 1);
    expect_error("dup_param.ini", VKAT_ERR_SPACE, 9, "duplicate parameter 'TM' (first at line 7)", 1);
    expect_error("dup_value.ini", VKAT_ERR_SPACE, 8, "duplicate value 2 in parameter 'TN'", 1);
    expect_error("name_clash.ini", VKAT_ERR_SPACE, 8, "'M' is already defined as a problem size (line 5)", 1);
    expect_error("bad_value.ini", VKAT_ERR_SYNTAX, 8,
                 "bad value 'two' for parameter 'TN' (expected integers, pow2(a, b) or range(a, b[, step]))", 1);
    expect_error("bad_range.ini", VKAT_ERR_SPACE, 8,
                 "range(8, 1, 1) needs first <= last and a positive step in parameter 'TN'", 1);
    expect_error("bad_spec.ini", VKAT_ERR_SYNTAX, 8,
                 "expected '@spec(N)' with a constant_id N >= 0 after the values of 'TN'", 1);
    expect_error("dup_spec.ini", VKAT_ERR_SPACE, 9, "'TK' and 'TN' (line 8) both use @spec(3)", 1);
    expect_error("expr_syntax.ini", VKAT_ERR_SYNTAX, 9, "expected ')' after 'min(TM, 2'", 1);
    expect_error("expr_column.ini", VKAT_ERR_SYNTAX, 9, "unexpected 'x' at column 8", 1);
    expect_error("unknown_name.ini", VKAT_ERR_SPACE, 9, "unknown name 'TILE_Q'", 1);
    expect_error("bad_type.ini", VKAT_ERR_SPACE, 9,
                 "unknown type 'float64' for buffer 'A' (known: float32, float16, bfloat16, int32, uint32, int8, uint8, "
                 "unorm8)",
                 1);
    expect_error("bad_tensor.ini", VKAT_ERR_SPACE, 10, "[metrics] tensor must be '*' or 'A, C'", 0);
    expect_error("bad_init.ini", VKAT_ERR_SPACE, 9,
                 "init 'random(...)' for buffer 'A' takes random(lo, hi), two numbers; got 1 argument", 1);
    expect_error("bad_init_order.ini", VKAT_ERR_SPACE, 9, "random(1, -1) for buffer 'A': lo is above hi", 1);
    expect_error("bad_init_name.ini", VKAT_ERR_SPACE, 9,
                 "bad init 'randm(...)' for buffer 'A' (expected zero, random(lo, hi), const(v), iota or "
                 "iota(start, step))", 1);
    expect_error("bad_direction.ini", VKAT_ERR_SPACE, 9,
                 "bad direction 'sideways' for buffer 'A' (expected in, out, inout, uniform or scratch)", 1);
    expect_error("bad_buffer_fields.ini", VKAT_ERR_SYNTAX, 9,
                 "buffer 'A' needs 'type, count, init, direction', e.g. 'float32, M*K, random(-1, 1), in' (an "
                 "image: 'rgba8, image(W, H), random(0, 1), in'; a texel buffer: 'r32f, texels(N), zero, out')", 1);
    expect_error("push_overflow.ini", VKAT_ERR_SPACE, 41, "push constant 'p32' does not fit: at most 256 bytes (64 values)",
                 1);
    expect_error("bad_push_type.ini", VKAT_ERR_SPACE, 9,
                 "push constant 'x' has type 'float64'; expected int32, uint32 or float32", 1);
    expect_error("check_uses_param.ini", VKAT_ERR_SPACE, 10,
                 "[check] local_size uses parameter 'TM'; only problem sizes and device names are allowed", 1);
    expect_error("check_needs_dims.ini", VKAT_ERR_SPACE, 9,
                 "[check] reference needs its own local_size and groups (from problem sizes and device names)", 1);
    expect_error("bad_problem.ini", VKAT_ERR_SPACE, 5, "problem size 'M' must be an integer, got 'lots'", 1);
    expect_error("bad_name.ini", VKAT_ERR_SPACE, 5,
                 "'device.x' is not a valid name (letters, digits and '_', not starting with a digit)", 1);
    expect_error("long_section.ini", VKAT_ERR_SYNTAX, 8,
                 "line is longer than 198 characters and is not 'name = value'", 1);
}

/* The constraints of good.ini, by hand, with the Vulkan-minimum device (128 invocations). */
static uint64_t brute_force_valid(uint64_t *removed)
{
    static const int wgx[] = {4, 8, 16, 32}, wgy[] = {1, 2, 4, 8}, tm[] = {1, 2, 4, 8}, tn[] = {1, 2, 3, 4};
    uint64_t valid = 0;
    for (int a = 0; a < 4; a++)
        for (int b = 0; b < 4; b++)
            for (int c = 0; c < 4; c++)
                for (int d = 0; d < 4; d++)
                    for (int u = 0; u < 3; u++) {
                        if (!(wgx[a] * wgy[b] <= 128))
                            removed[0]++;
                        else if (!(256 % (wgy[b] * tm[c]) == 0))
                            removed[1]++;
                        else if (!(128 % (wgx[a] * tn[d]) == 0))
                            removed[2]++;
                        else if (!(tm[c] * tn[d] <= 16))
                            removed[3]++;
                        else
                            valid++;
                    }
    return valid;
}

static void test_good(void)
{
    vkat_space *s;
    vkat_error err = {0};
    const char *path = DATA "good.ini";
    vkat_result r = vkat_space_load(path, &s, &err);
    CHECK_MSG(r == VKAT_OK, "%s:%d: %s", err.file, err.line, err.message);
    if (r)
        return;
    size_t size;
    char *text = vkat_read_file(path, &size);
    CHECK(text && s->file_hash == XXH64(text, size, 0));
    CHECK_STR(s->name, "gemm_tiled");
    CHECK_STR(s->template_path, DATA "gemm.comp");
    CHECK_STR(s->entry, "main");
    CHECK(s->extension_count == 2 && strcmp(s->extensions[1], "VK_KHR_16bit_storage") == 0);
    CHECK(s->feature_count == 2 && strcmp(s->features[0], "shaderFloat16") == 0);
    CHECK(s->problem_count == 3 && s->problem[2].value == 64 && strcmp(s->problem[2].name, "K") == 0);
    CHECK(s->param_count == 5);
    CHECK(s->params[0].value_count == 4 && s->params[0].values[0] == 4 && s->params[0].values[3] == 32);
    CHECK(s->params[2].value_count == 4 && s->params[2].values[2] == 4 && s->params[2].values[3] == 8);
    CHECK(s->params[3].value_count == 4 && s->params[3].values[0] == 1 && s->params[3].values[3] == 4);
    CHECK(s->params[0].kind == VKAT_PARAM_DEFINE);
    CHECK(s->params[4].kind == VKAT_PARAM_SPEC && s->params[4].spec_id == 0 && s->params[4].line == 19);
    CHECK(s->constraint_count == 4 && strcmp(s->constraints[1].name, "divides_m") == 0 &&
          s->constraints[1].line == 24);
    CHECK(s->buffer_count == 4);
    CHECK(s->buffers[2].binding == 2 && s->buffers[2].dir == VKAT_DIR_OUT && s->buffers[2].init == VKAT_INIT_ZERO);
    CHECK(s->buffers[0].init == VKAT_INIT_RANDOM && s->buffers[0].init_a == -1 && s->buffers[0].init_b == 1);
    CHECK(s->buffers[3].type == VKAT_UINT32 && s->buffers[3].init == VKAT_INIT_IOTA && s->buffers[3].init_b == 2 &&
          s->buffers[3].dir == VKAT_DIR_INOUT);
    CHECK(s->push_count == 4 && s->push[3].type == VKAT_FLOAT32);
    CHECK(s->local_size[2] == NULL && s->groups[1] != NULL);
    CHECK_STR(s->reference_path, DATA "gemm_ref.comp");
    CHECK(s->rel_l2_tolerance == 1e-4 && isinf(s->max_abs_tolerance));

    /* Walk and count, against the constraints written out by hand. */
    CHECK(vkat_space_raw_count(s) == 4 * 4 * 4 * 4 * 3);
    vkat_value *env = vkat_space_env_create(s, NULL);
    uint64_t raw, valid, removed[4], want_removed[4] = {0};
    uint64_t want_valid = brute_force_valid(want_removed);
    CHECK(vkat_space_count_valid(s, env, 0, &raw, &valid, removed, &err) == VKAT_OK);
    CHECK(raw == 768 && valid == want_valid && want_valid > 0);
    CHECK(memcmp(removed, want_removed, sizeof removed) == 0);
    CHECK(vkat_space_count_valid(s, env, 10, &raw, &valid, NULL, &err) == VKAT_OK && raw == 10);

    /* Decode/encode are inverse; mixed radix with the first parameter most significant. */
    uint32_t choice[5];
    vkat_space_decode(s, 767, choice);
    CHECK(choice[0] == 3 && choice[4] == 2);
    vkat_space_decode(s, 1, choice);
    CHECK(choice[0] == 0 && choice[3] == 0 && choice[4] == 1);
    for (uint64_t i = 0; i < 768; i += 37) {
        vkat_space_decode(s, i, choice);
        CHECK(vkat_space_encode(s, choice) == i);
    }

    /* One configuration: check, launch, text round trip. */
    CHECK(vkat_space_parse_config(s, "WG_X=16, WG_Y=8,TM=4,TN=2,UNROLL=2", 0, choice, &err) == VKAT_OK);
    vkat_space_env_apply(s, choice, env);
    size_t failed = 99;
    CHECK(vkat_space_check(s, env, &failed, &err) == 1 && failed == 99);
    char buf[256];
    vkat_space_format_config(s, choice, buf, sizeof buf);
    CHECK_STR(buf, "WG_X=16,WG_Y=8,TM=4,TN=2,UNROLL=2");
    vkat_launch l;
    CHECK(vkat_space_launch(s, env, 0, &l, &err) == VKAT_OK);
    CHECK(l.local_size[0] == 16 && l.local_size[1] == 8 && l.local_size[2] == 1);
    CHECK(l.groups[0] == 4 && l.groups[1] == 8 && l.groups[2] == 1);
    CHECK(l.buffer_counts[0] == 256 * 64 && l.buffer_counts[2] == 256 * 128 && l.buffer_counts[3] == 16);
    uint32_t m, k;
    float alpha;
    memcpy(&m, l.push, 4);
    memcpy(&k, l.push + 8, 4);
    memcpy(&alpha, l.push + 12, 4);
    CHECK(l.push_size == 16 && m == 256 && k == 64 && alpha == 1.0f);
    CHECK(l.flops == 2.0 * 256 * 128 * 64 && l.bytes == 4.0 * (256 * 64 + 64 * 128 + 256 * 128));
    vkat_launch_free(&l);
    CHECK(vkat_space_launch(s, env, 1, &l, &err) == VKAT_OK);
    CHECK(l.local_size[0] == 16 && l.local_size[1] == 16 && l.groups[0] == 8 && l.groups[1] == 16);
    vkat_launch_free(&l);

    /* A failing configuration names its first failing constraint. */
    CHECK(vkat_space_parse_config(s, "WG_X=32,WG_Y=8", 1, choice, &err) == VKAT_OK);
    CHECK(choice[2] == 0 && choice[4] == 0);
    vkat_space_env_apply(s, choice, env);
    CHECK(vkat_space_check(s, env, &failed, &err) == 0 && failed == 0);

    /* Config text errors. */
    CHECK(vkat_space_parse_config(s, "WG_X=16", 0, choice, &err) == VKAT_ERR_USAGE);
    CHECK_STR(err.message, "missing parameters 'WG_Y', 'TM', 'TN', 'UNROLL'");
    CHECK(vkat_space_parse_config(s, "WG_X=16,WG_Y=8,TM=4,TN=2", 0, choice, &err) == VKAT_ERR_USAGE);
    CHECK_STR(err.message, "missing parameter 'UNROLL'");
    CHECK(vkat_space_parse_config(s, "TM=3", 1, choice, &err) == VKAT_ERR_USAGE);
    CHECK_STR(err.message, "TM=3 is not among its values (1, 2, 4, 8)");
    /* ... and points at the parameter's line in the space, where its values are */
    CHECK(strstr(err.file, "good.ini") && err.line == 17);
    CHECK(vkat_space_parse_config(s, "FOO=1", 1, choice, &err) == VKAT_ERR_USAGE);
    CHECK_STR(err.message, "unknown parameter 'FOO' (the space has: WG_X, WG_Y, TM, TN, UNROLL)");
    CHECK(vkat_space_parse_config(s, "TM=1,TM=2", 1, choice, &err) == VKAT_ERR_USAGE);
    CHECK_STR(err.message, "parameter 'TM' given twice");
    CHECK(vkat_space_parse_config(s, "TM", 1, choice, &err) == VKAT_ERR_USAGE);
    CHECK_STR(err.message, "expected NAME=VALUE, got 'TM'");

    /* Problem overrides. */
    vkat_space_format_problem(s, buf, sizeof buf);
    CHECK_STR(buf, "M=256,N=128,K=64");
    CHECK(vkat_space_set_problem(s, "M=512, K=32", &err) == VKAT_OK);
    vkat_space_format_problem(s, buf, sizeof buf);
    CHECK_STR(buf, "M=512,N=128,K=32");
    CHECK(vkat_space_set_problem(s, "Q=1", &err) == VKAT_ERR_USAGE);
    CHECK_STR(err.message, "unknown problem size 'Q' (the space has: M, N, K)");
    CHECK(vkat_space_set_problem(s, "M=big", &err) == VKAT_ERR_USAGE);
    CHECK_STR(err.message, "problem size M must be an integer, got 'big'");
    vkat_value *env2 = vkat_space_env_create(s, NULL);
    CHECK(env2[s->problem[0].slot].i == 512);
    CHECK(env2[vkat_symtab_find(s->symbols, "device.max_workgroup_invocations")].i == 128);
    CHECK(env2[vkat_symtab_find(s->symbols, "device.subgroup_size")].i == 32);
    CHECK(env2[vkat_symtab_find(s->symbols, "device.max_shared_memory")].i == 16384);

    /* Device names from a device. */
    vkat_device_info *dev = calloc(1, sizeof *dev);
    dev->vendor_id = 0x10DE;
    dev->device_type = "discrete";
    dev->max_workgroup_invocations = 1024;
    dev->subgroup_size = 32;
    dev->feature[VKAT_FEATURE_COOPMAT] = 1;
    dev->coopmat_count = 2;
    dev->coopmat[0] = (vkat_coopmat_shape){16, 8, 16, VKAT_INT8, VKAT_INT8, VKAT_INT32, VKAT_INT32};
    dev->coopmat[0].scope = "subgroup";
    dev->coopmat[1] = (vkat_coopmat_shape){16, 16, 16, VKAT_FLOAT16, VKAT_FLOAT16, VKAT_FLOAT32, VKAT_FLOAT32};
    dev->coopmat[1].scope = "subgroup";
    vkat_value *env3 = vkat_space_env_create(s, dev);
    CHECK(env3[vkat_symtab_find(s->symbols, "device.is_nvidia")].i == 1);
    CHECK(env3[vkat_symtab_find(s->symbols, "device.is_amd")].i == 0);
    CHECK(env3[vkat_symtab_find(s->symbols, "device.max_workgroup_invocations")].i == 1024);
    CHECK(env3[vkat_symtab_find(s->symbols, "device.coopmat")].i == 1);
    CHECK(env3[vkat_symtab_find(s->symbols, "device.coopmat_f16_n")].i == 16);
    CHECK(env3[vkat_symtab_find(s->symbols, "device.coopmat_bf16_m")].i == 0);
    /* More invocations allowed: more valid configurations than with the minimum limits. */
    uint64_t valid_dev;
    vkat_space_set_problem(s, "M=256,K=64", &err);
    vkat_value *env4 = vkat_space_env_create(s, dev);
    CHECK(vkat_space_count_valid(s, env4, 0, &raw, &valid_dev, NULL, &err) == VKAT_OK && valid_dev > want_valid);
    free(dev);
    free(env);
    free(env2);
    free(env3);
    free(env4);
    free(text);
    vkat_space_destroy(s);
}

static vkat_space *load_inline(const char *text)
{
    vkat_space *s = NULL;
    vkat_error err = {0};
    vkat_result r = vkat_space_load_string(text, DATA "inline.ini", &s, &err);
    CHECK_MSG(r == VKAT_OK, "%d: %s", err.line, err.message);
    return s;
}

/* [metrics] tensor: named, defaulted from the features, or absent. */
static void test_tensor(void)
{
    vkat_error err = {0};
    vkat_space *s = NULL;
    CHECK(vkat_space_load(DATA "tensor_default.ini", &s, &err) == VKAT_OK);
    if (s)
        CHECK_STR(s->tensor, "*");
    vkat_space_destroy(s);
    s = NULL;
    CHECK_MSG(vkat_space_load(DATA "tensor_default_f16.ini", &s, &err) == VKAT_OK, "%s", err.message);
    if (s)
        CHECK_STR(s->tensor, "float16,*");
    vkat_space_destroy(s);
    s = NULL;
    CHECK(vkat_space_load(DATA "good.ini", &s, &err) == VKAT_OK);
    if (s)
        CHECK_STR(s->tensor, "");
    vkat_space_destroy(s);
    s = NULL;
    CHECK_MSG(vkat_space_load(VKAT_SOURCE_DIR "/spaces/cmgemm_f16.ini", &s, &err) == VKAT_OK, "%s", err.message);
    if (s)
        CHECK_STR(s->tensor, "float16,float32");
    vkat_space_destroy(s);
}

static void test_walk_errors(void)
{
    vkat_error err = {0};
    vkat_space *s;
    /* Nothing valid: the constraint that removed most is named, with its line. */
    CHECK(vkat_space_load(DATA "empty.ini", &s, &err) == VKAT_OK);
    vkat_value *env = vkat_space_env_create(s, NULL);
    uint64_t raw, valid, removed[2];
    CHECK(vkat_space_count_valid(s, env, 0, &raw, &valid, removed, &err) == VKAT_ERR_EMPTY_SPACE);
    CHECK(raw == 3 && valid == 0 && removed[0] == 2 && removed[1] == 1);
    char buf[1200];
    CHECK_STR(vkat_error_format(&err, buf, sizeof buf),
              VKAT_SOURCE_DIR "/tests/data/spaces/empty.ini:9: no configuration satisfies the constraints; 'small' "
                              "removed 67% of them");
    free(env);
    vkat_space_destroy(s);

    /* Division by zero in a constraint stops the walk with the expression's line. */
    s = load_inline("[kernel]\nname = t\ntemplate = gemm.comp\n[problem]\nN = 64\n[params]\nWG_X = 4\n"
                    "TN = range(0, 2)\n[constraints]\ndiv = N / (WG_X*TN)\n");
    if (s) {
        env = vkat_space_env_create(s, NULL);
        CHECK(vkat_space_count_valid(s, env, 0, &raw, &valid, NULL, &err) == VKAT_ERR_EXPR);
        CHECK_STR(vkat_error_format(&err, buf, sizeof buf),
                  DATA "inline.ini:10: division by zero in 'N / (WG_X*TN)'");
        free(env);
        vkat_space_destroy(s);
    }

    /* Launch sizes out of range. */
    s = load_inline("[kernel]\nname = t\ntemplate = gemm.comp\n[problem]\nM = 64\n[dispatch]\nlocal_size = 64\n"
                    "groups = M - 64\n[buffers]\nX = int8, M - 64, const(3), in\n[push]\nv = int32, M * 100000000\n");
    if (s) {
        env = vkat_space_env_create(s, NULL);
        vkat_launch l;
        CHECK(vkat_space_launch(s, env, 0, &l, &err) == VKAT_ERR_EXPR);
        CHECK_STR(vkat_error_format(&err, buf, sizeof buf),
                  DATA "inline.ini:8: groups x is 0 from 'M - 64'; it must be 1 to 4294967295");
        CHECK(l.buffer_counts == NULL);
        CHECK(vkat_space_launch(s, env, 1, &l, &err) == VKAT_ERR_SPACE);
        CHECK_STR(err.message, "the space has no [check] reference");
        CHECK(vkat_space_set_problem(s, "M=65", &err) == VKAT_OK);
        free(env);
        env = vkat_space_env_create(s, NULL);
        CHECK(vkat_space_launch(s, env, 0, &l, &err) == VKAT_ERR_EXPR);
        CHECK_STR(err.message, "push constant 'v' = 6500000000 does not fit in int32");
        CHECK(s->buffers[0].init == VKAT_INIT_CONST && s->buffers[0].init_a == 3);
        free(env);
        vkat_space_destroy(s);
    }

    /* A problem size below 1 is named with where its value came from: the file's line, [problem.cpu]'s, or
     * --problem (before, only the dispatch or buffer line that used it). */
    s = load_inline("[kernel]\nname = t\ntemplate = gemm.comp\n[problem]\nN = 0\nK = 4\n[problem.cpu]\nK = -2\n"
                    "[dispatch]\nlocal_size = 64\ngroups = cdiv(N, 64) + 1, K\n[buffers]\nX = int8, N * K, zero, out\n");
    if (s) {
        env = vkat_space_env_create(s, NULL);
        vkat_launch l;
        CHECK(vkat_space_launch(s, env, 0, &l, &err) == VKAT_ERR_EXPR);
        CHECK_STR(vkat_error_format(&err, buf, sizeof buf),
                  DATA "inline.ini:13: buffer 'X' has 0 elements from 'N * K' (N = 0 from line 5); it needs at "
                       "least 1");
        vkat_device_info cpu = {.device_type = "cpu"};
        vkat_space_problem_for_device(s, &cpu);
        free(env);
        env = vkat_space_env_create(s, NULL);
        CHECK(vkat_space_launch(s, env, 0, &l, &err) == VKAT_ERR_EXPR);
        CHECK_STR(err.message, "groups y is -2 from 'K' (K = -2 from line 8, [problem.cpu]); it must be 1 to "
                               "4294967295");
        CHECK(vkat_space_set_problem(s, "K=1,N=-3", &err) == VKAT_OK);
        free(env);
        env = vkat_space_env_create(s, NULL);
        CHECK(vkat_space_launch(s, env, 0, &l, &err) == VKAT_ERR_EXPR);
        CHECK_STR(err.message, "buffer 'X' has -3 elements from 'N * K' (N = -3 from --problem); it needs at least 1");
        free(env);
        vkat_space_destroy(s);
    }

    /* Any section order; names used before their section; comments and indentation. */
    s = load_inline("; leading comment\n[constraints]\n  ok = TM <= M ; inline comment\n[params]\nTM = 1, 3, "
                    "range(4, 10, 3)\n[kernel]\nname = t\ntemplate = gemm.comp\n[problem]\nM = 8\n");
    if (s) {
        CHECK(s->params[0].value_count == 5 && s->params[0].values[1] == 3 && s->params[0].values[4] == 10);
        CHECK(s->constraints[0].line == 3);
        CHECK_STR(vkat_expr_text(s->constraints[0].expr), "TM <= M");
        env = vkat_space_env_create(s, NULL);
        CHECK(vkat_space_count_valid(s, env, 0, &raw, &valid, NULL, &err) == VKAT_OK && raw == 5 && valid == 4);
        free(env);
        vkat_space_destroy(s);
    }
    vkat_space_destroy(NULL);
}

/* [problem.cpu] gives CPU devices smaller defaults; --problem overrides still win. */
static void test_problem_cpu(void)
{
    vkat_space *s = load_inline("[kernel]\nname = t\ntemplate = gemm.comp\n[problem]\nM = 1024\nN = 512\n"
                                "[problem.cpu]\nM = 64\n");
    if (!s)
        return;
    char buf[256];
    vkat_device_info cpu = {0}, gpu = {0};
    cpu.device_type = "cpu";
    gpu.device_type = "discrete";
    vkat_space_problem_for_device(s, &cpu);
    vkat_space_format_problem(s, buf, sizeof buf);
    CHECK_STR(buf, "M=64,N=512");
    vkat_error err = {0};
    CHECK(vkat_space_set_problem(s, "M=128", &err) == VKAT_OK);
    vkat_space_format_problem(s, buf, sizeof buf);
    CHECK_STR(buf, "M=128,N=512");
    vkat_space_problem_for_device(s, &gpu);
    vkat_space_format_problem(s, buf, sizeof buf);
    CHECK_STR(buf, "M=1024,N=512");
    vkat_space_problem_for_device(s, NULL);
    vkat_space_format_problem(s, buf, sizeof buf);
    CHECK_STR(buf, "M=1024,N=512");
    vkat_space_destroy(s);

    CHECK(vkat_space_load_string("[kernel]\nname = t\ntemplate = gemm.comp\n[problem]\nM = 8\n[problem.cpu]\n"
                                 "Q = 4\n",
                                 DATA "inline.ini", &s, &err) == VKAT_ERR_SPACE);
    CHECK_STR(vkat_error_format(&err, buf, sizeof buf),
              DATA "inline.ini:7: [problem.cpu] names 'Q', which [problem] does not define");
}

/* extensions and features may continue on further lines of the same key (an empty one adds nothing); the lists
 * keep the file's order. */
static void test_list_lines(void)
{
    vkat_space *s;
    vkat_error err = {0};
    vkat_result r = vkat_space_load(DATA "list_lines.ini", &s, &err);
    CHECK_MSG(r == VKAT_OK, "%s:%d: %s", err.file, err.line, err.message);
    if (r)
        return;
    CHECK(s->extension_count == 3);
    if (s->extension_count == 3) {
        CHECK_STR(s->extensions[0], "VK_KHR_cooperative_matrix");
        CHECK_STR(s->extensions[2], "VK_KHR_shader_bfloat16");
    }
    CHECK(s->feature_count == 3);
    if (s->feature_count == 3) {
        CHECK_STR(s->features[1], "shaderFloat16");
        CHECK_STR(s->features[2], "cooperativeMatrixReductions");
    }
    vkat_space_destroy(s);
}

/* Lines past inih's 200-character buffer: a long comment, 70 values with an inline comment, a long constraint. */
static void test_long_lines(void)
{
    vkat_space *s;
    vkat_error err = {0};
    vkat_result r = vkat_space_load(DATA "long_line.ini", &s, &err);
    CHECK_MSG(r == VKAT_OK, "%s:%d: %s", err.file, err.line, err.message);
    if (r)
        return;
    /* a problem size's value read whole: its binding after 260 leading zeros */
    CHECK(s->problem_count == 2);
    if (s->problem_count == 2)
        CHECK(s->problem[1].value == 48 && s->problem[1].binding == VKAT_SIZE_NONE);
    CHECK(s->param_count == 1);
    if (s->param_count == 1) {
        CHECK(s->params[0].line == 9);
        CHECK(s->params[0].value_count == 70 && s->params[0].values[69] == 70);
    }
    CHECK(s->constraint_count == 1);
    if (s->constraint_count == 1)
        CHECK(s->constraints[0].line == 11);
    vkat_space_destroy(s);
}

/* A whole configuration need not name a one-value parameter; a partial one is completed to the first valid one. */
static void test_complete_config(void)
{
    vkat_space *s = load_inline("[kernel]\nname = t\ntemplate = gemm.comp\n[problem]\nN = 24\n[params]\n"
                                "FM = 16\nA = 1, 2, 4\nB = 4, 3, 1\nC = 0, 1\n[constraints]\n"
                                "fits = N % (A * B) == 0 && C == 1\n");
    if (!s)
        return;
    vkat_error err = {0};
    uint32_t choice[4];
    bool named[4];
    char buf[128];
    CHECK_MSG(vkat_space_parse_config(s, "A=2,B=3,C=1", 0, choice, &err) == VKAT_OK, "%s", err.message);
    CHECK(choice[0] == 0 && choice[1] == 1 && choice[2] == 1 && choice[3] == 1);
    vkat_value *env = vkat_space_env_create(s, NULL);
    /* Nothing named: the first values (A=1, B=4, C=0) break 'fits'; the first valid one in index order is
     * A=1, B=4, C=1 (C varies fastest). */
    CHECK(vkat_space_parse_named(s, "", choice, named, &err) == VKAT_OK);
    CHECK(vkat_space_complete_config(s, env, choice, named, &err) == 1);
    vkat_space_format_config(s, choice, buf, sizeof buf);
    CHECK_STR(buf, "FM=16,A=1,B=4,C=1");
    /* A named value is kept: A=4 needs B=3 or 1 for 24; B=3 comes first in its list. */
    CHECK(vkat_space_parse_named(s, "A=4", choice, named, &err) == VKAT_OK);
    CHECK(vkat_space_complete_config(s, env, choice, named, &err) == 1);
    vkat_space_format_config(s, choice, buf, sizeof buf);
    CHECK_STR(buf, "FM=16,A=4,B=3,C=1");
    /* None valid with C=0: the choice stays as parsed. */
    CHECK(vkat_space_parse_named(s, "C=0,B=3", choice, named, &err) == VKAT_OK);
    CHECK(vkat_space_complete_config(s, env, choice, named, &err) == 0);
    vkat_space_format_config(s, choice, buf, sizeof buf);
    CHECK_STR(buf, "FM=16,A=1,B=3,C=0");
    free(env);
    vkat_space_destroy(s);
}

/* Each bad[i][0], a [buffers] line, is refused at its line (5) with a message containing bad[i][1]. */
static void expect_bad_buffer_lines(const char *const (*bad)[2], size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char text[400];
        vkat_error err = {0};
        snprintf(text, sizeof text, "[kernel]\nname = t\ntemplate = gemm.comp\n[buffers]\n%s\n", bad[i][0]);
        vkat_space *t = NULL;
        CHECK(vkat_space_load_string(text, DATA "inline.ini", &t, &err) != VKAT_OK && t == NULL);
        CHECK_MSG(err.line == 5, "%s: line %d", bad[i][0], err.line);
        CHECK_CONTAINS(err.message, bad[i][1]);
    }
}

/* Image entries: format and sizes read, the count the texels' components, the extent evaluated per launch (1 for an
 * axis the image lacks), and mistakes at their line. */
static void test_images(void)
{
    vkat_space *s = load_inline("[kernel]\nname = t\ntemplate = gemm.comp\n[problem]\nW = 70\nH = 33\n[buffers]\n"
                                "src = rgba8, image(W, H), random(0, 1), sampled\n"
                                "dst = r32f, image(W * 2), zero, out @binding(4)\n"
                                "vol = rgba16f, image(4, 5, 6), const(1), inout\n");
    if (!s)
        return;
    CHECK(s->buffers[0].image == vkat_image_format_find("rgba8") && s->buffers[0].sampled &&
          s->buffers[0].type == VKAT_UNORM8 && s->buffers[0].dir == VKAT_DIR_IN);
    CHECK(s->buffers[1].image && !s->buffers[1].sampled && s->buffers[1].binding == 4 && !s->buffers[1].extent[1]);
    CHECK(s->buffers[2].type == VKAT_FLOAT16 && s->buffers[2].extent[2]);
    vkat_value *env = vkat_space_env_create(s, NULL);
    vkat_launch l = {0};
    vkat_error err = {0};
    CHECK_MSG(vkat_space_launch(s, env, 0, &l, &err) == VKAT_OK, "%s", err.message);
    if (l.buffer_counts) {
        CHECK(l.buffer_counts[0] == 70 * 33 * 4 && l.buffer_counts[1] == 140 && l.buffer_counts[2] == 4 * 5 * 6 * 4);
        CHECK(l.image_extents[0][0] == 70 && l.image_extents[0][1] == 33 && l.image_extents[0][2] == 1);
        CHECK(l.image_extents[1][0] == 140 && l.image_extents[1][1] == 1 && l.image_extents[2][2] == 6);
    }
    vkat_launch_free(&l);
    free(env);
    vkat_space_destroy(s);

    s = load_inline("[kernel]\nname = t\ntemplate = gemm.comp\n[problem]\nW = 70000\n[buffers]\n"
                    "dst = r32f, image(W, 2), zero, out\n");
    if (s) {
        env = vkat_space_env_create(s, NULL);
        char buf[600];
        CHECK(vkat_space_launch(s, env, 0, &l, &err) == VKAT_ERR_EXPR);
        CHECK_STR(vkat_error_format(&err, buf, sizeof buf),
                  DATA "inline.ini:7: image 'dst' is 70000 texels wide from 'W'; it needs 1 to 65535");
        vkat_launch_free(&l);
        free(env);
        vkat_space_destroy(s);
    }
    static const char *const bad[][2] = {
        {"dst = r32f, image(), zero, out", "image 'dst' needs 1 to 3 sizes, image(W), image(W, H) or image(W, H, D)"},
        {"dst = r32f, image(1, 2, 3, 4), zero, out", "image 'dst' needs 1 to 3 sizes"},
        {"dst = r32f, image(4) + 1, zero, out", "image(W, H, D); got 'image(4) + 1'"}, /* not a call: crashed */
        {"dst = rgb8, image(4, 4), zero, out", "unknown image format 'rgb8' for image 'dst' (known: rgba32f,"},
        {"dst = r32f, image(4, 4), zero, uniform", "bad direction 'uniform' for image 'dst'"},
        {"dst = float32, 16, zero, sampled", "bad direction 'sampled' for buffer 'dst'"},
        {"dst = r32f, 16, zero, out", "unorm8); for an image of that format, give its sizes as image(W, H)"},
    };
    expect_bad_buffer_lines(bad, sizeof bad / sizeof bad[0]);
}

/* Texel-buffer entries: the format read, the count its texels' components, uniform or storage by the direction
 * (a texel buffer is a buffer: no extent), a pass may not rebind one where a buffer goes, and mistakes at their
 * line. */
static void test_texel_buffers(void)
{
    vkat_space *s = load_inline("[kernel]\nname = t\ntemplate = gemm.comp\n[problem]\nN = 70\n[buffers]\n"
                                "src = rgba16f, texels(N + 2), random(-1, 1), uniform\n"
                                "w = rgba8ui, texels(N), random(0, 16), in @binding(5)\n"
                                "dst = r32f, texels(2 * N), zero, out\n"
                                "tmp = rg32i, texels(N), zero, scratch\n");
    if (!s)
        return;
    CHECK(s->buffers[0].texel == vkat_image_format_find("rgba16f") && s->buffers[0].uniform &&
          s->buffers[0].type == VKAT_FLOAT16 && s->buffers[0].dir == VKAT_DIR_IN && !s->buffers[0].image);
    CHECK(s->buffers[1].texel && !s->buffers[1].uniform && s->buffers[1].type == VKAT_UINT8 &&
          s->buffers[1].binding == 5);
    CHECK(s->buffers[2].texel && s->buffers[2].dir == VKAT_DIR_OUT && !s->buffers[2].extent[0]);
    CHECK(s->buffers[3].type == VKAT_INT32 && s->buffers[3].dir == VKAT_DIR_SCRATCH);
    vkat_value *env = vkat_space_env_create(s, NULL);
    vkat_launch l = {0};
    vkat_error err = {0};
    CHECK_MSG(vkat_space_launch(s, env, 0, &l, &err) == VKAT_OK, "%s", err.message);
    if (l.buffer_counts)
        CHECK(l.buffer_counts[0] == 72 * 4 && l.buffer_counts[1] == 70 * 4 && l.buffer_counts[2] == 140 &&
              l.buffer_counts[3] == 140);
    vkat_launch_free(&l);
    free(env);
    vkat_space_destroy(s);

    static const char *const bad[][2] = {
        {"dst = r32f, texels(), zero, out", "texel buffer 'dst' needs one size, texels(COUNT); got 'texels()'"},
        {"dst = r32f, texels(4, 4), zero, out", "texel buffer 'dst' needs one size, texels(COUNT)"},
        {"dst = rgb8, texels(4), zero, out", "unknown format 'rgb8' for texel buffer 'dst' (known: rgba32f,"},
        {"dst = r32f, texels(4), zero, sampled",
         "bad direction 'sampled' for texel buffer 'dst' (expected in, out, inout or scratch for a storage texel "
         "buffer (imageBuffer), uniform for a uniform texel buffer (samplerBuffer, textureBuffer))"},
        {"dst = r32f, 16, zero, out", "for a texel buffer texels(N)"},
        {"dst = float32, texels(4), zero, out", "unknown format 'float32' for texel buffer 'dst'"},
        {"dst = r32f, texels(4) + 1, zero, out", "needs one size, texels(COUNT); got 'texels(4) + 1'"},
        {"dst = r32f, texels(4)", "; a texel buffer: 'r32f, texels(N), zero, out')"},
    };
    expect_bad_buffer_lines(bad, sizeof bad / sizeof bad[0]);
    /* bind.N moves a texel buffer only to a binding of the same kind (the view is the descriptor). */
    vkat_space *t = NULL;
    CHECK(vkat_space_load_string("[kernel]\nname = t\ntemplate = gemm.comp\n[buffers]\n"
                                 "a = r32f, texels(4), zero, out\nb = float32, 4, zero, out\n"
                                 "c = r32f, texels(4), zero, uniform\n[pass.p]\nbind.0 = b\n",
                                 DATA "inline.ini", &t, &err) != VKAT_OK && t == NULL);
    CHECK_CONTAINS(err.message, "'bind.0' puts storage buffer 'b' where the shader binds storage texel buffer 'a'");
    CHECK(vkat_space_load_string("[kernel]\nname = t\ntemplate = gemm.comp\n[buffers]\n"
                                 "a = r32f, texels(4), zero, out\nb = float32, 4, zero, out\n"
                                 "c = r32f, texels(4), zero, uniform\n[pass.p]\nbind.0 = c\n",
                                 DATA "inline.ini", &t, &err) != VKAT_OK && t == NULL);
    CHECK_CONTAINS(err.message, "puts uniform texel buffer 'c' where the shader binds storage texel buffer 'a'");
}

int main(void)
{
    test_texel_buffers();
    test_images();
    test_complete_config();
    test_tensor();
    test_errors();
    test_good();
    test_list_lines();
    test_long_lines();
    test_walk_errors();
    test_problem_cpu();
    TEST_END();
}
