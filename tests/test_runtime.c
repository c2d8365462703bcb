/* test_runtime.c — the runtime library (runtime/vkautotune_runtime.c) and the exporter's lowering to it:
 * every formula operator against vkat_expr_eval on many inputs, what cannot be lowered, evaluation errors, each
 * selection tier and its fallback order, limits, conditions, the nearest problem, launch evaluation and the
 * specialization info; candidates for runtime tuning are never selected; the tuner's cache file (keys, damage,
 * replacement). Needs no device: properties and identities are made by hand. */
#include "expr.h"
#include "test.h"
#include "vkautotune_runtime.h"
#include "vkautotune_runtime_check.h"
#include "vkautotune_runtime_tune.h"

#include <stdint.h>
#include <unistd.h>

/* ---- Lowering: the runtime computes what the space language computes ------------------------------------ */

static vkat_symtab *syms;
static int var_index[4] = {0, 1, -1, -2}; /* M, N: variables; P: a parameter (constant); device.x: absent */

static void same_as_expr(const char *text)
{
    vkat_expr *e = NULL;
    vkat_error err = {0};
    CHECK_MSG(vkat_expr_parse(text, syms, "t.ini", 3, &e, &err) == VKAT_OK, "%s: %s", text, err.message);
    if (!e)
        return;
    vkat_value env[4] = {vkat_int(0), vkat_int(0), vkat_int(12), vkat_int(0)};
    vkat_rt_op *ops = NULL;
    size_t count = 0;
    CHECK_MSG(vkat_expr_lower(e, env, var_index, &ops, &count, &err) == VKAT_OK, "%s: %s", text, err.message);
    vkat_rt_formula f = {ops, (uint32_t)count, text};
    int mismatches = 0;
    static const int64_t values[] = {-7, -1, 0, 1, 2, 3, 5, 8, 64, 100, 1000};
    for (size_t i = 0; ops && i < sizeof values / sizeof values[0]; i++)
        for (size_t j = 0; j < sizeof values / sizeof values[0]; j++) {
            env[0] = vkat_int(values[i]);
            env[1] = vkat_int(values[j]);
            int64_t want = 0, got = 0;
            vkat_error eerr = {0};
            int64_t vars[2] = {values[i], values[j]};
            int ok_expr = vkat_expr_eval_int(e, env, &want, &eerr) == VKAT_OK;
            int ok_rt = vkat_rt_eval(&f, vars, 2, &got) == VKAT_RT_OK;
            /* && and || evaluate both sides in the runtime: an error on the side C skips is allowed there. */
            int short_circuit = strstr(text, "&&") || strstr(text, "||");
            if (ok_expr != ok_rt && !(short_circuit && ok_expr && !ok_rt))
                mismatches++;
            else if (ok_expr && ok_rt && want != got)
                mismatches++;
        }
    CHECK_MSG(mismatches == 0, "%s: %d mismatches", text, mismatches);
    free(ops);
    vkat_expr_destroy(e);
}

static void not_lowered(const char *text, const char *why)
{
    vkat_expr *e = NULL;
    vkat_error err = {0};
    CHECK(vkat_expr_parse(text, syms, "t.ini", 9, &e, &err) == VKAT_OK);
    vkat_value env[4] = {vkat_int(1), vkat_int(2), vkat_float(1.5), vkat_int(4)};
    vkat_rt_op *ops = (vkat_rt_op *)1;
    size_t count = 99;
    CHECK(vkat_expr_lower(e, env, var_index, &ops, &count, &err) == VKAT_ERR_UNSUPPORTED);
    CHECK(ops == NULL && count == 0);
    CHECK_CONTAINS(err.message, why);
    CHECK(err.line == 9);
    vkat_expr_destroy(e);
}

static void test_lowering(void)
{
    syms = vkat_symtab_create();
    vkat_symtab_add(syms, "M");
    vkat_symtab_add(syms, "N");
    vkat_symtab_add(syms, "P");
    vkat_symtab_add(syms, "device.x");
    const char *exprs[] = {
        "M", "42", "-M", "!M", "~M", "M + N", "M - N", "M * N", "M / N", "M % N", "cdiv(M, N)", "cdiv(M, P)",
        "min(M, N)", "max(M, N, P)", "min(M, N, 3, -2)", "M << 3", "(M + 8) >> 2", "M & N", "M | N", "M ^ N",
        "M < N", "M <= N", "M > N", "M >= N", "M == N", "M != N", "M && N", "M || N", "M && N || !M",
        "M % (P * 2) == 0", "N / (P * 4)", "(M > 0) && (N % P == 0)", "M * P + N * (P - 2) - 7", "M / N && N",
    };
    for (size_t i = 0; i < sizeof exprs / sizeof exprs[0]; i++)
        same_as_expr(exprs[i]);
    not_lowered("M > 1 ? M : N", "conditional");
    not_lowered("select(M, N, 1)", "conditional");
    not_lowered("M * 1.5", "floating-point literal");
    not_lowered("sqrt(M)", "function");
    not_lowered("M + device.x", "not known when exporting");
    not_lowered("M + P", "not an integer"); /* P holds 1.5 here */
    vkat_symtab_destroy(syms);
}

/* ---- Evaluation errors --------------------------------------------------------------------------------------- */

static void test_eval_errors(void)
{
    int64_t out = 0, vars[2] = {INT64_MAX, 0};
    vkat_rt_op div0[] = {{VKAT_RT_CONST, 1}, {VKAT_RT_VAR, 1}, {VKAT_RT_DIV, 0}};
    vkat_rt_op ovf[] = {{VKAT_RT_VAR, 0}, {VKAT_RT_CONST, 1}, {VKAT_RT_ADD, 0}};
    vkat_rt_op badvar[] = {{VKAT_RT_VAR, 2}};
    vkat_rt_op underflow[] = {{VKAT_RT_ADD, 0}};
    vkat_rt_op two_left[] = {{VKAT_RT_CONST, 1}, {VKAT_RT_CONST, 2}};
    vkat_rt_op badop[] = {{VKAT_RT_CONST, 1}, {VKAT_RT_CONST, 1}, {999, 0}};
    vkat_rt_formula f = {div0, 3, NULL};
    CHECK(vkat_rt_eval(&f, vars, 2, &out) == VKAT_RT_ERR_EVAL);
    f = (vkat_rt_formula){ovf, 3, NULL};
    CHECK(vkat_rt_eval(&f, vars, 2, &out) == VKAT_RT_ERR_EVAL);
    f = (vkat_rt_formula){badvar, 1, NULL};
    CHECK(vkat_rt_eval(&f, vars, 2, &out) == VKAT_RT_ERR_ARGUMENT);
    f = (vkat_rt_formula){underflow, 1, NULL};
    CHECK(vkat_rt_eval(&f, vars, 2, &out) == VKAT_RT_ERR_EVAL);
    f = (vkat_rt_formula){two_left, 2, NULL};
    CHECK(vkat_rt_eval(&f, vars, 2, &out) == VKAT_RT_ERR_EVAL);
    f = (vkat_rt_formula){badop, 3, NULL};
    CHECK(vkat_rt_eval(&f, vars, 2, &out) == VKAT_RT_ERR_EVAL);
    f = (vkat_rt_formula){NULL, 0, NULL};
    CHECK(vkat_rt_eval(&f, vars, 2, &out) == VKAT_RT_ERR_NO_FORMULA);
    CHECK(strcmp(vkat_rt_result_string(VKAT_RT_ERR_EVAL), "ok") != 0);
}

/* ---- Selection ----------------------------------------------------------------------------------------------- */

static const char *const names[] = {"M", "N"};
static const int64_t p256[] = {256, 256}, p4096[] = {4096, 4096};
/* Condition: M % 64 == 0. */
static const vkat_rt_op cond_ops[] = {{VKAT_RT_VAR, 0}, {VKAT_RT_CONST, 64}, {VKAT_RT_MOD, 0}, {VKAT_RT_CONST, 0},
                                      {VKAT_RT_EQ, 0}};
static const vkat_rt_formula cond64[] = {{cond_ops, 5, "M % 64 == 0"}};
/* Groups: cdiv(N, 16), M / 8, 1; buffer: M * N; push: M. */
static const vkat_rt_op ops[] = {{VKAT_RT_VAR, 1}, {VKAT_RT_CONST, 16}, {VKAT_RT_CDIV, 0}, {VKAT_RT_VAR, 0},
                                 {VKAT_RT_CONST, 8}, {VKAT_RT_DIV, 0}, {VKAT_RT_CONST, 1}, {VKAT_RT_VAR, 0},
                                 {VKAT_RT_VAR, 1}, {VKAT_RT_MUL, 0}, {VKAT_RT_VAR, 0}};
static const vkat_rt_op alpha_ops[] = {{VKAT_RT_CONST, 0x3f800000}};
static const vkat_rt_binding bindings[] = {{0, "C", "float32", 4, VKAT_RT_OUT, {ops + 7, 3, "M * N"}, 65536}};
static const vkat_rt_push_constant push[] = {{0, "m", "uint32", {ops + 10, 1, "M"}, 256},
                                             {4, "alpha", "float32", {alpha_ops, 1, "1.0"}, 0x3f800000u}};
static const vkat_rt_spec_constant spec[] = {{3, 128, "WG"}, {9, 4, "TM"}};
static const uint32_t words[] = {0x07230203u};

#define VARIANT(vendor, dev, drv, name, flg, prob, conds, nconds, lx, shared)                                             \
    {.kernel = "k", .vendor_id = vendor, .device_id = dev, .driver_version_min = drv, .driver_version_max = drv,  \
     .device_name = name, .device_type = "discrete", .flags = flg, .problem_count = 2, .problem_names = names,    \
     .problem = prob, .conditions = conds, .condition_count = nconds, .spirv = words,                      \
     .spirv_size_bytes = 4, .entry_point = "main", .spec_constants = spec, .spec_constant_count = 2,              \
     .local_size = {lx, 1, 1}, .shared_bytes = shared,                                                           \
     .groups = {{ops, 3, NULL}, {ops + 3, 3, NULL}, {ops + 6, 1, NULL}}, .tuned_groups = {16, 32, 1},             \
     .bindings = bindings, .binding_count = 1, .push_constants = push, .push_constant_count = 2}

static const vkat_rt_variant variants[] = {
    /* 0 */ VARIANT(0x10de, 0x2335, 100, "NVIDIA H200", 0, p256, cond64, 1, 256, 0),
    /* 1 */ VARIANT(0x10de, 0x2335, 100, "NVIDIA H200", 0, p4096, cond64, 1, 256, 0),
    /* 2 */ VARIANT(0x10de, 0x2684, 200, "NVIDIA GeForce RTX 4090", VKAT_RT_VENDOR_DEFAULT, p4096, NULL, 0, 128, 0),
    /* 3 */ VARIANT(0x1002, 0x744c, 300, "AMD Radeon RX 7900 XTX", 0, p4096, NULL, 0, 64, 0),
    /* 4 */ VARIANT(0x1002, 0x73bf, 300, "AMD Radeon RX 6900 XT", VKAT_RT_VENDOR_DEFAULT, p4096, NULL, 0, 64, 0),
    /* 5 */ VARIANT(0x8086, 0x56a0, 400, "Intel(R) Arc(tm) A770 Graphics", VKAT_RT_GENERIC_DEFAULT, p4096, NULL, 0,
                    32, 0),
    /* 6: too big for any device below */
    VARIANT(0x10005, 0, 1, "llvmpipe*", 0, p256, NULL, 0, 4096, 0),
    /* 7: too much shared memory for the small device */
    VARIANT(0x10005, 0, 1, "llvmpipe*", 0, p4096, NULL, 0, 64, 40000),
};
static const vkat_rt_table table = {VKAT_RT_TABLE_VERSION, "test", variants, sizeof variants / sizeof variants[0]};

static VkPhysicalDeviceProperties device(uint32_t vendor, uint32_t id, uint32_t driver, const char *name)
{
    VkPhysicalDeviceProperties p;
    memset(&p, 0, sizeof p);
    p.vendorID = vendor;
    p.deviceID = id;
    p.driverVersion = driver;
    snprintf(p.deviceName, sizeof p.deviceName, "%s", name);
    p.limits.maxComputeWorkGroupSize[0] = p.limits.maxComputeWorkGroupSize[1] = 1024;
    p.limits.maxComputeWorkGroupSize[2] = 64;
    p.limits.maxComputeWorkGroupInvocations = 1024;
    p.limits.maxComputeSharedMemorySize = 49152;
    return p;
}

/* Selects and returns the variant's index, or -1; *how gets the tier. */
static int pick(const VkPhysicalDeviceProperties *p, const int64_t *problem, vkat_rt_match *how)
{
    const vkat_rt_variant *v = NULL;
    if (vkat_rt_select(&table, "k", p, problem, 2, &v, how) != VKAT_RT_OK)
        return -1;
    return (int)(v - variants);
}

static VkPhysicalDeviceProperties props_for_callback;
static void VKAPI_PTR get_props(VkPhysicalDevice pd, VkPhysicalDeviceProperties *p)
{
    (void)pd;
    *p = props_for_callback;
}

static void test_selection(void)
{
    vkat_rt_match how;
    int64_t want256[] = {256, 256}, want4096[] = {4096, 4096}, want2048[] = {2048, 2048}, want200[] = {200, 256};
    int64_t want300[] = {300, 300};

    VkPhysicalDeviceProperties h200 = device(0x10de, 0x2335, 100, "NVIDIA H200");
    CHECK(pick(&h200, want256, &how) == 0 && how == VKAT_RT_MATCH_EXACT);
    CHECK(pick(&h200, want4096, &how) == 1 && how == VKAT_RT_MATCH_EXACT);
    CHECK(pick(&h200, want2048, &how) == 1 && how == VKAT_RT_MATCH_EXACT); /* nearest tuned problem */
    CHECK(pick(&h200, NULL, &how) == 0 && how == VKAT_RT_MATCH_EXACT);     /* any problem: table order */
    /* M = 200 fails both H200 variants' condition: the vendor default (4090) has none. */
    CHECK(pick(&h200, want200, &how) == 2 && how == VKAT_RT_MATCH_VENDOR);

    VkPhysicalDeviceProperties h200_new = device(0x10de, 0x2335, 101, "NVIDIA H200");
    CHECK(pick(&h200_new, want4096, &how) == 1 && how == VKAT_RT_MATCH_DEVICE);

    VkPhysicalDeviceProperties h100 = device(0x10de, 0x2330, 100, "NVIDIA H100 80GB HBM3");
    CHECK(pick(&h100, want4096, &how) == 1 && how == VKAT_RT_MATCH_ARCHITECTURE);
    CHECK(strcmp(vkat_rt_architecture(0x10de, 0x2330, "x"), "nvidia-hopper") == 0);
    CHECK(strcmp(vkat_rt_architecture(0x10005, 0, "llvmpipe (LLVM 15.0.6, 256 bits)"), "mesa-llvmpipe") == 0);
    CHECK(strcmp(vkat_rt_architecture(0x1234, 1, "x"), "") == 0);

    VkPhysicalDeviceProperties a100 = device(0x10de, 0x20b0, 100, "NVIDIA A100-SXM4-40GB");
    CHECK(pick(&a100, want4096, &how) == 2 && how == VKAT_RT_MATCH_VENDOR); /* flagged vendor default */

    VkPhysicalDeviceProperties amd = device(0x1002, 0x1234, 1, "AMD Radeon Pro");
    CHECK(pick(&amd, want4096, &how) == 4 && how == VKAT_RT_MATCH_VENDOR);
    VkPhysicalDeviceProperties xtx = device(0x1002, 0x744c, 999, "AMD Radeon RX 7900 XTX");
    CHECK(pick(&xtx, want4096, &how) == 3 && how == VKAT_RT_MATCH_DEVICE);
    VkPhysicalDeviceProperties xtx_renamed = device(0x1002, 0x744c, 300, "AMD Radeon RX 7900 XTX (RADV NAVI31)");
    CHECK(pick(&xtx_renamed, want4096, &how) == 4 && how == VKAT_RT_MATCH_VENDOR); /* name pattern differs */

    VkPhysicalDeviceProperties other = device(0x5143, 1, 1, "Adreno");
    CHECK(pick(&other, want4096, &how) == 5 && how == VKAT_RT_MATCH_GENERIC);

    /* llvmpipe: variant 6 exceeds the invocations, 7 the shared memory of a small device; glob on the name. */
    VkPhysicalDeviceProperties lvp = device(0x10005, 0, 1, "llvmpipe (LLVM 15.0.6, 256 bits)");
    CHECK(pick(&lvp, want256, &how) == 7 && how == VKAT_RT_MATCH_EXACT);
    lvp.limits.maxComputeSharedMemorySize = 32768;
    CHECK(pick(&lvp, want256, &how) == 5 && how == VKAT_RT_MATCH_GENERIC);

    /* Nothing fits: a kernel that is not there, or a problem nobody's condition accepts with no fallback left. */
    const vkat_rt_variant *v = NULL;
    CHECK(vkat_rt_select(&table, "nope", &h200, NULL, 0, &v, &how) == VKAT_RT_ERR_NOT_FOUND && !v &&
          how == VKAT_RT_MATCH_NONE);
    vkat_rt_table only_h200 = {VKAT_RT_TABLE_VERSION, "t", variants, 2};
    CHECK(vkat_rt_select(&only_h200, "k", &h200, want300, 2, &v, &how) == VKAT_RT_ERR_NOT_FOUND);
    vkat_rt_table wrong_version = {VKAT_RT_TABLE_VERSION + 1, "t", variants, 2};
    CHECK(vkat_rt_select(&wrong_version, "k", &h200, NULL, 0, &v, &how) == VKAT_RT_ERR_ARGUMENT);

    props_for_callback = h100;
    CHECK(vkat_rt_select_physical_device(&table, "k", (VkPhysicalDevice)(uintptr_t)1, get_props, want4096, 2, &v,
                                         &how) == VKAT_RT_OK &&
          v == &variants[1] && how == VKAT_RT_MATCH_ARCHITECTURE);
    CHECK(vkat_rt_select_physical_device(&table, "k", (VkPhysicalDevice)(uintptr_t)1, NULL, NULL, 0, &v, &how) ==
          VKAT_RT_ERR_ARGUMENT);
    CHECK(strcmp(vkat_rt_match_name(VKAT_RT_MATCH_ARCHITECTURE), "architecture") == 0);
}

/* ---- Launch --------------------------------------------------------------------------------------------------- */

static void test_launch(void)
{
    const vkat_rt_variant *v = &variants[0];
    vkat_rt_launch l;
    int64_t p[] = {512, 100};
    CHECK(vkat_rt_launch_eval(v, p, 2, &l) == VKAT_RT_OK);
    CHECK(l.groups[0] == 7 && l.groups[1] == 64 && l.groups[2] == 1); /* cdiv(100, 16), 512 / 8 */
    CHECK(l.buffer_bytes[0] == 512 * 100 * 4);
    uint32_t m, alpha;
    memcpy(&m, l.push, 4);
    memcpy(&alpha, l.push + 4, 4);
    CHECK(m == 512 && alpha == 0x3f800000u && l.push_size == 8); /* a float constant: its bits */
    CHECK(vkat_rt_launch_eval(v, NULL, 0, &l) == VKAT_RT_OK && l.groups[0] == 16 && l.groups[1] == 32);
    int64_t bad[] = {100, 100};
    CHECK(vkat_rt_launch_eval(v, bad, 2, &l) == VKAT_RT_ERR_PROBLEM);
    CHECK(vkat_rt_launch_eval(v, p, 1, &l) == VKAT_RT_ERR_ARGUMENT);
    int64_t zero[] = {0, 0};
    CHECK(vkat_rt_launch_eval(&variants[2], zero, 2, &l) == VKAT_RT_ERR_EVAL); /* zero groups */

    /* Without a group formula only the tuned problem runs. */
    vkat_rt_variant no_formula = variants[2];
    no_formula.groups[1] = (vkat_rt_formula){NULL, 0, "x ? y : z"};
    CHECK(vkat_rt_launch_eval(&no_formula, NULL, 0, &l) == VKAT_RT_OK && l.groups[1] == 32);
    CHECK(vkat_rt_launch_eval(&no_formula, p, 2, &l) == VKAT_RT_ERR_NO_FORMULA);

    VkSpecializationMapEntry entries[2];
    VkSpecializationInfo info;
    vkat_rt_specialization(v, entries, &info);
    CHECK(info.mapEntryCount == 2 && entries[1].constantID == 9 && entries[1].size == 4);
    uint32_t value;
    memcpy(&value, (const char *)info.pData + entries[1].offset, 4);
    CHECK(value == 4);
    memcpy(&value, (const char *)info.pData + entries[0].offset, 4);
    CHECK(value == 128);
}

/* A constant the shader declares as a float or a bool, bound to a problem size: the caller's size reaches it
 * encoded (its float bits; VK_TRUE), a tuned float parameter as the bits the table holds. */
static void test_spec_encoding(void)
{
    static const vkat_rt_spec_constant typed[] = {{1, 0x40400000u, "S", 1, VKAT_RT_SPEC_FLOAT32},
                                                  {2, 1, "NEG", 2, VKAT_RT_SPEC_BOOL},
                                                  {4, 0x42000000u, "FB", 0, 0}};
    vkat_rt_variant v = variants[0];
    v.spec_constants = typed;
    v.spec_constant_count = 3;
    vkat_rt_launch l;
    int64_t p[] = {512, 100};
    CHECK(vkat_rt_launch_eval(&v, p, 2, &l) == VKAT_RT_OK);
    CHECK(l.spec[0] == 0x44000000u); /* 512.0f */
    CHECK(l.spec[1] == 1);           /* 100: true */
    CHECK(l.spec[2] == 0x42000000u); /* the table's bits: 32.0f */
}

/* ---- Candidates and the tuner's cache -------------------------------------------------------------------------- */

static void test_candidate_only(void)
{
    /* The exact match for the H200, first in the table, but only a candidate: selection takes the next one. */
    vkat_rt_variant v2[3] = {variants[0], variants[0], variants[2]};
    v2[0].flags = VKAT_RT_CANDIDATE_ONLY;
    v2[0].config = "candidate";
    vkat_rt_table t = {VKAT_RT_TABLE_VERSION, "t", v2, 3, NULL};
    VkPhysicalDeviceProperties h200 = device(0x10de, 0x2335, 100, "NVIDIA H200");
    int64_t want256[] = {256, 256};
    const vkat_rt_variant *v = NULL;
    vkat_rt_match how;
    CHECK(vkat_rt_select(&t, "k", &h200, want256, 2, &v, &how) == VKAT_RT_OK && v == &v2[1] &&
          how == VKAT_RT_MATCH_EXACT);
    /* Only candidates: nothing to select (the tuner can still measure them). */
    vkat_rt_table only = {VKAT_RT_TABLE_VERSION, "t", v2, 1, NULL};
    CHECK(vkat_rt_select(&only, "k", &h200, want256, 2, &v, &how) == VKAT_RT_ERR_NOT_FOUND);
    CHECK(vkat_rt_fits_limits(&variants[0], &h200.limits) && !vkat_rt_fits_limits(&variants[6], &h200.limits));
}

static int file_text(const char *path, char *buf, size_t cap)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    size_t n = fread(buf, 1, cap - 1, f);
    fclose(f);
    buf[n] = 0;
    return (int)n;
}

static void test_cache(void)
{
    char dir[] = "/tmp/vkat-test-rtcache-XXXXXX", path[128], text[4096];
    if (!mkdtemp(dir)) {
        CHECK(0);
        return;
    }
    snprintf(path, sizeof path, "%s/cache.txt", dir);
    vkat_rt_device_identity id = {0x10de, 0x2335, 100, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}};
    int64_t big[] = {4096, 4096}, small[] = {256, 256};
    const vkat_rt_variant *v = NULL;
    CHECK(vkat_rt_cache_lookup(path, &id, &table, "k", big, 2, &v) == VKAT_RT_ERR_NOT_FOUND && !v); /* none */
    CHECK(vkat_rt_cache_store(path, &id, &table, "k", big, 2, &variants[3], NULL, 0) == VKAT_RT_OK);
    CHECK(vkat_rt_cache_store(path, &id, &table, "k", small, 2, &variants[0], NULL, 0) == VKAT_RT_OK);
    CHECK(vkat_rt_cache_lookup(path, &id, &table, "k", big, 2, &v) == VKAT_RT_OK && v == &variants[3]);
    CHECK(vkat_rt_cache_lookup(path, &id, &table, "k", small, 2, &v) == VKAT_RT_OK && v == &variants[0]);
    CHECK(vkat_rt_cache_lookup(path, &id, &table, "other", small, 2, &v) == VKAT_RT_ERR_NOT_FOUND);
    /* Replacing one pick keeps the other. */
    CHECK(vkat_rt_cache_store(path, &id, &table, "k", big, 2, &variants[1], NULL, 0) == VKAT_RT_OK);
    CHECK(vkat_rt_cache_lookup(path, &id, &table, "k", big, 2, &v) == VKAT_RT_OK && v == &variants[1]);
    CHECK(vkat_rt_cache_lookup(path, &id, &table, "k", small, 2, &v) == VKAT_RT_OK && v == &variants[0]);
    /* Every part of the identity is part of the key. */
    vkat_rt_device_identity other = id;
    other.driver_version++;
    CHECK(vkat_rt_cache_lookup(path, &other, &table, "k", small, 2, &v) == VKAT_RT_ERR_NOT_FOUND);
    other = id;
    other.device_uuid[15] ^= 1;
    CHECK(vkat_rt_cache_lookup(path, &other, &table, "k", small, 2, &v) == VKAT_RT_ERR_NOT_FOUND);
    other = id;
    other.device_id++;
    CHECK(vkat_rt_cache_lookup(path, &other, &table, "k", small, 2, &v) == VKAT_RT_ERR_NOT_FOUND);
    /* Another table: another hash, no pick. A store for another identity starts afresh. */
    vkat_rt_variant v2[8];
    memcpy(v2, variants, sizeof v2);
    v2[2].config = "changed";
    vkat_rt_table t2 = {VKAT_RT_TABLE_VERSION, "t", v2, 8, NULL};
    CHECK(vkat_rt_table_hash(&t2) != vkat_rt_table_hash(&table));
    CHECK(vkat_rt_cache_lookup(path, &id, &t2, "k", small, 2, &v) == VKAT_RT_ERR_NOT_FOUND);
    other = id;
    other.driver_version++;
    CHECK(vkat_rt_cache_store(path, &other, &table, "k", small, 2, &variants[0], NULL, 0) == VKAT_RT_OK);
    CHECK(vkat_rt_cache_lookup(path, &other, &table, "k", big, 2, &v) == VKAT_RT_ERR_NOT_FOUND);
    CHECK(vkat_rt_cache_lookup(path, &id, &table, "k", small, 2, &v) == VKAT_RT_ERR_NOT_FOUND);
    /* Damage: every single-byte change is caught (checksum or syntax); a store then rewrites the file. */
    int n = file_text(path, text, sizeof text);
    CHECK(n > 0);
    int missed = 0;
    for (int i = 0; i < n; i++) {
        char bad[4096];
        memcpy(bad, text, (size_t)n);
        bad[i] ^= 0x04;
        FILE *f = fopen(path, "wb");
        if (!f || fwrite(bad, 1, (size_t)n, f) != (size_t)n) {
            CHECK(0);
            if (f)
                fclose(f);
            break;
        }
        fclose(f);
        missed += vkat_rt_cache_lookup(path, &other, &table, "k", small, 2, &v) == VKAT_RT_OK;
    }
    CHECK_MSG(missed == 0, "%d damaged caches were used", missed);
    CHECK(vkat_rt_cache_store(path, &other, &table, "k", small, 2, &variants[0], NULL, 0) == VKAT_RT_OK);
    CHECK(vkat_rt_cache_lookup(path, &other, &table, "k", small, 2, &v) == VKAT_RT_OK && v == &variants[0]);
    /* Nothing but the file is left behind; an unwritable path is VKAT_RT_ERR_CACHE with the reason. */
    char cmd[256], detail[160];
    snprintf(cmd, sizeof cmd, "test $(ls -A '%s' | wc -l) -eq 1", dir);
    CHECK(system(cmd) == 0);
    CHECK(vkat_rt_cache_store("/nonexistent/dir/c.txt", &id, &table, "k", small, 2, &variants[0], detail,
                              sizeof detail) == VKAT_RT_ERR_CACHE);
    CHECK_CONTAINS(detail, "/nonexistent/dir/c.txt");
    CHECK(vkat_rt_cache_store(path, &id, &table, "k", small, 2, &v2[0], NULL, 0) == VKAT_RT_ERR_ARGUMENT);
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    CHECK(system(cmd) == 0);
}

/* ---- Dispatches: one loop for a single dispatch and a sequence ------------------------------------------------ */

static void test_dispatches(void)
{
    /* A single dispatch is the variant itself, with vkat_rt_launch_eval's groups and push block. */
    const vkat_rt_variant *v = &variants[0];
    vkat_rt_dispatch d;
    int64_t p[] = {512, 100};
    CHECK(vkat_rt_dispatch_count(v) == 1 && vkat_rt_dispatch_count(NULL) == 0);
    CHECK(vkat_rt_dispatch_eval(v, 0, p, 2, &d) == VKAT_RT_OK);
    CHECK(d.spirv == words && d.groups[0] == 7 && d.groups[1] == 64 && d.push_size == 8 && d.local_size[0] == 256);
    CHECK(d.spec_constant_count == 2 && d.spec_constants == spec);
    CHECK(vkat_rt_dispatch_eval(v, 1, p, 2, &d) == VKAT_RT_ERR_ARGUMENT);
    int64_t bad[] = {100, 100};
    CHECK(vkat_rt_dispatch_eval(v, 0, bad, 2, &d) == VKAT_RT_ERR_PROBLEM);

    /* A sequence: its passes in order, for the tuned problem only. */
    static const uint32_t other[] = {0x07230203u, 1};
    static const vkat_rt_spec_constant s0[] = {{0, 64, NULL}, {1, 1, NULL}}, s1[] = {{0, 64, NULL}, {1, 64, NULL}};
    static const uint32_t push0[] = {1000, 7}, push1[] = {1000, 8};
    static const vkat_rt_pass passes[] = {
        {"reduce", 0, words, 4, "h0", s0, 2, {64, 1, 1}, {16, 1, 1}, push0, 8},
        {"reduce", 1, words, 4, "h0", s1, 2, {64, 1, 1}, {1, 1, 1}, push1, 8},
        {"total", 0, other, 8, "h1", NULL, 0, {1, 1, 1}, {1, 1, 1}, NULL, 0},
    };
    vkat_rt_variant q = variants[0];
    q.passes = passes;
    q.pass_count = 3;
    CHECK(vkat_rt_dispatch_count(&q) == 3);
    CHECK(vkat_rt_dispatch_eval(&q, 1, NULL, 0, &d) == VKAT_RT_OK);
    CHECK(d.spirv == words && d.groups[0] == 1 && d.spec_constant_count == 2 && d.push_size == 8);
    uint32_t w;
    memcpy(&w, d.push + 4, 4);
    CHECK(w == 8);
    VkSpecializationMapEntry entries[VKAT_RT_MAX_SPEC_CONSTANTS];
    VkSpecializationInfo info;
    vkat_rt_dispatch_specialization(&d, entries, &info);
    memcpy(&w, (const char *)info.pData + entries[1].offset, 4);
    CHECK(info.mapEntryCount == 2 && entries[1].constantID == 1 && w == 64);
    CHECK(vkat_rt_dispatch_eval(&q, 2, p256, 2, &d) == VKAT_RT_OK && d.spirv == other && d.push_size == 0);
    vkat_rt_dispatch_specialization(&d, entries, &info);
    CHECK(info.mapEntryCount == 0 && info.pData == NULL);
    CHECK(vkat_rt_dispatch_eval(&q, 3, NULL, 0, &d) == VKAT_RT_ERR_ARGUMENT);
    CHECK(vkat_rt_dispatch_eval(&q, 0, p, 2, &d) == VKAT_RT_ERR_PROBLEM);
    CHECK(vkat_rt_dispatch_eval(&q, 0, p, 1, &d) == VKAT_RT_ERR_ARGUMENT);
}

/* A buffer's fields over its fill (a uniform block's count from the problem, a float scale as its bits): written at
 * their offsets for any problem with a formula, the tuned bits only for the tuned problem, never past the end. */
static void test_fields(void)
{
    vkat_rt_op field_ops[] = {{VKAT_RT_VAR, 0}, {VKAT_RT_CONST, 0x40200000}}; /* N; the bits of 2.5f */
    vkat_rt_push_constant fields[] = {{0, "count", "uint32", {field_ops, 1, "N"}, 1000},
                                      {4, "scale", "float32", {field_ops + 1, 1, "2.5"}, 0x40200000u},
                                      {8, "shift", "float32", {NULL, 0, "N * 0.5"}, 0x43fa0000u}};
    vkat_rt_fill fill = {VKAT_RT_FILL_ZERO, 0, 0, fields, 3};
    vkat_rt_binding b = {0};
    b.type = "uint32";
    b.element_size = 4;
    unsigned char buf[16];
    uint32_t w[4];
    int64_t tuned[] = {1000}, other[] = {64};
    vkat_rt_fill_buffer(buf, sizeof buf, &b, &fill, 1);
    CHECK(vkat_rt_fill_fields(buf, sizeof buf, &fill, tuned, 1, 1) == VKAT_RT_OK);
    memcpy(w, buf, sizeof w);
    CHECK(w[0] == 1000 && w[1] == 0x40200000u && w[2] == 0x43fa0000u && w[3] == 0);
    /* another problem: the count follows it, the problem-dependent float has no formula */
    CHECK(vkat_rt_fill_fields(buf, sizeof buf, &fill, other, 1, 0) == VKAT_RT_ERR_NO_FORMULA);
    fill.field_count = 2;
    CHECK(vkat_rt_fill_fields(buf, sizeof buf, &fill, other, 1, 0) == VKAT_RT_OK);
    memcpy(w, buf, sizeof w);
    CHECK(w[0] == 64 && w[1] == 0x40200000u);
    CHECK(vkat_rt_fill_fields(buf, 6, &fill, other, 1, 0) == VKAT_RT_ERR_ARGUMENT); /* scale past 6 bytes */
}

int main(void)
{
    test_lowering();
    test_eval_errors();
    test_selection();
    test_launch();
    test_spec_encoding();
    test_candidate_only();
    test_cache();
    test_dispatches();
    test_fields();
    TEST_END();
}
