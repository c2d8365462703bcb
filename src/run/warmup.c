/* warmup.c — the rule that ends a warm-up (warmup.h). */
#include "warmup.h"

#include <math.h>

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
