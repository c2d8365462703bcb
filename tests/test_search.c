/* test_search.c — strategies: exhaustive and random visit every configuration exactly once and then stop;
 * random is reproducible by seed and differs across seeds; encode/decode round-trip; a far restart lands away from
 * what was seen, and never on it. */
#include "search.h"
#include "test.h"

static int visits_each_once(const char *name, const size_t *counts, size_t n, uint64_t seed, uint64_t *order,
                            uint64_t cap)
{
    vkat_search_space sp = {n, counts, 1};
    for (size_t i = 0; i < n; i++)
        sp.raw_count *= counts[i];
    vkat_strategy *s;
    vkat_error err;
    if (vkat_strategy_create(name, &sp, seed, &s, &err) != VKAT_OK)
        return 0;
    unsigned char *seen = calloc(sp.raw_count, 1);
    uint32_t choice[8];
    uint64_t got = 0;
    int ok = 1;
    while (vkat_strategy_propose(s, choice)) {
        uint64_t idx = vkat_search_encode(&sp, choice);
        if (idx >= sp.raw_count || seen[idx]++)
            ok = 0;
        if (order && got < cap)
            order[got] = idx;
        got++;
        vkat_strategy_observe(s, choice, 1.0);
        if (got > sp.raw_count)
            break;
    }
    free(seen);
    vkat_strategy_destroy(s);
    return ok && got == sp.raw_count;
}

/* Scaled distance from (a, b) in a 10 x 10 space to the seen corner [0, 4] x [0, 4]. */
static double corner_distance(const uint32_t *c)
{
    return ((c[0] > 4 ? c[0] - 4.0 : 0) + (c[1] > 4 ? c[1] - 4.0 : 0)) / 9.0;
}

static void far_restarts(void)
{
    size_t counts[] = {10, 10};
    vkat_search_space sp = {2, counts, 100};
    vkat_index_map seen = {0};
    for (uint32_t a = 0; a < 5; a++)
        for (uint32_t b = 0; b < 5; b++)
            vkat_index_map_put(&seen, vkat_search_encode(&sp, (uint32_t[]){a, b}), 1.0, 0, NULL);
    double far = 0, uniform = 0;
    int unseen = 1;
    for (uint64_t seed = 0; seed < 20; seed++) {
        uint64_t r1 = seed, r2 = seed;
        uint32_t f[2], u[2];
        CHECK(vkat_search_far_unseen(&sp, &r1, &seen, 16, f));
        CHECK(vkat_search_random_unseen(&sp, &r2, &seen, u));
        unseen &= vkat_search_unseen(&sp, &seen, f);
        far += corner_distance(f) / 20;
        uniform += corner_distance(u) / 20;
    }
    CHECK(unseen);
    /* The farthest of 16 draws sits near the opposite corner (distance 10/9); a uniform draw about half way. */
    CHECK_MSG(far > 0.9 && far > uniform + 0.3, "far restarts at %.3f, uniform ones at %.3f", far, uniform);
    /* Nothing left unseen: no restart. */
    for (uint64_t i = 0; i < 100; i++)
        vkat_index_map_put(&seen, i, 1.0, 0, NULL);
    uint64_t rng = 1;
    uint32_t c[2];
    CHECK(!vkat_search_far_unseen(&sp, &rng, &seen, 16, c));
    vkat_index_map_free(&seen);
}

int main(void)
{
    far_restarts();
    size_t c1[] = {1}, c2[] = {7}, c3[] = {4, 5, 3}, c4[] = {10, 10, 10, 13, 3};
    const char *names[] = {"exhaustive", "random"};
    for (int k = 0; k < 2; k++) {
        CHECK(visits_each_once(names[k], c1, 1, 1, NULL, 0));
        CHECK(visits_each_once(names[k], c2, 1, 2, NULL, 0));
        CHECK(visits_each_once(names[k], c3, 3, 3, NULL, 0));
        CHECK(visits_each_once(names[k], c4, 5, 4, NULL, 0));
    }
    uint64_t a[64], b[64], c[64];
    CHECK(visits_each_once("random", c4, 5, 42, a, 64));
    CHECK(visits_each_once("random", c4, 5, 42, b, 64));
    CHECK(visits_each_once("random", c4, 5, 43, c, 64));
    CHECK(memcmp(a, b, sizeof a) == 0);
    CHECK(memcmp(a, c, sizeof a) != 0);
    /* The exhaustive order is index order. */
    CHECK(visits_each_once("exhaustive", c3, 3, 0, a, 60));
    int in_order = 1;
    for (int i = 0; i < 60; i++)
        in_order &= a[i] == (uint64_t)i;
    CHECK(in_order);

    vkat_search_space sp = {3, c3, 60};
    uint32_t ch[3];
    vkat_search_decode(&sp, 59, ch);
    CHECK(ch[0] == 3 && ch[1] == 4 && ch[2] == 2);
    CHECK(vkat_search_encode(&sp, ch) == 59);

    vkat_strategy *s;
    vkat_error err = {0};
    CHECK(vkat_strategy_create("no-such", &sp, 0, &s, &err) == VKAT_ERR_USAGE);
    CHECK_CONTAINS(err.message, "exhaustive");
    uint64_t rng = 7, hist[3] = {0};
    for (int i = 0; i < 3000; i++)
        hist[vkat_rng_below(&rng, 3)]++;
    CHECK(hist[0] > 800 && hist[1] > 800 && hist[2] > 800);
    /* Blind strategies (proposals that never depend on observations) may be proposed far ahead (tune.c's wide
     * window); every adaptive one must not be. */
    for (size_t i = 0; vkat_strategies[i]; i++) {
        const char *n = vkat_strategies[i]->name;
        int blind = !strcmp(n, "exhaustive") || !strcmp(n, "random");
        CHECK_MSG(vkat_strategy_ops_blind(vkat_strategies[i]) == blind, "strategy %s: blind %d", n, !blind);
    }
    CHECK(!vkat_strategy_ops_blind(NULL));
    TEST_END();
}
