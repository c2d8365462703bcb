/* race.c — racing: which variants are still worth timed samples (race.h has the rules). tune.c asks after every
 * sample; the bound is the least upper bound of the checked, fully measured variants so far. */
#include "race.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* sigma = 1.4826 MAD for normal noise; the sample median's standard error is 1.2533 sigma / sqrt(n). */
#define MAD_TO_SIGMA 1.4826
#define MEDIAN_SE 1.2533
#define MAX_SAMPLES 4096

vkat_race_opts vkat_race_defaults(const vkat_race_opts *opts, uint32_t repetitions)
{
    vkat_race_opts o = opts ? *opts : (vkat_race_opts){0};
    if (!o.min_samples)
        o.min_samples = 2;
    if (!(o.spread_k > 0))
        o.spread_k = 3;
    if (!(o.margin > 0))
        o.margin = 0.02;
    if (!(o.first_factor > 1))
        o.first_factor = 1.5;
    if (!(o.tolerance > 0))
        o.tolerance = 0.01;
    if (!o.max_repetitions)
        o.max_repetitions = 3 * (repetitions ? repetitions : 10);
    if (o.check_factor == 0 || isnan(o.check_factor))
        o.check_factor = 10;
    if (!(o.check_gap_s > 0))
        o.check_gap_s = 0.05;
    return o;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double median_sorted(const double *v, uint32_t n)
{
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

void vkat_race_stats(const double *samples, uint32_t n, vkat_race_sample_stats *out)
{
    double v[MAX_SAMPLES];
    if (n > MAX_SAMPLES)
        n = MAX_SAMPLES;
    memcpy(v, samples, n * sizeof *v);
    qsort(v, n, sizeof *v, cmp_double);
    out->min_s = v[0];
    out->median_s = median_sorted(v, n);
    for (uint32_t i = 0; i < n; i++)
        v[i] = fabs(v[i] - out->median_s);
    qsort(v, n, sizeof *v, cmp_double);
    out->mad_s = median_sorted(v, n);
}

double vkat_race_lower(const vkat_race_opts *o, const double *samples, uint32_t n)
{
    vkat_race_sample_stats s;
    vkat_race_stats(samples, n, &s);
    if (n < o->min_samples) /* no spread yet: only a clear factor counts */
        return s.min_s / o->first_factor;
    return s.min_s - fmax(o->spread_k * s.mad_s, o->margin * s.min_s);
}

double vkat_race_upper(const vkat_race_opts *o, double median_s, double mad_s)
{
    return median_s + fmax(o->spread_k * mad_s, o->margin * median_s);
}

vkat_race_verdict vkat_race_decide(const vkat_race_opts *o, double bound, const double *samples, uint32_t n,
                                   uint32_t repetitions)
{
    if (n == 0)
        return VKAT_RACE_CONTINUE;
    if (!o->disabled && isfinite(bound) && vkat_race_lower(o, samples, n) > bound)
        return VKAT_RACE_CUT;
    if (n < repetitions)
        return VKAT_RACE_CONTINUE;
    if (o->disabled || n >= o->max_repetitions)
        return VKAT_RACE_DONE;
    /* A contender: more samples until its median is known to the tolerance. */
    vkat_race_sample_stats s;
    vkat_race_stats(samples, n, &s);
    double se = MEDIAN_SE * MAD_TO_SIGMA * s.mad_s / sqrt((double)n);
    return se <= o->tolerance * s.median_s ? VKAT_RACE_DONE : VKAT_RACE_CONTINUE;
}

int vkat_race_check_cut(const vkat_race_opts *o, double bound, double run_s, double gap_s)
{
    return !o->disabled && o->check_factor > 0 && isfinite(bound) && isfinite(run_s) && gap_s <= o->check_gap_s &&
           run_s > o->check_factor * bound;
}

/* ---- The shared bound ---------------------------------------------------------------------------------------- */

void vkat_race_bound_init(vkat_race_bound *b)
{
    pthread_mutex_init(&b->lock, NULL);
    b->upper_s = INFINITY;
}

void vkat_race_bound_destroy(vkat_race_bound *b)
{
    pthread_mutex_destroy(&b->lock);
}

double vkat_race_bound_get(vkat_race_bound *b)
{
    pthread_mutex_lock(&b->lock);
    double u = b->upper_s;
    pthread_mutex_unlock(&b->lock);
    return u;
}

void vkat_race_bound_offer(vkat_race_bound *b, const vkat_race_opts *o, double median_s, double mad_s)
{
    if (!(median_s > 0) || !isfinite(median_s))
        return;
    double u = vkat_race_upper(o, median_s, isfinite(mad_s) && mad_s > 0 ? mad_s : 0);
    pthread_mutex_lock(&b->lock);
    if (u < b->upper_s)
        b->upper_s = u;
    pthread_mutex_unlock(&b->lock);
}
