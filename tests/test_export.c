/* test_export.c — export of winning variants: file names, .spv bytes, every manifest field (read back with
 * json-c), mkdir -p, replacement of an old manifest, no temporary files left, and refusals that write nothing.
 * The space is built by hand (not loaded from a file) so the test pins exactly what export reads; its dispatch
 * expressions are NULL (written as the evaluated numbers) except where a test parses real ones. */
#include "export.h"
#include "test.h"
#include "util.h"

#include <dirent.h>
#include <json-c/json.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#define XXH_INLINE_ALL
#include <xxhash.h>

static char dir[64];

/* ---- A hand-made gemm-like space ---------------------------------------------------------------------------- */

static int64_t tm_values[] = {2, 4, 8};
static int64_t wg_values[] = {64, 128, 256};
static vkat_param params[] = {
    {.name = "TM", .values = tm_values, .value_count = 3, .kind = VKAT_PARAM_DEFINE, .slot = 3},
    {.name = "WG", .values = wg_values, .value_count = 3, .kind = VKAT_PARAM_SPEC, .spec_id = 7, .slot = 4},
};
static vkat_problem_var problem[] = {
    {.name = "M", .value = 256, .slot = 0},
    {.name = "N", .value = 256, .slot = 1},
    {.name = "K", .value = 256, .slot = 2},
};
static vkat_buffer_decl buffers[] = {
    {.name = "A", .binding = 0, .type = VKAT_FLOAT16, .dir = VKAT_DIR_IN},
    {.name = "B", .binding = 1, .type = VKAT_FLOAT32, .dir = VKAT_DIR_INOUT, .init = VKAT_INIT_RANDOM},
    {.name = "C", .binding = 2, .type = VKAT_UINT8, .dir = VKAT_DIR_OUT},
};
static vkat_push_decl push[] = {
    {.name = "M", .type = VKAT_UINT32, .offset = 0},
    {.name = "bias", .type = VKAT_INT32, .offset = 4},
    {.name = "alpha", .type = VKAT_FLOAT32, .offset = 8},
};
static char *extensions[] = {"VK_KHR_shader_float16_int8", "VK_KHR_16bit_storage"};
static char *features[] = {"shaderFloat16"};

static void make_space(vkat_space *s)
{
    memset(s, 0, sizeof *s);
    s->name = "gemm";
    s->entry = "main";
    s->extensions = extensions;
    s->extension_count = 2;
    s->features = features;
    s->feature_count = 1;
    s->problem = problem;
    s->problem_count = 3;
    s->params = params;
    s->param_count = 2;
    s->buffers = buffers;
    s->buffer_count = 3;
    s->push = push;
    s->push_count = 3;
}

static void make_device(vkat_device_info *d)
{
    memset(d, 0, sizeof *d);
    snprintf(d->name, sizeof d->name, "llvmpipe (LLVM 15.0.6, 256 bits)");
    d->vendor = "Mesa";
    d->device_type = "cpu";
    d->vendor_id = 0x10005;
    d->device_id = 0;
    d->driver_version = 0x5c00003;
    snprintf(d->driver_version_string, sizeof d->driver_version_string, "23.0.3");
    for (int i = 0; i < 16; i++) {
        d->driver_uuid[i] = (uint8_t)(0xf0 + i);
        d->pipeline_cache_uuid[i] = (uint8_t)(0x10 * i);
    }
}

static void make_row(vkat_row *r, const char *problem_text)
{
    memset(r, 0, sizeof *r);
    snprintf(r->kernel, sizeof r->kernel, "gemm");
    snprintf(r->template_hash, sizeof r->template_hash, "0123456789abcdef");
    snprintf(r->space_hash, sizeof r->space_hash, "fedcba9876543210");
    snprintf(r->problem, sizeof r->problem, "%s", problem_text);
    snprintf(r->config, sizeof r->config, "TM=4,WG=128");
    r->status = VKAT_STATUS_OK;
    r->median_s = 0.0025;
    r->min_s = 0.002;
    r->max_s = 0.004;
    r->mad_s = 0.0001;
    r->samples = 25;
    r->tflops = 0.5;
    r->gbps = 12.5;
}

static void make_launch(vkat_launch *l, uint64_t *counts, uint32_t m)
{
    memset(l, 0, sizeof *l);
    l->local_size[0] = 128;
    l->local_size[1] = l->local_size[2] = 1;
    l->groups[0] = m / 16;
    l->groups[1] = 16;
    l->groups[2] = 1;
    counts[0] = (uint64_t)m * 256;
    counts[1] = 256 * 256;
    counts[2] = 3;
    l->buffer_counts = counts;
    uint32_t mm = m;
    int32_t bias = -5;
    float alpha = 1.5f;
    memcpy(l->push, &mm, 4);
    memcpy(l->push + 4, &bias, 4);
    memcpy(l->push + 8, &alpha, 4);
    l->push_size = 12;
    l->flops = 2.0 * m * 256 * 256;
    l->bytes = 0; /* no [metrics] bytes: must come out as null */
}

/* ---- Helpers ------------------------------------------------------------------------------------------------ */

static json_object *get(json_object *o, const char *key)
{
    json_object *v = NULL;
    if (!json_object_object_get_ex(o, key, &v))
        fprintf(stderr, "manifest: no key '%s'\n", key);
    return v;
}

static const char *gets(json_object *o, const char *key)
{
    json_object *v = get(o, key);
    return v && json_object_is_type(v, json_type_string) ? json_object_get_string(v) : "<missing>";
}

static int64_t geti(json_object *o, const char *key)
{
    json_object *v = get(o, key);
    return v && json_object_is_type(v, json_type_int) ? json_object_get_int64(v) : -12345;
}

static double getd(json_object *o, const char *key)
{
    json_object *v = get(o, key);
    return v && (json_object_is_type(v, json_type_double) || json_object_is_type(v, json_type_int))
               ? json_object_get_double(v)
               : -12345.0;
}

static int triple_is(json_object *a, uint32_t x, uint32_t y, uint32_t z)
{
    return a && json_object_array_length(a) == 3 && json_object_get_int64(json_object_array_get_idx(a, 0)) == x &&
           json_object_get_int64(json_object_array_get_idx(a, 1)) == y &&
           json_object_get_int64(json_object_array_get_idx(a, 2)) == z;
}

static int strings_are(json_object *a, const char *x, const char *y, const char *z)
{
    return a && json_object_array_length(a) == 3 &&
           strcmp(json_object_get_string(json_object_array_get_idx(a, 0)), x) == 0 &&
           strcmp(json_object_get_string(json_object_array_get_idx(a, 1)), y) == 0 &&
           strcmp(json_object_get_string(json_object_array_get_idx(a, 2)), z) == 0;
}

static int file_equals(const char *path, const void *data, size_t size)
{
    size_t got = 0;
    char *buf = vkat_read_file(path, &got);
    int same = buf && got == size && memcmp(buf, data, size) == 0;
    free(buf);
    return same;
}

static int count_entries(const char *path, int *temporaries)
{
    DIR *d = opendir(path);
    int n = 0;
    *temporaries = 0;
    if (!d)
        return -1;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.' && (e->d_name[1] == 0 || strcmp(e->d_name, "..") == 0))
            continue;
        n++;
        if (strstr(e->d_name, ".tmp"))
            (*temporaries)++;
    }
    closedir(d);
    return n;
}

/* ---- Tests -------------------------------------------------------------------------------------------------- */

static void test_export(void)
{
    vkat_space space;
    vkat_device_info dev;
    make_space(&space);
    make_device(&dev);

    uint32_t words1[] = {0x07230203, 0x00010300, 0x000d000b, 42, 0, 0x00020011, 1};
    uint32_t words2[] = {0x07230203, 0x00010500, 0, 7, 0};
    vkat_spirv spv1 = {words1, VKAT_COUNTOF(words1)}, spv2 = {words2, VKAT_COUNTOF(words2)};
    uint32_t choice[] = {1, 1}; /* TM=4, WG=128 */

    /* Two problems of one kernel: the environment carries each item's problem. */
    vkat_value env1[5] = {vkat_int(256), vkat_int(256), vkat_int(256), vkat_int(4), vkat_int(128)};
    vkat_value env2[5] = {vkat_int(512), vkat_int(256), vkat_int(256), vkat_int(4), vkat_int(128)};
    vkat_row row1, row2;
    make_row(&row1, "M=256,N=256,K=256");
    make_row(&row2, "M=512,N=256,K=256");
    row2.mad_s = NAN; /* not measured: null, never NaN, in JSON */
    uint64_t counts1[3], counts2[3];
    vkat_launch l1, l2;
    make_launch(&l1, counts1, 256);
    make_launch(&l2, counts2, 512);

    vkat_export_item items[2] = {
        {&space, &dev, &row1, &spv1, choice, env1, &l1, 0, 1u << 2}, /* K compiled into the first module */
        {&space, &dev, &row2, &spv2, choice, env2, &l2},
    };
    char out[256];
    snprintf(out, sizeof out, "%s/exports/a/b", dir);
    vkat_error err = {0};
    vkat_result r = vkat_export_write(out, items, 2, &err);
    CHECK_MSG(r == VKAT_OK, "%s", err.message);

    const char *name1 = "gemm-llvmpipe-llvm-15-0-6-256-bits-m256-n256-k256.spv";
    const char *name2 = "gemm-llvmpipe-llvm-15-0-6-256-bits-m512-n256-k256.spv";
    char path[512];
    snprintf(path, sizeof path, "%s/%s", out, name1);
    CHECK_MSG(file_equals(path, words1, sizeof words1), "%s", path);
    snprintf(path, sizeof path, "%s/%s", out, name2);
    CHECK_MSG(file_equals(path, words2, sizeof words2), "%s", path);
    int temporaries;
    CHECK(count_entries(out, &temporaries) == 3 && temporaries == 0);

    snprintf(path, sizeof path, "%s/manifest.json", out);
    json_object *root = json_object_from_file(path);
    CHECK_MSG(root != NULL, "cannot parse %s", path);
    if (!root)
        return;
    CHECK_STR(gets(root, "format"), "vkautotune-manifest");
    CHECK(geti(root, "version") == 1);
    CHECK_STR(gets(root, "generator"), "vkautotune " VKAT_VERSION_STRING);
    json_object *kernels = get(root, "kernels");
    CHECK(kernels && json_object_array_length(kernels) == 2);
    json_object *k = kernels ? json_object_array_get_idx(kernels, 0) : NULL;
    json_object *k2 = kernels ? json_object_array_get_idx(kernels, 1) : NULL;
    if (!k || !k2) {
        json_object_put(root);
        return;
    }
    CHECK_STR(gets(k, "kernel"), "gemm");
    CHECK_STR(gets(k, "entry_point"), "main");
    CHECK_STR(gets(k, "spirv"), name1);
    CHECK_STR(gets(k2, "spirv"), name2);
    CHECK(geti(k, "spirv_size_bytes") == (int64_t)sizeof words1);
    char hash[17]; /* XXH3-64 of the file's bytes, what a runtime would verify */
    snprintf(hash, sizeof hash, "%016llx", (unsigned long long)XXH3_64bits(words1, sizeof words1));
    CHECK_STR(gets(k, "spirv_hash"), hash);
    snprintf(hash, sizeof hash, "%016llx", (unsigned long long)XXH3_64bits(words2, sizeof words2));
    CHECK_STR(gets(k2, "spirv_hash"), hash);
    CHECK_STR(gets(k, "config"), "TM=4,WG=128");

    json_object *d = get(k, "device");
    CHECK_STR(gets(d, "name"), "llvmpipe (LLVM 15.0.6, 256 bits)");
    CHECK_STR(gets(d, "vendor"), "Mesa");
    CHECK(geti(d, "vendor_id") == 0x10005);
    CHECK(geti(d, "device_id") == 0);
    CHECK_STR(gets(d, "driver_version"), "23.0.3");
    CHECK(geti(d, "driver_version_raw") == 0x5c00003);
    CHECK_STR(gets(d, "driver_uuid"), "f0f1f2f3-f4f5-f6f7-f8f9-fafbfcfdfeff");
    CHECK_STR(gets(d, "pipeline_cache_uuid"), "00102030-4050-6070-8090-a0b0c0d0e0f0");
    CHECK_STR(gets(d, "device_type"), "cpu");

    json_object *p = get(k, "problem");
    CHECK(geti(p, "M") == 256 && geti(p, "N") == 256 && geti(p, "K") == 256);
    CHECK(geti(get(k2, "problem"), "M") == 512);
    json_object *compiled = get(k, "compiled_problem"), *compiled2 = get(k2, "compiled_problem");
    CHECK(compiled && json_object_array_length(compiled) == 1 &&
          !strcmp(json_object_get_string(json_object_array_get_idx(compiled, 0)), "K"));
    CHECK(compiled2 && json_object_array_length(compiled2) == 0);

    json_object *params_json = get(k, "parameters");
    CHECK(params_json && json_object_object_length(params_json) == 2);
    CHECK(geti(get(params_json, "TM"), "value") == 4);
    CHECK_STR(gets(get(params_json, "TM"), "kind"), "define");
    CHECK(geti(get(params_json, "WG"), "value") == 128);
    CHECK_STR(gets(get(params_json, "WG"), "kind"), "spec");
    json_object *spec = get(k, "specialization_constants");
    CHECK(spec && json_object_array_length(spec) == 1);
    if (spec && json_object_array_length(spec) == 1) {
        json_object *c = json_object_array_get_idx(spec, 0);
        CHECK(geti(c, "id") == 7);
        CHECK_STR(gets(c, "name"), "WG");
        CHECK(geti(c, "value") == 128);
    }

    CHECK(triple_is(get(k, "local_size"), 128, 1, 1));
    CHECK(triple_is(get(k, "workgroup_count"), 16, 16, 1));
    CHECK(triple_is(get(k2, "workgroup_count"), 32, 16, 1));
    json_object *dispatch = get(k, "dispatch");
    CHECK(strings_are(get(dispatch, "workgroup_count"), "16", "16", "1"));
    CHECK(strings_are(get(dispatch, "local_size"), "128", "1", "1"));

    json_object *b = get(k, "bindings");
    CHECK(b && json_object_array_length(b) == 3);
    if (b && json_object_array_length(b) == 3) {
        static const char *const names[] = {"A", "B", "C"}, *const types[] = {"float16", "float32", "uint8"},
                                 *const dirs[] = {"in", "inout", "out"}, *const inits[] = {"zero", "random", "zero"};
        const uint64_t elements[] = {256 * 256, 256 * 256, 3}, bytes[] = {256 * 256 * 2, 256 * 256 * 4, 3};
        for (int i = 0; i < 3; i++) {
            json_object *o = json_object_array_get_idx(b, (size_t)i);
            CHECK(geti(o, "binding") == i);
            CHECK(geti(o, "set") == 0);
            CHECK_STR(gets(o, "name"), names[i]);
            CHECK_STR(gets(o, "type"), types[i]);
            CHECK(geti(o, "elements") == (int64_t)elements[i]);
            CHECK(geti(o, "bytes") == (int64_t)bytes[i]);
            CHECK_STR(gets(o, "direction"), dirs[i]);
            CHECK_STR(gets(o, "init"), inits[i]);
        }
        CHECK(geti(json_object_array_get_idx(get(k2, "bindings"), 0), "bytes") == 512 * 256 * 2);
    }

    json_object *pc = get(k, "push_constants");
    CHECK(pc && json_object_array_length(pc) == 3);
    if (pc && json_object_array_length(pc) == 3) {
        json_object *o0 = json_object_array_get_idx(pc, 0), *o1 = json_object_array_get_idx(pc, 1),
                    *o2 = json_object_array_get_idx(pc, 2);
        CHECK(geti(o0, "offset") == 0 && geti(o0, "size") == 4 && geti(o0, "value") == 256);
        CHECK_STR(gets(o0, "name"), "M");
        CHECK_STR(gets(o0, "type"), "uint32");
        CHECK(geti(o1, "offset") == 4 && geti(o1, "value") == -5);
        CHECK_STR(gets(o1, "type"), "int32");
        CHECK(geti(o2, "offset") == 8 && getd(o2, "value") == 1.5);
        CHECK_STR(gets(o2, "name"), "alpha");
        CHECK_STR(gets(o2, "type"), "float32");
        CHECK(geti(json_object_array_get_idx(get(k2, "push_constants"), 0), "value") == 512);
    }

    json_object *req = get(k, "requires");
    json_object *ext = get(req, "extensions"), *feat = get(req, "features");
    CHECK(ext && json_object_array_length(ext) == 2 &&
          strcmp(json_object_get_string(json_object_array_get_idx(ext, 1)), "VK_KHR_16bit_storage") == 0);
    CHECK(feat && json_object_array_length(feat) == 1 &&
          strcmp(json_object_get_string(json_object_array_get_idx(feat, 0)), "shaderFloat16") == 0);

    json_object *m = get(k, "measured");
    CHECK(fabs(getd(m, "median_ms") - 2.5) < 1e-12);
    CHECK(fabs(getd(m, "min_ms") - 2.0) < 1e-12);
    CHECK(fabs(getd(m, "mad_ms") - 0.1) < 1e-12);
    CHECK(geti(m, "samples") == 25);
    CHECK(getd(m, "tflops") == 0.5);
    json_object *v = get(m, "gbps");
    CHECK(v == NULL && json_object_object_get_ex(m, "gbps", NULL)); /* present, null: no bytes metric */
    json_object *m2 = get(k2, "measured");
    CHECK(json_object_object_get_ex(m2, "mad_ms", &v) && v == NULL);

    json_object *metrics = get(k, "metrics");
    CHECK(getd(metrics, "flops") == 2.0 * 256 * 256 * 256);
    CHECK(json_object_object_get_ex(metrics, "bytes", &v) && v == NULL);
    CHECK_STR(gets(k, "template_hash"), "0123456789abcdef");
    CHECK_STR(gets(k, "space_hash"), "fedcba9876543210");
    json_object_put(root);

    /* With the space's dispatch expressions, the formulas are their texts; a missing one is still the number. */
    vkat_symtab *syms = vkat_symtab_create();
    const char *const sym_names[] = {"M", "N", "K", "TM", "WG"};
    for (int i = 0; i < 5; i++)
        CHECK(syms && vkat_symtab_add(syms, sym_names[i]) == i);
    CHECK(vkat_expr_parse("cdiv(M, TM * 4)", syms, NULL, 0, &space.groups[0], &err) == VKAT_OK);
    CHECK(vkat_expr_parse("N / 16", syms, NULL, 0, &space.groups[1], &err) == VKAT_OK);
    CHECK(vkat_expr_parse("WG", syms, NULL, 0, &space.local_size[0], &err) == VKAT_OK);
    CHECK(vkat_export_write(out, items, 1, &err) == VKAT_OK);
    root = json_object_from_file(path);
    k = root ? json_object_array_get_idx(get(root, "kernels"), 0) : NULL;
    CHECK(k && strings_are(get(get(k, "dispatch"), "workgroup_count"), "cdiv(M, TM * 4)", "N / 16", "1"));
    CHECK(k && strings_are(get(get(k, "dispatch"), "local_size"), "WG", "1", "1"));
    json_object_put(root);
    for (int i = 0; i < 3; i++) {
        vkat_expr_destroy(space.groups[i]);
        vkat_expr_destroy(space.local_size[i]);
        space.groups[i] = space.local_size[i] = NULL;
    }
    vkat_symtab_destroy(syms);

    /* A second export into the same directory replaces the manifest (one kernel now) and the .spv. */
    vkat_spirv spv3 = {words2, 3};
    items[0].spirv = &spv3;
    CHECK(vkat_export_write(out, items, 1, &err) == VKAT_OK);
    root = json_object_from_file(path);
    CHECK(root && json_object_array_length(get(root, "kernels")) == 1);
    json_object_put(root);
    snprintf(path, sizeof path, "%s/%s", out, name1);
    CHECK(file_equals(path, words2, 3 * sizeof(uint32_t)));
    CHECK(count_entries(out, &temporaries) == 3 && temporaries == 0);
}

/* Refusals check everything before creating anything. */
static void test_refusals(void)
{
    vkat_space space;
    vkat_device_info dev;
    make_space(&space);
    make_device(&dev);
    uint32_t words[] = {0x07230203, 0};
    vkat_spirv spv = {words, 2};
    uint32_t choice[] = {0, 0};
    vkat_row row;
    make_row(&row, "M=256,N=256,K=256");
    uint64_t counts[3];
    vkat_launch l;
    make_launch(&l, counts, 256);
    vkat_export_item items[2] = {
        {&space, &dev, &row, &spv, choice, NULL, &l},
        {&space, &dev, &row, &spv, choice, NULL, &l},
    };
    char out[256];
    snprintf(out, sizeof out, "%s/refused", dir);
    vkat_error err = {0};
    struct stat sb;

    /* Same kernel, device and problem twice: one file name, two contents. */
    CHECK(vkat_export_write(out, items, 2, &err) == VKAT_ERR_USAGE);
    CHECK_CONTAINS(err.message, "gemm-llvmpipe-llvm-15-0-6-256-bits-m256-n256-k256.spv");
    CHECK(stat(out, &sb) != 0);

    row.status = VKAT_STATUS_WRONG;
    CHECK(vkat_export_write(out, items, 1, &err) == VKAT_ERR_INTERNAL);
    CHECK_CONTAINS(err.message, "wrong");
    CHECK(stat(out, &sb) != 0);
    row.status = VKAT_STATUS_OK;

    choice[1] = 3; /* beyond WG's three values */
    CHECK(vkat_export_write(out, items, 1, &err) == VKAT_ERR_INTERNAL);
    CHECK(stat(out, &sb) != 0);
    choice[1] = 0;

    /* A directory under a regular file cannot be created. */
    char file[256];
    snprintf(file, sizeof file, "%s/plain", dir);
    FILE *f = fopen(file, "w");
    CHECK(f != NULL);
    if (f)
        fclose(f);
    snprintf(out, sizeof out, "%s/plain/sub", dir);
    CHECK(vkat_export_write(out, items, 1, &err) == VKAT_ERR_IO);
    CHECK(err.message[0] != 0);

    /* No items: a valid manifest with an empty list (a runtime can tell "nothing tuned" from "no file"). */
    snprintf(out, sizeof out, "%s/empty", dir);
    CHECK(vkat_export_write(out, NULL, 0, &err) == VKAT_OK);
    char path[300];
    snprintf(path, sizeof path, "%s/manifest.json", out);
    json_object *root = json_object_from_file(path);
    CHECK(root && json_object_array_length(get(root, "kernels")) == 0);
    json_object_put(root);
}

int main(void)
{
    snprintf(dir, sizeof dir, "/tmp/vkat-test-export-XXXXXX");
    if (!mkdtemp(dir)) {
        fprintf(stderr, "mkdtemp failed\n");
        return 1;
    }
    test_export();
    test_refusals();
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (!test_failed && !getenv("VKAT_KEEP_TMP") && system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    TEST_END();
}
