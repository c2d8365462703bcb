/* test_check_gpu.c — the device-side output check against the host's (check.c) on the machine's Vulkan device
 * (lavapipe here). Floats (float32, float16, bfloat16): the output buffer is filled from the host with chosen bits
 * (exact, slightly off, far off, poison, NaN/Inf, subnormals, an odd count so the last 16-bit word is half used),
 * then both checks look at it. The device must pass exactly what the host passes (away from a tolerance's edge),
 * with the same max abs and the rel L2 within rounding, and count unwritten and non-finite elements as the host
 * does. Integers (int32, uint32, int8, uint8), compared exactly with no float64 needed: bit flips in every lane of a
 * packed word and in the half-used last word, unwritten elements, a reference that holds the poison. */
#include "check_gpu.h"
#include "test.h"
#include "util.h"

#define N 9001u /* three workgroups of the check; odd, so a 16-bit output ends in half a word */

static vkat_gpu *gpu;

static double load(vkat_elem_type t, const unsigned char *p)
{
    if (t == VKAT_FLOAT32) {
        float f;
        memcpy(&f, p, 4);
        return f;
    }
    uint16_t h;
    memcpy(&h, p, 2);
    return t == VKAT_FLOAT16 ? vkat_half_to_float(h) : vkat_bf16_to_float(h);
}

static void store(vkat_elem_type t, double v, unsigned char *p)
{
    if (t == VKAT_FLOAT32) {
        float f = (float)v;
        memcpy(p, &f, 4);
        return;
    }
    uint16_t h = t == VKAT_FLOAT16 ? vkat_float_to_half((float)v) : vkat_float_to_bf16((float)v);
    memcpy(p, &h, 2);
}

/* An element's raw bits, for planting NaN, Inf and subnormal patterns. */
static void store_bits(vkat_elem_type t, uint32_t bits, unsigned char *p)
{
    if (t == VKAT_FLOAT32)
        memcpy(p, &bits, 4);
    else {
        uint16_t h = (uint16_t)bits;
        memcpy(p, &h, 2);
    }
}

typedef struct patterns {
    uint32_t qnan, inf, subnormal; /* a computed NaN, +Inf, a small subnormal */
} patterns;

static patterns patterns_of(vkat_elem_type t)
{
    switch (t) {
    case VKAT_FLOAT32: return (patterns){0x7FC00000u, 0x7F800000u, 0x00000123u};
    case VKAT_FLOAT16: return (patterns){0x7E00u, 0x7C00u, 0x0023u};
    default: return (patterns){0x7FC0u, 0x7F80u, 0x0023u};
    }
}

/* One case: upload `got` into the output, compare on the device and on the host, and check they agree. */
static void compare_both(vkat_workspace *ws, vkat_gpu_check *gc, vkat_elem_type t, const unsigned char *got,
                         const unsigned char *ref, const vkat_check_opts *o, int want_ok, const char *what)
{
    size_t size = vkat_elem_type_size(t);
    vkat_error err = {0};
    CHECK_MSG(vkat_workspace_upload_data(ws, 1, got, &err) == VKAT_OK, "%s", err.message);
    vkat_gpu_check_report g;
    vkat_result r = vkat_gpu_check_compare(gc, 1, o, &g, &err);
    CHECK_MSG(r == VKAT_OK, "%s: %s", what, err.message);

    void *back = NULL;
    int canary_ok = 0;
    CHECK(vkat_workspace_read(ws, 1, &back, &canary_ok, &err) == VKAT_OK && canary_ok);
    if (!back)
        return;
    CHECK_MSG(memcmp(back, got, (size_t)N * size) == 0, "%s: the upload did not land", what);
    unsigned char poison[4];
    vkat_poison_element(t, poison);
    vkat_check_report h;
    vkat_check_compare(t, back, ref, N, poison, o, &h);
    free(back);

    const char *tn = t == VKAT_FLOAT32 ? "float32" : t == VKAT_FLOAT16 ? "float16" : "bfloat16";
    CHECK_MSG(g.ok == want_ok && h.ok == want_ok, "%s %s: device ok %d, host ok %d (%s), want %d", tn, what, g.ok,
              h.ok, h.reason, want_ok);
    CHECK_MSG(g.unwritten == h.unwritten && g.nonfinite == h.nonfinite, "%s %s: unwritten %llu/%llu non-finite %llu/%llu",
              tn, what, (unsigned long long)g.unwritten, (unsigned long long)h.unwritten,
              (unsigned long long)g.nonfinite, (unsigned long long)h.nonfinite);
    if (!g.unwritten && !g.nonfinite && !g.ref_mismatch) {
        /* Same elements summed in another order: equal within rounding; the largest difference exactly. */
        CHECK_MSG(fabs(g.rel_l2 - h.rel_l2) <= 1e-12 * fmax(h.rel_l2, 1e-300), "%s %s: rel L2 %.17g vs host %.17g", tn,
                  what, g.rel_l2, h.rel_l2);
        CHECK_MSG(g.max_abs == h.max_abs, "%s %s: max abs %.17g vs host %.17g", tn, what, g.max_abs, h.max_abs);
    }
}

static void test_type(vkat_elem_type t)
{
    const vkat_buffer_spec specs[2] = {{"IN", t, N, VKAT_INIT_RANDOM, -1.0, 1.0, VKAT_DIR_IN},
                                       {"OUT", t, N, VKAT_INIT_ZERO, 0, 0, VKAT_DIR_OUT}};
    size_t size = vkat_elem_type_size(t);
    vkat_error err = {0};
    vkat_workspace *ws = NULL;
    vkat_gpu_check *gc = NULL;
    unsigned char *ref = calloc(N, size), *got = calloc(N, size);
    CHECK(vkat_workspace_create(gpu, specs, 2, 7, &ws, &err) == VKAT_OK);
    if (!ws || !ref || !got)
        goto cleanup;
    /* Values of mixed magnitude and sign, a few of them subnormal. */
    patterns pt = patterns_of(t);
    for (uint32_t i = 0; i < N; i++)
        store(t, ((i * 7919u) % 2001u - 1000.0) / 250.0 * (i % 3 ? 1.0 : 1e-3), ref + i * size);
    for (uint32_t i = 5; i < N; i += 997)
        store_bits(t, pt.subnormal + i % 7, ref + i * size);

    void *refs[2] = {NULL, ref};
    int use[2] = {0, 1};
    vkat_result r = vkat_gpu_check_create(ws, specs, 2, refs, use, &gc, &err);
    CHECK_MSG(r == VKAT_OK, "%s", err.message);
    CHECK(vkat_gpu_check_covers(gc, 1) && !vkat_gpu_check_covers(gc, 0));
    if (!gc)
        goto cleanup;

    vkat_check_opts strict = {1e-5, INFINITY}, loose = {5e-2, INFINITY}, abs_only = {1.0, 1e-3};
    memcpy(got, ref, (size_t)N * size);
    compare_both(ws, gc, t, got, ref, &strict, 1, "exact copy");

    /* A relative error of about 1e-3 everywhere (several ULPs even in bfloat16), a subnormal nudged too: fails
     * 1e-5, passes 5e-2. */
    for (uint32_t i = 0; i < N; i++)
        store(t, load(t, ref + i * size) * (1.0 + (i % 2 ? 4e-3 : -4e-3)), got + i * size);
    store_bits(t, pt.subnormal + 9, got + 5 * size);
    compare_both(ws, gc, t, got, ref, &strict, 0, "slightly off, strict");
    compare_both(ws, gc, t, got, ref, &loose, 1, "slightly off, loose");
    compare_both(ws, gc, t, got, ref, &abs_only, 0, "slightly off, max abs 1e-3");

    /* The last element (half a word for 16-bit types) far off. */
    memcpy(got, ref, (size_t)N * size);
    store(t, load(t, ref + (N - 1) * size) + 100.0, got + (N - 1) * size);
    compare_both(ws, gc, t, got, ref, &loose, 0, "last element off");

    /* Unwritten elements (still poison) in each workgroup's range, and a computed NaN and an Inf. */
    memcpy(got, ref, (size_t)N * size);
    unsigned char poison[4];
    vkat_poison_element(t, poison);
    for (uint32_t i = 40; i < N; i += 1500)
        memcpy(got + i * size, poison, size);
    compare_both(ws, gc, t, got, ref, &loose, 0, "unwritten");
    store_bits(t, pt.qnan, got + 41 * size);
    store_bits(t, pt.inf, got + (N - 2) * size);
    compare_both(ws, gc, t, got, ref, &loose, 0, "unwritten and NaN/Inf");

    /* A reference with NaN and Inf: matched passes, missed does not. */
    vkat_gpu_check_destroy(gc);
    gc = NULL;
    store_bits(t, pt.qnan, ref + 3 * size);
    store_bits(t, pt.inf, ref + 4 * size);
    CHECK(vkat_gpu_check_create(ws, specs, 2, refs, use, &gc, &err) == VKAT_OK);
    if (!gc)
        goto cleanup;
    memcpy(got, ref, (size_t)N * size);
    compare_both(ws, gc, t, got, ref, &strict, 1, "reference NaN/Inf matched");
    store(t, 1.0, got + 3 * size);
    vkat_gpu_check_report g;
    compare_both(ws, gc, t, got, ref, &strict, 0, "reference NaN missed");
    CHECK(vkat_gpu_check_compare(gc, 1, &strict, &g, &err) == VKAT_OK && g.ref_mismatch == 1 && !g.ok);

cleanup:
    vkat_gpu_check_destroy(gc);
    vkat_workspace_destroy(ws);
    free(ref);
    free(got);
}

/* ---- Integer outputs: compared exactly, on any device ---------------------------------------------------------- */

/* Upload `got`, compare on the device and on the host: same verdict, unwritten count, and the device's wrong count is
 * the elements that differ and are not unwritten, as the host's compare_ints counts them. */
static void compare_exact(vkat_workspace *ws, vkat_gpu_check *gc, vkat_elem_type t, const unsigned char *got,
                          const unsigned char *ref, uint64_t want_wrong, uint64_t want_unwritten, const char *what)
{
    vkat_error err = {0};
    CHECK_MSG(vkat_workspace_upload_data(ws, 1, got, &err) == VKAT_OK, "%s", err.message);
    vkat_gpu_check_report g;
    /* Tolerances do not apply to integers: a loose one must not pass a wrong element. */
    vkat_check_opts loose = {1.0, INFINITY};
    CHECK_MSG(vkat_gpu_check_compare(gc, 1, &loose, &g, &err) == VKAT_OK, "%s: %s", what, err.message);
    void *back = NULL;
    int canary_ok = 0;
    CHECK(vkat_workspace_read(ws, 1, &back, &canary_ok, &err) == VKAT_OK && canary_ok);
    if (!back)
        return;
    unsigned char poison[4];
    vkat_poison_element(t, poison);
    vkat_check_report h;
    vkat_check_compare(t, back, ref, N, poison, &loose, &h);
    free(back);
    int want_ok = want_wrong == 0 && want_unwritten == 0;
    CHECK_MSG(g.ok == want_ok && h.ok == want_ok, "%s %s: device ok %d, host ok %d (%s), want %d",
              vkat_elem_type_name(t), what, g.ok, h.ok, h.reason, want_ok);
    CHECK_MSG(g.wrong == want_wrong && g.unwritten == want_unwritten && h.unwritten == want_unwritten,
              "%s %s: device wrong %llu unwritten %llu, host unwritten %llu; want %llu and %llu",
              vkat_elem_type_name(t), what, (unsigned long long)g.wrong, (unsigned long long)g.unwritten,
              (unsigned long long)h.unwritten, (unsigned long long)want_wrong, (unsigned long long)want_unwritten);
    CHECK(g.rel_l2 == 0 && g.max_abs == 0 && !g.nonfinite && !g.ref_mismatch);
}

static void test_exact_type(vkat_elem_type t)
{
    const vkat_buffer_spec specs[2] = {{"IN", t, N, VKAT_INIT_RANDOM, -100.0, 100.0, VKAT_DIR_IN},
                                       {"OUT", t, N, VKAT_INIT_ZERO, 0, 0, VKAT_DIR_OUT}};
    size_t size = vkat_elem_type_size(t);
    vkat_error err = {0};
    vkat_workspace *ws = NULL;
    vkat_gpu_check *gc = NULL;
    unsigned char *ref = calloc(N, size), *got = calloc(N, size), poison[4];
    vkat_poison_element(t, poison);
    CHECK(vkat_workspace_create(gpu, specs, 2, 7, &ws, &err) == VKAT_OK);
    if (!ws || !ref || !got)
        goto cleanup;
    /* Every byte value in every lane, so that a shift or mask error in unpacking narrow elements shows. */
    for (uint32_t i = 0; i < N * size; i++)
        ref[i] = (unsigned char)(i * 131u + (i >> 8));
    /* A reference element that holds the poison: a variant writing it there is right, not unwritten. */
    memcpy(ref + 17 * size, poison, size);
    void *refs[2] = {NULL, ref};
    int use[2] = {0, 1};
    CHECK_MSG(vkat_gpu_check_create(ws, specs, 2, refs, use, &gc, &err) == VKAT_OK, "%s", err.message);
    CHECK_MSG(vkat_gpu_check_covers(gc, 1), "%s output not covered by the device check", vkat_elem_type_name(t));
    if (!vkat_gpu_check_covers(gc, 1))
        goto cleanup;

    memcpy(got, ref, (size_t)N * size);
    compare_exact(ws, gc, t, got, ref, 0, 0, "exact copy");
    /* Off by one in the lowest bit, in the first, a middle and the last element (the last word's used lane). */
    got[0] ^= 1;
    got[(N / 2) * size] ^= 1;
    got[(N - 1) * size] ^= 1;
    compare_exact(ws, gc, t, got, ref, 3, 0, "three elements off by one bit");
    /* Only the top bit of an element (the sign of a signed type). */
    memcpy(got, ref, (size_t)N * size);
    got[(N / 3) * size + size - 1] ^= 0x80;
    compare_exact(ws, gc, t, got, ref, 1, 0, "top bit flipped");
    /* Unwritten elements, one per workgroup's range, next to a wrong one. */
    memcpy(got, ref, (size_t)N * size);
    uint64_t unwritten = 0;
    for (uint32_t i = 40; i < N; i += 1500, unwritten++)
        memcpy(got + i * size, poison, size);
    got[41 * size] ^= 4;
    compare_exact(ws, gc, t, got, ref, 1, unwritten, "unwritten and one wrong");

cleanup:
    vkat_gpu_check_destroy(gc);
    vkat_workspace_destroy(ws);
    free(ref);
    free(got);
}

/* A buffer overrun is the workspace's to see, with the canary alone read back. */
static void test_canary(void)
{
    const vkat_buffer_spec specs[1] = {{"OUT", VKAT_FLOAT32, N, VKAT_INIT_ZERO, 0, 0, VKAT_DIR_OUT}};
    vkat_error err = {0};
    vkat_workspace *ws = NULL;
    CHECK(vkat_workspace_create(gpu, specs, 1, 7, &ws, &err) == VKAT_OK);
    if (!ws)
        return;
    int ok = 0;
    CHECK(vkat_workspace_read_canary(ws, 0, &ok, &err) == VKAT_OK && ok);
    uint64_t bytes = 0;
    VkBuffer out = vkat_workspace_buffer(ws, 0, &bytes, NULL);
    float one_past[N + 1];
    for (uint32_t i = 0; i <= N; i++)
        one_past[i] = 1.0f;
    uint64_t data_at = vkat_workspace_data_offset(ws, 0);
    CHECK(vkat_workspace_upload_at(ws, out, data_at, one_past, bytes + 4, &err) == VKAT_OK);
    CHECK(vkat_workspace_read_canary(ws, 0, &ok, &err) == VKAT_OK && !ok);
    char where[200];
    CHECK_CONTAINS(vkat_workspace_guard_hit(ws, 0, where, sizeof where),
                   "past the end of buffer 'OUT' (from the first byte after it)");
    CHECK(vkat_workspace_reset(ws, &err) == VKAT_OK);
    CHECK(vkat_workspace_read_canary(ws, 0, &ok, &err) == VKAT_OK && ok);
    /* The far end of the back guard (64 KiB past), and the element just before the data, in the front guard. */
    uint64_t range = 0;
    vkat_workspace_buffer(ws, 0, NULL, &range);
    CHECK(range - bytes >= 4096);
    CHECK(vkat_workspace_upload_at(ws, out, data_at + range - 4, one_past, 4, &err) == VKAT_OK);
    CHECK(vkat_workspace_read_canary(ws, 0, &ok, &err) == VKAT_OK && !ok);
    CHECK(vkat_workspace_reset(ws, &err) == VKAT_OK);
    if (data_at >= 4) {
        CHECK(vkat_workspace_upload_at(ws, out, data_at - 4, one_past, 4, &err) == VKAT_OK);
        CHECK(vkat_workspace_read_canary(ws, 0, &ok, &err) == VKAT_OK && !ok);
        CHECK_CONTAINS(vkat_workspace_guard_hit(ws, 0, where, sizeof where), "before the start of buffer 'OUT' (4");
        void *back = NULL; /* the whole read-back sees it too */
        CHECK(vkat_workspace_read(ws, 0, &back, &ok, &err) == VKAT_OK && !ok);
        free(back);
    } else {
        CHECK_MSG(0, "no front guard on this device");
    }
    vkat_workspace_destroy(ws);
}

int main(void)
{
    vkat_error err = {0};
    vkat_instance *inst;
    if (vkat_instance_create(&inst, &err) != VKAT_OK)
        TEST_SKIP("no Vulkan device (%s); install mesa-vulkan-drivers for lavapipe", err.message);
    uint32_t dev, n;
    CHECK(vkat_select_devices(inst, NULL, &dev, 1, &n, &err) == VKAT_OK);
    CHECK(vkat_gpu_create(inst, dev, &gpu, &err) == VKAT_OK);
    if (!gpu)
        TEST_END();
    /* Integers need no float64: compared exactly on every device. */
    CHECK(vkat_gpu_check_supported(gpu, VKAT_INT32) && vkat_gpu_check_supported(gpu, VKAT_UINT32) &&
          vkat_gpu_check_supported(gpu, VKAT_INT8) && vkat_gpu_check_supported(gpu, VKAT_UINT8));
    test_exact_type(VKAT_INT32);
    test_exact_type(VKAT_UINT32);
    test_exact_type(VKAT_INT8);
    test_exact_type(VKAT_UINT8);
    if (!gpu->float64)
        TEST_SKIP("%s has no shaderFloat64: the device check of float outputs is off there", gpu->info->name);
    CHECK(vkat_gpu_check_supported(gpu, VKAT_FLOAT32) && vkat_gpu_check_supported(gpu, VKAT_BFLOAT16));
    test_type(VKAT_FLOAT32);
    test_type(VKAT_FLOAT16);
    test_type(VKAT_BFLOAT16);
    test_canary();
    vkat_gpu_destroy(gpu);
    vkat_instance_destroy(inst);
    TEST_END();
}
