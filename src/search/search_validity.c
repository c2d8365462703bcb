/* search_validity.c — the chance that an evaluation will not fail, learned during the search, for spaces whose
 * oracle cannot tell in advance which configurations fail: a replay with missing configurations charged (the
 * published benchmark's counting: 78 % of its GEMM space fails), a kernel that fails to compile or to fit a
 * limit only for some values. There every failure costs an evaluation.
 *
 * The evidence is positive: most invalid configurations of real tuning spaces break a rule between two parameters
 * (a tile a multiple of a vector width, a workgroup within a size limit), and no such rule forbids a parameter value
 * or a pair of values already seen in a configuration that succeeded. So the feature of a configuration is k, the
 * number of its values and value pairs never seen in a success ("novel units", counted up to NOVEL_MAX): k = 0 is
 * made of proven parts, a large k is a leap into the unknown. How often each k succeeds is calibrated on the
 * search's own evaluations (each counted at the k it had when it was evaluated), with a prior of the overall
 * success rate, so the estimate follows the space at hand instead of a constant fitted here.
 *
 * auto (strategy_bandit.c) gives it to its members as their oracle: a configuration whose class succeeded less
 * than MIN_CHANCE of the time is ruled out, except a fixed share (EXPLORE, by a hash of the index and the seed) so
 * that the calibration keeps seeing what it rules out and a rare class can recover. Tried and not kept
 * (records/session7-issue-22-replay.md): weighing the surrogates' acquisition by the chance (constrained expected
 * improvement), a higher MIN_CHANCE, and a calibration at today's novelty made non-increasing: each ruled out more
 * and lost on convolution_A100, whose isolated optimum is reached only through untried combinations. Inert (chance
 * 1, every configuration the space's oracle accepts plausible) until something
 * failed, so a search with a complete oracle behaves exactly as without it. Deterministic; no randomness drawn. */
#include "search.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define NOVEL_MAX 8          /* k is counted up to this; more is "very novel" */
#define PRIOR_WEIGHT 2.0     /* pseudo-evaluations of the overall success rate in each k's estimate */
#define MIN_CHANCE 0.1      /* rules out configurations less likely than this to succeed (0.02..0.4 tried) */
#define EXPLORE 0.2         /* share of ruled-out configurations let through anyway (0.05..0.25 tried) */
#define MAX_UNITS (1u << 24) /* larger spaces get no model (each unit costs 4 bytes) */

struct vkat_validity {
    vkat_search_space base; /* the space's own oracle, asked first */
    uint64_t seed;
    size_t np, vp;      /* parameters; those with more than one value (units are made of these only) */
    size_t *var;        /* [vp]: the parameter of each varying slot */
    size_t *single;     /* [vp]: the first unit of each varying parameter's values */
    size_t *pair;       /* [vp * vp]: the first unit of each pair of slots (i < j) */
    uint32_t *cleared;  /* [units]: successes holding the unit */
    double tried[NOVEL_MAX + 1], succeeded[NOVEL_MAX + 1]; /* evaluations by their novelty when evaluated */
    double all_tried, all_succeeded;
    vkat_index_map counted; /* configurations already in the calibration */
};

/* Novel units of choice, counted up to limit. */
static unsigned novel_units(const vkat_validity *v, const uint32_t *choice, unsigned limit)
{
    unsigned k = 0;
    for (size_t i = 0; i < v->vp && k < limit; i++) {
        uint32_t a = choice[v->var[i]];
        k += !v->cleared[v->single[i] + a];
        for (size_t j = i + 1; j < v->vp && k < limit; j++)
            k += !v->cleared[v->pair[i * v->vp + j] + (size_t)a * v->base.value_counts[v->var[j]] + choice[v->var[j]]];
    }
    return k;
}

static void clear_units(vkat_validity *v, const uint32_t *choice)
{
    for (size_t i = 0; i < v->vp; i++) {
        uint32_t a = choice[v->var[i]];
        v->cleared[v->single[i] + a]++;
        for (size_t j = i + 1; j < v->vp; j++)
            v->cleared[v->pair[i * v->vp + j] + (size_t)a * v->base.value_counts[v->var[j]] + choice[v->var[j]]]++;
    }
}

void vkat_validity_free(vkat_validity *v)
{
    if (!v)
        return;
    free(v->var);
    free(v->single);
    free(v->pair);
    free(v->cleared);
    vkat_index_map_free(&v->counted);
    free(v);
}

vkat_validity *vkat_validity_create(const vkat_search_space *space, uint64_t seed)
{
    vkat_validity *v = calloc(1, sizeof *v);
    size_t n = space->param_count ? space->param_count : 1;
    if (!v || !(v->var = calloc(n, sizeof *v->var)) || !(v->single = calloc(n, sizeof *v->single)) ||
        !(v->pair = calloc(n * n, sizeof *v->pair))) {
        vkat_validity_free(v);
        return NULL;
    }
    v->base = *space;
    v->seed = seed;
    v->np = space->param_count;
    for (size_t p = 0; p < v->np; p++)
        if (space->value_counts[p] > 1)
            v->var[v->vp++] = p;
    size_t units = 0;
    for (size_t i = 0; i < v->vp && units <= MAX_UNITS; i++) {
        size_t ci = space->value_counts[v->var[i]];
        v->single[i] = units;
        units += ci;
        for (size_t j = i + 1; j < v->vp && units <= MAX_UNITS; j++) {
            v->pair[i * v->vp + j] = units;
            units += ci * space->value_counts[v->var[j]];
        }
    }
    if (units > MAX_UNITS) {
        v->vp = 0; /* no model: nothing novel, and the chance stays the overall rate */
        units = 0;
    }
    if (!(v->cleared = calloc(units ? units : 1, sizeof *v->cleared))) {
        vkat_validity_free(v);
        return NULL;
    }
    return v;
}

void vkat_validity_observe(vkat_validity *v, const uint32_t *choice, double seconds)
{
    if (!v)
        return;
    int added = 0;
    if (vkat_index_map_put(&v->counted, vkat_search_encode(&v->base, choice), 0, 0, &added) == SIZE_MAX || !added)
        return; /* a repeat (answered from memory) is no new evidence */
    int ok = isfinite(seconds) != 0;
    unsigned k = novel_units(v, choice, NOVEL_MAX);
    v->tried[k]++;
    v->succeeded[k] += ok;
    v->all_tried++;
    v->all_succeeded += ok;
    if (ok)
        clear_units(v, choice);
}

double vkat_validity_chance(const vkat_validity *v, const uint32_t *choice)
{
    if (!v || v->all_succeeded == v->all_tried)
        return 1; /* nothing failed: nothing to learn from */
    double prior = (v->all_succeeded + 1) / (v->all_tried + 2);
    unsigned k = novel_units(v, choice, NOVEL_MAX);
    return (v->succeeded[k] + PRIOR_WEIGHT * prior) / (v->tried[k] + PRIOR_WEIGHT);
}

int vkat_validity_plausible(void *ctx, const uint32_t *choice)
{
    const vkat_validity *v = ctx;
    if (v->base.valid && !v->base.valid(v->base.valid_ctx, choice))
        return 0;
    if (vkat_validity_chance(v, choice) >= MIN_CHANCE)
        return 1;
    /* A fixed share let through: a hash of the configuration and the seed, so always or never within a search. */
    uint64_t h = vkat_search_encode(&v->base, choice) ^ v->seed;
    return vkat_rng_uniform(&h) < EXPLORE;
}

void vkat_validity_attach(vkat_validity *v, vkat_search_space *space)
{
    space->valid = vkat_validity_plausible;
    space->valid_ctx = v;
}
