/* cli_tune_dry_run.c — `--dry-run`: the space counted without tuning (exact, or estimated from samples when too
 * large), for a device here, one described by a file, or Vulkan's minimum limits; and, after a run that found no
 * valid configuration, which constraint removed the most. */
#include "cli_tune.h"

#include <stdlib.h>
#include <unistd.h>

/* ---- Dry run --------------------------------------------------------------------------------------------------- */

/* What a dry run shows of the valid configurations: the first few, with their sequence of dispatches. */
typedef struct show_visit {
    const vkat_space *space;
    const vkat_device_info *dev;
    vkat_error sequence_error; /* the first shown configuration whose sequence does not evaluate */
} show_visit;

/* A sequence's dispatches for one configuration, as a dry run shows them: "reduce[0] 16x1x1, reduce[1] 1x1x1". */
static void show_valid(void *user, const char *config)
{
    show_visit *v = user;
    printf("  valid: %s\n", config);
    if (!vkat_space_pass_count(v->space))
        return;
    char text[1024];
    size_t n = 0;
    vkat_error err = {0};
    if (vkat_space_describe_sequence(v->space, v->dev, config, &n, text, sizeof text, &err) != VKAT_OK) {
        printf("    sequence: %s:%d: %s\n", err.file, err.line, err.message);
        if (!v->sequence_error.code)
            v->sequence_error = err;
    } else {
        printf("    sequence of %zu:%s\n", n, text);
    }
}

/* Nothing valid: names the constraint that removed the most, at its line. Returns the exit code. */
static int report_empty(const vkat_space *s, const uint64_t *removed)
{
    size_t worst = 0, nc = vkat_space_constraint_count(s);
    for (size_t c = 1; c < nc; c++)
        if (removed[c] > removed[worst])
            worst = c;
    int line = 0;
    const char *name = vkat_space_constraint(s, worst, &line);
    if (nc)
        fprintf(stderr,
                "vkautotune: %s:%d: no configuration satisfies the constraints; '%s' removed the most (%llu of %llu)\n",
                vkat_space_path(s), line, name, (unsigned long long)removed[worst],
                (unsigned long long)vkat_space_raw_count(s));
    return VKAT_EXIT_INPUT;
}

/* The dry run's progress line, on a terminal only. */
typedef struct census_progress {
    int shown;
} census_progress;

static void show_census_progress(void *user, int sampling, uint64_t done, uint64_t total)
{
    census_progress *p = user;
    if (sampling)
        fprintf(stderr, "\r\033[Ktoo many to count in time; sampling: %llu of %llu random configurations",
                (unsigned long long)done, (unsigned long long)total);
    else
        fprintf(stderr, "\r\033[Kcounting: %llu of %llu raw configurations (%.1f%%)", (unsigned long long)done,
                (unsigned long long)total, 100.0 * (double)done / (double)total);
    fflush(stderr);
    p->shown = 1;
}

/* The counts of an exact census, per constraint; the exit code. */
static int print_exact(const vkat_space *s, const tune_args *a, const vkat_space_count *c)
{
    printf("raw configurations: %llu\nvalid configurations: %llu\n", (unsigned long long)c->raw,
           (unsigned long long)c->valid);
    if (a->d.shard_count > 1)
        printf("valid in shard %u/%u: %llu\n", a->d.shard_index, a->d.shard_count,
               (unsigned long long)c->valid_in_shard);
    for (size_t k = 0; k < vkat_space_constraint_count(s); k++) {
        int line = 0;
        const char *name = vkat_space_constraint(s, k, &line);
        printf("  constraint '%s' (%s:%d) removed %llu\n", name, vkat_space_path(s), line,
               (unsigned long long)c->removed[k]);
    }
    return c->valid == 0 ? report_empty(s, c->removed) : VKAT_EXIT_OK;
}

/* The estimate of a sampled census, per constraint. */
static void print_estimate(const vkat_space *s, const tune_args *a, const vkat_space_count *c)
{
    char raw_text[96];
    printf("raw configurations: %s\n", vkat_space_format_raw(s, raw_text, sizeof raw_text));
    printf("valid configurations: about %.3g (an estimate: %.4g%% of %llu uniformly random configurations are "
           "valid, 95%% confidence interval %.4g%% to %.4g%%; too many to count exactly%s)\n",
           c->valid_estimate, 100 * c->fraction, (unsigned long long)c->checked, 100 * c->lo, 100 * c->hi,
           c->raw_overflows ? "" : " in 2 s");
    if (a->d.shard_count > 1)
        printf("valid in shard %u/%u: about %.3g\n", a->d.shard_index, a->d.shard_count,
               c->valid_estimate / a->d.shard_count);
    for (size_t k = 0; k < vkat_space_constraint_count(s); k++) {
        int line = 0;
        const char *name = vkat_space_constraint(s, k, &line);
        printf("  constraint '%s' (%s:%d) removed about %.4g%% (%llu of the samples)\n", name, vkat_space_path(s),
               line, c->checked ? 100.0 * (double)c->removed[k] / (double)c->checked : 0,
               (unsigned long long)c->removed[k]);
    }
    if (c->valid == 0)
        fprintf(stderr, "vkautotune: warning: no sampled configuration is valid: the valid fraction is below "
                        "%.2g%% (95%% confidence); tuning may find nothing\n", 100 * c->hi);
}

static int dry_run(const vkat_space *s, const vkat_device_info *dev, const tune_args *a)
{
    printf("space %s: kernel '%s', %zu parameters, %zu constraints\n", vkat_space_path(s),
           vkat_space_kernel_name(s), vkat_space_param_count(s), vkat_space_constraint_count(s));
    char problem[256];
    vkat_space_format_problem(s, problem, sizeof problem);
    printf("problem: %s\n", problem);
    printf("limits of: %s\n", dev ? dev->name : "Vulkan's minimum limits (no device)");
    fflush(stdout);
    /* Exact where the walk takes under 2 s; otherwise an estimate from random samples. */
    show_visit v = {s, dev, {0}};
    census_progress cp = {0};
    vkat_count_desc cd = {0};
    cd.seed = a->d.seed;
    cd.shard_index = a->d.shard_index;
    cd.shard_count = a->d.shard_count;
    cd.visit = show_valid;
    cd.visit_user = &v;
    cd.visit_limit = 5;
    if (isatty(2) && !a->quiet) {
        cd.progress = show_census_progress;
        cd.progress_user = &cp;
    }
    vkat_space_count c;
    vkat_error err = {0};
    vkat_result r = vkat_space_count_configs(s, dev, &cd, &c, &err);
    if (cp.shown)
        fprintf(stderr, "\r\033[K");
    int code = r ? vkat_cli_report(&err) : VKAT_EXIT_OK;
    if (code == VKAT_EXIT_OK && v.sequence_error.code) /* a sequence that cannot run: every variant would fail */
        code = vkat_cli_report(&v.sequence_error);
    if (code == VKAT_EXIT_OK && c.exact)
        code = print_exact(s, a, &c);
    else if (code == VKAT_EXIT_OK)
        print_estimate(s, a, &c);
    vkat_space_count_free(&c);
    return code;
}

/* A tuning run that walked the whole space without one valid configuration: the space is at fault (exit 3, like
 * a dry run), not the kernel; say which constraint removed the most. A shard that holds none of the space's valid
 * configurations is not an error (a job array's other shards have them). */
int vkat_cli_tune_explain_empty(const vkat_space *s, const vkat_device_info *dev, const tune_args *a)
{
    vkat_count_desc cd = {0};
    cd.exact = 1;
    cd.shard_index = a->d.shard_index;
    cd.shard_count = a->d.shard_count;
    vkat_space_count c;
    vkat_error err = {0};
    int code = vkat_space_count_configs(s, dev, &cd, &c, &err) ? vkat_cli_report(&err) : VKAT_EXIT_OK;
    if (code == VKAT_EXIT_OK && c.valid > 0 && c.valid_in_shard == 0) {
        fprintf(stderr, "vkautotune: warning: shard %u/%u holds none of the %llu valid configurations\n",
                a->d.shard_index, a->d.shard_count, (unsigned long long)c.valid);
        code = VKAT_EXIT_OK;
    } else if (code == VKAT_EXIT_OK)
        code = c.valid == 0 ? report_empty(s, c.removed) : VKAT_EXIT_FAILURE;
    vkat_space_count_free(&c);
    return code;
}

/* Problem sizes for one device: the space's defaults for it ([problem.cpu] on a CPU device), then --problem
 * (already checked, so it cannot fail here). */
static void use_problem_for(vkat_space *space, const vkat_device_info *dev, const char *overrides)
{
    vkat_space_problem_for_device(space, dev);
    if (overrides)
        vkat_space_set_problem(space, overrides, NULL);
}

/* --dry-run: counts for the device described by --device-profile, else the first device asked for, else (no
 * Vulkan) Vulkan's minimum limits. Returns the exit code. */
int vkat_cli_tune_dry_run(const tune_args *a, vkat_space *space)
{
    vkat_error err = {0};
    vkat_instance *inst = NULL;
    vkat_device_info described;
    int code;
    if (a->device_profile) {
        if (vkat_device_profile_load(a->device_profile, a->device, &described, &err) != VKAT_OK)
            return vkat_cli_report(&err);
        use_problem_for(space, &described, a->d.problem);
        return dry_run(space, &described, a);
    }
    vkat_result r = vkat_instance_create(&inst, &err);
    if (r == VKAT_ERR_NO_LOADER || r == VKAT_ERR_NO_DEVICE) {
        vkat_cli_log(VKAT_LOG_INFO, "%s; counting with Vulkan's minimum limits", err.message);
        return dry_run(space, NULL, a);
    }
    uint32_t devices[64], n;
    if (r != VKAT_OK || vkat_select_devices(inst, a->device, devices, 64, &n, &err) != VKAT_OK) {
        code = vkat_cli_report(&err);
    } else {
        use_problem_for(space, vkat_instance_device(inst, devices[0]), a->d.problem);
        code = dry_run(space, vkat_instance_device(inst, devices[0]), a);
    }
    vkat_instance_destroy(inst);
    return code;
}
