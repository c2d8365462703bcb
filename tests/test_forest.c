/* test_forest.c — the model strategy's surrogate (search_forest.c): fitted to random samples of a synthetic
 * landscape, it ranks a small clearly faster region first, separates a categorical parameter's good values from
 * its bad ones (which no single ordered split can), does not invent a region it has not seen, and a seed fixes
 * the fit. */
#include "search.h"
#include "test.h"

#define NP 4
static const size_t counts[NP] = {8, 8, 6, 4};
static const uint8_t categorical[NP] = {0, 0, 0, 1};

/* Log time: a region (p0 in 5..6, p1 in 1..2) two units faster than a gentle slope elsewhere; the categorical
 * parameter's values 0 and 2 are fast, 1 and 3 slow. */
static double landscape(const uint32_t *c)
{
    double y = 2.0 + 0.05 * c[0] + 0.03 * c[2];
    if (c[0] >= 5 && c[0] <= 6 && c[1] >= 1 && c[1] <= 2)
        y -= 2.0;
    if (c[3] == 1 || c[3] == 3)
        y += 0.5;
    return y;
}

static int in_region(const uint32_t *c)
{
    return c[0] >= 5 && c[0] <= 6 && c[1] >= 1 && c[1] <= 2;
}

int main(void)
{
    vkat_search_space sp = {NP, counts, 8 * 8 * 6 * 4, NULL, NULL, categorical};
    vkat_forest_params fp = {16, 12, 2, 0.8};
    enum { N = 160 };
    uint32_t x[N * NP];
    double y[N];
    uint64_t rng = 5;
    for (size_t i = 0; i < N; i++) {
        vkat_search_random_valid(&sp, &rng, x + i * NP, 1);
        y[i] = landscape(x + i * NP);
    }
    vkat_forest *f = vkat_forest_create(&sp, &fp, 1);
    CHECK(f != NULL);
    CHECK(vkat_forest_fit(f, x, y, N));

    /* The best-ranked configuration of the whole space lies in the fast region (some 10 of the samples). */
    uint32_t c[NP], best_c[NP] = {0};
    double best = INFINITY, in_sum = 0, out_sum = 0, cat_good = 0, cat_bad = 0;
    size_t in_n = 0, out_n = 0;
    for (uint64_t k = 0; k < sp.raw_count; k++) {
        vkat_search_decode(&sp, k, c);
        double mu, sd;
        vkat_forest_predict(f, c, &mu, &sd);
        if (mu < best) {
            best = mu;
            memcpy(best_c, c, sizeof c);
        }
        if (in_region(c)) {
            in_sum += mu;
            in_n++;
        } else {
            out_sum += mu;
            out_n++;
        }
        if (c[3] == 0 || c[3] == 2)
            cat_good += mu;
        else
            cat_bad += mu;
    }
    CHECK_MSG(in_region(best_c), "best ranked %u,%u,%u,%u", best_c[0], best_c[1], best_c[2], best_c[3]);
    CHECK_MSG(in_sum / (double)in_n < out_sum / (double)out_n - 0.5, "region %.3f, elsewhere %.3f",
              in_sum / (double)in_n, out_sum / (double)out_n);
    CHECK_MSG(cat_bad - cat_good > 0.3 * (double)(sp.raw_count / 2), "categorical: good %.1f bad %.1f", cat_good,
              cat_bad);

    /* Trained on p0 < 4 only, it knows nothing of the fast region and must not invent it: a forest predicts from
     * what it has seen (the acquisition's random pool, not the model, is what reaches unseen regions). */
    size_t m = 0;
    for (size_t i = 0; i < N; i++)
        if (x[i * NP] < 4) {
            memmove(x + m * NP, x + i * NP, NP * sizeof *x);
            y[m++] = y[i];
        }
    CHECK(vkat_forest_fit(f, x, y, m));
    double mu, sd_unseen;
    uint32_t far[NP] = {6, 1, 0, 0};
    vkat_forest_predict(f, far, &mu, &sd_unseen);
    CHECK_MSG(mu > 1.5, "extrapolated %.3f into the unseen region", mu);

    /* A seed fixes the fit; another seed gives another one. One point fits as a single leaf. */
    vkat_forest *g = vkat_forest_create(&sp, &fp, 1), *h = vkat_forest_create(&sp, &fp, 2);
    vkat_forest *f1 = vkat_forest_create(&sp, &fp, 1);
    CHECK(g && h && f1 && vkat_forest_fit(g, x, y, m) && vkat_forest_fit(h, x, y, m) && vkat_forest_fit(f1, x, y, m));
    int differ = 0, same = 1;
    for (uint64_t k = 0; k < sp.raw_count; k += 7) {
        vkat_search_decode(&sp, k, c);
        double a, as, b, bs, e, es;
        vkat_forest_predict(g, c, &a, &as);
        vkat_forest_predict(f1, c, &b, &bs);
        vkat_forest_predict(h, c, &e, &es);
        same &= a == b && as == bs;
        differ |= a != e;
    }
    CHECK(same);
    CHECK(differ);
    CHECK(vkat_forest_fit(h, x, y, 1));
    vkat_forest_predict(h, far, &mu, &sd_unseen);
    CHECK(mu == y[0] && sd_unseen == 0);
    vkat_forest_free(f);
    vkat_forest_free(g);
    vkat_forest_free(h);
    vkat_forest_free(f1);
    vkat_forest_free(NULL);
    TEST_END();
}
