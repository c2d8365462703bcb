/* strategy_model.c — the surrogate-model strategies. Both fit log(time) of the points measured so far (failures
 * count as slower than anything seen), score a pool of unseen valid candidates — neighbours of the best points and
 * random ones — and propose the candidate with the best acquisition:
 * - "model": a k-nearest-neighbour regression (distance: index steps scaled by each list's length, 0/1 for
 *   categorical parameters); lower confidence bound = predicted log time minus the spread of its neighbours and
 *   its distance to anything measured. Refitted on every proposal (there is nothing to fit).
 * - "forest": a random forest of regression trees (search_forest.c), which learns effects of a parameter that
 *   hold across the space rather than near measured points; lower confidence bound = mean of the trees minus the
 *   spread between them. Refitted as the sample grows by a fixed share, so a search of N points costs O(log N)
 *   fits.
 * - "gp": a Gaussian process (search_gp.c), whose uncertainty grows away from the measured points, with expected
 *   improvement: it can prefer an unmeasured region whose neighbours suggest it might hold something better, where
 *   the forest's spread (disagreement of trees fitted to the same points) stays small. Cheap by construction: at
 *   most GP_POINTS points (the best half of them and a random half of the rest once the sample is larger), refitted
 *   on the forest's schedule, each point in between added by a one-row Cholesky update. */
#include "search.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define INIT 12 /* random points before the model is trusted */
#define ELITE 5
/* model (k nearest neighbours) */
#define CANDIDATES 48
#define K 5
#define KAPPA 0.5
/* forest, chosen on the four shared tables (records/strategies-session2.md, third section) */
#define TREES 16
#define DEPTH 12
#define LEAF 2
#define SHARE 0.8 /* of the parameters tried at each split */
#define FOREST_KAPPA 1.0
#define LOCAL_CANDIDATES 128  /* neighbours of the best points */
#define RANDOM_CANDIDATES 192 /* random unseen valid points */
#define REFIT 16 /* refit once the sample has grown by 1/16 */
/* gp */
#define GP_POINTS 160 /* most points a GP holds: fits cost O(n^3), predictions O(n^2) per candidate */
#define POOL (LOCAL_CANDIDATES + RANDOM_CANDIDATES)
#define GP_FIT 128    /* points chosen at a fit; the rest of GP_POINTS takes the points added until the next */

typedef struct model_state {
    vkat_search_space sp;
    uint64_t rng;
    uint32_t *x;   /* [cap][param_count] observed */
    double *y;     /* log seconds, NAN for failures */
    double *fit_y; /* forest: y with failures as slower than anything seen */
    size_t count, cap, fitted;
    double worst_y, best_y;
    uint32_t *cand;
    double *scale; /* model: per parameter, 1 / (value_count - 1) */
    size_t elite[ELITE], elite_count;
    vkat_forest *forest; /* NULL: the k-nearest-neighbour model (or the GP) */
    vkat_gp *gp;         /* non-NULL: the GP */
    uint32_t *gp_x;      /* [GP_FIT][param_count]: the points of a GP fit */
    double *gp_y;
    size_t *order;       /* [2 cap]: point indices, for choosing a GP fit's points */
    uint32_t *pool;      /* gp: [POOL][param_count] candidates of one proposal */
    double *pool_mu, *pool_bound;
    vkat_index_map seen;
} model_state;

static void model_destroy(void *state)
{
    model_state *s = state;
    if (!s)
        return;
    free(s->x);
    free(s->y);
    free(s->fit_y);
    free(s->cand);
    free(s->scale);
    vkat_forest_free(s->forest);
    vkat_gp_free(s->gp);
    free(s->gp_x);
    free(s->gp_y);
    free(s->order);
    free(s->pool);
    free(s->pool_mu);
    free(s->pool_bound);
    vkat_index_map_free(&s->seen);
    free(s);
}

static model_state *create(const vkat_search_space *space, uint64_t seed)
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
    s->best_y = INFINITY;
    for (size_t i = 0; i < space->param_count; i++)
        s->scale[i] = space->value_counts[i] > 1 ? 1.0 / (double)(space->value_counts[i] - 1) : 0;
    return s;
}

static void *model_create(const vkat_search_space *space, uint64_t seed)
{
    return create(space, seed);
}

static void *forest_create(const vkat_search_space *space, uint64_t seed)
{
    model_state *s = create(space, seed);
    if (!s)
        return NULL;
    vkat_forest_params fp = {TREES, DEPTH, LEAF, SHARE};
    if (!(s->forest = vkat_forest_create(&s->sp, &fp, vkat_rng_next(&s->rng)))) {
        model_destroy(s);
        return NULL;
    }
    return s;
}

static void *gp_create(const vkat_search_space *space, uint64_t seed)
{
    model_state *s = create(space, seed);
    size_t n = space->param_count ? space->param_count : 1;
    if (!s || !(s->gp = vkat_gp_create(&s->sp, GP_POINTS)) || !(s->gp_x = calloc(GP_FIT * n, sizeof *s->gp_x)) ||
        !(s->gp_y = calloc(GP_FIT, sizeof *s->gp_y)) || !(s->pool = calloc(POOL * n, sizeof *s->pool)) ||
        !(s->pool_mu = calloc(POOL, sizeof *s->pool_mu)) || !(s->pool_bound = calloc(POOL, sizeof *s->pool_bound))) {
        model_destroy(s);
        return NULL;
    }
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

/* Refits the forest once the sample has grown by a 1/REFIT share since the last fit. */
static int refit(model_state *s)
{
    size_t step = s->fitted / REFIT;
    if (s->fitted && s->count < s->fitted + (step ? step : 1))
        return 1;
    for (size_t j = 0; j < s->count; j++)
        s->fit_y[j] = isnan(s->y[j]) ? s->worst_y + 0.5 : s->y[j];
    s->fitted = s->count;
    return vkat_forest_fit(s->forest, s->x, s->fit_y, s->count);
}

/* Chooses a GP fit's points: all while they fit, else the best half and a random half of the rest (the best say
 * where to look, the others keep the model honest about the regions already ruled out). */
static int gp_refit(model_state *s)
{
    size_t n = s->sp.param_count, m = s->count;
    for (size_t j = 0; j < m; j++)
        s->fit_y[j] = isnan(s->y[j]) ? s->worst_y + 0.5 : s->y[j];
    if (m <= GP_FIT) {
        s->fitted = m;
        return vkat_gp_fit(s->gp, s->x, s->fit_y, m);
    }
    size_t *o = realloc(s->order, 2 * m * sizeof *o), half = GP_FIT / 2, nb = 0, rest = half;
    if (!o)
        return 0;
    s->order = o;
    /* The half best by insertion into a sorted prefix (GP_FIT is small), the others after them. */
    size_t *spill = o + m; /* points pushed out of the prefix or never in it */
    size_t ns = 0;
    for (size_t j = 0; j < m; j++) {
        size_t v = j;
        if (nb == half) {
            if (s->fit_y[v] >= s->fit_y[o[half - 1]]) {
                spill[ns++] = v;
                continue;
            }
            spill[ns++] = o[--nb];
        }
        size_t at = nb++;
        while (at > 0 && s->fit_y[o[at - 1]] > s->fit_y[v]) {
            o[at] = o[at - 1];
            at--;
        }
        o[at] = v;
    }
    for (size_t j = 0; j < ns; j++)
        o[rest++] = spill[j];
    /* o[0..half) are the best; a random draw without replacement from the rest. */
    for (size_t j = half; j < GP_FIT; j++) {
        size_t k = j + (size_t)vkat_rng_below(&s->rng, m - j);
        size_t t = o[j];
        o[j] = o[k];
        o[k] = t;
    }
    for (size_t j = 0; j < GP_FIT; j++) {
        memcpy(s->gp_x + j * n, s->x + o[j] * n, n * sizeof *s->gp_x);
        s->gp_y[j] = s->fit_y[o[j]];
    }
    s->fitted = m;
    return vkat_gp_fit(s->gp, s->gp_x, s->gp_y, GP_FIT);
}

/* Brings the GP up to date: a full fit on the forest's schedule, else the points observed since as updates. */
static int gp_update(model_state *s)
{
    size_t step = s->fitted / REFIT;
    if (!s->fitted || s->count >= s->fitted + (step ? step : 1) || vkat_gp_count(s->gp) >= GP_POINTS)
        return gp_refit(s);
    return 1;
}

/* Expected improvement of a normal(mu, sd) over the best log time. Increasing in sd, so EI at the prior sd bounds
 * it from above. */
static double expected_improvement(double best, double mu, double sd)
{
    if (sd < 1e-12)
        return mu < best ? best - mu : 0;
    double z = (best - mu) / sd;
    return sd * (z * 0.5 * erfc(-z / sqrt(2)) + 0.3989422804014327 * exp(-0.5 * z * z)); /* 1/sqrt(2 pi) */
}

/* The GP's pick among pool[count]: the highest expected improvement. Means first (O(n) each); the deviation
 * (O(n^2)) only for candidates whose bound (EI at the prior deviation) beats the best exact value so far, in
 * falling order of that bound: the same pick as scoring all, at a fraction of the cost. Ties: lower index. */
static size_t gp_pick(model_state *s, const uint32_t *pool, size_t count)
{
    size_t n = s->sp.param_count, pick = SIZE_MAX;
    double prior = vkat_gp_prior_sd(s->gp), best = -1;
    for (size_t t = 0; t < count; t++) {
        double mu;
        vkat_gp_predict(s->gp, pool + t * n, &mu, NULL);
        s->pool_mu[t] = mu;
        s->pool_bound[t] = expected_improvement(s->best_y, mu, prior);
    }
    for (;;) {
        size_t next = SIZE_MAX;
        for (size_t t = 0; t < count; t++)
            if (s->pool_bound[t] >= 0 && (next == SIZE_MAX || s->pool_bound[t] > s->pool_bound[next]))
                next = t;
        if (next == SIZE_MAX || s->pool_bound[next] < best)
            return pick;
        double mu, sd;
        vkat_gp_predict(s->gp, pool + next * n, &mu, &sd);
        double ei = expected_improvement(s->best_y, mu, sd);
        if (ei > best || (ei == best && next < pick)) {
            best = ei;
            pick = next;
        }
        s->pool_bound[next] = -1; /* done */
    }
}

/* Lower is better: the acquisition of candidate c. */
static double acquisition(const model_state *s, const uint32_t *c)
{
    if (!s->forest)
        return lcb(s, c);
    double mu, sd;
    vkat_forest_predict(s->forest, c, &mu, &sd);
    return mu - FOREST_KAPPA * sd;
}

static bool model_propose(void *state, uint32_t *choice)
{
    model_state *s = state;
    size_t n = s->sp.param_count;
    if (s->seen.count >= s->sp.raw_count)
        return false;
    bool ok = false;
    int pooled = s->forest || s->gp; /* the surrogates with the larger pool, local candidates first */
    if (s->count >= INIT && s->elite_count > 0 && (s->forest ? refit(s) : s->gp ? gp_update(s) : 1)) {
        double best = INFINITY;
        int local = pooled ? LOCAL_CANDIDATES : CANDIDATES * 3 / 4,
            total = pooled ? LOCAL_CANDIDATES + RANDOM_CANDIDATES : CANDIDATES;
        size_t pooled_count = 0;
        for (int t = 0; t < total; t++) {
            bool got;
            /* The model interleaves (every fourth a random one); the forest draws its local ones first. */
            if (pooled ? t >= local : t % 4 == 3)
                got = vkat_search_random_valid(&s->sp, &s->rng, s->cand, pooled ? 64 : 256);
            else {
                const uint32_t *from = s->x + s->elite[(size_t)vkat_rng_below(&s->rng, s->elite_count)] * n;
                got = vkat_search_neighbour(&s->sp, &s->rng, from, s->cand, 3, 0.1, &s->seen, 16);
            }
            if (!got || !vkat_search_unseen(&s->sp, &s->seen, s->cand))
                continue;
            if (s->gp) { /* scored together below */
                memcpy(s->pool + (size_t)pooled_count++ * n, s->cand, n * sizeof *s->cand);
                continue;
            }
            double v = acquisition(s, s->cand);
            if (v < best) {
                best = v;
                memcpy(choice, s->cand, n * sizeof *choice);
                ok = true;
            }
        }
        size_t pick = s->gp && pooled_count ? gp_pick(s, s->pool, pooled_count) : SIZE_MAX;
        if (pick != SIZE_MAX) {
            memcpy(choice, s->pool + pick * n, n * sizeof *choice);
            ok = true;
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
        if (y)
            s->y = y;
        double *fy = y ? realloc(s->fit_y, cap * sizeof *fy) : NULL;
        if (!fy)
            return; /* out of memory: the model learns nothing more, the search goes on */
        s->fit_y = fy;
        s->cap = cap;
    }
    memcpy(s->x + s->count * n, choice, n * sizeof *choice);
    double y = isfinite(seconds) && seconds > 0 ? log(seconds) : NAN;
    s->y[s->count] = y;
    size_t j = s->count++;
    /* A GP takes each new point as an update until its next fit (a failure as slower than anything seen). */
    if (s->gp && s->fitted && vkat_gp_count(s->gp))
        vkat_gp_add(s->gp, choice, isnan(y) ? s->worst_y + 0.5 : y);
    if (isnan(y))
        return;
    if (y > s->worst_y)
        s->worst_y = y;
    if (y < s->best_y)
        s->best_y = y;
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

const vkat_strategy_ops vkat_strategy_gp = {
    "gp", "surrogate model: a Gaussian process, expected improvement, picks among candidates", gp_create,
    model_propose, model_observe, model_destroy,
};

const vkat_strategy_ops vkat_strategy_forest = {
    "forest", "surrogate model: a random forest of regression trees, mean minus spread, picks among candidates",
    forest_create, model_propose, model_observe, model_destroy,
};
