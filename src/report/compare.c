/* compare.c — groups the results database into per-kernel, per-device series and computes the portability
 * matrix (each device's winner on every other device). Reads the store only; must not print, exit or measure. */
#include "compare.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static int same_series(const vkat_row *a, const vkat_row *b)
{
    return vkat_device_key_equal(&a->device, &b->device) && !strcmp(a->problem, b->problem) &&
           !strcmp(a->template_hash, b->template_hash) && !strcmp(a->space_hash, b->space_hash);
}

/* Latest `created` of a run of rows. */
static const char *latest(const vkat_row *rows, size_t n)
{
    const char *l = "";
    for (size_t i = 0; i < n; i++)
        if (strcmp(rows[i].created, l) > 0)
            l = rows[i].created;
    return l;
}

static size_t count_ok(const vkat_row *rows, size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        k += rows[i].status == VKAT_STATUS_OK;
    return k;
}

/* Fills one kernel's comparison from rows[0..n) (all of that kernel, in the store's list order). */
static vkat_result build_one(vkat_store *st, const vkat_row *rows, size_t n, const char *problem,
                             vkat_comparison *c, vkat_error *err)
{
    snprintf(c->kernel, sizeof c->kernel, "%s", rows[0].kernel);
    for (size_t i = 0; i < n;) {
        /* One device's rows are contiguous; within them, series are contiguous. */
        size_t dev_end = i;
        while (dev_end < n && vkat_device_key_equal(&rows[dev_end].device, &rows[i].device))
            dev_end++;
        size_t best_start = SIZE_MAX, best_n = 0, series = 0;
        for (size_t s = i; s < dev_end;) {
            size_t e = s;
            while (e < dev_end && same_series(&rows[e], &rows[s]))
                e++;
            if (!problem || !strcmp(rows[s].problem, problem)) {
                series++;
                size_t ok = count_ok(rows + s, e - s);
                size_t best_ok = best_start == SIZE_MAX ? 0 : count_ok(rows + best_start, best_n);
                if (best_start == SIZE_MAX || ok > best_ok ||
                    (ok == best_ok && strcmp(latest(rows + s, e - s), latest(rows + best_start, best_n)) > 0)) {
                    best_start = s;
                    best_n = e - s;
                }
            }
            s = e;
        }
        if (best_start != SIZE_MAX) {
            vkat_cmp_device *nd = realloc(c->devices, (c->device_count + 1) * sizeof *nd);
            if (!nd)
                return vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory comparing");
            c->devices = nd;
            vkat_cmp_device *d = &c->devices[c->device_count++];
            memset(d, 0, sizeof *d);
            const vkat_row *f = &rows[best_start];
            d->device = f->device;
            snprintf(d->problem, sizeof d->problem, "%s", f->problem);
            memcpy(d->template_hash, f->template_hash, sizeof d->template_hash);
            memcpy(d->space_hash, f->space_hash, sizeof d->space_hash);
            d->rows = malloc(best_n * sizeof *d->rows);
            if (!d->rows)
                return vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory comparing");
            memcpy(d->rows, f, best_n * sizeof *d->rows);
            d->count = best_n;
            d->ok_count = count_ok(f, best_n);
            for (size_t k = 0; k < best_n; k++)
                d->raced_count += f[k].status == VKAT_STATUS_RACED;
            d->other_series = series - 1;
            int found = vkat_store_get_peaks(st, &d->device, &d->peaks, err);
            if (found < 0)
                return VKAT_ERR_DB;
            d->has_peaks = found;
        }
        i = dev_end;
    }
    size_t nd = c->device_count;
    c->same_problem = c->same_template = 1;
    for (size_t i = 1; i < nd; i++) {
        c->same_problem &= !strcmp(c->devices[i].problem, c->devices[0].problem);
        c->same_template &= !strcmp(c->devices[i].template_hash, c->devices[0].template_hash) &&
                            !strcmp(c->devices[i].space_hash, c->devices[0].space_hash);
    }
    c->portability = malloc((nd ? nd * nd : 1) * sizeof *c->portability);
    c->port_state = calloc(nd ? nd * nd : 1, sizeof *c->port_state);
    if (!c->portability || !c->port_state)
        return vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory comparing");
    for (size_t i = 0; i < nd; i++) {
        const vkat_cmp_device *di = &c->devices[i];
        for (size_t j = 0; j < nd; j++) {
            const vkat_cmp_device *dj = &c->devices[j];
            c->portability[i * nd + j] = NAN;
            if (!di->ok_count)
                continue;
            c->portability[i * nd + j] =
                vkat_portability_fraction(dj->rows, dj->count, dj->ok_count, di->rows[0].config,
                                          &c->port_state[i * nd + j]);
        }
    }
    return VKAT_OK;
}

double vkat_portability_fraction(const vkat_row *rows, size_t count, size_t ok_count, const char *config, int *state)
{
    *state = VKAT_PORT_UNMEASURED;
    if (!ok_count)
        return NAN;
    for (size_t r = 0; r < count; r++) {
        if (strcmp(rows[r].config, config))
            continue;
        if (rows[r].status == VKAT_STATUS_RACED && rows[r].min_s > 0) {
            /* Its few samples put it behind the winner: the fraction is at most this. */
            *state = VKAT_PORT_RACED;
            return fmin(1.0, rows[0].median_s / rows[r].min_s);
        }
        if (rows[r].status != VKAT_STATUS_OK) {
            *state = VKAT_PORT_FAILED;
            return NAN;
        }
        *state = VKAT_PORT_OK;
        return rows[0].median_s / rows[r].median_s;
    }
    return NAN;
}

vkat_result vkat_compare_build(vkat_store *st, const char *kernel, const char *problem, vkat_comparison **out,
                               size_t *count, vkat_error *err)
{
    *out = NULL;
    *count = 0;
    vkat_row *rows = NULL;
    size_t n = 0;
    vkat_result r = vkat_store_list(st, kernel, 1, &rows, &n, err);
    if (r)
        return r;
    vkat_comparison *cs = NULL;
    size_t nc = 0;
    for (size_t i = 0; i < n && !r;) {
        size_t e = i;
        while (e < n && !strcmp(rows[e].kernel, rows[i].kernel))
            e++;
        vkat_comparison *ncs = realloc(cs, (nc + 1) * sizeof *ncs);
        if (!ncs) {
            r = vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory comparing");
            break;
        }
        cs = ncs;
        memset(&cs[nc], 0, sizeof cs[nc]);
        r = build_one(st, rows + i, e - i, problem, &cs[nc], err);
        nc++;
        /* A kernel with no series of the requested problem is left out. */
        if (!r && cs[nc - 1].device_count == 0) {
            nc--;
            free(cs[nc].devices);
            free(cs[nc].portability);
            free(cs[nc].port_state);
        }
        i = e;
    }
    free(rows);
    if (r) {
        vkat_comparisons_free(cs, nc);
        return r;
    }
    *out = cs;
    *count = nc;
    return VKAT_OK;
}

void vkat_comparisons_free(vkat_comparison *c, size_t count)
{
    if (!c)
        return;
    for (size_t k = 0; k < count; k++) {
        for (size_t i = 0; i < c[k].device_count; i++)
            free(c[k].devices[i].rows);
        free(c[k].devices);
        free(c[k].portability);
        free(c[k].port_state);
    }
    free(c);
}

int vkat_config_value(const char *config, const char *name, long long *value)
{
    size_t len = strlen(name);
    for (const char *p = config; p && *p;) {
        if (!strncmp(p, name, len) && p[len] == '=') {
            char *end;
            *value = strtoll(p + len + 1, &end, 10);
            return end != p + len + 1;
        }
        p = strchr(p, ',');
        if (p)
            p++;
    }
    return 0;
}

int vkat_config_param_name(const char *config, size_t i, char *buf, size_t size)
{
    const char *p = config;
    for (size_t k = 0; k < i && p; k++) {
        p = strchr(p, ',');
        if (p)
            p++;
    }
    if (!p || !*p)
        return 0;
    const char *eq = strchr(p, '=');
    if (!eq)
        return 0;
    snprintf(buf, size, "%.*s", (int)(eq - p), p);
    return 1;
}

double vkat_row_throughput(const vkat_row *r, const char **unit)
{
    if (r->flops > 0) {
        *unit = "TFLOP/s";
        return r->tflops;
    }
    if (r->bytes > 0) {
        *unit = "GB/s";
        return r->gbps;
    }
    *unit = "1/ms";
    return r->median_s > 0 ? 1e-3 / r->median_s : 0;
}
