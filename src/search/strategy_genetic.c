/* strategy_genetic.c — a steady-state genetic algorithm: a population of the best distinct configurations
 * observed, children by binary tournament, uniform crossover and per-parameter mutation (neighbourhood steps of
 * search_common.c), repaired to valid ones with the free oracle. Steady state rather than generations, because
 * observations arrive one at a time and several children are in flight at once. */
#include "search.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define POP 20
#define TRIES 32

typedef struct ga_state {
    vkat_search_space sp;
    uint64_t rng;
    uint32_t *pop; /* [POP][param_count] */
    double pop_s[POP];
    size_t count;
    vkat_index_map seen;
} ga_state;

static void ga_destroy(void *state)
{
    ga_state *s = state;
    if (!s)
        return;
    free(s->pop);
    vkat_index_map_free(&s->seen);
    free(s);
}

static void *ga_create(const vkat_search_space *space, uint64_t seed)
{
    ga_state *s = calloc(1, sizeof *s);
    if (!s || !(s->pop = calloc(POP * (space->param_count ? space->param_count : 1), sizeof *s->pop))) {
        ga_destroy(s);
        return NULL;
    }
    s->sp = *space;
    s->rng = seed ^ 0x3c6ef372fe94f82bull;
    return s;
}

static const uint32_t *tournament(ga_state *s)
{
    size_t a = (size_t)vkat_rng_below(&s->rng, s->count), b = (size_t)vkat_rng_below(&s->rng, s->count);
    return s->pop + (s->pop_s[a] <= s->pop_s[b] ? a : b) * s->sp.param_count;
}

static bool ga_propose(void *state, uint32_t *choice)
{
    ga_state *s = state;
    size_t n = s->sp.param_count;
    if (s->seen.count >= s->sp.raw_count)
        return false;
    bool ok = false;
    for (int t = 0; t < TRIES && !ok && s->count >= 2; t++) {
        const uint32_t *a = tournament(s), *b = tournament(s);
        for (size_t i = 0; i < n; i++)
            choice[i] = (vkat_rng_next(&s->rng) & 1) ? a[i] : b[i];
        int mutated = 0;
        for (size_t i = 0; i < n; i++)
            if (vkat_rng_uniform(&s->rng) * (double)n < 1.0)
                mutated |= vkat_search_step(&s->sp, &s->rng, choice, i, 0.2);
        if (!mutated || !vkat_search_unseen(&s->sp, &s->seen, choice)) {
            for (size_t i = 0; i < n; i++)
                if (vkat_search_step(&s->sp, &s->rng, choice, (size_t)vkat_rng_below(&s->rng, n), 0.2))
                    break;
        }
        ok = vkat_search_valid(&s->sp, choice) && vkat_search_unseen(&s->sp, &s->seen, choice);
    }
    if (!ok && !vkat_search_fallback(&s->sp, &s->rng, &s->seen, choice))
        return false;
    vkat_index_map_put(&s->seen, vkat_search_encode(&s->sp, choice), INFINITY, 0, NULL);
    return true;
}

static void ga_observe(void *state, const uint32_t *choice, double seconds)
{
    ga_state *s = state;
    size_t n = s->sp.param_count;
    int added;
    size_t slot = vkat_index_map_put(&s->seen, vkat_search_encode(&s->sp, choice), seconds, 0, &added);
    if (slot != SIZE_MAX && !added && s->seen.tags[slot])
        return; /* already in the population or rejected once */
    if (slot != SIZE_MAX) {
        s->seen.values[slot] = seconds;
        s->seen.tags[slot] = 1;
    }
    if (!isfinite(seconds))
        return;
    size_t at = s->count;
    if (s->count == POP) {
        at = 0;
        for (size_t i = 1; i < POP; i++)
            if (s->pop_s[i] > s->pop_s[at])
                at = i;
        if (seconds >= s->pop_s[at])
            return;
    } else
        s->count++;
    memcpy(s->pop + at * n, choice, n * sizeof *choice);
    s->pop_s[at] = seconds;
}

const vkat_strategy_ops vkat_strategy_genetic = {
    "genetic", "steady-state genetic algorithm: tournament, uniform crossover, neighbourhood mutation", ga_create,
    ga_propose, ga_observe, ga_destroy,
};
