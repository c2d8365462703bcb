/* test_peaks.c — device peaks: the arithmetic of fractions and transfer times (no device), the peaks table's
 * round trip through the store, and a real measurement on whatever device the loader offers (lavapipe here):
 * every figure finite and positive (fp16 NaN exactly when the device lacks shaderFloat16), and bounded by
 * what any device of its kind could do, so a unit slip (bits vs bytes, ms vs s) fails. */
#include "compile.h"
#include "peaks.h"
#include "test.h"
#include "util.h"

#include <unistd.h>

static void test_math(void)
{
    vkat_peaks p = {0};
    p.mem_gbps = 100;
    p.fp32_tflops = 2;
    p.h2d_gbps = 10;
    p.d2h_gbps = 20;
    vkat_row r = {0};
    r.median_s = 1e-3;
    r.flops = 1e9;   /* 1e9 / 2e12 = 0.5 ms */
    r.bytes = 2e7;   /* 2e7 / 1e11 = 0.2 ms */
    CHECK(fabs(vkat_peaks_fraction(&p, &r) - 0.5) < 1e-12);
    r.flops = 0;     /* bandwidth-bound only */
    CHECK(fabs(vkat_peaks_fraction(&p, &r) - 0.2) < 1e-12);
    r.bytes = 0;
    CHECK(isnan(vkat_peaks_fraction(&p, &r)));
    CHECK(isnan(vkat_peaks_fraction(NULL, &r)));
    CHECK(fabs(vkat_peaks_transfer_s(&p, 1e9, 2e9) - 0.2) < 1e-12);
    CHECK(vkat_peaks_transfer_s(&p, 0, 0) == 0);
    p.d2h_gbps = NAN;
    CHECK(isnan(vkat_peaks_transfer_s(&p, 1e9, 1e9)));
    CHECK(fabs(vkat_peaks_transfer_s(&p, 1e9, 0) - 0.1) < 1e-12);
}

static vkat_coopmat_peak cm(uint32_t m, uint32_t n, uint32_t k, const char *ab, const char *c, double tflops)
{
    vkat_coopmat_peak p = {.m = m, .n = n, .k = k, .tflops = tflops, .accumulators = 4, .subgroups = 2};
    snprintf(p.a_type, sizeof p.a_type, "%s", ab);
    snprintf(p.b_type, sizeof p.b_type, "%s", ab);
    snprintf(p.c_type, sizeof p.c_type, "%s", c);
    snprintf(p.result_type, sizeof p.result_type, "%s", c);
    return p;
}

/* A cooperative-matrix row is bounded by the best shape of its types, never by the scalar fp32 rate. */
static void test_tensor_math(void)
{
    vkat_peaks p = {0};
    p.mem_gbps = 4000;
    p.fp32_tflops = 50;
    p.coopmat[p.coopmat_count++] = cm(16, 16, 16, "float16", "float32", 600);
    p.coopmat[p.coopmat_count++] = cm(16, 8, 16, "float16", "float32", 650);
    p.coopmat[p.coopmat_count++] = cm(16, 16, 16, "float16", "float16", 700);
    p.coopmat[p.coopmat_count++] = cm(16, 16, 32, "int8", "int32", 1300);
    p.coopmat[p.coopmat_count++] = cm(16, 16, 16, "bfloat16", "float32", NAN);
    CHECK(vkat_peaks_tensor_tflops(&p, "float16,float32") == 650);
    CHECK(vkat_peaks_tensor_tflops(&p, "float16,float16") == 700);
    CHECK(vkat_peaks_tensor_tflops(&p, "int8,int32") == 1300);
    CHECK(vkat_peaks_tensor_tflops(&p, "*") == 1300);
    CHECK(vkat_peaks_tensor_tflops(&p, "float16,*") == 700); /* any accumulator, never the int8 rate */
    CHECK(isnan(vkat_peaks_tensor_tflops(&p, "bfloat16,float32"))); /* listed, not measured */
    CHECK(isnan(vkat_peaks_tensor_tflops(&p, "float16")));          /* malformed */
    CHECK(isnan(vkat_peaks_tensor_tflops(&p, "")));
    CHECK(isnan(vkat_peaks_tensor_tflops(NULL, "*")));
    vkat_row r = {0};
    r.median_s = 2e-3;
    r.flops = 6.5e11; /* 1 ms at 650 TFLOP/s */
    r.bytes = 4e8;    /* 0.1 ms at 4000 GB/s */
    snprintf(r.tensor, sizeof r.tensor, "float16,float32");
    CHECK(fabs(vkat_peaks_fraction(&p, &r) - 0.5) < 1e-12);
    snprintf(r.tensor, sizeof r.tensor, "*");
    CHECK(fabs(vkat_peaks_fraction(&p, &r) - 0.25) < 1e-12);
    /* An unknown tensor peak gives no fraction, not the memory-only 0.05 that would hide the gap. */
    snprintf(r.tensor, sizeof r.tensor, "bfloat16,float32");
    CHECK(isnan(vkat_peaks_fraction(&p, &r)));
    /* The scalar rate stays the bound of a row without a tensor (6.5e11 / 5e13 = 13 ms: 6.5 x the median). */
    r.tensor[0] = 0;
    CHECK(fabs(vkat_peaks_fraction(&p, &r) - 6.5) < 1e-12);
}

/* The peak shader of each kind of shape the H200 lists compiles and validates, and a shape it cannot declare is
 * refused (no device needed). */
static void test_glsl(void)
{
    static const char *const types[][3] = {{"float16", "float32", "16x16x16"}, {"float16", "float16", "16x8x8"},
                                           {"bfloat16", "float32", "16x16x16"}, {"int8", "int32", "16x8x32"}};
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
        vkat_coopmat_shape s = {0};
        CHECK(sscanf(types[i][2], "%ux%ux%u", &s.m, &s.n, &s.k) == 3);
        s.a_name = s.b_name = types[i][0];
        s.c_name = s.result_name = types[i][1];
        s.scope = "subgroup";
        CHECK(vkat_coopmat_peak_supported(&s));
        char glsl[4096];
        vkat_error err = {0};
        vkat_spirv spv = {0};
        CHECK(vkat_coopmat_peak_glsl(&s, 4, 2, 32, glsl, sizeof glsl, &err) == VKAT_OK);
        vkat_result r = vkat_compile_glsl(glsl, "<peak>", VK_API_VERSION_1_3, &spv, &err);
        CHECK_MSG(r == VKAT_OK, "%s %s: %s", types[i][0], types[i][2], err.message);
        if (r == VKAT_OK)
            CHECK_MSG(vkat_validate_spirv(&spv, VK_API_VERSION_1_3, &err) == VKAT_OK, "%s", err.message);
        vkat_spirv_free(&spv);
        s.scope = "workgroup";
        CHECK(!vkat_coopmat_peak_supported(&s));
        CHECK(vkat_coopmat_peak_glsl(&s, 4, 2, 32, glsl, sizeof glsl, &err) == VKAT_ERR_UNSUPPORTED);
        s.scope = "subgroup";
        s.a_name = "float_e4m3";
        CHECK(!vkat_coopmat_peak_supported(&s));
    }
}

static void test_store(vkat_peaks *p)
{
    char dir[64] = "/tmp/vkat-test-peaks-XXXXXX", path[128];
    if (!mkdtemp(dir))
        return;
    snprintf(path, sizeof path, "%s/p.db", dir);
    vkat_store *st = NULL;
    vkat_error err = {0};
    CHECK(vkat_store_open(path, &st, &err) == VKAT_OK);
    if (!st)
        return;
    vkat_peaks got;
    CHECK(vkat_store_get_peaks(st, &p->device, &got, &err) == 0);
    p->created[0] = 0;
    /* Two tensor-core shapes ride along (lavapipe lists none); a second put replaces them, not adds. */
    vkat_peaks with = *p;
    with.coopmat[0] = cm(16, 8, 16, "float16", "float32", 649);
    with.coopmat[1] = cm(16, 16, 32, "int8", "int32", NAN);
    with.coopmat_count = 2;
    CHECK(vkat_store_put_peaks(st, &with, &err) == VKAT_OK);
    CHECK(vkat_store_get_peaks(st, &p->device, &got, &err) == 1);
    CHECK(got.coopmat_count == 2 && got.coopmat[0].tflops == 649 && got.coopmat[0].n == 8 &&
          !strcmp(got.coopmat[0].c_type, "float32") && got.coopmat[0].accumulators == 4 &&
          got.coopmat[0].subgroups == 2 && !strcmp(got.coopmat[1].a_type, "int8") && isnan(got.coopmat[1].tflops));
    with.coopmat_count = 1;
    with.coopmat[0].tflops = 650;
    CHECK(vkat_store_put_peaks(st, &with, &err) == VKAT_OK);
    CHECK(vkat_store_get_peaks(st, &p->device, &got, &err) == 1);
    CHECK(got.coopmat_count == 1 && got.coopmat[0].tflops == 650);
    CHECK(vkat_store_put_peaks(st, p, &err) == VKAT_OK && p->created[0]);
    CHECK(vkat_store_get_peaks(st, &p->device, &got, &err) == 1);
    CHECK(got.coopmat_count == p->coopmat_count);
    CHECK(got.mem_gbps == p->mem_gbps && got.fp32_tflops == p->fp32_tflops && got.h2d_gbps == p->h2d_gbps);
    CHECK(isnan(got.fp16_tflops) == isnan(p->fp16_tflops));
    CHECK(vkat_device_key_equal(&got.device, &p->device));
    /* Another driver version is another key. */
    vkat_device_key other = p->device;
    other.driver_version++;
    CHECK(vkat_store_get_peaks(st, &other, &got, &err) == 0);
    vkat_peaks *all = NULL;
    size_t n = 0;
    CHECK(vkat_store_list_peaks(st, &all, &n, &err) == VKAT_OK && n == 1);
    CHECK(n == 1 && all[0].coopmat_count == p->coopmat_count);
    free(all);
    vkat_store_close(st);
    unlink(path);
    char wal[160];
    snprintf(wal, sizeof wal, "%s-wal", path);
    unlink(wal);
    snprintf(wal, sizeof wal, "%s-shm", path);
    unlink(wal);
    rmdir(dir);
}

int main(void)
{
    test_math();
    test_tensor_math();
    test_glsl();
    vkat_instance *inst = NULL;
    vkat_error err = {0};
    if (vkat_instance_create(&inst, &err) != VKAT_OK) {
        TEST_SKIP("no Vulkan device here (%s); install mesa-vulkan-drivers for lavapipe", err.message);
    }
    const vkat_device_info *info = vkat_instance_device(inst, 0);
    vkat_peaks p;
    double t0 = vkat_now();
    vkat_result r = vkat_peaks_measure(inst, 0, &p, &err);
    CHECK_MSG(r == VKAT_OK, "%s", err.message);
    if (r == VKAT_OK) {
        printf("%s: memory %.4g GB/s, fp32 %.4g TFLOP/s, fp16 %.4g TFLOP/s, h2d %.4g GB/s, d2h %.4g GB/s (%.1f s)\n",
               info->name, p.mem_gbps, p.fp32_tflops, p.fp16_tflops, p.h2d_gbps, p.d2h_gbps, vkat_now() - t0);
        CHECK(p.mem_gbps > 0.05 && p.mem_gbps < 20000);
        CHECK(p.fp32_tflops > 1e-4 && p.fp32_tflops < 1000);
        CHECK(p.h2d_gbps > 0.05 && p.h2d_gbps < 5000);
        CHECK(p.d2h_gbps > 0.05 && p.d2h_gbps < 5000);
        if (info->feature[VKAT_FEATURE_SHADER_FLOAT16])
            CHECK(p.fp16_tflops > 1e-4 && p.fp16_tflops < 4000);
        else
            CHECK(isnan(p.fp16_tflops));
        CHECK_STR(p.device.name, info->name);
        /* A device that lists no cooperative-matrix shape has no tensor-core peak; one that does has each. */
        uint32_t listed = 0;
        for (uint32_t i = 0; i < info->coopmat_count; i++)
            listed += (uint32_t)vkat_coopmat_peak_supported(&info->coopmat[i]);
        CHECK(p.coopmat_count == (listed < VKAT_MAX_COOPMAT_PEAKS ? listed : VKAT_MAX_COOPMAT_PEAKS));
        for (uint32_t i = 0; i < p.coopmat_count; i++)
            CHECK_MSG(p.coopmat[i].tflops > 1e-4 && p.coopmat[i].tflops < 100000, "%g", p.coopmat[i].tflops);
        test_store(&p);
    }
    vkat_instance_destroy(inst);
    TEST_END();
}
