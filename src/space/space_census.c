/* space_census.c — counts a space's configurations for the dry run within a time bound (space_census.h).
 *
 * A walk of every configuration is exact but grows with the product of the value counts (four parameters of 1,000
 * values are 10^12): it runs for a bounded time, and when it cannot finish the valid fraction is estimated from
 * uniform samples instead, each parameter's value drawn independently (uniform over the raw product, even when the
 * product overflows 64 bits). It must not print: progress goes to a callback. */
#include "space_census.h"

#include "util.h"

#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define DEFAULT_EXACT_SECONDS 2.0
/* Up to this many raw configurations the walk is always exact, however long it takes (every shipped space: sgemm_wt's
 * 9e7 walk in 3-7 s on 2 cores), so the same space prints the same counts on a fast and a loaded machine. */
#define ALWAYS_EXACT_RAW (1ull << 27)
#define DEFAULT_SAMPLES 200000u
#define DEFAULT_SAMPLE_SECONDS 2.0
#define PROGRESS_EVERY_S 0.2
#define CHECK_CLOCK_EVERY 4096u /* configurations between looks at the clock */

uint64_t vkat_space_raw_count_checked(const vkat_space *s, double *approx)
{
    uint64_t n = 1;
    double a = 1;
    int over = 0;
    for (size_t i = 0; i < s->param_count; i++) {
        a *= (double)s->params[i].value_count;
        over |= __builtin_mul_overflow(n, (uint64_t)s->params[i].value_count, &n);
    }
    if (approx)
        *approx = a;
    return over ? 0 : n;
}

static uint64_t splitmix64(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

/* The 95% Wilson score interval of k successes in n trials: unlike p +- 1.96 sd it stays inside [0, 1] and is
 * not empty when k is 0 or n. */
static void wilson(uint64_t k, uint64_t n, double *lo, double *hi)
{
    const double z = 1.959963984540054;
    if (n == 0) {
        *lo = 0;
        *hi = 1;
        return;
    }
    double p = (double)k / (double)n, nn = (double)n, d = 1 + z * z / nn;
    double centre = (p + z * z / (2 * nn)) / d;
    double half = z * sqrt(p * (1 - p) / nn + z * z / (4 * nn * nn)) / d;
    *lo = fmax(0, centre - half);
    *hi = fmin(1, centre + half);
}

/* Checks the configuration in env; counts it. Returns -1 on an evaluation error. */
static int check_one(const vkat_space *s, const vkat_value *env, uint64_t *valid, uint64_t *removed, vkat_error *err)
{
    size_t failed;
    int c = vkat_space_check(s, env, &failed, err);
    if (c > 0)
        (*valid)++;
    else if (c == 0)
        removed[failed]++;
    return c;
}

/* The walk of every configuration in index order; *finished is 0 when time ran out first. */
static vkat_result walk_exact(const vkat_space *s, vkat_value *env, uint32_t *choice, uint64_t raw,
                              const vkat_space_census_opts *o, double limit_s, int *finished, uint64_t *valid,
                              uint64_t *removed, vkat_error *err)
{
    double start = vkat_now(), next_progress = start + PROGRESS_EVERY_S;
    *finished = 0;
    for (uint64_t n = 0; n < raw; n++) {
        int c = check_one(s, env, valid, removed, err);
        if (c < 0)
            return VKAT_ERR_EXPR;
        if (c && o->visit)
            o->visit(o->visit_user, n, choice);
        if ((n + 1) % CHECK_CLOCK_EVERY == 0) {
            double now = vkat_now();
            if (now - start > limit_s)
                return VKAT_OK;
            if (o->progress && now >= next_progress) {
                o->progress(o->progress_user, 0, n + 1, raw);
                next_progress = now + PROGRESS_EVERY_S;
            }
        }
        vkat_space_step(s, choice, env);
    }
    *finished = 1;
    return VKAT_OK;
}

static vkat_result sample(const vkat_space *s, vkat_value *env, uint32_t *choice, const vkat_space_census_opts *o,
                          uint64_t samples, double limit_s, uint64_t *checked, uint64_t *valid, uint64_t *removed,
                          vkat_error *err)
{
    uint64_t state = o->seed ^ 0x5DEECE66Dull;
    double start = vkat_now(), next_progress = start + PROGRESS_EVERY_S;
    for (*checked = 0; *checked < samples;) {
        for (size_t i = 0; i < s->param_count; i++) {
            choice[i] = (uint32_t)(splitmix64(&state) % s->params[i].value_count);
            env[s->params[i].slot] = vkat_int(s->params[i].values[choice[i]]);
        }
        if (check_one(s, env, valid, removed, err) < 0)
            return VKAT_ERR_EXPR;
        if (++*checked % CHECK_CLOCK_EVERY == 0) {
            double now = vkat_now();
            if (now - start > limit_s)
                break;
            if (o->progress && now >= next_progress) {
                o->progress(o->progress_user, 1, *checked, samples);
                next_progress = now + PROGRESS_EVERY_S;
            }
        }
    }
    return VKAT_OK;
}

vkat_result vkat_space_census_run(const vkat_space *s, const vkat_value *env_template,
                                  const vkat_space_census_opts *opts, vkat_space_census *out, uint64_t *removed_by,
                                  vkat_error *err)
{
    vkat_space_census_opts o = opts ? *opts : (vkat_space_census_opts){0};
    double exact_s = o.exact_seconds > 0 ? o.exact_seconds : DEFAULT_EXACT_SECONDS;
    double sample_s = o.sample_seconds > 0 ? o.sample_seconds : DEFAULT_SAMPLE_SECONDS;
    uint64_t samples = o.samples ? o.samples : DEFAULT_SAMPLES;
    memset(out, 0, sizeof *out);
    out->raw = vkat_space_raw_count_checked(s, &out->raw_approx);
    out->raw_overflows = out->raw == 0 && s->param_count > 0;
    if (s->param_count == 0)
        out->raw = 1;
    if (!(o.exact_seconds > 0) && !out->raw_overflows && out->raw <= ALWAYS_EXACT_RAW)
        exact_s = INFINITY;
    size_t nsym = vkat_symtab_count(s->symbols), ncons = s->constraint_count ? s->constraint_count : 1;
    vkat_value *env = malloc((nsym ? nsym : 1) * sizeof *env);
    uint32_t *choice = calloc(s->param_count ? s->param_count : 1, sizeof *choice);
    uint64_t *removed = calloc(ncons, sizeof *removed);
    vkat_result r = VKAT_OK;
    if (!env || !choice || !removed) {
        r = vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
        goto done;
    }
    memcpy(env, env_template, nsym * sizeof *env);
    vkat_space_env_apply(s, choice, env);
    int finished = 0;
    if (!out->raw_overflows) {
        r = walk_exact(s, env, choice, out->raw, &o, exact_s, &finished, &out->valid, removed, err);
        if (r)
            goto done;
    }
    if (finished) {
        out->exact = 1;
        out->checked = out->raw;
        out->fraction = out->lo = out->hi = out->raw ? (double)out->valid / (double)out->raw : 0;
        out->valid_estimate = (double)out->valid;
    } else {
        out->valid = 0;
        memset(removed, 0, ncons * sizeof *removed);
        r = sample(s, env, choice, &o, samples, sample_s, &out->checked, &out->valid, removed, err);
        if (r)
            goto done;
        out->fraction = out->checked ? (double)out->valid / (double)out->checked : 0;
        wilson(out->valid, out->checked, &out->lo, &out->hi);
        out->valid_estimate = out->fraction * out->raw_approx;
    }
    if (removed_by)
        memcpy(removed_by, removed, s->constraint_count * sizeof *removed);
done:
    free(env);
    free(choice);
    free(removed);
    return r;
}

vkat_result vkat_space_explain_empty(const vkat_space *s, const vkat_value *env_template, const char *where,
                                     vkat_error *err)
{
    if (s->constraint_count == 0)
        return VKAT_OK;
    uint64_t *removed = calloc(s->constraint_count, sizeof *removed);
    if (!removed)
        return vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory");
    vkat_space_census_opts o = {.exact_seconds = 1, .sample_seconds = 1};
    vkat_space_census c;
    vkat_result r = vkat_space_census_run(s, env_template, &o, &c, removed, err);
    if (r == VKAT_OK && c.valid == 0 && c.checked > 0) {
        size_t worst = 0;
        for (size_t i = 1; i < s->constraint_count; i++)
            if (removed[i] > removed[worst])
                worst = i;
        r = vkat_fail(err, VKAT_ERR_EMPTY_SPACE, s->path, s->constraints[worst].line,
                      "%s%sno configuration satisfies the constraints; '%s' removed the most (%" PRIu64 " of %" PRIu64
                      "%s)", where ? where : "", where ? ", " : "", s->constraints[worst].name, removed[worst],
                      c.checked, c.exact ? "" : " sampled");
    }
    free(removed);
    return r;
}
