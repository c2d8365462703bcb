/* strategy_local.c — greedy iterated local search: first-improvement hill climbing over the one-step
 * neighbourhood (adjacent values of ordered parameters, all values of categorical ones), in random order; at a
 * local optimum, a kick from the best point starts the next climb — a few random steps, or one parameter moved to
 * any other value (mostly so just after the best point improved) — or now and then a restart in the least explored
 * region of the space. */
#include "search.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define KICK_STEPS 3
#define RESTART 0.3 /* probability that a kick is a restart far from everything seen */
/* Share of the other kicks that move one parameter of the best point to any other value. Along one ordered
 * parameter time need not be unimodal (a tile size interacts with the workgroup): an optimum a few values away,
 * behind worse ones, is out of reach of adjacent steps, and a kick of several random steps rarely changes one
 * parameter alone. 0.35: the best of 0.35 / 0.5 / 0.7 on the four shared tables after 400 and 800 (0.5 and 0.7 do
 * better on convolution_A100 alone, and 0.5 lost a held-out table after 800); records/strategies-session4.md. */
#define LINE_KICK 0.35
/* The share among the first FRESH_KICKS kicks (restarts included) after the best point last improved, whoever
 * found it. A new best's one-parameter lines are the likeliest way on: on convolution_A100, kicks that changed one
 * parameter of the 0.911 configuration reached the optimum's basin in 29 % of cases, other kicks in about 5 %. Once
 * its lines have been sampled without success, the multi-step kicks (which a needle without a basin, synth2,
 * prefers) get their share back. 0.7 for 11 kicks: convolution_A100 after 400 0.952 -> 0.961 over seeds 0..299;
 * 0.7 for 6 and 1.0 for 6 did less there; records/strategies-session4.md. */
#define LINE_KICK_FRESH 0.7
#define FRESH_KICKS 11
#define RESTART_CANDIDATES 16 /* random points a restart chooses the farthest of */

typedef struct ls_state {
    vkat_search_space sp;
    uint64_t rng;
    uint32_t *cur, *best, *tmp;
    double cur_s, best_s;
    int have_cur;
    unsigned kicks; /* kicks since the best point last improved */
    uint64_t kick;  /* encoded index of the kick being evaluated, UINT64_MAX when none */
    uint64_t *nb;   /* neighbours of cur still to try, shuffled */
    size_t nb_count, nb_pos, nb_cap;
    vkat_index_map seen;
} ls_state;

static void ls_destroy(void *state)
{
    ls_state *s = state;
    if (!s)
        return;
    free(s->cur);
    free(s->best);
    free(s->tmp);
    free(s->nb);
    vkat_index_map_free(&s->seen);
    free(s);
}

static void *ls_create(const vkat_search_space *space, uint64_t seed)
{
    ls_state *s = calloc(1, sizeof *s);
    size_t n = space->param_count ? space->param_count : 1, cap = 0;
    for (size_t i = 0; i < space->param_count; i++)
        cap += space->value_counts[i];
    if (!s || !(s->cur = calloc(n, sizeof *s->cur)) || !(s->best = calloc(n, sizeof *s->best)) ||
        !(s->tmp = calloc(n, sizeof *s->tmp)) || !(s->nb = calloc(cap + 1, sizeof *s->nb))) {
        ls_destroy(s);
        return NULL;
    }
    s->sp = *space;
    s->nb_cap = cap + 1;
    s->rng = seed ^ 0x1f2e3d4c5b6a7988ull;
    s->cur_s = s->best_s = INFINITY;
    s->kick = UINT64_MAX;
    return s;
}

static void move_to(ls_state *s, const uint32_t *choice, double seconds)
{
    memcpy(s->cur, choice, s->sp.param_count * sizeof *choice);
    s->cur_s = seconds;
    s->have_cur = 1;
    s->nb_count = vkat_search_neighbours(&s->sp, s->cur, s->nb, s->nb_cap);
    s->nb_pos = 0;
    for (size_t i = s->nb_count; i > 1; i--) {
        size_t j = (size_t)vkat_rng_below(&s->rng, i);
        uint64_t t = s->nb[i - 1];
        s->nb[i - 1] = s->nb[j];
        s->nb[j] = t;
    }
}

static bool ls_propose(void *state, uint32_t *choice)
{
    ls_state *s = state;
    if (s->seen.count >= s->sp.raw_count)
        return false;
    bool ok = false;
    while (s->have_cur && s->nb_pos < s->nb_count && !ok) {
        uint64_t idx = s->nb[s->nb_pos++];
        if (vkat_index_map_find(&s->seen, idx) == SIZE_MAX) {
            vkat_search_decode(&s->sp, idx, choice);
            ok = true;
        }
    }
    if (!ok && s->have_cur && s->kick == UINT64_MAX) {
        /* A local optimum (every neighbour tried): kick from the best point, or now and then restart, so that a
         * basin far from the first one is found at all. A restart goes where nothing was measured yet: a uniform
         * one lands mostly in the wide basins already climbed, and an isolated optimum's basin is small. */
        if (vkat_rng_uniform(&s->rng) < RESTART)
            ok = vkat_search_far_unseen(&s->sp, &s->rng, &s->seen, RESTART_CANDIDATES, choice);
        else if (vkat_rng_uniform(&s->rng) < (s->kicks < FRESH_KICKS ? LINE_KICK_FRESH : LINE_KICK))
            ok = vkat_search_neighbour(&s->sp, &s->rng, s->best, choice, 1, 1.0, &s->seen, 64) &&
                 vkat_search_unseen(&s->sp, &s->seen, choice);
        else
            ok = vkat_search_neighbour(&s->sp, &s->rng, s->best, choice, KICK_STEPS, 0.3, &s->seen, 64) &&
                 vkat_search_unseen(&s->sp, &s->seen, choice);
        if (ok)
            s->kick = vkat_search_encode(&s->sp, choice);
        s->kicks++;
    }
    if (!ok) {
        if (!vkat_search_fallback(&s->sp, &s->rng, &s->seen, choice))
            return false;
    }
    vkat_index_map_put(&s->seen, vkat_search_encode(&s->sp, choice), INFINITY, 0, NULL);
    return true;
}

static void ls_observe(void *state, const uint32_t *choice, double seconds)
{
    ls_state *s = state;
    uint64_t idx = vkat_search_encode(&s->sp, choice);
    vkat_index_map_put(&s->seen, idx, seconds, 0, NULL);
    int was_kick = idx == s->kick;
    if (was_kick)
        s->kick = UINT64_MAX;
    if (seconds < s->best_s) {
        s->best_s = seconds;
        s->kicks = 0;
        memcpy(s->best, choice, s->sp.param_count * sizeof *choice);
    }
    /* A kick is accepted whatever it scored: the climb from it decides whether it led anywhere. */
    if (isfinite(seconds) && (seconds < s->cur_s || was_kick || !s->have_cur))
        move_to(s, choice, seconds);
}

const vkat_strategy_ops vkat_strategy_local = {
    "local", "greedy iterated local search: first-improvement climbs, kicks from the best point", ls_create,
    ls_propose, ls_observe, ls_destroy,
};
