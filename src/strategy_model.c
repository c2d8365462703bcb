/* strategy_model.c — a surrogate-model strategy: a k-nearest-neighbour regression of log(time) on the points
 * measured so far (distance: index steps scaled by each list's length, 0/1 for categorical parameters) scores a
 * pool of candidates — neighbours of the best points and random valid ones — and the candidate with the lowest
 * lower confidence bound (predicted log time minus the spread of its neighbours and its distance to anything
 * measured) is proposed. Cheap enough to refit on every proposal; failures count as slower than anything seen. */
#include "search.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define INIT 12       /* random points before the model is trusted */
#define CANDIDATES 48
#define K 5
#define ELITE 5
#define KAPPA 0.5

typedef struct model_state {
    vkat_search_space sp;
    uint64_t rng;
    uint32_t *x;  /* [cap][param_count] observed */
    double *y;    /* log seconds, NAN for failures */
    size_t count, cap;
    double worst_y;
    uint32_t *cand;
    double *scale; /* per parameter: 1 / (value_count - 1) */
    size_t elite[ELITE], elite_count;
    vkat_index_map seen;
} model_state;

static void model_destroy(void *state)
{
    model_state *s = state;
    if (!s)
        return;
    free(s->x);
    free(s->y);
    free(s->cand);
    free(s->scale);
    vkat_index_map_free(&s->seen);
    free(s);
}

static void *model_create(const vkat_search_space *space, uint64_t seed)
{
    model_state *s = calloc(1, sizeof *s);
    size_t n = space->param_count ? space->param_count : 1;
    if (!s || !(s->cand = calloc(n, sizeof *s->cand)) || !(s->scale = calloc(n, sizeof *s->scale))) {
        model_destroy(s);
        return NULL;
    }
    s->sp = *space;
    s->rng = seed ^ 0xbb67ae8584caa73bull;
    s->worst_y = -INFINITY;
    for (size_t i = 0; i < space->param_count; i++)
        s->scale[i] = space->value_counts[i] > 1 ? 1.0 / (double)(space->value_counts[i] - 1) : 0;
    return s;
}

/* Lower confidence bound of log time at c. */
static double lcb(const model_state *s, const uint32_t *c)
{
    size_t n = s->sp.param_count;
    double bd[K], by[K];
    size_t m = 0;
    for (size_t j = 0; j < s->count; j++) {
        const uint32_t *xj = s->x + j * n;
        double d = 0;
        for (size_t i = 0; i < n; i++) {
            if (s->sp.categorical && s->sp.categorical[i])
                d += xj[i] != c[i];
            else
                d += fabs((double)xj[i] - (double)c[i]) * s->scale[i];
        }
        double y = isnan(s->y[j]) ? s->worst_y + 0.5 : s->y[j];
        if (m < K || d < bd[m - 1]) {
            size_t at = m < K ? m++ : K - 1;
            while (at > 0 && bd[at - 1] > d) {
                bd[at] = bd[at - 1];
                by[at] = by[at - 1];
                at--;
            }
            bd[at] = d;
            by[at] = y;
        }
    }
    double wsum = 0, mean = 0;
    for (size_t i = 0; i < m; i++) {
        double w = 1.0 / (bd[i] + 1e-3);
        wsum += w;
        mean += w * by[i];
    }
    mean /= wsum;
    double var = 0;
    for (size_t i = 0; i < m; i++)
        var += (by[i] - mean) * (by[i] - mean);
    return mean - KAPPA * (sqrt(var / (double)m) + 0.5 * bd[0]);
}

static bool model_propose(void *state, uint32_t *choice)
{
    model_state *s = state;
    size_t n = s->sp.param_count;
    if (s->seen.count >= s->sp.raw_count)
        return false;
    bool ok = false;
    if (s->count >= INIT && s->elite_count > 0) {
        double best = INFINITY;
        for (int t = 0; t < CANDIDATES; t++) {
            bool got;
            if (t % 4 == 3)
                got = vkat_search_random_valid(&s->sp, &s->rng, s->cand, 256);
            else {
                const uint32_t *from = s->x + s->elite[(size_t)vkat_rng_below(&s->rng, s->elite_count)] * n;
                got = vkat_search_neighbour(&s->sp, &s->rng, from, s->cand, 3, 0.1, &s->seen, 16);
            }
            if (!got || !vkat_search_unseen(&s->sp, &s->seen, s->cand))
                continue;
            double v = lcb(s, s->cand);
            if (v < best) {
                best = v;
                memcpy(choice, s->cand, n * sizeof *choice);
                ok = true;
            }
        }
    }
    if (!ok && !vkat_search_fallback(&s->sp, &s->rng, &s->seen, choice))
        return false;
    vkat_index_map_put(&s->seen, vkat_search_encode(&s->sp, choice), INFINITY, 0, NULL);
    return true;
}

static void model_observe(void *state, const uint32_t *choice, double seconds)
{
    model_state *s = state;
    size_t n = s->sp.param_count;
    int added;
    size_t slot = vkat_index_map_put(&s->seen, vkat_search_encode(&s->sp, choice), seconds, 0, &added);
    if (slot == SIZE_MAX || s->seen.tags[slot])
        return; /* already in the model */
    s->seen.tags[slot] = 1;
    if (s->count == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 64;
        uint32_t *x = realloc(s->x, cap * (n ? n : 1) * sizeof *x);
        if (x)
            s->x = x;
        double *y = x ? realloc(s->y, cap * sizeof *y) : NULL;
        if (!y)
            return; /* out of memory: the model learns nothing more, the search goes on */
        s->y = y;
        s->cap = cap;
    }
    memcpy(s->x + s->count * n, choice, n * sizeof *choice);
    double y = isfinite(seconds) && seconds > 0 ? log(seconds) : NAN;
    s->y[s->count] = y;
    size_t j = s->count++;
    if (isnan(y))
        return;
    if (y > s->worst_y)
        s->worst_y = y;
    /* Keep the ELITE best, sorted. */
    size_t at = s->elite_count < ELITE ? s->elite_count++ : ELITE;
    if (at == ELITE) {
        if (y >= s->y[s->elite[ELITE - 1]])
            return;
        at = ELITE - 1;
    }
    while (at > 0 && s->y[s->elite[at - 1]] > y) {
        s->elite[at] = s->elite[at - 1];
        at--;
    }
    s->elite[at] = j;
}

const vkat_strategy_ops vkat_strategy_model = {
    "model", "surrogate model: k-nearest-neighbour regression of the measured points picks among candidates",
    model_create, model_propose, model_observe, model_destroy,
};
