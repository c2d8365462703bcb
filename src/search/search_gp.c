/* search_gp.c — a small Gaussian process over the parameters' value indices, the surrogate of the gp strategy.
 * Unlike the forest, whose spread only says how much its trees disagree, a GP's predictive variance grows with the
 * distance from measured points, so an acquisition can value a region nothing has been measured in.
 * Distance: per ordered parameter the index step scaled by the list's length, per categorical parameter 1 when the
 * values differ (the one-hot encoding's distance up to a constant); a Matern 5/2 kernel of it, one length scale for
 * all parameters, chosen with the noise share by the marginal likelihood over a small grid at each fit (signal
 * variance profiled out). Targets are standardised. A fit is a Cholesky factorisation of at most max_points points
 * (O(n^3)); points added between fits extend the factor by one row (O(n^2)) with the same hyperparameters.
 * Pure computation: no search policy, no I/O. */
#include "search.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Length scales as multiples of sqrt(number of movable parameters), the largest distance in the space, and noise
 * as a share of the signal variance: the tables are nearly deterministic, but plateaus and failures (counted as
 * slower than anything seen) make an exact interpolant ring. */
static const double scales[] = {0.05, 0.1, 0.2, 0.4};
static const double noises[] = {1e-3, 3e-2};
#define NSCALES (sizeof scales / sizeof *scales)
#define NNOISES (sizeof noises / sizeof *noises)

struct vkat_gp {
    const vkat_search_space *sp;
    size_t cap, n; /* points held, at most cap */
    double *inv;   /* per parameter: 1 / (value_count - 1), 0 for categorical or fixed ones */
    uint32_t *x;   /* [cap][param_count] */
    double *y;     /* standardised targets */
    double *L;     /* [cap][cap] lower Cholesky factor of K + noise I (unit signal variance) */
    double *alpha; /* (K + noise I)^-1 y */
    double *tmp;   /* [cap] scratch */
    double ymean, ysd, length, noise, signal;
};

vkat_gp *vkat_gp_create(const vkat_search_space *space, size_t max_points)
{
    vkat_gp *g = calloc(1, sizeof *g);
    size_t np = space->param_count ? space->param_count : 1, cap = max_points ? max_points : 1;
    if (!g || !(g->inv = calloc(np, sizeof *g->inv)) || !(g->x = calloc(cap * np, sizeof *g->x)) ||
        !(g->y = calloc(cap, sizeof *g->y)) || !(g->L = calloc(cap * cap, sizeof *g->L)) ||
        !(g->alpha = calloc(cap, sizeof *g->alpha)) || !(g->tmp = calloc(cap, sizeof *g->tmp))) {
        vkat_gp_free(g);
        return NULL;
    }
    g->sp = space;
    g->cap = cap;
    for (size_t i = 0; i < space->param_count; i++)
        if (!(space->categorical && space->categorical[i]) && space->value_counts[i] > 1)
            g->inv[i] = 1.0 / (double)(space->value_counts[i] - 1);
    return g;
}

void vkat_gp_free(vkat_gp *g)
{
    if (!g)
        return;
    free(g->inv);
    free(g->x);
    free(g->y);
    free(g->L);
    free(g->alpha);
    free(g->tmp);
    free(g);
}

static double kernel(const vkat_gp *g, const uint32_t *a, const uint32_t *b)
{
    double d2 = 0;
    for (size_t i = 0; i < g->sp->param_count; i++) {
        if (a[i] == b[i])
            continue;
        double d = g->inv[i] ? ((double)a[i] - (double)b[i]) * g->inv[i] : 1.0;
        d2 += d * d;
    }
    double r = sqrt(5.0 * d2) / g->length;
    return (1 + r + r * r / 3) * exp(-r);
}

/* Factorises K + noise I of the first n points into g->L; 0 when it is not positive definite. */
static int factor(vkat_gp *g, size_t n)
{
    size_t np = g->sp->param_count, c = g->cap;
    for (size_t i = 0; i < n; i++) {
        for (size_t j = 0; j <= i; j++) {
            double s = kernel(g, g->x + i * np, g->x + j * np) + (i == j ? g->noise : 0);
            for (size_t k = 0; k < j; k++)
                s -= g->L[i * c + k] * g->L[j * c + k];
            if (i == j) {
                if (s <= 0)
                    return 0;
                g->L[i * c + i] = sqrt(s);
            } else
                g->L[i * c + j] = s / g->L[j * c + j];
        }
    }
    return 1;
}

/* alpha = (L L^T)^-1 y over the first n points. */
static void solve_alpha(vkat_gp *g, size_t n)
{
    size_t c = g->cap;
    for (size_t i = 0; i < n; i++) {
        double s = g->y[i];
        for (size_t k = 0; k < i; k++)
            s -= g->L[i * c + k] * g->alpha[k];
        g->alpha[i] = s / g->L[i * c + i];
    }
    for (size_t i = n; i-- > 0;) {
        double s = g->alpha[i];
        for (size_t k = i + 1; k < n; k++)
            s -= g->L[k * c + i] * g->alpha[k];
        g->alpha[i] = s / g->L[i * c + i];
    }
}

int vkat_gp_fit(vkat_gp *g, const uint32_t *x, const double *y, size_t n)
{
    size_t np = g->sp->param_count, movable = 0;
    if (!n || n > g->cap)
        return 0;
    for (size_t i = 0; i < np; i++)
        movable += g->sp->value_counts[i] > 1;
    memcpy(g->x, x, n * np * sizeof *x);
    double mean = 0, var = 0;
    for (size_t i = 0; i < n; i++)
        mean += y[i];
    mean /= (double)n;
    for (size_t i = 0; i < n; i++)
        var += (y[i] - mean) * (y[i] - mean);
    g->ymean = mean;
    g->ysd = n > 1 && var > 0 ? sqrt(var / (double)n) : 1;
    for (size_t i = 0; i < n; i++)
        g->y[i] = (y[i] - mean) / g->ysd;
    /* Marginal likelihood with the signal variance profiled out: -n/2 log(y^T K^-1 y / n) - log det L. */
    double best = -INFINITY, best_len = 0, best_noise = 0;
    double root = sqrt((double)(movable ? movable : 1));
    for (size_t a = 0; a < NSCALES; a++)
        for (size_t b = 0; b < NNOISES; b++) {
            g->length = scales[a] * root;
            g->noise = noises[b];
            if (!factor(g, n))
                continue;
            solve_alpha(g, n);
            double q = 0, logdet = 0;
            for (size_t i = 0; i < n; i++) {
                q += g->y[i] * g->alpha[i];
                logdet += log(g->L[i * g->cap + i]);
            }
            double lml = -0.5 * (double)n * log(q / (double)n + 1e-300) - logdet;
            if (lml > best) {
                best = lml;
                best_len = g->length;
                best_noise = g->noise;
            }
        }
    if (!isfinite(best))
        return 0;
    g->length = best_len;
    g->noise = best_noise;
    if (!factor(g, n))
        return 0;
    g->n = n;
    solve_alpha(g, n);
    double q = 0;
    for (size_t i = 0; i < n; i++)
        q += g->y[i] * g->alpha[i];
    g->signal = q / (double)n > 1e-6 ? q / (double)n : 1e-6;
    return 1;
}

int vkat_gp_add(vkat_gp *g, const uint32_t *x, double y)
{
    size_t np = g->sp->param_count, c = g->cap, n = g->n;
    if (!n || n >= c)
        return 0;
    /* New row of L: solve L r = k(X, x); diagonal sqrt(k(x, x) + noise - |r|^2). */
    double *row = g->L + n * c, s2 = 1 + g->noise;
    for (size_t i = 0; i < n; i++) {
        double s = kernel(g, g->x + i * np, x);
        for (size_t k = 0; k < i; k++)
            s -= g->L[i * c + k] * row[k];
        row[i] = s / g->L[i * c + i];
        s2 -= row[i] * row[i];
    }
    if (s2 <= 1e-12)
        return 0; /* (nearly) a duplicate: the factor stays as it was */
    row[n] = sqrt(s2);
    memcpy(g->x + n * np, x, np * sizeof *x);
    g->y[n] = (y - g->ymean) / g->ysd;
    g->n = n + 1;
    solve_alpha(g, g->n);
    return 1;
}

size_t vkat_gp_count(const vkat_gp *g)
{
    return g->n;
}

double vkat_gp_prior_sd(const vkat_gp *g)
{
    return g->ysd * sqrt(g->signal);
}

void vkat_gp_predict(const vkat_gp *g, const uint32_t *choice, double *mean, double *sd)
{
    size_t np = g->sp->param_count, c = g->cap, n = g->n;
    double mu = 0, v = 1;
    for (size_t i = 0; i < n; i++) {
        double k = kernel(g, g->x + i * np, choice);
        mu += k * g->alpha[i];
        if (!sd)
            continue;
        /* Forward substitution for L^-1 k, accumulated into the variance as it goes. */
        double s = k;
        for (size_t j = 0; j < i; j++)
            s -= g->L[i * c + j] * g->tmp[j];
        g->tmp[i] = s / g->L[i * c + i];
        v -= g->tmp[i] * g->tmp[i];
    }
    *mean = g->ymean + g->ysd * mu;
    if (sd)
        *sd = g->ysd * sqrt((v > 0 ? v : 0) * g->signal);
}
