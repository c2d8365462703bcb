/* busy.c — the rule of busy.h. */
#include "busy.h"

#include <math.h>

void vkat_busy_idle(vkat_busy *b, double gap_s, double max_gap_s)
{
    if (!(gap_s <= max_gap_s))
        b->load_s = 0;
}

void vkat_busy_ran(vkat_busy *b, double load_s)
{
    if (isfinite(load_s) && load_s > 0)
        b->load_s += load_s;
}

int vkat_busy_warm(const vkat_busy *b, double min_s, double max_gap_s)
{
    return max_gap_s > 0 && b->load_s >= min_s;
}
