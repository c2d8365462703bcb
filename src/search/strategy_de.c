/* strategy_de.c — differential evolution on the value indices (each parameter's position in its value list, a
 * number to add and scale): current-to-best/1 with binomial crossover, rounded to the nearest index, and moved to
 * a valid unseen neighbour when the result is invalid or known. Steady state: a trial replaces its target as soon
 * as it is observed and no worse. Categorical parameters take one of the parents' values. */
#include "search.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NP 16
#define F 0.6
#define CR 0.5
#define PENDING_CAP 256

typedef struct de_state {
    vkat_search_space sp;
    uint64_t rng;
    uint32_t *pop; /* [NP][param_count] */
    double pop_s[NP];
    size_t count, next_target, best;
    uint64_t pending[PENDING_CAP]; /* encoded trial */
    size_t pending_target[PENDING_CAP], pending_count;
    vkat_index_map seen;
} de_state;

static void de_destroy(void *state)
{
    de_state *s = state;
    if (!s)
        return;
    free(s->pop);
    vkat_index_map_free(&s->seen);
    free(s);
}

static void *de_create(const vkat_search_space *space, uint64_t seed)
{
    de_state *s = calloc(1, sizeof *s);
    if (!s || !(s->pop = calloc(NP * (space->param_count ? space->param_count : 1), sizeof *s->pop))) {
        de_destroy(s);
        return NULL;
    }
    s->sp = *space;
    s->rng = seed ^ 0x6a09e667f3bcc909ull;
    return s;
}

static size_t other(de_state *s, size_t not1, size_t not2)
{
    size_t k;
    do
        k = (size_t)vkat_rng_below(&s->rng, s->count);
    while ((k == not1 || k == not2) && s->count > 2);
    return k;
}

static bool de_propose(void *state, uint32_t *choice)
{
    de_state *s = state;
    size_t n = s->sp.param_count;
    if (s->seen.count >= s->sp.raw_count)
        return false;
    bool ok = false;
    size_t target = SIZE_MAX;
    if (s->count >= 4) {
        target = s->next_target++ % s->count;
        const uint32_t *x = s->pop + target * n, *best = s->pop + s->best * n;
        size_t ia = other(s, target, s->best), ib = other(s, target, ia);
        const uint32_t *a = s->pop + ia * n, *b = s->pop + ib * n;
        size_t forced = (size_t)vkat_rng_below(&s->rng, n ? n : 1);
        for (size_t i = 0; i < n; i++) {
            choice[i] = x[i];
            if (i != forced && vkat_rng_uniform(&s->rng) >= CR)
                continue;
            if (s->sp.categorical && s->sp.categorical[i]) {
                choice[i] = (vkat_rng_next(&s->rng) & 1) ? best[i] : a[i];
                continue;
            }
            double v = x[i] + F * ((double)best[i] - x[i]) + F * ((double)a[i] - (double)b[i]);
            double hi = (double)s->sp.value_counts[i] - 1;
            v = floor(v + 0.5);
            choice[i] = (uint32_t)(v < 0 ? 0 : v > hi ? hi : v);
        }
        ok = vkat_search_valid(&s->sp, choice) && vkat_search_unseen(&s->sp, &s->seen, choice);
        if (!ok) {
            uint32_t *trial = malloc((n ? n : 1) * sizeof *trial);
            if (trial) {
                memcpy(trial, choice, n * sizeof *trial);
                ok = vkat_search_neighbour(&s->sp, &s->rng, trial, choice, 2, 0.1, &s->seen, 48) &&
                     vkat_search_unseen(&s->sp, &s->seen, choice);
                free(trial);
            }
        }
    }
    if (!ok) {
        target = SIZE_MAX;
        if (!vkat_search_fallback(&s->sp, &s->rng, &s->seen, choice))
            return false;
    }
    uint64_t idx = vkat_search_encode(&s->sp, choice);
    vkat_index_map_put(&s->seen, idx, INFINITY, 0, NULL);
    if (target != SIZE_MAX && s->pending_count < PENDING_CAP) {
        s->pending[s->pending_count] = idx;
        s->pending_target[s->pending_count++] = target;
    }
    return true;
}

static void de_observe(void *state, const uint32_t *choice, double seconds)
{
    de_state *s = state;
    size_t n = s->sp.param_count;
    uint64_t idx = vkat_search_encode(&s->sp, choice);
    vkat_index_map_put(&s->seen, idx, seconds, 0, NULL);
    size_t target = SIZE_MAX;
    for (size_t i = 0; i < s->pending_count; i++)
        if (s->pending[i] == idx) {
            target = s->pending_target[i];
            s->pending[i] = s->pending[--s->pending_count];
            s->pending_target[i] = s->pending_target[s->pending_count];
            break;
        }
    if (!isfinite(seconds))
        return;
    for (size_t i = 0; i < s->count; i++)
        if (!memcmp(s->pop + i * n, choice, n * sizeof *choice))
            return;
    if (target == SIZE_MAX && s->count < NP) {
        target = s->count++; /* initialisation */
    } else if (target == SIZE_MAX) {
        /* News from elsewhere (or a trial whose target record was dropped): it may replace the worst. */
        target = 0;
        for (size_t i = 1; i < s->count; i++)
            if (s->pop_s[i] > s->pop_s[target])
                target = i;
        if (seconds >= s->pop_s[target])
            return;
    } else if (seconds > s->pop_s[target])
        return;
    memcpy(s->pop + target * n, choice, n * sizeof *choice);
    s->pop_s[target] = seconds;
    if (s->count == 1 || seconds <= s->pop_s[s->best])
        s->best = target;
}

const vkat_strategy_ops vkat_strategy_de = {
    "de", "differential evolution (current-to-best/1/bin) on value indices", de_create, de_propose, de_observe,
    de_destroy,
};
