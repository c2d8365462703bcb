/* workspace_time.c — seconds to create a tuning run's workspace (buffers, their initial data through staging, the
 * device-side pristine copies) and to reset it, for a 4096^2 GEMM's buffers in fp32 (as sgemm_wt's) and fp16 inputs
 * with an fp32 output (as cm2gemm_f16's), on the default device. The creation is on the critical path of a search's
 * start (issue #22, records/session11-issue-22-pipe.md). Prints the medians of 5 and writes them to argv[1]
 * (default workspace_time.txt); argv[2] overrides the element count per buffer (default 4096 * 4096). */
#include "bench.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>

#define RUNS 5

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Median create and reset seconds of the workspace with inputs of type `in`; 0 when one failed (said). */
static int time_one(vkat_gpu *gpu, vkat_elem_type in, uint64_t count, double *create_s, double *reset_s)
{
    const vkat_buffer_spec specs[3] = {{"A", in, count, VKAT_INIT_RANDOM, -1.0, 1.0, VKAT_DIR_IN},
                                       {"B", in, count, VKAT_INIT_RANDOM, -1.0, 1.0, VKAT_DIR_IN},
                                       {"C", VKAT_FLOAT32, count, VKAT_INIT_ZERO, 0, 0, VKAT_DIR_OUT}};
    double c[RUNS], r[RUNS];
    for (int k = 0; k < RUNS; k++) {
        vkat_error err = {0};
        vkat_workspace *ws = NULL;
        double t0 = vkat_now();
        if (vkat_workspace_create(gpu, specs, 3, 1, &ws, &err) != VKAT_OK) {
            fprintf(stderr, "workspace_time: %s\n", err.message);
            return 0;
        }
        double t1 = vkat_now();
        vkat_result res = vkat_workspace_reset(ws, &err);
        r[k] = vkat_now() - t1;
        c[k] = t1 - t0;
        vkat_workspace_destroy(ws);
        if (res != VKAT_OK) {
            fprintf(stderr, "workspace_time: %s\n", err.message);
            return 0;
        }
    }
    qsort(c, RUNS, sizeof *c, cmp_double);
    qsort(r, RUNS, sizeof *r, cmp_double);
    *create_s = c[RUNS / 2];
    *reset_s = r[RUNS / 2];
    return 1;
}

int main(int argc, char **argv)
{
    const char *out_path = argc > 1 ? argv[1] : "workspace_time.txt";
    uint64_t count = argc > 2 ? strtoull(argv[2], NULL, 10) : 4096ull * 4096ull;
    vkat_error err = {0};
    vkat_instance *inst = NULL;
    vkat_gpu *gpu = NULL;
    uint32_t dev = 0, n = 0;
    if (vkat_instance_create(&inst, &err) != VKAT_OK || vkat_select_devices(inst, NULL, &dev, 1, &n, &err) != VKAT_OK ||
        vkat_gpu_create(inst, dev, &gpu, &err) != VKAT_OK) {
        fprintf(stderr, "workspace_time: %s\n", err.message);
        vkat_instance_destroy(inst);
        return 1;
    }
    FILE *out = fopen(out_path, "w");
    int ok = 1;
    const vkat_elem_type types[2] = {VKAT_FLOAT32, VKAT_FLOAT16};
    const char *names[2] = {"fp32 A, B", "fp16 A, B"};
    for (int t = 0; t < 2; t++) {
        double c = 0, r = 0;
        if (!time_one(gpu, types[t], count, &c, &r)) {
            ok = 0;
            continue;
        }
        char line[400];
        snprintf(line, sizeof line, "%s: %s, %llu elements each, C fp32: create %.3f s, reset %.3f s (median of %d)\n",
                 vkat_instance_device(inst, dev)->name, names[t], (unsigned long long)count, c, r, RUNS);
        fputs(line, stdout);
        if (out)
            fputs(line, out);
    }
    if (out)
        fclose(out);
    vkat_gpu_destroy(gpu);
    vkat_instance_destroy(inst);
    return ok ? 0 : 1;
}
