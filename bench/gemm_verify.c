/* gemm_verify.c — the GEMM benchmark's second look at a winner (issue #5): runs one exported GEMM variant from an
 * export directory exactly as its manifest entry says (kernel_runner.c; a sequence such as split K and its reduce
 * pass runs whole, each pass as exported), checks sampled elements of C against an fp64 dot product of the same
 * rounded inputs (gemm_check.c), and measures it again with timestamp queries (per run of the whole sequence).
 *
 *   gemm_verify DIR KERNEL [--device INDEX] [--problem K=V,...] [--samples S] [--tolerance T] [--warmup SECONDS]
 *               [--repetitions N] [--batch N] [--seed N] [--json FILE]
 *
 * The entry is, among those of KERNEL (with the --problem sizes), the one measured on this device (same vendor, device and driver; else same vendor and
 * device; else same name), or the first. Its problem names M, N, K and optionally BT (1: B stored N x K); the
 * bindings named A, B, C (else the first two `in` and the first `out` bindings) are the GEMM's operands (the others,
 * such as a split K's partial sums, are zeroed before the first run): float32,
 * float16 or bfloat16, or int8/uint8 A and B with an int32/uint32 C, which is compared exactly.
 * Exit: 0 ok, 1 wrong result, 2 usage / bad manifest / no such kernel / not a GEMM, 3 skipped (the device lacks what
 * the entry requires), 4 Vulkan error. A benchmark program: it prints figures, it asserts no speed. */
#include "gemm_check.h"
#include "kernel_runner.h"
#include "device.h"

#include <json-c/json.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { EXIT_WRONG = 1, EXIT_USAGE = 2, EXIT_SKIPPED = 3, EXIT_VULKAN = 4 };

typedef struct options {
    const char *dir, *kernel, *json;
    const char *problem; /* "M=256,BT=1": only entries with these problem sizes */
    int device; /* -1: the library's default device */
    uint64_t samples, seed;
    double tolerance; /* < 0: gemm_default_tolerance */
    double warmup_s;
    unsigned repetitions, batch;
} options;

static void usage(FILE *f)
{
    fprintf(f, "usage: gemm_verify DIR KERNEL [options]\n\n"
               "Runs KERNEL from the export directory DIR (manifest.json) as its manifest says, checks sampled\n"
               "elements of C against an fp64 GEMM of the same inputs, and times it with timestamp queries.\n\n"
               "  --device INDEX     Vulkan device index (default: the tuner's default device)\n"
               "  --problem K=V,...  only entries tuned for these problem sizes (default: any)\n"
               "  --samples S        elements of C to check besides the four corners (4096)\n"
               "  --tolerance T      max |got - ref| / sum_k |a b| (1e-5 for fp32 inputs, 1e-3 for 16-bit\n"
               "                     inputs; plus 2^-11 / 2^-8 for an fp16 / bf16 C; integer GEMMs are\n"
               "                     compared exactly unless T is given)\n"
               "  --warmup SECONDS   dispatch this long before timing: clocks ramp (0.3)\n"
               "  --repetitions N    timed samples; 0 checks only (51)\n"
               "  --batch N          dispatches per timed sample (1)\n"
               "  --seed N           seed of the inputs and the sampled positions (1)\n"
               "  --json FILE        append one JSON line with the figures to FILE\n\n"
               "exit: 0 ok, 1 wrong result, 2 usage or bad manifest, 3 skipped (device lacks a requirement),\n"
               "4 Vulkan error\n");
}

static int parse_args(int argc, char **argv, options *o)
{
    *o = (options){.device = -1, .samples = 4096, .seed = 1, .tolerance = -1, .warmup_s = 0.3,
                   .repetitions = 51, .batch = 1};
    int positional = 0;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        char *end = NULL;
        if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
            usage(stdout);
            exit(0);
        } else if (a[0] == '-' && a[1] == '-' && !v) {
            fprintf(stderr, "gemm_verify: %s needs a value\n", a);
            return -1;
        } else if (!strcmp(a, "--device")) {
            o->device = (int)strtol(v, &end, 10);
        } else if (!strcmp(a, "--samples")) {
            o->samples = strtoull(v, &end, 10);
        } else if (!strcmp(a, "--tolerance")) {
            o->tolerance = strtod(v, &end);
        } else if (!strcmp(a, "--warmup")) {
            o->warmup_s = strtod(v, &end);
        } else if (!strcmp(a, "--repetitions")) {
            o->repetitions = (unsigned)strtoul(v, &end, 10);
        } else if (!strcmp(a, "--batch")) {
            o->batch = (unsigned)strtoul(v, &end, 10);
        } else if (!strcmp(a, "--seed")) {
            o->seed = strtoull(v, &end, 10);
        } else if (!strcmp(a, "--json")) {
            o->json = v;
            end = "";
        } else if (!strcmp(a, "--problem")) {
            o->problem = v;
            end = "";
        } else if (a[0] == '-') {
            fprintf(stderr, "gemm_verify: unknown option %s\n", a);
            return -1;
        } else {
            if (positional == 0)
                o->dir = a;
            else if (positional == 1)
                o->kernel = a;
            else {
                fprintf(stderr, "gemm_verify: unexpected argument %s\n", a);
                return -1;
            }
            positional++;
            continue;
        }
        if (!end || *end || o->device < -1 || o->tolerance == 0 || o->warmup_s < 0 || o->batch < 1 ||
            o->repetitions > 100000) {
            fprintf(stderr, "gemm_verify: bad value '%s' for %s\n", v, a);
            return -1;
        }
        i++;
    }
    if (positional != 2) {
        usage(stderr);
        return -1;
    }
    return 0;
}

/* ---- Which entry, which buffers -------------------------------------------------------------------------- */

static const char *match_names[] = {"exact (vendor, device, driver)", "same GPU, other driver", "same device name",
                                    "none: the first entry"};

/* The entry measured on `d`, best match first; *how indexes match_names. */
static const manifest_entry *pick_entry(const manifest_entry *e, size_t n, const vkat_device_info *d, int *how)
{
    char uuid[40];
    const uint8_t *u = d->driver_uuid;
    snprintf(uuid, sizeof uuid, "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", u[0], u[1],
             u[2], u[3], u[4], u[5], u[6], u[7], u[8], u[9], u[10], u[11], u[12], u[13], u[14], u[15]);
    for (*how = 0; *how < 3; (*how)++)
        for (size_t i = 0; i < n; i++) {
            int same_gpu = e[i].vendor_id == d->vendor_id && e[i].device_id == d->device_id;
            if ((*how == 0 && same_gpu && !strcmp(e[i].driver_uuid, uuid)) || (*how == 1 && same_gpu) ||
                (*how == 2 && !strcmp(e[i].device_name, d->name)))
                return &e[i];
        }
    return &e[0];
}

/* Keeps the entries whose problem has every K=V of `spec`; returns how many are left, -1 for a malformed spec. */
static long filter_problem(manifest_entry *e, size_t n, const char *spec)
{
    size_t kept = 0;
    for (size_t i = 0; i < n; i++) {
        int match = 1;
        for (const char *p = spec; *p && match;) {
            char name[32];
            long long value;
            int used = 0;
            if (sscanf(p, "%31[^=,]=%lld%n", name, &value, &used) != 2)
                return -1;
            match = manifest_problem(&e[i], name, value + 1) == value;
            p += used;
            if (*p == ',')
                p++;
            else if (*p)
                return -1;
        }
        if (match)
            memmove(&e[kept++], &e[i], sizeof *e);
    }
    return (long)kept;
}

/* The binding named `name`, else the `nth` (0-based) one whose direction starts with `dir`; -1 if none. */
static int find_binding(const manifest_entry *e, const char *name, const char *dir, int nth)
{
    for (size_t i = 0; i < e->binding_count; i++)
        if (!strcmp(e->bindings[i].name, name))
            return (int)i;
    for (size_t i = 0; i < e->binding_count; i++)
        if (!strncmp(e->bindings[i].direction, dir, strlen(dir)) && nth-- == 0)
            return (int)i;
    return -1;
}

/* Reads the GEMM out of the entry: shape, and which bindings are A, B and C. */
static int gemm_of(const manifest_entry *e, gemm_shape *s, int op[3])
{
    int64_t m = manifest_problem(e, "M", -1), n = manifest_problem(e, "N", -1), k = manifest_problem(e, "K", -1);
    int64_t bt = manifest_problem(e, "BT", 0);
    if (m < 1 || n < 1 || k < 1 || (bt != 0 && bt != 1)) {
        fprintf(stderr, "gemm_verify: %s's problem needs positive M, N, K (and BT 0 or 1) to be a GEMM\n",
                e->kernel);
        return -1;
    }
    op[0] = find_binding(e, "A", "in", 0);
    op[1] = find_binding(e, "B", "in", 1);
    op[2] = find_binding(e, "C", "out", 0);
    const char *names[3] = {"A", "B", "C"};
    uint64_t need[3] = {(uint64_t)m * (uint64_t)k, (uint64_t)k * (uint64_t)n, (uint64_t)m * (uint64_t)n};
    for (int i = 0; i < 3; i++) {
        if (op[i] < 0 || (i < 2 && op[i] == op[2]) || (i == 1 && op[1] == op[0])) {
            fprintf(stderr, "gemm_verify: %s has no binding for %s\n", e->kernel, names[i]);
            return -1;
        }
        const manifest_binding *b = &e->bindings[op[i]];
        if (!gemm_type_supported(b->type) || b->elements < need[i]) {
            fprintf(stderr, "gemm_verify: binding '%s' (%s, %llu elements) cannot hold %s of this problem (%llu "
                            "float32/float16/bfloat16 or int8/uint8/int32/uint32 elements)\n", b->name,
                    vkat_elem_type_name(b->type),
                    (unsigned long long)b->elements, names[i], (unsigned long long)need[i]);
            return -1;
        }
    }
    *s = (gemm_shape){(uint64_t)m, (uint64_t)n, (uint64_t)k, (int)bt, e->bindings[op[0]].type,
                      e->bindings[op[1]].type, e->bindings[op[2]].type};
    const char *why = gemm_shape_problem(s);
    if (why) {
        fprintf(stderr, "gemm_verify: %s: A %s, B %s, C %s: %s\n", e->kernel, vkat_elem_type_name(s->a_type),
                vkat_elem_type_name(s->b_type), vkat_elem_type_name(s->c_type), why);
        return -1;
    }
    return 0;
}

/* ---- Output ------------------------------------------------------------------------------------------------ */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static json_object *number_or_null(double v)
{
    return isfinite(v) ? json_object_new_double(v) : NULL;
}

static int write_json(const char *path, const manifest_entry *e, const vkat_device_info *d, const gemm_check_result *c,
                      double tolerance, int ok, double median, double min, double tflops, unsigned samples)
{
    json_object *o = json_object_new_object(), *problem = json_object_new_object();
    for (size_t i = 0; i < e->problem_count; i++)
        json_object_object_add(problem, e->problem[i].name, json_object_new_int64(e->problem[i].value));
    json_object_object_add(o, "kernel", json_object_new_string(e->kernel));
    json_object_object_add(o, "device", json_object_new_string(d->name));
    json_object_object_add(o, "problem", problem);
    json_object_object_add(o, "config", json_object_new_string(e->config));
    json_object_object_add(o, "median_ms", number_or_null(median));
    json_object_object_add(o, "min_ms", number_or_null(min));
    json_object_object_add(o, "tflops", number_or_null(tflops));
    json_object_object_add(o, "samples", json_object_new_int64(samples));
    json_object_object_add(o, "checked", json_object_new_int64((int64_t)c->checked));
    json_object_object_add(o, "max_rel_err", number_or_null(c->max_rel_err));
    json_object_object_add(o, "tolerance", json_object_new_double(tolerance));
    json_object_object_add(o, "tuner_median_ms", number_or_null(e->measured_median_ms));
    json_object_object_add(o, "ok", json_object_new_boolean(ok));
    FILE *f = fopen(path, "a");
    int rc = f && fprintf(f, "%s\n", json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN)) > 0 ? 0 : -1;
    if (f && fclose(f))
        rc = -1;
    json_object_put(o);
    if (rc)
        fprintf(stderr, "gemm_verify: cannot write %s\n", path);
    return rc;
}

/* ---- Main -------------------------------------------------------------------------------------------------- */

/* One element of the poison C starts as, so that an element the kernel never writes fails the check (as an
 * int32 it is 2143289344, beyond any 8-bit GEMM's |C| below K = 131,000). */
static void poison(void *c, vkat_elem_type t, uint64_t count)
{
    for (uint64_t i = 0; i < count; i++)
        if (vkat_elem_type_size(t) == 4)
            ((uint32_t *)c)[i] = 0x7fc00000u;
        else
            ((uint16_t *)c)[i] = t == VKAT_FLOAT16 ? 0x7e00u : 0x7fc0u;
}

static int runner_exit(runner_status st, const char *msg)
{
    if (st == RUNNER_UNSUPPORTED) {
        printf("skipped: %s\n", msg);
        return EXIT_SKIPPED;
    }
    fprintf(stderr, "gemm_verify: %s\n", msg);
    return st == RUNNER_BAD_ENTRY ? EXIT_USAGE : EXIT_VULKAN;
}

int main(int argc, char **argv)
{
    options o;
    if (parse_args(argc, argv, &o))
        return EXIT_USAGE;
    char err[2048];
    manifest_entry *entries = NULL;
    size_t count = 0;
    if (manifest_read_kernel(o.dir, o.kernel, &entries, &count, err, sizeof err)) {
        fprintf(stderr, "gemm_verify: %s\n", err);
        return EXIT_USAGE;
    }

    if (o.problem) {
        long kept = filter_problem(entries, count, o.problem);
        if (kept <= 0) {
            fprintf(stderr, "gemm_verify: %s\n", kept < 0 ? "--problem expects NAME=INTEGER,..."
                                                          : "no entry of this kernel has the --problem sizes");
            free(entries);
            return EXIT_USAGE;
        }
        count = (size_t)kept;
    }

    int rc = EXIT_VULKAN;
    vkat_instance *inst = NULL;
    kernel_runner *runner = NULL;
    void *host[3] = {NULL, NULL, NULL};
    double *times = NULL;
    vkat_error verr;
    uint32_t index;
    if (vkat_instance_create(&inst, &verr)) {
        fprintf(stderr, "gemm_verify: %s\n", verr.message);
        goto done;
    }
    if (o.device >= 0) {
        index = (uint32_t)o.device;
        if (index >= vkat_instance_device_count(inst)) {
            fprintf(stderr, "gemm_verify: --device %d: only %u device(s)\n", o.device, vkat_instance_device_count(inst));
            rc = EXIT_USAGE;
            goto done;
        }
    } else {
        uint32_t n = 0;
        if (vkat_select_devices(inst, NULL, &index, 1, &n, &verr) || n == 0) {
            fprintf(stderr, "gemm_verify: %s\n", verr.message);
            goto done;
        }
    }
    const vkat_device_info *dev = vkat_instance_device(inst, index);
    int how;
    const manifest_entry *e = pick_entry(entries, count, dev, &how);
    gemm_shape s;
    int op[3];
    if (gemm_of(e, &s, op)) {
        rc = EXIT_USAGE;
        goto done;
    }
    double tolerance = o.tolerance > 0 ? o.tolerance : gemm_default_tolerance(&s);
    printf("kernel: %s %s (tuned on %s; match: %s)\n", e->kernel, e->config, e->device_name, match_names[how]);
    printf("device: %s\n", dev->name);
    printf("problem: M=%llu,N=%llu,K=%llu BT=%d; A %s, B %s, C %s; groups", (unsigned long long)s.m,
           (unsigned long long)s.n, (unsigned long long)s.k, s.bt, vkat_elem_type_name(s.a_type),
           vkat_elem_type_name(s.b_type), vkat_elem_type_name(s.c_type));
    for (size_t p = 0; p < e->pass_count; p++) {
        const manifest_pass *pass = &e->passes[p];
        printf("%s %u x %u x %u", p ? "," : "", pass->workgroup_count[0], pass->workgroup_count[1],
               pass->workgroup_count[2]);
        if (e->pass_count > 1)
            printf(" (%s)", pass->name);
    }
    printf("\n");
    fflush(stdout);

    runner_status st = runner_create(inst, index, e, &runner, err, sizeof err);
    if (st) {
        rc = runner_exit(st, err);
        goto done;
    }
    /* Inputs over the whole bindings (a kernel may read padding), C poisoned. */
    for (int i = 0; i < 3; i++) {
        const manifest_binding *b = &e->bindings[op[i]];
        if (!(host[i] = malloc(b->bytes ? b->bytes : 1))) {
            fprintf(stderr, "gemm_verify: out of memory\n");
            goto done;
        }
        if (i < 2)
            gemm_fill_random(host[i], b->type, b->elements, o.seed * 2 + (uint64_t)i);
        else
            poison(host[i], b->type, b->elements);
        if ((st = runner_upload(runner, (size_t)op[i], host[i], b->bytes, err, sizeof err))) {
            rc = runner_exit(st, err);
            goto done;
        }
    }
    /* Every other binding is the kernel's own state (stream-K's partial sums and counters): zero before it runs, as
     * the manifest's "init" says and the tuner did. */
    for (size_t i = 0; i < e->binding_count; i++) {
        if ((int)i == op[0] || (int)i == op[1] || (int)i == op[2])
            continue;
        void *zeros = calloc(1, e->bindings[i].bytes ? e->bindings[i].bytes : 1);
        if (!zeros) {
            fprintf(stderr, "gemm_verify: out of memory\n");
            goto done;
        }
        st = runner_upload(runner, i, zeros, e->bindings[i].bytes, err, sizeof err);
        free(zeros);
        if (st) {
            rc = runner_exit(st, err);
            goto done;
        }
    }
    if ((st = runner_dispatch(runner, 1, NULL, err, sizeof err)) ||
        (st = runner_download(runner, (size_t)op[2], host[2], e->bindings[op[2]].bytes, err, sizeof err))) {
        rc = runner_exit(st, err);
        goto done;
    }
    gemm_check_result check;
    gemm_check_sampled(&s, host[0], host[1], host[2], o.samples, o.seed, &check);
    int ok = check.nonfinite == 0 && check.max_rel_err <= tolerance;
    printf("check: %s: max rel err %.3g (tolerance %.3g) over %llu sampled elements of C", ok ? "ok" : "WRONG",
           check.max_rel_err, tolerance, (unsigned long long)check.checked);
    if (check.nonfinite)
        printf("; %llu not finite (unwritten?)", (unsigned long long)check.nonfinite);
    if (!ok)
        printf("; worst C[%llu][%llu] = %.9g, fp64 reference %.9g", (unsigned long long)check.worst_i,
               (unsigned long long)check.worst_j, check.worst_got, check.worst_ref);
    printf("\n");
    fflush(stdout);

    /* Measured again, wrong or not, so a table can show both; warm-up by time because clocks ramp. */
    double median = NAN, min = NAN, tflops = NAN;
    if (o.repetitions) {
        double t0 = now_s();
        do
            st = runner_dispatch(runner, o.batch, NULL, err, sizeof err);
        while (!st && now_s() - t0 < o.warmup_s);
        if (!(times = malloc(o.repetitions * sizeof *times))) {
            fprintf(stderr, "gemm_verify: out of memory\n");
            goto done;
        }
        for (unsigned r = 0; r < o.repetitions && !st; r++)
            st = runner_dispatch(runner, o.batch, &times[r], err, sizeof err);
        if (st) {
            rc = runner_exit(st, err);
            goto done;
        }
        qsort(times, o.repetitions, sizeof *times, cmp_double);
        unsigned h = o.repetitions / 2;
        median = o.repetitions % 2 ? times[h] : 0.5 * (times[h - 1] + times[h]);
        min = times[0];
        tflops = median > 0 ? 2.0 * (double)s.m * (double)s.n * (double)s.k / (median * 1e-3) * 1e-12 : NAN;
        printf("time: median %.4f ms, min %.4f ms over %u samples of %u dispatch(es)", median, min, o.repetitions,
               o.batch);
        if (e->pass_count > 1)
            printf(" of the %zu-pass sequence", e->pass_count);
        printf("; %.4g %s", tflops, gemm_type_integer(s.c_type) ? "TOPS" : "TFLOP/s");
        if (isfinite(e->measured_median_ms))
            printf(" (the tuner measured median %.4f ms)", e->measured_median_ms);
        printf("\n");
    }
    rc = ok ? 0 : EXIT_WRONG;
    if (o.json && write_json(o.json, e, dev, &check, tolerance, ok, median, min, tflops, o.repetitions))
        rc = EXIT_USAGE;
done:
    free(times);
    for (int i = 0; i < 3; i++)
        free(host[i]);
    runner_destroy(runner);
    vkat_instance_destroy(inst);
    free(entries);
    return rc;
}
