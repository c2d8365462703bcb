/* strategy_annealing.c — simulated annealing over the neighbourhoods of search_common.c: a walk that accepts a
 * worse neighbour with probability exp(-relative loss / temperature), cools geometrically, and reheats from the
 * best point after a long stretch without improvement (the budget is unknown to a strategy, so one cooling
 * schedule cannot be fitted to it). It knows the space only through observations and the validity oracle. */
#include "search.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define T_START 0.15   /* relative loss accepted with probability 1/e at the start */
#define T_MIN 0.002
#define COOLING 0.96   /* per observation */
#define REHEAT_AFTER 40 /* observations without a new best */

typedef struct sa_state {
    vkat_search_space sp;
    uint64_t rng;
    uint32_t *cur, *best, *tmp;
    double cur_s, best_s, temp;
    int have_cur;
    uint64_t stale;
    vkat_index_map seen; /* proposed or observed */
} sa_state;

static void sa_destroy(void *state)
{
    sa_state *s = state;
    if (!s)
        return;
    free(s->cur);
    free(s->best);
    free(s->tmp);
    vkat_index_map_free(&s->seen);
    free(s);
}

static void *sa_create(const vkat_search_space *space, uint64_t seed)
{
    sa_state *s = calloc(1, sizeof *s);
    size_t n = space->param_count ? space->param_count : 1;
    if (!s || !(s->cur = calloc(n, sizeof *s->cur)) || !(s->best = calloc(n, sizeof *s->best)) ||
        !(s->tmp = calloc(n, sizeof *s->tmp))) {
        sa_destroy(s);
        return NULL;
    }
    s->sp = *space;
    s->rng = seed ^ 0x5a5a5a5a5a5a5a5aull;
    s->cur_s = s->best_s = INFINITY;
    s->temp = T_START;
    return s;
}

/* A valid configuration not proposed before, when one can be found quickly; else a valid known one. */
static bool sa_random(sa_state *s, uint32_t *choice)
{
    for (int t = 0; t < 64; t++)
        if (vkat_search_random_valid(&s->sp, &s->rng, choice, 256) &&
            vkat_index_map_find(&s->seen, vkat_search_encode(&s->sp, choice)) == SIZE_MAX)
            return true;
    return vkat_search_random_valid(&s->sp, &s->rng, choice, 4096);
}

static bool sa_propose(void *state, uint32_t *choice)
{
    sa_state *s = state;
    if (s->seen.count >= s->sp.raw_count)
        return false;
    bool ok = false;
    if (s->have_cur)
        ok = vkat_search_neighbour(&s->sp, &s->rng, s->cur, choice, 2, 0.1, &s->seen, 32) &&
             vkat_index_map_find(&s->seen, vkat_search_encode(&s->sp, choice)) == SIZE_MAX;
    if (!ok && !sa_random(s, choice))
        return false;
    vkat_index_map_put(&s->seen, vkat_search_encode(&s->sp, choice), INFINITY, 0, NULL);
    return true;
}

static void sa_observe(void *state, const uint32_t *choice, double seconds)
{
    sa_state *s = state;
    size_t n = s->sp.param_count;
    vkat_index_map_put(&s->seen, vkat_search_encode(&s->sp, choice), seconds, 0, NULL);
    if (!isfinite(seconds))
        return;
    if (seconds < s->best_s) {
        s->best_s = seconds;
        memcpy(s->best, choice, n * sizeof *choice);
        s->stale = 0;
    } else if (++s->stale >= REHEAT_AFTER) {
        memcpy(s->cur, s->best, n * sizeof *choice);
        s->cur_s = s->best_s;
        s->temp = T_START;
        s->stale = 0;
        return;
    }
    double loss = (seconds - s->cur_s) / s->cur_s;
    if (!s->have_cur || loss <= 0 || vkat_rng_uniform(&s->rng) < exp(-loss / s->temp)) {
        memcpy(s->cur, choice, n * sizeof *choice);
        s->cur_s = seconds;
        s->have_cur = 1;
    }
    s->temp = fmax(T_MIN, s->temp * COOLING);
}

const vkat_strategy_ops vkat_strategy_annealing = {
    "annealing", "simulated annealing with reheats from the best point", sa_create, sa_propose, sa_observe,
    sa_destroy,
};
