/* check_speed.c — seconds to check one variant's output against the reference, on the host (read the whole
 * output back, compare with check.c) and on the device (check_gpu.c: read back the canary and partial sums), for
 * float32, float16 and bfloat16 outputs of argv[2] elements (default 16M) on the default device. Prints the
 * figures and writes them to argv[1] (default records/check_speed.txt). */
#include "check_gpu.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define RUNS 5

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median(double *v)
{
    qsort(v, RUNS, sizeof *v, cmp_double);
    return v[RUNS / 2];
}

/* Median seconds of the host check and the device check of one output that matches its reference. */
static int time_type(vkat_gpu *gpu, vkat_elem_type t, uint64_t count, double *host_s, double *gpu_s)
{
    const vkat_buffer_spec specs[2] = {{"IN", t, count, VKAT_INIT_RANDOM, -1.0, 1.0, VKAT_DIR_IN},
                                       {"OUT", t, count, VKAT_INIT_ZERO, 0, 0, VKAT_DIR_OUT}};
    vkat_error err = {0};
    vkat_workspace *ws = NULL;
    vkat_gpu_check *gc = NULL;
    void *ref = NULL;
    int ok = 0, canary = 0;
    double hs[RUNS], gs[RUNS];
    if (vkat_workspace_create(gpu, specs, 2, 1, &ws, &err) != VKAT_OK)
        goto cleanup;
    /* The input's random data stands in for the reference, copied into the output as a correct variant's. */
    if (vkat_workspace_read(ws, 0, &ref, &canary, &err) != VKAT_OK)
        goto cleanup;
    uint64_t bytes = 0;
    VkBuffer out = vkat_workspace_buffer(ws, 1, &bytes, NULL);
    if (vkat_workspace_upload(ws, out, ref, bytes, &err) != VKAT_OK)
        goto cleanup;
    void *refs[2] = {NULL, ref};
    int use[2] = {0, 1};
    if (vkat_gpu_check_create(ws, specs, 2, refs, use, &gc, &err) != VKAT_OK || !vkat_gpu_check_covers(gc, 1))
        goto cleanup;
    vkat_check_opts o = {1e-5, INFINITY};
    unsigned char poison[4];
    vkat_poison_element(t, poison);
    for (int i = 0; i < RUNS; i++) {
        double t0 = vkat_now();
        void *got = NULL;
        vkat_check_report rep;
        if (vkat_workspace_read(ws, 1, &got, &canary, &err) != VKAT_OK)
            goto cleanup;
        vkat_check_compare(t, got, ref, count, poison, &o, &rep);
        free(got);
        double t1 = vkat_now();
        vkat_gpu_check_report g;
        if (vkat_workspace_read_canary(ws, 1, &canary, &err) != VKAT_OK ||
            vkat_gpu_check_compare(gc, 1, &o, &g, &err) != VKAT_OK)
            goto cleanup;
        gs[i] = vkat_now() - t1;
        hs[i] = t1 - t0;
        if (!rep.ok || !g.ok || !canary) {
            snprintf(err.message, sizeof err.message, "a correct output failed a check");
            goto cleanup;
        }
    }
    *host_s = median(hs);
    *gpu_s = median(gs);
    ok = 1;
cleanup:
    if (!ok)
        fprintf(stderr, "check_speed: %s\n", err.message);
    vkat_gpu_check_destroy(gc);
    vkat_workspace_destroy(ws);
    free(ref);
    return ok;
}

int main(int argc, char **argv)
{
    if (argc > 3 || (argc > 1 && argv[1][0] == '-')) {
        fprintf(stderr, "usage: check_speed [OUT.txt [ELEMENTS]]\n"
                        "Times the host and the device check of one output (default 16M elements) per float type.\n");
        return argc > 1 && (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) ? 0 : 2;
    }
    const char *out_path = argc > 1 ? argv[1] : VKAT_SOURCE_DIR "/records/check_speed.txt";
    uint64_t count = argc > 2 ? strtoull(argv[2], NULL, 10) : 16ull << 20;
    if (count == 0) {
        fprintf(stderr, "check_speed: ELEMENTS must be a positive number\n");
        return 2;
    }
    vkat_error err = {0};
    vkat_instance *inst = NULL;
    vkat_gpu *gpu = NULL;
    uint32_t dev, n;
    if (vkat_instance_create(&inst, &err) != VKAT_OK || vkat_select_devices(inst, NULL, &dev, 1, &n, &err) ||
        vkat_gpu_create(inst, dev, &gpu, &err)) {
        fprintf(stderr, "check_speed: %s\n", err.message);
        return 1;
    }
    if (!gpu->float64) {
        fprintf(stderr, "check_speed: %s has no shaderFloat64: no device check to time\n", gpu->info->name);
        return 1;
    }
    char text[1024];
    int used = snprintf(text, sizeof text, "check of one correct output of %llu elements on %s, median of %d:\n",
                        (unsigned long long)count, gpu->info->name, RUNS);
    static const vkat_elem_type types[3] = {VKAT_FLOAT32, VKAT_FLOAT16, VKAT_BFLOAT16};
    static const char *const names[3] = {"float32", "float16", "bfloat16"};
    int status = 0;
    for (int i = 0; i < 3 && used < (int)sizeof text; i++) {
        double host_s, gpu_s;
        if (!time_type(gpu, types[i], count, &host_s, &gpu_s)) {
            status = 1;
            continue;
        }
        used += snprintf(text + used, sizeof text - used, "  %-8s  host %.4f s  device %.4f s  (%.1fx)\n", names[i],
                         host_s, gpu_s, host_s / gpu_s);
    }
    fputs(text, stdout);
    FILE *f = fopen(out_path, "w");
    if (f) {
        fputs(text, f);
        fclose(f);
    }
    vkat_gpu_destroy(gpu);
    vkat_instance_destroy(inst);
    return status;
}
