/* test_bench.c — workspaces, kernels and timing on the machine's Vulkan device (lavapipe here): seeded data,
 * poison and canaries, push and specialization constants, unwritten outputs, the timeout path and recovery,
 * measurement, and limit checks that must fire before anything is allocated. Problems are small: lavapipe runs on
 * two CPU cores. */
#include "bench.h"
#include "check.h"
#include "test.h"
#include "util.h"

#define N 1000u /* not a multiple of the workgroup size: the guards matter */

/* What a warm-up trace saw: how many batches, and whether they came in order (a warm-up taken again, when the
 * samples beat the first one's end, starts again from batch 0). */
typedef struct trace_log {
    uint32_t count, next;
    int ordered;
    double last_at;
} trace_log;

static void record_batch(void *user, const vkat_warmup_batch *b)
{
    trace_log *tl = user;
    int in_order = b->index == tl->next ? b->at_s >= tl->last_at : b->index == 0 && tl->count > 0;
    tl->ordered = (tl->count == 0 || tl->ordered) && in_order && b->dispatches >= 1 && b->per_dispatch_s > 0 &&
                  b->idle_s >= 0;
    tl->last_at = b->at_s;
    tl->next = b->index + 1;
    tl->count++;
}

static const char *vadd_src = "#version 450\n"
                              "layout(local_size_x = 64) in;\n"
                              "layout(push_constant) uniform P { uint n; };\n"
                              "layout(std430, binding = 0) readonly buffer A { float a[]; };\n"
                              "layout(std430, binding = 1) readonly buffer B { float b[]; };\n"
                              "layout(std430, binding = 2) writeonly buffer C { float c[]; };\n"
                              "void main() { uint i = gl_GlobalInvocationID.x;\n"
                              "  if (i < n) c[i] = a[i] + b[i]; }\n";

/* Scale and workgroup size from specialization constants. */
static const char *scale_src = "#version 450\n"
                               "layout(local_size_x_id = 1) in;\n"
                               "layout(constant_id = 0) const float SCALE = 1.0;\n"
                               "layout(push_constant) uniform P { uint n; };\n"
                               "layout(std430, binding = 0) readonly buffer A { float a[]; };\n"
                               "layout(std430, binding = 2) writeonly buffer C { float c[]; };\n"
                               "void main() { uint i = gl_GlobalInvocationID.x;\n"
                               "  if (i < n) c[i] = a[i] * SCALE; }\n";

/* Writes c[n] too: one element past the end, into the canary. The index comes from a push constant so the
 * compiler cannot see the overrun. */
static const char *overrun_src = "#version 450\n"
                                 "layout(local_size_x = 64) in;\n"
                                 "layout(push_constant) uniform P { uint n; };\n"
                                 "layout(std430, binding = 2) writeonly buffer C { float c[]; };\n"
                                 "void main() { uint i = gl_GlobalInvocationID.x;\n"
                                 "  if (i <= n) c[i] = 1.0; }\n";

/* Leaves every odd element unwritten. */
static const char *gaps_src = "#version 450\n"
                              "layout(local_size_x = 64) in;\n"
                              "layout(push_constant) uniform P { uint n; };\n"
                              "layout(std430, binding = 0) readonly buffer A { float a[]; };\n"
                              "layout(std430, binding = 1) readonly buffer B { float b[]; };\n"
                              "layout(std430, binding = 2) writeonly buffer C { float c[]; };\n"
                              "void main() { uint i = gl_GlobalInvocationID.x;\n"
                              "  if (i < n && i % 2 == 0) c[i] = a[i] + b[i]; }\n";

/* A long but finite loop: each invocation iterates a chain the compiler cannot fold `n` times. lavapipe ends
 * any loop after 65535 iterations (gallivm's loop limiter), so the length comes from the number of workgroups,
 * calibrated at run time. */
static const char *slow_src = "#version 450\n"
                              "layout(local_size_x = 64) in;\n"
                              "layout(push_constant) uniform P { uint n; };\n"
                              "layout(std430, binding = 2) buffer C { uint c[]; };\n"
                              "void main() { uint x = gl_GlobalInvocationID.x;\n"
                              "  for (uint i = 0; i < n; i++) x = x * 1664525u + (x >> 7) + 1013904223u;\n"
                              "  if (gl_GlobalInvocationID.x == 0) c[0] = x; else if (x == 0) c[1] = 1u; }\n";

/* Shared memory sized by a specialization constant. */
static const char *shared_src = "#version 450\n"
                                "layout(local_size_x = 64) in;\n"
                                "layout(constant_id = 0) const uint WORDS = 16;\n"
                                "shared float tile[WORDS];\n"
                                "layout(std430, binding = 2) writeonly buffer C { float c[]; };\n"
                                "void main() { tile[gl_LocalInvocationIndex % WORDS] = 1.0; barrier();\n"
                                "  c[gl_GlobalInvocationID.x] = tile[0]; }\n";

static vkat_spirv compile(const char *src, const char *name)
{
    vkat_spirv m = {0};
    vkat_error err = {0};
    vkat_result r = vkat_compile_glsl(src, name, VK_API_VERSION_1_3, &m, &err);
    CHECK_MSG(r == VKAT_OK, "%s: %s", name, err.message);
    return m;
}

static const vkat_buffer_spec specs[3] = {
    {"A", VKAT_FLOAT32, N, VKAT_INIT_RANDOM, -1.0, 1.0, VKAT_DIR_IN},
    {"B", VKAT_FLOAT32, N, VKAT_INIT_IOTA, 0.5, 0.25, VKAT_DIR_IN},
    {"C", VKAT_FLOAT32, N, VKAT_INIT_ZERO, 0, 0, VKAT_DIR_OUT},
};

static float *read_floats(vkat_workspace *ws, size_t index, int *canary_ok)
{
    void *data = NULL;
    vkat_error err = {0};
    vkat_result r = vkat_workspace_read(ws, index, &data, canary_ok, &err);
    CHECK_MSG(r == VKAT_OK, "read %zu: %s", index, err.message);
    return data;
}

static void test_data(vkat_gpu *gpu)
{
    vkat_error err = {0};
    vkat_workspace *w1 = NULL, *w2 = NULL, *w3 = NULL;
    CHECK(vkat_workspace_create(gpu, specs, 3, 42, &w1, &err) == VKAT_OK);
    CHECK(vkat_workspace_create(gpu, specs, 3, 42, &w2, &err) == VKAT_OK);
    CHECK(vkat_workspace_create(gpu, specs, 3, 43, &w3, &err) == VKAT_OK);
    if (!w1 || !w2 || !w3)
        goto done;
    int c1, c2, c3;
    float *a1 = read_floats(w1, 0, &c1), *a2 = read_floats(w2, 0, &c2), *a3 = read_floats(w3, 0, &c3);
    CHECK(c1 && c2 && c3);
    CHECK(memcmp(a1, a2, N * sizeof(float)) == 0);
    CHECK(memcmp(a1, a3, N * sizeof(float)) != 0);
    double mean = 0;
    int in_range = 1, distinct = 0;
    for (uint32_t i = 0; i < N; i++) {
        in_range &= a1[i] >= -1.0f && a1[i] < 1.0f;
        distinct += i > 0 && a1[i] != a1[i - 1];
        mean += a1[i] / N;
    }
    CHECK(in_range);
    CHECK(distinct > (int)N - 10);
    CHECK_MSG(fabs(mean) < 0.1, "random(-1, 1) mean %f", mean);
    float *b = read_floats(w1, 1, &c1);
    CHECK(b[0] == 0.5f && b[1] == 0.75f && b[999] == 0.5f + 0.25f * 999);
    /* An out buffer starts as poison everywhere. */
    float *c = read_floats(w1, 2, &c1);
    float poison;
    vkat_poison_element(VKAT_FLOAT32, &poison);
    CHECK(isnan(poison));
    CHECK(c1 && memcmp(&c[0], &poison, 4) == 0 && memcmp(&c[N - 1], &poison, 4) == 0);
    free(a1);
    free(a2);
    free(a3);
    free(b);
    free(c);

    /* Other element types: conversions and truncation, a buffer whose byte size is not a multiple of 4. */
    vkat_workspace *wt = NULL;
    const vkat_buffer_spec typed[4] = {
        {"h", VKAT_FLOAT16, 7, VKAT_INIT_IOTA, 1.0, 0.5, VKAT_DIR_IN},
        {"u8", VKAT_UINT8, 13, VKAT_INIT_RANDOM, 0, 256, VKAT_DIR_INOUT},
        {"i", VKAT_INT32, 5, VKAT_INIT_CONST, -7.9, 0, VKAT_DIR_IN},
        {"bf", VKAT_BFLOAT16, 3, VKAT_INIT_ZERO, 0, 0, VKAT_DIR_OUT},
    };
    CHECK_MSG(vkat_workspace_create(gpu, typed, 4, 1, &wt, &err) == VKAT_OK, "%s", err.message);
    if (wt) {
        void *d;
        int ok;
        CHECK(vkat_workspace_read(wt, 0, &d, &ok, &err) == VKAT_OK);
        uint16_t *h = d;
        CHECK(vkat_half_to_float(h[0]) == 1.0f && vkat_half_to_float(h[6]) == 4.0f);
        free(d);
        CHECK(vkat_workspace_read(wt, 1, &d, &ok, &err) == VKAT_OK && ok);
        int differ = 0;
        for (int i = 1; i < 13; i++)
            differ |= ((uint8_t *)d)[i] != ((uint8_t *)d)[0];
        CHECK(differ);
        free(d);
        CHECK(vkat_workspace_read(wt, 2, &d, &ok, &err) == VKAT_OK);
        CHECK(((int32_t *)d)[4] == -7); /* truncation toward zero */
        free(d);
        CHECK(vkat_workspace_read(wt, 3, &d, &ok, &err) == VKAT_OK && ok);
        CHECK(((uint16_t *)d)[2] == 0x7FC1);
        free(d);
        CHECK(vkat_workspace_read(wt, 4, &d, &ok, &err) == VKAT_ERR_INTERNAL && d == NULL);
    }
    vkat_workspace_destroy(wt);
done:
    vkat_workspace_destroy(w1);
    vkat_workspace_destroy(w2);
    vkat_workspace_destroy(w3);
}

static void test_limits(vkat_gpu *gpu)
{
    vkat_error err = {0};
    vkat_workspace *ws = NULL;
    /* Beyond maxStorageBufferRange: rejected before allocating (allocating 16 TiB would fail differently). */
    vkat_buffer_spec huge[2] = {specs[0], {"Huge", VKAT_FLOAT32, 1ull << 42, VKAT_INIT_ZERO, 0, 0, VKAT_DIR_OUT}};
    CHECK(vkat_workspace_create(gpu, huge, 2, 1, &ws, &err) == VKAT_ERR_LIMITS && ws == NULL);
    CHECK_CONTAINS(err.message, "'Huge'");
    CHECK_CONTAINS(err.message, "maxStorageBufferRange");
    CHECK_CONTAINS(err.message, "17592186044672 bytes (256 of them canary)");
    /* Each buffer within the range, together beyond the heap. */
    uint64_t heap = 0;
    for (uint32_t i = 0; i < gpu->memory.memoryHeapCount; i++)
        if (gpu->memory.memoryHeaps[i].size > heap)
            heap = gpu->memory.memoryHeaps[i].size;
    uint64_t each = gpu->info->max_storage_buffer_range / 4;
    size_t many = (size_t)(heap / ((uint64_t)each * 4) + 2);
    if (many <= 4096) {
        vkat_buffer_spec *lots = calloc(many, sizeof *lots);
        for (size_t i = 0; i < many; i++)
            lots[i] = (vkat_buffer_spec){"Big", VKAT_FLOAT32, each, VKAT_INIT_ZERO, 0, 0, VKAT_DIR_IN};
        CHECK(vkat_workspace_create(gpu, lots, many, 1, &ws, &err) == VKAT_ERR_LIMITS && ws == NULL);
        CHECK_CONTAINS(err.message, "device-local heap");
        free(lots);
    }
    vkat_buffer_spec empty = {"E", VKAT_FLOAT32, 0, VKAT_INIT_ZERO, 0, 0, VKAT_DIR_IN};
    CHECK(vkat_workspace_create(gpu, &empty, 1, 1, &ws, &err) == VKAT_ERR_LIMITS);
    CHECK_CONTAINS(err.message, "'E'");

    /* Shared memory beyond the limit is caught at kernel creation, before a pipeline exists. */
    CHECK(vkat_workspace_create(gpu, specs, 3, 1, &ws, &err) == VKAT_OK);
    vkat_spirv m = compile(shared_src, "shared.comp");
    vkat_kernel *k = NULL;
    vkat_spec_value ok_words = {0, 64};
    CHECK_MSG(vkat_kernel_create(ws, &m, "main", &ok_words, 1, 0, &k, &err) == VKAT_OK, "%s", err.message);
    vkat_kernel_destroy(k);
    vkat_spec_value too_many = {0, gpu->info->max_shared_memory / 4 + 1};
    k = NULL;
    CHECK(vkat_kernel_create(ws, &m, "main", &too_many, 1, 0, &k, &err) == VKAT_ERR_LIMITS && k == NULL);
    CHECK_CONTAINS(err.message, "maxComputeSharedMemorySize");
    CHECK(vkat_kernel_create(ws, &m, "main", NULL, 0, 6, &k, &err) == VKAT_ERR_LIMITS);
    vkat_spirv_free(&m);
    /* Group counts are checked too. */
    m = compile(vadd_src, "vadd.comp");
    CHECK(vkat_kernel_create(ws, &m, NULL, NULL, 0, 4, &k, &err) == VKAT_OK);
    uint32_t n = N, zero[3] = {0, 1, 1};
    CHECK(vkat_kernel_run(k, zero, &n, 1000000000ull, &err) == VKAT_ERR_LIMITS);
    vkat_kernel_destroy(k);
    vkat_spirv_free(&m);
    vkat_workspace_destroy(ws);
}

static void test_runs(vkat_gpu *gpu)
{
    vkat_error err = {0};
    vkat_workspace *ws = NULL;
    CHECK(vkat_workspace_create(gpu, specs, 3, 7, &ws, &err) == VKAT_OK);
    if (!ws)
        return;
    int ok;
    float *a = read_floats(ws, 0, &ok), *b = read_floats(ws, 1, &ok);
    float ref[N], poison;
    for (uint32_t i = 0; i < N; i++)
        ref[i] = a[i] + b[i];
    vkat_poison_element(VKAT_FLOAT32, &poison);
    uint32_t n = N, groups[3] = {(N + 63) / 64, 1, 1};
    vkat_check_opts tol = {1e-6, INFINITY};
    vkat_check_report rep;

    /* Vector add with a push constant. */
    vkat_spirv m = compile(vadd_src, "vadd.comp");
    vkat_kernel *k = NULL;
    CHECK_MSG(vkat_kernel_create(ws, &m, "main", NULL, 0, 4, &k, &err) == VKAT_OK, "%s", err.message);
    vkat_spirv_free(&m);
    if (k) {
        CHECK_MSG(vkat_kernel_run(k, groups, &n, 10000000000ull, &err) == VKAT_OK, "%s", err.message);
        float *c = read_floats(ws, 2, &ok);
        CHECK(ok);
        vkat_check_compare(VKAT_FLOAT32, c, ref, N, &poison, &tol, &rep);
        CHECK_MSG(rep.ok && rep.max_abs == 0, "%s", rep.reason);
        free(c);

        /* Measurement: GPU timestamps, then the host clock. */
        vkat_timing_opts topts = {0.05, 1e-3, 5, 2.0, 10000000000ull, 0};
        vkat_timing t;
        CHECK_MSG(vkat_kernel_measure(k, groups, &n, &topts, &t, &err) == VKAT_OK, "%s", err.message);
        CHECK(t.samples >= 1 && t.samples <= 5 && t.batch >= 1 && !t.host_timed);
        CHECK(t.min_s > 0 && t.min_s <= t.median_s && t.median_s <= t.max_s && t.max_s < 1.0);
        CHECK(t.mean_s >= t.min_s && t.mean_s <= t.max_s && t.mad_s >= 0 && t.mad_s <= t.max_s - t.min_s);
        /* One sample spans about min_sample_s; dispatches are batched only when one alone is shorter (under a
         * sanitizer one vadd can already last longer, and then a batch of 1 is right). */
        CHECK_MSG(t.median_s * t.batch >= 0.25e-3, "sample %g s (batch %u) far shorter than min_sample_s",
                  t.median_s * t.batch, t.batch);
        CHECK_MSG(t.batch > 1 || t.median_s >= 0.5 * topts.min_sample_s,
                  "a %g s dispatch, far shorter than min_sample_s, was not batched", t.median_s);
        CHECK(t.warmup_s >= 0.02 && t.warmup_s < 5 && t.warmup_batches >= 1);
        CHECK(t.warmup_first_s > 0 && t.warmup_last_s > 0);
        /* A fixed warm-up (minimum = maximum) never stops early; an adaptive one stops once the times settle,
         * after its minimum, and shows each batch to the trace in order. */
        topts.min_warmup_s = 0.05;
        CHECK_MSG(vkat_kernel_measure(k, groups, &n, &topts, &t, &err) == VKAT_OK, "%s", err.message);
        CHECK(t.warmup_s >= 0.05 && !t.warmup_settled);
        trace_log tl = {0};
        topts.warmup_s = 5;
        topts.min_warmup_s = 0.01;
        topts.warmup_trace = record_batch;
        topts.warmup_trace_user = &tl;
        CHECK_MSG(vkat_kernel_measure(k, groups, &n, &topts, &t, &err) == VKAT_OK, "%s", err.message);
        CHECK_MSG(t.warmup_s >= 0.01 && t.warmup_batches >= 2, "warm-up %g s, %u batches", t.warmup_s,
                  t.warmup_batches);
        CHECK(tl.count == t.warmup_batches && tl.ordered && tl.last_at <= t.warmup_s);
        CHECK(t.warmup_settled || t.warmup_s >= 5);
        topts.warmup_trace = NULL;
        topts.warmup_s = 0.05;
        topts.min_warmup_s = 0;
        topts.host_timing = 1;
        CHECK_MSG(vkat_kernel_measure(k, groups, &n, &topts, &t, &err) == VKAT_OK, "%s", err.message);
        CHECK(t.samples >= 1 && t.host_timed && t.min_s > 0 && t.median_s < 1.0);
        CHECK(vkat_kernel_measure(k, groups, &n, NULL, &t, &err) == VKAT_OK && t.samples == 10);

        /* After a reset the output is poison again. */
        CHECK(vkat_workspace_reset(ws, &err) == VKAT_OK);
        c = read_floats(ws, 2, &ok);
        vkat_check_compare(VKAT_FLOAT32, c, ref, N, &poison, &tol, &rep);
        CHECK(!rep.ok && rep.unwritten == N);
        free(c);
    }

    /* Specialization constants: SCALE = 3 (the float constant gets the integer as a float: spec_encode.h), local
     * size 32. */
    m = compile(scale_src, "scale.comp");
    vkat_spec_value sv[2] = {{0, 3}, {1, 32}};
    vkat_kernel *ks = NULL;
    CHECK_MSG(vkat_kernel_create(ws, &m, "main", sv, 2, 4, &ks, &err) == VKAT_OK, "%s", err.message);
    vkat_spirv_free(&m);
    if (ks) {
        uint32_t g32[3] = {(N + 31) / 32, 1, 1};
        CHECK(vkat_kernel_run(ks, g32, &n, 10000000000ull, &err) == VKAT_OK);
        float *c = read_floats(ws, 2, &ok);
        float sref[N];
        for (uint32_t i = 0; i < N; i++)
            sref[i] = a[i] * 3.0f;
        vkat_check_compare(VKAT_FLOAT32, c, sref, N, &poison, &tol, &rep);
        CHECK_MSG(rep.ok, "%s", rep.reason);
        free(c);
        vkat_kernel_destroy(ks);
    }

    /* Gaps: half the outputs never written. */
    CHECK(vkat_workspace_reset(ws, &err) == VKAT_OK);
    m = compile(gaps_src, "gaps.comp");
    vkat_kernel *kg = NULL;
    CHECK(vkat_kernel_create(ws, &m, "main", NULL, 0, 4, &kg, &err) == VKAT_OK);
    vkat_spirv_free(&m);
    if (kg) {
        CHECK(vkat_kernel_run(kg, groups, &n, 10000000000ull, &err) == VKAT_OK);
        float *c = read_floats(ws, 2, &ok);
        CHECK(ok);
        vkat_check_compare(VKAT_FLOAT32, c, ref, N, &poison, &tol, &rep);
        CHECK(!rep.ok && rep.unwritten == N / 2 && rep.first_bad == 1 && rep.nonfinite == 0);
        CHECK_CONTAINS(rep.reason, "500 unwritten elements (first at 1)");
        free(c);
        vkat_kernel_destroy(kg);
    }

    /* One element past the end lands in the canary. */
    CHECK(vkat_workspace_reset(ws, &err) == VKAT_OK);
    m = compile(overrun_src, "overrun.comp");
    vkat_kernel *ko = NULL;
    CHECK(vkat_kernel_create(ws, &m, "main", NULL, 0, 4, &ko, &err) == VKAT_OK);
    vkat_spirv_free(&m);
    if (ko) {
        CHECK(vkat_kernel_run(ko, groups, &n, 10000000000ull, &err) == VKAT_OK);
        float *c = read_floats(ws, 2, &ok);
        CHECK_MSG(!ok, "the canary after C survived a write one element past the end");
        free(c);
        /* Reset rewrites the canary. */
        CHECK(vkat_workspace_reset(ws, &err) == VKAT_OK);
        c = read_floats(ws, 2, &ok);
        CHECK(ok);
        free(c);
        vkat_kernel_destroy(ko);
    }
    free(a);
    free(b);
    vkat_kernel_destroy(k);
    vkat_workspace_destroy(ws);
}

/* Buffers larger than the 64 MiB staging chunk: data and canary cross chunk boundaries. */
static void test_chunks(vkat_gpu *gpu)
{
    /* after the 64 KiB front guard, the data ends 100 bytes before the first chunk's end: the back guard straddles it */
    const uint64_t big = ((64ull << 20) - (64ull << 10) - 100) / 4;
    if (big * 4 + 256 > gpu->info->max_storage_buffer_range) {
        printf("note: maxStorageBufferRange too small for the chunking test\n");
        return;
    }
    vkat_error err = {0};
    vkat_workspace *ws = NULL, *small = NULL;
    const vkat_buffer_spec chunked[2] = {
        {"R", VKAT_FLOAT32, big, VKAT_INIT_RANDOM, -2.0, 2.0, VKAT_DIR_IN},
        {"I", VKAT_FLOAT32, big, VKAT_INIT_IOTA, 0.0, 1.0, VKAT_DIR_INOUT},
    };
    const vkat_buffer_spec few[1] = {{"R", VKAT_FLOAT32, 1000, VKAT_INIT_RANDOM, -2.0, 2.0, VKAT_DIR_IN}};
    CHECK_MSG(vkat_workspace_create(gpu, chunked, 2, 5, &ws, &err) == VKAT_OK, "%s", err.message);
    CHECK(vkat_workspace_create(gpu, few, 1, 5, &small, &err) == VKAT_OK);
    if (ws && small) {
        int ok1, ok2;
        float *r = read_floats(ws, 0, &ok1), *r_small = read_floats(small, 0, &ok2);
        /* The same element of the same stream, whatever the buffer's size or chunking. */
        CHECK(r && r_small && memcmp(r, r_small, 1000 * sizeof(float)) == 0);
        free(r);
        free(r_small);
        float *v = read_floats(ws, 1, &ok1);
        int exact = 1;
        for (uint64_t i = 0; i < big && v; i++)
            exact &= v[i] == (float)i; /* below 2^24: exact */
        CHECK(exact && ok1);
        free(v);

        /* An overrun into the part of the canary that lies in the second chunk. */
        vkat_kernel *k = NULL;
        static const char *overrun1_src = "#version 450\n"
                                          "layout(local_size_x = 1) in;\n"
                                          "layout(push_constant) uniform P { uint n; };\n"
                                          "layout(std430, binding = 1) buffer I { float v[]; };\n"
                                          "void main() { v[n + 40u] = 1.0; }\n";
        vkat_spirv m = compile(overrun1_src, "overrun1.comp");
        CHECK(vkat_kernel_create(ws, &m, "main", NULL, 0, 4, &k, &err) == VKAT_OK);
        vkat_spirv_free(&m);
        if (k) {
            uint32_t n = (uint32_t)big, one[3] = {1, 1, 1};
            CHECK(vkat_kernel_run(k, one, &n, 10000000000ull, &err) == VKAT_OK);
            v = read_floats(ws, 1, &ok1); /* element n + 40: byte 64 MiB + 60 */
            CHECK(!ok1);
            free(v);
            vkat_kernel_destroy(k);
        }
    }
    vkat_workspace_destroy(small);
    vkat_workspace_destroy(ws);
}

static void test_timeout(vkat_gpu *gpu)
{
    const char *preload = getenv("LD_PRELOAD");
    int valgrind = preload && strstr(preload, "vgpreload") != NULL;
    vkat_error err = {0};
    vkat_workspace *ws = NULL;
    CHECK(vkat_workspace_create(gpu, specs, 3, 7, &ws, &err) == VKAT_OK);
    if (!ws)
        return;
    vkat_spirv slow = compile(slow_src, "slow.comp"), fast = compile(vadd_src, "vadd.comp");
    vkat_kernel *ks = NULL, *kf = NULL;
    CHECK(vkat_kernel_create(ws, &slow, "main", NULL, 0, 4, &ks, &err) == VKAT_OK);
    CHECK(vkat_kernel_create(ws, &fast, "main", NULL, 0, 4, &kf, &err) == VKAT_OK);
    vkat_spirv_free(&slow);
    vkat_spirv_free(&fast);
    if (ks && kf) {
        /* Grow the dispatch until it runs for at least 0.1 s (at most 4096 workgroups: a few seconds). */
        uint32_t iterations = 60000, slow_groups[3] = {16, 1, 1};
        double took = 0;
        for (; slow_groups[0] <= 4096; slow_groups[0] *= 2) {
            double start = vkat_now();
            CHECK(vkat_kernel_run(ks, slow_groups, &iterations, 60000000000ull, &err) == VKAT_OK);
            took = vkat_now() - start;
            if (took >= 0.1)
                break;
        }
        CHECK_MSG(took >= 0.1, "the slow kernel took only %.3f s", took);
        double t0 = vkat_now();
        vkat_result r = vkat_kernel_run(ks, slow_groups, &iterations, 1000000ull, &err);
        if (r == VKAT_OK && valgrind) {
            printf("note: under valgrind, which runs one thread at a time, the kernel finished before the 1 ms "
                   "wait; the timeout assertions are skipped\n");
        } else {
            CHECK_MSG(r == VKAT_ERR_TIMEOUT, "got %s after %.3f s", vkat_result_string(r), vkat_now() - t0);
            CHECK(vkat_now() - t0 < took);
            CHECK_CONTAINS(err.message, "did not finish within 0.001 s");
        }
        /* The workspace recovers: the next run waits for the slow one, then works. */
        uint32_t n = N, groups[3] = {(N + 63) / 64, 1, 1};
        r = vkat_kernel_run(kf, groups, &n, 30000000000ull, &err);
        CHECK_MSG(r == VKAT_OK, "%s", err.message);
        int ok;
        float *a = read_floats(ws, 0, &ok), *b = read_floats(ws, 1, &ok), *c = read_floats(ws, 2, &ok);
        int right = 1;
        for (uint32_t i = 0; i < N && a && b && c; i++)
            right &= c[i] == a[i] + b[i];
        CHECK(right && ok);
        free(a);
        free(b);
        free(c);
        /* A timeout again, then destroy straight away: destroy must wait for it, not free busy objects. */
        t0 = vkat_now();
        r = vkat_kernel_run(ks, slow_groups, &iterations, 1000000ull, &err);
        CHECK_MSG(r == VKAT_ERR_TIMEOUT || (r == VKAT_OK && valgrind), "got %s after %.3f s", vkat_result_string(r),
                  vkat_now() - t0);
    }
    vkat_kernel_destroy(ks);
    vkat_kernel_destroy(kf);
    vkat_workspace_destroy(ws);
}

static int warnings;
static void count_warnings(void *user, vkat_log_level level, const char *message)
{
    (void)user;
    (void)message;
    warnings += level >= VKAT_LOG_WARN;
}

int main(void)
{
    vkat_instance *inst;
    vkat_error err = {0};
    vkat_result r = vkat_instance_create(&inst, &err);
    if (r != VKAT_OK)
        TEST_SKIP("no Vulkan device here (%s); install mesa-vulkan-drivers for lavapipe", err.message);
    vkat_set_log(count_warnings, NULL);
    uint32_t idx = 0, count = 0;
    /* Prefer lavapipe where present, so the timeout figures below hold; any device works otherwise. */
    if (vkat_select_devices(inst, "llvmpipe", &idx, 1, &count, &err) != VKAT_OK)
        idx = 0;
    vkat_gpu *gpu = NULL;
    r = vkat_gpu_create(inst, idx, &gpu, &err);
    CHECK_MSG(r == VKAT_OK, "%s", err.message);
    if (gpu) {
        test_data(gpu);
        test_limits(gpu);
        test_runs(gpu);
        test_chunks(gpu);
        test_timeout(gpu);
        CHECK_MSG(warnings == 0, "%d warnings logged", warnings);
    }
    vkat_gpu_destroy(gpu);
    vkat_instance_destroy(inst);
    TEST_END();
}
