/* api_tune.c — the tuning run of the public header (vkat_tune_desc, vkat_tune_run): the description resolved into
 * the tuner's options once, the devices grouped (identical GPUs share one search: device_key.c's one definition of
 * "the same device"), one thread per group, each with its own space and store connection, calling
 * vkat_tune_devices (run/tune.c: the lanes inside a group). Prints nothing: the caller reads the groups' reports. */
#include "device_key.h"
#include "tune.h"
#include "util.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_DB "vkautotune.db"
#define MAX_GROUP_DEVICES 64

typedef struct group_slot {
    vkat_tune_group pub;
    uint32_t devices[MAX_GROUP_DEVICES];
    struct vkat_tune_run *run;
    int several; /* other groups run at the same time: say when this one is done */
} group_slot;

struct vkat_tune_run {
    vkat_tune_desc desc;
    vkat_space *space; /* loaded at create: the template and the overrides checked once; export uses it */
    vkat_store *store;
    group_slot *groups;
    size_t group_count;
    int executed;
};

vkat_tune_desc vkat_tune_desc_defaults(void)
{
    vkat_tune_desc d = {0};
    d.db_path = DEFAULT_DB;
    d.budget = 100;
    d.warmup_s = 0.2;
    d.warmup_min_s = 0.02;
    d.repetitions = 10;
    d.min_sample_s = 1e-4;
    d.kernel_timeout_s = 10;
    d.race_tolerance = 0.01;
    return d;
}

/* ---- Options ------------------------------------------------------------------------------------------------- */

/* The device's pipeline-cache file in `dir` (or the default cache directory), created if needed; NULL when
 * disabled ('none') or when no directory can be had, which only costs the cache. */
static const char *pipeline_cache_file(const char *dir, const vkat_device_info *dev, char *buf, size_t size)
{
    char base[3072];
    if (dir && !strcmp(dir, "none"))
        return NULL;
    if (dir)
        snprintf(base, sizeof base, "%s", dir);
    else if (getenv("XDG_CACHE_HOME") && *getenv("XDG_CACHE_HOME"))
        snprintf(base, sizeof base, "%s/vkautotune", getenv("XDG_CACHE_HOME"));
    else if (getenv("HOME") && *getenv("HOME"))
        snprintf(base, sizeof base, "%s/.cache/vkautotune", getenv("HOME"));
    else
        return NULL;
    vkat_error err;
    if (vkat_make_dirs(base, &err)) {
        char msg[2048];
        vkat_log(VKAT_LOG_WARN, "pipeline cache disabled: %s", vkat_error_format(&err, msg, sizeof msg));
        return NULL;
    }
    char uuid[33];
    for (int i = 0; i < 16; i++)
        snprintf(uuid + 2 * i, 3, "%02x", dev->pipeline_cache_uuid[i]);
    snprintf(buf, size, "%s/pipeline-%04x-%04x-%s.bin", base, dev->vendor_id, dev->device_id, uuid);
    return buf;
}

typedef struct progress_relay {
    const vkat_tune_desc *desc;
    const vkat_device_info *device;
} progress_relay;

static void relay_progress(void *user, const vkat_tune_progress *p)
{
    progress_relay *r = user;
    if (r->desc->progress)
        r->desc->progress(r->desc->progress_user, r->device, p);
}

static void relay_stage(void *user, const char *what)
{
    progress_relay *r = user;
    r->desc->stage(r->desc->progress_user, r->device, what);
}

/* The tuner's options from the description: every field in one place (zero keeps the tuner's own default). */
static void tune_opts_from_desc(const vkat_tune_desc *d, vkat_tune_opts *o)
{
    memset(o, 0, sizeof *o);
    o->strategy = d->strategy;
    o->budget = d->budget;
    o->budget_s = d->budget_s;
    o->seed = d->seed;
    o->shard_index = d->shard_index;
    o->shard_count = d->shard_count;
    o->timing.warmup_s = d->warmup_s;
    o->timing.min_warmup_s = d->warmup_min_s;
    o->timing.repetitions = d->repetitions;
    o->timing.min_sample_s = d->min_sample_s;
    if (d->kernel_timeout_s > 0)
        o->run_timeout_ns = o->timing.timeout_ns = (uint64_t)(d->kernel_timeout_s * 1e9);
    o->race.disabled = d->no_race;
    o->race.tolerance = d->race_tolerance;
    o->jobs = d->jobs;
    o->check_on = d->check_on;
    o->starts = d->starts;
    o->start_count = d->start_count;
    o->warm_start = d->warm_start;
    o->stop = d->stop;
    o->claim = d->claim;
}

/* ---- One group's run (its own thread) ------------------------------------------------------------------------ */

static void *run_group(void *arg)
{
    group_slot *g = arg;
    const vkat_tune_desc *d = &g->run->desc;
    const vkat_device_info *dev = vkat_instance_device(d->inst, g->devices[0]);
    vkat_store *store = NULL;
    vkat_error *err = &g->pub.error;
    /* Its own space (the problem is set per device) and its own connection (one per thread). */
    if ((g->pub.result = vkat_space_load_with_template(d->space_path, d->template_path, &g->pub.space, err)) ||
        (g->pub.result = vkat_store_open(d->db_path, &store, err)))
        goto done;
    vkat_log(VKAT_LOG_INFO, "device %u: %s (%s, %s %s)", dev->index, dev->name, dev->device_type, dev->driver_name,
             dev->driver_version_string);
    vkat_space_problem_for_device(g->pub.space, dev);
    if (d->problem)
        vkat_space_set_problem(g->pub.space, d->problem, NULL); /* checked by vkat_tune_run_create */
    vkat_tune_opts opts;
    tune_opts_from_desc(d, &opts);
    char cache_path[4096];
    opts.pipeline_cache_path = pipeline_cache_file(d->pipeline_cache_dir, dev, cache_path, sizeof cache_path);
    progress_relay relay = {d, dev};
    if (d->progress || d->stage)
        opts.progress_user = &relay;
    if (d->progress)
        opts.progress = relay_progress;
    if (d->stage)
        opts.stage = relay_stage;
    if (g->pub.device_count > 1)
        vkat_log(VKAT_LOG_INFO, "%zu identical devices share one search", g->pub.device_count);
    g->pub.result = vkat_tune_devices(g->pub.space, d->inst, g->devices, g->pub.device_count, store, &opts,
                                      &g->pub.report, err);
    if (g->pub.result)
        goto done;
    if (g->pub.report.skipped)
        vkat_log(VKAT_LOG_WARN, "%s: skipped: %s", dev->name, g->pub.report.skip_reason);
    else if (g->several)
        vkat_log(VKAT_LOG_INFO, "%s: %llu evaluated, %.1f s", dev->name,
                 (unsigned long long)g->pub.report.totals.evaluated, g->pub.report.totals.elapsed_s);
done:
    vkat_store_close(store);
    return NULL;
}

/* ---- The run --------------------------------------------------------------------------------------------------- */

/* Identical GPUs (vkat_device_identical) share a group; different devices each get their own, in device order. */
static vkat_result group_devices(vkat_tune_run *run, vkat_error *err)
{
    const vkat_tune_desc *d = &run->desc;
    run->groups = calloc(d->device_count ? d->device_count : 1, sizeof *run->groups);
    if (!run->groups)
        return vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
    for (size_t i = 0; i < d->device_count; i++) {
        const vkat_device_info *di = vkat_instance_device(d->inst, d->devices[i]);
        if (!di)
            return vkat_fail(err, VKAT_ERR_USAGE, NULL, 0, "no device %u", d->devices[i]);
        group_slot *g = NULL;
        for (size_t k = 0; k < run->group_count && !g; k++)
            if (vkat_device_identical(vkat_instance_device(d->inst, run->groups[k].devices[0]), di) &&
                run->groups[k].pub.device_count < MAX_GROUP_DEVICES)
                g = &run->groups[k];
        if (!g) {
            g = &run->groups[run->group_count++];
            g->run = run;
            g->pub.devices = g->devices;
        }
        g->devices[g->pub.device_count++] = d->devices[i];
    }
    for (size_t k = 0; k < run->group_count; k++)
        run->groups[k].several = run->group_count > 1;
    return VKAT_OK;
}

vkat_result vkat_tune_run_create(const vkat_tune_desc *desc, vkat_tune_run **out, vkat_error *err)
{
    *out = NULL;
    if (!desc->space_path || !desc->inst || desc->device_count == 0)
        return vkat_fail(err, VKAT_ERR_USAGE, NULL, 0, "a tuning run needs a space and at least one device");
    if (desc->strategy && !vkat_strategy_exists(desc->strategy))
        return vkat_fail(err, VKAT_ERR_USAGE, NULL, 0, "unknown strategy '%s'", desc->strategy);
    if (desc->logger.func)
        vkat_set_log(desc->logger.func, desc->logger.user_data);
    vkat_tune_run *run = calloc(1, sizeof *run);
    if (!run)
        return vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
    run->desc = *desc;
    if (!run->desc.db_path)
        run->desc.db_path = DEFAULT_DB;
    vkat_result r = vkat_space_load_with_template(desc->space_path, desc->template_path, &run->space, err);
    /* The overrides are checked here, once; each group applies them again after its device's defaults. */
    if (!r && desc->problem)
        r = vkat_space_set_problem(run->space, desc->problem, err);
    if (!r)
        r = vkat_store_open(run->desc.db_path, &run->store, err);
    if (!r)
        r = group_devices(run, err);
    if (r) {
        vkat_tune_run_destroy(run);
        return r;
    }
    *out = run;
    return VKAT_OK;
}

size_t vkat_tune_run_group_count(const vkat_tune_run *run)
{
    return run->group_count;
}

vkat_result vkat_tune_run_execute(vkat_tune_run *run, vkat_error *err)
{
    if (run->executed)
        return vkat_fail(err, VKAT_ERR_USAGE, NULL, 0, "a tuning run is executed once");
    run->executed = 1;
    pthread_t *threads = calloc(run->group_count, sizeof *threads);
    if (!threads)
        return vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
    /* Threads even for one group: one code path, exercised by every test run on lavapipe. */
    size_t started = 0;
    for (; started < run->group_count; started++)
        if (pthread_create(&threads[started], NULL, run_group, &run->groups[started]) != 0)
            break;
    for (size_t k = 0; k < started; k++)
        pthread_join(threads[k], NULL);
    for (size_t k = started; k < run->group_count; k++)
        run->groups[k].pub.result = vkat_fail(&run->groups[k].pub.error, VKAT_ERR_INTERNAL, NULL, 0,
                                              "cannot start a thread for device %u", run->groups[k].devices[0]);
    free(threads);
    return VKAT_OK;
}

const vkat_tune_group *vkat_tune_run_group(const vkat_tune_run *run, size_t index)
{
    return index < run->group_count ? &run->groups[index].pub : NULL;
}

vkat_store *vkat_tune_run_store(vkat_tune_run *run)
{
    return run->store;
}

vkat_result vkat_tune_run_export(vkat_tune_run *run, const char *dir, size_t *exported, vkat_error *err)
{
    uint32_t tuned[64];
    char problems[64][256];
    const char *problem_ptrs[64];
    size_t n = 0;
    for (size_t k = 0; k < run->group_count && n < 64; k++) {
        const vkat_tune_group *g = &run->groups[k].pub;
        vkat_row best;
        size_t found = 0;
        if (g->result || g->report.skipped)
            continue;
        vkat_result r = vkat_store_best(run->store, &g->report.key, &best, 1, &found, err);
        if (r)
            return r;
        if (!found)
            continue;
        snprintf(problems[n], sizeof problems[n], "%s", g->report.key.problem);
        problem_ptrs[n] = problems[n];
        tuned[n++] = g->devices[0];
    }
    if (exported)
        *exported = n;
    if (n == 0)
        return VKAT_OK;
    return vkat_tune_export(run->space, run->desc.inst, tuned, problem_ptrs, n, run->store, dir, err);
}

void vkat_tune_run_destroy(vkat_tune_run *run)
{
    if (!run)
        return;
    for (size_t k = 0; k < run->group_count; k++)
        vkat_space_destroy(run->groups[k].pub.space);
    free(run->groups);
    vkat_store_close(run->store);
    vkat_space_destroy(run->space);
    free(run);
}
