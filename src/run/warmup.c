/* warmup.c — the rule that ends a warm-up (warmup.h). */
#include "warmup.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

int vkat_warmup_settled(const double *per, const double *at, uint32_t n, double min_s)
{
    if (n < 2 || at[n - 1] < min_s)
        return 0;
    double window = min_s / 2, end = at[n - 1];
    /* The last window: the batches that ended within `window` of the last, one at least; the window before: those
     * that ended within `window` before it, again one at least. Batch 0 (the first after the checked run) only
     * ever sits in the earlier window, where a slow start reads as "still falling": long batches (a slow kernel)
     * compare one against one, from the second batch on. */
    uint32_t i = n - 1;
    double last = per[i];
    while (i > 1 && at[i - 1] > end - window)
        last = fmin(last, per[--i]);
    double start = at[i - 1]; /* where the last window begins */
    uint32_t j = i - 1;
    double before = per[j];
    while (j > 0 && at[j - 1] > start - window)
        before = fmin(before, per[--j]);
    return last >= before * (1 - VKAT_WARMUP_TOLERANCE);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int vkat_warmup_ended_early(double warm_last_s, const double *samples, uint32_t n)
{
    double v[4096];
    if (n == 0 || !(warm_last_s > 0))
        return 0;
    if (n > 4096)
        n = 4096;
    memcpy(v, samples, n * sizeof *v);
    qsort(v, n, sizeof *v, cmp_double);
    double median = n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
    return median < warm_last_s * (1 - VKAT_WARMUP_EARLY);
}
