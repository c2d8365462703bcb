/* search_forest.c — the surrogate of the model strategy: a small random forest (bagged regression trees) over the
 * parameters' value indices, fitted to log time. A tree splits an ordered parameter at a value index (left: at or
 * below it) and a categorical one into two sets of values (CART's trick: values sorted by their mean time, then split
 * like an ordered list), choosing among a random subset of the parameters; each tree sees a bootstrap sample. The
 * spread of the trees' predictions is the uncertainty an acquisition trades against the mean (as in SMAC).
 * Histogram splits over value indices keep a fit at O(trees x depth x points x parameters), cheap enough to refit
 * during a search. Pure computation: no search policy, no I/O. */
#include "search.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

typedef struct forest_node {
    int32_t param;        /* -1: leaf */
    uint32_t left, right; /* node indices within the tree */
    uint32_t at;          /* ordered: left when value <= at */
    uint64_t set;         /* categorical: left when bit value is set */
    double value;         /* leaf: mean log time */
} forest_node;

struct vkat_forest {
    const vkat_search_space *sp;
    vkat_forest_params p;
    size_t trees, per_tree; /* node capacity of one tree */
    forest_node *nodes;     /* [trees][per_tree] */
    size_t max_values;
    double *hist_sum, *hist_mean; /* [max_values] scratch */
    uint32_t *hist_count, *order, *params;
    uint32_t *idx; /* bootstrap sample */
    size_t idx_cap;
    const uint32_t *x;
    const double *y;
    uint64_t rng;
};

/* Categorical parameters with more values than a split set holds are split as if ordered. */
static int is_categorical(const vkat_forest *f, size_t p)
{
    return f->sp->categorical && f->sp->categorical[p] && f->sp->value_counts[p] <= 64;
}

static int goes_left(const forest_node *n, uint32_t v)
{
    return n->set ? (int)((n->set >> v) & 1) : v <= n->at;
}

vkat_forest *vkat_forest_create(const vkat_search_space *space, const vkat_forest_params *params, uint64_t seed)
{
    vkat_forest *f = calloc(1, sizeof *f);
    if (!f)
        return NULL;
    f->sp = space;
    f->p = *params;
    f->trees = f->p.trees ? f->p.trees : 1;
    f->max_values = 1;
    for (size_t i = 0; i < space->param_count; i++)
        if (space->value_counts[i] > f->max_values)
            f->max_values = space->value_counts[i];
    size_t np = space->param_count ? space->param_count : 1;
    f->hist_sum = malloc(f->max_values * sizeof *f->hist_sum);
    f->hist_mean = malloc(f->max_values * sizeof *f->hist_mean);
    f->hist_count = malloc(f->max_values * sizeof *f->hist_count);
    f->order = malloc(f->max_values * sizeof *f->order);
    f->params = malloc(np * sizeof *f->params);
    f->rng = seed ^ 0x3c6ef372fe94f82bull;
    if (!f->hist_sum || !f->hist_mean || !f->hist_count || !f->order || !f->params) {
        vkat_forest_free(f);
        return NULL;
    }
    return f;
}

void vkat_forest_free(vkat_forest *f)
{
    if (!f)
        return;
    free(f->nodes);
    free(f->hist_sum);
    free(f->hist_mean);
    free(f->hist_count);
    free(f->order);
    free(f->params);
    free(f->idx);
    free(f);
}

/* Grows the subtree of idx[0..m) into tree[] from *used on; returns its root. */
static uint32_t grow(vkat_forest *f, forest_node *tree, size_t *used, uint32_t *idx, size_t m, unsigned depth)
{
    size_t np = f->sp->param_count, min_leaf = f->p.min_leaf ? f->p.min_leaf : 1;
    uint32_t id = (uint32_t)(*used)++;
    double sum = 0;
    for (size_t i = 0; i < m; i++)
        sum += f->y[idx[i]];
    tree[id] = (forest_node){-1, 0, 0, 0, 0, sum / (double)m};
    if (m < 2 * min_leaf || depth >= f->p.max_depth || *used + 2 > f->per_tree)
        return id;
    /* A random subset of the parameters (partial Fisher-Yates), at least one. */
    size_t tries = (size_t)ceil(f->p.feature_share * (double)np);
    tries = tries < 1 ? 1 : tries > np ? np : tries;
    for (size_t i = 0; i < np; i++)
        f->params[i] = (uint32_t)i;
    double base = sum * sum / (double)m, best = base * (1 + 1e-12) + 1e-12;
    int best_p = -1;
    uint32_t best_at = 0;
    uint64_t best_set = 0;
    for (size_t t = 0; t < tries; t++) {
        size_t k = t + (size_t)vkat_rng_below(&f->rng, np - t);
        uint32_t p = f->params[k];
        f->params[k] = f->params[t];
        f->params[t] = p;
        size_t nv = f->sp->value_counts[p];
        memset(f->hist_sum, 0, nv * sizeof *f->hist_sum);
        memset(f->hist_count, 0, nv * sizeof *f->hist_count);
        for (size_t i = 0; i < m; i++) {
            uint32_t v = f->x[(size_t)idx[i] * np + p];
            f->hist_sum[v] += f->y[idx[i]];
            f->hist_count[v]++;
        }
        size_t no = 0;
        for (uint32_t v = 0; v < nv; v++)
            if (f->hist_count[v]) {
                f->hist_mean[v] = f->hist_sum[v] / f->hist_count[v];
                f->order[no++] = v;
            }
        int cat = is_categorical(f, p);
        if (cat) /* insertion sort by mean: a few values at most */
            for (size_t i = 1; i < no; i++)
                for (size_t j = i; j > 0 && f->hist_mean[f->order[j - 1]] > f->hist_mean[f->order[j]]; j--) {
                    uint32_t tmp = f->order[j];
                    f->order[j] = f->order[j - 1];
                    f->order[j - 1] = tmp;
                }
        double sl = 0;
        size_t nl = 0;
        uint64_t set = 0;
        for (size_t i = 0; i + 1 < no; i++) {
            uint32_t v = f->order[i];
            sl += f->hist_sum[v];
            nl += f->hist_count[v];
            set |= 1ull << (v & 63);
            size_t nr = m - nl;
            if (nl < min_leaf || nr < min_leaf)
                continue;
            double score = sl * sl / (double)nl + (sum - sl) * (sum - sl) / (double)nr;
            if (score > best) {
                best = score;
                best_p = (int)p;
                best_at = v;
                best_set = cat ? set : 0;
            }
        }
    }
    if (best_p < 0)
        return id;
    forest_node split = {best_p, 0, 0, best_at, best_set, 0};
    size_t l = 0;
    for (size_t i = 0; i < m; i++)
        if (goes_left(&split, f->x[(size_t)idx[i] * np + (size_t)best_p])) {
            uint32_t tmp = idx[l];
            idx[l++] = idx[i];
            idx[i] = tmp;
        }
    split.left = grow(f, tree, used, idx, l, depth + 1);
    split.right = grow(f, tree, used, idx + l, m - l, depth + 1);
    tree[id] = split;
    return id;
}

int vkat_forest_fit(vkat_forest *f, const uint32_t *x, const double *y, size_t n)
{
    if (!n)
        return 0;
    size_t per_tree = 2 * n + 1;
    if (per_tree > f->per_tree || !f->nodes) {
        forest_node *nodes = realloc(f->nodes, f->trees * per_tree * sizeof *nodes);
        if (!nodes)
            return 0;
        f->nodes = nodes;
        f->per_tree = per_tree;
    }
    if (n > f->idx_cap) {
        uint32_t *idx = realloc(f->idx, n * sizeof *idx);
        if (!idx)
            return 0;
        f->idx = idx;
        f->idx_cap = n;
    }
    f->x = x;
    f->y = y;
    for (size_t t = 0; t < f->trees; t++) {
        for (size_t i = 0; i < n; i++)
            f->idx[i] = (uint32_t)vkat_rng_below(&f->rng, n);
        size_t used = 0;
        grow(f, f->nodes + t * f->per_tree, &used, f->idx, n, 0);
    }
    f->x = NULL;
    f->y = NULL;
    return 1;
}

void vkat_forest_predict(const vkat_forest *f, const uint32_t *choice, double *mean, double *spread)
{
    double s = 0, s2 = 0;
    for (size_t t = 0; t < f->trees; t++) {
        const forest_node *tree = f->nodes + t * f->per_tree, *n = tree;
        while (n->param >= 0)
            n = tree + (goes_left(n, choice[n->param]) ? n->left : n->right);
        s += n->value;
        s2 += n->value * n->value;
    }
    double mu = s / (double)f->trees, var = s2 / (double)f->trees - mu * mu;
    *mean = mu;
    *spread = var > 0 ? sqrt(var) : 0;
}
