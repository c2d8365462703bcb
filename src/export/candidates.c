/* candidates.c — the diverse candidates an export carries for runtime tuning: beside each device's winner, the
 * configurations best on average across the exported series (a device that was never tuned runs the one that
 * measures fastest there; vkautotune_runtime_tune.h). Reads the store only; must not compile, measure or write. */
#include "candidates.h"
#include "compare.h"
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct series {
    vkat_row *rows; /* ok rows, by median */
    size_t count;
} series;

typedef struct scored {
    const vkat_row *row; /* the row of the series where the fraction is highest */
    size_t series;
    double mean, best;
} scored;

static int by_score(const void *pa, const void *pb)
{
    const scored *a = pa, *b = pb;
    if (a->mean != b->mean)
        return a->mean > b->mean ? -1 : 1;
    return strcmp(a->row->config, b->row->config);
}

static int is_winner(const vkat_row *winners, size_t n, const char *config)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(winners[i].config, config))
            return 1;
    return 0;
}

vkat_result vkat_export_candidates(vkat_store *st, const vkat_row *winners, size_t n, size_t max, vkat_candidate **out,
                                   size_t *count, vkat_error *err)
{
    *out = NULL;
    *count = 0;
    size_t distinct = 0;
    for (size_t i = 0; i < n; i++)
        distinct += !is_winner(winners, i, winners[i].config);
    if (n == 0 || distinct >= max)
        return VKAT_OK;

    vkat_result r = VKAT_OK;
    series *s = calloc(n, sizeof *s);
    scored *all = NULL;
    size_t nall = 0, cap = 0;
    if (!s)
        return vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory choosing candidates");
    for (size_t i = 0; i < n && !r; i++)
        r = vkat_store_rows(st, &winners[i], 0, &s[i].rows, &s[i].count, err);
    if (r)
        goto done;

    /* Every configuration measured correctly somewhere, once, with its mean fraction over all series. */
    for (size_t i = 0; i < n; i++) {
        for (size_t k = 0; k < s[i].count; k++) {
            const vkat_row *row = &s[i].rows[k];
            int seen = is_winner(winners, n, row->config);
            for (size_t a = 0; a < nall && !seen; a++)
                seen = !strcmp(all[a].row->config, row->config);
            if (seen)
                continue;
            if (nall == cap) {
                size_t ncap = cap ? 2 * cap : 64;
                scored *na = realloc(all, ncap * sizeof *na);
                if (!na) {
                    r = vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory choosing candidates");
                    goto done;
                }
                all = na;
                cap = ncap;
            }
            scored *c = &all[nall++];
            *c = (scored){row, i, 0, -1};
            for (size_t j = 0; j < n; j++) {
                int state;
                double f = vkat_portability_fraction(s[j].rows, s[j].count, s[j].count, row->config, &state);
                if (state != VKAT_PORT_OK || !isfinite(f))
                    continue;
                c->mean += f / (double)n;
                if (f > c->best) {
                    c->best = f;
                    c->series = j;
                    for (size_t q = 0; q < s[j].count; q++)
                        if (!strcmp(s[j].rows[q].config, row->config))
                            c->row = &s[j].rows[q];
                }
            }
        }
    }
    if (nall) /* all is NULL when no configuration was measured anywhere */
        qsort(all, nall, sizeof *all, by_score);
    size_t take = max - distinct < nall ? max - distinct : nall;
    if (take) {
        *out = malloc(take * sizeof **out);
        if (!*out) {
            r = vkat_fail(err, VKAT_ERR_NOMEM, NULL, 0, "out of memory choosing candidates");
            goto done;
        }
        for (size_t i = 0; i < take; i++)
            (*out)[i] = (vkat_candidate){*all[i].row, all[i].series, all[i].mean};
        *count = take;
    }
done:
    for (size_t i = 0; i < n; i++)
        free(s[i].rows);
    free(s);
    free(all);
    return r;
}
