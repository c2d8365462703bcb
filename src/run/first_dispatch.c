/* first_dispatch.c — the rule of first_dispatch.h. */
#include "first_dispatch.h"

#include <math.h>

void vkat_first_dispatch_note(vkat_first_dispatch *f, double run_s, double median_s, double gap_s, double max_gap_s)
{
    if (!isfinite(run_s) || !isfinite(median_s) || !(run_s > 0) || !(median_s > 0) || !(gap_s <= max_gap_s))
        return;
    f->seen++;
    if (run_s - median_s > f->excess_s)
        f->excess_s = run_s - median_s;
}

int vkat_first_dispatch_enough(const vkat_first_dispatch *f, double run_s, double factor, double bound)
{
    return f->seen >= VKAT_FIRST_DISPATCH_SEEN && isfinite(run_s) && isfinite(bound) && factor > 0 &&
           run_s - f->excess_s > factor * bound;
}
