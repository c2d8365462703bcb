/* test_peaks.c — device peaks: the arithmetic of fractions and transfer times (no device), the peaks table's
 * round trip through the store, and a real measurement on whatever device the loader offers (lavapipe here):
 * every figure finite and positive (fp16 NaN exactly when the device lacks shaderFloat16), and bounded by
 * what any device of its kind could do, so a unit slip (bits vs bytes, ms vs s) fails. */
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
    CHECK(vkat_store_put_peaks(st, p, &err) == VKAT_OK && p->created[0]);
    CHECK(vkat_store_get_peaks(st, &p->device, &got, &err) == 1);
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
        test_store(&p);
    }
    vkat_instance_destroy(inst);
    TEST_END();
}
