/* api_count.c — counting a space without a GPU (include/vkautotune.h: vkat_space_count_configs, the dry run):
 * the census (space/space_census.c: exact within a time bound, else sampled) or an exact walk, the configurations
 * of one shard, and a description of a configuration's sequence of dispatches. The CLI prints what these return. */
#include "search.h"
#include "space_census.h"
#include "util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct count_visit {
    const vkat_space *space;
    const vkat_count_desc *desc;
    uint64_t raw, in_shard;
    size_t visited;
} count_visit;

static void visit_valid(void *user, uint64_t index, const uint32_t *choice)
{
    count_visit *v = user;
    const vkat_count_desc *d = v->desc;
    if (d->shard_count <= 1 || vkat_search_shard_of(v->raw, index, d->shard_count) == d->shard_index)
        v->in_shard++;
    if (d->visit && v->visited < d->visit_limit) {
        v->visited++;
        char cfg[512];
        vkat_space_format_config(v->space, choice, cfg, sizeof cfg);
        d->visit(d->visit_user, cfg);
    }
}

vkat_result vkat_space_count_configs(const vkat_space *space, const vkat_device_info *device,
                                     const vkat_count_desc *desc, vkat_space_count *out, vkat_error *err)
{
    static const vkat_count_desc none = {0};
    if (!desc)
        desc = &none;
    memset(out, 0, sizeof *out);
    out->removed = calloc(space->constraint_count ? space->constraint_count : 1, sizeof *out->removed);
    vkat_value *env = vkat_space_env_create(space, device);
    if (!out->removed || !env) {
        free(env);
        return vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
    }
    count_visit v = {space, desc, vkat_space_raw_count(space), 0, 0};
    vkat_result r;
    if (desc->exact) {
        uint64_t raw = 0, valid = 0;
        r = vkat_space_walk_valid(space, env, 0, visit_valid, &v, &raw, &valid, out->removed, err);
        out->exact = 1;
        out->raw = out->checked = raw;
        out->raw_approx = (double)raw;
        out->valid = valid;
        out->valid_estimate = (double)valid;
        out->fraction = out->lo = out->hi = raw ? (double)valid / (double)raw : 0;
        if (r == VKAT_ERR_EMPTY_SPACE) /* an empty space is a count of 0, the caller's to explain */
            r = VKAT_OK;
    } else {
        vkat_space_census_opts co = {0};
        co.seed = desc->seed;
        co.visit = visit_valid;
        co.visit_user = &v;
        co.progress = desc->progress;
        co.progress_user = desc->progress_user;
        vkat_space_census c;
        r = vkat_space_census_run(space, env, &co, &c, out->removed, err);
        if (r == VKAT_OK) {
            out->exact = c.exact;
            out->raw_overflows = c.raw_overflows;
            out->raw = c.raw;
            out->raw_approx = c.raw_approx;
            out->checked = c.checked;
            out->valid = c.valid;
            out->fraction = c.fraction;
            out->lo = c.lo;
            out->hi = c.hi;
            out->valid_estimate = c.valid_estimate;
        }
    }
    out->valid_in_shard = v.in_shard;
    free(env);
    return r;
}

void vkat_space_count_free(vkat_space_count *count)
{
    if (!count)
        return;
    free(count->removed);
    count->removed = NULL;
}

const char *vkat_space_format_raw(const vkat_space *space, char *buf, size_t size)
{
    double approx = 0;
    uint64_t raw = vkat_space_raw_count_checked(space, &approx);
    if (raw || space->param_count == 0)
        snprintf(buf, size, "%llu", (unsigned long long)(space->param_count ? raw : 1));
    else
        snprintf(buf, size, "more than 2^64 (about %.3g; a 64-bit count overflows)", approx);
    return buf;
}

vkat_result vkat_space_describe_sequence(const vkat_space *space, const vkat_device_info *device,
                                         const char *config, size_t *count, char *buf, size_t size, vkat_error *err)
{
    *count = 0;
    if (size)
        buf[0] = 0;
    vkat_value *env = vkat_space_env_create(space, device);
    uint32_t *choice = calloc(space->param_count ? space->param_count : 1, sizeof *choice);
    vkat_step *steps = NULL;
    vkat_result r = VKAT_OK;
    if (!env || !choice) {
        r = vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
        goto done;
    }
    if ((r = vkat_space_parse_config(space, config, 1, choice, err)) != VKAT_OK)
        goto done;
    vkat_space_env_apply(space, choice, env);
    if ((r = vkat_space_steps(space, env, 0, &steps, count, err)) != VKAT_OK)
        goto done;
    size_t used = 0;
    for (size_t i = 0; i < *count && i < 8 && used < size; i++) {
        int n = snprintf(buf + used, size - used, "%s %s[%u] %ux%ux%u", i ? "," : "", steps[i].pass->name,
                         steps[i].index, steps[i].groups[0], steps[i].groups[1], steps[i].groups[2]);
        used += n > 0 ? (size_t)n : 0;
    }
    if (*count > 8 && used < size)
        snprintf(buf + used, size - used, ", ...");
done:
    free(steps);
    free(choice);
    free(env);
    return r;
}

const char *vkat_strategy_name(size_t index)
{
    for (size_t i = 0; vkat_strategies[i]; i++)
        if (i == index)
            return vkat_strategies[i]->name;
    return NULL;
}

int vkat_strategy_exists(const char *name)
{
    return name && vkat_strategy_find(name) != NULL;
}
