/* test_gp.c — the gp strategy's surrogate (search_gp.c): fitted to samples of a smooth synthetic landscape, it
 * interpolates the measured points, predicts unmeasured ones near them, ranks the landscape's minimum region first,
 * is uncertain away from the data and sure at it (the property the strategy is for: the forest's spread is not),
 * and a one-row update agrees with a fit that held the point from the start. */
#include "search.h"
#include "test.h"

#include <math.h>

#define NP 4
static const size_t counts[NP] = {10, 10, 8, 3};
static const uint8_t categorical[NP] = {0, 0, 0, 1};

/* Log time: a bowl with its minimum at (7, 2, *) and the categorical value 1 slower. */
static double landscape(const uint32_t *c)
{
    double a = ((double)c[0] - 7) / 9, b = ((double)c[1] - 2) / 9, d = (double)c[2] / 7;
    return 1.0 + 2 * (a * a + b * b) + 0.2 * d + (c[3] == 1 ? 0.3 : 0);
}

int main(void)
{
    vkat_search_space sp = {NP, counts, 10 * 10 * 8 * 3, NULL, NULL, categorical};
    enum { N = 90 };
    uint32_t x[(N + 1) * NP];
    double y[N + 1];
    uint64_t rng = 3;
    for (size_t i = 0; i < N + 1; i++) {
        vkat_search_random_valid(&sp, &rng, x + i * NP, 1);
        y[i] = landscape(x + i * NP);
    }
    vkat_gp *g = vkat_gp_create(&sp, 128);
    CHECK(g != NULL);
    if (!g)
        TEST_END();
    CHECK(!vkat_gp_fit(g, x, y, 0));
    CHECK(!vkat_gp_fit(g, x, y, 129)); /* more than it holds */
    CHECK(vkat_gp_fit(g, x, y, N));
    CHECK(vkat_gp_count(g) == N);

    /* At a measured point: its value, with a small deviation. */
    double mu, sd, prior = vkat_gp_prior_sd(g);
    vkat_gp_predict(g, x, &mu, &sd);
    CHECK(fabs(mu - y[0]) < 0.05);
    CHECK(sd < 0.2 * prior);

    /* Over the whole space: small errors, and the minimum ranked among the best. */
    uint32_t c[NP], best_c[NP] = {0};
    double best = INFINITY, err = 0;
    for (uint64_t k = 0; k < sp.raw_count; k++) {
        vkat_search_decode(&sp, k, c);
        vkat_gp_predict(g, c, &mu, NULL);
        err += fabs(mu - landscape(c));
        if (mu < best) {
            best = mu;
            memcpy(best_c, c, sizeof c);
        }
    }
    CHECK(err / (double)sp.raw_count < 0.05);
    CHECK(landscape(best_c) < 1.0 + 0.1);

    /* Away from the data the deviation grows: a fit on the corner p0, p1 <= 2 only is surer there than at the far
     * corner, and there it is close to the prior. */
    size_t m = 0;
    uint32_t xs[N * NP];
    double ys[N];
    for (size_t i = 0; i < N; i++)
        if (x[i * NP] <= 2 && x[i * NP + 1] <= 2) {
            memcpy(xs + m * NP, x + i * NP, NP * sizeof *x);
            ys[m++] = y[i];
        }
    CHECK(m >= 3);
    vkat_gp *h = vkat_gp_create(&sp, 128);
    CHECK(h && vkat_gp_fit(h, xs, ys, m));
    if (h) {
        const uint32_t near[NP] = {1, 1, 3, 0}, far[NP] = {9, 9, 3, 0};
        double sd_near, sd_far;
        vkat_gp_predict(h, near, &mu, &sd_near);
        vkat_gp_predict(h, far, &mu, &sd_far);
        CHECK(sd_far > 2 * sd_near);
        CHECK(sd_far > 0.5 * vkat_gp_prior_sd(h));
    }

    /* A one-row update (same hyperparameters, so not the same model as a fit of N + 1 points): it now
     * interpolates the new point, and it is sure there. A GP already holding its maximum refuses an update. */
    CHECK(vkat_gp_add(g, x + N * NP, y[N]));
    CHECK(vkat_gp_count(g) == N + 1);
    vkat_gp_predict(g, x + N * NP, &mu, &sd);
    CHECK(fabs(mu - y[N]) < 0.05);
    CHECK(sd < 0.2 * prior);
    vkat_gp *small = vkat_gp_create(&sp, 4);
    CHECK(small && vkat_gp_fit(small, x, y, 4) && !vkat_gp_add(small, x + 4 * NP, y[4]));
    vkat_gp_free(small);

    /* Deterministic: the same fit twice gives the same predictions. */
    vkat_gp *g2 = vkat_gp_create(&sp, 128);
    CHECK(g2 && vkat_gp_fit(g2, x, y, N) && vkat_gp_fit(g, x, y, N));
    if (g2) {
        double a, as, b, bs;
        const uint32_t q[NP] = {9, 0, 7, 2};
        vkat_gp_predict(g, q, &a, &as);
        vkat_gp_predict(g2, q, &b, &bs);
        CHECK(a == b && as == bs);
    }
    vkat_gp_free(g);
    vkat_gp_free(g2);
    vkat_gp_free(h);
    vkat_gp_free(NULL);
    TEST_END();
}
